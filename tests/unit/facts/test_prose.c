/*
 * Unit tests for facts/prose.c: a body's sentences told as reported
 * speech, one row per rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "prose.h"

struct prose_case {
	const char	*rule, *in, *want;
};

static void
prose_check(const struct prose_case *cases, size_t n)
{
	struct buf	b;
	size_t		i;

	for (i = 0; i < n; i++) {
		buf_init(&b);
		prose_sentences(&b, cases[i].in, 8);
		if (strcmp(buf_str(&b), cases[i].want) != 0)
			fail_msg("%s:\n  in   \"%s\"\n  got  \"%s\"\n  want "
			    "\"%s\"", cases[i].rule, cases[i].in, buf_str(&b),
			    cases[i].want);
		buf_free(&b);
	}
}

static void
test_reported(void **state)
{
	static const struct prose_case cases[] = {
		{ "every coordinated verb in the past",
		    "Add an explicit tracking knob and expose the sampled "
		    "latency through TaskMeta.",
		    "It added an explicit tracking knob and exposed the "
		    "sampled latency through TaskMeta." },
		{ "a list of verbs",
		    "Use the timestamp, reuse the histogram and preserve "
		    "grouped accounting.",
		    "It used the timestamp, reused the histogram and "
		    "preserved grouped accounting." },
		{ "every sentence, not only the first",
		    "Fix the leak. Drop the stale entry and delete the "
		    "remaining special cases.",
		    "It fixed the leak. It dropped the stale entry and "
		    "deleted the remaining special cases." },
		{ "\"where possible\" is no clause of its own",
		    "Reuse the timestamp where possible and preserve the "
		    "order.",
		    "It reused the timestamp where possible and preserved "
		    "the order." },
		{ "a verb inside a subordinate clause stays",
		    "Add a flag so that users can set it and use the cache.",
		    "It added a flag so that users can set it and use the "
		    "cache." },
		{ "a noun after \"and\" is no verb",
		    "Add retries and cache lookups.",
		    "It added retries and cache lookups." },
		{ "a conditional imperative: the clause after the verb",
		    "When building against CCCL 3.4 or newer, move ATen's "
		    "CUDA code over.",
		    "It moved ATen's CUDA code over when building against "
		    "CCCL 3.4 or newer." },
		{ "the clause goes before a closing list",
		    "When a transfer goes elsewhere, do not add the "
		    "following: client cert, client key.",
		    "With it, the code does not add the following when a "
		    "transfer goes elsewhere: client cert, client key." },
		/* issue #27: "It did not add" said the opposite (curl) */
		{ "do not: what the code does from now on",
		    "When a transfer goes against another origin than the "
		    "initial one, do not add the following to the ssl "
		    "configuration: client cert, client key, srp user/pass, "
		    "pinned key.",
		    "With it, the code does not add the following to the ssl "
		    "configuration when a transfer goes against another "
		    "origin than the initial one: client cert, client key, "
		    "srp user/pass, pinned key." },
		{ "don't, alone", "Don't retry on a 404.",
		    "With it, the code does not retry on a 404." },
		{ "a one-word opener goes after \"It\"",
		    "Otherwise, leave the existing creds in place.",
		    "It otherwise left the existing creds in place." },
		{ "words to the reader",
		    "Opt in via the unstable builder or the environment "
		    "variable.",
		    "It said you could opt in via the unstable builder or "
		    "the environment variable." },
		{ "a reader's verb with a cue",
		    "Set the knob to 3 to try it.",
		    "It said you could set the knob to 3 to try it." },
		{ "a conditional to the reader",
		    "If you need the old order, set the flag to 0.",
		    "It said that if you need the old order, you could set "
		    "the flag to 0." },
		{ "third person becomes past too",
		    "Adds a retry and exposes the delay.",
		    "It added a retry and exposed the delay." },
		{ "\"This commit\" is \"It\", in the past",
		    "This commit suppresses these warnings.",
		    "It suppressed these warnings." },
		{ "\"Also:\" goes, \"also\" stays",
		    "Also: rename the callback to match.",
		    "It also renamed the callback to match." },
		{ "\"Note that\"",
		    "Note that the cache is per thread.",
		    "It noted that the cache is per thread." },
		{ "the authors' voice is not the host's",
		    "We do require torch 2.11+ because our kernels need it.",
		    "The authors said they do require torch 2.11+ because "
		    "their kernels need it." },
		{ "a writer in lower case: their \"i\", their sentences",
		    "i think these options didn't have groups because "
		    "originally there weren't variants for them. now there "
		    "are, and they should be exclusive",
		    "The author said they think these options didn't have "
		    "groups because originally there weren't variants for "
		    "them. Now there are, and they should be exclusive." },
		{ "\"i've\" and \"me\" inside a sentence",
		    "it was pointed out to me that i've been using -q too "
		    "loosely. this is probably better",
		    "It was pointed out to them that they've been using -q too "
		    "loosely. This is probably better." },
		{ "an order to nu is what the change did",
		    "Ask nu for its autoload directories instead.",
		    "It asked nu for its autoload directories instead." },
		{ "\"I was\" is \"they were\"",
		    "Before this, I was seeing timeouts on every run.",
		    "Before this, they were seeing timeouts on every run." },
		{ "an index i and I/O are not the author",
		    "The loop now uses i as the index and skips I/O.",
		    "The loop now uses i as the index and skips I/O." },
		{ "an abbreviation in lower case ends no sentence",
		    "The parser had misc. bugs in its error paths.",
		    "The parser had misc. bugs in its error paths." },
		{ "\"we\" inside a sentence",
		    "It is stable now, so we no longer need the table.",
		    "It is stable now, so they no longer need the table." },
		{ "a noun-like verb opening the subject",
		    "Now inline placement wins over the other.",
		    "Now inline placement wins over the other." },
		{ "an aside in parentheses goes",
		    "Patterns are relative to the directory. (Arguably there are "
		    "other choices, but it's not clear to me.) Normally they "
		    "are not.",
		    "Patterns are relative to the directory. Normally they are "
		    "not." },
		{ "an aside of two sentences goes whole",
		    "Patterns are relative to the directory. (Arguably there are "
		    "other choices. But it's not clear to me.) Normally they "
		    "are not.",
		    "Patterns are relative to the directory. Normally they are "
		    "not." },
		{ "a sentence that lost its list goes",
		    "The fix is small. It changes the behavior so that:",
		    "The fix is small." },
		{ "a sentence ending on a pronoun stays",
		    "Nothing else depends on that.",
		    "Nothing else depends on that." },
		{ "a statement stays as it is",
		    "The reservation used n. Nothing needs the global order.",
		    "The reservation used n. Nothing needs the global order." },
		{ "a noun that is also a verb, not an imperative",
		    "Support for the old API is gone.",
		    "Support for the old API is gone." },
		{ "\"to\" before a noun is no infinitive",
		    "Bring the code closer to the man page and clarify the "
		    "names.",
		    "It brought the code closer to the man page and "
		    "clarified the names." },
		{ "\", and\" after a subordinate clause coordinates again",
		    "Drop the call so the default applies, and turn all "
		    "three examples into doctests.",
		    "It dropped the call so the default applies, and turned "
		    "all three examples into doctests." },
		{ "a verb before a preposition", "Replace with a clearer "
		    "description.", "It replaced with a clearer description." },
		{ "a plural noun before a verb is no third person",
		    "Loads become Acquire, stores Release.",
		    "Loads become Acquire, stores Release." },
		{ "a plural noun, a relative clause, its verb",
		    "Uploads that fail with 503 are now retried.",
		    "Uploads that fail with 503 are now retried." },
		{ "a third person before \"that\" with no plural verb",
		    "Fixes that bug in the parser.",
		    "It fixed that bug in the parser." },
		{ "a third person before a name",
		    "Adds Handle::current() for the runtime.",
		    "It added Handle::current() for the runtime." },
		{ "\"try_\" is no word to the reader",
		    "Add a section to the try_ methods.",
		    "It added a section to the try_ methods." },
		{ "a writer's \"we\" inside a quotation stays inside it",
		    "The error now reads \"we could not open the file\" "
		    "instead of a stack trace.",
		    "The error now reads \"we could not open the file\" "
		    "instead of a stack trace." },
		{ "and in curly quotes",
		    "The prompt now says \xe2\x80\x9cwe saved our work\xe2\x80"
		    "\x9d before it exits, so we know it did.",
		    "The prompt now says \xe2\x80\x9cwe saved our work\xe2\x80"
		    "\x9d before it exits, so they know it did." },
		{ "a/an by sound in a body sentence",
		    "Add a Inductor pass and an unit test.",
		    "It added an Inductor pass and a unit test." },
	};

	(void)state;
	prose_check(cases, sizeof cases / sizeof cases[0]);
}

static void
test_dropped(void **state)
{
	static const struct prose_case cases[] = {
		/* issue 27: the why of a change, once dropped as a fragment
		   (curl 2026-06-01, pip 2025-10-21) */
		{ "a purpose alone is the change's aim",
		    "To avoid a local .curlrc interfering with tests.",
		    "The aim: to avoid a local .curlrc interfering with "
		    "tests." },
		{ "\"In order to\" alone is the aim",
		    "In order to sync with its declaration.",
		    "The aim: to sync with its declaration." },
		{ "a reason alone is the change's reason",
		    "Because pip now uses flit_core as build backend.",
		    "The reason: pip now uses flit_core as build backend." },
		{ "a purpose among sentences",
		    "Fix the leak. To sync with its declaration. Keep the "
		    "order.",
		    "It fixed the leak. The aim: to sync with its "
		    "declaration. It kept the order." },
		/* near misses: what leans on a sentence it doesn't carry */
		{ "\"So that\" alone", "So that builds pass again.", "" },
		{ "\"Which\" alone", "Which was broken both in windows and "
		    "macos.", "" },
		{ "\"To\" and no verb", "To 4.2.", "" },
		{ "a purpose clause with a main clause stays",
		    "To sync with its declaration, rename the field.",
		    "It renamed the field to sync with its declaration." },
		{ "a reference", "See the docs for details.", "" },
		{ "an unknown verb: dropped, not pasted",
		    "Frobnicate the widget cache.", "" },
		{ "an unknown coordinated verb",
		    "Add the knob and frobnicate the widget.", "" },
		{ "an unknown verb after a clause",
		    "When idle, frobnicate the widget.", "" },
		{ "a heading run into its text is no imperative",
		    "Solution The bulk of it is upstream.",
		    "Solution The bulk of it is upstream." },
		{ "an adverb is no verb",
		    "Somehow this slipped past CI.",
		    "Somehow this slipped past CI." },
		{ "a statement with an unknown word stays",
		    "Frobnication of widgets was slow.",
		    "Frobnication of widgets was slow." },
		{ "two symbols: more than a listener follows",
		    "The reservation used length_adjustment, but the encoder "
		    "writes length_field_len bytes.", "" },
		{ "a member call and a path",
		    "Call data.len() from src/io_util.rs first.", "" },
		{ "one symbol is read",
		    "Keep spawn_blocking fast.", "It kept spawn_blocking fast." },
		{ "abbreviations and versions are no symbols",
		    "Use a pool, e.g. for 3.11 builds.",
		    "It used a pool, e.g. for 3.11 builds." },
		{ "a sentence leaning on a dropped one goes too",
		    "Every load on Notify::state used SeqCst. Therefore nothing "
		    "needs the global order.", "" },
		{ "a \"therefore\" inside, after a dropped one",
		    "The reservation used length_adjustment and "
		    "length_field_len. A positive one therefore under-reserved "
		    "by the adjustment.", "" },
		{ "leaning on a told sentence is fine",
		    "The loop waited forever. This means the server hung.",
		    "The loop waited forever. This means the server hung." },
		/* issue 27: code with brackets never goes on air */
		{ "a type with its parameters",
		    "The type is Tuple[int, str, bytes].", "" },
		{ "a call with its arguments",
		    "It now calls open(path, flags) once.", "" },
		{ "an index is read", "The reader skips a[0] now.",
		    "The reader skips a[0] now." },
		{ "a call of one argument is read", "It now calls len(x) "
		    "once.", "It now calls len(x) once." },
		{ "an aside in a sentence is no code", "The reader (and the "
		    "writer, too) skip it.", "The reader (and the writer, too) "
		    "skip it." },
		/* curl 2025-10-06: "Curlx get winapi error: accept DWORD
		   (was: int), move casts one level up the callstack." */
		{ "a list item led by code goes",
		    "curlx_get_winapi_error: accept DWORD (was: int), move "
		    "casts one level up the callstack.", "" },
		{ "a label of code with its brackets goes",
		    "Foo::bar(): take the lock once.", "" },
		{ "a word label stays", "sspi: bump some types to the "
		    "native ones.", "Sspi: bump some types to the native "
		    "ones." },
		/* issue 27: a pronoun's referent the listener never heard */
		{ "\"than that\" after a dropped sentence goes",
		    "The type is Tuple[int, str, bytes, float, Any, None]. A "
		    "tuple can have more items than that at runtime.", "" },
		{ "\"With both options set.\" after a dropped sentence goes",
		    "The check now honours follow_symlinks and dir_fd. With "
		    "both options set.", "" },
		{ "\"This shipped...\" after a dropped sentence goes",
		    "The buffer was read by ngx_http_parse_chunked and "
		    "ngx_http_read_discarded. This shipped in public releases "
		    "since 1.25.", "" },
		/* curl 2026-06-01: "To avoid hitting all lines in it." went
		   as a fragment (it is told as the aim now), and "It doesn't
		   happen in curl" was told with nothing for "it" to stand
		   for */
		{ "\"It ...\" after a dropped sentence goes",
		    "See the docs for details. It doesn't happen in curl at "
		    "the moment, but may happen in the future or in other "
		    "projects using this script.", "" },
		{ "\"They ...\" after a dropped sentence goes",
		    "The type is Tuple[int, str, bytes, float, Any, None]. "
		    "They are checked at runtime now.", "" },
		/* near misses: the same words with their referent told, or
		   no pronoun at all */
		{ "\"It ...\" after a told sentence stays",
		    "The script reads the word list. It doesn't happen in "
		    "curl at the moment.", "The script reads the word list. "
		    "It doesn't happen in curl at the moment." },
		{ "\"than that\" after a told sentence stays",
		    "The limit was ten items. A tuple can have more items than "
		    "that at runtime.", "The limit was ten items. A tuple can "
		    "have more items than that at runtime." },
		{ "\"than that of\" names a thing: stays",
		    "The old parser dropped fields. Its speed is higher than "
		    "that of the old one now.", "The old parser dropped fields. "
		    "Its speed is higher than that of the old one now." },
		{ "\"With\" opening a whole sentence stays",
		    "With both options set, the check follows links.",
		    "With both options set, the check follows links." },
		{ "a long sentence opening with \"With\" stays",
		    "Every load on Notify::state used SeqCst. With this release "
		    "the loader reads its config once.", "With this release "
		    "the loader reads its config once." },
		{ "the dense sentence goes, the plain one stays",
		    "Every load on Notify::state used SeqCst. Nothing needs the "
		    "global order.", "Nothing needs the global order." },
	};

	(void)state;
	prose_check(cases, sizeof cases / sizeof cases[0]);
}

/*
 * A story is never cut before its benefit: asked for one sentence, the
 * one after is told too when it says what the first one brings.
 */
static void
test_benefit(void **state)
{
	static const struct prose_case cases[] = {
		{ "\"This makes...\" comes with the sentence it follows",
		    "The epilogue ran as a second kernel before. This makes "
		    "small GEMMs 1.4x faster.", "The epilogue ran as a second "
		    "kernel before. This makes small GEMMs 1.4x faster." },
		{ "\"So...\" too", "The cache key left out the target. So "
		    "builds for two targets no longer collide.", "The cache "
		    "key left out the target. So builds for two targets no "
		    "longer collide." },
		/* near misses */
		{ "a detail leaning back is no benefit (nginx, 2024-05-28)",
		    "If conditions for sending any of these instructions never "
		    "happen, a decoder stream is not created at all. These "
		    "conditions include client not using the dynamic table.",
		    "If conditions for sending any of these instructions never "
		    "happen, a decoder stream is not created at all." },
		{ "a sentence of its own is not told past the count",
		    "The loop waited forever. The server hung.",
		    "The loop waited forever." },
		{ "\"This\" without a benefit verb", "The loop waited "
		    "forever. This was in 1.2 already.",
		    "The loop waited forever." },
		{ "a benefit of an untold sentence goes with it",
		    "Every load on Notify::state used SeqCst. This makes loads "
		    "cheaper.", "" },
	};
	struct buf	b;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_init(&b);
		prose_sentences(&b, cases[i].in, 1);
		if (strcmp(buf_str(&b), cases[i].want) != 0)
			fail_msg("%s:\n  got  \"%s\"\n  want \"%s\"",
			    cases[i].rule, buf_str(&b), cases[i].want);
		buf_free(&b);
	}
}

/*
 * prose_of across paragraphs: a paragraph's first sentence leaning on
 * the last one of the paragraph before goes when that one was not told.
 */
static void
test_paragraphs(void **state)
{
	static const struct prose_case cases[] = {
		{ "\"This shipped...\" after a dropped paragraph goes",
		    "The reader called ngx_http_parse_chunked and "
		    "ngx_http_read_discarded.\n\nThis shipped in public "
		    "releases since 1.25.\n", "" },
		{ "\"This shipped...\" after a told paragraph stays",
		    "The reader read past the end of a chunk.\n\nThis shipped "
		    "in public releases since 1.25.\n", "The reader read past "
		    "the end of a chunk. This shipped in public releases since "
		    "1.25." },
		{ "a plain paragraph after a dropped one stays",
		    "The reader called ngx_http_parse_chunked and "
		    "ngx_http_read_discarded.\n\nThe reader stops at the "
		    "chunk's end now.\n", "The reader stops at the chunk's end "
		    "now." },
	};
	size_t	 i;
	char	*got;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		got = prose_of(cases[i].in, "Fix the chunked reader", 4);
		if (strcmp(got, cases[i].want) != 0)
			fail_msg("%s:\n  got  \"%s\"\n  want \"%s\"",
			    cases[i].rule, got, cases[i].want);
		free(got);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reported),
		cmocka_unit_test(test_dropped),
		cmocka_unit_test(test_paragraphs),
		cmocka_unit_test(test_benefit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
