/* The environment of the daemon's children: an allow-list. */
#include <stdlib.h>
#include <string.h>

#include "childenv.h"
#include "log.h"
#include "xmalloc.h"

/*
 * What a program needs to find its tools, speak the user's language and
 * tell the time the daemon tells: nothing of how the daemon was started.
 */
static const char *const childenv_allowed[] = {
	"PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR",
};

#define CHILDENV_PATH	"/usr/local/bin:/usr/bin:/bin"
#define CHILDENV_SECRET	"HOOKCAST_SECRET"

static char	*childenv_kept;		/* $HOOKCAST_SECRET, once taken */
static int	 childenv_taken;

static void
childenv_put(struct childenv *ce, const char *name, const char *value)
{
	size_t	len = strlen(name), i;
	char	*s;

	xasprintf(&s, "%s=%s", name, value);
	for (i = 0; i < ce->n; i++)
		if (strncmp(ce->v[i], name, len) == 0 && ce->v[i][len] == '=') {
			free(ce->v[i]);
			ce->v[i] = s;
			return;
		}
	ce->v = xreallocarray(ce->v, ce->n + 2, sizeof(*ce->v));
	ce->v[ce->n++] = s;
	ce->v[ce->n] = NULL;
}

void
childenv_init(struct childenv *ce)
{
	const char	*v;
	size_t		 i;

	ce->n = 0;
	ce->v = xcalloc(1, sizeof(*ce->v));
	for (i = 0; i < sizeof(childenv_allowed) / sizeof(*childenv_allowed);
	    i++) {
		if ((v = getenv(childenv_allowed[i])) != NULL)
			childenv_put(ce, childenv_allowed[i], v);
		else if (strcmp(childenv_allowed[i], "PATH") == 0)
			childenv_put(ce, "PATH", CHILDENV_PATH);
	}
}

void
childenv_set(struct childenv *ce, const char *name, const char *value)
{
	/* the secret's name too is HOOKCAST_*: never a child's */
	if (strncmp(name, "HOOKCAST_", 9) != 0 ||
	    strcmp(name, CHILDENV_SECRET) == 0)
		fatalx("%s: %s is no child's variable", __func__, name);
	childenv_put(ce, name, value);
}

char *const *
childenv_vector(const struct childenv *ce)
{
	return ce->v;
}

void
childenv_clear(struct childenv *ce)
{
	size_t	i;

	for (i = 0; i < ce->n; i++)
		free(ce->v[i]);
	free(ce->v);
	ce->v = NULL;
	ce->n = 0;
}

void
childenv_take_secret(void)
{
	char	*v;

	if (childenv_taken)
		return;
	childenv_taken = 1;
	if ((v = getenv(CHILDENV_SECRET)) == NULL)
		return;
	childenv_kept = xstrdup(v);
	/*
	 * unsetenv only drops the pointer from environ: the string stays
	 * where the kernel put it, which is what /proc/PID/environ reads.
	 */
	explicit_bzero(v, strlen(v));
	unsetenv(CHILDENV_SECRET);
}

const char *
childenv_secret(void)
{
	if (childenv_taken)
		return childenv_kept;
	return getenv(CHILDENV_SECRET);
}
