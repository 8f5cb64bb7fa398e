/*
 * Hand-made push payloads shared by test_push.c and test_push_scan.c (and
 * the push_scan fuzz target): a good push and one-change bad variants.
 */
#ifndef HOOKCAST_PUSH_CASES_H
#define HOOKCAST_PUSH_CASES_H

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "branch_names.h"

/*
 * Bad payloads: a good push with one change. path walks objects by key
 * and arrays by index ("commits.0.author"); value is JSON, or NULL to
 * delete the key.
 */
static const char good_push[] =
    "{\"ref\":\"refs/heads/main\","
    "\"before\":\"475f336306a7dbdac281cf4c603fecd1c8bf6747\","
    "\"after\":\"a823aa62e765cb4d05e6a92750548cba5bf4a5ba\","
    "\"created\":false,\"deleted\":false,\"forced\":true,"
    "\"pusher\":{\"name\":\"someone\",\"email\":\"s@example.com\"},"
    "\"repository\":{\"full_name\":\"o/r\",\"default_branch\":\"main\"},"
    "\"commits\":[{\"id\":\"a823aa62e765cb4d05e6a92750548cba5bf4a5ba\","
    "\"distinct\":true,\"message\":\"Fix it\\n\\nBody.\","
    "\"timestamp\":\"2026-02-12T11:59:16-08:00\","
    "\"author\":{\"name\":\"A\",\"email\":\"a@example.com\","
    "\"username\":\"a\"},"
    "\"committer\":{\"name\":\"C\",\"email\":\"c@example.com\"},"
    "\"added\":[\"x\"],\"removed\":[],\"modified\":[\"y\",\"z\"]},"
    "{\"id\":\"475f336306a7dbdac281cf4c603fecd1c8bf6747\","
    "\"distinct\":false,\"message\":\"Second\","
    "\"timestamp\":\"2026-02-12T20:00:00Z\","
    "\"author\":{\"name\":\"B\"}}]}";

static const struct {
	const char	*path;
	const char	*key;
	const char	*value;
	const char	*cause;
} bad_cases[] = {
	{ "", "repository", NULL, "repository: missing" },
	{ "", "repository", "[]", "repository: expected an object" },
	{ "repository", "full_name", NULL, "repository.full_name: missing" },
	{ "repository", "full_name", "7",
	    "repository.full_name: expected a string" },
	{ "repository", "full_name", "\"noslash\"", "repository.full_name: " },
	{ "repository", "full_name", "\"a/b/c\"", "repository.full_name: " },
	{ "repository", "full_name", "\"../x\"", "repository.full_name: " },
	{ "repository", "full_name", "\"o/..\"", "repository.full_name: " },
	{ "repository", "full_name", "\"o/r x\"", "repository.full_name: " },
	{ "repository", "default_branch", "1",
	    "repository.default_branch: expected a string" },
	{ "repository", "default_branch", "\"" BRANCH_OVER_CAP "\"",
	    BRANCH_DEFAULT_CAUSE },
	{ "", "ref", NULL, "ref: missing" },
	{ "", "ref", "null", "ref: expected a string" },
	{ "", "ref", "\"refs/heads/\"", "ref: empty branch name" },
	{ "", "ref", "\"refs/heads/" BRANCH_OVER_CAP "\"", BRANCH_REF_CAUSE },
	{ "", "before", "1", "before: expected a string" },
	{ "", "forced", "\"yes\"", "forced: expected a boolean" },
	{ "", "created", "1", "created: expected a boolean" },
	{ "", "pusher", "\"me\"", "pusher: expected an object" },
	{ "pusher", "name", "[]", "pusher.name: expected a string" },
	{ "", "commits", NULL, "commits: missing" },
	{ "", "commits", "{}", "commits: expected an array" },
	{ "commits", "0", "\"x\"", "commits[0]: expected an object" },
	{ "commits.0", "id", NULL, "commits[0].id: missing" },
	{ "commits.0", "id", "12", "commits[0].id: expected a string" },
	{ "commits.0", "id", "\"A823AA62E765CB4D05E6A92750548CBA5BF4A5BA\"",
	    "commits[0].id: expected a 40-hex" },
	{ "commits.0", "id", "\"a823aa6\"", "commits[0].id: expected a 40-hex" },
	{ "commits.1", "id", "\"475f336306a7dbdac281cf4c603fecd1c8bf6747x\"",
	    "commits[1].id: expected a 40-hex" },
	{ "commits.0", "message", NULL, "commits[0].message: missing" },
	{ "commits.0", "message", "false",
	    "commits[0].message: expected a string" },
	{ "commits.0", "timestamp", NULL, "commits[0].timestamp: missing" },
	{ "commits.0", "timestamp", "\"yesterday\"", "commits[0].timestamp: " },
	{ "commits.0", "timestamp", "\"2026-02-30T00:00:00Z\"",
	    "commits[0].timestamp: " },
	{ "commits.1", "author", NULL, "commits[1].author: missing" },
	{ "commits.0", "author", "\"A\"",
	    "commits[0].author: expected an object" },
	{ "commits.0.author", "name", NULL, "commits[0].author.name: missing" },
	{ "commits.0.author", "username", "3",
	    "commits[0].author.username: expected a string" },
	{ "commits.0", "committer", "1",
	    "commits[0].committer: expected an object" },
	{ "commits.0.committer", "name", NULL,
	    "commits[0].committer.name: missing" },
	{ "commits.0", "added", "\"x\"", "commits[0].added: expected an array" },
	{ "commits.0", "modified", "[\"ok\",2]",
	    "commits[0].modified[1]: expected a string" },
	{ "commits.1", "removed", "{}",
	    "commits[1].removed: expected an array" },
};

/* The json_t a dotted path names inside root (borrowed), or NULL. */
static inline json_t *
walk(json_t *root, const char *path)
{
	char	*copy, *part, *last = NULL;
	json_t	*j = root;

	if (*path == '\0')
		return root;
	copy = strdup(path);
	for (part = strtok_r(copy, ".", &last); part != NULL && j != NULL;
	    part = strtok_r(NULL, ".", &last)) {
		if (json_is_array(j))
			j = json_array_get(j, strtoul(part, NULL, 10));
		else
			j = json_object_get(j, part);
	}
	free(copy);
	return j;
}

#define NBAD_CASES	(sizeof(bad_cases) / sizeof(bad_cases[0]))

#endif
