/* Socket addresses as the server reads and writes them. */
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hostport.h"
#include "http.h"

/* The peer's address into addr, and with its port into peer. */
void
http_peer_name(const struct sockaddr *sa, char *addr, size_t addrlen,
    char *peer, size_t peerlen)
{
	const struct sockaddr_in	*sin = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6	*sin6 = (const struct sockaddr_in6 *)sa;

	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &sin->sin_addr, addr, (socklen_t)addrlen);
		snprintf(peer, peerlen, "%s:%u", addr, ntohs(sin->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &sin6->sin6_addr, addr, (socklen_t)addrlen);
		snprintf(peer, peerlen, "[%s]:%u", addr,
		    ntohs(sin6->sin6_port));
	} else {
		snprintf(addr, addrlen, "local");
		snprintf(peer, peerlen, "local");
	}
}

/*
 * "host:port" or "[v6]:port" (port 0 picks one) into ss: the host is an
 * IPv4 address or localhost (127.0.0.1), or an IPv6 address in brackets;
 * names are not looked up. 0, or -1 with a static *cause.
 */
int
http_parse_addr(const char *addr, struct sockaddr_storage *ss, int *sslen,
    const char **cause)
{
	struct hostport		 hp;
	const char		*host;
	struct sockaddr_in	*sin = (struct sockaddr_in *)ss;
	struct sockaddr_in6	*sin6 = (struct sockaddr_in6 *)ss;

	if (hostport_parse(addr, &hp, cause) == -1)
		return -1;
	memset(ss, 0, sizeof(*ss));
	if (hp.bracketed) {
		if (inet_pton(AF_INET6, hp.host, &sin6->sin6_addr) != 1) {
			*cause = "not an IPv6 address in the brackets";
			return -1;
		}
		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)hp.port);
		*sslen = sizeof(*sin6);
		return 0;
	}
	host = strcmp(hp.host, "localhost") == 0 ? "127.0.0.1" : hp.host;
	if (inet_pton(AF_INET, host, &sin->sin_addr) != 1) {
		*cause = "the host is not an IPv4 address or localhost";
		return -1;
	}
	sin->sin_family = AF_INET;
	sin->sin_port = htons((uint16_t)hp.port);
	*sslen = sizeof(*sin);
	return 0;
}

/* A bound socket's address as "host:port" or "[v6]:port"; 0 or -1. */
int
http_sockname(int fd, char *out, size_t outlen)
{
	struct sockaddr_storage	ss;
	socklen_t		len = sizeof(ss);
	char			host[INET6_ADDRSTRLEN];

	memset(&ss, 0, sizeof(ss));
	if (getsockname(fd, (struct sockaddr *)&ss, &len) == -1)
		return -1;
	if (ss.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
		    host, sizeof(host));
		snprintf(out, outlen, "[%s]:%u", host,
		    ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	} else if (ss.ss_family == AF_INET) {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr,
		    host, sizeof(host));
		snprintf(out, outlen, "%s:%u", host,
		    ntohs(((struct sockaddr_in *)&ss)->sin_port));
	} else
		return -1;
	return 0;
}
