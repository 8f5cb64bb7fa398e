/*
 * A release told with what ships in it, when the day says so (issue #27:
 * "a release gathers what ships in it"). Only what the deliveries carry
 * says so, never a guess from the order of the commits (a replay of
 * several branches puts them all on one):
 *
 * - the release commit's message, or its pull request's, names a change
 *   of the day by its pull request number ("#5926") or its subject;
 * - git's merge of the release's tag or branch ("Merge tag '4.20.0' into
 *   5.0", "Merge 'tokio-1.43.3' into 'tokio-1.47.x'") changed the files
 *   of an earlier change of the day, and only those: the change came
 *   with it (not a CI pin or a test: nothing a user meets ships);
 * - without such a merge, the release commit updates a changelog
 *   ("History.md", "CHANGES.rst") that an earlier change of the day on
 *   its branch wrote to since the release before it: the entry it wrote
 *   is in the release.
 *
 * On such a day the releases are told here, the one the title names
 * first, each with what ships in it; a merge of a release's branch is
 * told with it, not alone. Other days, tell.c tells them as before.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "classify.h"
#include "draft_int.h"
#include "phrase.h"
#include "prose.h"
#include "quote.h"
#include "spoken.h"
#include "xmalloc.h"

#define RELEASE_TOLD	3	/* changes of a release told one by one */

/* Whether a is b, both NULL or the same string. */
static int
release_same(const char *a, const char *b)
{
	return a == b || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Whether s holds word as a token: not inside a longer name or version. */
static int
release_token(const char *s, const char *word)
{
	const char	*p;
	size_t		 n = strlen(word);

	if (n == 0)
		return 0;
	for (p = s; (p = strstr(p, word)) != NULL; p++) {
		if ((p == s || (!isalnum((unsigned char)p[-1]) &&
		    p[-1] != '.')) && !isalnum((unsigned char)p[n]) &&
		    !(p[n] == '.' && isdigit((unsigned char)p[n + 1])))
			return 1;
	}
	return 0;
}

/* Whether a commit changed path. */
static int
release_touches(const struct commit *c, const char *path)
{
	size_t	i;

	for (i = 0; i < c->nmodified; i++)
		if (strcmp(c->modified[i], path) == 0)
			return 1;
	for (i = 0; i < c->nadded; i++)
		if (strcmp(c->added[i], path) == 0)
			return 1;
	return 0;
}

/* Whether a path is a changelog: "CHANGELOG.md", "History.md", ... */
static int
release_changelog(const char *path)
{
	static const char *const names[] = { "changelog", "changes",
	    "history", "news", "release-notes", "releasenotes",
	    "release_notes", NULL };
	const char	*base = strrchr(path, '/');
	size_t		 i, n;

	base = base != NULL ? base + 1 : path;
	for (i = 0; names[i] != NULL; i++) {
		n = strlen(names[i]);
		if (strncasecmp(base, names[i], n) == 0 &&
		    (base[n] == '\0' || base[n] == '.'))
			return 1;
	}
	return 0;
}

/* Whether every file c changed is among those m changed; 0 for none. */
static int
release_within(const struct commit *c, const struct commit *m)
{
	size_t	i;

	if (c->nmodified + c->nadded + c->nremoved == 0)
		return 0;
	for (i = 0; i < c->nmodified; i++)
		if (!release_touches(m, c->modified[i]))
			return 0;
	for (i = 0; i < c->nadded; i++)
		if (!release_touches(m, c->added[i]))
			return 0;
	for (i = 0; i < c->nremoved; i++) {
		size_t j;

		for (j = 0; j < m->nremoved &&
		    strcmp(m->removed[j], c->removed[i]) != 0; j++)
			continue;
		if (j == m->nremoved && !release_touches(m, c->removed[i]))
			return 0;
	}
	return 1;
}

/* The number of the pull request a subject ends with ("... (#5926)"). */
static long
release_pr_of(const char *subject)
{
	const char	*p = strrchr(subject, '#');
	char		*end;
	long		 n;

	if (p == NULL || p == subject || p[-1] != '(')
		return -1;
	n = strtol(p + 1, &end, 10);
	return end != p + 1 && *end == ')' && end[1] == '\0' ? n : -1;
}

/* Whether text names "#n" as a reference. */
static int
release_names_pr(const char *text, long n)
{
	char	ref[32];

	if (text == NULL || n <= 0)
		return 0;
	(void)snprintf(ref, sizeof ref, "#%ld", n);
	return release_token(text, ref);
}

/*
 * Whether the release's message, or its pull request's, names the
 * change: its number, or its subject (without the number) on a line of
 * its own ("- fix a crash on empty input").
 */
static int
release_names(const struct draft *d, const struct draft_item *r,
    const struct draft_item *it)
{
	const char	*texts[2] = { r->c->body, NULL };
	const char	*p, *line;
	size_t		 i, k, n, len;
	long		 pr = release_pr_of(it->c->subject);

	for (i = 0; i < d->day->nprs; i++) {
		if (d->day->prs[i].merge_sha == NULL || r->c->sha == NULL)
			continue;
		if (strcmp(d->day->prs[i].merge_sha, r->c->sha) == 0)
			texts[1] = d->day->prs[i].body;
		if (pr < 0 && it->c->sha != NULL &&
		    strcmp(d->day->prs[i].merge_sha, it->c->sha) == 0)
			pr = d->day->prs[i].number;
	}
	len = strcspn(it->c->subject, "(");
	while (len > 0 && it->c->subject[len - 1] == ' ')
		len--;
	for (k = 0; k < 2; k++) {
		if (texts[k] == NULL)
			continue;
		if (release_names_pr(texts[k], pr))
			return 1;
		/* a subject of a few words could be any line's: five or more */
		for (p = it->c->subject, n = 1; p < it->c->subject + len; p++)
			n += *p == ' ';
		for (line = texts[k]; n >= 5 && *line != '\0';
		    line += strcspn(line, "\n"), line += *line == '\n') {
			line += strspn(line, " \t-*+");
			if (strncasecmp(line, it->c->subject, len) == 0 &&
			    strchr(" \r\n(", line[len]) != NULL)
				return 1;
		}
	}
	return 0;
}

/* Whether an item may ship in a release: a person's own change, told alone. */
static int
release_shippable(const struct draft_item *it)
{
	return !it->cl.bot && !it->cl.merge && !it->cl.release &&
	    it->lead == NULL && it->shipped == NULL &&
	    it->cl.kind != CLASSIFY_REVERT && it->cl.kind != CLASSIFY_RELAND &&
	    it->c->reverts_idx < 0 && it->c->reverted_by_idx < 0 &&
	    it->cl.what[0] != '\0';
}

/* Add it to what ships in r. */
static void
release_add(struct draft_item *r, struct draft_item *it)
{
	r->ships = xreallocarray(r->ships, r->nships + 1, sizeof *r->ships);
	r->ships[r->nships++] = it;
	it->shipped = r;
}

/* Whether an item is a release the drafter tells: a person's, standing. */
static int
release_of(const struct draft_item *it, char **ver)
{
	char	*pkg;

	*ver = NULL;
	if (!it->cl.release || it->cl.bot || it->lead != NULL ||
	    it->cl.kind == CLASSIFY_REVERT || it->cl.kind == CLASSIFY_RELAND ||
	    it->c->reverted_by_idx >= 0 ||
	    !quote_release(it->cl.subject, &pkg, ver))
		return 0;
	free(pkg);
	return 1;
}

/* What ships in release r (d->items[ri]) of version ver. */
static void
release_gather_one(struct draft *d, size_t ri, const char *ver)
{
	struct draft_item	*r = &d->items[ri], *m = NULL, *it;
	const struct commit	*rc = r->c;
	size_t			 i, j, k, from;

	/* named by the release's message or its pull request's */
	for (i = 0; i < ri; i++)
		if (release_shippable(&d->items[i]) &&
		    release_names(d, r, &d->items[i]))
			release_add(r, &d->items[i]);
	/* git's merge of its tag or branch, after it */
	ver += *ver == 'v' || *ver == 'V';	/* "v1.43.3", "tokio-1.43.3" */
	for (i = ri + 1; i < d->nitems && m == NULL; i++) {
		it = &d->items[i];
		if (it->cl.merge && !it->cl.bot && it->shipped == NULL &&
		    release_token(it->c->subject, ver))
			m = it;
	}
	if (m != NULL) {
		for (i = 0; i < ri; i++) {
			it = &d->items[i];
			/* (a CI pin or a test carried along ships nothing a
			   user meets; a dependency bump does) */
			if (select_rank(it) >= SELECT_RANK_CHORE &&
			    it->cl.kind != CLASSIFY_DEPS)
				continue;
			if (release_shippable(it) &&
			    release_same(it->c->branch, rc->branch) &&
			    release_within(it->c, m->c))
				release_add(r, it);
		}
		release_add(r, m);
		return;
	}
	/* else the changelog it updates, written to since the last release */
	for (k = 0; k < rc->nmodified; k++) {
		const char *log = rc->modified[k];

		if (!release_changelog(log))
			continue;
		for (from = ri; from > 0; from--) {
			it = &d->items[from - 1];
			if (it->cl.release && release_touches(it->c, log) &&
			    release_same(it->c->branch, rc->branch))
				break;
		}
		for (j = from; j < ri; j++) {
			it = &d->items[j];
			if (release_shippable(it) &&
			    release_same(it->c->branch, rc->branch) &&
			    release_touches(it->c, log))
				release_add(r, it);
		}
	}
}

void
release_gather(struct draft *d)
{
	char	*ver;
	size_t	 i;

	for (i = 0; i < d->nitems; i++) {
		if (!release_of(&d->items[i], &ver))
			continue;
		release_gather_one(d, i, ver);
		free(ver);
	}
}

/* Whether the day has a release told with what ships in it. */
static int
release_any(const struct draft *d)
{
	size_t	i;

	for (i = 0; i < d->nitems; i++)
		if (d->items[i].nships > 0 && !d->items[i].told)
			return 1;
	return 0;
}

/* "Wes Todd merged it into 5.0": the target of a merge's subject. */
static void
release_merged(struct buf *b, const struct draft_item *m)
{
	const char	*into = strstr(m->c->subject, " into ");
	size_t		 n;

	if (into == NULL)
		return;
	into += 6;
	into += *into == '\'';
	n = strcspn(into, "' ");
	if (n == 0 || into[n] == ' ')
		return;
	phrase_space(b);
	buf_printf(b, "%s merged it into %.*s.", m->name, (int)n, into);
}

/*
 * What v[0..n) did, in a line that ends a sentence: "Blake Embrey
 * deleted X, and Wes Todd updated A to 2.0.1, B to 2.1.0 and C to
 * 1.1.0." One person's run is said with their name once.
 */
static void
release_line(struct buf *b, struct draft_item **v, size_t n)
{
	size_t	i, j;
	int	same, next;

	for (i = 0; i < n; i++) {
		same = i > 0 && strcmp(v[i]->name, v[i - 1]->name) == 0;
		next = i + 1 < n && strcmp(v[i + 1]->name, v[i]->name) == 0;
		/* (the last person's run: "..., and NAME ...") */
		for (j = i + 1; j < n && strcmp(v[j]->name, v[i]->name) == 0;
		    j++)
			continue;
		if (i > 0)
			buf_puts(b, same ? (next ? ", " : " and ") :
			    j == n ? ", and " : ", ");
		tell_did(b, v[i], !same);
	}
	phrase_sentence_end(b);
}

/* One release and what ships in it, in a paragraph. */
static void
release_tell(struct draft *d, struct buf *b, struct draft_shas *shas,
    struct draft_item *r, const char *lead)
{
	struct draft_item	**v, *merge = NULL;
	struct buf		  name;
	char			 *pkg, *ver;
	size_t			  i, n = 0, told;

	phrase_para(b);
	buf_init(&name);
	if (quote_release(r->cl.subject, &pkg, &ver)) {
		title_release_name(&name, d, pkg, ver);
		free(pkg);
		free(ver);
	}
	if (lead != NULL)
		buf_puts(b, lead);
	buf_printf(b, "%s released %s", r->name, buf_str(&name));
	buf_free(&name);
	r->told = 1;
	draft_shas_add(d, shas, r);
	v = xcalloc(r->nships + 1, sizeof *v);
	for (i = 0; i < r->nships; i++) {
		if (r->ships[i]->cl.merge)
			merge = r->ships[i];
		else
			v[n++] = r->ships[i];
	}
	qsort(v, n, sizeof *v, select_cmp_rank);
	/*
	 * the ones a user meets first, each with what its message says;
	 * the rest in a line
	 */
	for (told = 0; told < n && told < RELEASE_TOLD; told++)
		if (select_rank(v[told]) > SELECT_RANK_FIX &&
		    draft_prose(v[told])[0] == '\0')
			break;
	if (n > 0) {
		buf_puts(b, ", with ");
		if (n == 1)
			buf_puts(b, "one of the day's changes in it");
		else {
			spoken_number(b, (long long)n);
			buf_puts(b, " of the day's changes in it");
		}
	}
	if (n > 0 && told == 0) {
		buf_puts(b, ": ");
		release_line(b, v, n);
	} else
		buf_putc(b, '.');
	for (i = 0; i < told; i++) {
		phrase_space(b);
		tell_did_sentence(b, v[i], NULL);
		if (draft_prose(v[i])[0] != '\0') {
			phrase_space(b);
			prose_sentences(b, draft_prose(v[i]), 1);
		}
	}
	if (told > 0 && told < n) {
		phrase_space(b);
		buf_puts(b, "Also in it: ");
		release_line(b, v + told, n - told);
	}
	for (i = 0; i < n; i++) {
		v[i]->told = 1;
		draft_shas_add(d, shas, v[i]);
	}
	if (merge != NULL) {
		release_merged(b, merge);
		merge->told = 1;
		draft_shas_add(d, shas, merge);
	}
	free(v);
}

void
release_segment(struct draft *d)
{
	static const char *lead[] = {
		"Release news first: ",
		"First, the release: ",
		"We'll start with the release: ",
	};
	struct draft_shas	 shas = { NULL, 0 };
	struct draft_item	*top, *r, **rest;
	struct buf		 b;
	char			*pkg, *ver;
	size_t			 i, n = 0;

	if (!release_any(d))
		return;
	buf_init(&b);
	/* the release the title names first */
	if ((top = title_release(d, &pkg, &ver)) != NULL) {
		free(pkg);
		free(ver);
		release_tell(d, &b, &shas, top, draft_told_story(d) ? NULL :
		    DRAFT_PICK(d, 31, lead));
	}
	rest = xcalloc(d->nitems + 1, sizeof *rest);
	for (i = 0; i < d->nitems; i++) {
		r = &d->items[i];
		if (r->told || !release_of(r, &ver))
			continue;
		free(ver);
		if (r->nships > 0)
			release_tell(d, &b, &shas, r, b.len == 0 ?
			    DRAFT_PICK(d, 31, lead) : NULL);
		else
			rest[n++] = r;
	}
	/* the releases that gather nothing, in a line by person */
	if (n > 0) {
		struct draft_item	**g;
		size_t			 *starts, ng, j;

		g = select_runs(rest, n, &starts, &ng);
		phrase_para(&b);
		for (i = 0; i < ng; i++) {
			if (i > 0)
				buf_puts(&b, i + 1 == ng ? ", and " : ", ");
			buf_printf(&b, "%s %sreleased ", g[starts[i]]->name,
			    i == 0 ? "also " : "");
			for (j = starts[i]; j < starts[i + 1]; j++) {
				struct buf name;

				if (j > starts[i])
					buf_puts(&b, j + 1 == starts[i + 1] ?
					    " and " : ", ");
				buf_init(&name);
				if (quote_release(g[j]->cl.subject, &pkg,
				    &ver)) {
					title_release_name(&name, d, pkg, ver);
					free(pkg);
					free(ver);
				}
				buf_puts(&b, buf_str(&name));
				buf_free(&name);
				g[j]->told = 1;
				draft_shas_add(d, &shas, g[j]);
			}
		}
		buf_putc(&b, '.');
		free(starts);
		free(g);
	}
	free(rest);
	draft_segment(d, "release", &b, &shas);
}

void
release_free(struct draft *d)
{
	size_t	i;

	for (i = 0; i < d->nitems; i++)
		free(d->items[i].ships);
}
