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

/*
 * An IP address's bytes (v4 or v6, a v6 one in brackets or not) into
 * out[16]; their count, or 0 when s (n bytes) is no address.
 */
static size_t
http_ip_bytes(const char *s, size_t n, unsigned char *out)
{
	char	tmp[INET6_ADDRSTRLEN + 2];

	if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
		s++;
		n -= 2;
	}
	if (n == 0 || n >= sizeof(tmp))
		return 0;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	if (inet_pton(AF_INET, tmp, out) == 1)
		return 4;
	if (inet_pton(AF_INET6, tmp, out) == 1)
		return 16;
	return 0;
}

/* Is the address of s (n bytes, as http_ip_bytes reads it) in trusted? */
static int
http_ip_trusted(const char *s, size_t n, const char *const *trusted,
    size_t ntrusted)
{
	unsigned char	a[16], b[16];
	size_t		alen, blen, i;

	if ((alen = http_ip_bytes(s, n, a)) == 0)
		return 0;
	for (i = 0; i < ntrusted; i++) {
		blen = http_ip_bytes(trusted[i], strlen(trusted[i]), b);
		if (blen == alen && memcmp(a, b, alen) == 0)
			return 1;
	}
	return 0;
}

int
http_client_addr(const char *peer, const char *xff,
    const char *const *trusted, size_t ntrusted, char *out, size_t outlen)
{
	const char	*end, *start, *best = peer;
	size_t		 bestlen = strlen(peer);
	unsigned char	 ip[16];

	if (xff == NULL || !http_ip_trusted(peer, bestlen, trusted, ntrusted))
		goto done;
	end = xff + strlen(xff);
	/* from the right: each hop was added by the one after it */
	while (end > xff) {
		start = end;
		while (start > xff && start[-1] != ',')
			start--;
		while (start < end && (*start == ' ' || *start == '\t'))
			start++;
		while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (http_ip_bytes(start, (size_t)(end - start), ip) == 0)
			break;	/* not an address: what is left of it is not told */
		best = start;
		bestlen = (size_t)(end - start);
		if (!http_ip_trusted(start, bestlen, trusted, ntrusted))
			break;
		end = start;
		while (end > xff && end[-1] != ',')
			end--;
		if (end > xff)
			end--;		/* the comma */
	}
done:
	if (bestlen >= outlen) {
		if (outlen > 0)
			out[0] = '\0';
		return -1;
	}
	memcpy(out, best, bestlen);
	out[bestlen] = '\0';
	return 0;
}
