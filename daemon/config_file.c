/*
 * The configuration's INI file: its lines, counted and checked as inih
 * reads them; the global keys, set through the key table (config.c); and
 * the [repo "owner/name"] and [sink "NAME"] sections, and the [show
 * "NAME"] sections' lines (their keys are config_show.c's).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "config.h"
#include "config_int.h"
#include "sink.h"
#include "suggest.h"
#include "xmalloc.h"

/* Reading the file: inih with a reader that counts lines. */
struct config_file {
	FILE			*f;
	const char		*path;
	int			 line;
	int			 section_line;	/* of the last [...] */
	struct config		*conf;
	struct config_causes	*causes;
	char			*linebuf;
	size_t			 linecap;
};

static char	*config_section_value(const char *, const char *);

/*
 * A section's header, line s (from its '['): its line is where the
 * section's causes point, and a show is known from its header on, so
 * that one without keys is found missing its repositories.
 */
static void
config_file_section(struct config_file *cf, const char *s)
{
	const char	*end;
	char		*section, *name;

	cf->section_line = cf->line;
	if ((end = strchr(s, ']')) == NULL)
		return;
	section = xstrndup(s + 1, (size_t)(end - s - 1));
	if ((name = config_section_value(section, "show")) != NULL)
		config_show_get(cf->conf, name, cf->path, cf->line, cf->causes);
	free(name);
	free(section);
}

static char *
config_file_reader(char *str, int num, void *stream)
{
	struct config_file	*cf = stream;
	ssize_t			 n;
	const char		*s;

	if ((n = getline(&cf->linebuf, &cf->linecap, cf->f)) == -1)
		return NULL;
	cf->line++;
	if (n >= num - 1 && cf->linebuf[n - 1] != '\n')
		config_causes_add(cf->causes, "%s:%d: line longer than %d bytes",
		    cf->path, cf->line, num - 2);
	/* a line that is neither blank, comment, section nor key = value */
	s = cf->linebuf;
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '\0' && *s != '#' && *s != ';' && *s != '[' &&
	    strchr(s, '=') == NULL && strchr(s, ':') == NULL)
		config_causes_add(cf->causes, "%s:%d: expected 'key = value'",
		    cf->path, cf->line);
	if (*s == '[')
		config_file_section(cf, s);
	snprintf(str, (size_t)num, "%s", cf->linebuf);
	return str;
}

struct repo_conf *
config_repo(struct config *conf, const char *name)
{
	size_t			 i;
	struct repo_conf	*r;

	for (i = 0; i < conf->nrepos; i++)
		if (strcmp(conf->repos[i].name, name) == 0)
			return &conf->repos[i];
	conf->repos = xreallocarray(conf->repos, conf->nrepos + 1,
	    sizeof(*conf->repos));
	r = &conf->repos[conf->nrepos++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->own_episodes = 1;
	return r;
}

/* "NAME \"VALUE\"" -> VALUE (new), or NULL when section is not one. */
static char *
config_section_value(const char *section, const char *name)
{
	size_t		 n = strlen(name);
	const char	*p, *q;

	if (strncmp(section, name, n) != 0)
		return NULL;
	p = section + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '"')
		return NULL;
	p++;
	if ((q = strchr(p, '"')) == NULL || q[1] != '\0')
		return NULL;
	return xstrndup(p, (size_t)(q - p));
}

/* "repo \"owner/name\"" -> owner/name (new), or NULL. */
static char *
config_repo_section(const char *section)
{
	char	*v, *slash;

	if ((v = config_section_value(section, "repo")) == NULL)
		return NULL;
	slash = strchr(v, '/');
	if (slash == NULL || slash == v || slash[1] == '\0' ||
	    strchr(slash + 1, '/') != NULL) {
		free(v);
		return NULL;
	}
	return v;
}

/* Split "a b\tc" at white space (a command line, without a shell). */
static void
strlist_split_space(struct strlist *l, const char *s)
{
	const char	*p = s, *e;
	char		*item;

	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			break;
		for (e = p; *e != '\0' && !isspace((unsigned char)*e); e++)
			;
		item = xstrndup(p, (size_t)(e - p));
		strlist_add(l, item);
		free(item);
		p = e;
	}
}

/* "sink \"NAME\"" -> NAME (new), or NULL; *bad when NAME is refused. */
static char *
config_sink_section(const char *section, int *bad)
{
	char	*v, *c;

	*bad = 0;
	if ((v = config_section_value(section, "sink")) == NULL)
		return NULL;
	/* the name is a folder of the outbox */
	for (c = v; *c != '\0'; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-' &&
		    *c != '.')
			*bad = 1;
	if (*v == '\0' || *v == '.' || strlen(v) > 64)
		*bad = 1;
	return v;
}

static struct sink_conf *
config_sink_get(struct config *conf, const char *name, const char *where)
{
	size_t			 i;
	struct sink_conf	*s;

	for (i = 0; i < conf->nsinks; i++)
		if (strcmp(conf->sinks[i].name, name) == 0)
			return &conf->sinks[i];
	conf->sinks = xreallocarray(conf->sinks, conf->nsinks + 1,
	    sizeof(*conf->sinks));
	s = &conf->sinks[conf->nsinks++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->type = -1;
	s->max_running = SINK_MAX_RUNNING;
	s->where = xstrdup(where);
	return s;
}

/*
 * A sink's shows = NAME, ...: kept as their slugs, as a show's episodes
 * are named (shows/SLUG); that each is a show of the configuration is
 * checked once every section is read (config_check.c).
 */
static void
config_sink_shows(struct config_file *cf, struct sink_conf *s,
    const char *value)
{
	struct strlist	 names = { NULL, 0 };
	char		*slug;
	size_t		 i;

	strlist_clear(&s->shows);
	strlist_split(&names, value);
	for (i = 0; i < names.n; i++) {
		slug = config_show_slug(names.v[i]);
		if (*slug == '\0')
			config_causes_add(cf->causes, "%s:%d: shows: '%s' is "
			    "not a show's name (no letter or digit)", cf->path,
			    cf->line, names.v[i]);
		else
			strlist_add(&s->shows, slug);
		free(slug);
	}
	strlist_clear(&names);
}

/* The keys of a [repo] section and of a [sink] section. */
static const char *const config_repo_section_keys[] = {
	"show", "branches", "own_episodes", "llm_url", "llm_model",
	"llm_key_file", "llm_timeout",
};
static const char *const config_sink_keys[] = {
	"type", "repositories", "shows", "url", "secret_file", "token_file",
	"command", "max_running",
};

/*
 * "did you mean KEY? " for a section's unknown key close to one of its n
 * keys, into buf; "" when none is close. Returns buf.
 */
static const char *
config_file_mean(const char *name, const char *const *keys, size_t n,
    char *buf, size_t len)
{
	struct suggest	 sg;
	const char	*best;
	size_t		 i;

	suggest_init(&sg, name);
	for (i = 0; i < n; i++)
		suggest_add(&sg, keys[i]);
	if ((best = suggest_best(&sg)) != NULL)
		snprintf(buf, len, "did you mean %s? ", best);
	else if (len > 0)
		buf[0] = '\0';
	return buf;
}

/* One key of a [sink "NAME"] section. */
static void
config_sink_key(struct config_file *cf, const char *section,
    const char *sname, const char *name, const char *value)
{
	const struct sink_kind	*kind;
	struct sink_conf	*s;
	char			*where, mean[SUGGEST_MAX + 32];
	char		       **field = NULL;

	xasprintf(&where, "%s:%d", cf->path, cf->line);
	s = config_sink_get(cf->conf, sname, where);
	free(where);
	if (strcmp(name, "type") == 0) {
		if ((kind = sink_kind_find(value)) == NULL)
			config_causes_add(cf->causes, "%s:%d: type: unknown sink "
			    "type '%s' in [%s] (expected one of %s)", cf->path,
			    cf->line, value, section, sink_kind_names());
		else
			s->type = (int)kind->type;
		return;
	}
	if (strcmp(name, "repositories") == 0) {
		strlist_clear(&s->repositories);
		strlist_split(&s->repositories, value);
		return;
	}
	if (strcmp(name, "shows") == 0) {
		config_sink_shows(cf, s, value);
		return;
	}
	if (strcmp(name, "command") == 0) {
		/* words split at white space; no shell, no quotes */
		strlist_clear(&s->command);
		strlist_split_space(&s->command, value);
		if (s->command.n == 0)
			config_causes_add(cf->causes, "%s:%d: command: empty "
			    "value", cf->path, cf->line);
		return;
	}
	if (strcmp(name, "max_running") == 0) {
		char	*end;
		long	 v;

		errno = 0;
		v = strtol(value, &end, 10);
		if (errno != 0 || end == value || *end != '\0' || v < 1 ||
		    v > SINK_MAX_RUNNING_MAX)
			config_causes_add(cf->causes, "%s:%d: max_running: '%s' "
			    "is not a number from 1 to %d", cf->path, cf->line,
			    value, SINK_MAX_RUNNING_MAX);
		else
			s->max_running = (int)v;
		return;
	}
	if (strcmp(name, "url") == 0) {
		if (!config_url_ok(value))
			config_causes_add(cf->causes, "%s:%d: url: '%s' is not an "
			    "http:// or https:// URL", cf->path, cf->line,
			    value);
		field = &s->url;
	} else if (strcmp(name, "secret_file") == 0) {
		field = &s->secret_file;
		free(s->secret_where);
		xasprintf(&s->secret_where, "%s:%d: secret_file", cf->path,
		    cf->line);
	} else if (strcmp(name, "token_file") == 0) {
		field = &s->token_file;
		free(s->token_where);
		xasprintf(&s->token_where, "%s:%d: token_file", cf->path,
		    cf->line);
	} else {
		config_causes_add(cf->causes, "%s:%d: %s: unknown key in [%s] "
		    "(%sexpected type, repositories, shows, url, secret_file, "
		    "token_file, command or max_running)", cf->path, cf->line,
		    name, section, config_file_mean(name, config_sink_keys,
		    sizeof(config_sink_keys) / sizeof(config_sink_keys[0]),
		    mean, sizeof(mean)));
		return;
	}
	if (*value == '\0') {
		config_causes_add(cf->causes, "%s:%d: %s: empty value", cf->path,
		    cf->line, name);
		return;
	}
	free(*field);
	*field = xstrdup(value);
}

/*
 * A global key set in a repository's section: checked as the global one
 * is (config_set on a blank config), then kept in r. -1 when name is none
 * of config_repo_keys.
 */
static int
config_repo_key(struct config_file *cf, struct repo_conf *r,
    const char *name, const char *value)
{
	const struct config_key	*k;
	struct config		 one;
	char			*cause;
	size_t			 i;

	for (i = 0; i < config_nrepo_keys; i++)
		if (strcmp(config_repo_keys[i], name) == 0)
			break;
	if (i == config_nrepo_keys || (k = config_find_key(name)) ==
	    NULL)
		return -1;
	memset(&one, 0, sizeof(one));
	if ((cause = config_set(&one, k, value)) != NULL) {
		config_causes_add(cf->causes, "%s:%d: %s: %s", cf->path,
		    cf->line, name, cause);
		free(cause);
		return 0;
	}
	if (strcmp(name, "llm_url") == 0) {
		free(r->llm_url);
		r->llm_url = one.llm_url;
	} else if (strcmp(name, "llm_model") == 0) {
		free(r->llm_model);
		r->llm_model = one.llm_model;
	} else if (strcmp(name, "llm_key_file") == 0) {
		free(r->llm_key_file);
		r->llm_key_file = one.llm_key_file;
		free(r->llm_key_where);
		xasprintf(&r->llm_key_where, "%s:%d: llm_key_file", cf->path,
		    cf->line);
	} else
		r->llm_timeout = one.llm_timeout;
	return 0;
}

static int
config_file_handler(void *user, const char *section, const char *name,
    const char *value)
{
	struct config_file	*cf = user;
	const struct config_key	*k;
	struct repo_conf	*r;
	const char		*best;
	char			*repo, *cause, *sname;
	char			 mean[SUGGEST_MAX + 32];
	int			 bad;

	if (*section != '\0' &&
	    (sname = config_sink_section(section, &bad)) != NULL) {
		if (bad)
			config_causes_add(cf->causes, "%s:%d: [%s]: a sink's name "
			    "is 1 to 64 letters, digits, '_', '-' or '.' (not "
			    "first)", cf->path, cf->line, section);
		else
			config_sink_key(cf, section, sname, name, value);
		free(sname);
		return 1;
	}
	if (*section != '\0' &&
	    (sname = config_section_value(section, "show")) != NULL) {
		config_show_key(cf->conf, config_show_get(cf->conf, sname,
		    cf->path, cf->section_line, cf->causes), name, value,
		    cf->path, cf->line, cf->causes);
		free(sname);
		return 1;
	}
	if (*section != '\0') {
		if ((repo = config_repo_section(section)) == NULL) {
			config_causes_add(cf->causes, "%s:%d: [%s]: unknown "
			    "section (expected [repo \"owner/name\"], [show "
			    "\"NAME\"] or [sink \"NAME\"])", cf->path, cf->line,
			    section);
			return 1;
		}
		r = config_repo(cf->conf, repo);
		free(repo);
		if (strcmp(name, "show") == 0) {
			if (*value == '\0')
				config_causes_add(cf->causes, "%s:%d: show: "
				    "empty value", cf->path, cf->line);
			else {
				free(r->show);
				r->show = xstrdup(value);
			}
		} else if (strcmp(name, "branches") == 0) {
			strlist_clear(&r->branches);
			strlist_split(&r->branches, value);
		} else if (strcmp(name, "own_episodes") == 0) {
			if (config_parse_bool(value, &r->own_episodes) == -1)
				config_causes_add(cf->causes, "%s:%d: "
				    "own_episodes: '%s' is not true or false",
				    cf->path, cf->line, value);
		} else if (config_repo_key(cf, r, name, value) == -1)
			config_causes_add(cf->causes, "%s:%d: %s: unknown key in "
			    "[%s] (%sexpected show, branches, own_episodes, or an "
			    "llm_ key)", cf->path, cf->line, name, section,
			    config_file_mean(name, config_repo_section_keys,
			    sizeof(config_repo_section_keys) /
			    sizeof(config_repo_section_keys[0]), mean,
			    sizeof(mean)));
		return 1;
	}
	if ((k = config_find_key(name)) == NULL) {
		if ((best = config_suggest_key(name)) != NULL)
			config_causes_add(cf->causes, "%s:%d: %s: unknown key "
			    "(did you mean %s?)", cf->path, cf->line, name,
			    best);
		else
			config_causes_add(cf->causes, "%s:%d: %s: unknown key",
			    cf->path, cf->line, name);
		return 1;
	}
	if ((cause = config_set(cf->conf, k, value)) != NULL) {
		config_causes_add(cf->causes, "%s:%d: %s: %s", cf->path,
		    cf->line, name, cause);
		free(cause);
	}
	config_set_origin(cf->conf, k, "%s:%d", cf->path, cf->line);
	return 1;
}

int
config_read_file(struct config *conf, const char *path,
    struct config_causes *causes)
{
	struct config_file	cf;

	memset(&cf, 0, sizeof(cf));
	if ((cf.f = fopen(path, "r")) == NULL) {
		config_causes_add(causes, "%s: cannot read the configuration "
		    "file: %s", path, strerror(errno));
		return -1;
	}
	cf.path = path;
	cf.conf = conf;
	cf.causes = causes;
	ini_parse_stream(config_file_reader, &cf, config_file_handler, &cf);
	free(cf.linebuf);
	fclose(cf.f);
	return 0;
}
