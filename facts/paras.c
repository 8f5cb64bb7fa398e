/*
 * The prose paragraphs of a commit body: trailers, references, code,
 * commands, compiler diagnostics and test plans left out (split from
 * text.c, whose word tests and cleaning they use).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "text.h"
#include "xmalloc.h"

/* Labels that start a line of prose ("Summary: ..."); dropped. */
static const char *text_labels[] = {
	"summary:", "what:", "why:", "how:", "motivation:", "context:",
	"description:", "problem:", "solution:", "background:", "details:",
	"overview:", "changes:", "note:", NULL
};

/* Letters and digits of s, lowercased (new): for comparing texts. */
char *
text_norm(const char *s)
{
	char	*n = xmalloc(strlen(s) + 1), *q = n;

	for (; *s != '\0'; s++) {
		if (isalnum((unsigned char)*s))
			*q++ = (char)tolower((unsigned char)*s);
	}
	*q = '\0';
	return n;
}

/* Whether s (length n) holds a bare "#123" that no word names. */
static int
text_bare_ref(const char *s, size_t n)
{
	static const char *words[] = { "issue", "issues", "pr", "prs",
	    "request", "requests", "bug", "ticket", NULL };
	size_t	 i, j, w;

	for (i = 0; i + 1 < n; i++) {
		if (s[i] != '#' || !isdigit((unsigned char)s[i + 1]) ||
		    (i > 0 && text_isword(s[i - 1])))
			continue;
		/* the word before */
		for (j = i; j > 0 && s[j - 1] == ' '; j--)
			continue;
		for (w = j; w > 0 && isalpha((unsigned char)s[w - 1]); w--)
			continue;
		if (j > w) {
			size_t k;

			for (k = 0; words[k] != NULL; k++) {
				if (strlen(words[k]) == j - w &&
				    strncasecmp(s + w, words[k], j - w) == 0)
					break;
			}
			if (words[k] != NULL)
				continue;
		}
		return 1;
	}
	return 0;
}

/*
 * The sentences of a raw paragraph that don't lean on a bare "#123"
 * (new). Said aloud, "number 4074 deprecated a few classes" tells a
 * listener nothing; the other sentences stand on their own.
 */
static char *
text_drop_refs(const char *raw)
{
	struct buf	 out;
	const char	*start = raw, *p;

	buf_init(&out);
	for (p = raw;; p++) {
		if (*p != '\0' && !((*p == '.' || *p == '!' || *p == '?') &&
		    p[1] == ' ' && (isupper((unsigned char)p[2]) ||
		    p[2] == '#')))
			continue;
		if (*p != '\0')
			p++;
		if (!text_bare_ref(start, (size_t)(p - start))) {
			if (out.len > 0)
				buf_putc(&out, ' ');
			buf_append(&out, start, (size_t)(p - start));
		}
		if (*p == '\0')
			break;
		while (*p == ' ')
			p++;
		start = p;
		p--;
	}
	return buf_steal(&out);
}

/* Keep the paragraph in cur, cleaned, unless it is noise. */
static void
text_para_flush(struct text_paras *ps, struct buf *cur, int bullet,
    const char *nsubject)
{
	char	*clean, *norm, *kept;

	if (cur->len == 0)
		return;
	kept = text_drop_refs(buf_str(cur));
	clean = text_clean(kept);
	free(kept);
	buf_reset(cur);
	norm = text_norm(clean);
	if (text_word_count(clean) < 4 || norm[0] == '\0' ||
	    strstr(nsubject, norm) != NULL ||
	    strncasecmp(clean, "update on", 9) == 0 ||
	    strncasecmp(clean, "update base for", 15) == 0 ||
	    strncasecmp(clean, "apply suggestion", 16) == 0 ||
	    strncasecmp(clean, "merge branch", 12) == 0) {
		free(norm);
		free(clean);
		return;
	}
	free(norm);
	ps->text = xreallocarray(ps->text, ps->n + 1, sizeof *ps->text);
	ps->bullet = xreallocarray(ps->bullet, ps->n + 1, sizeof *ps->bullet);
	ps->text[ps->n] = clean;
	ps->bullet[ps->n] = bullet;
	ps->n++;
}

/* The prose paragraphs of a body, cleaned. */
void
text_paragraphs(const char *body, const char *subject,
    struct text_paras *ps)
{
	char	*what;

	what = classify_what(subject);
	text_paragraphs_what(body, what, ps);
	free(what);
}

/*
 * Append a raw line (n bytes at t) to b after sep, its URLs left out: a
 * URL's words ("crash-report", "35%") are not the message's. Nothing is
 * appended for a line that is only URLs.
 */
static void
text_raw_line(struct buf *b, char sep, const char *t, size_t n)
{
	const char	*end = t + n, *c, *s, *e;
	size_t		 from = b->len;

	buf_putc(b, sep);
	c = t;
	while ((c = memchr(c, ':', (size_t)(end - c))) != NULL) {
		if (end - c < 3 || c[1] != '/' || c[2] != '/') {
			c++;
			continue;
		}
		/* the URL's token: back to a space, on to the next */
		for (s = c; s > t && !isspace((unsigned char)s[-1]); s--)
			continue;
		for (e = c; e < end && !isspace((unsigned char)*e); e++)
			continue;
		buf_append(b, t, (size_t)(s - t));
		/* and the space after it: "See <url> for" is "See for" */
		for (; e < end && *e == ' '; e++)
			continue;
		t = c = e;
	}
	buf_append(b, t, (size_t)(end - t));
	/* nothing but spaces: the line was a URL */
	for (c = b->data + from + 1; c < b->data + b->len && *c == ' '; c++)
		continue;
	if (c == b->data + b->len) {
		b->len = from;
		b->data[b->len] = '\0';
	}
}

/*
 * End the raw paragraph that starts at from in b. As text_paragraphs
 * drops it, one of fewer than four words goes ("* Update" of a squashed
 * stack), and one that only repeats the subject's what (its letters and
 * digits in what's, text_norm; *nwhat is read the first time a paragraph
 * is short enough to ask).
 */
static void
text_raw_flush(struct buf *b, size_t from, const char *what, char **nwhat)
{
	char	*n, *q;
	size_t	 i, words = 0, alnum = 0, wl = strlen(what);
	int	 drop;

	/* as far as it takes to tell: four words, more letters than what */
	for (i = from; i < b->len && (words < 4 || alnum <= wl); i++) {
		if (!isalnum((unsigned char)b->data[i]))
			continue;
		alnum++;
		if (i == from || !isalnum((unsigned char)b->data[i - 1]))
			words++;
	}
	drop = words < 4;
	if (!drop && alnum <= wl) {
		if (*nwhat == NULL)
			*nwhat = text_norm(what);
		q = n = xmalloc(alnum + 1);
		for (i = from; i < b->len; i++)
			if (isalnum((unsigned char)b->data[i]))
				*q++ = (char)tolower((unsigned char)b->data[i]);
		*q = '\0';
		drop = strstr(*nwhat, n) != NULL;
		free(n);
	}
	if (drop && b->len > from) {
		b->len = from;
		b->data[from] = '\0';
	}
}

/*
 * Whether the n bytes at t, a line that opens a paragraph indented by
 * indent, are a command shown as an example, not prose: "$ cmd ...", or
 * indented by two or three spaces (four make code already) a word of
 * lower case opening a line with a flag ("  fzf --preview 'cat {}'
 * --preview-window=next"), not a sentence's end.
 */
static int
text_command(const char *t, size_t n, size_t indent)
{
	size_t	i, w;

	if (n >= 2 && t[0] == '$' && t[1] == ' ')
		return 1;
	if (indent < 2 || n == 0 || t[n - 1] == '.')
		return 0;
	for (w = 0; w < n && (islower((unsigned char)t[w]) ||
	    isdigit((unsigned char)t[w]) || t[w] == '-' || t[w] == '_' ||
	    t[w] == '.' || t[w] == '/'); w++)
		continue;
	if (w == 0 || w >= n || t[w] != ' ')
		return 0;
	for (i = w; i + 2 < n; i++)
		if (t[i] == ' ' && t[i + 1] == '-' &&
		    (isalpha((unsigned char)t[i + 2]) || t[i + 2] == '-'))
			return 1;
	return 0;
}

/* Whether "-->" ends an HTML comment within t[0..n). */
static int
text_comment_ends(const char *t, size_t n)
{
	size_t	i;

	for (i = 0; i + 3 <= n; i++)
		if (t[i] == '-' && t[i + 1] == '-' && t[i + 2] == '>')
			return 1;
	return 0;
}

/*
 * Whether a line (n bytes at t) is a compiler's diagnostic, pasted:
 * "linux/Platform.c:142:17: warning: cast from function call of type
 * 'double' ..." (htop 2020-09-24). It and the lines under it (the code it
 * shows, its caret) are the tool's, not prose.
 */
static int
text_diagnostic(const char *t, size_t n)
{
	static const char *const kinds[] = { "warning:", "error:", "note:",
	    "fatal error:", NULL };
	size_t	i = 0, d, k;

	while (i < n && t[i] != ':' && t[i] != ' ')
		i++;
	if (i == 0 || i >= n || t[i] != ':')
		return 0;
	/* ":LINE" and ":COLUMN" */
	for (k = 0; k < 2 && i < n && t[i] == ':'; k++) {
		for (d = i + 1; d < n && isdigit((unsigned char)t[d]); d++)
			continue;
		if (d == i + 1)
			break;
		i = d;
	}
	if (k == 0 || i + 1 >= n || t[i] != ':' || t[i + 1] != ' ')
		return 0;
	i += 2;
	for (k = 0; kinds[k] != NULL; k++)
		if (n - i >= strlen(kinds[k]) &&
		    strncmp(t + i, kinds[k], strlen(kinds[k])) == 0)
			return 1;
	return 0;
}

/*
 * The paragraphs of a body text_paragraphs reads, as they came, appended
 * to b each after a newline, their lines joined by a space; the number
 * of bytes appended. One pass, nothing cleaned: what the score measures
 * of a body (classify_read) without text_clean's cost. Left out as
 * there: code blocks (fenced or indented), HTML comments, a compiler's
 * diagnostics (text_diagnostic), quotes and tables, headings,
 * trailers, a label alone on its line ("Details:"), a paragraph of fewer
 * than four words or repeating the subject's what (what classify_what
 * read) and all after a stop line ("Test Plan:"); and URLs
 * (text_raw_line). Unlike there, references, addresses, shas and markup
 * stay.
 */
size_t
text_prose_raw(const char *body, const char *what, struct buf *b)
{
	const char	*p = body != NULL ? body : "", *eol, *t, *sp;
	char		*nwhat = NULL;
	size_t		 n, indent, len, from = b->len, para = b->len;
	int		 in_code = 0, open = 0, in_comment = 0, in_diag = 0;

	for (; *p != '\0'; p = *eol == '\n' ? eol + 1 : eol) {
		if ((eol = strchr(p, '\n')) == NULL)
			eol = p + strlen(p);
		for (indent = 0; p[indent] == ' ' || p[indent] == '\t'; indent++)
			continue;
		t = p + indent;
		n = (size_t)(eol - t);
		while (n > 0 && isspace((unsigned char)t[n - 1]))
			n--;
		/* a template's "<!-- Thank you for contributing -->" */
		if (!in_code && (in_comment || (n >= 4 &&
		    strncmp(t, "<!--", 4) == 0))) {
			in_comment = !text_comment_ends(t, n);
			continue;
		}
		if (n >= 3 && (strncmp(t, "```", 3) == 0 ||
		    strncmp(t, "~~~", 3) == 0)) {
			in_code = !in_code;
			open = 0;
			continue;
		}
		if (!in_code && text_diagnostic(t, n))
			in_diag = 1;
		if (n == 0)
			in_diag = 0;
		if (in_code || in_diag || indent >= 4 || (n > 0 &&
		    (*t == '>' || *t == '|')) ||
		    (!open && text_command(t, n, indent)))
			continue;
		if (n == 0) {
			open = 0;
			continue;
		}
		while (n >= 2 && *t == '*' && t[1] == '*') {
			t += 2;
			n -= 2;
		}
		/* the lists' words hold no newline: reading on past eol is safe */
		if (n == 0 || text_stop(t))
			break;
		if (text_trailer(t, &len)) {
			/* "Fixes #12. The rest of the sentence" keeps the rest */
			if (t[len - 1] != '#' || len >= n)
				continue;
			for (t += len, n -= len; n > 0 && (isdigit((unsigned
			    char)*t) || strchr(".,; ", *t) != NULL); t++, n--)
				continue;
			if (n == 0)
				continue;
		}
		/* a heading, or a label alone: "Details:", "Test results:" */
		if ((*t == '#' && !isdigit((unsigned char)t[1])) ||
		    (t[n - 1] == ':' && ((sp = memchr(t, ' ', n)) == NULL ||
		    memchr(sp + 1, ' ', n - (size_t)(sp + 1 - t)) == NULL))) {
			open = 0;
			continue;
		}
		/* a list item starts a paragraph */
		if (((t[0] == '*' || t[0] == '-' || t[0] == '+') &&
		    t[1] == ' ') || (isdigit((unsigned char)t[0]) &&
		    t[1] == '.' && t[2] == ' '))
			open = 0;
		if (!open) {
			text_raw_flush(b, para, what, &nwhat);
			para = b->len;
		}
		text_raw_line(b, open ? ' ' : '\n', t, n);
		open = b->len > para;
	}
	text_raw_flush(b, para, what, &nwhat);
	free(nwhat);
	return b->len - from;
}

/* text_paragraphs_what, stopping after max paragraphs. */
static void
text_paragraphs_upto(const char *body, const char *what,
    struct text_paras *ps, size_t max)
{
	struct buf	 cur, line;
	const char	*p = body != NULL ? body : "", *eol, *t;
	char		*nsubject;
	size_t		 n, indent;
	int		 in_code = 0, bullet = 0, in_comment = 0, in_diag = 0;

	memset(ps, 0, sizeof *ps);
	nsubject = text_norm(what);
	buf_init(&cur);
	buf_init(&line);
	while (*p != '\0' && ps->n < max) {
		eol = p + strcspn(p, "\n");
		buf_reset(&line);
		buf_append(&line, p, (size_t)(eol - p));
		p = *eol == '\n' ? eol + 1 : eol;

		t = buf_str(&line);
		for (indent = 0; t[indent] == ' ' || t[indent] == '\t'; indent++)
			continue;
		t += indent;
		n = strlen(t);
		while (n > 0 && isspace((unsigned char)t[n - 1]))
			line.data[indent + --n] = '\0';
		/* a template's "<!-- Thank you for contributing -->" */
		if (!in_code && (in_comment || strncmp(t, "<!--", 4) == 0)) {
			in_comment = !text_comment_ends(t, n);
			continue;
		}
		if (strncmp(t, "```", 3) == 0 || strncmp(t, "~~~", 3) == 0) {
			text_para_flush(ps, &cur, bullet, nsubject);
			in_code = !in_code;
			continue;
		}
		/* a compiler's diagnostic and what it shows, to a blank line */
		if (!in_code && text_diagnostic(t, n)) {
			text_para_flush(ps, &cur, bullet, nsubject);
			in_diag = 1;
		}
		if (n == 0)
			in_diag = 0;
		if (in_code || in_diag || indent >= 4 || *t == '>' ||
		    *t == '|' || (cur.len == 0 && text_command(t, n, indent)))
			continue;
		if (n == 0) {
			text_para_flush(ps, &cur, bullet, nsubject);
			continue;
		}
		while (*t == '*' && t[1] == '*')
			t += 2;
		if (*t == '\0')
			continue;	/* bold marks alone */
		if (text_stop(t)) {
			text_para_flush(ps, &cur, bullet, nsubject);
			break;
		}
		if (text_trailer(t, &n)) {
			/* "Fixes #12. The rest of the sentence" keeps the rest */
			if (t[n - 1] != '#')
				continue;
			t += n;
			while (isdigit((unsigned char)*t))
				t++;
			while (*t == '.' || *t == ',' || *t == ';' || *t == ' ')
				t++;
			if (*t == '\0')
				continue;
		}
		if (*t == '#' && !isdigit((unsigned char)t[1])) {
			text_para_flush(ps, &cur, bullet, nsubject);
			continue;
		}
		if (text_starts_any(t, text_labels, &n)) {
			text_para_flush(ps, &cur, bullet, nsubject);
			bullet = 0;
			t += n;
			while (*t == '*' || *t == ' ')
				t++;
			if (*t == '\0')
				continue;
		} else if (t[strlen(t) - 1] == ':' && text_word_count(t) <= 2) {
			text_para_flush(ps, &cur, bullet, nsubject);
			continue;
		}
		if ((t[0] == '*' || t[0] == '-' || t[0] == '+') && t[1] == ' ') {
			text_para_flush(ps, &cur, bullet, nsubject);
			bullet = 1;
			t += 2;
		} else if (isdigit((unsigned char)t[0]) && t[1] == '.' &&
		    t[2] == ' ') {
			text_para_flush(ps, &cur, bullet, nsubject);
			bullet = 1;
			t += 3;
		} else if (cur.len == 0)
			bullet = 0;
		if (cur.len > 0)
			buf_putc(&cur, ' ');
		buf_puts(&cur, t);
	}
	text_para_flush(ps, &cur, bullet, nsubject);
	buf_free(&cur);
	buf_free(&line);
	free(nsubject);
}

/* text_paragraphs, given the subject's classify_what (what). */
void
text_paragraphs_what(const char *body, const char *what,
    struct text_paras *ps)
{
	text_paragraphs_upto(body, what, ps, SIZE_MAX);
}

/* The first of them only (classify_read's restated subject). */
void
text_paragraph_first(const char *body, const char *what,
    struct text_paras *ps)
{
	text_paragraphs_upto(body, what, ps, 1);
}

void
text_paras_free(struct text_paras *ps)
{
	size_t	i;

	for (i = 0; i < ps->n; i++)
		free(ps->text[i]);
	free(ps->text);
	free(ps->bullet);
	memset(ps, 0, sizeof *ps);
}
