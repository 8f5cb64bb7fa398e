/*
 * libFuzzer target: a model's reply through fence_check(), cleaned as the
 * daemon cleans it (record_clean, then fence_normalize's NFKC). Input
 * "DRAFT\fREPLY" fences the reply with that draft as the facts; without
 * a form feed a fixed draft is. Every verdict is accepted or a reason of
 * fence_reasons, with a detail exactly when refused; the reply as it came
 * (not NFKC) is checked too, and is refused unless it was NFKC already.
 *
 * Then the same reply through fence_judge() with the fence of a small
 * sheet made by hand (fence_of_sheet): stories with people, a figure, a
 * version, a revert with its reason, a bot's; so the sentence splitter,
 * the matching of sentences to stories and the repair that drops a
 * sentence are fuzzed too. With a form feed, the input's draft is the
 * sheet's. A verdict is text or a refusal, never both; a refusal has a
 * reason of fence_reasons and a detail; each dropped sentence has a
 * reason of fence_reasons.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fence.h"
#include "record.h"
#include "sheet.h"

#define FUZZ_DRAFT \
	"Hello and welcome to widget, this June 30th, 2026. Eleven commits " \
	"landed from three people today. Ada Lovelace made the parser 1.7x " \
	"faster. Grace Hopper's change to the cache was rolled back. The " \
	"reason given: \"It broke the nightly build.\" Today's Focus: set " \
	"WIDGET_CACHE=off to try the new path. I'll catch you tomorrow."

#define FUZZ_SHEET_DRAFT \
	"Hello and welcome to widget. Nine commits landed from four people " \
	"today. Ada Lovelace made the parser 1.7x faster on large files, in " \
	"pull request 7741. Grace Hopper added a write-back cache, but it " \
	"was reverted by Alan Turing at Ada Lovelace's request. The reason " \
	"given: \"It broke the nightly build on big-endian hosts.\" Linus " \
	"Torvalds released Widget 2.4.0 in pull request 7757. A bot bumped " \
	"libfoo from 1.2.0 to 1.3.0. Today's Focus: set WIDGET_CACHE=off. " \
	"I'll catch you tomorrow."

static struct sheet_person fuzz_ada[] = {
	{ "Ada Lovelace", "ada", SHEET_AUTHOR },
};
static struct sheet_person fuzz_grace[] = {
	{ "Grace Hopper", "ghopper", SHEET_AUTHOR },
};
static struct sheet_person fuzz_alan[] = {
	{ "Alan Turing", "aturing", SHEET_REVERTER },
	{ "Ada Lovelace", "ada", SHEET_REQUESTER },
};
static struct sheet_person fuzz_linus[] = {
	{ "Linus Torvalds", "torvalds", SHEET_AUTHOR },
};
static struct sheet_figure fuzz_speedup[] = {
	{ "1.7x", "parser faster on large files" },
};
static char *fuzz_release[] = { "2.4.0" };
static char *fuzz_bump[] = { "1.2.0", "1.3.0" };
static char *fuzz_setting[] = { "WIDGET_CACHE=off" };
static char *fuzz_people[] = {
	"Ada Lovelace", "ada", "Grace Hopper", "ghopper", "Alan Turing",
	"aturing", "Linus Torvalds", "torvalds",
};
static char *fuzz_bots[] = { "dependabot[bot]", "Dependabot" };
static struct sheet_story fuzz_stories[] = {
	{ .id = "s1", .kind = "performance", .pr = 7741,
	    .what = "make the parser 1.7x faster on large files",
	    .area = "parser", .people = fuzz_ada, .npeople = 1,
	    .figures = fuzz_speedup, .nfigures = 1, .required = 1,
	    .lead = 1 },
	{ .id = "s2", .kind = "feature", .pr = 7750,
	    .what = "add a write-back cache", .area = "cache",
	    .people = fuzz_grace, .npeople = 1, .reverted = 1 },
	{ .id = "s3", .kind = "revert", .pr = 7752,
	    .what = "revert the write-back cache", .area = "cache",
	    .people = fuzz_alan, .npeople = 2, .settings = fuzz_setting,
	    .nsettings = 1, .is_revert = 1,
	    .revert_of = "add a write-back cache",
	    .revert_reason = "It broke the nightly build on big-endian hosts",
	    .required = 1 },
	{ .id = "s4", .kind = "change", .pr = 7757, .what = "Widget 2.4.0",
	    .people = fuzz_linus, .npeople = 1, .versions = fuzz_release,
	    .nversions = 1 },
	{ .id = "s5", .kind = "dependencies",
	    .what = "bump libfoo from 1.2.0 to 1.3.0", .bot = 1,
	    .versions = fuzz_bump, .nversions = 2 },
};

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A reason of fence_reasons, or abort. */
static void
fuzz_reason(const char *why)
{
	size_t	i;

	for (i = 0; fence_reasons[i] != NULL; i++)
		if (strcmp(fence_reasons[i], why) == 0)
			return;
	abort();
}

/* Judge reply with the fence of the sheet, its draft draft. */
static void
fuzz_judge(const char *draft, const char *reply)
{
	struct sheet		 sh;
	struct fence		*f;
	struct fence_verdict	 v;
	size_t			 i;

	memset(&sh, 0, sizeof(sh));
	sh.show = "widget";
	sh.repository = "acme/widget";
	sh.date = "2026-06-30";
	sh.counts.commits = 9;
	sh.counts.merged_prs = 5;
	sh.counts.reverts = 1;
	sh.counts.authors = 4;
	sh.focus = "WIDGET_CACHE=off";
	sh.draft = (char *)draft;
	sh.stories = fuzz_stories;
	sh.nstories = sizeof(fuzz_stories) / sizeof(fuzz_stories[0]);
	sh.people = fuzz_people;
	sh.npeople = sizeof(fuzz_people) / sizeof(fuzz_people[0]);
	sh.bots = fuzz_bots;
	sh.nbots = sizeof(fuzz_bots) / sizeof(fuzz_bots[0]);
	f = fence_of_sheet(&sh);
	fence_judge(f, reply, &v);
	if ((v.refused == NULL) == (v.text == NULL))
		abort();
	if (v.refused != NULL) {
		fuzz_reason(v.refused);
		if (v.detail == NULL)
			abort();
	}
	for (i = 0; i < v.ndropped; i++) {
		if (v.dropped[i].sentence == NULL)
			abort();
		fuzz_reason(v.dropped[i].reason);
	}
	fence_verdict_clear(&v);
	if (v.refused != NULL || v.text != NULL || v.ndropped != 0)
		abort();
	fence_free(f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const people[] = { "Ada Lovelace", "Grace Hopper" };
	static const char *const bots[] = { "dependabot[bot]", "Dependabot" };
	static const struct fence_revert reverts[] = {
		{ "change to the cache", "It broke the nightly build", 0 },
	};
	struct fence_facts	 facts;
	struct fence		*f;
	const char		*why, *draft = FUZZ_SHEET_DRAFT;
	char			*text, *reply, *ff, *detail, *norm;

	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&facts, 0, sizeof(facts));
	facts.draft = FUZZ_DRAFT;
	facts.focus = "WIDGET_CACHE=off";
	reply = text;
	if ((ff = memchr(text, '\f', size)) != NULL) {
		*ff = '\0';
		facts.draft = draft = text;
		facts.focus = NULL;
		reply = ff + 1;
	}
	record_clean(reply, RECORD_CLEAN_LINES);
	facts.people = people;
	facts.npeople = 2;
	facts.bots = bots;
	facts.nbots = 2;
	facts.reverts = reverts;
	facts.nreverts = 1;
	f = fence_new(&facts);
	/* record_clean leaves valid UTF-8, which has a normal form */
	if ((norm = fence_normalize(reply)) == NULL)
		abort();
	why = fence_check(f, reply, &detail);
	if ((why == NULL) != (detail == NULL))
		abort();
	if (why == NULL && strcmp(norm, reply) != 0)
		abort();
	free(detail);
	why = fence_check(f, norm, &detail);
	if ((why == NULL) != (detail == NULL))
		abort();
	if (why != NULL)
		fuzz_reason(why);
	free(detail);
	fuzz_judge(draft, norm);
	free(norm);
	fence_free(f);
	free(text);
	return 0;
}
