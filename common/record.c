/* Normalized records: message splitting, teardown and revert detection. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "record.h"
#include "utf8.h"
#include "xmalloc.h"

/*
 * The code point of the UTF-8 sequence at s (NUL-terminated) with its
 * length in *len, or -1 (length 1) when the bytes there are not
 * well-formed: a stray continuation, a truncated, overlong or surrogate
 * sequence, or past U+10FFFF.
 */
static long
record_utf8(const unsigned char *s, size_t *len)
{
	long	cp;
	size_t	need, i;

	*len = 1;
	if (s[0] < 0x80)
		return s[0];
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		need = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		need = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		need = 4;
		cp = s[0] & 0x07;
	} else
		return -1;
	for (i = 1; i < need; i++) {
		/* the terminating NUL fails this too */
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((need == 3 && cp < 0x800) || (need == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = need;
	return cp;
}

/*
 * Skip the rest of a terminal escape sequence; p is just past its
 * introducer. kind '[' is a CSI: parameter and intermediate bytes, then a
 * final byte. ']' (OSC), 'P' (DCS), 'X' (SOS), '^' (PM) and '_' (APC) are
 * strings ended by BEL or ST (ESC \ or U+009C); a terminal would swallow
 * an unended one to the end, here it ends with the line. Any other kind
 * is a plain ESC sequence: intermediates and one final byte. Returns
 * where the text resumes.
 */
static const unsigned char *
record_skip_escape(const unsigned char *p, int kind)
{
	switch (kind) {
	case '[':
		while (*p >= 0x20 && *p <= 0x3f)
			p++;
		if (*p >= 0x40 && *p <= 0x7e)
			p++;
		return p;
	case ']':
	case 'P':
	case 'X':
	case '^':
	case '_':
		for (; *p != '\0' && *p != '\n'; p++) {
			if (*p == 0x07)
				return p + 1;
			if ((p[0] == 0x1b && p[1] == '\\') ||
			    (p[0] == 0xc2 && p[1] == 0x9c))
				return p + 2;
		}
		return p;
	default:
		while (*p >= 0x20 && *p <= 0x2f)
			p++;
		if (*p >= 0x30 && *p <= 0x7e)
			p++;
		return p;
	}
}

/* The escape kind a C1 control introduces (as record_skip_escape), or 0. */
static int
record_c1_kind(long cp)
{
	switch (cp) {
	case 0x9b:
		return '[';
	case 0x9d:
		return ']';
	case 0x90:
		return 'P';
	case 0x98:
		return 'X';
	case 0x9e:
		return '^';
	case 0x9f:
		return '_';
	}
	return 0;
}

/* Marks that reorder or hide text without being seen: dropped. */
static int
record_invisible(long cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	    (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0xfeff;
}

/*
 * Payload text as the day keeps it, in place; the new length. See
 * record.h for the rules. The output is written behind the input (every
 * rule keeps or shortens), so one pass does it.
 */
size_t
record_clean(char *s, int flags)
{
	const unsigned char	*p;
	unsigned char		*start, *o;
	long			 cp;
	size_t			 len;
	int			 lines = flags & RECORD_CLEAN_LINES, kind;

	if (s == NULL)
		return 0;
	p = o = start = (unsigned char *)s;
	while (*p != '\0') {
		/* visible ASCII, most of any text, is kept as it is */
		if (*p > 0x20 && *p < 0x7f) {
			*o++ = *p++;
			continue;
		}
		cp = record_utf8(p, &len);
		if (cp == -1) {
			p++;
			continue;
		}
		p += len;
		if (cp == 0x1b) {
			kind = 0;
			if (*p != '\0' && strchr("[]PX^_", *p) != NULL)
				kind = *p++;
			p = record_skip_escape(p, kind);
			continue;
		}
		if (cp >= 0x80 && cp <= 0x9f) {
			if ((kind = record_c1_kind(cp)) != 0)
				p = record_skip_escape(p, kind);
			continue;
		}
		if (cp == '\r' && *p == '\n')
			continue;	/* the newline follows */
		if (cp == '\n' || cp == '\r' || cp == 0x2028 || cp == 0x2029) {
			if (lines) {
				*o++ = '\n';
				continue;
			}
			cp = ' ';
		}
		if (cp == '\t' || cp == '\v' || cp == '\f')
			cp = ' ';
		if (cp < 0x20 || cp == 0x7f || record_invisible(cp))
			continue;
		if (cp == ' ') {
			if (!lines && (o == start || o[-1] == ' '))
				continue;
			*o++ = ' ';
			continue;
		}
		memmove(o, p - len, len);
		o += len;
	}
	if (!lines && o > start && o[-1] == ' ')
		o--;
	*o = '\0';
	return (size_t)(o - start);
}

static void
record_clean_list(char **list, size_t n)
{
	size_t	i;

	for (i = 0; list != NULL && i < n; i++)
		record_clean(list[i], 0);
}

/* Clean every text a commit holds (record_clean); the body keeps lines. */
void
commit_clean(struct commit *c)
{
	record_clean(c->sha, 0);
	record_clean(c->author_name, 0);
	record_clean(c->author_login, 0);
	record_clean(c->author_email, 0);
	record_clean(c->committer_name, 0);
	record_clean(c->committer_login, 0);
	record_clean(c->subject, 0);
	record_clean(c->body, RECORD_CLEAN_LINES);
	record_clean(c->branch, 0);
	record_clean_list(c->added, c->nadded);
	record_clean_list(c->removed, c->nremoved);
	record_clean_list(c->modified, c->nmodified);
	record_clean(c->revert.reverted_sha, 0);
	record_clean(c->revert.reverted_subject, 0);
	record_clean(c->revert.reverted_pr, 0);
	record_clean(c->revert.requested_by, 0);
	record_clean(c->revert.reason, 0);
}

/* Clean every text a merged PR holds; the body keeps lines. */
void
merged_pr_clean(struct merged_pr *pr)
{
	record_clean(pr->title, 0);
	record_clean(pr->author_login, 0);
	record_clean(pr->body, RECORD_CLEAN_LINES);
	record_clean(pr->merge_sha, 0);
	record_clean(pr->branch, 0);
}

/* Clean every text a push holds (its ids are bytes, not text). */
void
push_clean(struct push *p)
{
	record_clean(p->branch, 0);
	record_clean(p->pusher, 0);
}

int
push_id_set(uint8_t id[PUSH_ID_LEN], const char *hex)
{
	uint8_t	v[PUSH_ID_LEN];
	size_t	i;
	int	hi, lo;

	memset(id, 0, PUSH_ID_LEN);
	if (hex == NULL || strlen(hex) != PUSH_HEX_LEN)
		return -1;
	for (i = 0; i < PUSH_ID_LEN; i++) {
		if ((hi = hex_digit(hex[2 * i])) == -1 ||
		    (lo = hex_digit(hex[2 * i + 1])) == -1)
			return -1;
		v[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(id, v, PUSH_ID_LEN);
	return 0;
}

void
push_id_hex(const uint8_t id[PUSH_ID_LEN], char hex[PUSH_HEX_LEN + 1])
{
	static const char	digits[] = "0123456789abcdef";
	size_t			i;

	for (i = 0; i < PUSH_ID_LEN; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 0xf];
	}
	hex[PUSH_HEX_LEN] = '\0';
}

int
push_id_none(const uint8_t id[PUSH_ID_LEN])
{
	size_t	i;

	for (i = 0; i < PUSH_ID_LEN; i++)
		if (id[i] != 0)
			return 0;
	return 1;
}

static int
record_blank(unsigned char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	    ch == '\v' || ch == '\f';
}

/* The length of s (n bytes) kept under a cap of max; see record.h. */
size_t
record_cut(const char *s, size_t n, size_t max)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, fit = 0, blank = 0, len;
	int			 blanks = 0;

	if (n <= max)
		return n;
	/* n > max: every character start i <= max is inside s */
	while (i <= max) {
		fit = i;
		if (record_blank(p[i])) {
			blank = i;
			blanks = 1;
		}
		if ((len = utf8_seq_len(p + i, n - i)) == 0)
			len = 1;
		i += len;
	}
	if (blanks) {
		while (blank > 0 && record_blank(p[blank - 1]))
			blank--;
		if (blank > 0)
			return blank;
	}
	return fit;
}

/* A copy of s cut to max bytes (record_cut); NULL for NULL. */
char *
record_cut_dup(const char *s, size_t max)
{
	if (s == NULL)
		return NULL;
	return xstrndup(s, record_cut(s, strlen(s), max));
}

/*
 * Split "subject\n\nbody" into owned subject and body, each cut to its
 * cap. 0 or -1.
 */
int
commit_set_message(struct commit *c, const char *message)
{
	const char	*nl, *body, *end, *p;
	size_t		 sublen;

	if (message == NULL)
		return -1;
	nl = strchr(message, '\n');
	sublen = nl != NULL ? (size_t)(nl - message) : strlen(message);
	while (sublen > 0 && isspace((unsigned char)message[sublen - 1]))
		sublen--;

	/* Cut blank lines before the body, but keep the first line's indent. */
	body = nl != NULL ? nl + 1 : message + strlen(message);
	for (;;) {
		p = body;
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p != '\n')
			break;
		body = p + 1;
	}
	end = body + strlen(body);
	while (end > body && isspace((unsigned char)end[-1]))
		end--;

	free(c->subject);
	free(c->body);
	c->subject = xstrndup(message, record_cut(message, sublen,
	    COMMIT_MAX_SUBJECT));
	c->body = xstrndup(body, record_cut(body, (size_t)(end - body),
	    COMMIT_MAX_BODY));
	return 0;
}


/* A string's share of a record's bytes: 0 for NULL. */
static size_t
record_str_bytes(const char *s)
{
	return s != NULL ? strlen(s) + 1 + RECORD_ALLOC_OVERHEAD : 0;
}

/* A file list's: one allocation, a pointer and the bytes of each name. */
static size_t
record_list_bytes(char *const *list, size_t n)
{
	size_t	i, bytes;

	if (list == NULL)
		return 0;
	bytes = n * sizeof(*list) + RECORD_ALLOC_OVERHEAD;
	for (i = 0; i < n; i++)
		bytes += strlen(list[i]) + 1;
	return bytes;
}

char **
record_list_new(size_t n, size_t bytes, char **names)
{
	char	**list;

	*names = NULL;
	if (n == 0)
		return NULL;
	if (n > (SIZE_MAX - bytes) / sizeof(*list))
		fatalx("%s: %zu names of %zu bytes", __func__, n, bytes);
	list = xmalloc(n * sizeof(*list) + bytes);
	*names = (char *)(list + n);
	return list;
}

char **
record_list_pack(const char *s, size_t bytes, size_t n)
{
	char	**list, *d;
	size_t	  i;

	if ((list = record_list_new(n, bytes, &d)) == NULL)
		return NULL;
	memcpy(d, s, bytes);
	for (i = 0; i < n; i++) {
		list[i] = d;
		d += strlen(d) + 1;
	}
	return list;
}

char **
record_list_dup(char *const *names, size_t n)
{
	char	**list, *d;
	size_t	  i, bytes = 0, l;

	for (i = 0; i < n; i++)
		bytes += strlen(names[i]) + 1;
	if ((list = record_list_new(n, bytes, &d)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		l = strlen(names[i]) + 1;
		list[i] = memcpy(d, names[i], l);
		d += l;
	}
	return list;
}

size_t
commit_bytes(const struct commit *c)
{
	const struct revert_info	*ri = &c->revert;

	return sizeof(*c) + record_str_bytes(c->sha) +
	    record_str_bytes(c->author_name) +
	    record_str_bytes(c->author_login) +
	    record_str_bytes(c->author_email) +
	    record_str_bytes(c->committer_name) +
	    record_str_bytes(c->committer_login) +
	    record_str_bytes(c->subject) + record_str_bytes(c->body) +
	    record_str_bytes(c->branch) +
	    record_list_bytes(c->added, c->nadded) +
	    record_list_bytes(c->removed, c->nremoved) +
	    record_list_bytes(c->modified, c->nmodified) +
	    record_str_bytes(ri->reverted_sha) +
	    record_str_bytes(ri->reverted_subject) +
	    record_str_bytes(ri->reverted_pr) +
	    record_str_bytes(ri->requested_by) + record_str_bytes(ri->reason);
}

size_t
merged_pr_bytes(const struct merged_pr *pr)
{
	return sizeof(*pr) + record_str_bytes(pr->title) +
	    record_str_bytes(pr->author_login) + record_str_bytes(pr->body) +
	    record_str_bytes(pr->merge_sha) + record_str_bytes(pr->branch);
}

size_t
push_bytes(const struct push *p)
{
	return sizeof(*p) + record_str_bytes(p->branch) +
	    record_str_bytes(p->pusher);
}

/* Free what a commit owns (not the struct itself) and zero it. */
void
commit_clear(struct commit *c)
{
	if (c == NULL)
		return;
	free(c->sha);
	free(c->author_name);
	free(c->author_login);
	free(c->author_email);
	free(c->committer_name);
	free(c->committer_login);
	free(c->subject);
	free(c->body);
	free(c->branch);
	free(c->added);
	free(c->removed);
	free(c->modified);
	revert_info_clear(&c->revert);
	memset(c, 0, sizeof(*c));
}

/* Free what a revert_info owns and zero it. */
void
revert_info_clear(struct revert_info *ri)
{
	if (ri == NULL)
		return;
	free(ri->reverted_sha);
	free(ri->reverted_subject);
	free(ri->reverted_pr);
	free(ri->requested_by);
	free(ri->reason);
	memset(ri, 0, sizeof(*ri));
}

/* Free what a merged_pr owns and zero it. */
void
merged_pr_clear(struct merged_pr *pr)
{
	if (pr == NULL)
		return;
	free(pr->title);
	free(pr->author_login);
	free(pr->body);
	free(pr->merge_sha);
	free(pr->branch);
	memset(pr, 0, sizeof(*pr));
}

/* Free what a push owns and zero it. */
void
push_clear(struct push *p)
{
	if (p == NULL)
		return;
	free(p->branch);
	free(p->pusher);
	memset(p, 0, sizeof(*p));
}

/*
 * Revert detection. Everything below works on (pointer, length) spans of
 * the subject and body, so nothing is copied until a field is kept.
 */

/* A span with surrounding white space cut, as a new string; NULL if empty. */
static char *
revert_span(const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0)
		return NULL;
	return xstrndup(s, n);
}

static int
revert_prefix(const char *s, size_t n, const char *prefix)
{
	size_t	plen = strlen(prefix);

	return n >= plen && memcmp(s, prefix, plen) == 0;
}

static int
revert_iprefix(const char *s, size_t n, const char *prefix)
{
	size_t	plen = strlen(prefix);

	return n >= plen && strncasecmp(s, prefix, plen) == 0;
}

static int
revert_ishex40(const char *s, size_t n)
{
	size_t	i;

	if (n < 40)
		return 0;
	for (i = 0; i < 40; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return n == 40 || !isxdigit((unsigned char)s[40]);
}

/*
 * Peel git's wrappers off a subject: Revert "X" (and Meta's Back out "X")
 * undo X, Reapply "X" applies X again. Each wrapper's inner subject runs to
 * the last quote, so a PR suffix after it ("Revert "X (#1)" (#2)") and
 * nested quotes both work. Returns the number of wrappers; *nundo counts
 * the undoing ones, whose parity says whether the result is a revert.
 */
static int
revert_peel(const char **sp, size_t *np, int *nundo)
{
	static const struct {
		const char	*prefix;
		int		 undo;
	} wrappers[] = {
		{ "Revert \"", 1 },
		{ "Reapply \"", 0 },
		{ "Back out \"", 1 },
	};
	const char	*s = *sp, *q;
	size_t		 n = *np, i, plen;
	int		 depth = 0;

	*nundo = 0;
	for (;;) {
		for (i = 0; i < sizeof(wrappers) / sizeof(wrappers[0]); i++)
			if (revert_prefix(s, n, wrappers[i].prefix))
				break;
		if (i == sizeof(wrappers) / sizeof(wrappers[0]))
			break;
		plen = strlen(wrappers[i].prefix);
		s += plen;
		n -= plen;
		q = memrchr(s, '"', n);
		if (q != NULL)
			n = q - s;
		depth++;
		*nundo += wrappers[i].undo;
	}
	*sp = s;
	*np = n;
	return depth;
}

/*
 * Find a re-land tag in a title: a leading "Reland" word, or a "[Reland]"
 * (or "[re-land]") among the leading bracket tags. On a match the title
 * without the tag goes into *rest.
 */
static int
revert_reland_tag(const char *s, size_t n, char **rest)
{
	const char	*p = s, *close;
	size_t		 left = n, taglen;
	struct {
		const char	*s;
		size_t		 n;
	} before, after;

	if (revert_iprefix(s, n, "reland") || revert_iprefix(s, n, "re-land")) {
		taglen = tolower((unsigned char)s[2]) == '-' ? 7 : 6;
		if (n > taglen && s[taglen] != ' ' && s[taglen] != ':' &&
		    s[taglen] != '"')
			return 0;
		p = s + taglen;
		left = n - taglen;
		while (left > 0 && (*p == ' ' || *p == ':'))
			p++, left--;
		/* Reland "X" */
		if (left >= 2 && p[0] == '"' && (close = memrchr(p + 1, '"',
		    left - 1)) != NULL) {
			left = close - (p + 1);
			p++;
		}
		*rest = revert_span(p, left);
		return 1;
	}

	while (left > 0 && *p == '[') {
		close = memchr(p, ']', left);
		if (close == NULL)
			return 0;
		taglen = close - p + 1;
		if ((taglen == 8 && strncasecmp(p, "[reland]", 8) == 0) ||
		    (taglen == 9 && strncasecmp(p, "[re-land]", 9) == 0)) {
			before.s = s;
			before.n = p - s;
			after.s = close + 1;
			after.n = left - taglen;
			while (after.n > 0 && (*after.s == ' ' || *after.s == ':'))
				after.s++, after.n--;
			if (before.n == 0)
				*rest = revert_span(after.s, after.n);
			else {
				char	*joined = xmalloc(before.n + after.n + 2);

				memcpy(joined, before.s, before.n);
				/* "[a][Reland] b" -> "[a] b" */
				joined[before.n] = ' ';
				memcpy(joined + before.n + 1, after.s, after.n);
				joined[before.n + 1 + after.n] = '\0';
				*rest = revert_span(joined, strlen(joined));
				free(joined);
			}
			return 1;
		}
		p = close + 1;
		left -= taglen;
		while (left > 0 && *p == ' ')
			p++, left--;
	}
	return 0;
}

/*
 * PyTorch's bot trailer:
 *   Reverted <pr url> on behalf of https://github.com/<login> due to
 *   <reason> ([comment](<url>))
 * all on one line. Returns 1 and fills ri's fields when line is one.
 */
static int
revert_bot_trailer(const char *line, size_t n, struct revert_info *ri)
{
	const char	*p, *end = line + n, *url, *who, *why, *stop;
	size_t		 urllen, wholen;

	if (!revert_prefix(line, n, "Reverted http"))
		return 0;
	url = line + strlen("Reverted ");
	for (p = url; p < end && *p != ' '; p++)
		/* nothing */;
	urllen = p - url;
	if (!revert_prefix(p, end - p, " on behalf of "))
		return 0;
	who = p + strlen(" on behalf of ");
	for (p = who; p < end && *p != ' '; p++)
		/* nothing */;
	wholen = p - who;
	while (wholen > 0 && who[wholen - 1] == '/')
		wholen--;
	stop = memrchr(who, '/', wholen);
	if (stop != NULL) {
		wholen -= stop + 1 - who;
		who = stop + 1;
	}

	free(ri->reverted_pr);
	ri->reverted_pr = revert_span(url, urllen);
	free(ri->requested_by);
	ri->requested_by = revert_span(who, wholen);
	free(ri->reason);
	ri->reason = NULL;
	if (revert_prefix(p, end - p, " due to ")) {
		why = p + strlen(" due to ");
		stop = memmem(why, end - why, " ([comment]", 11);
		ri->reason = revert_span(why, (stop != NULL ? stop : end) - why);
	}
	if ((ri->reason != NULL && strcasestr(ri->reason, "autorevert")) ||
	    (ri->requested_by != NULL &&
	    (strcasestr(ri->requested_by, "autorevert") != NULL ||
	    strcasestr(ri->requested_by, "auto-revert") != NULL)))
		ri->automatic = 1;
	return 1;
}

/* Is this line a trailer ("Key: value", "Closes #N", ...) not prose? */
static int
revert_is_trailer(const char *s, size_t n)
{
	static const char *const keys[] = {
		"fixes:", "closes:", "resolves:", "ref:", "refs:", "bug:",
		"follow-up to ", "follow-up:", "pull request resolved:",
		"pull-request:", "approved by:", "differential revision:",
		"reviewed by:", "[ghstack-poisoned]", "ghstack-source-id:",
	};
	/* These take one reference: "Fixes #123", "Closes o/r#4", a URL. */
	static const char *const refs[] = {
		"fixes ", "fix ", "closes ", "close ", "resolves ", "ref ",
		"refs ", "see ", "bug ", "reverts ",
	};
	const char	*p, *colon;
	size_t		 i, klen;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (revert_iprefix(s, n, keys[i]))
			return 1;
	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		klen = strlen(refs[i]);
		if (revert_iprefix(s, n, refs[i]) && n > klen &&
		    memchr(s + klen, ' ', n - klen) == NULL &&
		    (memchr(s + klen, '#', n - klen) != NULL ||
		    memchr(s + klen, '/', n - klen) != NULL))
			return 1;
	}

	/* git-style "Some-Token: value": one token with a hyphen. */
	colon = memchr(s, ':', n);
	if (colon == NULL || colon == s || colon + 1 == s + n ||
	    colon[1] != ' ')
		return 0;
	for (p = s; p < colon; p++)
		if (!isalnum((unsigned char)*p) && *p != '-')
			return 0;
	return memchr(s, '-', colon - s) != NULL;
}

/* Is this line the "This reverts commit" line git writes? */
static int
revert_is_reverts_line(const char *s, size_t n)
{
	return revert_prefix(s, n, "This reverts commit ");
}

/*
 * A person's reason for a revert: the first paragraph of the body that is
 * not git's "This reverts commit" line (with its "changes made to"
 * continuation for merges) and not trailers. Its prose lines are joined
 * with spaces.
 */
static char *
revert_human_reason(const char *body)
{
	const char	*p = body, *line, *eol;
	size_t		 n;
	struct {
		const char	*s;
		size_t		 n;
	} lines[64];
	size_t		 nlines = 0, i, total;
	int		 skipnext = 0, done = 0;
	char		*out, *o;

	while (!done) {
		line = p;
		eol = strchr(p, '\n');
		if (eol == NULL) {
			eol = p + strlen(p);
			done = 1;
		}
		n = eol - line;
		p = eol + (done ? 0 : 1);
		while (n > 0 && isspace((unsigned char)line[n - 1]))
			n--;
		while (n > 0 && isspace((unsigned char)*line))
			line++, n--;

		if (n != 0) {
			if (skipnext && revert_prefix(line, n, "changes made to"))
				skipnext = 0;
			else if (revert_is_reverts_line(line, n))
				skipnext = n > 9 &&
				    memcmp(line + n - 9, "reversing", 9) == 0;
			else {
				skipnext = 0;
				if (!revert_is_trailer(line, n) &&
				    nlines < sizeof(lines) / sizeof(lines[0])) {
					lines[nlines].s = line;
					lines[nlines].n = n;
					nlines++;
				}
			}
			if (!done)
				continue;
		}

		/* End of a paragraph: keep it if it had prose. */
		if (nlines > 0)
			break;
	}
	if (nlines == 0)
		return NULL;

	total = 0;
	for (i = 0; i < nlines; i++)
		total += lines[i].n + 1;
	out = o = xmalloc(total);
	for (i = 0; i < nlines; i++) {
		if (i > 0)
			*o++ = ' ';
		memcpy(o, lines[i].s, lines[i].n);
		o += lines[i].n;
	}
	*o = '\0';
	return out;
}

/*
 * Fill a revert_info from a commit's subject and body. ri is overwritten:
 * it must be zeroed or cleared beforehand. Either string may be NULL.
 */
int
revert_parse(const char *subject, const char *body, struct revert_info *ri)
{
	struct revert_info	 r;
	const char		*s, *p, *line, *eol;
	size_t			 n, len;
	int			 depth, nundo, bot = 0;
	char			*rest = NULL;

	memset(&r, 0, sizeof(r));
	if (subject == NULL)
		subject = "";
	if (body == NULL)
		body = "";

	s = subject;
	n = strlen(subject);
	depth = revert_peel(&s, &n, &nundo);
	if (depth > 0) {
		if (nundo % 2 == 1)
			r.is_revert = 1;
		else
			r.is_reland = 1;
		r.reverted_subject = revert_span(s, n);
	} else if (revert_reland_tag(subject, strlen(subject), &rest)) {
		r.is_reland = 1;
		r.reverted_subject = rest;
	} else if ((len = strlen(subject)) > 9 &&
	    strcmp(subject + len - 9, " (revert)") == 0) {
		r.is_revert = 1;
		r.reverted_subject = revert_span(subject, len - 9);
	}

	for (p = body; *p != '\0'; p = *eol != '\0' ? eol + 1 : eol) {
		line = p;
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		n = eol - line;
		while (n > 0 && isspace((unsigned char)line[n - 1]))
			n--;
		if (revert_is_reverts_line(line, n)) {
			line += strlen("This reverts commit ");
			n -= strlen("This reverts commit ");
			if (r.reverted_sha == NULL && revert_ishex40(line, n)) {
				r.reverted_sha = xstrndup(line, 40);
				for (len = 0; len < 40; len++)
					r.reverted_sha[len] = tolower(
					    (unsigned char)r.reverted_sha[len]);
			}
		} else if (!bot && revert_bot_trailer(line, n, &r))
			bot = 1;
	}
	if (!r.is_revert && !r.is_reland && (r.reverted_sha != NULL || bot))
		r.is_revert = 1;
	if (!bot && (r.is_revert || r.is_reland))
		r.reason = revert_human_reason(body);

	*ri = r;
	return 0;
}

const char *
commit_author_key(const struct commit *c)
{
	if (c->author_login != NULL && *c->author_login != '\0')
		return c->author_login;
	if (c->author_name != NULL && *c->author_name != '\0')
		return c->author_name;
	return NULL;
}
