/*
 * Sentences of a commit's prose told aloud: split at sentence ends (not
 * at "e.g."), an imperative turned into "It fixes ...", leftovers and
 * sentences that only restate the subject dropped.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "phrase.h"
#include "prose.h"
#include "text.h"
#include "xmalloc.h"

/* Whether the '.' at p (in s) ends an abbreviation. */
static int
prose_abbrev(const char *s, const char *p)
{
	static const char *abbrevs[] = { "e.g", "i.e", "etc", "vs", "approx",
	    "Mr", "Dr", "No", "cf", NULL };
	size_t	i, n;

	for (i = 0; abbrevs[i] != NULL; i++) {
		n = strlen(abbrevs[i]);
		if ((size_t)(p - s) >= n && strncasecmp(p - n, abbrevs[i], n) == 0 &&
		    ((size_t)(p - s) == n || !isalpha((unsigned char)p[-(long)n - 1])))
			return 1;
	}
	return 0;
}

/* Whether a word (length n) looks like code: snake_case, call(), a.path. */
static int
prose_codeish(const char *w, size_t n)
{
	size_t	i, upper = 0;

	for (i = 0; i < n; i++) {
		if (w[i] == '_' || w[i] == '(' || w[i] == '/' ||
		    (w[i] == '.' && i + 1 < n && isalnum((unsigned char)w[i + 1])))
			return 1;
		if (i > 0 && isupper((unsigned char)w[i]))
			upper++;
	}
	return upper > 0;
}

/* The third person of a verb ("fix" -> "fixes"; new). */
static char *
prose_third(const char *w, size_t n)
{
	char	*out;

	if (n >= 2 && (strchr("sxz", w[n - 1]) != NULL ||
	    (w[n - 1] == 'h' && strchr("cs", w[n - 2]) != NULL) ||
	    (w[n - 1] == 'o' && w[n - 2] != 'o')))
		xasprintf(&out, "%.*ses", (int)n, w);
	else if (n >= 2 && w[n - 1] == 'y' && strchr("aeiou", w[n - 2]) == NULL)
		xasprintf(&out, "%.*sies", (int)n - 1, w);
	else
		xasprintf(&out, "%.*ss", (int)n, w);
	out[0] = (char)tolower((unsigned char)out[0]);
	return out;
}

/* Whether an imperative speaks to the reader ("Set X to try it"). */
static int
prose_to_reader(const char *s, size_t verblen)
{
	static const char *verbs[] = { "set", "use", "see", "try", "run",
	    "note", "please", "make", "pass", "export", "install", NULL };
	size_t	i;

	for (i = 0; verbs[i] != NULL; i++) {
		if (strlen(verbs[i]) == verblen &&
		    strncasecmp(s, verbs[i], verblen) == 0)
			return 1;
	}
	return strcasestr(s, " you") != NULL;
}

/* Is the n-byte word at s an auxiliary verb ("is", "will", "has")? */
static int
prose_auxiliary(const char *s, size_t n)
{
	static const char *aux[] = { "is", "was", "has", "had", "will",
	    "would", "can", "could", "should", "may", "might", "must",
	    "does", "did", "also", "only", "now", "just", NULL };
	size_t	i;

	for (i = 0; aux[i] != NULL; i++)
		if (strlen(aux[i]) == n && strncasecmp(s, aux[i], n) == 0)
			return 1;
	return 0;
}

/*
 * Make one sentence read well aloud, in place at out->data + pos: a
 * leading "Also:" goes, a trailing ": list_of(), identifiers" goes, and
 * an imperative ("Reshuffle code to ...") becomes "It reshuffles code to
 * ...", the way a host would say it.
 */
static void
prose_sentence_fix(struct buf *out, size_t pos)
{
	static const char *not_imperative[] = { "is", "are", "was", "were",
	    "has", "have", "had", "will", "can", "could", "should", "may",
	    "might", "must", "for", "of", "in", "on", "to", "does", "did",
	    "and", "or", "as", "at", "with", "from", "by", NULL };
	static const char *this_change[] = { "this commit ", "this change ",
	    "this patch ", "this pr ", "this pull request ", NULL };
	struct buf	 t;
	char		*s = xstrdup(out->data + pos), *p, *colon, *past, *third;
	size_t		 n, w, i;
	int		 also = 0, code;

	p = s;
	if (strncasecmp(p, "also: ", 6) == 0 || strncasecmp(p, "also, ", 6) == 0) {
		p += 6;
		also = 1;
	}
	/* "This commit suppresses X" reads as "It suppresses X" */
	for (i = 0; this_change[i] != NULL; i++) {
		w = strlen(this_change[i]);
		if (strncasecmp(p, this_change[i], w) != 0)
			continue;
		n = strcspn(p + w, " ,.");
		if (n > 2 && p[w + n - 1] == 's' && p[w + n - 2] != 's') {
			buf_init(&t);
			buf_printf(&t, "It %s", p + w);
			out->len = pos;
			out->data[pos] = '\0';
			buf_puts(out, buf_str(&t));
			buf_free(&t);
			free(s);
			return;
		}
		/*
		 * "This PR address the missing op" can't be said well; an
		 * auxiliary ("This PR is ...", "will") reads fine as it is.
		 */
		if (!prose_auxiliary(p + w, n)) {
			out->len = pos;
			out->data[pos] = '\0';
			free(s);
			return;
		}
	}
	/* ": a(), b_c, d.h" at the end */
	if ((colon = strrchr(p, ':')) != NULL && colon[1] == ' ' &&
	    colon > p + 10) {
		const char *q = colon + 2;

		code = *q != '\0';
		while (*q != '\0' && code) {
			w = strcspn(q, ", .");
			if (q[w] == '.' && q[w + 1] != '\0' && q[w + 1] != ' ')
				w += strcspn(q + w, ", ") - 0;
			code = prose_codeish(q, w);
			q += w;
			while (*q == ',' || *q == ' ' || *q == '.')
				q++;
			if (strncmp(q, "and ", 4) == 0)
				q += 4;
		}
		if (code)
			*colon = '\0';
	}
	buf_init(&t);
	n = strcspn(p, " ,:;");
	past = phrase_verb_past(p, n);
	for (i = 0; not_imperative[i] != NULL && past != NULL; i++) {
		w = strcspn(p + n + (p[n] == ' '), " ,.;:");
		if (p[n] == ' ' && strlen(not_imperative[i]) == w &&
		    strncasecmp(p + n + 1, not_imperative[i], w) == 0)
			break;
	}
	if (past != NULL && not_imperative[i] == NULL && p[n] == ' ' &&
	    !prose_to_reader(p, n)) {
		third = prose_third(p, n);
		buf_printf(&t, "It %s%s%s", also ? "also " : "", third, p + n);
		free(third);
	} else {
		buf_puts(&t, p);
		if (t.len > 0)
			t.data[0] = (char)toupper((unsigned char)t.data[0]);
	}
	free(past);
	out->len = pos;
	out->data[pos] = '\0';
	buf_puts(out, buf_str(&t));
	buf_free(&t);
	free(s);
}

/* Append up to max sentences of s to out (a space between); how many. */
int
prose_sentences(struct buf *out, const char *s, int max)
{
	return prose_sentences_about(out, s, max, NULL);
}

/* The word at s (length n), lower-cased and crudely stemmed, into w. */
static void
prose_stem(const char *s, size_t n, char *w, size_t wlen)
{
	size_t	i;

	if (n >= wlen)
		n = wlen - 1;
	for (i = 0; i < n; i++)
		w[i] = (char)tolower((unsigned char)s[i]);
	w[n] = '\0';
	if (n > 5 && strcmp(w + n - 3, "ing") == 0)
		w[n - 3] = '\0';
	else if (n > 4 && strcmp(w + n - 2, "ed") == 0)
		w[n - 2] = '\0';
	else if (n > 4 && strcmp(w + n - 3, "ies") == 0)
		strcpy(w + n - 3, "y");
	else if (n > 4 && strcmp(w + n - 2, "es") == 0 &&
	    strchr("sxzh", w[n - 3]) != NULL)
		w[n - 2] = '\0';		/* fixes, suppresses, patches */
	else if (n > 3 && w[n - 1] == 's' && w[n - 2] != 's')
		w[n - 1] = '\0';
}

/*
 * Does a short sentence only say again what the subject said ("It
 * suppresses these warnings in this case." under "Suppress deprecation
 * warnings from ...")? Then a listener gains nothing from it.
 */
static int
prose_restates(const char *sent, size_t len, const char *subject)
{
	static const char *vague[] = { "the", "and", "for", "with", "this",
	    "these", "that", "those", "case", "cases", "also", "now", "its",
	    "into", "from", "some", "all", "any", "way", "when", "which",
	    "here", "there", "them", "they", "are", "was", "were", "has",
	    "have", "been", "will", "can", "our", "their", "change",
	    "changes", "commit", "patch", "just", "only", "then", NULL };
	char		 w[48], v[48];
	const char	*p = sent, *e = sent + len, *q, *t;
	size_t		 n, m, i, words = 0, content = 0;
	int		 found;

	if (subject == NULL)
		return 0;
	while (p < e) {
		while (p < e && !text_isword(*p))
			p++;
		for (n = 0; p + n < e && text_isword(p[n]); n++)
			;
		if (n == 0)
			break;
		words++;
		for (i = 0; vague[i] != NULL; i++)
			if (strlen(vague[i]) == n &&
			    strncasecmp(vague[i], p, n) == 0)
				break;
		if (n >= 3 && vague[i] == NULL) {
			content++;
			prose_stem(p, n, w, sizeof(w));
			found = 0;
			for (q = subject; *q != '\0' && !found; q = t) {
				while (*q != '\0' && !text_isword(*q))
					q++;
				for (m = 0; text_isword(q[m]); m++)
					;
				t = q + m;
				if (m == 0)
					break;
				prose_stem(q, m, v, sizeof(v));
				found = strcmp(v, w) == 0;
			}
			if (!found)
				return 0;
		}
		p += n;
	}
	return content > 0 && words <= 10;
}

int
prose_sentences_about(struct buf *out, const char *s, int max,
    const char *subject)
{
	const char	*start = s, *p;
	int		 taken = 0;
	size_t		 n, pos, before;

	for (p = s; taken < max; p++) {
		int end = *p == '\0';

		if (!end && (*p == '.' || *p == '!' || *p == '?') &&
		    p[1] == ' ' && (isupper((unsigned char)p[2]) ||
		    isdigit((unsigned char)p[2])) && !prose_abbrev(s, p))
			end = 1;
		if (!end)
			continue;
		n = (size_t)(p - start) + (*p != '\0' ? 1 : 0);
		while (n > 0 && start[n - 1] == ' ')
			n--;
		if (n > 0 && n <= PROSE_MAXSENTENCE) {
			before = out->len;
			if (out->len > 0 && out->data[out->len - 1] != ' ' &&
			    out->data[out->len - 1] != '\n')
				buf_putc(out, ' ');
			pos = out->len;
			buf_append(out, start, n);
			if (strchr(".!?", out->data[out->len - 1]) != NULL)
				out->data[--out->len] = '\0';
			prose_sentence_fix(out, pos);
			if (out->len > pos && prose_restates(out->data + pos,
			    out->len - pos, subject))
				out->len = pos;
			if (out->len == pos) {
				/* dropped: take back the space before it */
				out->len = before;
				out->data[before] = '\0';
				if (*p == '\0')
					break;
				start = p + 2;
				p++;
				continue;
			}
			if (out->data[out->len - 1] == ':' ||
			    out->data[out->len - 1] == ',' ||
			    out->data[out->len - 1] == ';')
				out->data[out->len - 1] = '.';
			else if (strchr(".!?", out->data[out->len - 1]) == NULL)
				buf_putc(out, '.');
			out->data[pos] = (char)toupper(
			    (unsigned char)out->data[pos]);
			taken++;
		}
		if (*p == '\0')
			break;
		start = p + 2;
		p++;
	}
	return taken;
}

/*
 * Up to max sentences of a body's prose (new string, maybe ""): trailers,
 * code blocks, test plans and lines repeating the subject dropped, then
 * cleaned with text_clean().
 */
char *
prose_of(const char *body, const char *subject, int max)
{
	struct text_paras	 ps;
	struct buf		 out;
	size_t			 i;
	int			 taken = 0;

	buf_init(&out);
	text_paragraphs(body, subject, &ps);
	for (i = 0; i < ps.n && taken < max; i++) {
		if (ps.bullet[i] && taken > 0)
			break;
		taken += prose_sentences_about(&out, ps.text[i],
		    ps.bullet[i] ? 1 : max - taken, subject);
		if (ps.bullet[i])
			break;
	}
	text_paras_free(&ps);
	return buf_steal(&out);
}
