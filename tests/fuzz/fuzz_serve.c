/*
 * libFuzzer target: what serve_episodes reads from a request. The input
 * is tried as a path (anything taken must be one file of one repository's
 * folder), as a Range header against a size from its first bytes (a
 * range taken must lie inside the file), and as If-None-Match and
 * If-Modified-Since values.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "repo.h"
#include "serve.h"
#include "webhook.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct serve_path	 sp;
	enum serve_range	 r;
	long long		 fsize, first, last;
	char			*s;
	size_t			 i;

	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	if (serve_parse_path(&webhook_archive, s, &sp) == 0) {
		if (!serve_match(&webhook_archive, s) ||
		    !repo_name_ok(sp.dir) ||
		    sp.type == NULL || sp.file[0] == '\0' ||
		    sp.file[0] == '.' || strchr(sp.file, '/') != NULL ||
		    strstr(s, "..") == s + strlen(webhook_archive.prefix) ||
		    strchr(s, '%') != NULL || strchr(s, '\\') != NULL)
			abort();
	}

	/* a size from the first bytes: 0 to 2^40 */
	fsize = 0;
	for (i = 0; i < size && i < 5; i++)
		fsize = fsize * 256 + data[i];
	first = last = -7;
	r = serve_parse_range(s, fsize, &first, &last);
	if (r == SERVE_RANGE_OK &&
	    (first < 0 || last < first || last >= fsize))
		abort();
	if (r != SERVE_RANGE_OK && (first != -7 || last != -7))
		abort();	/* out-parameters are set only on success */

	(void)serve_etag_match(s, "\"1f-2a\"");
	(void)serve_etag_match(s, "W/\"x\"");
	(void)serve_http_date(s);
	free(s);
	return 0;
}
