/* What a repository's "owner/name" may be. */
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
