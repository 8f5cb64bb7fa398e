/*
 * The fact sheet of an episode, as structure: what the model is given and
 * what the fence checks a reply's sentences against, story by story.
 *
 * Each story is a commit the episode told (ep->work, in its order), read
 * again as the drafter read it (classify_commit): what it did, who owns it
 * and in which role, its figures with the words saying what they measure,
 * its versions and settings, and why, but only where the message gives a
 * why of its own: a reason that says the title again would let a model
 * "explain" a change with its own name. A revert is a revert whenever its
 * message says so, with or without the SHA it took out: the SHA is what
 * pairs it with the work, not what makes it one.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "buf.h"
#include "classify.h"
#include "prose.h"
#include "quote.h"
#include "sheet.h"
#include "text.h"
#include "xmalloc.h"

/* Stories and texts the sheet gives at most: the model's prompt stays small. */
#define SHEET_MAX_STORIES	64
#define SHEET_MAX_TEXT		400
/* Words either side of a figure that say what it measures, at most. */
#define SHEET_MEASURE_BEFORE	3
#define SHEET_MEASURE_AFTER	4

#define NELEM(v)	(sizeof(v) / sizeof((v)[0]))

/* The segments that tell stories (when the opening names none). */
static const char *const sheet_story_segments[] = {
	"release", "rollbacks", "highlights", "fixes",
};

/*
 * Words around a figure that say nothing of what it measures: articles,
 * the verbs that make a change so, and hedges ("make the parser about
 * 1.7x faster" measures "parser faster").
 */
static const char *const sheet_filler[] = {
	"a", "an", "the", "is", "are", "was", "were", "be", "been", "being",
	"now", "about", "around", "roughly", "approximately", "nearly",
	"almost", "up", "it", "its", "this", "that", "these", "those", "make",
	"makes", "made", "making", "we", "our", "which", "so", "and", "or",
	"some", "much", "even", "also", "still", "just", "by",
};

/*
 * Words that end, going back from a figure, what it measures once a word
 * of it was found: what comes before them made it so.
 */
static const char *const sheet_verbs[] = {
	"make", "makes", "made", "making", "is", "are", "was", "were", "be",
	"become", "becomes", "became", "get", "gets", "got",
};

/* Words of four letters or more that say nothing of a change. */
static const char *const sheet_stop[] = {
	"about", "after", "also", "been", "before", "from", "have", "into",
	"more", "only", "some", "than", "that", "their", "them", "then",
	"there", "they", "this", "were", "what", "when", "which", "will",
	"with", "your", "revert", "reverts", "reverted", "commit", "change",
	"changes",
};

static int
sheet_in(const char *const *v, size_t n, const char *s, size_t len)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strlen(v[i]) == len && strncasecmp(v[i], s, len) == 0)
			return 1;
	return 0;
}

/*
 * A copy of s of at most SHEET_MAX_TEXT bytes, whole characters, on one
 * line (new); NULL for NULL or empty.
 */
static char *
sheet_text(const char *s)
{
	char	*t;
	size_t	 n, i;

	if (s == NULL || *s == '\0')
		return NULL;
	n = strlen(s);
	if (n > SHEET_MAX_TEXT) {
		n = SHEET_MAX_TEXT;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	t = xstrndup(s, n);
	for (i = 0; i < n; i++)
		if (t[i] == '\n' || t[i] == '\t')
			t[i] = ' ';
	return t;
}

/* Add s to v (growing it) unless NULL, empty or already there. */
static void
sheet_list_add(char ***v, size_t *n, const char *s)
{
	size_t	i;

	if (s == NULL || *s == '\0')
		return;
	for (i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

/* Whether v holds s, any case. */
static int
sheet_list_has(char *const *v, size_t n, const char *s)
{
	size_t	i;

	for (i = 0; s != NULL && i < n; i++)
		if (strcasecmp(v[i], s) == 0)
			return 1;
	return 0;
}

/*
 * Add a person to a story, once in a role (a login alone is said as the
 * name), and their names to the sheet's people.
 */
static void
sheet_person_add(struct sheet *sh, struct sheet_story *s, const char *name,
    const char *login, enum sheet_role role)
{
	struct sheet_person	*p;
	size_t			 i;

	if (name == NULL || *name == '\0')
		name = login;
	if (name == NULL || *name == '\0')
		return;
	if (login != NULL && *login == '\0')
		login = NULL;
	for (i = 0; i < s->npeople; i++) {
		p = &s->people[i];
		if (p->role == role && (strcasecmp(p->name, name) == 0 ||
		    (login != NULL && p->login != NULL &&
		    strcasecmp(p->login, login) == 0)))
			return;
	}
	s->people = xreallocarray(s->people, s->npeople + 1,
	    sizeof(*s->people));
	p = &s->people[s->npeople++];
	p->name = xstrdup(name);
	p->login = xstrdup_null(login);
	p->role = role;
	sheet_list_add(&sh->people, &sh->npeople, name);
	sheet_list_add(&sh->people, &sh->npeople, login);
}

/* A bot's names: as said aloud, its login with and without "[bot]". */
static void
sheet_bot_names(struct sheet *sh, const char *login, const char *name)
{
	char	*said, *bare;
	size_t	 len;

	said = classify_bot_name(login, name);
	sheet_list_add(&sh->bots, &sh->nbots, said);
	free(said);
	sheet_list_add(&sh->bots, &sh->nbots, login);
	sheet_list_add(&sh->bots, &sh->nbots, name);
	if (login != NULL && (len = strlen(login)) > 5 &&
	    strcmp(login + len - 5, "[bot]") == 0) {
		bare = xstrndup(login, len - 5);
		sheet_list_add(&sh->bots, &sh->nbots, bare);
		free(bare);
	}
}

/*
 * The number of the pull request "Merge pull request #N from ..." merged
 * (GitHub's merge button), or 0.
 */
static long
sheet_merge_button(const char *subject)
{
	static const char	 prefix[] = "Merge pull request #";
	char			*end;
	long			 n;

	if (subject == NULL || strncmp(subject, prefix, sizeof(prefix) - 1)
	    != 0)
		return 0;
	n = strtol(subject + sizeof(prefix) - 1, &end, 10);
	return n > 0 && end != subject + sizeof(prefix) - 1 &&
	    (*end == ' ' || *end == '\0') ? n : 0;
}

/* The "(#N)" a subject ends with ("fix: x (#7757)"), or 0. */
static long
sheet_subject_pr(const char *subject)
{
	const char	*p;
	size_t		 n;
	long		 v = 0;

	if (subject == NULL || (n = strlen(subject)) < 4 ||
	    subject[n - 1] != ')')
		return 0;
	for (p = subject + n - 2; p > subject && isdigit((unsigned char)*p);
	    p--)
		continue;
	if (p == subject + n - 2 || p < subject + 1 || *p != '#' ||
	    p[-1] != '(')
		return 0;
	for (p++; isdigit((unsigned char)*p) && v < 100000000; p++)
		v = v * 10 + (*p - '0');
	return v;
}

/* The day's merged pull request numbered n, or NULL. */
static const struct merged_pr *
sheet_find_pr(const struct day *day, long n)
{
	size_t	i;

	for (i = 0; n > 0 && i < day->nprs; i++)
		if (day->prs[i].number == n)
			return &day->prs[i];
	return NULL;
}

/* The story's pull request: the one that merged its commit, else its "(#N)". */
static long
sheet_pr_of(const struct day *day, const struct commit *c)
{
	size_t	i;
	long	n;

	for (i = 0; i < day->nprs; i++)
		if (day->prs[i].merge_sha != NULL &&
		    strcasecmp(day->prs[i].merge_sha, c->sha) == 0)
			return day->prs[i].number;
	if ((n = sheet_merge_button(c->subject)) > 0)
		return n;
	return sheet_subject_pr(c->subject);
}

/*
 * Who merged pull request n, as far as the day says: the author of the
 * merge button's commit "Merge pull request #n from ..." (GitHub makes
 * the one who pressed it its author). NULL when no such commit is in the
 * day, or a bot made it.
 */
static const struct commit *
sheet_merger(const struct day *day, long n)
{
	const struct commit	*c;
	size_t			 i;

	for (i = 0; n > 0 && i < day->ncommits; i++) {
		c = &day->commits[i];
		if (sheet_merge_button(c->subject) == n &&
		    !classify_is_bot(c->author_login, c->author_name))
			return c;
	}
	return NULL;
}

/*
 * Who pushed commit c as the head of a push: for a pull request's commit,
 * who pressed the merge button (GitHub pushes a squash or a rebase as the
 * one who merged). NULL when no push of the day ends at c, or a bot or
 * its committer pushed it.
 */
static const char *
sheet_pusher(const struct day *day, const struct commit *c)
{
	const struct push	*p;
	char			 hex[PUSH_HEX_LEN + 1];
	size_t			 i;

	for (i = 0; i < day->npushes; i++) {
		p = day_push(day, i);
		push_id_hex(p->after, hex);
		if (strcasecmp(hex, c->sha) != 0)
			continue;
		/*
		 * the committer's own push says nothing of a merge: GitHub
		 * commits what its button merges ("GitHub", "web-flow"),
		 * and a replayed day pushes as the committer
		 */
		if (p->pusher == NULL || *p->pusher == '\0' ||
		    classify_is_bot(p->pusher, NULL) ||
		    (c->committer_name != NULL &&
		    strcasecmp(c->committer_name, p->pusher) == 0) ||
		    (c->committer_login != NULL &&
		    strcasecmp(c->committer_login, p->pusher) == 0))
			return NULL;
		return p->pusher;
	}
	return NULL;
}

/*
 * Whether a name and a login are one person's by their letters and
 * digits ("Alice Ryhl" and "alice-ryhl").
 */
static int
sheet_same_name(const char *name, const char *login)
{
	char	*a, *b;
	int	 same;

	if (name == NULL || login == NULL)
		return 0;
	a = text_norm(name);
	b = text_norm(login);
	same = a[0] != '\0' && strcmp(a, b) == 0;
	free(a);
	free(b);
	return same;
}

/* Whether a commit's author is the person of name or login. */
static int
sheet_same_person(const struct commit *a, const char *name, const char *login)
{
	return (login != NULL && a->author_login != NULL &&
	    strcasecmp(login, a->author_login) == 0) || (name != NULL &&
	    a->author_name != NULL && strcasecmp(name, a->author_name) == 0);
}

/* Whether lower-case text holds the n bytes at w as a whole word, any case. */
static int
sheet_has_word(const char *text, const char *w, size_t n)
{
	const char	*p;

	for (p = text; *p != '\0'; p++)
		if (strncasecmp(p, w, n) == 0 && (p == text ||
		    !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return 1;
	return 0;
}

/* The length of a word without its ending ("added" -> "add"). */
static size_t
sheet_stem(const char *w, size_t n)
{
	static const char *const ends[] = { "ing", "ed", "es", "s", "d" };
	size_t			 i, e;

	for (i = 0; i < NELEM(ends); i++) {
		e = strlen(ends[i]);
		if (n > e + 2 && strncasecmp(w + n - e, ends[i], e) == 0)
			return n - e;
	}
	return n;
}

/*
 * Whether text only says again what a title says (the subject, the
 * story's what, the work a revert took out): its letters and digits held
 * in one, or one in it, or each of its words of four letters or more
 * (but the stop words) a word of the titles.
 */
static int
sheet_restates(const char *text, const char *const *titles, size_t ntitles)
{
	struct buf	 all;
	char		*nt, *nw, *lt;
	const char	*p, *w;
	size_t		 i, n, words = 0, held = 0;
	int		 same = 0;

	nw = text_norm(text);
	buf_init(&all);
	for (i = 0; i < ntitles && !same; i++) {
		if (titles[i] == NULL)
			continue;
		nt = text_norm(titles[i]);
		same = nw[0] == '\0' || (nt[0] != '\0' &&
		    (strstr(nt, nw) != NULL || strstr(nw, nt) != NULL));
		free(nt);
		buf_putc(&all, ' ');
		buf_puts(&all, titles[i]);
		buf_putc(&all, ' ');
	}
	free(nw);
	lt = text_lower(buf_str(&all));
	buf_free(&all);
	for (p = text; !same && *p != '\0';) {
		while (*p != '\0' && !isalnum((unsigned char)*p))
			p++;
		for (w = p; isalnum((unsigned char)*p) || *p == '_'; p++)
			continue;
		n = (size_t)(p - w);
		if (n < 4 || sheet_in(sheet_stop, NELEM(sheet_stop), w, n))
			continue;
		words++;
		if (sheet_has_word(lt, w, n) || sheet_has_word(lt, w,
		    sheet_stem(w, n)))
			held++;
	}
	free(lt);
	return same || (words > 0 && held == words);
}

/*
 * The reason a message gives for its change: classify's prose (a
 * sentence or two of the body, restating sentences already dropped),
 * unless it only says the title again. New, or NULL.
 */
static char *
sheet_reason(const struct classify *cl, const struct commit *c)
{
	const char	*titles[2] = { c->subject, cl->what };

	if (cl->prose == NULL || cl->prose[0] == '\0' ||
	    sheet_restates(cl->prose, titles, NELEM(titles)))
		return NULL;
	return sheet_text(cl->prose);
}

/*
 * The first sentence of text that says something broke, without the
 * "This reverts commit" line: what a revert's body says of why when it
 * has no reason trailer. New, or NULL.
 */
static char *
sheet_breakage(const char *text)
{
	static const char *const words[] = { "broke", "breaks", "breaking",
	    "broken", "fail", "fails", "failing", "failure", "failures",
	    "regress", "regression", "crash", "crashes", "flaky", "red",
	    "timeout", "timeouts", "hang", "hangs", "error", "errors" };
	const char	*p = text, *e, *w;
	size_t		 n;

	if (text == NULL)
		return NULL;
	while (*p != '\0') {
		while (*p == ' ' || *p == '\n')
			p++;
		for (e = p; *e != '\0' && *e != '\n' && !(strchr(".!?", *e) !=
		    NULL && (e[1] == ' ' || e[1] == '\0' || e[1] == '\n'));
		    e++)
			continue;
		n = (size_t)(e - p) + (*e != '\0' && *e != '\n');
		if (n > 0 && strncmp(p, "This reverts", 12) != 0) {
			for (w = p; w < p + n;) {
				const char *s;

				while (w < p + n && !isalpha((unsigned char)*w))
					w++;
				for (s = w; w < p + n &&
				    isalpha((unsigned char)*w); w++)
					continue;
				if (w > s && sheet_in(words, NELEM(words), s,
				    (size_t)(w - s)))
					return xstrndup(p, n);
			}
		}
		p = e + (*e != '\0');
	}
	return NULL;
}

/*
 * Why a revert was made, as the draft tells it (rollback_why): the
 * message's reason trailer, else the first sentence of its prose, else a
 * sentence saying what broke; none when it only says a title again or
 * the revert is automatic. New, or NULL.
 */
static char *
sheet_revert_reason(const struct classify *cl, const struct commit *c,
    const char *took_out)
{
	const char	*titles[3] = { c->subject, cl->what, took_out };
	struct buf	 t;
	char		*why = NULL, *clean;
	size_t		 n;

	if (c->revert.automatic)
		return NULL;
	if (c->revert.reason != NULL && c->revert.reason[0] != '\0')
		why = xstrdup(c->revert.reason);
	else if (cl->prose != NULL && cl->prose[0] != '\0') {
		buf_init(&t);
		prose_sentences(&t, cl->prose, 1);
		why = buf_steal(&t);
	} else
		why = sheet_breakage(c->body);
	if (why == NULL)
		return NULL;
	clean = text_clean(why);
	free(why);
	n = strlen(clean);
	while (n > 0 && strchr(". ", clean[n - 1]) != NULL)
		clean[--n] = '\0';
	if (n == 0 || sheet_restates(clean, titles, NELEM(titles))) {
		free(clean);
		return NULL;
	}
	why = sheet_text(clean);
	free(clean);
	return why;
}

/*
 * What a figure measures: the few words around it in the first text that
 * says it, within its clause (up to a comma, a stop or a bracket), the
 * filler words left out ("make the gear train 1.7x faster" -> "gear train
 * faster"). New, or NULL when no text says it.
 */
static char *
sheet_measures(const char *fig, const char *const *texts, size_t ntexts)
{
	struct buf	 b;
	const char	*t, *at, *p, *w, *words[SHEET_MEASURE_BEFORE];
	char		*out;
	size_t		 i, k, n, lens[SHEET_MEASURE_BEFORE], nb, na, flen;
	int		 label = 0;

	flen = strlen(fig);
	for (i = 0, at = NULL; i < ntexts && at == NULL; i++) {
		if ((t = texts[i]) == NULL)
			continue;
		for (p = t; (p = strstr(p, fig)) != NULL; p++)
			if ((p == t || !(isalnum((unsigned char)p[-1]) ||
			    p[-1] == '.')) &&
			    !isalnum((unsigned char)p[flen])) {
				at = p;
				break;
			}
	}
	if (at == NULL)
		return NULL;
	t = texts[i - 1];
	/* back from the figure, to the clause's start */
	nb = 0;
	for (p = at; nb < SHEET_MEASURE_BEFORE && p > t;) {
		while (p > t && p[-1] == ' ')
			p--;
		/* a label's figure ("mfu: 29%") measures the label */
		if (p > t + 1 && p[-1] == ':' && p[-2] != ' ' && !label &&
		    nb == 0 && at - p <= 1) {
			p--;
			label = 1;
		} else if (p == t || strchr(",;:.!?()[]\n\"", p[-1]) != NULL ||
		    (label && nb > 0))
			break;
		for (w = p; w > t && strchr(" ,;:.!?()[]\n\"", w[-1]) == NULL;
		    w--)
			continue;
		/*
		 * "X makes the parser 2.5x faster": X is the cause; "from
		 * 120 ms to 80 ms": the other figure is not what it measures
		 */
		if ((nb > 0 && sheet_in(sheet_verbs, NELEM(sheet_verbs), w,
		    (size_t)(p - w))) || isdigit((unsigned char)*w))
			break;
		if (!sheet_in(sheet_filler, NELEM(sheet_filler), w,
		    (size_t)(p - w))) {
			words[nb] = w;
			lens[nb++] = (size_t)(p - w);
		}
		p = w;
	}
	buf_init(&b);
	for (k = nb; k > 0; k--) {
		buf_append(&b, words[k - 1], lens[k - 1]);
		buf_putc(&b, ' ');
	}
	/* and on, to the clause's end */
	na = 0;
	for (p = at + flen; na < SHEET_MEASURE_AFTER;) {
		while (*p == ' ')
			p++;
		if (*p == '\0' || strchr(",;:.!?()[]\n\"", *p) != NULL)
			break;
		for (w = p; *p != '\0' && strchr(" ,;:.!?()[]\n\"", *p) == NULL;
		    p++)
			continue;
		n = (size_t)(p - w);
		if (isdigit((unsigned char)*w))
			break;
		if (!sheet_in(sheet_filler, NELEM(sheet_filler), w, n)) {
			buf_append(&b, w, n);
			buf_putc(&b, ' ');
			na++;
		}
	}
	while (b.len > 0 && b.data[b.len - 1] == ' ')
		b.data[--b.len] = '\0';
	if (b.len == 0) {
		buf_free(&b);
		return NULL;
	}
	out = sheet_text(buf_str(&b));
	buf_free(&b);
	return out;
}

/*
 * A version number as a story names it: "v" or a digit, then digits and
 * dots with at least one dot ("v8.2.0", "1.49.0"). Its length without
 * the "v", and *start past it; 0 when none is at p.
 */
static size_t
sheet_version_at(const char *p, const char **start)
{
	const char	*q;
	int		 dots = 0;

	*start = p + (*p == 'v' || *p == 'V');
	if (!isdigit((unsigned char)**start))
		return 0;
	for (q = *start; isdigit((unsigned char)*q) || (*q == '.' &&
	    isdigit((unsigned char)q[1])); q++)
		if (*q == '.')
			dots++;
	if (dots == 0 || isalpha((unsigned char)*q))
		return 0;
	return (size_t)(q - *start);
}

/*
 * The versions a story names of the project's own: the release its
 * subject announces (quote_release), and a "v1.2.3" its subject names,
 * but not in a dependency's bump, whose versions are another project's.
 */
static void
sheet_versions(struct sheet_story *s, const struct classify *cl)
{
	const char	*p, *v;
	char		*pkg, *ver, *one;
	size_t		 n;

	if (cl->release && cl->subject != NULL &&
	    quote_release(cl->subject, &pkg, &ver)) {
		sheet_list_add(&s->versions, &s->nversions, ver);
		free(pkg);
		free(ver);
	}
	if (cl->kind == CLASSIFY_DEPS || cl->subject == NULL)
		return;
	for (p = cl->subject; *p != '\0'; p++) {
		if ((*p != 'v' && *p != 'V') || (p > cl->subject &&
		    (isalnum((unsigned char)p[-1]) || p[-1] == '.')))
			continue;
		if ((n = sheet_version_at(p, &v)) == 0)
			continue;
		one = xstrndup(v, n);
		sheet_list_add(&s->versions, &s->nversions, one);
		free(one);
		p = v + n - 1;
	}
}

/* The figures of a story, each with what it measures. */
static void
sheet_figures(struct sheet_story *s, const struct classify *cl,
    const struct commit *c)
{
	const char		*texts[4];
	struct sheet_figure	*f;
	char			*body;
	size_t			 i;

	if (cl->nfigures == 0)
		return;
	body = text_clean(c->body != NULL ? c->body : "");
	texts[0] = cl->what;
	texts[1] = cl->prose;
	texts[2] = c->subject;
	texts[3] = body;
	s->figures = xcalloc(cl->nfigures, sizeof(*s->figures));
	for (i = 0; i < cl->nfigures; i++) {
		f = &s->figures[s->nfigures++];
		f->value = xstrdup(cl->figures[i]);
		f->measures = sheet_measures(cl->figures[i], texts,
		    NELEM(texts));
	}
	free(body);
}

/*
 * The people of a story: who wrote it (for a merge button's commit, the
 * pull request's author, the commit's own being who merged it), who
 * merged its pull request when the day says, and for a revert who
 * carried it out and who asked for it. Bots are never people.
 */
static void
sheet_people(struct sheet *sh, struct sheet_story *s, const struct day *day,
    const struct episode_work *w, const struct commit *c)
{
	const struct merged_pr	*pr;
	const struct commit	*m;
	const char		*name = w->name != NULL ? w->name :
				    c->author_name, *pusher;
	int			 bot;

	bot = w->bot || classify_is_bot(c->author_login, c->author_name);
	pr = sheet_find_pr(day, s->pr);
	if (s->is_revert) {
		if (!bot)
			sheet_person_add(sh, s, name, c->author_login,
			    SHEET_REVERTER);
		if (c->revert.requested_by != NULL &&
		    !classify_is_bot(c->revert.requested_by, NULL))
			sheet_person_add(sh, s, c->revert.requested_by,
			    c->revert.requested_by, SHEET_REQUESTER);
	} else if (sheet_merge_button(c->subject) > 0 && pr != NULL &&
	    pr->author_login != NULL && !sheet_same_person(c, NULL,
	    pr->author_login)) {
		if (!classify_is_bot(pr->author_login, NULL))
			sheet_person_add(sh, s, pr->author_login,
			    pr->author_login, SHEET_AUTHOR);
		if (!bot)
			sheet_person_add(sh, s, name, c->author_login,
			    SHEET_MERGER);
		return;
	} else if (!bot)
		sheet_person_add(sh, s, name, c->author_login, SHEET_AUTHOR);
	/* the raw name the drafter said another way is theirs too */
	if (!bot)
		sheet_list_add(&sh->people, &sh->npeople, c->author_name);
	if ((m = sheet_merger(day, s->pr)) != NULL && m != c) {
		if (!sheet_same_person(m, name, c->author_login) &&
		    !sheet_same_person(m, c->author_name, NULL))
			sheet_person_add(sh, s, m->author_name,
			    m->author_login, SHEET_MERGER);
	} else if (s->pr > 0 && (pusher = sheet_pusher(day, c)) != NULL &&
	    !sheet_same_person(c, pusher, pusher) &&
	    !sheet_same_name(name, pusher) &&
	    !sheet_same_name(c->author_name, pusher) && (pr == NULL ||
	    pr->author_login == NULL || strcasecmp(pr->author_login,
	    pusher) != 0))
		sheet_person_add(sh, s, pusher, pusher, SHEET_MERGER);
}

/*
 * The commit the episode leads with: the opening's first, the story its
 * title and greeting name; else the first commit of the first segment
 * telling a story (ao 2026-02-12 tells a rollback first, and leads with
 * the re-land after it). NULL when none.
 */
static const char *
sheet_lead_sha(const struct episode *ep)
{
	const struct episode_segment	*g;
	size_t				 i, k;

	for (i = 0; i < ep->nsegments; i++) {
		g = &ep->segments[i];
		if (g->kind != NULL && strcmp(g->kind, "opening") == 0 &&
		    g->ncommits > 0)
			return g->commits[0];
	}
	for (i = 0; i < ep->nsegments; i++) {
		g = &ep->segments[i];
		for (k = 0; k < NELEM(sheet_story_segments); k++)
			if (g->kind != NULL &&
			    strcmp(g->kind, sheet_story_segments[k]) == 0)
				return g->ncommits > 0 ? g->commits[0] : NULL;
	}
	return NULL;
}

/* One story of the sheet from a commit the episode told. */
static void
sheet_story(struct sheet *sh, struct sheet_story *s, const struct day *day,
    const struct episode_work *w, const struct commit *c)
{
	struct classify	 cl;

	s->sha = xstrdup(w->sha);
	s->what = sheet_text(w->what);
	if (s->what == NULL)
		s->what = xstrdup("");
	s->bot = w->bot;
	s->kind = "change";
	if (c == NULL)
		return;
	classify_commit(c, day->repo, &cl);
	s->kind = classify_kind_name(cl.kind);
	s->area = sheet_text(cl.area);
	s->pr = sheet_pr_of(day, c);
	/* a revert without the SHA it took out is a revert all the same */
	if (c->revert.is_revert) {
		s->is_revert = 1;
		s->revert_of = xstrdup(s->what);
		s->revert_reason = sheet_revert_reason(&cl, c, w->what);
		s->revert_automatic = c->revert.automatic;
		s->required = 1;
	} else
		s->reason = sheet_reason(&cl, c);
	s->reverted = c->reverted_by_idx >= 0;
	sheet_people(sh, s, day, w, c);
	sheet_figures(s, &cl, c);
	sheet_versions(s, &cl);
	if (cl.setting != NULL)
		sheet_list_add(&s->settings, &s->nsettings, cl.setting);
	classify_clear(&cl);
}

/* The day's pull request authors among the people, its bots apart. */
static void
sheet_day_people(struct sheet *sh, const struct day *day)
{
	const struct commit	*c;
	size_t			 i;

	for (i = 0; i < day->nprs; i++)
		if (!classify_is_bot(day->prs[i].author_login, NULL))
			sheet_list_add(&sh->people, &sh->npeople,
			    day->prs[i].author_login);
	/* every bot of the day, told or not, stays unnamed */
	for (i = 0; i < day->ncommits; i++) {
		c = &day->commits[i];
		if (classify_is_bot(c->author_login, c->author_name))
			sheet_bot_names(sh, c->author_login, c->author_name);
	}
	for (i = 0; i < day->nprs; i++)
		if (classify_is_bot(day->prs[i].author_login, NULL))
			sheet_bot_names(sh, day->prs[i].author_login, NULL);
}

/* A name both a person's and a bot's is a person's. */
static void
sheet_bots_finish(struct sheet *sh)
{
	size_t	i, j;

	for (i = j = 0; i < sh->nbots; i++) {
		if (sheet_list_has(sh->people, sh->npeople, sh->bots[i]))
			free(sh->bots[i]);
		else
			sh->bots[j++] = sh->bots[i];
	}
	sh->nbots = j;
}

struct sheet *
sheet_of_episode(const struct day *day, const struct episode *ep)
{
	struct sheet		*sh;
	struct sheet_story	*s;
	const struct commit	*c;
	const char		*lead;
	long			 idx;
	size_t			 i, n;

	sh = xcalloc(1, sizeof(*sh));
	sh->show = xstrdup_null(ep->show);
	sh->repository = xstrdup(ep->repository != NULL ? ep->repository :
	    day->repo);
	sh->date = xstrdup_null(ep->date);
	sh->counts = ep->stats;
	sh->focus = xstrdup_null(ep->focus);
	sh->draft = xstrdup(ep->transcript != NULL ? ep->transcript : "");
	n = ep->nwork < SHEET_MAX_STORIES ? ep->nwork : SHEET_MAX_STORIES;
	sh->stories = xcalloc(n + 1, sizeof(*sh->stories));
	lead = sheet_lead_sha(ep);
	for (i = 0; i < n; i++) {
		const struct episode_work *w = &ep->work[i];

		s = &sh->stories[sh->nstories++];
		xasprintf(&s->id, "s%zu", i + 1);
		c = (idx = day_find_commit(day, w->sha)) >= 0 ?
		    &day->commits[idx] : NULL;
		sheet_story(sh, s, day, w, c);
		if (lead != NULL && strcasecmp(lead, w->sha) == 0) {
			s->lead = s->required = 1;
			lead = NULL;
		}
	}
	sheet_day_people(sh, day);
	sheet_bots_finish(sh);
	return sh;
}

/* The work item of ep that tells sha, or NULL. */
static const struct episode_work *
sheet_work_of(const struct episode *ep, const char *sha)
{
	size_t	i;

	for (i = 0; i < ep->nwork; i++)
		if (ep->work[i].sha != NULL &&
		    strcasecmp(ep->work[i].sha, sha) == 0)
			return &ep->work[i];
	return NULL;
}

static int
sheet_has_story(const struct sheet *sh, const char *sha)
{
	size_t	i;

	for (i = 0; i < sh->nstories; i++)
		if (strcasecmp(sh->stories[i].sha, sha) == 0)
			return 1;
	return 0;
}

struct sheet *
sheet_of_show(const struct day *const *days, const struct episode *const *eps,
    size_t n, const struct episode *show)
{
	const struct episode_segment	*g;
	const struct episode_work	*w;
	const struct commit		*c;
	struct sheet			*sh;
	struct sheet_story		*s;
	const char			*lead, *name;
	long				 idx;
	size_t				 i, k, m;

	sh = xcalloc(1, sizeof(*sh));
	sh->show = xstrdup_null(show->show);
	sh->repository = xstrdup(show->repository != NULL ?
	    show->repository : "");
	sh->date = xstrdup_null(show->date);
	sh->counts = show->stats;
	sh->focus = xstrdup_null(show->focus);
	sh->draft = xstrdup(show->transcript != NULL ? show->transcript : "");
	sh->stories = xcalloc(SHEET_MAX_STORIES + 1, sizeof(*sh->stories));
	lead = sheet_lead_sha(show);
	/* each commit the show's segments tell, in its order, once */
	for (i = 0; i < show->nsegments; i++) {
		g = &show->segments[i];
		for (k = 0; k < g->ncommits; k++) {
			if (sh->nstories == SHEET_MAX_STORIES ||
			    sheet_has_story(sh, g->commits[k]))
				continue;
			for (m = 0; m < n; m++)
				if ((idx = day_find_commit(days[m],
				    g->commits[k])) >= 0)
					break;
			if (m == n || (w = sheet_work_of(eps[m],
			    g->commits[k])) == NULL)
				continue;
			c = &days[m]->commits[idx];
			s = &sh->stories[sh->nstories++];
			xasprintf(&s->id, "s%zu", sh->nstories);
			sheet_story(sh, s, days[m], w, c);
			name = strchr(days[m]->repo, '/');
			s->repository = xstrdup(name != NULL ? name + 1 :
			    days[m]->repo);
			if (lead != NULL && strcasecmp(lead, w->sha) == 0) {
				s->lead = s->required = 1;
				lead = NULL;
			}
		}
	}
	for (m = 0; m < n; m++)
		sheet_day_people(sh, days[m]);
	sheet_bots_finish(sh);
	return sh;
}

/* How a role is said in the JSON. */
static const char *
sheet_role_name(enum sheet_role r)
{
	switch (r) {
	case SHEET_AUTHOR:
		return "author";
	case SHEET_MERGER:
		return "merger";
	case SHEET_REQUESTER:
		return "asked_for_revert";
	case SHEET_REVERTER:
		return "reverted";
	}
	return "author";
}

/* A list of strings as a JSON array (new). */
static json_t *
sheet_json_list(char *const *v, size_t n)
{
	json_t	*a = json_array();
	size_t	 i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/*
 * A text of the sheet as a JSON string (new), every bot's name in it
 * said as "a bot": a pull request's title can name the bot that opened it
 * ("Merge pull request #5 from dependabot/cargo/serde"), and a model
 * that never reads the name cannot say it. (Settings and the focus are
 * quoted byte for byte, and left as they are.)
 */
static json_t *
sheet_json_text(const struct sheet *sh, const char *text)
{
	struct buf	 b;
	json_t		*j;
	const char	*p = text;
	size_t		 i, n, best;

	if (sh->nbots == 0)
		return json_string(text);
	buf_init(&b);
	while (*p != '\0') {
		best = 0;
		if (p == text || !text_isword(p[-1]))
			for (i = 0; i < sh->nbots; i++) {
				n = strlen(sh->bots[i]);
				/* (p[n] is read once p holds n bytes) */
				if (n > best &&
				    strncasecmp(p, sh->bots[i], n) == 0 &&
				    !text_isword(p[n]))
					best = n;
			}
		if (best > 0) {
			buf_puts(&b, "a bot");
			p += best;
		} else
			buf_putc(&b, *p++);
	}
	j = json_string(buf_str(&b));
	buf_free(&b);
	return j;
}

/* One story as JSON (new): what is empty is left out. */
static json_t *
sheet_json_story(const struct sheet *sh, const struct sheet_story *s)
{
	const struct sheet_person	*p;
	json_t				*o, *a, *one;
	size_t				 k;

	o = json_object();
	json_object_set_new(o, "id", json_string(s->id));
	json_object_set_new(o, "kind", json_string(s->kind));
	json_object_set_new(o, "what", sheet_json_text(sh, s->what));
	if (s->repository != NULL)
		json_object_set_new(o, "repository", json_string(
		    s->repository));
	if (s->area != NULL)
		json_object_set_new(o, "area", sheet_json_text(sh, s->area));
	if (s->bot)
		json_object_set_new(o, "by_a_bot", json_true());
	a = json_array();
	for (k = 0; k < s->npeople; k++) {
		p = &s->people[k];
		one = json_object();
		json_object_set_new(one, "name", json_string(p->name));
		if (p->login != NULL && strcmp(p->login, p->name) != 0)
			json_object_set_new(one, "login",
			    json_string(p->login));
		json_object_set_new(one, "role", json_string(
		    sheet_role_name(p->role)));
		json_array_append_new(a, one);
	}
	json_object_set_new(o, "people", a);
	if (s->nfigures > 0) {
		a = json_array();
		for (k = 0; k < s->nfigures; k++)
			json_array_append_new(a, json_pack("{s:s, s:o}",
			    "value", s->figures[k].value, "measures",
			    s->figures[k].measures != NULL ?
			    sheet_json_text(sh, s->figures[k].measures) :
			    json_null()));
		json_object_set_new(o, "figures", a);
	}
	if (s->nversions > 0)
		json_object_set_new(o, "versions", sheet_json_list(s->versions,
		    s->nversions));
	if (s->nsettings > 0)
		json_object_set_new(o, "settings", sheet_json_list(s->settings,
		    s->nsettings));
	if (s->reason != NULL)
		json_object_set_new(o, "reason", sheet_json_text(sh,
		    s->reason));
	if (s->pr > 0)
		json_object_set_new(o, "pull_request", json_integer(s->pr));
	if (s->is_revert)
		json_object_set_new(o, "revert", json_pack("{s:o, s:o, s:b}",
		    "took_out", sheet_json_text(sh, s->revert_of != NULL ?
		    s->revert_of : ""), "reason", s->revert_reason != NULL ?
		    sheet_json_text(sh, s->revert_reason) : json_null(),
		    "automatic", s->revert_automatic));
	if (s->reverted)
		json_object_set_new(o, "reverted_later", json_true());
	if (s->lead)
		json_object_set_new(o, "lead", json_true());
	if (s->required)
		json_object_set_new(o, "must_tell", json_true());
	return o;
}

/*
 * The sheet as JSON, one value a line or so (JSON_INDENT(1)): small for
 * the prompt and readable in a log. A bot's name is nowhere in it, only
 * how many the day has: a model that never reads a bot's name cannot say
 * it.
 */
char *
sheet_json(const struct sheet *sh)
{
	json_t	*j, *stories;
	char	*out;
	size_t	 i;

	j = json_object();
	json_object_set_new(j, "show", json_string(sh->show != NULL ?
	    sh->show : ""));
	json_object_set_new(j, "repository", json_string(sh->repository));
	json_object_set_new(j, "date", json_string(sh->date != NULL ?
	    sh->date : ""));
	json_object_set_new(j, "counts", json_pack("{s:I, s:I, s:I, s:I, "
	    "s:I, s:I, s:I}", "commits", (json_int_t)sh->counts.commits,
	    "merged_pull_requests", (json_int_t)sh->counts.merged_prs,
	    "reverts", (json_int_t)sh->counts.reverts,
	    "relands", (json_int_t)sh->counts.relands,
	    "authors", (json_int_t)sh->counts.authors,
	    "pushes", (json_int_t)sh->counts.pushes,
	    "force_pushes", (json_int_t)sh->counts.force_pushes));
	if (sh->focus != NULL)
		json_object_set_new(j, "focus_setting", json_string(sh->focus));
	stories = json_array();
	for (i = 0; i < sh->nstories; i++)
		json_array_append_new(stories,
		    sheet_json_story(sh, &sh->stories[i]));
	json_object_set_new(j, "stories", stories);
	json_object_set_new(j, "people", sheet_json_list(sh->people,
	    sh->npeople));
	json_object_set_new(j, "bots_never_named", json_integer(
	    (json_int_t)sh->nbots));
	out = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(j);
	return out != NULL ? out : xstrdup("{}");
}

static void
sheet_story_free(struct sheet_story *s)
{
	size_t	i;

	free(s->id);
	free(s->sha);
	free(s->what);
	free(s->area);
	free(s->repository);
	free(s->reason);
	for (i = 0; i < s->npeople; i++) {
		free(s->people[i].name);
		free(s->people[i].login);
	}
	free(s->people);
	for (i = 0; i < s->nfigures; i++) {
		free(s->figures[i].value);
		free(s->figures[i].measures);
	}
	free(s->figures);
	for (i = 0; i < s->nversions; i++)
		free(s->versions[i]);
	free(s->versions);
	for (i = 0; i < s->nsettings; i++)
		free(s->settings[i]);
	free(s->settings);
	free(s->revert_of);
	free(s->revert_reason);
}

void
sheet_free(struct sheet *sh)
{
	size_t	i;

	if (sh == NULL)
		return;
	for (i = 0; i < sh->nstories; i++)
		sheet_story_free(&sh->stories[i]);
	free(sh->stories);
	for (i = 0; i < sh->npeople; i++)
		free(sh->people[i]);
	free(sh->people);
	for (i = 0; i < sh->nbots; i++)
		free(sh->bots[i]);
	free(sh->bots);
	free(sh->show);
	free(sh->repository);
	free(sh->date);
	free(sh->focus);
	free(sh->draft);
	free(sh);
}
