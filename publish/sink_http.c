/* The http sink: the episode's JSON as written. */
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "xmalloc.h"

static int
http_build(const struct sink_episode *ep, struct sink_request *req,
    char **cause)
{
	req->body = xmalloc(ep->json_len + 1);
	memcpy(req->body, ep->json_text, ep->json_len);
	req->body[ep->json_len] = '\0';
	req->len = ep->json_len;
	req->content_type = "application/json";
	return 0;
}

char *
http_signed_text(const char *timestamp, const char *key, const char *body,
    size_t len, size_t *outlen)
{
	size_t	 tlen = strlen(timestamp), klen = strlen(key);
	char	*s;

	*outlen = tlen + 1 + klen + 1 + len;
	s = xmalloc(*outlen + 1);
	memcpy(s, timestamp, tlen);
	s[tlen] = '.';
	memcpy(s + tlen + 1, key, klen);
	s[tlen + 1 + klen] = '.';
	memcpy(s + tlen + 1 + klen + 1, body, len);
	s[*outlen] = '\0';
	return s;
}

const struct sink_kind sink_http = {
	.name = "http", .type = SINK_HTTP, .build = http_build,
};
