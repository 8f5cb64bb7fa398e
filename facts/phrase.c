/*
 * Phrasing: the small turns of speech both drafters use to make sentences
 * (a capital, a closing period, "a" or "the", a verb in the past tense, a
 * count said aloud). Plain functions over a buf: no libevent, no jansson.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "phrase.h"
#include "text.h"
#include "words.h"
#include "xmalloc.h"

static int	phrase_determiner(const char *);

/* Start a new sentence in b (a space after the last one). */
void
phrase_space(struct buf *b)
{
	if (b->len > 0 && b->data[b->len - 1] != '\n' &&
	    b->data[b->len - 1] != ' ')
		buf_putc(b, ' ');
}

/* Start a new paragraph in b. */
void
phrase_para(struct buf *b)
{
	if (b->len > 0)
		buf_puts(b, "\n\n");
}

/* Append s with its first letter made uppercase. */
void
phrase_cap(struct buf *b, const char *s)
{
	size_t	at = b->len;

	buf_puts(b, s);
	if (b->len > at)
		b->data[at] = (char)toupper((unsigned char)b->data[at]);
}


/* Append s as a sentence: closing period added when missing. */
void
phrase_sentence_end(struct buf *b)
{
	if (b->len > 0 && strchr(".!?", b->data[b->len - 1]) == NULL)
		buf_putc(b, '.');
}

/* Whether lowercase-insensitive needle is in haystack. */
int
phrase_contains(const char *haystack, const char *needle)
{
	return needle != NULL && haystack != NULL &&
	    strcasestr(haystack, needle) != NULL;
}

/* The length of the first word of s. */
size_t
phrase_first_word(const char *s)
{
	return strcspn(s, " ,:;");
}

/* Whether the word (length n) is one of the list, ignoring case. */
int
phrase_word_in(const char *w, size_t n, const char *const *list)
{
	size_t	i;
	int	c = tolower((unsigned char)w[0]);

	/* the first letter first: most words differ there */
	for (i = 0; list[i] != NULL; i++) {
		if (tolower((unsigned char)list[i][0]) == c && strncasecmp(w, list[i], n) == 0 &&
		    list[i][n] == '\0')
			return 1;
	}
	return 0;
}

static const char *const phrase_preps[] = { "to", "for", "on", "in", "with",
    "from", "at", "of", "into", "by", "over", "under", "as", "when", "if",
    "after", "before", "via", "than", "and", "or", "is", "are", NULL };

/* A plain lowercase word: letters and hyphens only. */
int
phrase_plain(const char *w, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (!islower((unsigned char)w[i]) && w[i] != '-')
			return 0;
	}
	return n > 0;
}

/* A plural-looking plain word ("warnings", not "class" or "status"). */
static int
phrase_plural(const char *w, size_t n)
{
	return n > 3 && w[n - 1] == 's' && w[n - 2] != 's' && w[n - 2] != 'u' &&
	    w[n - 2] != 'i';
}

/*
 * "a" or "an" before the word at w, by its sound: "an Inductor", "a
 * unit", "a one-line", "an hour"; an acronym by its letters' names ("an
 * SQL", "an HTTP", "a URL", "an X86"), a number by how it is said ("an
 * 8-bit", "an 11").
 */
const char *
phrase_a(const char *w)
{
	static const char *const a_vowel[] = { "one", "once", "uni", "use",
	    "usa", "usu", "uti", "ure", "uri", "uro", "eu", "ewe", "ubi",
	    "ufo", "ukr", "uga", "uk", NULL };
	static const char *const an_cons[] = { "hour", "honest", "honor",
	    "honour", "heir", NULL };
	static const char *const not_uni[] = { "unin", "unim", "unid", NULL };
	/* acronyms said as words, not letters */
	static const char *const said[] = { "RAM", "ROM", "NASA", "RISC",
	    "SIMD", "LAN", "WAN", "GIF", "JPEG", "MIME", "SAML", "UEFI",
	    "URI", "UTF", "ASAP", NULL };
	size_t	 n, caps = 0, i;

	while (*w == '"' || *w == '\'' || *w == '(')
		w++;
	for (n = 0; w[n] != '\0' && (isalnum((unsigned char)w[n]) ||
	    w[n] == '_'); n++)
		if (isupper((unsigned char)w[n]) || isdigit((unsigned char)w[n]))
			caps++;
	if (n == 0)
		return "a";
	if (isdigit((unsigned char)w[0])) {
		/* eight, eleven, eighteen (and 11,000, 18 million) */
		if (w[0] == '8' || (n == 2 && w[0] == '1' &&
		    (w[1] == '1' || w[1] == '8')))
			return "an";
		return "a";
	}
	/* an acronym: by its letters unless it is said as a word */
	if (n >= 2 && caps == n && !phrase_word_in(w, n, said)) {
		if (strchr("AEFHILMNORSX", w[0]) != NULL)
			return "an";
		return "a";
	}
	for (i = 0; an_cons[i] != NULL; i++)
		if (strncasecmp(w, an_cons[i], strlen(an_cons[i])) == 0)
			return "an";
	if (strchr("aeiouAEIOU", w[0]) == NULL)
		return "a";
	for (i = 0; not_uni[i] != NULL; i++)
		if (strncasecmp(w, not_uni[i], strlen(not_uni[i])) == 0)
			return "an";
	for (i = 0; a_vowel[i] != NULL; i++) {
		size_t k = strlen(a_vowel[i]);

		/* "uk" and "ufo" only as the whole word */
		if (strncasecmp(w, a_vowel[i], k) == 0 && (k > 2 ||
		    strcmp(a_vowel[i], "eu") == 0 || n == k) &&
		    (strcmp(a_vowel[i], "ufo") != 0 || n == k))
			return "a";
	}
	return "an";
}

/*
 * Put every "a"/"an" in b from offset from by the sound of the word after
 * it ("a Inductor" -> "an Inductor", "an unit" -> "a unit").
 */
void
phrase_articles(struct buf *b, size_t from)
{
	struct buf	 t;
	const char	*p, *art;
	size_t		 i, n;
	int		 changed = 0;

	for (i = from; i + 2 < b->len && !changed; i++) {
		if ((i == 0 || !text_isword(b->data[i - 1])) &&
		    (b->data[i] == 'a' || b->data[i] == 'A') &&
		    (b->data[i + 1] == ' ' || (b->data[i + 1] == 'n' &&
		    b->data[i + 2] == ' ')))
			changed = 1;
	}
	if (!changed)
		return;
	buf_init(&t);
	for (p = b->data + from; *p != '\0';) {
		n = (p[0] == 'a' || p[0] == 'A') && p[1] == 'n' ? 2 : 1;
		if ((p == b->data || !text_isword(p[-1])) &&
		    (p[0] == 'a' || p[0] == 'A') && p[n] == ' ' &&
		    isalnum((unsigned char)p[n + 1])) {
			art = phrase_a(p + n + 1);
			buf_putc(&t, p[0]);
			if (art[1] == 'n')
				buf_putc(&t, 'n');
			p += n;
			continue;
		}
		buf_putc(&t, *p++);
	}
	b->len = from;
	b->data[from] = '\0';
	buf_append(b, t.data, t.len);
	buf_free(&t);
}

/*
 * The article a noun phrase at s wants after verb (NULL for none):
 * "remove version table" -> "the", "add basic way" -> "a". Only plain
 * lowercase phrases of one count noun get one; code, names, plurals and
 * mass nouns ("readability", "caching") stay as they are.
 */
static const char *
phrase_article(const char *verb, size_t vn, const char *s)
{
	static const char *const the_verbs[] = { "remove", "delete", "drop",
	    "fix", "update", "move", "rename", "replace", "restore",
	    "refactor", "simplify", "rework", "rewrite", "document",
	    "deprecate", "expose", "extend", "unify", "split", "tidy", "clean",
	    "improve", "correct", "bump", NULL };
	static const char *const a_verbs[] = { "add", "introduce", "implement",
	    "create", "write", "re-add", "readd", NULL };
	static const char *const skip[] = { "the", "a", "an", "this", "that",
	    "these", "those", "all", "some", "any", "more", "each", "every",
	    "its", "their", "our", "my", "no", "both", "other", "another",
	    "up", "out", "away", "back", "off", "down", "it", "them", "one",
	    "two", "three", "several", "many", "few", "most", "less", "much",
	    "support", "readability", "performance", "documentation", "docs",
	    "coverage", "handling", "logging", "code", "compatibility",
	    "memory", "information", "data", "output", "input", "cleanup",
	    "behavior", "behaviour", "access", "state", "debug", "error",
	    "usage", "validation", "tracing", "lint", "linting", "typing",
	    "misc", "miscellaneous", "various", "minor", "stale", "dead",
	    NULL };
	const char	*w = s, *art, *last = NULL;
	size_t		 n, words = 0, lastn = 0;

	if (phrase_word_in(verb, vn, a_verbs))
		art = phrase_a(s);
	else if (phrase_word_in(verb, vn, the_verbs))
		art = "the";
	else
		return NULL;
	n = strcspn(w, " ,:;");
	if (!phrase_plain(w, n) || phrase_word_in(w, n, skip) ||
	    phrase_word_in(w, n, phrase_preps) ||
	    (n > 4 && strncmp(w + n - 3, "ing", 3) == 0))
		return NULL;
	/*
	 * the head of the phrase: up to a preposition, a comma or code; its
	 * last word the noun ("keepdim support" is a mass noun's phrase). A
	 * head longer than that gets none: its noun is past what was read
	 * ("multi-root parent matcher regression tests").
	 */
	while (*w != '\0') {
		if (words == 8)
			return NULL;
		n = strcspn(w, " ,:;");
		/* a package at a version ("serve-static 2.1.0") is a name */
		if (isdigit((unsigned char)*w))
			return NULL;
		if (phrase_word_in(w, n, phrase_preps) || !phrase_plain(w, n))
			break;
		if (phrase_plural(w, n))
			return NULL;
		last = w;
		lastn = n;
		words++;
		if (w[n] != ' ')
			break;
		w += n + 1;
	}
	if (last != NULL && phrase_word_in(last, lastn, skip))
		return NULL;
	return art;
}

/* Verbs a subject may start with, and their past tense (NULL: regular). */
static const struct {
	const char	*verb;
	const char	*past;
} phrase_verbs[] = {
	{ "add", NULL }, { "fix", NULL }, { "remove", NULL },
	{ "drop", "dropped" }, { "delete", NULL }, { "move", NULL },
	{ "update", NULL }, { "improve", NULL }, { "use", NULL },
	{ "support", NULL }, { "enable", NULL }, { "disable", NULL },
	{ "re-enable", NULL }, { "reenable", NULL }, { "skip", "skipped" },
	{ "suppress", NULL }, { "introduce", NULL }, { "implement", NULL },
	{ "replace", NULL }, { "rename", NULL }, { "refactor", NULL },
	{ "allow", NULL }, { "avoid", NULL }, { "prefer", "preferred" },
	{ "adjust", NULL }, { "detect", NULL }, { "include", NULL },
	{ "pass", NULL }, { "tidy", NULL }, { "clean", NULL },
	{ "bump", NULL }, { "handle", NULL }, { "restore", NULL },
	{ "reduce", NULL }, { "optimize", NULL }, { "optimise", NULL },
	{ "convert", NULL }, { "switch", NULL }, { "deprecate", NULL },
	{ "expose", NULL }, { "migrate", NULL }, { "guard", NULL },
	{ "ensure", NULL }, { "document", NULL }, { "simplify", NULL },
	{ "extend", NULL }, { "rework", NULL }, { "exclude", NULL },
	{ "merge", NULL }, { "mark", NULL }, { "check", NULL },
	{ "limit", NULL }, { "raise", NULL }, { "lower", NULL },
	{ "return", NULL }, { "apply", NULL }, { "reapply", NULL },
	{ "revert", NULL }, { "sync", NULL }, { "align", NULL },
	{ "unify", NULL }, { "cache", NULL }, { "defer", "deferred" },
	{ "emit", "emitted" }, { "honor", NULL }, { "honour", NULL },
	{ "respect", NULL }, { "accept", NULL }, { "reject", NULL },
	{ "validate", NULL }, { "verify", NULL }, { "warn", NULL },
	{ "log", "logged" }, { "print", NULL }, { "parse", NULL },
	{ "export", NULL }, { "import", NULL }, { "port", NULL },
	{ "clarify", NULL }, { "reorder", NULL }, { "restructure", NULL },
	{ "reorganize", NULL }, { "consolidate", NULL }, { "enhance", NULL },
	{ "increase", NULL }, { "decrease", NULL }, { "preserve", NULL },
	{ "propagate", NULL }, { "register", NULL }, { "stop", "stopped" },
	{ "start", NULL }, { "wrap", "wrapped" }, { "pin", "pinned" },
	{ "unpin", "unpinned" }, { "trim", "trimmed" }, { "strip", "stripped" },
	{ "silence", NULL }, { "shorten", NULL }, { "tweak", NULL },
	{ "upgrade", NULL }, { "downgrade", NULL }, { "install", NULL },
	{ "cap", "capped" }, { "correct", NULL }, { "deduplicate", NULL },
	{ "relax", NULL }, { "tighten", NULL }, { "harden", NULL },
	{ "require", NULL }, { "create", NULL }, { "copy", NULL },
	{ "modify", NULL }, { "specify", NULL }, { "retry", NULL },
	{ "generalize", NULL }, { "speed", "sped" }, { "make", "made" },
	{ "set", "set" }, { "split", "split" }, { "put", "put" },
	{ "run", "ran" }, { "build", "built" }, { "rebuild", "rebuilt" },
	{ "rewrite", "rewrote" }, { "write", "wrote" }, { "keep", "kept" },
	{ "bring", "brought" }, { "say", "said" }, { "undo", "undid" },
	{ "reset", "reset" }, { "rerun", "reran" }, { "hide", "hid" },
	{ "send", "sent" }, { "cut", "cut" }, { "let", "let" },
	{ "show", NULL }, { "re-add", NULL }, { "readd", NULL },
	{ "fold", NULL }, { "inline", NULL }, { "unbreak", NULL },
	{ "repair", NULL }, { "resolve", NULL }, { "address", NULL },
	{ "prevent", NULL }, { "free", NULL }, { "release", NULL },
	{ "initialize", NULL }, { "declare", NULL },
	{ "define", NULL }, { "undefine", NULL }, { "reland", NULL },
	{ "re-land", NULL }, { "land", NULL }, { "dedupe", NULL },
	{ "call", NULL }, { "reshuffle", NULL }, { "shuffle", NULL },
	{ "fuse", NULL }, { "trace", NULL }, { "ask", NULL },
	{ "query", NULL }, { "derive", NULL },
	{ "change", NULL }, { "turn", NULL }, { "teach", "taught" },
	{ "give", "gave" }, { "get", "got" }, { "find", "found" },
	{ "track", NULL }, { "record", NULL }, { "store", NULL },
	{ "load", NULL }, { "save", NULL }, { "mention", NULL },
	{ "gate", NULL }, { "route", NULL }, { "lift", NULL },
	{ "fetch", NULL }, { "rearrange", NULL }, { "reword", NULL },
	{ "enforce", NULL }, { "reuse", NULL }, { "rename", NULL },
	{ "opt", "opted" }, { "leave", "left" }, { "take", "took" },
	{ "hold", "held" }, { "expand", NULL },
	{ "wire", NULL }, { "plumb", NULL }, { "attach", NULL },
	{ "append", NULL }, { "insert", NULL }, { "join", NULL },
	{ "compute", NULL }, { "override", "overrode" },
	{ "forward", NULL }, { "treat", NULL }, { "mirror", NULL },
	{ "bail", NULL }, { "collect", NULL }, { "compare", NULL },
	{ "consider", NULL }, { "delegate", NULL }, { "dispatch", NULL },
	{ "drain", NULL }, { "flush", NULL }, { "ignore", NULL },
	{ "lock", NULL }, { "unlock", NULL }, { "normalize", NULL },
	{ "allocate", NULL }, { "reserve", NULL }, { "rely", NULL },
	{ "reload", NULL }, { "recompute", NULL }, { "refresh", NULL },
	{ "remember", NULL }, { "report", NULL }, { "reshape", NULL },
	{ "schedule", NULL }, { "serialize", NULL }, { "spawn", NULL },
	{ "bypass", NULL }, { "extract", NULL }, { "generate", NULL },
	{ "cover", NULL }, { "eliminate", NULL }, { "polish", NULL },
	{ "streamline", NULL }, { "refine", NULL }, { "prepare", NULL },
	{ "provide", NULL }, { "configure", NULL }, { "prune", NULL },
	{ "revise", NULL }, { "explain", NULL }, { "describe", NULL },
	{ "stabilize", NULL }, { "stabilise", NULL }, { "hoist", NULL },
	{ "encapsulate", NULL }, { "annotate", NULL }, { "shrink", "shrank" },
	{ "grow", "grew" }, { "clear", NULL }, { "close", NULL },
	{ "open", NULL }, { "read", "read" }, { "fill", NULL },
	{ "pull", NULL }, { "push", NULL }, { "re-export", NULL },
	{ "reexport", NULL }, { "disambiguate", NULL }, { "recommend", NULL },
	{ "collapse", NULL }, { "escape", NULL }, { "filter", NULL },
	{ "format", "formatted" }, { "infer", "inferred" },
	{ "publish", NULL }, { "redraw", "redrew" }, { "redirect", NULL },
	{ "remap", "remapped" }, { "render", NULL }, { "resize", NULL },
	{ "restrict", NULL }, { "scan", "scanned" }, { "sort", NULL },
	{ "toggle", NULL }, { "translate", NULL }, { "truncate", NULL },
	{ "unwrap", "unwrapped" }, { "upload", NULL }, { "widen", NULL },
	{ "connect", NULL }, { "disconnect", NULL },
};

/*
 * The past tense of the n-byte verb at w by the regular rule, as English
 * spells it ("escape" -> "escaped", "tidy" -> "tidied", "map" ->
 * "mapped", "invert" -> "inverted"): the first of the spellings the word
 * list knows (new), NULL when it knows none. A past the list does not
 * know is no English word ("inited", "alsoed", "howed") and is never
 * said.
 */
char *
phrase_past_regular(const char *w, size_t n)
{
	char	*out;
	int	 k;

	if (n < 2)
		return NULL;
	for (k = 0; k < 3; k++) {
		if (k == 0 && tolower((unsigned char)w[n - 1]) == 'e')
			xasprintf(&out, "%.*sd", (int)n, w);
		else if (k == 0 && tolower((unsigned char)w[n - 1]) == 'y' &&
		    strchr("aeiou", tolower((unsigned char)w[n - 2])) == NULL)
			xasprintf(&out, "%.*sied", (int)n - 1, w);
		else if (k == 1 && strchr("aeiouwxy",
		    tolower((unsigned char)w[n - 1])) == NULL &&
		    strchr("aeiou", tolower((unsigned char)w[n - 2])) != NULL)
			/* a last consonant doubled: "mapped", "unwrapped" */
			xasprintf(&out, "%.*s%ced", (int)n, w, w[n - 1]);
		else if (k == 2 && tolower((unsigned char)w[n - 1]) != 'e')
			xasprintf(&out, "%.*sed", (int)n, w);
		else
			continue;
		if (words_known(out, strlen(out)))
			return out;
		free(out);
	}
	return NULL;
}

/* The past tense of a known verb ("add" -> "added"; new), or NULL. */
char *
phrase_verb_past(const char *word, size_t len)
{
	char	 lw[32];
	size_t	 i;

	if (len == 0 || len >= sizeof lw)
		return NULL;
	for (i = 0; i < len; i++)
		lw[i] = (char)tolower((unsigned char)word[i]);
	lw[len] = '\0';
	for (i = 0; i < sizeof phrase_verbs / sizeof phrase_verbs[0]; i++) {
		if (phrase_verbs[i].verb[0] != lw[0] ||
		    strcmp(lw, phrase_verbs[i].verb) != 0)
			continue;
		if (phrase_verbs[i].past != NULL)
			return xstrdup(phrase_verbs[i].past);
		return phrase_past_regular(lw, len);
	}
	return NULL;
}

/*
 * Whether the n-byte word at w is already the past tense of a known verb
 * ("fixed", "added", "dropped", "rebuilt"): a subject that starts with
 * one is said as it is.
 */
int
phrase_is_past(const char *w, size_t n)
{
	const char	*verb, *irregular;
	char		*past;
	size_t		 i, k;
	int		 is = 0;

	if (n < 3 || n >= 32)
		return 0;
	for (i = 0; i < sizeof phrase_verbs / sizeof phrase_verbs[0] && !is;
	    i++) {
		verb = phrase_verbs[i].verb;
		/* the past starts as the verb does, but for a few */
		if (tolower((unsigned char)w[0]) != verb[0])
			continue;
		if ((irregular = phrase_verbs[i].past) != NULL) {
			is = strlen(irregular) == n &&
			    strncasecmp(irregular, w, n) == 0;
			continue;
		}
		/*
		 * A regular past keeps the verb but for its last letter
		 * ("copied"): a word that doesn't is none of its, and the
		 * word list needn't be asked (a day asks this of every
		 * subject).
		 */
		k = strlen(verb);
		if (n < k || strncasecmp(w, verb, k - 1) != 0)
			continue;
		if ((past = phrase_past_regular(verb, k)) == NULL)
			continue;
		is = strlen(past) == n && strncasecmp(past, w, n) == 0;
		free(past);
	}
	return is;
}

/*
 * Whether what says what the code does now rather than what its author
 * did: "return undefined for invalid media types", "reload once after
 * rebuild", "ignore CRYPTO frames after handshake completion". It is told
 * as "NAME made it return ...", never "NAME returned ...": code is not a
 * person. Three shapes say so:
 * - a verb whose doer is the running program, never a person at a desk
 *   ("return", "ignore", "detect", "close", "accept");
 * - a verb of one that turns to what it meets ("adjust to origin",
 *   "fall back to X", "default to Y");
 * - a verb an author does too ("print the version", "use pathlib") with a
 *   run-time condition anywhere after it ("warn when", "log once", "use
 *   release in wake_by_ref() even if already woken").
 * "fix X to VERB ..." ("fix stderr to output string with no decoration")
 * says what X does after the fix: PHRASE_BEHAVIOUR_QUOTE, for the
 * author's words, since no verb of ours can be put on X. The author's own
 * acts stay theirs: "add a flag", "fix a crash", "print the version",
 * "fix the race to avoid a deadlock" (a purpose, not a behaviour).
 */
int
phrase_behaviour(const char *what)
{
	static const char *const code_verbs[] = { "return", "reload",
	    "retry", "throw", "respond", "exit", "fail", "wait", "reconnect",
	    "panic", "abort", "crash", "hang", "timeout", "fall", "default",
	    "error", "yield", "behave", "ignore", "detect", "accept", "reject",
	    "close", "emit", NULL };
	static const char *const release_nouns[] = { "notes", "note",
	    "candidate", "branch", "workflow", "workflows", "script",
	    "process", "tag", "tags", "build", "builds", "job", "jobs",
	    "pipeline", "automation", "please", "version", "versions",
	    "artifacts", "artifact", "assets", "docs", "changelog", "it",
	    "of", "for", "to", "on", "a", "an", "the", "new", "next",
	    "preparation", "prep", NULL };
	static const char *const turn_verbs[] = { "adjust", "adapt", "react",
	    "switch", "fallback", NULL };
	static const char *const acts[] = { "prefer", "warn", "print", "log",
	    "show", "render", "skip", "send", "stop", "keep", "use", "treat",
	    "raise", "run", "open", "load", "save", "read", "write", "call",
	    "report", "respect", "honor", "honour", "resolve", "release",
	    NULL };
	static const char *const when[] = { "once", "when", "if", "unless",
	    "instead", "only", "always", "never", "again", "whenever",
	    "early", "immediately", "gracefully", "correctly", "properly",
	    NULL };
	/* "fix X to avoid Y": the author's purpose */
	static const char *const purposes[] = { "avoid", "prevent", "allow",
	    "handle", "support", "match", "work", "keep", "ensure", "reduce",
	    "account", "address", "make", "improve", "satisfy", "silence",
	    "pass", "be", "fix", "use", "get", "not", "correctly", NULL };
	const char	*p;
	size_t		 n = phrase_first_word(what), m;

	if (n == 0 || what[n] != ' ')
		return 0;
	if (phrase_word_in(what, n, code_verbs))
		return PHRASE_BEHAVIOUR_MADE;
	/*
	 * "release boxed operands", "release the GIL": a release of the
	 * project is said before this (quote_release); one of a thing the
	 * program holds is its act, but for the nouns of making releases
	 */
	if (n == 7 && strncasecmp(what, "release", 7) == 0) {
		p = what + 8;
		m = strcspn(p, " ,;:");
		if (m > 0 && !isdigit((unsigned char)p[0]) &&
		    !(p[0] == 'v' && isdigit((unsigned char)p[1])) &&
		    !phrase_word_in(p, m, release_nouns))
			return PHRASE_BEHAVIOUR_MADE;
	}
	if (phrase_word_in(what, n, turn_verbs) &&
	    strncasecmp(what + n, " to ", 4) == 0)
		return PHRASE_BEHAVIOUR_MADE;
	if (phrase_word_in(what, n, acts)) {
		for (p = what + n; *p == ' '; p += m) {
			p++;
			m = strcspn(p, " ,;:");
			if (m > 0 && phrase_word_in(p, m, when))
				return PHRASE_BEHAVIOUR_MADE;
			if (p[m] != ' ' && p[m] != '\0')
				break;	/* a clause ends: its own condition */
		}
		return 0;
	}
	/* "fix stderr to output string": an object of one or two words */
	if (n == 3 && strncasecmp(what, "fix", 3) == 0) {
		p = what + 4;
		if (phrase_determiner(p))
			return 0;
		for (m = 0; m < 2 && *p != '\0'; m++) {
			p += strcspn(p, " ,;:");
			if (strncmp(p, " to ", 4) == 0) {
				p += 4;
				n = strcspn(p, " ,;:");
				return p[n] == ' ' && !phrase_word_in(p, n,
				    purposes) && phrase_plain(p, n) ?
				    PHRASE_BEHAVIOUR_QUOTE : 0;
			}
			if (*p != ' ')
				return 0;
			p++;
		}
	}
	return 0;
}

/*
 * Whether what can be said as "NAME <past of what>": it starts with a
 * known verb that has an object ("fix the retry" yes; "adjust to origin",
 * "detect change" no: those are quoted instead).
 */
int
phrase_verbal(const char *what)
{
	size_t	 n = phrase_first_word(what), m;
	char	*past;
	const char *rest;

	if ((past = phrase_verb_past(what, n)) == NULL)
		return 0;
	free(past);
	if (what[n] != ' ')
		return 0;
	rest = what + n + 1;
	m = strcspn(rest, " ,:;");
	if (phrase_word_in(rest, m, phrase_preps))
		return 0;
	/* one bare lowercase noun ("detect change") reads badly */
	if (rest[m] == '\0' && phrase_plain(rest, m) && !phrase_plural(rest, m))
		return 0;
	return 1;
}

/* Verbs that are nouns as often ("and cache lookups", "and build
 * failures"). */
static const char *const phrase_nounish_words[] = { "use", "support",
    "update", "change", "check", "cache", "release", "record", "store",
    "load", "log", "limit", "mark", "pin", "port", "print", "set", "split",
    "start", "switch", "track", "merge", "build", "run", "cut", "free",
    "gate", "route", "lift", "trace", "turn", "fix", "show", "call",
    "drop", "land", "cap", "import", "export", "install", "return",
    "guard", "sync", "copy", "wrap", "trim", "strip", "stop", "reset",
    "rerun", "address", "init", "fold", "inline", "save", "lower",
    "raise", "increase", "decrease", "clean", "bump", "report", "lock",
    "flush", "spawn", "forward", "mirror", "schedule", "reserve", "wire",
    "join", "insert", "find", "get", "give", "hold", "take", "let", "put",
    "say", "send", "hide", "keep", "make", "mention", "fetch", "declare",
    "define", "warn", "dispatch", "detect", "drain", "attach", "clear",
    "close", "open", "read", "fill", "pull", "push", "cover", NULL };

int
phrase_nounish(const char *w, size_t n)
{
	return n > 0 && phrase_word_in(w, n, phrase_nounish_words);
}

/*
 * Whether s starts with a word that opens a noun phrase as an object
 * ("the", "its", "all"): after it, a word like "update" was a verb.
 */
static int
phrase_determiner(const char *s)
{
	static const char *const dets[] = { "the", "a", "an", "its", "their",
	    "this", "that", "these", "those", "all", "some", "any", "each",
	    "every", "our", "my", "your", "it", "them", "both", NULL };

	return phrase_word_in(s, phrase_first_word(s), dets);
}

/*
 * Whether the n-byte word at p, after " and " in what, is the second of a
 * pair of nouns with the word before it ("an off-by-one read and write to
 * a buffer", "load and store of X"): a verb of the table on each side and
 * a preposition after, so it shares its object, not a clause of its own
 * ("fix build and update deps" opens one).
 */
static int
phrase_pair(const char *what, const char *p, size_t n)
{
	const char	*prev, *and = p - 5;
	char		*past;
	size_t		 m;

	if (p - what < 6 || strncmp(and, " and ", 5) != 0)
		return 0;
	for (prev = and; prev > what && prev[-1] != ' '; prev--)
		;
	/* the clause's own verb: "configure and check X" */
	if (prev == what)
		return 0;
	if ((past = phrase_verb_past(prev, (size_t)(and - prev))) == NULL)
		return 0;
	free(past);
	if (p[n] == '\0')
		return 1;
	m = phrase_first_word(p + n + 1);
	return p[n] == ' ' && phrase_word_in(p + n + 1, m, phrase_preps);
}

/*
 * Append what, its leading verb (and the verbs opening later clauses,
 * after ", " or " and ") put in the past tense, articles added where a
 * plain noun phrase wants one, and a last ", verb" clause joined with
 * "and". Returns 0 when what does not start with a known verb (nothing is
 * appended then).
 */
int
phrase_past(struct buf *b, const char *what)
{
	const char	*p = what, *art;
	char		*past;
	size_t		 n, comma = 0, start = b->len;
	int		 first = 1, clauses = 0, anded = 0, after_and = 0;
	int		 bare = 0;

	n = phrase_first_word(what);
	if ((past = phrase_verb_past(what, n)) == NULL)
		return 0;
	free(past);
	while (*p != '\0') {
		n = phrase_first_word(p);
		/* "and build failures" joins a noun; ", drop X" a verb */
		/* (a verb before a version is a package's name: "send 1.1.0") */
		if ((first || (p[n] == ' ' && !isdigit((unsigned char)p[n + 1])
		    && (!after_and || !phrase_nounish(p, n) ||
		    phrase_determiner(p + n + 1)) &&
		    !phrase_pair(what, p, n))) &&
		    (past = phrase_verb_past(p, n)) != NULL) {
			buf_puts(b, past);
			free(past);
			clauses++;
			if (p[n] == ' ' && strncasecmp(p + n + 1, "up ", 3) == 0) {
				buf_puts(b, " up");
				n += 3;
			}
			if (p[n] == ' ' && (art = phrase_article(p,
			    phrase_first_word(p), p + n + 1)) != NULL)
				buf_printf(b, " %s", art);
			p += n;
			bare = 1;
		}
		first = 0;
		/* copy up to the next clause start */
		while (*p != '\0') {
			if (strncmp(p, ", ", 2) == 0) {
				after_and = 0;
				comma = b->len;
				buf_puts(b, ", ");
				p += 2;
				break;
			}
			/*
			 * after a verb with an object a noun may follow
			 * ("fix CI and build failures"); after a bare verb,
			 * a verb ("configure and check X")
			 */
			if (strncmp(p, " and ", 5) == 0) {
				anded = 1;
				after_and = !bare;
				buf_puts(b, " and ");
				p += 5;
				break;
			}
			buf_putc(b, *p++);
			bare = 0;
		}
	}
	/* "used X, dropped Y" -> "used X and dropped Y" */
	if (comma > start && clauses >= 2 && !anded) {
		struct buf t;

		buf_init(&t);
		buf_puts(&t, b->data + comma + 2);
		b->len = comma;
		b->data[comma] = '\0';
		buf_puts(b, " and ");
		buf_puts(b, buf_str(&t));
		buf_free(&t);
	}
	return 1;
}

/* Append what with its first letter lowercased, unless it looks like a name. */
void
phrase_lower_first(struct buf *b, const char *what)
{
	size_t	at = b->len, n = phrase_first_word(what), i;
	int	upper = 0;

	buf_puts(b, what);
	for (i = 1; i < n; i++) {
		if (isupper((unsigned char)what[i]) ||
		    isdigit((unsigned char)what[i]))
			upper = 1;
	}
	if (!upper && b->len > at)
		b->data[at] = (char)tolower((unsigned char)b->data[at]);
}

/* "pytorch/ao" -> "pytorch ao", "curl/curl" -> "curl" (new). */
char *
phrase_repo(const char *repo)
{
	const char	*slash = strchr(repo, '/');
	char		*out, *clean;

	if (slash == NULL)
		return text_clean(repo);
	if (strcasecmp(slash + 1, "") != 0 && strlen(slash + 1) ==
	    (size_t)(slash - repo) && strncasecmp(repo, slash + 1,
	    (size_t)(slash - repo)) == 0)
		return text_clean(slash + 1);
	xasprintf(&out, "%.*s %s", (int)(slash - repo), repo, slash + 1);
	clean = text_clean(out);
	free(out);
	return clean;
}

/* Whether the n-byte token at w is a file's name: "AUTHORS.rst", "setup.py". */
static int
phrase_file_name(const char *w, size_t n)
{
	const char	*dot;
	size_t		 i, ext;

	if (n < 3 || (dot = memchr(w, '.', n)) == NULL || dot == w)
		return 0;
	/* the last dot's extension: one to four lowercase letters */
	for (i = n; i > 0 && w[i - 1] != '.'; i--)
		;
	ext = n - i;
	if (ext < 1 || ext > 4)
		return 0;
	for (; i < n; i++)
		if (!islower((unsigned char)w[i]))
			return 0;
	for (i = 0; i < (size_t)(dot - w); i++)
		if (!isalnum((unsigned char)w[i]) && strchr("_-/", w[i]) == NULL)
			return 0;
	return 1;
}

/*
 * A closing ", and doc and test" (from "doc+test") says what came with
 * the change, not a second object of its verb: ", with docs and tests".
 */
static void
phrase_with_docs(struct buf *b)
{
	static const char *const kinds[] = { "doc", "docs", "test", "tests",
	    "documentation", NULL };
	const char	*and, *p, *said[2];
	size_t		 n, k = 0;
	char		*tail;

	if (b->data == NULL || (and = strstr(b->data, ", and ")) == NULL)
		return;
	while ((p = strstr(and + 1, ", and ")) != NULL)
		and = p;
	for (p = and + 6; *p != '\0' && k < 2; p += n) {
		if (k > 0) {
			if (strncmp(p, " and ", 5) != 0)
				return;
			p += 5;
		}
		n = strcspn(p, " ");
		if (!phrase_word_in(p, n, kinds))
			return;
		said[k++] = p[0] == 'd' || p[0] == 'D' ? "docs" : "tests";
	}
	if (*p != '\0' || k == 0)
		return;
	if (k == 2)
		xasprintf(&tail, ", with %s and %s", said[0], said[1]);
	else
		xasprintf(&tail, ", with %s", said[0]);
	b->len = (size_t)(and - b->data);
	b->data[b->len] = '\0';
	buf_puts(b, tail);
	free(tail);
}

/*
 * What said aloud as the author meant it (new): no leading emoji, "w/o"
 * and "w/" as
 * "without" and "with", two words joined by "+" as "doc and test", and
 * no "the" before a file's name that ends its phrase ("in the
 * AUTHORS.rst" -> "in AUTHORS.rst"; "the package.json file" keeps it).
 */
char *
phrase_unabbreviate(const char *what)
{
	struct buf	 b;
	const char	*p = what, *next;
	size_t		 n;

	buf_init(&b);
	/*
	 * a leading emoji ("🔧 update CI"): four-byte UTF-8 and the symbols
	 * of U+2000..U+2BFF, with a variation selector, are not said
	 */
	for (;;) {
		const unsigned char *u = (const unsigned char *)p;

		if (u[0] >= 0xf0 && u[1] != '\0' && u[2] != '\0' &&
		    u[3] != '\0')
			p += 4;
		else if (u[0] == 0xe2 && u[1] >= 0x80 && u[1] <= 0xaf &&
		    u[2] != '\0')
			p += 3;
		else if (u[0] == 0xef && u[1] == 0xb8 && u[2] == 0x8f)
			p += 3;
		else if (p != what && *p == ' ')
			p++;
		else
			break;
	}
	while (*p != '\0') {
		if (*p == ' ') {
			buf_putc(&b, *p++);
			continue;
		}
		n = strcspn(p, " ");
		if (n == 3 && strncasecmp(p, "w/o", 3) == 0)
			buf_puts(&b, "without");
		else if (n == 2 && strncasecmp(p, "w/", 2) == 0)
			buf_puts(&b, "with");
		else if (n == 3 && strncasecmp(p, "the", 3) == 0 &&
		    p[3] == ' ' && (next = p + 4,
		    phrase_file_name(next, strcspn(next, " ,;:)"))) &&
		    (next[strcspn(next, " ")] == '\0' ||
		    phrase_word_in(next + strcspn(next, " ") + 1,
		    phrase_first_word(next + strcspn(next, " ") + 1),
		    phrase_preps) || strchr(",;:)", next[strcspn(next,
		    " ,;:)")]) != NULL)) {
			/* "the" and its space left out */
			n = 4;
		} else {
			const char	*plus = memchr(p, '+', n);
			size_t		 i;
			int		 words = plus != NULL && plus > p &&
			    plus < p + n - 1;

			/* "doc+test": letters on each side, nothing else */
			for (i = 0; words && i < n; i++)
				if (p + i != plus &&
				    !isalpha((unsigned char)p[i]))
					words = 0;
			if (words)
				buf_printf(&b, "%.*s and %.*s",
				    (int)(plus - p), p,
				    (int)(n - (size_t)(plus - p) - 1), plus + 1);
			else
				buf_append(&b, p, n);
		}
		p += n;
	}
	phrase_with_docs(&b);
	return buf_steal(&b);
}
