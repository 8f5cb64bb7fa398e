/* "host:port" and "[v6]:port". */
#include <string.h>

#include "hostport.h"

int
hostport_parse(const char *s, struct hostport *hp, const char **cause)
{
	const char	*colon, *hs, *he, *p;
	long		 port = 0;
	int		 bracketed = 0;

	if (s == NULL || (colon = strrchr(s, ':')) == NULL) {
		*cause = "no ':port'";
		return -1;
	}
	if (colon[1] == '\0') {
		*cause = "no port after ':'";
		return -1;
	}
	for (p = colon + 1; *p != '\0'; p++) {
		if (*p < '0' || *p > '9' || port > 65535) {
			*cause = "the port is not a number 0..65535";
			return -1;
		}
		port = port * 10 + (*p - '0');
	}
	if (port > 65535) {
		*cause = "the port is not a number 0..65535";
		return -1;
	}
	hs = s;
	he = colon;
	if (*hs == '[') {
		if (he - hs < 2 || he[-1] != ']') {
			*cause = "an IPv6 address in brackets needs its ']'";
			return -1;
		}
		hs++;
		he--;
		bracketed = 1;
	} else if (memchr(hs, ':', (size_t)(he - hs)) != NULL) {
		*cause = "an IPv6 address goes in brackets: [::1]:8080";
		return -1;
	}
	if (he <= hs) {
		*cause = "no host before ':port'";
		return -1;
	}
	if ((size_t)(he - hs) >= sizeof(hp->host)) {
		*cause = "the host is too long";
		return -1;
	}
	memcpy(hp->host, hs, (size_t)(he - hs));
	hp->host[he - hs] = '\0';
	hp->port = (int)port;
	hp->bracketed = bracketed;
	return 0;
}
