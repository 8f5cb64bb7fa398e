/*
 * The weekly recap: the week's archived episodes in, one episode out that
 * retells them. Every name and number said comes from those episodes:
 * their dates, titles, descriptions, stats, people and focus settings.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "buf.h"
#include "classify.h"
#include "episode.h"
#include "phrase.h"
#include "spoken.h"
#include "text.h"
#include "xmalloc.h"

#define RECAP_MAX_THEMES	3	/* themes named in the segment */
#define RECAP_TITLE_THEMES	2	/* themes named in the title */
#define RECAP_MAX_NAMED		3	/* runners-up named */

struct recap_theme {
	char	*name;
	size_t	 episodes;
	size_t	 commits;
	size_t	 last;		/* index of the latest episode with it */
};

struct recap_name {
	const char	*name;		/* borrowed from a source */
	size_t		 commits;
	size_t		 episodes;
	int		 bot;
	size_t		 first;
};

struct recap_shas {
	char	**v;
	size_t	  n;
};

struct recap {
	struct episode		 *ep;
	const struct recap_source **src; /* by date, oldest first */
	size_t			  n;
	char			 *repo;	/* as said */
	char			  datestr[64];
	struct recap_theme	 *themes;
	size_t			  nthemes;
	struct recap_name	 *names;
	size_t			  nnames;
};

static const char *const recap_months[] = {
	"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"
};

static const char *const recap_weekdays[] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday"
};

/* "YYYY-MM-DD" into its parts; 0, or -1 if it isn't one. */
static int
recap_parse_date(const char *s, int *y, int *m, int *d)
{
	int	i;

	if (s == NULL || strlen(s) < 10 || s[4] != '-' || s[7] != '-')
		return -1;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return -1;
	*y = atoi(s);
	*m = atoi(s + 5);
	*d = atoi(s + 8);
	if (*m < 1 || *m > 12 || *d < 1 || *d > 31)
		return -1;
	return 0;
}

/* tm_wday of a Gregorian date (Sakamoto's method). */
static int
recap_weekday(int y, int m, int d)
{
	static const int t[] = { 0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4 };

	if (m < 3)
		y--;
	return (y + y / 4 - y / 100 + y / 400 + t[m - 1] + d) % 7;
}

/* "Monday, June 1st" of an episode's date; nothing if it has none. */
static int
recap_day_name(struct buf *b, const char *date)
{
	int	y, m, d;

	if (recap_parse_date(date, &y, &m, &d) == -1)
		return -1;
	buf_printf(b, "%s, %s ", recap_weekdays[recap_weekday(y, m, d)],
	    recap_months[m - 1]);
	spoken_ordinal_digits(b, d);
	return 0;
}

static void
recap_shas_add(struct recap_shas *s, const char *sha)
{
	size_t	i;

	if (sha == NULL || *sha == '\0')
		return;
	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i], sha) == 0)
			return;
	s->v = xreallocarray(s->v, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = xstrdup(sha);
}

/* The ids a source's segments cite; only segments of kind if not NULL. */
static void
recap_shas_of(struct recap_shas *s, const struct recap_source *src,
    const char *kind)
{
	size_t	i, j;

	for (i = 0; i < src->nsegments; i++) {
		if (kind != NULL && (src->segments[i].kind == NULL ||
		    strcmp(src->segments[i].kind, kind) != 0))
			continue;
		for (j = 0; j < src->segments[i].ncommits; j++)
			recap_shas_add(s, src->segments[i].commits[j]);
	}
}

/* Add a segment, taking the text and the ids. */
static void
recap_segment(struct recap *r, const char *kind, struct buf *text,
    struct recap_shas *shas)
{
	episode_add_segment(r->ep, kind, text, shas != NULL ? shas->v : NULL,
	    shas != NULL ? shas->n : 0);
	if (shas != NULL)
		memset(shas, 0, sizeof(*shas));
}

/*
 * The theme a daily title names (new), or NULL for a quiet day's: the
 * title without its ", Plus ..." tail and a leading "A Day of ".
 */
static char *
recap_theme_of(const char *title)
{
	const char	*end;
	char		*t;

	if (title == NULL || *title == '\0' ||
	    strncasecmp(title, "A Quiet Day", 11) == 0 ||
	    strncmp(title, RECAP_TITLE_PREFIX, strlen(RECAP_TITLE_PREFIX)) == 0)
		return NULL;
	if ((end = strstr(title, ", Plus ")) == NULL)
		end = title + strlen(title);
	if (strncmp(title, "A Day of ", 9) == 0 && title + 9 < end)
		title += 9;
	t = xstrndup(title, (size_t)(end - title));
	if (*t == '\0') {
		free(t);
		return NULL;
	}
	return t;
}

static int
recap_cmp_theme(const void *a, const void *b)
{
	const struct recap_theme *x = a, *y = b;

	if (x->episodes != y->episodes)
		return x->episodes < y->episodes ? 1 : -1;
	if (x->commits != y->commits)
		return x->commits < y->commits ? 1 : -1;
	return x->last < y->last ? 1 : x->last > y->last ? -1 : 0;
}

static void
recap_themes(struct recap *r)
{
	size_t	 i, j;
	char	*t;

	for (i = 0; i < r->n; i++) {
		if ((t = recap_theme_of(r->src[i]->title)) == NULL)
			continue;
		for (j = 0; j < r->nthemes; j++)
			if (strcasecmp(r->themes[j].name, t) == 0)
				break;
		if (j == r->nthemes) {
			r->themes = xreallocarray(r->themes, r->nthemes + 1,
			    sizeof(*r->themes));
			memset(&r->themes[j], 0, sizeof(r->themes[j]));
			r->themes[j].name = t;
			r->nthemes++;
		} else
			free(t);
		r->themes[j].episodes++;
		r->themes[j].commits += r->src[i]->stats.commits;
		r->themes[j].last = i;
	}
	if (r->nthemes > 0)
		qsort(r->themes, r->nthemes, sizeof(*r->themes),
		    recap_cmp_theme);
}

static int
recap_cmp_name(const void *a, const void *b)
{
	const struct recap_name *x = a, *y = b;

	if (x->commits != y->commits)
		return x->commits < y->commits ? 1 : -1;
	if (x->episodes != y->episodes)
		return x->episodes < y->episodes ? 1 : -1;
	return x->first < y->first ? -1 : x->first > y->first ? 1 : 0;
}

static int
recap_cmp_entry(const void *a, const void *b)
{
	const struct recap_name *x = a, *y = b;
	int	c;

	if ((c = strcasecmp(x->name, y->name)) != 0)
		return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * The week's people, most commits first; 1 if every source had them.
 * Every source's entries are sorted by name so one name's entries make a
 * run (named as first listed), not looked up one by one in the names so
 * far, which was quadratic in the week's people.
 */
static int
recap_names(struct recap *r)
{
	const struct recap_person	*p;
	struct recap_name		*e;
	size_t				 i, j, k, n = 0, total = 0;
	int				 all = 1;

	for (i = 0; i < r->n; i++)
		total += r->src[i]->npeople;
	e = xcalloc(total + 1, sizeof(*e));
	for (i = 0; i < r->n; i++) {
		if (!r->src[i]->have_people)
			all = 0;
		for (j = 0; j < r->src[i]->npeople; j++) {
			p = &r->src[i]->people[j];
			if (p->name == NULL || *p->name == '\0' ||
			    p->commits == 0)
				continue;
			e[n].name = p->name;
			e[n].bot = p->bot;
			e[n].commits = p->commits;
			e[n].episodes = 1;
			e[n].first = n;
			n++;
		}
	}
	qsort(e, n, sizeof(*e), recap_cmp_entry);
	r->names = xreallocarray(r->names, r->nnames + n + 1,
	    sizeof(*r->names));
	for (i = 0; i < n; i = k) {
		r->names[r->nnames] = e[i];
		for (k = i + 1; k < n && strcasecmp(e[k].name, e[i].name) == 0;
		    k++) {
			r->names[r->nnames].commits += e[k].commits;
			r->names[r->nnames].episodes++;
		}
		r->nnames++;
	}
	free(e);
	if (r->nnames > 0)
		qsort(r->names, r->nnames, sizeof(*r->names), recap_cmp_name);
	return all;
}

static void
recap_opening(struct recap *r)
{
	const struct day_stats	*st = &r->ep->stats;
	struct buf		 b;

	buf_init(&b);
	buf_printf(&b, "Hello and welcome to the weekly recap of %s. I'm your "
	    "host, and today we're looking back at %s over the week ending "
	    "this %s.", r->ep->show, r->repo, r->datestr);
	if (st->commits == 0 && st->merged_prs == 0) {
		buf_puts(&b, " It was a quiet week: across ");
		spoken_count(&b, (long long)r->n, "episode", "episodes");
		buf_puts(&b, ", no commits landed and no pull requests were "
		    "merged.");
		recap_segment(r, "opening", &b, NULL);
		return;
	}
	buf_puts(&b, " Across ");
	spoken_count(&b, (long long)r->n, "episode", "episodes");
	buf_puts(&b, ", we had ");
	spoken_count(&b, (long long)st->commits, "commit", "commits");
	if (st->commits > 0) {
		buf_puts(&b, " from ");
		spoken_count(&b, (long long)st->authors, "person", "people");
	}
	if (st->merged_prs > 0) {
		buf_puts(&b, " and ");
		spoken_count(&b, (long long)st->merged_prs,
		    "merged pull request", "merged pull requests");
	} else
		buf_puts(&b, ", and no pull requests were merged");
	buf_putc(&b, '.');
	if (st->reverts > 0) {
		buf_puts(&b, " Among them ");
		if (st->reverts == 1)
			buf_puts(&b, "is a revert");
		else {
			buf_puts(&b, "are ");
			spoken_count(&b, (long long)st->reverts, "revert",
			    "reverts");
		}
		buf_puts(&b, ", so some of the week was spent backing "
		    "things out.");
	}
	recap_segment(r, "opening", &b, NULL);
}

/* The description's "The top story: ..." sentence, appended to b. */
static void
recap_top_story(struct buf *b, const char *description)
{
	static const char	 lead[] = "The top story: ";
	const char		*p, *q;

	if (description == NULL || (p = strstr(description, lead)) == NULL)
		return;
	for (q = p + sizeof(lead) - 1; *q != '\0'; q++)
		if ((q[0] == '.' || q[0] == '!' || q[0] == '?') &&
		    (q[1] == '\0' || q[1] == ' '))
			break;
	if (*q == '\0' || q == p + sizeof(lead) - 1)
		return;
	buf_putc(b, ' ');
	buf_append(b, p, (size_t)(q - p + 1));
}

/* One segment per episode of the week, citing what it cited. */
static void
recap_days(struct recap *r)
{
	const struct recap_source	*s;
	struct recap_shas		 shas;
	struct buf			 b;
	size_t				 i;

	for (i = 0; i < r->n; i++) {
		s = r->src[i];
		buf_init(&b);
		memset(&shas, 0, sizeof(shas));
		if (i > 0 && s->date != NULL && r->src[i - 1]->date != NULL &&
		    strcmp(s->date, r->src[i - 1]->date) == 0)
			buf_puts(&b, "Later the same day");
		else {
			buf_puts(&b, "On ");
			if (recap_day_name(&b, s->date) == -1) {
				buf_reset(&b);
				buf_puts(&b, "In another episode");
			}
		}
		buf_printf(&b, ", the episode was \"%s\".",
		    s->title != NULL ? s->title : "");
		if (s->stats.commits == 0 && s->stats.merged_prs == 0)
			buf_puts(&b, " A quiet one, with nothing landed.");
		else {
			buf_puts(&b, " It told of ");
			spoken_count(&b, (long long)s->stats.commits, "commit",
			    "commits");
			if (s->stats.commits > 0) {
				buf_puts(&b, " from ");
				spoken_count(&b, (long long)s->stats.authors,
				    "person", "people");
			}
			if (s->stats.merged_prs > 0) {
				buf_puts(&b, " and ");
				spoken_count(&b, (long long)s->stats.merged_prs,
				    "merged pull request",
				    "merged pull requests");
			}
			if (s->stats.reverts > 0) {
				buf_puts(&b, ", with ");
				if (s->stats.reverts == 1)
					buf_puts(&b, "a revert");
				else
					spoken_count(&b,
					    (long long)s->stats.reverts,
					    "revert", "reverts");
				buf_puts(&b, " among them");
			}
			buf_putc(&b, '.');
			recap_top_story(&b, s->description);
		}
		recap_shas_of(&shas, s, NULL);
		recap_segment(r, "recap", &b, &shas);
	}
}

/* The week's rollbacks: how many, and on which days. */
static void
recap_rollbacks(struct recap *r)
{
	const struct day_stats	*st = &r->ep->stats;
	struct recap_shas	 shas;
	struct buf		 b, *days;
	const char		**v, *last = NULL;
	size_t			 i, n = 0;

	if (st->reverts == 0 && st->relands == 0)
		return;
	buf_init(&b);
	memset(&shas, 0, sizeof(shas));
	days = xcalloc(r->n + 1, sizeof(*days));
	v = xcalloc(r->n + 1, sizeof(*v));
	for (i = 0; i < r->n; i++) {
		if (r->src[i]->stats.reverts == 0 &&
		    r->src[i]->stats.relands == 0)
			continue;
		recap_shas_of(&shas, r->src[i], "rollbacks");
		if (last != NULL && r->src[i]->date != NULL &&
		    strcmp(r->src[i]->date, last) == 0)
			continue;
		last = r->src[i]->date;
		buf_init(&days[n]);
		if (recap_day_name(&days[n], r->src[i]->date) == -1) {
			buf_free(&days[n]);
			continue;
		}
		v[n] = buf_str(&days[n]);
		n++;
	}
	buf_puts(&b, "On the rollback front, ");
	if (st->reverts > 0) {
		spoken_count(&b, (long long)st->reverts, "change was",
		    "changes were");
		buf_puts(&b, " reverted this week");
		if (st->relands > 0) {
			buf_puts(&b, " and ");
			spoken_count(&b, (long long)st->relands, "was",
			    "were");
			buf_puts(&b, " re-landed");
		}
	} else {
		spoken_count(&b, (long long)st->relands, "change was",
		    "changes were");
		buf_puts(&b, " re-landed this week");
	}
	if (n > 0) {
		buf_puts(&b, ", on ");
		spoken_list(&b, v, n);
	}
	buf_puts(&b, ". The daily episodes tell each one in full.");
	for (i = 0; i < n; i++)
		buf_free(&days[i]);
	free(days);
	free(v);
	recap_segment(r, "rollbacks", &b, &shas);
}

static void
recap_themes_segment(struct recap *r)
{
	struct recap_shas	 shas;
	struct buf		 b;
	const char		*v[RECAP_MAX_THEMES];
	char			*t;
	size_t			 i, j, n;

	if (r->nthemes == 0)
		return;
	buf_init(&b);
	memset(&shas, 0, sizeof(shas));
	n = r->nthemes < RECAP_MAX_THEMES ? r->nthemes : RECAP_MAX_THEMES;
	for (i = 0; i < n; i++)
		v[i] = r->themes[i].name;
	if (n == 1)
		buf_printf(&b, "If the week had one theme, it was %s",
		    v[0]);
	else {
		buf_puts(&b, "The themes of the week: ");
		spoken_list(&b, v, n);
	}
	if (r->themes[0].episodes > 1) {
		buf_printf(&b, ", with %s leading ", v[0]);
		spoken_count(&b, (long long)r->themes[0].episodes, "episode",
		    "episodes");
	}
	buf_putc(&b, '.');
	for (i = 0; i < r->n; i++) {
		if ((t = recap_theme_of(r->src[i]->title)) == NULL)
			continue;
		for (j = 0; j < n; j++)
			if (strcasecmp(t, v[j]) == 0)
				recap_shas_of(&shas, r->src[i], NULL);
		free(t);
	}
	recap_segment(r, "themes", &b, &shas);
}

static void
recap_people_segment(struct recap *r)
{
	const struct recap_name	*top = NULL, *bot = NULL;
	const char		*v[RECAP_MAX_NAMED + 1];
	struct buf		 b;
	size_t			 i, n = 0, ntop = 0;

	for (i = 0; i < r->nnames; i++) {
		if (r->names[i].bot) {
			if (bot == NULL)
				bot = &r->names[i];
			continue;
		}
		if (top == NULL)
			top = &r->names[i];
		if (r->names[i].commits == top->commits &&
		    ntop <= RECAP_MAX_NAMED) {
			v[ntop++] = r->names[i].name;
		}
	}
	if (top == NULL && bot == NULL)
		return;
	buf_init(&b);
	if (top != NULL && ntop > 1) {
		spoken_list(&b, v, ntop);
		buf_puts(&b, " came up most this week, with ");
		spoken_count(&b, (long long)top->commits, "commit", "commits");
		buf_puts(&b, " each.");
	} else if (top != NULL) {
		buf_printf(&b, "The name that came up most this week was %s, "
		    "with ", top->name);
		spoken_count(&b, (long long)top->commits, "commit", "commits");
		if (r->n > 1) {
			buf_puts(&b, " across ");
			spoken_count(&b, (long long)top->episodes, "episode",
			    "episodes");
		}
		buf_putc(&b, '.');
		for (i = 0; i < r->nnames && n < RECAP_MAX_NAMED; i++)
			if (!r->names[i].bot && &r->names[i] != top)
				v[n++] = r->names[i].name;
		if (n > 0) {
			buf_puts(&b, " Close behind ");
			buf_puts(&b, n == 1 ? "was " : "were ");
			spoken_list(&b, v, n);
			buf_putc(&b, '.');
		}
	}
	if (bot != NULL) {
		if (b.len > 0)
			buf_putc(&b, ' ');
		buf_printf(&b, "On the bot side, %s sent ", bot->name);
		spoken_count(&b, (long long)bot->commits, "commit", "commits");
		buf_putc(&b, '.');
	}
	recap_segment(r, "people", &b, NULL);
}

/* The week's Today's Focus settings, verbatim. */
static void
recap_focus(struct recap *r)
{
	const char	**v;
	struct buf	  b;
	size_t		  i, j, n = 0;

	v = xcalloc(r->n + 1, sizeof(*v));
	for (i = 0; i < r->n; i++) {
		if (r->src[i]->focus == NULL || *r->src[i]->focus == '\0')
			continue;
		for (j = 0; j < n; j++)
			if (strcmp(v[j], r->src[i]->focus) == 0)
				break;
		if (j == n)
			v[n++] = r->src[i]->focus;
	}
	if (n == 0) {
		free(v);
		return;
	}
	buf_init(&b);
	if (n == 1)
		buf_printf(&b, "In case you missed it, this week's Today's "
		    "Focus was %s: worth a second look.", v[0]);
	else {
		buf_puts(&b, "In case you missed them, this week's Today's "
		    "Focus settings were ");
		spoken_list(&b, v, n);
		buf_puts(&b, ": each worth a second look.");
	}
	/* the latest one is the episode's focus */
	for (i = r->n; i > 0; i--)
		if (r->src[i - 1]->focus != NULL && *r->src[i - 1]->focus != '\0')
			break;
	r->ep->focus = xstrdup(r->src[i - 1]->focus);
	free(v);
	recap_segment(r, "focus", &b, NULL);
}

static void
recap_closing(struct recap *r)
{
	struct buf	b;

	buf_init(&b);
	/* a weekly episode: its listener comes back for the next one */
	buf_printf(&b, "That's the week in %s. Thanks for listening to %s, "
	    "and I'll catch you next week.", r->repo, r->ep->show);
	recap_segment(r, "closing", &b, NULL);
}

static void
recap_title(struct recap *r)
{
	struct buf	 b;
	size_t		 i, n;
	int		 rollback = 0, has_and = 0;

	buf_init(&b);
	buf_puts(&b, RECAP_TITLE_PREFIX);
	n = r->nthemes < RECAP_TITLE_THEMES ? r->nthemes : RECAP_TITLE_THEMES;
	for (i = 0; i < n; i++) {
		if (strcasestr(r->themes[i].name, "rollback") != NULL ||
		    strcasestr(r->themes[i].name, "revert") != NULL)
			rollback = 1;
		if (strstr(r->themes[i].name, " and ") != NULL)
			has_and = 1;
	}
	if (n == 0)
		buf_puts(&b, "A Quiet Week");
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_puts(&b, has_and ? ", " : " and ");
		buf_puts(&b, r->themes[i].name);
	}
	if (!rollback && r->ep->stats.reverts > 0)
		buf_puts(&b, r->ep->stats.reverts == 1 ? ", Plus a Rollback" :
		    ", Plus Rollbacks");
	r->ep->title = buf_steal(&b);
}

static void
recap_description(struct recap *r)
{
	const struct day_stats	*st = &r->ep->stats;
	const char		*v[RECAP_MAX_THEMES];
	struct buf		 b;
	size_t			 i, n;

	buf_init(&b);
	buf_printf(&b, "%s's weekly recap for the week ending %s in %s. ",
	    r->ep->show, r->datestr, r->repo);
	spoken_count_cap(&b, r->n, "episode", "episodes");
	buf_puts(&b, ", ");
	spoken_count(&b, (long long)st->commits, "commit", "commits");
	if (st->commits > 0) {
		buf_puts(&b, " from ");
		spoken_count(&b, (long long)st->authors, "author", "authors");
	}
	if (st->merged_prs > 0) {
		buf_puts(&b, " and ");
		spoken_count(&b, (long long)st->merged_prs,
		    "merged pull request", "merged pull requests");
	}
	buf_putc(&b, '.');
	if (st->reverts > 0) {
		buf_putc(&b, ' ');
		spoken_count_cap(&b, st->reverts, "change was", "changes were");
		buf_puts(&b, " rolled back.");
	}
	n = r->nthemes < RECAP_MAX_THEMES ? r->nthemes : RECAP_MAX_THEMES;
	for (i = 0; i < n; i++)
		v[i] = r->themes[i].name;
	if (n > 0) {
		buf_puts(&b, " Themes: ");
		spoken_list(&b, v, n);
		buf_putc(&b, '.');
	}
	r->ep->description = buf_steal(&b);
}

static int
recap_cmp_src(const void *a, const void *b)
{
	const struct recap_source *x = *(const struct recap_source *const *)a;
	const struct recap_source *y = *(const struct recap_source *const *)b;
	int	c;

	c = strcmp(x->date != NULL ? x->date : "", y->date != NULL ?
	    y->date : "");
	if (c != 0)
		return c;
	return x < y ? -1 : x > y ? 1 : 0;
}

/* Draft the weekly recap of a repository's week. */
struct episode *
recap_draft(const char *repo, const struct recap_source *src, size_t n,
    const struct episode_opts *opts)
{
	struct recap	 r;
	struct episode	*ep;
	struct buf	 b;
	size_t		 i, sum_authors = 0;
	int		 y = 0, m = 0, d = 0, all_people;

	memset(&r, 0, sizeof(r));
	r.ep = ep = xcalloc(1, sizeof(*ep));
	r.n = n;
	r.src = xcalloc(n + 1, sizeof(*r.src));
	for (i = 0; i < n; i++)
		r.src[i] = &src[i];
	qsort(r.src, n, sizeof(*r.src), recap_cmp_src);

	ep->repository = xstrdup(repo != NULL ? repo : "");
	/* a show's folder (shows/SLUG, show.h) is said as its repositories */
	if (strncmp(ep->repository, "shows/", 6) == 0)
		r.repo = xstrdup("the show's repositories");
	else
		r.repo = text_clean(ep->repository);
	ep->show = episode_show(ep->repository, opts);
	if (opts != NULL && opts->year > 0) {
		y = opts->year;
		m = opts->month;
		d = opts->mday;
	} else if (n > 0)
		(void)recap_parse_date(r.src[n - 1]->date, &y, &m, &d);
	if (y == 0) {
		y = 1970;
		m = d = 1;
	}
	xasprintf(&ep->date, "%04d-%02d-%02d", y, m, d);
	buf_init(&b);
	spoken_date(&b, y, m, d);
	strncpy(r.datestr, buf_str(&b), sizeof(r.datestr) - 1);
	buf_free(&b);
	ep->published = opts != NULL ? opts->published : 0;

	/* the week's numbers: sums, and distinct people when known */
	for (i = 0; i < n; i++) {
		const struct recap_source *s = r.src[i];

		ep->stats.commits += s->stats.commits;
		ep->stats.merged_prs += s->stats.merged_prs;
		ep->stats.reverts += s->stats.reverts;
		ep->stats.relands += s->stats.relands;
		ep->stats.pushes += s->stats.pushes;
		ep->stats.force_pushes += s->stats.force_pushes;
		sum_authors += s->stats.authors;
		if (s->window_start != 0 && (ep->window_start == 0 ||
		    s->window_start < ep->window_start))
			ep->window_start = s->window_start;
		if (s->window_end > ep->window_end)
			ep->window_end = s->window_end;
	}
	all_people = recap_names(&r);
	ep->stats.authors = all_people ? r.nnames : sum_authors;
	recap_themes(&r);

	recap_opening(&r);
	recap_days(&r);
	recap_rollbacks(&r);
	recap_themes_segment(&r);
	recap_people_segment(&r);
	recap_focus(&r);
	recap_closing(&r);
	recap_title(&r);
	recap_description(&r);

	episode_finish(ep, opts);

	for (i = 0; i < r.nthemes; i++)
		free(r.themes[i].name);
	free(r.themes);
	free(r.names);
	free(r.src);
	free(r.repo);
	return ep;
}

/* An author key of a day and the first commit that has it. */
struct recap_key {
	const char	*key;
	size_t		 idx;
	size_t		 commits;
};

static int
recap_cmp_key(const void *a, const void *b)
{
	const struct recap_key *x = a, *y = b;
	int	c;

	if ((c = strcasecmp(x->key, y->key)) != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Most commits first; of equal counts, the first seen first. */
static int
recap_cmp_count(const void *a, const void *b)
{
	const struct recap_key *x = a, *y = b;

	if (x->commits != y->commits)
		return x->commits < y->commits ? 1 : -1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * A day's commit authors with their counts, most first (new array).
 * The keys are sorted, so runs of one key are one person (named after
 * their first commit), then the people are ordered by count and first
 * appearance: O(n log n), where looking each key up in the list so far
 * was quadratic (41k distinct authors took 12 s, issue #9).
 */
size_t
recap_people(const struct day *day, struct recap_person **out)
{
	struct recap_person	*v;
	struct recap_key	*keys;
	const struct commit	*c;
	const char		*key;
	size_t			 n = 0, nkeys = 0, i, j;

	keys = xcalloc(day->ncommits + 1, sizeof(*keys));
	for (i = 0; i < day->ncommits; i++) {
		if ((key = commit_author_key(&day->commits[i])) == NULL)
			continue;
		keys[nkeys].key = key;
		keys[nkeys].idx = i;
		nkeys++;
	}
	qsort(keys, nkeys, sizeof(*keys), recap_cmp_key);
	for (i = 0; i < nkeys; i = j) {
		for (j = i + 1; j < nkeys && strcasecmp(keys[j].key,
		    keys[i].key) == 0; j++)
			continue;
		keys[n] = keys[i];
		keys[n].commits = j - i;
		n++;
	}
	qsort(keys, n, sizeof(*keys), recap_cmp_count);
	v = n > 0 ? xcalloc(n, sizeof(*v)) : NULL;
	for (i = 0; i < n; i++) {
		c = &day->commits[keys[i].idx];
		v[i].bot = classify_is_bot(c->author_login, c->author_name);
		/* a key means a login or a name: never "someone" */
		v[i].name = classify_name(c, v[i].bot);
		v[i].login = xstrdup_null(c->author_login);
		v[i].commits = keys[i].commits;
	}
	free(keys);
	*out = v;
	return n;
}

/* Free what recap_people returned. */
void
recap_people_free(struct recap_person *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].login);
	}
	free(v);
}
