/* "host:port" and "[v6]:port". */
#include <string.h>

#include "hostport.h"

int
hostport_parse(const char *s, struct hostport *hp, const char **cause)
{
	const char	*hs, *he, *port, *p;
	long		 n = 0;
	int		 bracketed = 0;

	if (s == NULL || *s == '\0') {
		*cause = "no address";
		return -1;
	}
	if (*s == '[') {
		/* the port follows the ']', whatever the literal holds */
		hs = s + 1;
		if ((he = strchr(hs, ']')) == NULL) {
			*cause = "an IPv6 address in brackets needs its ']'";
			return -1;
		}
		if (he[1] != ':') {
			*cause = he[1] == '\0' ? "no ':port'" :
			    "']' must be followed by ':port'";
			return -1;
		}
		if (he > hs && memchr(hs, ':', (size_t)(he - hs)) == NULL) {
			*cause = "brackets hold an IPv6 address";
			return -1;
		}
		port = he + 2;
		bracketed = 1;
	} else {
		if ((he = strrchr(s, ':')) == NULL) {
			*cause = "no ':port'";
			return -1;
		}
		hs = s;
		if (memchr(hs, ':', (size_t)(he - hs)) != NULL) {
			*cause = "an IPv6 address goes in brackets: [::1]:8080";
			return -1;
		}
		port = he + 1;
	}
	if (*port == '\0') {
		*cause = "no port after ':'";
		return -1;
	}
	for (p = port; *p != '\0'; p++) {
		/* checked before the multiplication: n stays small */
		if (*p < '0' || *p > '9' || n > 65535) {
			*cause = "the port is not a number 0..65535";
			return -1;
		}
		n = n * 10 + (*p - '0');
	}
	if (n > 65535) {
		*cause = "the port is not a number 0..65535";
		return -1;
	}
	if (he == hs) {
		*cause = "no host before ':port'";
		return -1;
	}
	for (p = hs; p < he; p++) {
		if ((unsigned char)*p <= ' ' || *p == 0x7f || *p == '[' ||
		    *p == ']') {
			*cause = "the host holds a space, a control character "
			    "or a stray bracket";
			return -1;
		}
	}
	if ((size_t)(he - hs) >= sizeof(hp->host)) {
		*cause = "the host is too long";
		return -1;
	}
	memcpy(hp->host, hs, (size_t)(he - hs));
	hp->host[he - hs] = '\0';
	hp->port = (int)n;
	hp->bracketed = bracketed;
	return 0;
}
