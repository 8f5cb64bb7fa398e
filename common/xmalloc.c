/* Allocation wrappers that abort on failure. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "xmalloc.h"

static void
xmalloc_die(const char *what, size_t n)
{
	log_oom(what, n);
	abort();
}

void *
xmalloc(size_t n)
{
	void	*p = malloc(n ? n : 1);

	if (p == NULL)
		xmalloc_die(__func__, n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (p == NULL)
		xmalloc_die(__func__, nmemb * size);
	return p;
}

void *
xrealloc(void *ptr, size_t n)
{
	void	*p = realloc(ptr, n ? n : 1);

	if (p == NULL)
		xmalloc_die(__func__, n);
	return p;
}

void *
xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		xmalloc_die(__func__, SIZE_MAX);
	return xrealloc(ptr, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vasprintf(ret, fmt, ap);
	va_end(ap);
	if (n < 0)
		xmalloc_die(__func__, 0);
	return n;
}
