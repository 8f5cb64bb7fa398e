/* The one parser of "host:port" and "[v6]:port" listen addresses. */
#ifndef HOOKCAST_HOSTPORT_H
#define HOOKCAST_HOSTPORT_H

#include <stddef.h>

struct hostport {
	char	host[256];	/* without brackets */
	int	port;		/* 0..65535 */
	int	bracketed;	/* written as [v6]:port */
};

/*
 * Split s into host and port: the port is the digits after the last ':'
 * (after "]:" for a bracketed host), 0..65535; a host in brackets is an
 * IPv6 literal, holding a ':' (brackets required when the host holds a
 * ':'); the host is not empty and holds no space, control character or
 * stray bracket. Whether the host is an address is the caller's to say.
 * 0 with *hp filled, or -1 with *cause (static) saying why and *hp as it
 * was.
 */
int	 hostport_parse(const char *s, struct hostport *, const char **cause);

#endif
