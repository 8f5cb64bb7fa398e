/*
 * What the layers after drafting (emission, audio, the outbox) read of
 * the configuration, each as a small struct of its own: they never see
 * struct config. Filled here, from it; the structs borrow its strings, so
 * they are good as long as the configuration they were filled from.
 */
#ifndef HOOKCAST_PUBCONF_H
#define HOOKCAST_PUBCONF_H

#include "audio.h"
#include "emit.h"
#include "outbox.h"

struct config;

/* Emission's settings; a repository's show and model through conf. */
void	 pubconf_emit(const struct config *, struct emit_conf *);
/* Audio's settings, emission's among them. */
void	 pubconf_audio(const struct config *, struct audio_conf *);
/* The outbox's settings: the sinks and how they are tried. */
void	 pubconf_outbox(const struct config *, struct outbox_conf *);

#endif
