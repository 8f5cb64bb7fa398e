/*
 * What a commit message gives to quote verbatim: figures ("1.7x", "35%",
 * "2.5 GB") and a setting, flag or environment variable it brings in.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "quote.h"
#include "text.h"
#include "xmalloc.h"

/* Whether unit at s (length n) is a unit a figure may carry. */
static int
quote_unit(const char *s, size_t n)
{
	static const char *units[] = { "KB", "MB", "GB", "TB", "PB", "KiB",
	    "MiB", "GiB", "TiB", "kB", "ms", "us", "ns", "sec", "secs",
	    "seconds", "minutes", "hours", "percent", "times", "fps", "FLOPS",
	    "TFLOPS", "GFLOPS", "tok/s", "tokens/s", "req/s", "GB/s", "MB/s",
	    "ops/s", "QPS", "rps", "x", "µs", NULL };
	size_t	i;

	for (i = 0; units[i] != NULL; i++) {
		if (strlen(units[i]) == n && strncmp(s, units[i], n) == 0)
			return 1;
	}
	return 0;
}

/* Figures quoted from text ("1.7x", "35%", "2.5 GB"): how many were stored. */
size_t
quote_figures(const char *s, char **out, size_t max)
{
	const char	*p, *q, *u;
	size_t		 n = 0, i, ulen;
	int		 dots, dup;
	char		*fig;

	if (s == NULL)
		return 0;
	for (p = s; *p != '\0' && n < max; p++) {
		/* on to the next digit: strcspn reads 16 bytes at a time */
		p += strcspn(p, "0123456789");
		if (*p == '\0')
			break;
		if ((p > s &&
		    (text_isword(p[-1]) || p[-1] == '.' || p[-1] == '/' ||
		    p[-1] == '-' || p[-1] == '#')))
			continue;
		dots = 0;
		for (q = p; isdigit((unsigned char)*q) || ((*q == '.' ||
		    *q == ',') && isdigit((unsigned char)q[1])); q++) {
			if (*q == '.')
				dots++;
		}
		if (dots > 1) {
			p = q - 1;
			continue;
		}
		fig = NULL;
		if ((*q == 'x' || *q == 'X') && !text_isword(q[1]))
			fig = xstrndup(p, (size_t)(q - p) + 1);
		else if (strncmp(q, "\xc3\x97", 2) == 0 && !text_isword(q[2]))
			fig = xstrndup(p, (size_t)(q - p) + 2);
		else if (*q == '%')
			fig = xstrndup(p, (size_t)(q - p) + 1);
		else {
			u = *q == ' ' ? q + 1 : q;
			ulen = strspn(u, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ/\xc2\xb5");
			while (ulen > 0 && u[ulen - 1] == '/')
				ulen--;
			if (ulen > 0 && !text_isword(u[ulen]) &&
			    quote_unit(u, ulen) && !(u == q + 1 && ulen == 1))
				fig = xstrndup(p, (size_t)(u - p) + ulen);
		}
		if (fig != NULL) {
			dup = 0;
			for (i = 0; i < n; i++) {
				if (strcmp(out[i], fig) == 0)
					dup = 1;
			}
			if (dup)
				free(fig);
			else
				out[n++] = fig;
		}
		p = q - 1;
	}
	return n;
}

/* Whether c may end a setting's value. */
static int
quote_value_char(int c)
{
	return c != '\0' && !isspace((unsigned char)c) && c != '`' &&
	    c != '"' && c != '\'';
}

/*
 * A setting of the given style in one line (new), or NULL: 0 an
 * ALL_CAPS_NAME, 1 a --long-flag, 2 a `snake_name=value`. With valued,
 * only one given a value (NAME=value).
 */
static char *
quote_setting_in(const char *line, int style, int valued)
{
	const char	*p, *q, *w;
	size_t		 n;
	int		 under, letters;

	for (p = line; *p != '\0'; p++) {
		/* the style's first byte first: few bytes start a name */
		if (style == 0 ? !isupper((unsigned char)*p) : style == 1 ?
		    *p != '-' || p[1] != '-' : p == line || p[-1] != '`')
			continue;
		if (p > line && (text_isword(p[-1]) || p[-1] == '-' ||
		    p[-1] == '.' || p[-1] == '/' || p[-1] == '=' ||
		    p[-1] == '$'))
			continue;
		q = p;
		if (style == 0 && isupper((unsigned char)*p)) {
			under = letters = 0;
			while (isupper((unsigned char)*q) ||
			    isdigit((unsigned char)*q) || *q == '_') {
				if (*q == '_')
					under = 1;
				else if (isupper((unsigned char)*q))
					letters++;
				q++;
			}
			if (!under || letters < 4 || q[-1] == '_' ||
			    islower((unsigned char)*q) || *q == '(' ||
			    (size_t)(q - p) < 5 || strchr(p, '_') > q)
				continue;
			if (p[strcspn(p, "_")] == '_' &&
			    strcspn(p, "_") < 2)
				continue;
		} else if (style == 1 && p[0] == '-' && p[1] == '-' &&
		    islower((unsigned char)p[2])) {
			q = p + 2;
			while (islower((unsigned char)*q) ||
			    isdigit((unsigned char)*q) || *q == '-')
				q++;
			if (q - p < 5 || q[-1] == '-')
				continue;
		} else if (style == 2 && islower((unsigned char)*p) &&
		    p > line && p[-1] == '`') {
			under = 0;
			while (islower((unsigned char)*q) ||
			    isdigit((unsigned char)*q) || *q == '_') {
				if (*q == '_')
					under = 1;
				q++;
			}
			if (!under || *q != '=' || !quote_value_char(q[1]))
				continue;
		} else
			continue;
		if (*q == '=' && quote_value_char(q[1])) {
			q++;
			while (quote_value_char(*q))
				q++;
			while (q > p && strchr(".,;:)]", q[-1]) != NULL)
				q--;
		} else if (valued)
			continue;
		/* inside a URL? */
		for (w = p; w > line && !isspace((unsigned char)w[-1]); w--)
			continue;
		if (memmem(w, (size_t)(p - w), "://", 3) != NULL)
			continue;
		n = (size_t)(q - p);
		return xstrndup(p, n);
	}
	return NULL;
}

/*
 * Walking a body line by line, telling prose from code: a fenced block,
 * an indented one, or the lines under a "Usage:" or "Example:" label up
 * to a blank line. The walk ends at a test plan or the like.
 */
struct quote_walk {
	const char	*p;
	struct buf	 line;
	int		 in_code;
	int		 usage;
};

enum quote_where { QUOTE_PROSE, QUOTE_CODE, QUOTE_USAGE };

static void
quote_walk_init(struct quote_walk *w, const char *body)
{
	w->p = body != NULL ? body : "";
	buf_init(&w->line);
	w->in_code = w->usage = 0;
}

/* The next line in w->line and where it is; 0 at the end. */
static int
quote_walk_next(struct quote_walk *w, enum quote_where *where)
{
	static const char *labels[] = { "usage:", "example:", "examples:",
	    "to enable:", "to try it:", NULL };
	const char	*eol, *s;
	size_t		 n;

	while (*w->p != '\0') {
		eol = w->p + strcspn(w->p, "\n");
		buf_reset(&w->line);
		buf_append(&w->line, w->p, (size_t)(eol - w->p));
		w->p = *eol == '\n' ? eol + 1 : eol;
		s = buf_str(&w->line);
		if (strstr(s, "```") != NULL || strstr(s, "~~~") != NULL) {
			w->in_code = !w->in_code;
			continue;
		}
		if (w->in_code) {
			*where = QUOTE_CODE;
			return 1;
		}
		if (text_stop(s))
			return 0;
		n = strspn(s, " \t*#>-");
		if (n > 0 && text_stop(s + n))
			return 0;
		s += n;
		if (*s == '\0') {
			w->usage = 0;
			*where = QUOTE_PROSE;
			return 1;
		}
		if (strchr("uUeEtT", *s) != NULL &&
		    text_starts_any(s, labels, &n)) {
			w->usage = 1;
			*where = QUOTE_USAGE;
			return 1;
		}
		if (w->usage)
			*where = QUOTE_USAGE;
		else if (strncmp(buf_str(&w->line), "    ", 4) == 0 ||
		    buf_str(&w->line)[0] == '\t')
			*where = QUOTE_CODE;
		else
			*where = QUOTE_PROSE;
		return 1;
	}
	return 0;
}

static void
quote_walk_free(struct quote_walk *w)
{
	buf_free(&w->line);
}

/* Whether s holds what every setting style needs: an '_' or a "--". */
static int
quote_may_set(const char *s)
{
	return s != NULL && (strchr(s, '_') != NULL || strstr(s, "--") != NULL);
}

/* Words of a subject that take back what it names: no setting from it. */
static const char *quote_dropping[] = { "drop", "remove", "delete",
    "deprecat", "no longer", NULL };
/* And of a line of prose: no setting from that line. */
static const char *quote_negative[] = { "drop", "remove", "delete",
    "deprecat", "unused", "no longer", "rename", NULL };

/*
 * Both lists for text_words, which reads them in a text as it comes (a
 * text_lower copy of each subject and line was only read, then freed).
 */
#define QUOTE_W_DROPPING	0x1ULL
#define QUOTE_W_NEGATIVE	0x2ULL
static struct text_wordset quote_setting_words = {
	.lists = { quote_dropping, quote_negative },
};

/*
 * A setting, flag or environment variable the message names (new), or
 * NULL. Prose is read for all three styles; a code block or a Usage:
 * block gives a NAME=value (and a Usage: block a --flag). One given a
 * value wins over a bare name. Nothing from a commit that drops, removes
 * or deprecates, nothing from a test plan.
 */
char *
quote_setting(const char *subject, const char *body)
{
	struct quote_walk	 w;
	enum quote_where	 where;
	char			*found[3] = { NULL, NULL, NULL }, *valued = NULL;
	const char		*s;
	int			 style;

	/*
	 * Every style needs an '_' (NAME_WITH_UNDERSCORE, `snake_name=v`)
	 * or a "--" (--long-flag): a message with neither names none, and
	 * most messages are spared the line walk below.
	 */
	if (!quote_may_set(subject) && !quote_may_set(body))
		return NULL;
	if (subject != NULL && (text_words(subject, &quote_setting_words,
	    TEXT_STARTS) & QUOTE_W_DROPPING))
		return NULL;
	/* one pass over the lines; an earlier style wins over a later one */
	for (style = 0; style < 3; style++)
		found[style] = quote_setting_in(subject != NULL ?
		    subject : "", style, 0);
	quote_walk_init(&w, body);
	while ((found[0] == NULL || strchr(found[0], '=') == NULL) &&
	    valued == NULL && quote_walk_next(&w, &where)) {
		s = buf_str(&w.line);
		if (where != QUOTE_PROSE) {
			valued = quote_setting_in(s, 0, 1);
			if (valued == NULL && where == QUOTE_USAGE &&
			    found[1] == NULL)
				found[1] = quote_setting_in(s, 1, 0);
			continue;
		}
		if (!(text_words(s, &quote_setting_words, TEXT_STARTS) &
		    QUOTE_W_NEGATIVE) && !text_trailer(s + strspn(s, " "),
		    NULL)) {
			for (style = 0; style < 3; style++) {
				if (found[style] == NULL)
					found[style] = quote_setting_in(s,
					    style, 0);
			}
			if (found[0] != NULL && strchr(found[0], '=') == NULL)
				valued = quote_setting_in(s, 0, 1);
		}
	}
	quote_walk_free(&w);
	if (valued != NULL && (found[0] == NULL ||
	    strchr(found[0], '=') == NULL)) {
		for (style = 0; style < 3; style++)
			free(found[style]);
		return valued;
	}
	free(valued);
	for (style = 0; style < 3; style++) {
		if (found[style] != NULL) {
			int other;

			for (other = style + 1; other < 3; other++)
				free(found[other]);
			return found[style];
		}
	}
	return NULL;
}

/* Whether lowercase s holds w as a whole word (or phrase). */
static int
quote_has_whole(const char *s, const char *w)
{
	const char	*p = s;
	size_t		 n = strlen(w);

	while ((p = strstr(p, w)) != NULL) {
		if ((p == s || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return 1;
		p++;
	}
	return 0;
}

/*
 * The sentence of src around at (new, lowercase), its wrapped lines
 * joined with a space; *before how many of its bytes come before at. A
 * sentence ends at ". ", "! ", "? ", a blank line or a list item: a
 * message wrapped at 72 columns says "This broke the build, because
 * configure was\nsetting `PKG_CONFIG_LIBDIR`", and its second line
 * alone reads as an offer.
 */
static char *
quote_sentence(const char *src, const char *at, size_t *before)
{
	const char	*from, *to, *p;
	char		*l;
	size_t		 k;

	for (from = at; from > src; from--) {
		if (from[-1] == '\n' && (from - 1 == src || from[-2] == '\n' ||
		    strchr("-*+", from[0]) != NULL))
			break;
		if (from - 1 > src && strchr(".!?", from[-2]) != NULL &&
		    isspace((unsigned char)from[-1]))
			break;
	}
	for (to = at; *to != '\0'; to++) {
		if (to[0] == '\n' && (to[1] == '\n' || to[1] == '\0' ||
		    (strchr("-*+", to[1]) != NULL && to[2] == ' ')))
			break;
		if (strchr(".!?", to[0]) != NULL && (to[1] == '\0' ||
		    isspace((unsigned char)to[1])) && to > at)
			break;
	}
	l = xstrndup(from, (size_t)(to - from));
	for (k = 0, p = l; *p != '\0'; p++)
		l[k++] = *p == '\n' ? ' ' : (char)tolower((unsigned char)*p);
	l[k] = '\0';
	*before = (size_t)(at - from);
	return l;
}

/*
 * The last n words of l's first before bytes, in its clause (after a ',',
 * ';', ':' or '('): cut in place. "To return to the old behaviour, set"
 * keeps "set"; "Now it more accurately returns" keeps "more accurately
 * returns".
 */
static char *
quote_words_before(char *l, size_t before, size_t n)
{
	char	*p;
	size_t	 words = 0;

	l[before] = '\0';
	for (p = l + before; p > l && strchr(",;:(", p[-1]) == NULL; p--) {
		/* a word of letters starts at p - 1 */
		if (isalpha((unsigned char)p[-1]) && (p - 1 == l ||
		    isspace((unsigned char)p[-2])) && ++words == n) {
			p--;
			break;
		}
	}
	return p;
}

/*
 * Whether the message introduces the setting rather than merely naming
 * it: the sentence that names it also says add, new, now, set, option,
 * flag, environment variable and the like. Not when the words before it
 * say the code returns it ("Now it more accurately returns
 * CURLE_COULDNT_RESOLVE_HOST": an error code, no setting) or stops
 * using it ("to not touch `PKG_CONFIG_LIBDIR`"), nor when the sentence
 * is about a failure or an example program's option.
 */
int
quote_setting_new(const char *subject, const char *body,
    const char *setting)
{
	static const char *words[] = { "add", "adds", "added", "introduce",
	    "introduces", "introduced", "new", "now", "set", "sets", "setting",
	    "can", "env", "environment", "variable", "option", "options",
	    "flag", "opt", "enable", "enables", "configure", "knob", "try",
	    "allow", "allows", "support", "supports", NULL };
	static const char *trouble[] = { "crash", "bug", "fail", "error",
	    "broke", "regression", "segfault", "leak", "hang", NULL };
	/* before the setting: what the code gives back, or stops doing */
	static const char *taken[] = { "return", "returns", "returned",
	    "returning", "no longer", "not touch", "not set", "never set",
	    "stops", "stopped", "stopping", "instead of", "rather than",
	    "without", "unsets", NULL };
	/* an example program's option is the example's, not the project's */
	static const char *example[] = { "example program", "example app",
	    "example code", "examples/", "example's", NULL };
	const char	*src[2] = { subject, body }, *at, *colon;
	char		*line, *near;
	size_t		 i, k, before;
	int		 found = 0;

	if (setting == NULL)
		return 0;
	/* "examples: add --verbose to http2-download" */
	if (subject != NULL && (colon = strchr(subject, ':')) != NULL &&
	    colon - subject < 24) {
		line = text_lower(subject);
		line[colon - subject] = '\0';
		found = strstr(line, "example") != NULL;
		free(line);
		if (found)
			return 0;
	}
	/* a NAME=value shown in a Usage: or code block is offered, a flag
	 * in a Usage: block too */
	if (strchr(setting, '=') != NULL || strncmp(setting, "--", 2) == 0) {
		struct quote_walk	w;
		enum quote_where	where;
		int			flag = setting[0] == '-';

		quote_walk_init(&w, body);
		while (!found && quote_walk_next(&w, &where))
			found = (where == QUOTE_USAGE || (where ==
			    QUOTE_CODE && !flag)) &&
			    strstr(buf_str(&w.line), setting) != NULL;
		quote_walk_free(&w);
		if (found)
			return 1;
	}
	for (i = 0; i < 2 && !found; i++) {
		if (src[i] == NULL || (at = strstr(src[i], setting)) == NULL)
			continue;
		line = quote_sentence(src[i], at, &before);
		memset(line + before, ' ', strlen(setting) <
		    strlen(line + before) ? strlen(setting) :
		    strlen(line + before));
		for (k = 0; words[k] != NULL && !found; k++)
			found = quote_has_whole(line, words[k]);
		/* a sentence about a failure names the setting, it doesn't
		   offer it */
		for (k = 0; trouble[k] != NULL && found; k++) {
			if (strstr(line, trouble[k]) != NULL)
				found = 0;
		}
		for (k = 0; example[k] != NULL && found; k++) {
			if (strstr(line, example[k]) != NULL)
				found = 0;
		}
		near = quote_words_before(line, before, 3);
		for (k = 0; taken[k] != NULL && found; k++) {
			if (quote_has_whole(near, taken[k]))
				found = 0;
		}
		free(line);
	}
	return found;
}

/* Whether lowercase l has "we", "our", "us" or "I" as a word. */
static int
quote_first_person(const char *l)
{
	static const char *we[] = { "we", "our", "us", "i", NULL };
	const char	*p = l;
	size_t		 n;

	while (*p != '\0') {
		while (*p != '\0' && !text_isword(*p))
			p++;
		for (n = 0; text_isword(p[n]); n++)
			continue;
		if (n > 0) {
			size_t k;

			for (k = 0; we[k] != NULL; k++) {
				if (strlen(we[k]) == n &&
				    strncmp(p, we[k], n) == 0)
					return 1;
			}
		}
		p += n;
	}
	return 0;
}

/* The end of the clause at s: a sentence end, ';', '(' or a line end. */
static size_t
quote_clause_len(const char *s)
{
	size_t	n;

	for (n = 0; s[n] != '\0' && s[n] != '\n'; n++) {
		if (s[n] == ';' || s[n] == '(' || s[n] == ':')
			break;
		if ((s[n] == '.' || s[n] == '!' || s[n] == '?' || s[n] == ',') &&
		    (s[n + 1] == '\0' || isspace((unsigned char)s[n + 1])))
			break;
	}
	return n;
}

/* Words in s[0..n). */
static size_t
quote_words(const char *s, size_t n)
{
	size_t	i, w = 0;

	for (i = 0; i < n; i++) {
		if (!isspace((unsigned char)s[i]) &&
		    (i == 0 || isspace((unsigned char)s[i - 1])))
			w++;
	}
	return w;
}

/*
 * Verbs in the third person that open a line saying what a change does
 * ("Places the preview next to the input"), each with the form it takes
 * after "to": the line is then the listener's payoff ("to place the
 * preview next to the input").
 */
static const char *const quote_does[][2] = {
	{ "adds", "add" }, { "aligns", "align" }, { "allows", "allow" },
	{ "applies", "apply" }, { "avoids", "avoid" }, { "caches", "cache" },
	{ "collapses", "collapse" }, { "colors", "color" },
	{ "colours", "colour" }, { "disables", "disable" },
	{ "displays", "display" }, { "enables", "enable" },
	{ "expands", "expand" }, { "follows", "follow" }, { "hides", "hide" },
	{ "highlights", "highlight" }, { "honors", "honor" },
	{ "honours", "honour" }, { "ignores", "ignore" },
	{ "includes", "include" }, { "keeps", "keep" }, { "lets", "let" },
	{ "limits", "limit" }, { "loads", "load" }, { "lowers", "lower" },
	{ "makes", "make" }, { "moves", "move" }, { "opens", "open" },
	{ "places", "place" }, { "preserves", "preserve" },
	{ "prevents", "prevent" }, { "prints", "print" }, { "puts", "put" },
	{ "raises", "raise" }, { "reduces", "reduce" }, { "removes", "remove" },
	{ "respects", "respect" }, { "restores", "restore" },
	{ "retries", "retry" }, { "returns", "return" }, { "reuses", "reuse" },
	{ "runs", "run" }, { "saves", "save" }, { "scrolls", "scroll" },
	{ "selects", "select" }, { "sends", "send" }, { "shows", "show" },
	{ "skips", "skip" }, { "sorts", "sort" }, { "speeds", "speed" },
	{ "stops", "stop" }, { "switches", "switch" }, { "toggles", "toggle" },
	{ "uses", "use" }, { "waits", "wait" }, { "wraps", "wrap" },
	{ "writes", "write" },
};

/*
 * "to VERB ..." from a line that opens with one of quote_does (any case)
 * and goes on for 2 to 16 words to its clause's end, appended to out;
 * not in the first person. 1 if appended.
 */
static int
quote_does_payoff(const char *line, struct buf *out)
{
	const char	*at;
	char		*rest, *clean;
	size_t		 i, n, w;
	int		 done = 0;

	line += strspn(line, " \t");
	for (i = 0; i < sizeof quote_does / sizeof quote_does[0]; i++) {
		n = strlen(quote_does[i][0]);
		if (strncasecmp(line, quote_does[i][0], n) == 0 &&
		    line[n] == ' ')
			break;
	}
	if (i == sizeof quote_does / sizeof quote_does[0])
		return 0;
	at = line + n + 1;
	n = quote_clause_len(at);
	w = quote_words(at, n);
	if (w < 2 || w > 16)
		return 0;
	rest = xstrndup(at, n);
	clean = text_clean(rest);
	if (*clean != '\0' && !quote_first_person(clean)) {
		buf_printf(out, "to %s %s", quote_does[i][1], clean);
		done = 1;
	}
	free(clean);
	free(rest);
	return done;
}

/*
 * The payoff of a setting, from the message's motivation: a clause "if
 * you want ...", "so that ...", "so you can ...", "to avoid ...", "to
 * prevent ...", "in order to ..." appended to out as a host would close
 * "Set X ..." with it. A line naming the setting is preferred. Clauses
 * in the first person ("so we can") are not a listener's payoff. 1 if
 * one was appended.
 */
int
quote_payoff(const char *subject, const char *body, const char *setting,
    struct buf *out)
{
	static const struct {
		const char *marker, *say;
	} markers[] = {
		{ "if you want ", "if you want " },
		{ "if you need ", "if you need " },
		{ "so that ", "so that " },
		{ "so you can ", "so you can " },
		{ "to avoid ", "to avoid " },
		{ "to prevent ", "to prevent " },
		{ "in order to ", "to " },
	};
	struct quote_walk	 w;
	enum quote_where	 where;
	struct buf		 best;
	const char		*src, *at;
	char			*l, *name, *clean;
	size_t			 k, n, pass;
	int			 named, done = 0;

	if (setting == NULL)
		return 0;
	name = xstrndup(setting, strcspn(setting, "="));
	buf_init(&best);
	/* pass 0: lines naming the setting; pass 1: any line */
	for (pass = 0; pass < 2 && !done; pass++) {
		src = subject != NULL ? subject : "";
		quote_walk_init(&w, body);
		for (;;) {
			if (src == NULL) {
				if (!quote_walk_next(&w, &where))
					break;
				if (where != QUOTE_PROSE)
					continue;
				src = buf_str(&w.line);
			}
			named = strstr(src, name) != NULL;
			l = text_lower(src);
			for (k = 0; k < sizeof markers / sizeof markers[0] &&
			    (named || pass == 1) && !done; k++) {
				if ((at = strstr(l, markers[k].marker)) == NULL ||
				    (at > l && text_isword(at[-1])))
					continue;
				at += strlen(markers[k].marker);
				n = quote_clause_len(at);
				if (quote_words(at, n) < 2 ||
				    quote_words(at, n) > 16)
					continue;
				buf_reset(&best);
				buf_append(&best, src + (at - l), n);
				if (quote_first_person(buf_str(&best)))
					continue;
				clean = text_clean(buf_str(&best));
				if (*clean != '\0') {
					buf_puts(out, markers[k].say);
					buf_puts(out, clean);
					done = 1;
				}
				free(clean);
			}
			free(l);
			src = NULL;
			if (done)
				break;
		}
		quote_walk_free(&w);
	}
	/*
	 * Else a line saying what the change does: one naming the setting,
	 * or the body's first line of prose.
	 */
	for (pass = 0; pass < 2 && !done; pass++) {
		quote_walk_init(&w, body);
		while (!done && quote_walk_next(&w, &where)) {
			src = buf_str(&w.line);
			if (where != QUOTE_PROSE || *src == '\0')
				continue;
			if (pass == 0 && strstr(src, name) == NULL)
				continue;
			done = quote_does_payoff(src, out);
			if (pass == 1)
				break;
		}
		quote_walk_free(&w);
	}
	buf_free(&best);
	free(name);
	return done;
}

/* The text of the words of o at lowercase offset at up to a clause end. */
static char *
quote_object(const char *o, size_t at, size_t maxwords)
{
	static const char *ends[] = { " and ", " because ", " since ",
	    " as ", " in favor ", " in favour ", " from ", " for ", NULL };
	const char	*s = o + at;
	size_t		 n, k, i, words = 0;
	const char	*e;
	char		*raw, *clean;

	n = quote_clause_len(s);
	for (k = 0; ends[k] != NULL; k++) {
		for (e = s; (e = strstr(e, ends[k])) != NULL &&
		    (size_t)(e - s) < n; e++) {
			/* "for" ends only a clause that has words before */
			if (e > s) {
				n = (size_t)(e - s);
				break;
			}
		}
	}
	for (i = 0; i < n; i++) {
		if (!isspace((unsigned char)s[i]) &&
		    (i == 0 || isspace((unsigned char)s[i - 1])) &&
		    ++words > maxwords)
			break;
	}
	n = i;
	while (n > 0 && (isspace((unsigned char)s[n - 1]) ||
	    strchr(".,;:`'\"", s[n - 1]) != NULL))
		n--;
	while (n > 0 && strchr("`'\"", *s) != NULL)
		s++, n--;
	if (n == 0)
		return NULL;
	raw = xstrndup(s, n);
	clean = text_clean(raw);
	free(raw);
	if (*clean == '\0') {
		free(clean);
		return NULL;
	}
	return clean;
}

/* Whether the first n bytes of s hold a digit. */
static int
quote_has_digit(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n && s[i] != '\0'; i++) {
		if (isdigit((unsigned char)s[i]))
			return 1;
	}
	return 0;
}

/*
 * A subject that drops support named before the word: "Drop PyTorch 2.7
 * and older support", "remove Python 3.8 support" (o the subject, l its
 * lowercase copy). The name (new) when it has a version or a capital:
 * "drop legacy support" names nothing a user runs.
 */
static char *
quote_support_named(const char *o, const char *l)
{
	static const char *verbs[] = { "drop ", "drops ", "dropped ",
	    "remove ", "removes ", "removed ", "end ", "ends ", NULL };
	const char	*p = l, *obj, *sup, *q;
	size_t		 k, n;
	int		 named = 0;

	/* after a "scope: " prefix */
	if ((q = strstr(l, ": ")) != NULL && q - l < 24)
		p = q + 2;
	for (k = 0; verbs[k] != NULL; k++)
		if (strncmp(p, verbs[k], strlen(verbs[k])) == 0)
			break;
	if (verbs[k] == NULL)
		return NULL;
	obj = p + strlen(verbs[k]);
	if ((sup = strstr(obj, " support")) == NULL || sup == obj ||
	    text_isword(sup[8]) || quote_words(obj, (size_t)(sup - obj)) > 5)
		return NULL;
	n = (size_t)(sup - obj);
	for (q = obj; q < sup; q++) {
		if (isdigit((unsigned char)*q) ||
		    isupper((unsigned char)o[q - l]))
			named = 1;
	}
	return named ? xstrndup(o + (obj - l), n) : NULL;
}

/*
 * Whether s holds a word every breaking change says ("support",
 * "require", "minimum", "default", "deprecated", "breaking"), its first
 * letter in either case: a few fast strstr that spare most messages the
 * line walk.
 */
static int
quote_break_hint(const char *s)
{
	static const char *hints[] = { "upport", "equir", "inimum", "efault",
	    "eprecat", "reaking", "BREAKING", NULL };
	size_t	k;

	if (s == NULL)
		return 0;
	for (k = 0; hints[k] != NULL; k++) {
		if (strstr(s, hints[k]) != NULL)
			return 1;
	}
	return 0;
}

/* One line (subject or prose) for quote_breaking. */
static enum quote_break
quote_break_line(const char *o, int subject, char **what)
{
	static const char *support[] = { "drop support for ",
	    "drops support for ", "dropped support for ",
	    "dropping support for ", "remove support for ",
	    "removes support for ", "removed support for ",
	    "removing support for ", "end support for ", "ends support for ",
	    "no longer supports ", "no longer support ", NULL };
	static const char *require[] = { "now requires ", "now require ",
	    "requires ", "require ", "required ", NULL };
	static const char *removed[] = { "remove deprecated ",
	    "removes deprecated ", "removed deprecated ",
	    "delete deprecated ", "deletes deprecated ",
	    "deleted deprecated ", "drop deprecated ", "drops deprecated ",
	    "remove the deprecated ", "delete the deprecated ", NULL };
	static const char *flips[] = { "now disabled by default",
	    "now enabled by default", "now off by default",
	    "now on by default", "no longer enabled by default",
	    "no longer on by default", "no longer the default",
	    "default is now ", "default has changed",
	    "default changed", "change the default", "changes the default",
	    "changed the default", "flip the default", "flips the default",
	    NULL };
	static const char *subject_flips[] = { "by default", NULL };
	static const char *flip_verbs[] = { "disable", "enable", "turn off",
	    "turn on", "switch", NULL };
	static const char *new_thing[] = { "add", "new", "introduce",
	    "opt-in", "optional", NULL };
	enum quote_break	 kind = QUOTE_BREAK_NONE;
	char			*l = text_lower(o), *p;
	const char		*at;
	size_t			 k, n;

	*what = NULL;
	/* each rule below says a word of quote_break_hint */
	if (!quote_break_hint(l))
		goto done;
	if (strstr(l, "breaking change") == l ||
	    strstr(l, "breaking:") == l) {
		at = l + strcspn(l, ":");
		if (*at == ':' && (*what = quote_object(o, (size_t)(at + 1 -
		    l) + strspn(at + 1, " "), 12)) != NULL)
			kind = QUOTE_BREAK_REMOVED;
		goto done;
	}
	for (k = 0; support[k] != NULL; k++) {
		if ((at = strstr(l, support[k])) != NULL && (at == l ||
		    !text_isword(at[-1])) && (*what = quote_object(o,
		    (size_t)(at - l) + strlen(support[k]), 5)) != NULL) {
			kind = QUOTE_BREAK_SUPPORT;
			goto done;
		}
	}
	if (subject && (*what = quote_support_named(o, l)) != NULL) {
		kind = QUOTE_BREAK_SUPPORT;
		goto done;
	}
	for (k = 0; removed[k] != NULL; k++) {
		if ((at = strstr(l, removed[k])) != NULL && (at == l ||
		    !text_isword(at[-1])) && (*what = quote_object(o,
		    (size_t)(at - l) + strlen(removed[k]), 4)) != NULL) {
			kind = QUOTE_BREAK_REMOVED;
			goto done;
		}
	}
	/* a minimum: "requires torch 2.11+", "minimum ... to 3.18" */
	for (k = 0; require[k] != NULL; k++) {
		for (at = l; (at = strstr(at, require[k])) != NULL; at++) {
			const char *obj = at + strlen(require[k]);

			if (at > l && text_isword(at[-1]))
				continue;
			/* a name, then a version within two words: "require
			   < 8 unused bits" names nothing (issue #27) */
			if (!isalpha((unsigned char)*obj))
				continue;
			n = strcspn(obj, " ");
			n += obj[n] == ' ' ? 1 + strcspn(obj + n + 1, " ") : 0;
			if (!quote_has_digit(obj, n) ||
			    (*what = quote_object(o, (size_t)(obj - l), 4)) ==
			    NULL)
				continue;
			if (!quote_has_digit(*what, strlen(*what))) {
				free(*what);
				*what = NULL;
				continue;
			}
			kind = QUOTE_BREAK_MINIMUM;
			goto done;
		}
	}
	if ((at = strstr(l, "minimum")) != NULL &&
	    ((p = strstr(at, " to ")) != NULL ||
	    (p = strstr(at, " is now ")) != NULL) &&
	    quote_words(at, (size_t)(p - at)) <= 5) {
		p = strchr(p + 1, ' ') + 1;
		if (strncmp(p, "now ", 4) == 0)
			p += 4;
		if (isdigit((unsigned char)*p) || (*p == 'v' &&
		    isdigit((unsigned char)p[1]))) {
			*what = quote_object(o, (size_t)(p - l), 1);
			if (*what != NULL) {
				kind = QUOTE_BREAK_MINIMUM;
				goto done;
			}
		}
	}
	/* a default flipped */
	for (k = 0; flips[k] != NULL; k++) {
		if ((at = strstr(l, flips[k])) != NULL && (at == l ||
		    !text_isword(at[-1])))
			break;
	}
	if (flips[k] == NULL && subject && text_has_any(l, subject_flips) &&
	    text_has_any(l, flip_verbs) && !text_has_any(l, new_thing))
		k = 0;
	else if (flips[k] == NULL)
		goto done;
	/* the clause that says it, after a "scope:" prefix */
	at = l;
	if ((p = strstr(l, ": ")) != NULL && p - l < 24)
		at = p + 2;
	if ((*what = quote_object(o, (size_t)(at - l), 12)) != NULL)
		kind = QUOTE_BREAK_DEFAULT;
done:
	free(l);
	return kind;
}

/*
 * A breaking change the message states: support dropped, a minimum
 * raised, a default flipped, a deprecated API removed ("BREAKING
 * CHANGE:" too); in *what (new) the words it concerns ("pypy-3.10",
 * "torch 2.11+", "UintxLayout"). The subject and the prose of the body
 * are read, not code or a test plan.
 */
/*
 * Whether a line leads a list of things removed: "We remove", "This
 * removes:", "Removed:", "Dropped the following:".
 */
static int
quote_removal_lead(const char *s)
{
	static const char *const leads[] = { "we remove", "we drop",
	    "this removes", "this drops", "this commit removes", "removed",
	    "remove", "dropped", "drop", "we delete", "deleted", NULL };
	size_t	i, l, n = strlen(s);

	while (n > 0 && (s[n - 1] == ':' || s[n - 1] == ' ' ||
	    s[n - 1] == '.'))
		n--;
	for (i = 0; leads[i] != NULL; i++) {
		l = strlen(leads[i]);
		if ((n == l || (n > l && strncasecmp(s + l, " the following",
		    n - l) == 0)) && strncasecmp(s, leads[i], l) == 0)
			return 1;
	}
	return 0;
}

/*
 * The item of a removal list, when it names a flag a user types ("--global-
 * option and --build-option"), cleaned (new); else NULL.
 */
static char *
quote_removed_flag(const char *item)
{
	const char	*p;

	for (p = item; (p = strstr(p, "--")) != NULL; p += 2) {
		if ((p == item || p[-1] == ' ' || p[-1] == '`') &&
		    isalpha((unsigned char)p[2]))
			return text_clean(item);
	}
	return NULL;
}

enum quote_break
quote_breaking(const char *subject, const char *body, char **what)
{
	struct quote_walk	 w;
	enum quote_where	 where;
	enum quote_break	 kind;
	int			 removing = 0;

	*what = NULL;
	/* (a list of flags removed names no hint word, but a flag) */
	if (!quote_break_hint(subject) && !quote_break_hint(body) &&
	    (subject == NULL || strstr(subject, "!:") == NULL) &&
	    (body == NULL || strstr(body, "emove") == NULL ||
	    strstr(body, "--") == NULL))
		return QUOTE_BREAK_NONE;
	if (subject != NULL) {
		const char *colon = strchr(subject, ':');

		/* a conventional "feat!:" or "refactor(x)!:" */
		if (colon != NULL && colon > subject && colon[-1] == '!' &&
		    strcspn(subject, " ") > (size_t)(colon - subject - 1)) {
			*what = text_clean(colon + 1 + strspn(colon + 1, " "));
			if (**what != '\0')
				return QUOTE_BREAK_REMOVED;
			free(*what);
			*what = NULL;
		}
		if ((kind = quote_break_line(subject, 1, what)) !=
		    QUOTE_BREAK_NONE)
			return kind;
	}
	quote_walk_init(&w, body);
	kind = QUOTE_BREAK_NONE;
	while (kind == QUOTE_BREAK_NONE && quote_walk_next(&w, &where)) {
		const char *line = buf_str(&w.line), *item;
		size_t n;

		if (where != QUOTE_PROSE)
			continue;
		/* "We remove" and a list: a flag on the list is gone */
		n = strspn(line, " \t");
		if (strchr("-*+", line[n]) != NULL && line[n] != '\0' &&
		    line[n + 1] == ' ')
			n += 2;
		else
			n = 0;
		item = line + n;
		if (removing && n > 0 && *item != '\0') {
			if ((*what = quote_removed_flag(item)) != NULL)
				kind = QUOTE_BREAK_REMOVED;
			continue;
		}
		removing = quote_removal_lead(item);
		if (*item != '\0' && !removing)
			kind = quote_break_line(line, 0, what);
	}
	quote_walk_free(&w);
	return kind;
}

/* Whether s (length n) is a version: "v8.1.1", "2.0", "9.1.1-beta.2". */
static int
quote_version(const char *s, size_t n)
{
	size_t	i = 0, dots = 0;

	if (n > 0 && (s[0] == 'v' || s[0] == 'V'))
		i++;
	if (i >= n || !isdigit((unsigned char)s[i]))
		return 0;
	for (; i < n && (isdigit((unsigned char)s[i]) || s[i] == '.'); i++) {
		if (s[i] == '.')
			dots++;
	}
	return dots > 0 && s[i - 1] != '.';
}

/*
 * A release a subject announces ("release: v8.1.1", "Release 2.3.0",
 * "release: create-vite@9.1.1", "Bump version to 1.2.0", "v3.0.0"): the
 * version without its "v" in *version and a package named before "@" in
 * *pkg (both new, *pkg NULL when none). 1 if it is one.
 */
/*
 * How a subject's token may announce a release: the distance after it (or
 * before it, as a negative) a version may stand. "release 2.3.0", "2.3.0
 * release", "tag v1.0", "bump version to 1.2.0"; 0 for other tokens.
 */
static int
quote_release_word(const char *p, size_t n, int *after, int *before)
{
	static const struct {
		const char	*word;
		int		 after, before;
	} words[] = {
		{ "release", 2, 1 }, { "releasing", 2, 0 }, { "tag", 1, 0 },
		{ "prepare", 2, 0 }, { "version", 3, 0 },
		/* "Bumped v5.8.2": the project's own version, next to it
		   ("Bump lodash from 4.17.20" names a package between) */
		{ "bump", 1, 0 }, { "bumped", 1, 0 }, { "bumps", 1, 0 },
	};
	size_t	i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (strlen(words[i].word) == n &&
		    strncasecmp(p, words[i].word, n) == 0) {
			*after = words[i].after;
			*before = words[i].before;
			return 1;
		}
	}
	return 0;
}

/*
 * Where the version starts in a token that is a release's name, its
 * words joined by hyphens: "release-1.27.0" (8), "nginx-1.27.0-RELEASE"
 * (6); 0 for any other token.
 */
static size_t
quote_release_token(const char *p, size_t n)
{
	const char	*v;

	if (n > 8 && strncasecmp(p, "release-", 8) == 0 &&
	    quote_version(p + 8, n - 8))
		return 8;
	if (n > 8 && strncasecmp(p + n - 8, "-release", 8) == 0 &&
	    (v = memchr(p, '-', n - 8)) != NULL && v > p &&
	    quote_version(v + 1, (size_t)(p + n - 8 - v - 1)))
		return (size_t)(v + 1 - p);
	return 0;
}

/*
 * Where the version starts in a token that is a name and a version joined
 * by a hyphen, "grep-cli-0.1.10" (9): the name a word of letters, digits
 * and hyphens that starts with a letter; 0 for any other token.
 */
static size_t
quote_named_version(const char *p, size_t n)
{
	size_t	i, v;

	if (n < 4 || !isalpha((unsigned char)p[0]))
		return 0;
	for (v = n; v > 0 && p[v - 1] != '-'; v--)
		;
	if (v < 2 || !quote_version(p + v, n - v) || p[v] == 'v' ||
	    p[v] == 'V')
		return 0;
	for (i = 0; i + 1 < v; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '-')
			return 0;
	return v;
}

/* Whether a word between a release word and its version names no package. */
static int
quote_release_filler(const char *w, size_t n)
{
	static const char *const words[] = { "to", "for", "the", "version",
	    "release", "of", "v", "a", "bump", NULL };
	size_t	i;

	for (i = 0; words[i] != NULL; i++)
		if (strlen(words[i]) == n && strncasecmp(w, words[i], n) == 0)
			return 1;
	return 0;
}

int
quote_release(const char *subject, char **pkg, char **version)
{
	const char	*p, *at, *vp = NULL, *prev = "", *named = NULL;
	size_t		 n, vn = 0, vat = 0, k, tokens, prevn = 0, m;
	size_t		 namedn = 0;
	long		 word_at = -1;
	int		 after = 0, before = 0, a, bf, near = 0, bump = 0;

	*pkg = *version = NULL;
	if (subject == NULL)
		return 0;
	/* no "N.N" in it, no version: most subjects stop here */
	for (p = subject; (p = strchr(p, '.')) != NULL; p++) {
		if (p > subject && isdigit((unsigned char)p[-1]) &&
		    isdigit((unsigned char)p[1]))
			break;
	}
	/* notes of a release, its changelog ("changelog: updates for the
	   14.0.0 release", ripgrep 2023-11-26), its workflow are no release */
	if (p == NULL || strcasestr(subject, "note") != NULL ||
	    strcasestr(subject, "changelog") != NULL ||
	    strcasestr(subject, "workflow") != NULL ||
	    strcasestr(subject, "revert") != NULL)
		return 0;
	/*
	 * The first version standing next to a release word, the word's
	 * reach as quote_release_word says: "Drop Python 3.8 from the
	 * release matrix" names a version and the word, apart
	 */
	for (p = subject, k = 0; *p != '\0'; p += n) {
		p += strspn(p, " :,()[]");
		if ((n = strcspn(p, " :,()[]")) == 0)
			break;
		/* "version" only in "bump version", "version bump" */
		if (quote_release_word(p, n, &a, &bf) && (n != 7 ||
		    strncasecmp(p, "version", 7) != 0 ||
		    (prevn == 4 && strncasecmp(prev, "bump", 4) == 0) ||
		    strncasecmp(p + n + strspn(p + n, " :,()[]"), "bump", 4) ==
		    0) &&
		    /* "Version bump to 4.1.0": the bump is version's */
		    (strncasecmp(p, "bump", 4) != 0 || word_at < 0)) {
			word_at = (long)k;
			bump = strncasecmp(p, "bump", 4) == 0;
			after = a;
			before = bf;
			/* a version just before it: "Prepare 2.0 release" */
			if (vp != NULL && !near && before > 0 &&
			    (long)vat + before >= word_at)
				near = 1;
		} else if (!near && (m = quote_release_token(p, n)) > 0) {
			/* "release-1.27.0", "nginx-1.27.0-RELEASE" */
			vp = p + m;
			vn = strspn(vp, "0123456789.");
			while (vn > 0 && vp[vn - 1] == '.')
				vn--;
			near = 1;
		} else if (!near) {
			at = memchr(p, '@', n);
			if ((at != NULL && at > p && quote_version(at + 1,
			    n - (size_t)(at + 1 - p))) || quote_version(p, n)) {
				vp = p;
				vn = n;
				vat = k;
				/* "prepare tokio-macros v2.6.0": its package */
				named = word_at >= 0 && (long)k == word_at + 2 ?
				    prev : NULL;
				namedn = prevn;
				if (word_at >= 0 && (long)k - word_at <= after)
					near = 1;
			}
		}
		prev = p;
		prevn = n;
		k++;
	}
	tokens = k;
	/*
	 * a subject that is only a package's name and version, as a crate's
	 * release commit says it: "grep-cli-0.1.10", "globset-0.4.14"
	 * (ripgrep 2023-11-26, issue #27)
	 */
	if (!near && tokens == 1 && vp == NULL &&
	    (m = quote_named_version(prev, prevn)) > 0) {
		*pkg = xstrndup(prev, m - 1);
		*version = xstrndup(prev + m, prevn - m);
		return 1;
	}
	/* a bare "v1.2.3" subject is a release too */
	if (!near && !(vp != NULL && tokens == 1))
		return 0;
	/* "bump 3.12 to 3.13" moves something else between versions */
	if (bump && (strcasestr(vp, " to ") != NULL ||
	    strcasestr(vp, " from ") != NULL))
		return 0;
	p = vp;
	n = vn;
	at = memchr(p, '@', n);
	if (at != NULL && at > p) {
		*pkg = xstrndup(p, (size_t)(at - p));
		n -= (size_t)(at + 1 - p);
		p = at + 1;
	}
	if (*pkg == NULL && named != NULL && !quote_release_filler(named,
	    namedn))
		*pkg = xstrndup(named, namedn);
	if (*p == 'v' || *p == 'V')
		p++, n--;
	*version = xstrndup(p, n);
	return 1;
}
