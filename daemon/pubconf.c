/* The configuration, as emission, audio and the outbox read it. */
#include <string.h>

#include "config.h"
#include "voice.h"
#include "pubconf.h"

static char *
pubconf_show(const void *conf, const char *repo)
{
	return config_show(conf, repo);
}

static void
pubconf_llm(const void *conf, const char *repo, struct llm_conf *l)
{
	config_llm(conf, repo, l);
}

void
pubconf_emit(const struct config *conf, struct emit_conf *ec)
{
	memset(ec, 0, sizeof(*ec));
	ec->output_dir = conf->output_dir;
	ec->public_url = conf->public_url;
	ec->feed_items = conf->feed_items;
	ec->feed_image = conf->feed_image;
	ec->feed_owner_name = conf->feed_owner_name;
	ec->feed_owner_email = conf->feed_owner_email;
	ec->feed_category = conf->feed_category;
	/* auto: locked when an owner's email says whose the feed is */
	ec->feed_locked = conf->feed_locked == FEED_LOCKED_YES ||
	    (conf->feed_locked == FEED_LOCKED_AUTO &&
	    conf->feed_owner_email != NULL);
	ec->episode_retention_days = conf->episode_retention_days;
	ec->min_free_space = conf->min_free_space;
	ec->words_per_minute = conf->words_per_minute;
	ec->show = pubconf_show;
	ec->llm = pubconf_llm;
	ec->arg = conf;
}

void
pubconf_audio(const struct config *conf, struct audio_conf *ac)
{
	memset(ac, 0, sizeof(*ac));
	ac->mode = conf->audio;
	ac->tts_command = conf->tts_command;
	ac->voice = voice_names[conf->voice];
	ac->bookend_voice = conf->bookend_voice >= 0 ?
	    voice_names[conf->bookend_voice] : NULL;
	ac->section_sound = conf->section_sound;
	ac->workers = conf->audio_workers;
	ac->encoder = conf->audio_encoder;
	ac->timeout = conf->audio_timeout;
	pubconf_emit(conf, &ac->emit);
}

void
pubconf_outbox(const struct config *conf, struct outbox_conf *oc)
{
	memset(oc, 0, sizeof(*oc));
	oc->state_dir = conf->state_dir;
	oc->output_dir = conf->output_dir;
	oc->public_url = conf->public_url;
	oc->sinks = conf->sinks;
	oc->nsinks = conf->nsinks;
	oc->sink_retry_for = conf->sink_retry_for;
	oc->sink_retry_min = conf->sink_retry_min;
	oc->sink_retry_max = conf->sink_retry_max;
	oc->sink_connect_timeout = conf->sink_connect_timeout;
	oc->sink_timeout = conf->sink_timeout;
}
