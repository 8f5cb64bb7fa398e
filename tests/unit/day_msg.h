/*
 * Test days made of commit messages: one commit as a push would bring
 * it, for the drafter's table-driven tests (include after cmocka.h).
 */
#ifndef HOOKCAST_TEST_DAY_MSG_H
#define HOOKCAST_TEST_DAY_MSG_H

#include <string.h>
#include <time.h>

#include "day.h"
#include "episode.h"
#include "record.h"
#include "xmalloc.h"

/*
 * Add the commit of message msg to d: sha (NULL: the hex of seed), the
 * author's name and login, one modified file, made at seconds into the
 * day, its revert info parsed.
 */
static void
day_msg_add(struct day *d, const char *msg, const char *sha, size_t seed,
    size_t at, const char *name, const char *login, const char *file)
{
	struct commit	c;

	memset(&c, 0, sizeof c);
	commit_set_message(&c, msg);
	if (sha != NULL)
		c.sha = xstrdup(sha);
	else
		xasprintf(&c.sha, "%040zx", seed);
	c.author_name = xstrdup(name);
	c.author_login = xstrdup(login);
	c.timestamp = d->start + (time_t)at;
	c.modified = record_list_dup((char *const *)&file, 1);
	c.nmodified = 1;
	revert_parse(c.subject, c.body, &c.revert);
	assert_int_equal(day_add_commit(d, &c), 1);
}

/* A day of repo, a day long from 2026-04-04T00:00:00Z. */
static inline struct day *
day_msg_new(const char *repo)
{
	struct day	*d = day_new(repo, 1775260800);

	d->end = d->start + 86400;
	return d;
}

/* The day's episode as drafted for June 30th, 2026, the show unnamed. */
static inline struct episode *
day_msg_draft(const struct day *d)
{
	struct episode_opts	o;

	memset(&o, 0, sizeof o);
	o.year = 2026;
	o.month = 6;
	o.mday = 30;
	return episode_draft(d, &o);
}

#endif
