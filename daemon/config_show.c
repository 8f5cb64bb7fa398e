/*
 * Shows: [show "NAME"] sections, each one daily episode of the day of
 * several repositories (issue 30). Their keys as the file gives them,
 * their globs and slugs, what is checked once everything is read and
 * what is warned of, printing them and what a reload logs of them, and
 * the queries the daemon and hookcast-draft ask of them.
 */
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive.h"
#include "buf.h"
#include "config.h"
#include "config_int.h"
#include "log.h"
#include "repo.h"
#include "schedule.h"
#include "voice.h"
#include "xmalloc.h"

/*
 * The global keys a show's section may set besides repositories: those
 * of when and how its episode is made and heard and of its feed. Each is
 * checked as the global key is (config_set) and kept in show->own.
 */
const char *const config_show_keys[] = {
	"emit_at", "timezone", "recap_weekday", "quiet_days", "voice",
	"feed_items", "feed_image", "feed_owner_name", "feed_owner_email",
	"feed_category", "feed_locked", "llm_url", "llm_model",
	"llm_key_file", "llm_timeout",
};
const size_t config_nshow_keys =
    sizeof(config_show_keys) / sizeof(config_show_keys[0]);

/* A show's name: it titles the episode and the feed. */
#define SHOW_NAME_MAX	128
/* A glob of a show's repositories. */
#define SHOW_GLOB_MAX	256

char *
config_show_slug(const char *name)
{
	char	*slug, *o;
	int	 dash = 0;
	char	 c;

	slug = o = xmalloc(strlen(name) + 1);
	for (; *name != '\0'; name++) {
		c = *name;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && o != slug)
				*o++ = '-';
			dash = 0;
			*o++ = c;
		} else
			dash = 1;
	}
	*o = '\0';
	return slug;
}

struct show_conf *
config_show_get(struct config *conf, const char *name, const char *path,
    int line, struct config_causes *causes)
{
	struct show_conf	*s;
	const unsigned char	*p;
	size_t			 i;

	for (i = 0; i < conf->nshows; i++)
		if (strcmp(conf->shows[i].name, name) == 0)
			return &conf->shows[i];
	conf->shows = xreallocarray(conf->shows, conf->nshows + 1,
	    sizeof(*conf->shows));
	s = &conf->shows[conf->nshows++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->slug = config_show_slug(name);
	xasprintf(&s->where, "%s:%d", path, line);
	s->own = xcalloc(1, sizeof(*s->own));
	s->own->origins = xcalloc(config_nkeys, sizeof(*s->own->origins));

	for (p = (const unsigned char *)name; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			break;
	if (*p != '\0' || strlen(name) > SHOW_NAME_MAX)
		config_causes_add(causes, "%s: [show \"%s\"]: a show's name is "
		    "1 to %d bytes, none of them a control character",
		    s->where, name, SHOW_NAME_MAX);
	else if (repo_name_ok(name))
		config_causes_add(causes, "%s: [show \"%s\"]: a show's name "
		    "can't be an owner/name: hookcastctl and hookcast-draft "
		    "would take it for that repository's", s->where, name);
	else if (*s->slug == '\0')
		config_causes_add(causes, "%s: [show \"%s\"]: a show's name "
		    "needs a letter or digit (its folder is shows/SLUG, of "
		    "a-z, 0-9 and '-')", s->where, name);
	else
		for (i = 0; i + 1 < conf->nshows; i++)
			if (strcmp(conf->shows[i].slug, s->slug) == 0)
				config_causes_add(causes, "%s: [show \"%s\"]: its "
				    "folder shows/%s is also [show \"%s\"]'s "
				    "(%s); give one another name", s->where,
				    name, s->slug, conf->shows[i].name,
				    conf->shows[i].where);
	return s;
}

/* A byte of a GitHub owner or name. */
static int
config_show_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

/*
 * NULL when glob is OWNER/NAME, each part a name or an fnmatch pattern
 * of them ('*', '?', '[...]'), else what is wrong with it.
 */
static const char *
config_show_glob_bad(const char *glob)
{
	const char	*slash = strchr(glob, '/'), *p, *open = NULL;

	if (strlen(glob) > SHOW_GLOB_MAX)
		return "longer than 256 bytes";
	if (slash == NULL || strchr(slash + 1, '/') != NULL)
		return "not one '/' between owner and name";
	if (slash == glob || slash[1] == '\0')
		return "an empty owner or name";
	for (p = glob; *p != '\0'; p++) {
		if (open != NULL) {
			if (*p == ']' && p > open + 1 &&
			    !(p == open + 2 && (open[1] == '!' ||
			    open[1] == '^')))
				open = NULL;
			else if (!config_show_name_char(*p) &&
			    !(p == open + 1 && (*p == '!' || *p == '^')))
				return "a '[' not closed by ']' before the "
				    "'/' or the end, or a byte in it no name "
				    "has";
			continue;
		}
		if (*p == '[')
			open = p;
		else if (*p != '*' && *p != '?' && *p != '/' &&
		    !config_show_name_char(*p))
			return "a byte no GitHub name has (letters, digits, "
			    "'-', '_' and '.', with '*', '?' and '[...]')";
	}
	return open != NULL ? "a '[' not closed by ']'" : NULL;
}

/* One key of a [show "NAME"] section. */
void
config_show_key(struct config *conf, struct show_conf *s,
    const char *name, const char *value, const char *path, int line,
    struct config_causes *causes)
{
	const struct config_key	*k;
	struct strlist		 globs = { NULL, 0 };
	struct buf		 b;
	const char		*why;
	char			*cause;
	size_t			 i;

	(void)conf;
	if (strcmp(name, "repositories") == 0) {
		strlist_split(&globs, value);
		if (globs.n == 0)
			config_causes_add(causes, "%s:%d: repositories: empty "
			    "value", path, line);
		for (i = 0; i < globs.n; i++)
			if ((why = config_show_glob_bad(globs.v[i])) != NULL)
				config_causes_add(causes, "%s:%d: repositories: "
				    "'%s' in [show \"%s\"] is not OWNER/NAME: "
				    "%s", path, line, globs.v[i], s->name, why);
		strlist_clear(&s->repositories);
		s->repositories = globs;
		free(s->repositories_where);
		xasprintf(&s->repositories_where, "%s:%d", path, line);
		return;
	}
	for (i = 0; i < config_nshow_keys; i++)
		if (strcmp(config_show_keys[i], name) == 0)
			break;
	if (i == config_nshow_keys || (k = config_find_key(name)) == NULL) {
		buf_init(&b);
		buf_puts(&b, "repositories");
		for (i = 0; i < config_nshow_keys; i++)
			buf_printf(&b, "%s%s", i + 1 == config_nshow_keys ?
			    " or " : ", ", config_show_keys[i]);
		config_causes_add(causes, "%s:%d: %s: unknown key in [show "
		    "\"%s\"] (expected %s)", path, line, name, s->name,
		    buf_str(&b));
		buf_free(&b);
		return;
	}
	if ((cause = config_set(s->own, k, value)) != NULL) {
		config_causes_add(causes, "%s:%d: %s: %s", path, line, name,
		    cause);
		free(cause);
		return;
	}
	config_set_origin(s->own, k, "%s:%d", path, line);
}

void
config_show_clear(struct show_conf *s)
{
	free(s->name);
	free(s->slug);
	free(s->where);
	strlist_clear(&s->repositories);
	free(s->repositories_where);
	if (s->own != NULL) {
		/* the model's key is the only secret: config_clear wipes it */
		config_clear(s->own);
		free(s->own);
	}
	memset(s, 0, sizeof(*s));
}

/* Where show s sets key ("file:line"), or NULL when it doesn't. */
const char *
config_show_origin(const struct show_conf *s, const char *key)
{
	const struct config_key	*k = config_find_key(key);

	if (k == NULL || s->own == NULL)
		return NULL;
	return s->own->origins[k - config_keys];
}

const struct show_conf *
config_show_find(const struct config *conf, const char *name)
{
	size_t	i;

	for (i = 0; i < conf->nshows; i++)
		if (strcmp(conf->shows[i].name, name) == 0)
			return &conf->shows[i];
	for (i = 0; i < conf->nshows; i++)
		if (strcmp(conf->shows[i].slug, name) == 0)
			return &conf->shows[i];
	return NULL;
}

int
show_conf_matches(const struct show_conf *s, const char *repo)
{
	size_t	i;

	/* FNM_PATHNAME: no '*', '?' or '[...]' of a part takes the '/' */
	for (i = 0; i < s->repositories.n; i++)
		if (fnmatch(s->repositories.v[i], repo,
		    FNM_PATHNAME | FNM_CASEFOLD) == 0)
			return 1;
	return 0;
}

/* repo's section (any case), or NULL. */
static const struct repo_conf *
config_show_repo_named(const struct config *conf, const char *repo)
{
	size_t	i;

	for (i = 0; i < conf->nrepos; i++)
		if (strcasecmp(conf->repos[i].name, repo) == 0)
			return &conf->repos[i];
	return NULL;
}

int
config_own_episodes(const struct config *conf, const char *repo)
{
	const struct repo_conf	*r = config_show_repo_named(conf, repo);

	return r != NULL ? r->own_episodes : 1;
}

void
config_show_llm(const struct config *conf, const struct show_conf *s,
    struct llm_conf *l)
{
	const struct config	*o = s->own;

	l->url = o->llm_url != NULL ? o->llm_url : conf->llm_url;
	l->model = o->llm_model != NULL ? o->llm_model : conf->llm_model;
	/* as config_llm: a key goes only to the origin it was given for */
	if (o->llm_key_file != NULL)
		l->key = o->llm_key;
	else if (l->url != NULL && conf->llm_url != NULL &&
	    config_same_origin(l->url, conf->llm_url))
		l->key = conf->llm_key;
	else
		l->key = NULL;
	l->timeout = o->llm_timeout > 0 ? o->llm_timeout : conf->llm_timeout;
}

void
config_show_settings(const struct config *conf, const struct show_conf *s,
    struct config *out)
{
	const struct config_key	*k;
	struct llm_conf		 l;
	size_t			 i, ki;

	*out = *conf;
	for (i = 0; i < config_nshow_keys; i++) {
		if ((k = config_find_key(config_show_keys[i])) == NULL)
			continue;
		ki = (size_t)(k - config_keys);
		if (s->own->origins[ki] == NULL)
			continue;
		switch (k->type) {
		case CONFIG_TIME_OF_DAY:
			out->emit_hour = s->own->emit_hour;
			out->emit_minute = s->own->emit_minute;
			break;
		case CONFIG_URL:
		case CONFIG_STRING:
			*(char **)(void *)((char *)out + k->offset) =
			    *(char *const *)(const void *)((const char *)s->own +
			    k->offset);
			break;
		case CONFIG_INT:
		case CONFIG_BOOL:
		case CONFIG_ENUM:
		case CONFIG_LOG_LEVEL:
			memcpy((char *)out + k->offset,
			    (const char *)s->own + k->offset, sizeof(int));
			break;
		case CONFIG_SIZE:
		case CONFIG_PACE:
		case CONFIG_LIST:
			/* no show key is one: a new one needs its copy here */
			fatalx("%s: %s: no copy for its type", __func__,
			    k->name);
		}
	}
	config_show_llm(conf, s, &l);
	out->llm_key = (char *)(uintptr_t)l.key;
}

/* One element of a glob's part: a byte, '*', '?' or a whole '[...]'. */
struct show_elem {
	const char	*s;
	size_t		 n;
};

/* The elements of the part s[0..len) of a checked glob, in e (len of). */
static size_t
config_show_elems(const char *s, size_t len, struct show_elem *e)
{
	size_t	i = 0, n = 0, j;

	while (i < len) {
		e[n].s = s + i;
		e[n].n = 1;
		if (s[i] == '[') {
			/* past a first ']' (config_show_glob_bad's rule) */
			for (j = i + 2; j < len && s[j] != ']'; j++)
				;
			if (j < len)
				e[n].n = j - i + 1;
		}
		i += e[n].n;
		n++;
	}
	return n;
}

/* Does the element a (not '*') match every name byte b can stand for? */
static int
config_show_elem_covers(const struct show_elem *a, const struct show_elem *b)
{
	char	 class[SHOW_GLOB_MAX + 1], one[2];

	if (b->s[0] == '*')
		return 0;
	if (a->s[0] == '?')
		return 1;
	if (a->s[0] == '[' && a->n > 1) {
		if (b->s[0] == '[' && b->n > 1)
			return a->n == b->n && strncasecmp(a->s, b->s, a->n) == 0;
		if (b->s[0] == '?')
			return 0;
		snprintf(class, sizeof(class), "%.*s", (int)a->n, a->s);
		one[0] = b->s[0];
		one[1] = '\0';
		return fnmatch(class, one, FNM_CASEFOLD) == 0;
	}
	if (b->s[0] == '?' || (b->s[0] == '[' && b->n > 1))
		return 0;
	return strncasecmp(a->s, b->s, 1) == 0;
}

/*
 * Does the part a match every name the part b can (a covers b)? Over
 * their elements, from the ends: an element of a that is not '*' takes
 * one of b's that it covers; a '*' takes any run of b's, its '*'s too.
 * Never yes when b can match a name a can't; no when unsure.
 */
static int
config_show_part_covers(const char *a, size_t alen, const char *b,
    size_t blen)
{
	struct show_elem	 ea[SHOW_GLOB_MAX], eb[SHOW_GLOB_MAX];
	unsigned char		*cov;
	size_t			 na, nb, i, j, w;
	int			 yes;

	if (alen > SHOW_GLOB_MAX || blen > SHOW_GLOB_MAX)
		return 0;
	na = config_show_elems(a, alen, ea);
	nb = config_show_elems(b, blen, eb);
	w = nb + 1;
	/* cov[i * w + j]: ea[i..] covers eb[j..] */
	cov = xcalloc((na + 1) * w, 1);
	cov[na * w + nb] = 1;
	for (i = na; i-- > 0; ) {
		for (j = nb + 1; j-- > 0; ) {
			if (ea[i].s[0] == '*')
				cov[i * w + j] = cov[(i + 1) * w + j] ||
				    (j < nb && cov[i * w + j + 1]);
			else
				cov[i * w + j] = j < nb &&
				    config_show_elem_covers(&ea[i], &eb[j]) &&
				    cov[(i + 1) * w + j + 1];
		}
	}
	yes = cov[0];
	free(cov);
	return yes;
}

/* Does the glob a match every repository the glob b can? Both checked. */
int
config_show_glob_covers(const char *a, const char *b)
{
	const char	*sa = strchr(a, '/'), *sb = strchr(b, '/');

	if (sa == NULL || sb == NULL)
		return 0;
	return config_show_part_covers(a, (size_t)(sa - a), b,
	    (size_t)(sb - b)) &&
	    config_show_part_covers(sa + 1, strlen(sa + 1), sb + 1,
	    strlen(sb + 1));
}

/*
 * Warn of a glob of a show that another of the same show already covers
 * (or the same twice): one of them says nothing, and likely one was
 * meant to be something else.
 */
static void
config_show_warn_overlaps(const struct show_conf *s)
{
	const struct strlist	*g = &s->repositories;
	size_t			 i, j;
	int			 dup;

	/* each glob said of once, after the first that covers it */
	for (j = 0; j < g->n; j++) {
		if (config_show_glob_bad(g->v[j]) != NULL)
			continue;
		for (i = 0; i < g->n; i++) {
			if (i == j || config_show_glob_bad(g->v[i]) != NULL ||
			    !config_show_glob_covers(g->v[i], g->v[j]))
				continue;
			dup = config_show_glob_covers(g->v[j], g->v[i]);
			/* of two the same, the later is the one said of */
			if (dup && i > j)
				continue;
			if (dup)
				log_warnx("%s: repositories: '%s' in [show "
				    "\"%s\"] matches the same repositories as "
				    "'%s'; one of them is enough",
				    s->repositories_where, g->v[j], s->name,
				    g->v[i]);
			else
				log_warnx("%s: repositories: '%s' in [show "
				    "\"%s\"] is already matched by '%s'; one of "
				    "them is enough", s->repositories_where,
				    g->v[j], s->name, g->v[i]);
			break;
		}
	}
}

/*
 * The repositories the configuration has seen, for --check-config: its
 * [repo] sections, its repositories entries that name one repository,
 * and each OWNER/NAME folder of episodes under output_dir (the shows'
 * own folder, shows/, is none).
 */
static void
config_show_seen(const struct config *conf, struct strlist *seen)
{
	struct strlist	 folders = { NULL, 0 };
	size_t		 i;

	for (i = 0; i < conf->nrepos; i++)
		strlist_add(seen, conf->repos[i].name);
	for (i = 0; i < conf->repositories.n; i++)
		if (strpbrk(conf->repositories.v[i], "*?[") == NULL)
			strlist_add(seen, conf->repositories.v[i]);
	archive_repos(conf->output_dir, &folders);
	for (i = 0; i < folders.n; i++)
		if (strncmp(folders.v[i], "shows/", 6) != 0)
			strlist_add(seen, folders.v[i]);
	strlist_clear(&folders);
}

/* Warn of each show whose globs match no repository seen. */
static void
config_show_warn_unseen(const struct config *conf)
{
	struct strlist		 seen = { NULL, 0 };
	const struct show_conf	*s;
	size_t			 i, j;

	config_show_seen(conf, &seen);
	for (i = 0; i < conf->nshows; i++) {
		s = &conf->shows[i];
		if (s->repositories.n == 0)
			continue;
		for (j = 0; j < seen.n; j++)
			if (show_conf_matches(s, seen.v[j]))
				break;
		if (j == seen.n)
			log_warnx("%s: repositories: [show \"%s\"] matches no "
			    "repository seen yet (of the [repo] sections, the "
			    "repositories key and the episode folders under "
			    "%s); its episode stays empty until one of its "
			    "repositories sends a delivery",
			    s->repositories_where, s->name, conf->output_dir);
	}
	strlist_clear(&seen);
}

int
config_show_scheduled(const struct show_conf *s)
{
	return config_show_origin(s, "emit_at") != NULL ||
	    config_show_origin(s, "timezone") != NULL ||
	    config_show_origin(s, "quiet_days") != NULL;
}

/*
 * Warn of a repository told only in its shows that no show takes: it has
 * its own episode all the same (a day accepted is always told).
 */
static void
config_show_warn_unshown(const struct config *conf, const struct repo_conf *r)
{
	size_t	i;

	if (r->own_episodes)
		return;
	for (i = 0; i < conf->nshows; i++)
		if (show_conf_matches(&conf->shows[i], r->name))
			return;
	log_warnx("[repo \"%s\"]: own_episodes = false, but no show takes "
	    "it: it has its own episodes all the same", r->name);
}

/*
 * A show once everything is read: its repositories given, the keys
 * checked against others as the global ones are (the time zone, the
 * owner's email, the voice's rate against bookend_voice's), and what is
 * warned of (for --check-config, CONFIG_CHECK, a show that matches
 * nothing seen).
 */
void
config_show_finish(struct config *conf, int flags,
    struct config_causes *causes)
{
	const struct show_conf	*s;
	const char		*w;
	size_t			 i;

	for (i = 0; i < conf->nshows; i++) {
		s = &conf->shows[i];
		if (s->repositories_where == NULL)
			config_causes_add(causes, "%s: repositories: missing in "
			    "[show \"%s\"] (OWNER/NAME globs of the "
			    "repositories it tells)", s->where, s->name);
		if ((w = config_show_origin(s, "timezone")) != NULL &&
		    !schedule_zone_exists(s->own->timezone))
			config_causes_add(causes, "%s: timezone: unknown time "
			    "zone '%s'", w, s->own->timezone);
		if ((w = config_show_origin(s, "feed_owner_email")) != NULL &&
		    !config_email_ok(s->own->feed_owner_email))
			config_causes_add(causes, "%s: feed_owner_email: '%s' "
			    "is not an email address", w,
			    s->own->feed_owner_email);
		if ((w = config_show_origin(s, "voice")) != NULL &&
		    conf->bookend_voice >= 0 &&
		    voice_rate(voice_names[conf->bookend_voice]) !=
		    voice_rate(voice_names[s->own->voice]))
			config_causes_add(causes, "%s: voice: %s speaks at %u Hz "
			    "and bookend_voice %s at %u Hz; an episode's "
			    "sentences must come at one rate", w,
			    voice_names[s->own->voice],
			    voice_rate(voice_names[s->own->voice]),
			    voice_names[conf->bookend_voice],
			    voice_rate(voice_names[conf->bookend_voice]));
		config_show_warn_overlaps(s);
	}
	for (i = 0; i < conf->nrepos; i++)
		config_show_warn_unshown(conf, &conf->repos[i]);
	if (flags & CONFIG_CHECK)
		config_show_warn_unseen(conf);
}

/* key = value of each key show s sets, in config_show_keys' order. */
static void
config_show_print_keys(const struct show_conf *s, FILE *f)
{
	const struct config_key	*k;
	struct buf		 b;
	size_t			 i;

	buf_init(&b);
	for (i = 0; i < config_nshow_keys; i++) {
		if ((k = config_find_key(config_show_keys[i])) == NULL ||
		    s->own->origins[k - config_keys] == NULL)
			continue;
		buf_reset(&b);
		config_value_string(s->own, k, &b);
		fprintf(f, "%s = %s\n", k->name, buf_str(&b));
	}
	buf_free(&b);
}

/*
 * The [show] sections, as a file would set them (read back, they give
 * the same shows): where each came from on a comment line of its own,
 * since a value runs to the end of its line; only the keys a section
 * sets.
 */
void
config_show_print(const struct config *conf, FILE *f)
{
	const struct show_conf	*s;
	size_t			 i, j;

	for (i = 0; i < conf->nshows; i++) {
		s = &conf->shows[i];
		fprintf(f, "\n# %s; its folder shows/%s\n[show \"%s\"]\n",
		    s->where, s->slug, s->name);
		fprintf(f, "repositories = ");
		for (j = 0; j < s->repositories.n; j++)
			fprintf(f, "%s%s", j ? ", " : "", s->repositories.v[j]);
		fprintf(f, "\n");
		config_show_print_keys(s, f);
	}
}

/* The show's keys as one line, "repositories = ...; emit_at = ...". */
static void
config_show_line(const struct show_conf *s, struct buf *b)
{
	const struct config_key	*k;
	size_t			 i;

	buf_reset(b);
	buf_puts(b, "repositories = ");
	for (i = 0; i < s->repositories.n; i++)
		buf_printf(b, "%s%s", i ? ", " : "", s->repositories.v[i]);
	for (i = 0; i < config_nshow_keys; i++) {
		if ((k = config_find_key(config_show_keys[i])) == NULL ||
		    s->own->origins[k - config_keys] == NULL)
			continue;
		buf_printf(b, "; %s = ", k->name);
		config_value_string(s->own, k, b);
	}
}

/* The show named name exactly, or NULL. */
static const struct show_conf *
config_show_named(const struct config *conf, const char *name)
{
	size_t	i;

	for (i = 0; i < conf->nshows; i++)
		if (strcmp(conf->shows[i].name, name) == 0)
			return &conf->shows[i];
	return NULL;
}

/*
 * What a reload changed of the shows (added, removed, their keys) and of
 * own_episodes, logged as the keys' changes are; 1 when anything did.
 */
int
config_show_log_changes(const struct config *old, const struct config *new)
{
	const struct show_conf	*o, *n;
	struct buf		 a, b;
	size_t			 i;
	int			 any = 0, was, is;

	buf_init(&a);
	buf_init(&b);
	for (i = 0; i < old->nshows; i++)
		if (config_show_named(new, old->shows[i].name) == NULL) {
			log_notice("reload: [show \"%s\"] removed",
			    old->shows[i].name);
			any = 1;
		}
	for (i = 0; i < new->nshows; i++) {
		n = &new->shows[i];
		config_show_line(n, &b);
		if ((o = config_show_named(old, n->name)) == NULL) {
			log_notice("reload: [show \"%s\"] added: %s", n->name,
			    buf_str(&b));
			any = 1;
			continue;
		}
		config_show_line(o, &a);
		if (strcmp(buf_str(&a), buf_str(&b)) != 0) {
			log_notice("reload: [show \"%s\"] changed from '%s' to "
			    "'%s'", n->name, buf_str(&a), buf_str(&b));
			any = 1;
		}
	}
	/* own_episodes of every repository either names */
	for (i = 0; i < old->nrepos + new->nrepos; i++) {
		const char *name = i < old->nrepos ? old->repos[i].name :
		    new->repos[i - old->nrepos].name;

		was = config_own_episodes(old, name);
		is = config_own_episodes(new, name);
		/* a repository of both is told once, from old's list */
		if (was == is || (i >= old->nrepos &&
		    config_show_repo_named(old, name)))
			continue;
		log_notice("reload: [repo \"%s\"] own_episodes changed from "
		    "%s to %s", name, was ? "true" : "false",
		    is ? "true" : "false");
		any = 1;
	}
	buf_free(&a);
	buf_free(&b);
	return any;
}
