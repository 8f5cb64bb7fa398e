/* What a repository's "owner/name" may be. */
#include <ctype.h>
#include <string.h>

#include "repo.h"

static int
repo_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

int
repo_name_ok(const char *s)
{
	const char	*slash, *p;
	size_t		 owner, name;

	if (s == NULL || (slash = strchr(s, '/')) == NULL ||
	    strchr(slash + 1, '/') != NULL)
		return 0;
	owner = (size_t)(slash - s);
	name = strlen(slash + 1);
	if (owner == 0 || owner > REPO_OWNER_MAX || name == 0 ||
	    name > REPO_NAME_MAX)
		return 0;
	for (p = s; *p != '\0'; p++)
		if (p != slash && !repo_char_ok(*p))
			return 0;
	if (s[0] == '.' || strcmp(slash + 1, ".") == 0 ||
	    strcmp(slash + 1, "..") == 0)
		return 0;
	return 1;
}

/* A byte of a repository URL past its scheme. */
static int
repo_url_char_ok(char c)
{
	return repo_char_ok(c) || c == '~' || c == ':' || c == '/' ||
	    c == '%';
}

int
repo_url_ok(const char *url, const char *full_name)
{
	const char	*host, *p;
	size_t		 len, nlen;

	if (url == NULL || full_name == NULL || !repo_name_ok(full_name))
		return 0;
	len = strlen(url);
	nlen = strlen(full_name);
	if (len > REPO_URL_MAX)
		return 0;
	if (strncmp(url, "https://", 8) == 0)
		host = url + 8;
	else if (strncmp(url, "http://", 7) == 0)
		host = url + 7;
	else
		return 0;
	/* a host before the first '/' */
	if (*host == '\0' || *host == '/' || *host == ':')
		return 0;
	for (p = host; *p != '\0'; p++) {
		if (!repo_url_char_ok(*p))
			return 0;
		/* a percent-escape is '%' and two hex digits */
		if (*p == '%' && (!isxdigit((unsigned char)p[1]) ||
		    !isxdigit((unsigned char)p[2])))
			return 0;
	}
	/* "/owner/name" at the end, after the host */
	if ((size_t)(url + len - host) < nlen + 2)
		return 0;
	p = url + len - nlen;
	if (p[-1] != '/' || p - 1 == host || strcmp(p, full_name) != 0)
		return 0;
	/* no empty part of the path ("//"), which a link would keep */
	return strstr(host, "//") == NULL;
}
