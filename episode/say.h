/*
 * The pronunciation pass: what a voice says for a sentence of a
 * transcript, apart from what is written. The written sentence stays in
 * the .txt and the WebVTT cues; only the synthesiser hears this. Plain
 * functions over strings, no libevent, no jansson.
 */
#ifndef HOOKCAST_SAY_H
#define HOOKCAST_SAY_H

#include <stddef.h>

/* A person's written name and GitHub login (login may be NULL). */
struct say_name {
	const char	*name;
	const char	*login;
};

/*
 * What a voice says for one written sentence of a transcript (new
 * string, never NULL): the written text is kept in the .txt and the
 * WebVTT cues; this is only what is spoken. names: the episode's people.
 *
 * The sentence is spoken text already (spoken_clean). Here:
 *  - "<", "<=", ">", ">=" standing as operators are said "older than",
 *    "up to", "newer than", "at least", after the name they compare
 *    when one stands between them and a version ("for < c-ares 1.16.0"
 *    is "for c-ares older than one point sixteen point oh"); "->",
 *    "=>" are "to";
 *  - versions as a host says them: "v1.52.1" is "version one point
 *    fifty-two point one", "1.05" "one point oh five", "2.0.0-rc1"
 *    ends "release candidate one", "3.15.0a8" "alpha eight", "2.11+"
 *    "two point eleven or newer"; plain integers, dates and SHAs stay;
 *  - an identifier by its parts ("read_timeout" is "read timeout",
 *    "torch.compile" "torch dot compile", "src/foo.rs" "src slash foo
 *    dot rs", "spawnBlocking" "spawn Blocking", a word of capitals in
 *    one lowered unless an acronym: "CARGO_BUILD_WARNINGS" is "cargo
 *    build warnings", "CI" stays); a setting NAME=VALUE or
 *    --flag=value as "NAME set to VALUE". Past SAY_PARTS_MAX parts or
 *    SAY_NAME_MAX bytes, "the name shown in the show notes" and "the
 *    setting shown in the show notes";
 *  - a run of letters of no Latin script ("张三") that is, or is part
 *    of, a name in names is that person's login, or "a contributor" when
 *    the login is NULL or not Latin itself; any other such run goes;
 *  - emoji, pictographs, joiners, variation selectors and other symbols
 *    go, and markup left over ("*", "_" around words, "#", "|"); "&" is
 *    "and", "29%" "29 percent", "e.g." "for example", "i.e." "that
 *    is", "vs." "versus", "C++" "C plus plus", "#1234" "number 1234".
 * Single spaces, none at the ends. Bytes that are not UTF-8 go. The
 * result is at most SAY_GROWTH times the sentence plus SAY_SLACK bytes:
 * at that size the pass stops and the rest of the sentence follows as
 * it is.
 */
char	*say_sentence(const char *written, const struct say_name *names,
	    size_t nnames);

/*
 * What say_sentence leaves to the show notes of written: each name or
 * setting said "the name shown in the show notes" or "the setting
 * shown in the show notes", as written, in order (new, *nout of them;
 * NULL and 0 when none; free with strv_free of strlist.h). For the notes
 * to show the exact text.
 */
char	**say_notes(const char *written, size_t *nout);

/* Parts and bytes past which a name or setting is left to the notes. */
#define SAY_PARTS_MAX	6
#define SAY_NAME_MAX	40
/* The most the spoken form may grow: SAY_GROWTH x + SAY_SLACK bytes. */
#define SAY_GROWTH	8
#define SAY_SLACK	64

#endif
