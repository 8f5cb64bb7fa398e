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
 * Split s into host and port: the port is the digits after the last ':',
 * 0..65535; a host in brackets is an IPv6 literal (brackets required
 * when the host holds a ':'); the host is not empty. 0, or -1 with
 * *cause (static) saying why.
 */
int	 hostport_parse(const char *s, struct hostport *, const char **cause);

#endif
