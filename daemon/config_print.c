/*
 * The configuration shown: --help's list of keys, --print-config's
 * settings in effect and where each came from, and what a reload logs of
 * the keys it changed or could not.
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "config.h"
#include "config_int.h"
#include "log.h"

/* The keyword of a CONFIG_ENUM value ("?" for none: a broken table). */
static const char *
config_enum_name(const struct config_enum *e, int value)
{
	for (; e->name != NULL; e++)
		if (e->value == value)
			return e->name;
	return "?";
}

void
config_usage(void *fp)
{
	FILE	*f = fp;
	size_t	 i;
	char	 flag[64], *p;

	fprintf(f, "usage: hookcastd [--config FILE] [--KEY=VALUE ...] "
	    "[--check-config [--as-unit] | --print-config]\n\n");
	fprintf(f, "Receives GitHub webhooks and drafts a daily spoken "
	    "episode of each repository's day.\n\n");
	fprintf(f, "  --config FILE            INI file of the keys below "
	    "(flags win over it)\n");
	fprintf(f, "  --check-config           validate and exit 0 or 1\n");
	fprintf(f, "  --as-unit                with --check-config: each "
	    "credential file as the unit's\n"
	    "                           own user (DynamicUser=) would read "
	    "it\n");
	fprintf(f, "  --print-config           print the settings in effect, "
	    "with where each came from\n");
	fprintf(f, "  --help, --version\n\n");
	for (i = 0; i < config_nkeys; i++) {
		snprintf(flag, sizeof(flag), "--%s", config_keys[i].name);
		for (p = flag; *p != '\0'; p++)
			if (*p == '_')
				*p = '-';
		fprintf(f, "  %-24s %s", flag, config_keys[i].help);
		if (config_keys[i].def != NULL)
			fprintf(f, " [%s]", config_keys[i].def);
		fprintf(f, "\n");
	}
	fprintf(f, "\nPer repository: [repo \"owner/name\"] with show = NAME, "
	    "branches = a, b,\nown_episodes, and llm_url, llm_model, "
	    "llm_key_file, llm_timeout\n");
	fprintf(f, "Per show: [show \"NAME\"] with repositories = owner/*, "
	    "other/tool, and emit_at,\ntimezone, recap_weekday, quiet_days, "
	    "voice, the feed_ and the llm_ keys\n");
	fprintf(f, "Per sink: [sink \"NAME\"] with type = http|slack|exec, "
	    "repositories, url,\nsecret_file, token_file (http), command "
	    "(exec), max_running; see hookcast.conf(5)\n");
}

void
config_value_string(const struct config *conf, const struct config_key *k,
    struct buf *b)
{
	const char		*p = (const char *)conf + k->offset;
	const struct strlist	*l;
	size_t			 i;

	switch (k->type) {
	case CONFIG_URL:
	case CONFIG_STRING:
		buf_puts(b, *(char *const *)p != NULL ? *(char *const *)p : "");
		break;
	case CONFIG_LIST:
		l = (const struct strlist *)p;
		for (i = 0; i < l->n; i++)
			buf_printf(b, "%s%s", i ? "," : "", l->v[i]);
		break;
	case CONFIG_INT:
	case CONFIG_BOOL:
		buf_printf(b, "%d", *(const int *)p);
		break;
	case CONFIG_LOG_LEVEL:
		buf_puts(b, log_level_name(*(const int *)p));
		break;
	case CONFIG_SIZE:
		buf_printf(b, "%lld", *(const long long *)p);
		break;
	case CONFIG_TIME_OF_DAY:
		buf_printf(b, "%02d:%02d", conf->emit_hour, conf->emit_minute);
		break;
	case CONFIG_PACE:
		buf_printf(b, "%g", *(const double *)p);
		break;
	case CONFIG_ENUM:
		buf_puts(b, config_enum_name(k->enums, *(const int *)p));
		break;
	}
}

/*
 * The [repo] sections, as a file would set them: the keys each sets, and
 * own_episodes always (read back, they give the same sections).
 */
static void
config_print_repos(const struct config *conf, FILE *f)
{
	const struct repo_conf	*r;
	size_t			 i, j;

	for (i = 0; i < conf->nrepos; i++) {
		r = &conf->repos[i];
		fprintf(f, "\n[repo \"%s\"]\n", r->name);
		if (r->show != NULL)
			fprintf(f, "show = %s\n", r->show);
		if (r->branches.n > 0) {
			fprintf(f, "branches = ");
			for (j = 0; j < r->branches.n; j++)
				fprintf(f, "%s%s", j ? ", " : "",
				    r->branches.v[j]);
			fprintf(f, "\n");
		}
		if (r->llm_url != NULL)
			fprintf(f, "llm_url = %s\n", r->llm_url);
		if (r->llm_model != NULL)
			fprintf(f, "llm_model = %s\n", r->llm_model);
		if (r->llm_key_file != NULL)
			fprintf(f, "llm_key_file = %s\n", r->llm_key_file);
		if (r->llm_timeout > 0)
			fprintf(f, "llm_timeout = %d\n", r->llm_timeout);
		fprintf(f, "own_episodes = %s\n",
		    r->own_episodes ? "true" : "false");
	}
}

/*
 * Every key in effect, in the table's order, as the file would set it,
 * with where its value came from: FILE:LINE, the flag, or the default
 * (which may follow the environment, as state_dir does). Files holding
 * secrets are named; secrets themselves are never printed.
 */
void
config_print(const struct config *conf, void *fp)
{
	FILE		*f = fp;
	struct buf	 b;
	size_t		 i;
	const char	*origin;

	buf_init(&b);
	fprintf(f, "# hookcastd %s: the settings in effect%s%s\n",
	    HOOKCAST_VERSION, conf->file != NULL ? ", from " : "",
	    conf->file != NULL ? conf->file : "");
	for (i = 0; i < config_nkeys; i++) {
		buf_reset(&b);
		if (config_keys[i].type == CONFIG_BOOL)
			buf_puts(&b, *(const int *)((const char *)conf +
			    config_keys[i].offset) ? "true" : "false");
		else
			config_value_string(conf, &config_keys[i], &b);
		origin = conf->origins != NULL && conf->origins[i] != NULL ?
		    conf->origins[i] : "default";
		fprintf(f, "%s = %s\t# %s\n", config_keys[i].name,
		    buf_str(&b), origin);
	}
	fprintf(f, "# %zu webhook secret(s) loaded; %zu [repo], %zu [show] "
	    "and %zu [sink] section(s)\n", conf->nsecrets, conf->nrepos,
	    conf->nshows, conf->nsinks);
	/* which of the places config_webhook_secrets looks in gave it */
	if (conf->nsecrets > 0 && conf->secret_from != NULL)
		fprintf(f, "# webhook secret from: %s\n",
		    conf->secret_from);
	else
		fprintf(f, "# webhook secret from: default (none%s)\n",
		    conf->insecure_no_signature ? ": insecure_no_signature" :
		    "");
	config_print_repos(conf, f);
	config_show_print(conf, f);
	buf_free(&b);
}

void
config_log_changes(const struct config *old, const struct config *new)
{
	struct buf	a, b;
	size_t		i;
	int		any = 0;

	buf_init(&a);
	buf_init(&b);
	for (i = 0; i < config_nkeys; i++) {
		buf_reset(&a);
		buf_reset(&b);
		config_value_string(old, &config_keys[i], &a);
		config_value_string(new, &config_keys[i], &b);
		if (strcmp(buf_str(&a), buf_str(&b)) == 0)
			continue;
		any = 1;
		/* a key only a restart changes was kept (config_reload) */
		if (strcmp(config_keys[i].name, "secret_file") == 0)
			log_notice("reload: secret_file changed");
		else
			log_notice("reload: %s changed from '%s' to '%s'",
			    config_keys[i].name, buf_str(&a), buf_str(&b));
	}
	if (config_show_log_changes(old, new))
		any = 1;
	if (old->nsecrets != new->nsecrets) {
		any = 1;
		log_notice("reload: %zu secret(s) now, %zu before",
		    new->nsecrets, old->nsecrets);
	}
	if (!any)
		log_info("reload: configuration unchanged");
	buf_free(&a);
	buf_free(&b);
}

/* Warn of each key a reload leaves as it runs until the next start. */
void
config_log_restart_only(const struct config *running,
    const struct config *next)
{
	struct buf	a, b;
	size_t		i;

	buf_init(&a);
	buf_init(&b);
	for (i = 0; i < config_nkeys; i++) {
		if (config_keys[i].reloadable)
			continue;
		buf_reset(&a);
		buf_reset(&b);
		config_value_string(running, &config_keys[i], &a);
		config_value_string(next, &config_keys[i], &b);
		if (strcmp(buf_str(&a), buf_str(&b)) != 0)
			log_warnx("reload: %s changed from '%s' to '%s'; it "
			    "takes effect after a restart", config_keys[i].name,
			    buf_str(&a), buf_str(&b));
	}
	buf_free(&a);
	buf_free(&b);
}
