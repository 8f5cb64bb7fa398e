/*
 * libFuzzer target: configuration files. Each input is written to one
 * temporary file per process and loaded as --config. Inputs naming a
 * key that opens a file (secret_file, github_token_file: "_file") are
 * skipped, so a generated path can't make the target read files it
 * should not (or /dev/zero without end); the environment that points at
 * secrets and state is cleared once.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	fuzz_path[] = "/tmp/hookcast-fuzz-config.XXXXXX";
static int	fuzz_fd = -1;

static void
fuzz_cleanup(void)
{
	if (fuzz_fd != -1) {
		close(fuzz_fd);
		unlink(fuzz_path);
	}
}

static int
fuzz_init(void)
{
	if (fuzz_fd != -1)
		return 0;
	unsetenv("CREDENTIALS_DIRECTORY");
	unsetenv("STATE_DIRECTORY");
	unsetenv("RUNTIME_DIRECTORY");
	unsetenv("HOOKCAST_SECRET");
	if ((fuzz_fd = mkstemp(fuzz_path)) == -1)
		return -1;
	atexit(fuzz_cleanup);
	return 0;
}

static int
fuzz_write(const uint8_t *data, size_t size)
{
	size_t	done = 0;
	ssize_t	n;

	if (ftruncate(fuzz_fd, 0) == -1)
		return -1;
	while (done < size) {
		n = pwrite(fuzz_fd, data + done, size - done, (off_t)done);
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config		 conf;
	struct config_causes	 causes = { NULL, 0 };
	char			*argv[] = { (char *)"hookcastd",
	    (char *)"--config", fuzz_path, (char *)"--insecure-no-signature",
	    NULL };
	int			 rv;

	if (memmem(data, size, "_file", 5) != NULL)
		return 0;
	if (fuzz_init() == -1 || fuzz_write(data, size) == -1)
		abort();
	rv = config_load(&conf, 4, argv, NULL, &causes);
	/* -1 exactly when there is a cause; what is set stays in range */
	if ((rv == 0) != (causes.n == 0) || (rv != 0 && rv != -1) ||
	    conf.emit_hour < 0 || conf.emit_hour > 23 ||
	    conf.emit_minute < 0 || conf.emit_minute > 59 ||
	    conf.webhook_path == NULL || conf.timezone == NULL ||
	    conf.state_dir == NULL || !conf.insecure_no_signature)
		abort();
	if (conf.nrepos > 0) {
		char *show = config_show(&conf, conf.repos[0].name);

		if (show == NULL ||
		    config_branches(&conf, conf.repos[0].name) == NULL)
			abort();
		free(show);
	}
	/* a show's queries answer whatever its globs and keys were */
	if (conf.nshows > 0) {
		struct config	eff;
		struct llm_conf	l;

		config_show_settings(&conf, &conf.shows[0], &eff);
		config_show_llm(&conf, &conf.shows[0], &l);
		if (eff.emit_hour < 0 || eff.emit_hour > 23 ||
		    eff.timezone == NULL ||
		    config_show_find(&conf, conf.shows[0].name) == NULL)
			abort();
		(void)show_conf_matches(&conf.shows[0], "pytorch/vision");
	}
	config_clear(&conf);
	config_causes_clear(&causes);
	return 0;
}
