/*
 * The fact sheet of an episode, as structure: what the model is given and
 * what the fence checks a reply's sentences against, story by story.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "classify.h"
#include "sheet.h"
#include "xmalloc.h"

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

static void
sheet_person_add(struct sheet_story *s, const char *name, const char *login,
    enum sheet_role role)
{
	struct sheet_person	*p;

	if ((name == NULL || *name == '\0') && (login == NULL || *login == '\0'))
		return;
	s->people = xreallocarray(s->people, s->npeople + 1,
	    sizeof(*s->people));
	p = &s->people[s->npeople++];
	p->name = xstrdup_null(name);
	p->login = xstrdup_null(login);
	p->role = role;
}

struct sheet *
sheet_of_episode(const struct day *day, const struct episode *ep)
{
	struct sheet		*sh;
	struct sheet_story	*s;
	const struct commit	*c;
	struct classify		 cl;
	long			 idx;
	size_t			 i;

	sh = xcalloc(1, sizeof(*sh));
	sh->show = xstrdup_null(ep->show);
	sh->repository = xstrdup(ep->repository != NULL ? ep->repository :
	    day->repo);
	sh->date = xstrdup_null(ep->date);
	sh->counts = ep->stats;
	sh->focus = xstrdup_null(ep->focus);
	sh->draft = xstrdup(ep->transcript != NULL ? ep->transcript : "");
	sh->stories = xcalloc(ep->nwork + 1, sizeof(*sh->stories));
	for (i = 0; i < ep->nwork; i++) {
		const struct episode_work *w = &ep->work[i];

		s = &sh->stories[sh->nstories++];
		xasprintf(&s->id, "s%zu", i + 1);
		s->sha = xstrdup(w->sha);
		s->what = xstrdup(w->what != NULL ? w->what : "");
		s->bot = w->bot;
		s->kind = "change";
		c = NULL;
		if ((idx = day_find_commit(day, w->sha)) >= 0)
			c = &day->commits[idx];
		if (c == NULL)
			continue;
		classify_commit(c, day->repo, &cl);
		s->kind = classify_kind_name(cl.kind);
		classify_clear(&cl);
		if (!w->bot) {
			sheet_person_add(s, w->name, c->author_login,
			    SHEET_AUTHOR);
			sheet_list_add(&sh->people, &sh->npeople, w->name);
			sheet_list_add(&sh->people, &sh->npeople,
			    c->author_login);
		}
		if (c->revert.is_revert) {
			s->is_revert = 1;
			s->revert_of = xstrdup(w->what != NULL ? w->what : "");
			if (c->revert.reason != NULL &&
			    c->revert.reason[0] != '\0' && !c->revert.automatic)
				s->revert_reason = xstrdup(c->revert.reason);
			s->revert_automatic = c->revert.automatic;
			s->required = 1;
		}
	}
	return sh;
}

char *
sheet_json(const struct sheet *sh)
{
	json_t	*j, *stories, *o, *people;
	char	*out;
	size_t	 i, k;

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
	for (i = 0; i < sh->nstories; i++) {
		const struct sheet_story *s = &sh->stories[i];

		o = json_pack("{s:s, s:s, s:s}", "id", s->id, "kind", s->kind,
		    "what", s->what);
		if (s->bot)
			json_object_set_new(o, "by_a_bot", json_true());
		people = json_array();
		for (k = 0; k < s->npeople; k++)
			json_array_append_new(people, json_string(
			    s->people[k].name != NULL ? s->people[k].name :
			    s->people[k].login));
		json_object_set_new(o, "people", people);
		if (s->is_revert)
			json_object_set_new(o, "revert", json_pack("{s:s, s:o}",
			    "took_out", s->revert_of, "reason",
			    s->revert_reason != NULL ?
			    json_string(s->revert_reason) : json_null()));
		json_array_append_new(stories, o);
	}
	json_object_set_new(j, "stories", stories);
	people = json_array();
	for (i = 0; i < sh->npeople; i++)
		json_array_append_new(people, json_string(sh->people[i]));
	json_object_set_new(j, "people", people);
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
