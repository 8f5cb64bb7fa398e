/*
 * A commit message as text: word tests and cleaning for speech (markdown,
 * URLs, e-mail addresses, shas). The prose paragraphs of a body are
 * paras.c's.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "log.h"
#include "text.h"
#include "xmalloc.h"

/* Lines of a body that are trailers or references, not prose. */
static const char *text_trailers[] = {
	"closes #", "closes:", "closes http", "close #", "fixes #", "fixes:",
	"fixes http", "fix #", "fixed #", "resolves #", "resolves:",
	"resolves http", "resolve #", "refs #", "refs:", "ref #", "ref:",
	"see #", "part of #", "follow-up to", "followup to", "follow up to",
	"follow-up:", "spotted by", "reported by", "reported-by:",
	"co-authored-by:", "signed-off-by:", "reviewed-by:", "acked-by:",
	"tested-by:", "suggested-by:", "helped-by:", "assisted-by:",
	"approved by:", "reviewed by:", "pull request resolved:",
	"pull-request:", "ghstack-source-id:", "differential revision:",
	"change-id:", "this reverts commit", "bug:", "issue:", "url:",
	"credit:", "cc:", "cc @", "x-original", "(cherry picked",
	"stack from ghstack", "stack-info:", "found by ", NULL
};

/* Lines after which nothing is prose. */
static const char *text_stops[] = {
	"test plan", "testing:", "reviewers:", "subscribers:", "tasks:",
	"tags:", "differential revision", "pull request resolved",
	"[ghstack-poisoned]", "reverted http", "---", "checklist",
	"### checklist", NULL
};

/*
 * Whether s starts a credit in git's trailer form, a key of words joined
 * by hyphens ending in "-by" and a colon: "Co-developed-by:", "Found-by:",
 * "Reported-and-tested-by:". Projects coin their own; the list above
 * cannot name them all. *len the key's length with its colon.
 */
static int
text_by_trailer(const char *s, size_t *len)
{
	size_t	n;

	for (n = 0; isalpha((unsigned char)s[n]) || (s[n] == '-' && n > 0 &&
	    isalpha((unsigned char)s[n + 1])); n++)
		continue;
	if (n < 4 || s[n] != ':' || strncasecmp(s + n - 3, "-by", 3) != 0)
		return 0;
	if (len != NULL)
		*len = n + 1;
	return 1;
}

/* Whether s starts a trailer or reference line; *len its length. */
int
text_trailer(const char *s, size_t *len)
{
	return text_starts_any(s, text_trailers, len) ||
	    text_by_trailer(s, len);
}

/* Whether s starts a line after which nothing is prose ("Test Plan"). */
int
text_stop(const char *s)
{
	return text_starts_any(s, text_stops, NULL);
}

/* A lowercase copy (new). */
char *
text_lower(const char *s)
{
	char	*l = xstrdup(s != NULL ? s : "");
	char	*p;

	for (p = l; *p != '\0'; p++)
		*p = (char)tolower((unsigned char)*p);
	return l;
}

/* Whether lowercase s holds w at the start of a word. */
int
text_has_word(const char *s, const char *w)
{
	const char	*p = s;

	while ((p = strstr(p, w)) != NULL) {
		if (p == s || !isalnum((unsigned char)p[-1]))
			return 1;
		p++;
	}
	return 0;
}

/* Whether lowercase s holds any of words at the start of a word. */
int
text_has_any(const char *s, const char **words)
{
	size_t	i;

	for (i = 0; words[i] != NULL; i++) {
		if (text_has_word(s, words[i]))
			return 1;
	}
	return 0;
}

/* ASCII lowercase, whatever the locale. */
static inline int
text_ascii_lower(int ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

/*
 * Whether ch is an ASCII letter, digit or '_': a word character in any
 * locale, and none that text_clean has a rule for.
 */
static inline int
text_asciiword(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch == '_';
}

/* A word of a text_wordset's index. */
struct text_wordent {
	const char	*w;
	size_t		 len;
	unsigned	 list;
};

/* The part of word w ws looks for: all of it, or its last part. */
static const char *
text_wordset_word(const struct text_wordset *ws, const char *w, size_t *len)
{
	const char	*q;

	if (!ws->last) {
		*len = strlen(w);
		return w;
	}
	/* past the last space or '-' with more after: "free", "cve" */
	for (q = w; *q != '\0'; q++) {
		if ((*q == ' ' || *q == '-') && q[1] != '\0')
			w = q + 1;
	}
	*len = strcspn(w, "-");
	return w;
}

/* Word j of ws's group g (NULL past its last), which answers bit g. */
static const char *
text_wordset_at(const struct text_wordset *ws, size_t nlists, size_t g,
    size_t j)
{
	if (g < nlists)
		return ws->lists[g][j];
	return j == 0 ? ws->each[g - nlists] : NULL;
}

/* The bucket of a word's first two bytes, in lower case. */
static inline size_t
text_bucket(int c0, int c1)
{
	return ((unsigned)c0 * 37u + (unsigned)c1) & (TEXT_BUCKETS - 1);
}

/*
 * Index ws's words by a bucket of their first two bytes (a counting sort
 * into ws->ents; words of one byte apart): text_words then compares a
 * place of a text with the one or two words that can start there, not
 * with every word of its first letter.
 */
static void	text_wordset_index(struct text_wordset *);

static void
text_wordset_build(struct text_wordset *ws)
{
	/* drafts classify in threads (draft.c): one builds, the rest wait */
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&lock);
	if (!atomic_load_explicit(&ws->built, memory_order_relaxed))
		text_wordset_index(ws);
	pthread_mutex_unlock(&lock);
}

/* text_wordset_build's index, under its lock. */
static void
text_wordset_index(struct text_wordset *ws)
{
	size_t		 at[TEXT_BUCKETS + 1], g, j, n = 0, len, nlists;
	size_t		 ngroups, h;
	const char	*w;
	struct text_wordent *e;

	for (nlists = 0; nlists < TEXT_MAXLISTS && ws->lists[nlists] != NULL;
	    nlists++)
		continue;
	for (ngroups = nlists; ws->each != NULL &&
	    ws->each[ngroups - nlists] != NULL; ngroups++)
		continue;
	if (ngroups > 64)
		fatalx("%s: %zu word lists", __func__, ngroups);
	memset(at, 0, sizeof at);
	for (g = 0; g < ngroups; g++) {
		for (j = 0; (w = text_wordset_at(ws, nlists, g, j)) != NULL;
		    j++) {
			w = text_wordset_word(ws, w, &len);
			if (len < 2)
				ws->nones++;
			else {
				at[text_bucket((unsigned char)w[0],
				    (unsigned char)w[1]) + 1]++;
				n++;
			}
		}
	}
	ws->ents = xcalloc(n + 1, sizeof *ws->ents);
	ws->ones = xcalloc(ws->nones + 1, sizeof *ws->ones);
	for (h = 0; h < TEXT_BUCKETS; h++) {
		ws->first[h] = (unsigned short)at[h];
		at[h + 1] += at[h];
	}
	ws->first[TEXT_BUCKETS] = (unsigned short)n;
	ws->nones = 0;
	for (g = 0; g < ngroups; g++) {
		for (j = 0; (w = text_wordset_at(ws, nlists, g, j)) != NULL;
		    j++) {
			w = text_wordset_word(ws, w, &len);
			if (len < 2)
				e = &ws->ones[ws->nones++];
			else {
				/* at[h + 1] is the end of h's words: fill
				   back */
				h = text_bucket((unsigned char)w[0],
				    (unsigned char)w[1]);
				e = &ws->ents[--at[h + 1]];
			}
			e->w = w;
			e->len = len;
			e->list = (unsigned)g;
			ws->starts[(unsigned char)w[0]] = 1;
		}
	}
	atomic_store_explicit(&ws->built, 1, memory_order_release);
}

/* The lists of ws with a word at p, whose first byte lowered is c. */
static unsigned long long
text_words_at(const struct text_wordset *ws, const char *p, int c)
{
	const struct text_wordent *e, *end;
	unsigned long long bits = 0;
	size_t		 k, h;
	int		 c1;

	for (k = 0; k < ws->nones; k++) {
		if (ws->ones[k].w[0] == c)
			bits |= 1ULL << ws->ones[k].list;
	}
	if (p[1] == '\0')
		return bits;
	c1 = text_ascii_lower((unsigned char)p[1]);
	h = text_bucket(c, c1);
	e = ws->ents + ws->first[h];
	end = ws->ents + ws->first[h + 1];
	for (; e < end; e++) {
		/* the bucket may hold other first two bytes */
		if (e->w[0] != c || e->w[1] != c1)
			continue;
		for (k = 2; k < e->len &&
		    text_ascii_lower((unsigned char)p[k]) == e->w[k]; k++)
			continue;
		if (k == e->len)
			bits |= 1ULL << e->list;
	}
	return bits;
}

/*
 * The lists of ws with a word in s, as bits (see text.h). A byte no word
 * starts with is passed by one test of ws->starts: most bytes of a text
 * are, and the bucket and the one-byte words are read only at the rest.
 * With TEXT_STARTS a word is read at its first byte and then passed
 * whole, with the byte after it: no word starts in either.
 */
unsigned long long
text_words(const char *s, struct text_wordset *ws, int where)
{
	unsigned long long bits = 0;
	const char	*p;
	int		 c;

	if (!atomic_load_explicit(&ws->built, memory_order_acquire))
		text_wordset_build(ws);
	for (p = s; *p != '\0'; p++) {
		c = text_ascii_lower((unsigned char)*p);
		if (ws->starts[c])
			bits |= text_words_at(ws, p, c);
		if (where == TEXT_STARTS && isalnum((unsigned char)*p)) {
			while (isalnum((unsigned char)p[1]))
				p++;
			if (p[1] == '\0')
				break;
			p++;
		}
	}
	return bits;
}

/* Whether s starts with any of prefixes, ignoring case. */
int
text_starts_any(const char *s, const char **prefixes, size_t *len)
{
	size_t	i, n;
	int	first = tolower((unsigned char)*s);

	for (i = 0; prefixes[i] != NULL; i++) {
		/* the first two letters first: most prefixes stop there */
		if (first != tolower((unsigned char)prefixes[i][0]))
			continue;
		if (prefixes[i][1] != '\0' && tolower((unsigned char)s[1]) !=
		    tolower((unsigned char)prefixes[i][1]))
			continue;
		n = strlen(prefixes[i]);
		if (strncasecmp(s, prefixes[i], n) == 0) {
			if (len != NULL)
				*len = n;
			return 1;
		}
	}
	return 0;
}

/* Length of the token at s (up to space or a delimiter). */
static size_t
text_token_len(const char *s)
{
	return strcspn(s, " \t\r\n<>()[]{},;\"'`");
}

/*
 * Top-level domains a host may end in when a path or a port follows it
 * ("docs.rs/serde", "t.co/x"): these and a country's (text_cctlds).
 */
static const char *const text_tlds[] = {
	"com", "net", "org", "edu", "gov", "mil", "int", "info", "biz", "dev",
	"app", "xyz", "site", "online", "tech", "cloud", "page", "link",
	"click", "live", "shop", "store", "blog", "news", "email", "top",
	"club", "zip", "mov", "one", "icu", "wiki", "social", "codes", NULL
};

/*
 * Top-level domains a host may end in with nothing after it
 * ("evil-login.com"): not those that are file extensions too
 * ("setup.py", "README.md", "run.sh", "configure.in"), nor "at" and
 * "is" of code ("Array.prototype.at", "Object.is"), nor "io" of names
 * ("socket.io", a repository's; "tf.io").
 */
static const char *const text_bare_tlds[] = {
	"com", "net", "org", "edu", "gov", "mil", "info", "biz", "dev",
	"app", "xyz", "co", "me", "ly", "gg", "ai", "tv", "site", "online",
	"tech", "cloud", "page", "link", "click", "live", "shop", "top",
	"club", "icu", "ru", "cn", "uk", "de", "fr", "jp", "nl", "eu", NULL
};

/* The countries' top-level domains, each after a space. */
static const char text_cctlds[] =
    " ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg"
    " bh bi bj bm bn bo br bs bt bw by bz ca cc cd cf cg ch ci ck cl cm cn"
    " co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er es et eu fi fj"
    " fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy"
    " hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp ke kg kh"
    " ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me"
    " mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng"
    " ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa"
    " re ro rs ru rw sa sb sc sd se sg sh si sk sl sm sn so sr ss st su sv"
    " sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug uk us"
    " uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw";

/* Schemes that need no "//" ("mailto:a", "javascript:x", "data:..."). */
static const char *const text_opaque_schemes[] = {
	"mailto", "javascript", "vbscript", "data", "tel", "sms", "magnet",
	"urn", "about", "blob", "news", "file", "callto", "skype",
	/* a browser takes "https:evil.com" as "https://evil.com" */
	"http", "https", "ftp", "ws", "wss", NULL
};

/* Whether the n bytes at s, lowercase letters, are one of v. */
static int
text_in(const char *const *v, const char *s, size_t n)
{
	size_t	i;

	for (i = 0; v[i] != NULL; i++)
		if (strlen(v[i]) == n && strncasecmp(v[i], s, n) == 0)
			return 1;
	return 0;
}

/* Whether the n letters at s are a known top-level domain (any case). */
static int
text_tld(const char *s, size_t n)
{
	char	cc[4];

	if (n == 2) {
		cc[0] = ' ';
		cc[1] = (char)tolower((unsigned char)s[0]);
		cc[2] = (char)tolower((unsigned char)s[1]);
		cc[3] = '\0';
		return strstr(text_cctlds, cc) != NULL;
	}
	return text_in(text_tlds, s, n) || text_in(text_bare_tlds, s, n);
}

static int	text_email(const char *, size_t);

/* Whether c may be in a host name's label (IDN bytes too). */
static int
text_hostc(int c)
{
	return isalnum(c) || c == '-' || c >= 0x80;
}

/*
 * The length of a link from s: its token, with the parentheses it opens
 * and closes ("javascript:alert(1)", "wiki/Foo_(bar)") but not one that
 * closes around it ("(see https://x/1)"), less a sentence's end after it.
 */
static size_t
text_link_end(const char *s)
{
	size_t	n = 0, open;

	for (;;) {
		n += strcspn(s + n, " \t\r\n<>()[]{}\"'`");
		if (s[n] != '(')
			break;
		open = n;
		n += 1 + strcspn(s + n + 1, " \t\r\n<>()[]{}\"'`");
		if (s[n] != ')') {
			n = open;
			break;
		}
		n++;
	}
	while (n > 0 && strchr(".,;:!?", s[n - 1]) != NULL)
		n--;
	return n;
}

/* Whether the n bytes at s are an IPv4 address ("10.0.0.1"). */
static int
text_ipv4(const char *s, size_t n)
{
	size_t	i, dots = 0, digits = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '.') {
			if (digits == 0)
				return 0;
			dots++;
			digits = 0;
		} else if (isdigit((unsigned char)s[i]) && ++digits <= 3)
			continue;
		else
			return 0;
	}
	return dots == 3 && digits > 0;
}

/*
 * What counts as a link, for every text cleaned to be said or shown as
 * spoken text (text_clean, spoken_clean, the fence): the length of the
 * link that starts at p, prev the byte before it (0 at the start), or 0.
 * A link is
 *  - any scheme followed by "//" ("https://", "file://", "git+ssh://"),
 *    or one of text_opaque_schemes followed by its target
 *    ("javascript:x", "mailto:a@b", "file:/etc" - "file:line" is none);
 *  - "//" and a host ("//host/x"), as a page resolves it;
 *  - a host and a port ("host:8080", "localhost:80", "10.0.0.1:80"):
 *    "localhost" or an IPv4 address and two to five digits, a name of
 *    two bytes or more opening with a letter and three to five
 *    ("10:30", "a:1", "std::x" and an image's "node:18" are no links);
 *  - a dotted host ending in a known top-level domain (text_tlds or a
 *    country's) with a path ("evil-login.com/reset", "bit.ly/x",
 *    "docs.rs/serde"), or with a port when its domain is no file
 *    extension ("example.com:8443"; "parser.py:120" is a file's line,
 *    "evil.sh:80/x" a link), or alone when its domain is one no file
 *    name ends in (text_bare_tlds, lowercase: "example.com"; not
 *    "setup.py", "README.md", "Node.js", "ASP.NET", "e.g.");
 *  - an e-mail address ("a@b.com"; "send@0.19.0" is a version).
 * Not inside a word or a path: a link starts after a space or
 * punctuation, not after a letter, '.', '/', '@', ':', '-' or '\\'
 * ("src/foo.com/x" is a path's part, where "foo.com/x" alone is a link).
 * The length leaves out a sentence's end after the link.
 */
size_t
text_link_len(const char *p, int prev)
{
	const unsigned char	*s = (const unsigned char *)p, *q, *dot;
	size_t			 n, tld, digits;

	if (prev != 0 && (text_isword(prev) || strchr("./@:-\\", prev) !=
	    NULL))
		return 0;
	if (strncasecmp(p, "www.", 4) == 0 && text_hostc(s[4]))
		return text_link_end(p);
	/* "//host/x" */
	if (s[0] == '/' && s[1] == '/') {
		for (q = s + 2, dot = NULL; text_hostc(*q) ||
		    (*q == '.' && text_hostc(q[1])); q++)
			if (*q == '.')
				dot = q;
		/* a host, not a comment ("//TODO: x") */
		if (q > s + 2 && isalnum(s[2]) && (dot != NULL || *q == '/' ||
		    (*q == ':' && isdigit(q[1]))))
			return text_link_end(p);
		return 0;
	}
	if (!isalnum(s[0]))
		return 0;
	/* a scheme */
	for (q = s; isalnum(*q) || *q == '+' || *q == '.' || *q == '-'; q++)
		continue;
	if (*q == ':' && isalpha(s[0])) {
		if (q[1] == '/' && q[2] == '/')
			return text_link_end(p);
		n = (size_t)(q - s);
		if (text_in(text_opaque_schemes, p, n) && q[1] != '\0' &&
		    !isspace(q[1]) && q[1] != ':' && (strncasecmp(p, "file", n)
		    != 0 || q[1] == '/' || q[1] == '\\'))
			return text_link_end(p);
	}
	/* a host: labels between dots */
	for (q = s, dot = NULL; text_hostc(*q) || (*q == '.' &&
	    text_hostc(q[1])); q++)
		if (*q == '.')
			dot = q;
	/* an address: a local part may hold more than a host's bytes */
	if (*q == '@' || strchr("_+%", *q) != NULL) {
		n = text_token_len(p);
		if (memchr(p, '@', n) != NULL && text_email(p, n)) {
			while (n > 1 && strchr(".,;:!?", p[n - 1]) != NULL)
				n--;
			return n;
		}
		return 0;
	}
	n = (size_t)(q - s);
	tld = 0;
	if (dot != NULL) {
		tld = (size_t)(q - (dot + 1));
		for (digits = 0; digits < tld; digits++)
			if (!isalpha(dot[1 + digits]))
				break;
		if (digits < tld)
			tld = 0;	/* "v1.2.3", "file.mp3" */
	}
	if (*q == ':' && isdigit(q[1])) {
		for (digits = 1; isdigit(q[1 + digits]); digits++)
			continue;
		if (digits < 2 || digits > 5 || (q[1 + digits] != '\0' &&
		    !isspace(q[1 + digits]) && q[1 + digits] != '/' &&
		    (strchr(".,;!?)", q[1 + digits]) == NULL ||
		    (q[2 + digits] != '\0' && !isspace(q[2 + digits])))))
			return 0;
		/*
		 * "localhost:80"; a name alone with three digits or more
		 * ("host:8080", where "node:18" is an image's tag); a domain
		 * no file name ends in, or any with a path after the port
		 * ("parser.py:120" is a file's line)
		 */
		if (text_ipv4(p, n) || (n == 9 &&
		    strncasecmp(p, "localhost", 9) == 0) || (dot == NULL &&
		    n >= 2 && isalpha(s[0]) && digits >= 3) || (tld > 0 &&
		    (text_in(text_bare_tlds, (const char *)dot + 1, tld) ||
		    text_in(text_tlds, (const char *)dot + 1, tld) ||
		    (q[1 + digits] == '/' &&
		    text_tld((const char *)dot + 1, tld)))))
			return text_link_end(p);
		return 0;
	}
	if (tld == 0 && !text_ipv4(p, n))
		return 0;
	if (*q == '/') {
		if (tld == 0 || text_tld((const char *)dot + 1, tld))
			return text_link_end(p);
		return 0;
	}
	/* alone: a lowercase domain no file name ends in */
	if (tld == 0 || *q == '_' || *q == '(')
		return 0;
	for (digits = 0; digits < tld; digits++)
		if (!islower(dot[1 + digits]))
			return 0;
	if (!text_in(text_bare_tlds, (const char *)dot + 1, tld))
		return 0;
	return n;
}

/*
 * Whether the token of length n at s is an e-mail address: its domain
 * ends in a name of letters ("a@b.com"), where a package's version does
 * not ("send@0.19.0", said as it is).
 */
static int
text_email(const char *s, size_t n)
{
	const char	*at = memchr(s, '@', n), *end = s + n, *dot;
	size_t		 k;

	if (at == NULL || at == s || (size_t)(at - s) + 1 >= n)
		return 0;
	while (end > at && strchr(".,;:!?", end[-1]) != NULL)
		end--;
	for (dot = end; dot > at && dot[-1] != '.'; dot--)
		continue;
	if (dot == at + 1 || dot <= at + 1 || end - dot < 2)
		return 0;
	for (k = 0; dot + k < end; k++)
		if (!isalpha((unsigned char)dot[k]))
			return 0;
	return 1;
}

/* Length of a hex sha at s (7-40 hex with a digit and a letter), or 0. */
static size_t
text_sha_len(const char *s)
{
	size_t	n = 0;
	int	digit = 0, letter = 0;

	while (isxdigit((unsigned char)s[n])) {
		if (isdigit((unsigned char)s[n]))
			digit = 1;
		else
			letter = 1;
		n++;
	}
	if (text_isword(s[n]) || n < 7 || n > 40)
		return 0;
	if (n == 40 || (digit && letter))
		return n;
	return 0;
}

/* Drop a trailing "in", "at", "see" ... left dangling by a removed URL. */
static void
text_drop_preposition(struct buf *b)
{
	static const char *preps[] = { "As of", "as of", "in", "at", "see",
	    "of", "from", "to", "by", "on", "for", "here", "via", "In", "At",
	    "See", NULL };
	size_t	 i, n, len;

	len = b->len;
	while (len > 0 && (isspace((unsigned char)b->data[len - 1]) ||
	    b->data[len - 1] == '<' || b->data[len - 1] == ':'))
		len--;
	for (i = 0; preps[i] != NULL; i++) {
		n = strlen(preps[i]);
		if (len >= n && strncmp(b->data + len - n, preps[i], n) == 0 &&
		    (len == n || isspace((unsigned char)b->data[len - n - 1]))) {
			b->len = len - n;
			while (b->len > 0 && (b->data[b->len - 1] == ' ' ||
			    b->data[b->len - 1] == ','))
				b->len--;
			b->data[b->len] = '\0';
			return;
		}
	}
}

/* Whether text so far ends in a word that names what "#N" is ("issue "). */
static int
text_ref_word(const char *text)
{
	static const char *words[] = { "issue ", "issues ", "PR ", "PRs ",
	    "pull request ", "pull requests ", "bug ", "ticket ", NULL };
	size_t	 i, n, len = strlen(text);

	for (i = 0; words[i] != NULL; i++) {
		n = strlen(words[i]);
		if (len >= n && strcasecmp(text + len - n, words[i]) == 0)
			return 1;
	}
	return 0;
}

/*
 * The length of a bracketed tag at s ("[ci skip]", "[X86]", "[1/3]", a
 * footnote "[2]"): up to 24 bytes, at most two words, no link after it;
 * 0 if s holds none. The caller takes one only after a space or "(":
 * "#[inline]" and "&[u8]" are code.
 */
static size_t
text_tag_len(const char *s)
{
	size_t	n, spaces = 0;

	for (n = 1; s[n] != ']' && n <= 24; n++) {
		if (s[n] == '\0' || s[n] == '[' || s[n] == '\n')
			return 0;
		if (s[n] == ' ')
			spaces++;
	}
	if (s[n] != ']' || n == 1 || spaces > 1 || s[n + 1] == '(')
		return 0;
	return n + 1;
}

/*
 * Drop a "see" a stripped reference left at the end of o ("as noted, see"
 * before the period). Whether one went.
 */
static int
text_drop_see(struct buf *o)
{
	size_t	len = o->len, k;
	int	colon = 0;

	while (len > 0 && (o->data[len - 1] == ' ' || o->data[len - 1] == ':'))
		colon |= o->data[--len] == ':';
	if (len < 3 || strncasecmp(o->data + len - 3, "see", 3) != 0 ||
	    (len > 3 && text_isword(o->data[len - 4])))
		return 0;
	len -= 3;
	/* "what you see." stays: only a "see" set off by itself goes */
	for (k = len; k > 0 && o->data[k - 1] == ' '; k--)
		continue;
	if (!colon && k > 0 && strchr(",(.;", o->data[k - 1]) == NULL)
		return 0;
	while (len > 0 && (o->data[len - 1] == ' ' || o->data[len - 1] == ',' ||
	    o->data[len - 1] == '(' || o->data[len - 1] == ';'))
		len--;
	o->len = len;
	o->data[len] = '\0';
	return 1;
}

/*
 * Whether text_clean gives s back as it is, nearly every subject: no
 * byte one of its rules starts at (markup, '#', '@', '.', '[', '<', '\\',
 * a non-ASCII byte, a URL's "://", a word of seven hex digits or more
 * that may be a sha), spaces single and between words, and nothing its
 * second pass drops ("()", a space before a comma, ',' first, '""', a
 * "see" before ')').
 */
static int
text_plain(const char *s)
{
	const char	*p;
	size_t		 hex = 0;
	int		 c;

	if (*s == ' ')
		return 0;
	for (p = s; *p != '\0'; p++) {
		c = (unsigned char)*p;
		if (text_asciiword(c)) {
			if (p == s || !text_asciiword(p[-1]))
				hex = 0;
			/* leading hex digits of a word: a sha's? */
			if (hex < SIZE_MAX && ((c >= '0' && c <= '9') ||
			    ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'))) {
				if (++hex >= 7)
					return 0;
			} else
				hex = SIZE_MAX;
			continue;
		}
		switch (c) {
		case ' ':
			if (p[1] == ' ' || p[1] == '\0' ||
			    strchr(",;)!?", p[1]) != NULL)
				return 0;
			break;
		case '/':
			if (p[1] == '/')
				return 0;
			break;
		case '-':
		case '\'':
		case '=':
		case '+':
		case '%':
		case '&':
			break;
		case ':':
			/* "host:8080", "mailto:x": a link (text_link_len) */
			if (p[1] != ' ' && p[1] != '\0')
				return 0;
			break;
		case ',':
		case ';':
		case '?':
			if (p == s)
				return 0;
			break;
		case '(':
			if (p[1] == ')')
				return 0;
			break;
		case ')':
			if (p == s || strchr("eE :", p[-1]) != NULL)
				return 0;
			break;
		case '"':
			if (p[1] == '"')
				return 0;
			break;
		default:
			return 0;
		}
	}
	return 1;
}

/*
 * text_clean's second pass (new string): whitespace folded, leftovers
 * like "()" and " ," dropped, an empty quotation and a "see" whose
 * reference went taken out.
 */
static char *
text_clean_fold(const char *s)
{
	struct buf	 o;
	const char	*p;
	int		 space = 0;

	buf_init(&o);
	for (p = s; *p != '\0'; p++) {
		if (isspace((unsigned char)*p)) {
			space = 1;
			continue;
		}
		if (((p[0] == '(' && p[1] == ')') || (p[0] == '<' &&
		    p[1] == '>') || (p[0] == '[' && p[1] == ']')) &&
		    (space || o.len == 0)) {
			p++;
			continue;
		}
		if (*p == ',' && (o.len == 0 || o.data[o.len - 1] == '.')) {
			space = 1;
			continue;
		}
		/* an empty quotation: "" */
		if ((p[0] == '"' || p[0] == '\xe2') && (space || o.len == 0) &&
		    ((p[0] == '"' && p[1] == '"') ||
		    strncmp(p, "\xe2\x80\x9c\xe2\x80\x9d", 6) == 0) &&
		    (p[p[0] == '"' ? 2 : 6] == '\0' ||
		    !text_isword(p[p[0] == '"' ? 2 : 6]))) {
			p += p[0] == '"' ? 1 : 5;
			continue;
		}
		/* "see." with its reference gone */
		if ((*p == '.' || *p == ')') && text_drop_see(&o) && *p == ')')
			continue;
		/* a file name keeps its space: "the .so files" */
		if (space && o.len > 0 && (strchr(",.;)!?", *p) == NULL ||
		    (*p == '.' && text_isword(p[1]))))
			buf_putc(&o, ' ');
		space = 0;
		buf_putc(&o, *p);
		/* nor does one here: the rest of a word is copied as is */
		while (text_asciiword(p[1]))
			buf_putc(&o, *++p);
	}
	return buf_steal(&o);
}

/*
 * Spoken-safe text (new string): markdown, backticks, URLs, e-mail
 * addresses, hex shas and "@" removed, whitespace folded; leftovers a
 * listener must not hear go too: an ellipsis, a tag ("[ci skip]",
 * "[X86]"), an empty quotation, a "see" whose reference went.
 */
char *
text_clean(const char *s)
{
	struct buf	 b;
	const char	*p, *e, *t;
	char		*fold;
	size_t		 n;

	if (s == NULL)
		return xstrdup("");
	if (text_plain(s))
		return xstrdup(s);
	buf_init(&b);
	for (p = s; *p != '\0';) {
		int wordstart = p == s || !text_isword(p[-1]);

		/* [text](url) and ![alt](url) -> text */
		if ((*p == '[' || (p[0] == '!' && p[1] == '[')) &&
		    (e = strstr(p, "](")) != NULL && memchr(p, '\n',
		    (size_t)(e - p)) == NULL && strchr(e, ')') != NULL) {
			t = p + (*p == '!' ? 2 : 1);
			buf_append(&b, t, (size_t)(e - t));
			p = strchr(e, ')') + 1;
			continue;
		}
		if (wordstart && (n = text_link_len(p, p == s ? 0 :
		    p[-1])) > 0) {
			/* an address: the sentence's end after it stays */
			e = memchr(p, '@', n) != NULL && memchr(p, '/', n) ==
			    NULL && memchr(p, ':', n) == NULL ? p : NULL;
			p += n;
			/* "flagged in <url>." -> "flagged." */
			if (e == NULL && (*p == '\0' ||
			    strchr(".,;:)\r\n", *p) != NULL))
				text_drop_preposition(&b);
			continue;
		}
		if (wordstart && (n = text_sha_len(p)) > 0) {
			p += n;
			continue;
		}
		/* "(#123)" goes; "#123" is said as "number 123" */
		if (p[0] == '(' && p[1] == '#' && isdigit((unsigned char)p[2])) {
			for (e = p + 2; isdigit((unsigned char)*e); e++)
				continue;
			if (*e == ')') {
				p = e + 1;
				continue;
			}
		}
		if (p[0] == '#' && isdigit((unsigned char)p[1]) &&
		    (p == s || !text_isword(p[-1]))) {
			if (!text_ref_word(buf_str(&b)))
				buf_puts(&b, "number ");
			p++;
			continue;
		}
		/* "..." and "\u2026": a sentence end before a capital, else
		 * nothing ("1...3" is "1 to 3") */
		if ((p[0] == '.' && p[1] == '.' && p[2] == '.') ||
		    ((unsigned char)p[0] == 0xe2 &&
		    strncmp(p, "\xe2\x80\xa6", 3) == 0)) {
			for (n = 3; p[n] == '.'; n++)
				continue;
			if (p > s && isdigit((unsigned char)p[-1]) &&
			    isdigit((unsigned char)p[n]))
				buf_puts(&b, " to ");
			else if (b.len > 0 && text_isword(b.data[b.len - 1]) &&
			    (p[n] == '\0' || (p[n] == ' ' &&
			    isupper((unsigned char)p[n + 1]))))
				buf_putc(&b, '.');
			else
				buf_putc(&b, ' ');
			p += n;
			continue;
		}
		/* a reference link: "[text][1]" -> text */
		if (*p == '[' && (e = strchr(p, ']')) != NULL && e[1] == '[' &&
		    memchr(p, '\n', (size_t)(e - p)) == NULL &&
		    (t = strchr(e + 2, ']')) != NULL && t - e <= 12) {
			for (p++; p < e; p++)
				if (*p != '`' && *p != '*')
					buf_putc(&b, *p);
			p = t + 1;
			continue;
		}
		/* a tag read aloud: "[ci skip]", "[X86]", "[1/3]" */
		if (*p == '[' && (p == s || strchr(" (\"\n", p[-1]) != NULL) &&
		    (n = text_tag_len(p)) > 0) {
			p += n;
			continue;
		}
		/* a package at its version: "send@^0.19.0" is "send 0.19.0" */
		if (*p == '@' && p > s && text_isword(p[-1]) &&
		    (isdigit((unsigned char)p[1]) || ((p[1] == '^' ||
		    p[1] == '~') && isdigit((unsigned char)p[2])))) {
			buf_putc(&b, ' ');
			p += p[1] == '^' || p[1] == '~' ? 2 : 1;
			continue;
		}
		if (*p == '`' || *p == '@' || *p == '*') {
			p++;
			continue;
		}
		if (p[0] == '\\' && p[1] != '\0' &&
		    ispunct((unsigned char)p[1])) {
			p++;
			continue;
		}
		buf_putc(&b, *p);
		p++;
		/* no rule looks inside a word: copy the rest of it */
		if (text_isword(p[-1]))
			while (text_asciiword(*p))
				buf_putc(&b, *p++);
	}

	fold = text_clean_fold(buf_str(&b));
	buf_free(&b);
	return fold;
}

/*
 * As text_clean, but steals s: s itself when none of the rules touches it
 * (most subjects), else the cleaned text (new) and s freed. Spares the
 * copy a caller that cleans its own string would make and free.
 */
char *
text_clean_steal(char *s)
{
	char	*c;

	if (s == NULL || text_plain(s))
		return s != NULL ? s : xstrdup("");
	c = text_clean(s);
	free(s);
	return c;
}

size_t
text_word_count(const char *s)
{
	size_t	n = 0;
	int	in = 0;

	for (; *s != '\0'; s++) {
		if (isspace((unsigned char)*s))
			in = 0;
		else if (!in) {
			in = 1;
			n++;
		}
	}
	return n;
}
