/*
 * What a commit message gives to quote verbatim: figures ("1.7x", "35%",
 * "2.5 GB") and a setting, flag or environment variable it brings in.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
		if (!isdigit((unsigned char)*p) || (p > s &&
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

/* A setting of the given style in one line (new), or NULL. */
static char *
quote_setting_in(const char *line, int style)
{
	const char	*p, *q, *w;
	size_t		 n;
	int		 under, letters;

	for (p = line; *p != '\0'; p++) {
		int bound = p == line || (!text_isword(p[-1]) &&
		    strchr("-./=$", p[-1]) == NULL);

		if (!bound)
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
		}
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

/* A setting, flag or environment variable the message names (new), or NULL. */
char *
quote_setting(const char *subject, const char *body)
{
	static const char *negative[] = { "drop", "remove", "delete",
	    "deprecat", "unused", "no longer", "rename", NULL };
	struct buf	 line;
	const char	*p, *eol;
	char		*found[3] = { NULL, NULL, NULL }, *l;
	int		 style, in_code;

	/* one pass over the lines; an earlier style wins over a later one */
	buf_init(&line);
	l = text_lower(subject);
	if (!text_has_any(l, negative)) {
		for (style = 0; style < 3; style++)
			found[style] = quote_setting_in(subject != NULL ?
			    subject : "", style);
	}
	free(l);
	in_code = 0;
	for (p = body != NULL ? body : ""; *p != '\0' && found[0] == NULL;) {
		eol = p + strcspn(p, "\n");
		buf_reset(&line);
		buf_append(&line, p, (size_t)(eol - p));
		p = *eol == '\n' ? eol + 1 : eol;
		if (strstr(buf_str(&line), "```") != NULL ||
		    strstr(buf_str(&line), "~~~") != NULL) {
			in_code = !in_code;
			continue;
		}
		if (in_code || strncmp(buf_str(&line), "    ", 4) == 0)
			continue;
		if (text_stop(buf_str(&line)))
			break;
		l = text_lower(buf_str(&line));
		if (!text_has_any(l, negative) &&
		    !text_trailer(l + strspn(l, " "), NULL)) {
			for (style = 0; style < 3; style++) {
				if (found[style] == NULL)
					found[style] = quote_setting_in(
					    buf_str(&line), style);
			}
		}
		free(l);
	}
	buf_free(&line);
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
 * Whether the message introduces the setting rather than merely naming
 * it: the line that names it also says add, new, now, set, option, flag,
 * environment variable and the like.
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
	const char	*src[2] = { subject, body }, *at, *bol, *eol;
	char		*line;
	size_t		 i, k;
	int		 found = 0;

	if (setting == NULL)
		return 0;
	for (i = 0; i < 2 && !found; i++) {
		if (src[i] == NULL || (at = strstr(src[i], setting)) == NULL)
			continue;
		for (bol = at; bol > src[i] && bol[-1] != '\n'; bol--)
			continue;
		eol = at + strcspn(at, "\n");
		line = xstrndup(bol, (size_t)(eol - bol));
		memset(line + (at - bol), ' ', strlen(setting) <
		    (size_t)(eol - at) ? strlen(setting) : (size_t)(eol - at));
		for (k = 0; line[k] != '\0'; k++)
			line[k] = (char)tolower((unsigned char)line[k]);
		for (k = 0; words[k] != NULL && !found; k++)
			found = quote_has_whole(line, words[k]);
		/* a line about a failure names the setting, it doesn't offer it */
		for (k = 0; trouble[k] != NULL && found; k++) {
			if (strstr(line, trouble[k]) != NULL)
				found = 0;
		}
		free(line);
	}
	return found;
}
