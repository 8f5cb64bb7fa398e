/* The slack sink: an episode as a Block Kit message for an incoming webhook. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "sink.h"
#include "xmalloc.h"

char *
slack_escape(const char *s, size_t len)
{
	struct buf	b;
	size_t		i;

	buf_init(&b);
	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '&':
			buf_puts(&b, "&amp;");
			break;
		case '<':
			buf_puts(&b, "&lt;");
			break;
		case '>':
			buf_puts(&b, "&gt;");
			break;
		default:
			buf_putc(&b, s[i]);
			break;
		}
	}
	return buf_steal(&b);
}

/* The longest start of s, at most max bytes, that ends on a UTF-8 boundary. */
static size_t
slack_utf8_cut(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	while (max > 0 && ((unsigned char)s[max] & 0xc0) == 0x80)
		max--;
	return max;
}

/*
 * Where to end a piece of at most max bytes of s (len > max): after the
 * last paragraph break, else after the last sentence's end, else at the
 * last space, in the second half of it; else at a UTF-8 boundary that
 * splits no escape (&amp;).
 */
static size_t
slack_cut(const char *s, size_t len, size_t max)
{
	size_t	i, sentence = 0, space = 0, amp;

	if (len <= max)
		return len;
	for (i = max; i > max / 2; i--) {
		if (s[i - 1] == '\n' && i >= 2 && s[i - 2] == '\n')
			return i;
		if (sentence == 0 && (s[i] == ' ' || s[i] == '\n') &&
		    (s[i - 1] == '.' || s[i - 1] == '!' || s[i - 1] == '?'))
			sentence = i;
		if (space == 0 && (s[i] == ' ' || s[i] == '\n'))
			space = i;
	}
	if (sentence != 0)
		return sentence;
	if (space != 0)
		return space;
	i = slack_utf8_cut(s, len, max);
	for (amp = i; amp > 0 && amp + 5 > i; amp--)
		if (s[amp - 1] == '&')
			return amp - 1;
	return i;
}

/* s without leading and trailing white space: start and length. */
static void
slack_trim(const char **s, size_t *len)
{
	while (*len > 0 && (**s == ' ' || **s == '\n')) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\n'))
		(*len)--;
}

/*
 * A mrkdwn text object: every one of the message's is made here. It is
 * verbatim: Slack would otherwise turn a URL, a #channel or an @name of
 * the episode's text into a link or a mention (the escapes keep out only
 * what is written with < and >).
 */
static json_t *
slack_mrkdwn(const char *text, size_t len)
{
	return json_pack("{s:s, s:s%, s:b}", "type", "mrkdwn", "text", text,
	    len, "verbatim", 1);
}

static json_t *
slack_section(const char *text, size_t len)
{
	return json_pack("{s:s, s:o}", "type", "section", "text",
	    slack_mrkdwn(text, len));
}

int
slack_message(const json_t *episode, const char *link, int link_is_audio,
    char **out, char **cause)
{
	const char	*title, *desc, *transcript, *p;
	char		*esc, *s, *fallback;
	json_t		*msg, *blocks;
	size_t		 len, n, budget, tail, cut;
	int		 truncated = 0;
	struct buf	 b;

	title = json_string_value(json_object_get(episode, "title"));
	if (title == NULL || *title == '\0') {
		*cause = xstrdup("the episode has no title");
		return -1;
	}
	desc = json_string_value(json_object_get(episode, "description"));
	transcript = json_string_value(json_object_get(episode, "transcript"));
	blocks = json_array();

	/* the header: plain text, no escapes */
	len = strlen(title);
	if (len > SLACK_MAX_HEADER) {
		n = slack_utf8_cut(title, len, SLACK_MAX_HEADER - 3);
		xasprintf(&s, "%.*s...", (int)n, title);
	} else
		s = xstrdup(title);
	json_array_append_new(blocks, json_pack("{s:s, s:{s:s, s:s}}", "type",
	    "header", "text", "type", "plain_text", "text", s));
	free(s);

	if (json_is_true(json_object_get(episode, "summary"))) {
		/* sink_summary: the episode was too large to send */
		p = link != NULL ? "_This episode is too large to send here; "
		    "it is at the link below._" : "_This episode is too large "
		    "to send here; it is in its files._";
		json_array_append_new(blocks, json_pack("{s:s, s:[o]}", "type",
		    "context", "elements", slack_mrkdwn(p, strlen(p))));
	}
	if (desc != NULL && *desc != '\0') {
		esc = slack_escape(desc, strlen(desc));
		len = strlen(esc);
		n = slack_cut(esc, len, SLACK_MAX_SECTION);
		json_array_append_new(blocks, slack_section(esc, n));
		free(esc);
	}

	/* room kept after the transcript: the note and the link */
	tail = 2;
	if (transcript != NULL) {
		esc = slack_escape(transcript, strlen(transcript));
		p = esc;
		len = strlen(esc);
		budget = SLACK_MAX_TRANSCRIPT;
		slack_trim(&p, &len);
		while (len > 0) {
			if (json_array_size(blocks) + tail >= SLACK_MAX_BLOCKS ||
			    budget == 0) {
				truncated = 1;
				break;
			}
			n = budget < SLACK_MAX_SECTION ? budget :
			    SLACK_MAX_SECTION;
			cut = slack_cut(p, len, n);
			if (cut == 0)
				cut = slack_utf8_cut(p, len, n);
			if (cut == 0) {
				truncated = 1;
				break;
			}
			s = xstrndup(p, cut);
			n = strlen(s);
			{
				const char *q = s;

				slack_trim(&q, &n);
				if (n > 0)
					json_array_append_new(blocks,
					    slack_section(q, n));
			}
			free(s);
			budget -= cut;
			p += cut;
			len -= cut;
			slack_trim(&p, &len);
		}
		free(esc);
	}
	if (truncated) {
		p = link != NULL ? "_The transcript is shortened here; the "
		    "whole episode is at the link below._" : "_The transcript "
		    "is shortened here; the whole episode is in its files._";
		json_array_append_new(blocks, json_pack("{s:s, s:[o]}", "type",
		    "context", "elements", slack_mrkdwn(p, strlen(p))));
	}
	if (link != NULL) {
		buf_init(&b);
		/* a URL's own &, < and > would end the link early */
		esc = slack_escape(link, strlen(link));
		buf_printf(&b, "<%s|%s>", esc, link_is_audio ?
		    "Listen to the episode" : "Read the episode");
		free(esc);
		json_array_append_new(blocks, slack_section(buf_str(&b),
		    b.len));
		buf_free(&b);
	}

	/* the notification's text */
	buf_init(&b);
	buf_puts(&b, title);
	if (desc != NULL && *desc != '\0') {
		buf_puts(&b, ": ");
		buf_puts(&b, desc);
	}
	esc = slack_escape(buf_str(&b), b.len);
	buf_free(&b);
	len = strlen(esc);
	n = slack_cut(esc, len, SLACK_MAX_TEXT);
	fallback = xstrndup(esc, n);
	free(esc);

	msg = json_pack("{s:s, s:o}", "text", fallback, "blocks", blocks);
	free(fallback);
	*out = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	return 0;
}

static int
slack_build(const struct sink_episode *ep, struct sink_request *req,
    char **cause)
{
	char	*body;

	if (slack_message(ep->json, ep->link, ep->link_is_audio, &body,
	    cause) == -1)
		return -1;
	req->body = body;
	req->len = strlen(body);
	req->content_type = "application/json";
	return 0;
}

const struct sink_kind sink_slack = {
	.name = "slack", .type = SINK_SLACK, .build = slack_build,
};
