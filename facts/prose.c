/*
 * Sentences of a commit's prose told aloud: split at sentence ends (not
 * at "e.g."), told as reported speech ("Add X and expose Y" -> "It added
 * X and exposed Y"), "a"/"an" by sound; fragments, leftovers and
 * sentences that only restate the subject dropped.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "phrase.h"
#include "prose.h"

/* Symbols a sentence from a body may hold and still be read. */
#define PROSE_MAXSYMBOLS	1
/* A sentence past the count asked for, told for its benefit, is short. */
#define PROSE_MAXBENEFIT	160
#include "text.h"
#include "xmalloc.h"

/* Whether the '.' at p (in s) ends one of the abbreviations in abbrevs. */
static int
prose_abbrev_in(const char *s, const char *p, const char *const *abbrevs)
{
	size_t	i, n;

	for (i = 0; abbrevs[i] != NULL; i++) {
		n = strlen(abbrevs[i]);
		if ((size_t)(p - s) >= n && strncasecmp(p - n, abbrevs[i], n) == 0 &&
		    ((size_t)(p - s) == n || !isalpha((unsigned char)p[-(long)n - 1])))
			return 1;
	}
	return 0;
}

/* Whether the '.' at p (in s) ends an abbreviation. */
static int
prose_abbrev(const char *s, const char *p)
{
	static const char *const abbrevs[] = { "e.g", "i.e", "etc", "vs",
	    "approx", "Mr", "Dr", "No", "cf", NULL };

	return prose_abbrev_in(s, p, abbrevs);
}

/*
 * Whether a sentence may begin in lower case at next, after the end at p
 * (in s): some write all in lower case ("... for them. now there are").
 * After a word of two letters or more, not an abbreviation, and before a
 * word of letters (not "x.y" or "foo_bar" code).
 */
static int
prose_lower_start(const char *s, const char *p, const char *next)
{
	static const char *const abbrevs[] = { "misc", "incl", "al", "esp",
	    "resp", "ca", "ref", "fig", "sec", "min", "max", "ver", NULL };
	size_t	 n;

	if (!islower((unsigned char)*next) || p - s < 2 ||
	    !isalpha((unsigned char)p[-1]) || !isalpha((unsigned char)p[-2]) ||
	    prose_abbrev_in(s, p, abbrevs))
		return 0;
	for (n = 0; isalpha((unsigned char)next[n]) || next[n] == '\''; n++)
		continue;
	return next[n] == ' ' || next[n] == ',' || next[n] == '\0';
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

/* Words that open a noun phrase or stand for one ("Leave the creds"). */
static const char *const prose_objects[] = { "the", "a", "an", "this",
    "these", "those", "its", "their", "our", "your", "all", "any", "each",
    "every", "some", "both", "it", "them", NULL };

/* Words a sentence or a clause may start with that are not verbs. */
static const char *const prose_nonverbs[] = { "the", "a", "an", "this",
    "that", "these", "those", "its", "their", "our", "your", "my", "all",
    "any", "each", "every", "some", "both", "it", "them", "i", "we", "you",
    "he", "she", "they", "there", "here", "now", "then", "also", "only",
    "just", "still", "so", "but", "and", "or", "nor", "yet", "because",
    "since", "when", "while", "if", "unless", "once", "after", "before",
    "until", "as", "for", "in", "on", "at", "by", "with", "without",
    "from", "into", "of", "to", "via", "per", "over", "under", "about",
    "across", "during", "within", "through", "like", "unlike", "what",
    "which", "who", "why", "how", "where", "whether", "not", "no",
    "nothing", "otherwise", "instead", "however", "thus", "hence",
    "therefore", "even", "first", "second", "finally", "again", "either",
    "neither", "many", "most", "more", "less", "few", "several", "other",
    "another", "such", "same", "much", "very", "too", "rather", "almost",
    "today", "given", "maybe", "perhaps", "except", "besides", "whereas",
    "though", "although", "upon", "between", "among", "against", "toward",
    "towards", "later", "never", "always", "often", "sometimes",
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    "ten", "new", "old", "is", "are", "was", "were", "be", "been", "has",
    "have", "had", "will", "would", "can", "could", "should", "may",
    "might", "must", "does", "did", "do", "somehow", "whenever",
    "wherever", "else", NULL };

/* Words that open a leading clause: "When building against X, move Y". */
static const char *const prose_openers[] = { "when", "if", "unless",
    "while", "once", "since", "after", "before", "otherwise",
    "additionally", "also", "finally", "then", "now", "instead", "where",
    "for", "in", "on", "with", "to", "as", "because", "similarly",
    "likewise", "meanwhile", "here", "thus", "so", "hence",
    "alternatively", "optionally", "further", "furthermore", "moreover",
    "separately", "first", "second", "next", "lastly", "afterwards",
    "without", "during", "until", "by", "from", "at", "given", "whenever",
    "wherever", "though", "although", "still", "however", "elsewhere",
    NULL };

/* Verbs an imperative uses to speak to the reader ("Set X to try it"). */
static const char *const prose_reader_verbs[] = { "set", "use", "run",
    "pass", "export", "install", NULL };

/* Always to the reader ("Opt in via X", "Try Y"). */
static const char *const prose_reader_always[] = { "opt", "try", NULL };

/* Subordinators after which a verb is not one of the sentence's own. */
static const char *const prose_subord[] = { " so that ", " so ", " to ",
    " which ", " that ", " when ", " if ", " because ", " where ",
    " while ", " can ", " will ", " should ", " must ", " could ",
    " would ", " may ", " might ", " in order ", " unless ", " until ",
    " once ", " whether ", " who ", NULL };

/* Whether the word at s (length n) is in list, ignoring case. */
static int
prose_in(const char *s, size_t n, const char *const *list)
{
	return n > 0 && phrase_word_in(s, n, list);
}

/* The length of the word at s: letters, digits, '-', '\'' and '_'. */
static size_t
prose_word(const char *s)
{
	size_t	n = 0;

	while (text_isword(s[n]) || s[n] == '-' || s[n] == '\'')
		n++;
	return n;
}

/*
 * The past tense of the verb at w (length n; new), or NULL: the base form,
 * or with third set also "adds", "fixes", "applies".
 */
static char *
prose_past_of(const char *w, size_t n, int third)
{
	char	 base[32], *past;

	if ((past = phrase_verb_past(w, n)) != NULL || !third || n < 3 ||
	    n >= sizeof base || tolower((unsigned char)w[n - 1]) != 's')
		return past;
	if (n > 4 && strncasecmp(w + n - 3, "ies", 3) == 0) {
		memcpy(base, w, n - 3);
		memcpy(base + n - 3, "y", 2);
		return phrase_verb_past(base, n - 2);
	}
	if ((past = phrase_verb_past(w, n - 1)) != NULL)
		return past;
	if (n > 3 && tolower((unsigned char)w[n - 2]) == 'e')
		return phrase_verb_past(w, n - 2);
	return NULL;
}

/*
 * Whether the word at s (length n) reads as a verb the table doesn't
 * know: a plain word that is no function word, not "-ed", "-ing", "-ly",
 * "-en" or "-s", with an object after it ("Leave the creds in place").
 */
static int
prose_unknown_verb(const char *s, size_t n)
{
	const char	*next;
	size_t		 i, m;

	if (n < 2 || s[n] != ' ' || prose_in(s, n, prose_nonverbs))
		return 0;
	for (i = 1; i < n; i++)
		if (!islower((unsigned char)s[i]) && s[i] != '-')
			return 0;
	if (!isalpha((unsigned char)s[0]) || s[n - 1] == 's' ||
	    (n > 2 && strncmp(s + n - 2, "ed", 2) == 0) ||
	    (n > 2 && strncmp(s + n - 2, "ly", 2) == 0) ||
	    (n > 3 && strncmp(s + n - 3, "ing", 3) == 0) ||
	    (n > 2 && strncmp(s + n - 2, "en", 2) == 0))
		return 0;
	next = s + n + 1;
	m = prose_word(next);
	/* "Solution The bulk ..." is a heading run into its text */
	return islower((unsigned char)next[0]) &&
	    prose_in(next, m, prose_objects) && next[m] == ' ';
}

/*
 * Append rest to t, the verbs that coordinate with the sentence's own
 * ("... and expose Y", "..., reuse Y and preserve Z") in the past tense,
 * not inside a subordinate clause ("so that users can set it and use
 * it"; the next ", and" ends one); with third set
 * also "... and exposes Y". 0 when a verb the table does not know would
 * be left in the imperative.
 */
static int
prose_coordinated(struct buf *t, const char *rest, int third)
{
	const char	*p = rest, *w, *next;
	char		*past;
	size_t		 n, m, i, k;
	int		 sub = 0;

	while (*p != '\0') {
		if (*p == ' ' && !sub) {
			for (i = 0; prose_subord[i] != NULL; i++)
				if (prose_subord[i][1] == p[1] &&
				    strncasecmp(p, prose_subord[i],
				    strlen(prose_subord[i])) == 0)
					break;
			w = prose_subord[i] != NULL ?
			    p + strlen(prose_subord[i]) : NULL;
			n = w != NULL ? prose_word(w) : 0;
			/* "where possible and ..." is no clause of its own */
			if (w != NULL && (w[n] == '\0' || w[n] == ',' ||
			    strncmp(w + n, " and ", 5) == 0))
				w = NULL;
			/* "closer to the man page" is no infinitive */
			if (w != NULL && i == 2) {
				past = phrase_verb_past(w, n);
				if (past == NULL)
					w = NULL;
				free(past);
			}
			sub = w != NULL;
		}
		/* past a subordinate clause only ", and" coordinates */
		if (strncmp(p, ", and ", 6) == 0)
			k = 6;
		else if (!sub && strncmp(p, ", ", 2) == 0)
			k = 2;
		else if (!sub && strncmp(p, " and ", 5) == 0)
			k = 5;
		else {
			buf_putc(t, *p++);
			continue;
		}
		sub = 0;
		buf_append(t, p, k);
		w = p + k;
		p = w;
		n = prose_word(w);
		if (n == 0 || w[n] != ' ' || prose_in(w, n, prose_nonverbs))
			continue;
		next = w + n + 1;
		m = prose_word(next);
		if ((past = prose_past_of(w, n, third)) != NULL) {
			if (!phrase_nounish(w, n) ||
			    prose_in(next, m, prose_objects)) {
				buf_puts(t, past);
				p = w + n;
			}
			free(past);
		} else if (prose_unknown_verb(w, n))
			return 0;
	}
	return 1;
}

/* Whether s holds the word w (lowercase), not as part of a longer one. */
static int
prose_has_word(const char *s, const char *w)
{
	const char	*p = s;
	size_t		 n = strlen(w);

	while ((p = strcasestr(p, w)) != NULL) {
		if ((p == s || !text_isword(p[-1])) && !text_isword(p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * Whether an imperative (its verb at v, length n) in sentence s speaks to
 * the reader.
 */
static int
prose_to_reader(const char *v, size_t n, const char *s)
{
	if (prose_in(v, n, prose_reader_always))
		return 1;
	return prose_in(v, n, prose_reader_verbs) &&
	    (prose_has_word(s, "you") || prose_has_word(s, "your") ||
	    prose_has_word(s, "try") || prose_has_word(s, "opt"));
}

/* Whether a plural verb ("are", "were", "have") comes before the
 * sentence at s ends. */
static int
prose_plural_verb(const char *s)
{
	static const char *const verbs[] = { "are", "were", "have", NULL };
	size_t	 n;

	while (*s != '\0' && strchr(".!?;", *s) == NULL) {
		if (*s == ' ') {
			s++;
			n = prose_word(s);
			if (prose_in(s, n, verbs) && !text_isword(s[n]))
				return 1;
			continue;
		}
		s++;
	}
	return 0;
}

/*
 * Whether the "-s" word at w (length n) is a plural noun, not a verb in
 * the third person: a verb follows it ("Loads become Acquire", "Changes
 * include ...").
 */
static int
prose_third_noun(const char *w, size_t n, const char *next)
{
	static const char *const linking[] = { "become", "seem", "need",
	    "remain", "stay", "look", "get", "go", "come", "happen", NULL };
	static const char *const relative[] = { "that", "which", "who",
	    NULL };
	size_t	 m = prose_word(next);
	char	*past;

	if (n < 2 || tolower((unsigned char)w[n - 1]) != 's')
		return 0;
	if ((past = phrase_verb_past(w, n)) != NULL) {
		free(past);
		return 0;
	}
	if (isupper((unsigned char)next[0]))
		return 0;
	if (prose_in(next, m, linking))
		return 1;
	/*
	 * "Uploads that fail with 503 are now retried": a relative clause,
	 * then the plural verb the noun is the subject of (not "It uploaded
	 * that fail ..."); "Fixes that bug" has none
	 */
	if (prose_in(next, m, relative) && prose_plural_verb(next + m))
		return 1;
	if ((past = phrase_verb_past(next, m)) == NULL)
		return 0;
	free(past);
	return !phrase_nounish(next, m);
}

/*
 * Whether a verb that is as often a noun opens a noun phrase that is the
 * sentence's subject: a verb of the third person follows the next word
 * ("Inline placement wins", "Cache lookups are rare"), not an object.
 */
static int
prose_noun_subject(const char *body, size_t n, const char *next, size_t m)
{
	static const char *const verbs[] = { "is", "are", "was", "were",
	    "wins", "stays", "works", "fails", "applies", "happens", "means",
	    "becomes", "remains", "takes", "goes", "comes", "runs", "needs",
	    "has", "does", NULL };
	const char	*w2;

	if (!phrase_nounish(body, n) || next[m] != ' ')
		return 0;
	w2 = next + m + 1;
	return prose_in(w2, strcspn(w2, " ,.;:"), verbs);
}

/*
 * Append "It <verb><rest>" to t, rest's coordinated verbs in the past
 * (prose_coordinated), and the leading clause of p (head bytes, its first
 * word n0 bytes) put where reported speech has it: one word after "It"
 * ("Finally, add X" -> "It finally added X"), a longer clause after the
 * verb's phrase ("When building against X, move Y" -> "It moved Y when
 * building against X"), before a closing ": list".
 */
static int
prose_tell(struct buf *t, const char *p, size_t head, size_t n0, int also,
    const char *verb, const char *rest, int third)
{
	struct buf	 u;
	const char	*colon;
	size_t		 at;
	int		 ok;

	/*
	 * "Do not add X": what the code does from now on, not what the
	 * change did ("It did not add X" says the opposite of the message)
	 */
	if (strcmp(verb, "does not") == 0)
		buf_printf(t, "With it, the code%s", also ? " also" : "");
	else
		buf_printf(t, "It%s", also ? " also" : "");
	if (head > 0 && head == n0 + 2) {
		buf_putc(t, ' ');
		at = t->len;
		buf_append(t, p, n0);
		t->data[at] = (char)tolower((unsigned char)t->data[at]);
	}
	buf_printf(t, " %s", verb);
	buf_init(&u);
	ok = prose_coordinated(&u, rest, third);
	if (head > n0 + 2) {
		colon = strstr(buf_str(&u), ": ");
		at = colon != NULL ? (size_t)(colon - u.data) : u.len;
		buf_append(t, u.data, at);
		buf_putc(t, ' ');
		phrase_lower_first(t, p);
		t->len -= strlen(p) - (head - 2);
		t->data[t->len] = '\0';
		buf_puts(t, u.data + at);
	} else
		buf_puts(t, buf_str(&u));
	buf_free(&u);
	return ok;
}

/*
 * A purpose or a reason standing alone, the why of the change it follows
 * (issue #27: a story says why, and "To avoid a local .curlrc interfering
 * with tests." was dropped as a fragment): "To X" and "In order to X" are
 * told "The aim: to X", "Because X" is "The reason: X". Other fragments
 * ("So that builds pass again.", "Which was broken on macOS.") lean on a
 * sentence a listener can't hear in them: 0, dropped.
 */
static int
prose_purpose(struct buf *t, const char *p)
{
	static const char *aims[] = { "to ", "in order to ", "so as to ",
	    NULL };
	const char	*rest;
	size_t		 n;

	if (text_starts_any(p, aims, &n)) {
		rest = p + n;
		/* a verb after "to", in lower case: "To 4.2." is no aim */
		n = prose_word(rest);
		if (n < 2 || !islower((unsigned char)rest[0]) ||
		    strspn(rest, "abcdefghijklmnopqrstuvwxyz") != n)
			return 0;
		buf_puts(t, "The aim: to ");
		buf_puts(t, rest);
		return 1;
	}
	if (strncasecmp(p, "because ", 8) == 0 && p[8] != '\0') {
		buf_puts(t, "The reason: ");
		buf_puts(t, p + 8);
		return 1;
	}
	return 0;
}

/*
 * Append the sentence p (without its end) to t as reported speech: an
 * imperative, also one after a leading clause ("When building against X,
 * move Y") or with coordinated verbs ("Add X and expose Y"), becomes "It
 * added X and exposed Y"; words to the reader become "It said you could
 * ...". 0 when the sentence is to be dropped: a fragment ("To sync with
 * it."), a reference ("See the docs."), an imperative whose verb the
 * table does not know.
 */
static int
prose_report(struct buf *t, const char *p, int also)
{
	static const char *const not_imperative[] = { "is", "are", "was",
	    "were", "has", "have", "had", "will", "can", "could", "should",
	    "may", "might", "must", "does", "did", NULL };
	/* after a verb that is as often a noun: "Support for X is ..." */
	static const char *const not_after_noun[] = { "for", "of", "in",
	    "on", "to", "and", "or", "as", "at", "with", "from", "by", NULL };
	static const char *fragments[] = { "to ", "in order to ",
	    "so that ", "so as to ", "because ", "which ", NULL };
	static const char *const see[] = { "see", NULL };
	const char	*body = p, *next, *comma;
	char		*past, *base;
	size_t		 head = 0, n, n0, m;
	int		 reader = 0, ok;

	n = n0 = prose_word(p);
	if (prose_in(p, n, see))
		return 0;
	if (text_starts_any(p, fragments, NULL) && strstr(p, ", ") == NULL)
		return prose_purpose(t, p);
	if (strncasecmp(p, "note that ", 10) == 0) {
		buf_printf(t, "It %snoted %s", also ? "also " : "", p + 5);
		return 1;
	}
	if (prose_in(p, n, prose_openers) && (p[n] == ' ' || p[n] == ',') &&
	    (comma = strstr(p, ", ")) != NULL) {
		head = (size_t)(comma - p) + 2;
		body = comma + 2;
	}
	if (strncasecmp(body, "please ", 7) == 0) {
		body += 7;
		reader = 1;
	}
	if (strncasecmp(body, "do not ", 7) == 0 ||
	    strncasecmp(body, "don't ", 6) == 0) {
		return prose_tell(t, p, head, n0, also, "does not",
		    body + (body[2] == ' ' ? 6 : 5), 0);
	}
	n = prose_word(body);
	past = body[n] == ' ' ? prose_past_of(body, n, head == 0) : NULL;
	next = body + n + 1;
	if (past != NULL && prose_third_noun(body, n, next)) {
		free(past);
		past = NULL;
	}
	m = past != NULL ? strcspn(next, " ,.;:") : 0;
	if (prose_in(body, n, prose_reader_always))
		reader = 1;
	if (past == NULL || (next[m] != '\0' && !reader &&
	    (prose_in(next, m, not_imperative) ||
	    (prose_in(next, m, not_after_noun) &&
	    phrase_nounish(body, n)) ||
	    prose_noun_subject(body, n, next, m)))) {
		free(past);
		if (prose_unknown_verb(body, n))
			return 0;
		buf_puts(t, p);
		return 1;
	}
	if (reader || prose_to_reader(body, n, p)) {
		free(past);
		if (head > 0) {
			buf_puts(t, "It said that ");
			phrase_lower_first(t, p);
			t->len -= strlen(body);
			t->data[t->len] = '\0';
		} else
			buf_puts(t, "It said ");
		buf_puts(t, "you could ");
		phrase_lower_first(t, body);
		return 1;
	}
	/* "Adds X and exposes Y" keeps to the third person */
	base = phrase_verb_past(body, n);
	ok = prose_tell(t, p, head, n0, also, past, body + n, base == NULL);
	free(base);
	free(past);
	return ok;
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
 * Whether a bare lower-case "i" at p (one letter) is the pronoun: a word
 * a person says after it follows ("i think"), not code's index ("for i
 * in", "a[i]").
 */
static int
prose_lower_i(const char *p)
{
	static const char *const after[] = { "also", "am", "believe",
	    "can", "can't", "could", "did", "didn't", "do", "don't", "feel",
	    "found", "got", "guess", "had", "have", "hope", "just", "know",
	    "like", "made", "need", "noticed", "prefer", "really", "saw",
	    "should", "think", "thought", "tried", "used", "want", "was",
	    "wasn't", "will", "won't", "would", NULL };
	size_t	 n;

	if (p[1] != ' ')
		return 0;
	p += 2;
	for (n = 0; isalpha((unsigned char)p[n]) || p[n] == '\''; n++)
		continue;
	return prose_in(p, n, after);
}

/*
 * The authors' "we", "our" and "us" inside a sentence said as "they",
 * "their" and "them", in place from pos: the host is not one of them.
 * Inside a quotation the words are the writer's and stay as written.
 */
static void
prose_their_voice(struct buf *out, size_t pos)
{
	static const struct {
		const char	*we, *they;
	} words[] = {
		{ "we", "they" }, { "our", "their" }, { "us", "them" },
		{ "we're", "they're" }, { "we've", "they've" },
		{ "we'll", "they'll" }, { "ourselves", "themselves" },
		{ "me", "them" }, { "my", "their" }, { "myself", "themselves" },
		{ "I", "they" }, { "i", "they" }, { "I'm", "they're" },
		{ "i'm", "they're" }, { "I've", "they've" },
		{ "i've", "they've" }, { "I'd", "they'd" }, { "i'd", "they'd" },
		{ "I'll", "they'll" }, { "i'll", "they'll" },
	};
	/* after "I": the verb as after "they" */
	static const struct {
		const char	*was, *were;
	} agree[] = { { "was", "were" }, { "am", "are" } };
	struct buf	 t;
	const char	*p;
	size_t		 n, k, a;
	int		 changed = 0, after_i = 0, quoted = 0;

	buf_init(&t);
	for (p = out->data + pos; *p != '\0'; p += n) {
		/* a quotation is the writer's own words: their "we" stays */
		if (*p == '"' || strncmp(p, "\xe2\x80\x9c", 3) == 0) {
			n = *p == '"' ? 1 : 3;
			quoted = *p == '"' ? !quoted : 1;
			buf_append(&t, p, n);
			continue;
		}
		if (strncmp(p, "\xe2\x80\x9d", 3) == 0) {
			n = 3;
			quoted = 0;
			buf_append(&t, p, n);
			continue;
		}
		if (!isalpha((unsigned char)*p) || quoted) {
			for (n = 1; quoted && isalpha((unsigned char)*p) &&
			    isalpha((unsigned char)p[n]); n++)
				continue;
			buf_append(&t, p, n);
			continue;
		}
		for (n = 0; isalpha((unsigned char)p[n]) || p[n] == '\''; n++)
			continue;
		for (k = 0; k < sizeof words / sizeof words[0]; k++)
			if (strlen(words[k].we) == n &&
			    strncmp(p, words[k].we, n) == 0)
				break;
		/* not a letter of "I/O", "i.e." or "x-i" */
		if (k < sizeof words / sizeof words[0] && (p == out->data ||
		    (p[-1] != '-' && p[-1] != '/' && p[-1] != '.')) &&
		    (tolower((unsigned char)*p) != 'i' || (p[n] != '/' &&
		    p[n] != '.' && p[n] != '-')) &&
		    (strcmp(words[k].we, "i") != 0 || prose_lower_i(p))) {
			buf_puts(&t, words[k].they);
			changed = 1;
			after_i = n == 1;
			continue;
		}
		for (a = 0; after_i && a < sizeof agree / sizeof agree[0]; a++)
			if (strlen(agree[a].was) == n &&
			    strncmp(p, agree[a].was, n) == 0)
				break;
		if (after_i && a < sizeof agree / sizeof agree[0])
			buf_puts(&t, agree[a].were);
		else
			buf_append(&t, p, n);
		after_i = 0;
	}
	if (changed) {
		out->len = pos;
		out->data[pos] = '\0';
		buf_append(out, t.data, t.len);
	}
	buf_free(&t);
}

/*
 * The sentence at out->data + pos replaced by t's text (t freed), said in
 * the third person.
 */
static void
prose_replace(struct buf *out, size_t pos, struct buf *t)
{
	out->len = pos;
	out->data[pos] = '\0';
	buf_puts(out, buf_str(t));
	buf_free(t);
	prose_their_voice(out, pos);
}

/*
 * Make one sentence read well aloud, in place at out->data + pos: a
 * leading "Also:" goes, a trailing ": list_of(), identifiers" goes, and
 * the rest is told as reported speech (prose_report): "Reshuffle code to
 * ..." becomes "It reshuffled code to ...", the way a host would say it.
 * Emptied when the sentence is to be dropped.
 */
/*
 * Whether p opens with a label of code: one word before a colon, with an
 * underscore, brackets or "::" in it ("curlx_get_winapi_error:",
 * "Foo::bar():"); a word label ("Summary:", "sspi:") is not code.
 */
static int
prose_code_label(const char *p)
{
	size_t	n = strcspn(p, " ");

	/* the word and its colon, the colon not the end of a "::" */
	if (n < 2 || p[n - 1] != ':' || p[n - 2] == ':')
		return 0;
	n--;
	return memchr(p, '_', n) != NULL || memchr(p, '(', n) != NULL ||
	    (strstr(p, "::") != NULL && strstr(p, "::") < p + n);
}

static void
prose_sentence_fix(struct buf *out, size_t pos)
{
	static const char *this_change[] = { "this commit ", "this change ",
	    "this patch ", "this pr ", "this pull request ", NULL };
	struct buf	 t;
	char		*s = xstrdup(out->data + pos), *p, *colon, *past;
	size_t		 n, w, i;
	int		 also = 0, code;

	p = s;
	if (strncasecmp(p, "also: ", 6) == 0 || strncasecmp(p, "also, ", 6) == 0) {
		p += 6;
		also = 1;
	}
	/* an aside in parentheses is the author's, not the story's; a
	   list item led by the code it changes ("curlx_get_winapi_error:
	   accept DWORD (was: int), move casts ...", curl 2025-10-06) is
	   code on air, not a sentence */
	if (*p == '(' || prose_code_label(p)) {
		out->len = pos;
		out->data[pos] = '\0';
		free(s);
		return;
	}
	/*
	 * The authors' own voice is not the host's: "We do require torch
	 * 2.11+" is "The authors said they do require torch 2.11+"
	 */
	if (strncasecmp(p, "we ", 3) == 0 || (*p == 'I' && p[1] == ' ') ||
	    (*p == 'i' && prose_lower_i(p))) {
		buf_init(&t);
		buf_puts(&t, p[1] != ' ' ? "The authors said they " :
		    "The author said they ");
		buf_puts(&t, p + (p[1] != ' ' ? 3 : 2));
		prose_replace(out, pos, &t);
		free(s);
		return;
	}
	for (i = 0; this_change[i] != NULL; i++) {
		w = strlen(this_change[i]);
		if (strncasecmp(p, this_change[i], w) != 0)
			continue;
		n = strcspn(p + w, " ,.");
		/* "This commit suppresses X" reads as "It suppressed X" */
		past = n > 2 && p[w + n - 1] == 's' && p[w + n - 2] != 's' ?
		    prose_past_of(p + w, n, 1) : NULL;
		if (past != NULL) {
			free(past);
			buf_init(&t);
			if (!prose_report(&t, p + w, also))
				buf_reset(&t);
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
	if (!prose_report(&t, p, also))
		buf_reset(&t);
	else if (t.len > 0)
		t.data[0] = (char)toupper((unsigned char)t.data[0]);
	prose_replace(out, pos, &t);
	free(s);
}

/*
 * Whether a sentence s[0..n) ends on a word that wants more after it
 * ("so that", "because", "the", "with"): what followed was a list or
 * code, and the sentence told alone stops mid-thought.
 */
static int
prose_dangles(const char *s, size_t n)
{
	static const char *const words[] = { "because", "which", "the", "a",
	    "an", "with", "to", "of", "for", "and", "or", "like", "when",
	    "if", "following", "from", "into", "via", "using", NULL };
	size_t	e = n, b;

	while (e > 0 && strchr(".:;, ", s[e - 1]) != NULL)
		e--;
	for (b = e; b > 0 && s[b - 1] != ' '; b--)
		continue;
	/* "so that" wants a clause; a lone "that" may be a pronoun */
	if (e - b == 4 && strncasecmp(s + b, "that", 4) == 0)
		return (b >= 3 && strncasecmp(s + b - 3, "so ", 3) == 0) ||
		    (b >= 5 && strncasecmp(s + b - 5, "such ", 5) == 0);
	return e > b && phrase_word_in(s + b, e - b, words);
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
 * How many words of s[0..n) a listener hears as symbols: snake_case,
 * camelCase, a::b, f(), a.b (a file or a member; not "e.g."), a label
 * before its value ("mfu: 29%").
 */
static size_t
prose_symbols(const char *s, size_t n)
{
	size_t	i = 0, j, k, m, count = 0;
	int	sym, prev, next;

	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == ',' || s[i] == ';' ||
		    s[i] == '"' || s[i] == '\''))
			i++;
		for (j = i; j < n && s[j] != ' ' && s[j] != ',' &&
		    s[j] != ';' && s[j] != '"'; j++)
			continue;
		/* a word's end punctuation is not part of it */
		k = j;
		while (k > i && (s[k - 1] == '.' || s[k - 1] == ':' ||
		    s[k - 1] == '!' || s[k - 1] == '?'))
			k--;
		sym = 0;
		for (m = i; m < k && !sym; m++) {
			prev = m > i ? (unsigned char)s[m - 1] : 0;
			next = m + 1 < k ? (unsigned char)s[m + 1] : 0;

			if (s[m] == '_' && prev != 0 && next != 0 &&
			    isalnum(prev) && isalnum(next))
				sym = 1;
			else if (s[m] == ':' && next == ':')
				sym = 1;
			else if (s[m] == '(' && next == ')')
				sym = 1;
			else if (isupper((unsigned char)s[m]) && prev != 0 &&
			    islower(prev) && m > i + 1)
				sym = 1;
			else if (s[m] == '.' && prev != 0 && next != 0 &&
			    isalpha(prev) && isalpha(next) &&
			    !(m + 2 < k && s[m + 2] == '.'))
				sym = 1;
		}
		/* a label and its value: "mfu: 29%", "wps: 109" */
		if (!sym && k < j && s[k] == ':' && j + 1 < n &&
		    s[j] == ' ' && isdigit((unsigned char)s[j + 1]))
			sym = 1;
		count += sym;
		i = j;
	}
	return count;
}

/*
 * Whether s[0..n) holds code with brackets a listener cannot follow: a
 * name's brackets around a list ("Tuple[int, str, bytes]", "f(a, b)").
 * An index or a call with one argument ("a[0]", "len(x)") is read.
 */
static int
prose_code_brackets(const char *s, size_t n)
{
	const char	*close;
	size_t		 i, k;
	int		 depth;

	for (i = 1; i < n; i++) {
		if ((s[i] != '[' && s[i] != '(') ||
		    !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_'))
			continue;
		close = s[i] == '[' ? "]" : ")";
		for (k = i + 1, depth = 1; k < n && depth > 0; k++) {
			if (s[k] == s[i])
				depth++;
			else if (s[k] == *close)
				depth--;
			else if (s[k] == ',' && depth > 0)
				return 1;
		}
	}
	return 0;
}

/*
 * Whether a sentence leans on the one before it ("This means...", "A
 * positive one therefore under-reserved...", "...can have more items
 * than that at runtime", "With both options set."): told without that
 * one, it points at nothing.
 */
static int
prose_leans_back(const char *s, size_t n)
{
	static const char *const starts[] = { "This ", "That ", "These ",
	    "Those ", "It ", "It's ", "Its ", "They ", "Their ", "So ",
	    "Thus", "Hence", "Therefore", "Otherwise", "Instead", NULL };
	static const char *const inside[] = { " therefore ", " thus ",
	    " hence ", NULL };
	/* a demonstrative standing for a thing: "more items than that" */
	static const char *const compared[] = { " than that", " than this",
	    " than those", " than these", " like that", " like this", NULL };
	static const char *const after[] = { "at", "in", "on", "for", "to",
	    "by", "with", "when", "and", "or", "now", NULL };
	static const char *const preps[] = { "With", "Without", "After",
	    "Before", "For", "Under", "Once", NULL };
	size_t	i, k, m, w;

	for (i = 0; starts[i] != NULL; i++)
		if (n >= strlen(starts[i]) &&
		    strncmp(s, starts[i], strlen(starts[i])) == 0)
			return 1;
	for (i = 0; inside[i] != NULL; i++)
		for (k = 0; k + strlen(inside[i]) <= n; k++)
			if (strncmp(s + k, inside[i], strlen(inside[i])) == 0)
				return 1;
	for (i = 0; compared[i] != NULL; i++)
		for (k = 0; k + strlen(compared[i]) <= n; k++) {
			if (strncmp(s + k, compared[i],
			    strlen(compared[i])) != 0)
				continue;
			m = k + strlen(compared[i]);
			/* the end, or a preposition, not a noun after it */
			if (m == n || strchr(".,;:!?)", s[m]) != NULL)
				return 1;
			if (s[m] == ' ' && phrase_word_in(s + m + 1,
			    phrase_first_word(s + m + 1), after))
				return 1;
		}
	/* a phrase with no verb of its own: "With both options set." */
	if (phrase_word_in(s, phrase_first_word(s), preps) &&
	    memchr(s, ',', n) == NULL) {
		for (k = 0, w = 1; k < n; k++)
			w += s[k] == ' ';
		if (w <= 5)
			return 1;
	}
	return 0;
}

/*
 * Whether a sentence gives the benefit of the one before it: "This makes
 * small GEMMs 1.4x faster.", "So builds pass again.", "Thus no lock is
 * taken." Details that lean back ("These conditions include...") are
 * none.
 */
static int
prose_benefit(const char *s, size_t n)
{
	static const char *const clauses[] = { "So", "Thus", "Hence",
	    "Therefore", NULL };
	static const char *const pronouns[] = { "This", "That", "It", NULL };
	static const char *const verbs[] = { "makes", "means", "fixes",
	    "allows", "lets", "avoids", "prevents", "improves", "reduces",
	    "speeds", "saves", "ensures", "enables", "removes", NULL };
	size_t	w = phrase_first_word(s), v;

	if (w == 0 || w >= n)
		return 0;
	/* "So ...", "Thus ...": the clause is the benefit */
	if (phrase_word_in(s, w, clauses))
		return 1;
	if (!phrase_word_in(s, w, pronouns))
		return 0;
	v = phrase_first_word(s + w + 1);
	return w + 1 + v <= n && phrase_word_in(s + w + 1, v, verbs);
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
prose_sentences_after(struct buf *out, const char *s, int max,
    const char *subject, int *lostp)
{
	const char	*start = s, *p;
	int		 taken = 0;
	size_t		 n, pos, before, i;
	int		 lost = *lostp;	/* the sentence before was not told */
	long		 aside = 0;	/* parentheses open from before */

	/*
	 * One sentence past max is told when it leans on the last one told
	 * ("This makes small GEMMs faster."): a story is not cut before its
	 * benefit.
	 */
	for (p = s; taken <= max && max > 0; p++) {
		int end = *p == '\0';

		/* a sentence ends before a capital, a digit or an aside in
		   parentheses, and an aside ends after its ')' */
		if (!end && (*p == '.' || *p == '!' || *p == '?')) {
			const char *q = p + (p[1] == ')');

			if (q[1] == ' ' && (isupper((unsigned char)q[2]) ||
			    isdigit((unsigned char)q[2]) || q[2] == '(' ||
			    prose_lower_start(s, p, q + 2)) &&
			    !prose_abbrev(s, p)) {
				end = 1;
				p = q;
			}
		}
		if (!end)
			continue;
		n = (size_t)(p - start) + (*p != '\0' ? 1 : 0);
		while (n > 0 && start[n - 1] == ' ')
			n--;
		/* an aside in parentheses, over one sentence or more, goes */
		if (aside > 0 || (n > 0 && start[0] == '(')) {
			for (i = 0; i < n; i++)
				aside += (start[i] == '(') - (start[i] == ')');
			if (aside < 0)
				aside = 0;
			if (*p == '\0')
				break;
			start = p + 2;
			p++;
			continue;
		}
		if (taken == max && (lost || n > PROSE_MAXBENEFIT ||
		    !prose_benefit(start, n)))
			break;
		if (n > PROSE_MAXSENTENCE)
			lost = 1;
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
			phrase_articles(out, pos);
			if (out->len > pos && prose_restates(out->data + pos,
			    out->len - pos, subject))
				out->len = pos;
			/* a listener follows one symbol in a sentence, not more */
			if (out->len > pos && (prose_symbols(out->data + pos,
			    out->len - pos) > PROSE_MAXSYMBOLS ||
			    prose_code_brackets(out->data + pos,
			    out->len - pos)))
				out->len = pos;
			if (out->len > pos && lost && prose_leans_back(start, n))
				out->len = pos;
			/* "It changed the behavior so that." lost its list */
			if (out->len > pos && prose_dangles(out->data + pos,
			    out->len - pos))
				out->len = pos;
			lost = out->len == pos;
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
	/* sentences after the last one taken are not told either */
	*lostp = lost || taken >= max;
	return taken;
}

int
prose_sentences_about(struct buf *out, const char *s, int max,
    const char *subject)
{
	int	lost = 0;

	return prose_sentences_after(out, s, max, subject, &lost);
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
	int			 taken = 0, lost = 0;

	buf_init(&out);
	text_paragraphs(body, subject, &ps);
	for (i = 0; i < ps.n && taken < max; i++) {
		if (ps.bullet[i] && taken > 0)
			break;
		/* a paragraph's first sentence may lean on the last before */
		taken += prose_sentences_after(&out, ps.text[i],
		    ps.bullet[i] ? 1 : max - taken, subject, &lost);
		if (ps.bullet[i])
			break;
	}
	text_paras_free(&ps);
	return buf_steal(&out);
}
