/*
 * Heap bytes the store keeps per accepted delivery beyond the commits it
 * adds: its dedup key and its push record (scripts/bench-journal). Each
 * delivery is a push of one commit already in the day, through
 * store_add and store_mark as webhook_accept calls them; mallinfo2 is
 * read before and after n of them (malloc's chunk overhead and the
 * tables' free slots included). Both what malloc keeps in its arena and
 * what it maps on its own count: the dedup index grows past malloc's
 * mmap threshold (as the day's push array and the dedup ring did before
 * they were kept in blocks), and counting the arena alone left such
 * tables out (it said 240 bytes where 387 were kept). Not a test: a
 * figure, which depends on where n falls against the tables' doublings:
 * run it at several.
 *
 *   bench_delivery [N]
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handler.h"
#include "store.h"
#include "xmalloc.h"

#define SHA	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

static void
bench_deliver(struct store *s, size_t i)
{
	struct handler_result	 res;
	char			*key, before[PUSH_HEX_LEN + 1];
	char			 after[PUSH_HEX_LEN + 1];
	size_t			 added;

	memset(&res, 0, sizeof(res));
	res.repo = xstrdup("bench/replay");
	res.default_branch = xstrdup("main");
	res.push = xcalloc(1, sizeof(*res.push));
	res.push->branch = xstrdup("main");
	snprintf(before, sizeof(before), "%040zx", i);
	snprintf(after, sizeof(after), "%040zx", i + 1);
	push_id_set(res.push->before, before);
	push_id_set(res.push->after, after);
	res.push->pusher = xstrdup("octocat");
	res.push->ncommits = 1;
	res.push->at = 1700000000 + (time_t)i;
	res.ncommits = 1;
	res.commits = xcalloc(1, sizeof(*res.commits));
	res.commits[0].sha = xstrdup(SHA);
	res.commits[0].subject = xstrdup("a change");
	res.commits[0].body = xstrdup("");
	res.commits[0].branch = xstrdup("main");
	if (store_add(s, &res, 0, &added) == -1) {
		fprintf(stderr, "bench_delivery: store_add failed\n");
		exit(1);
	}
	/* a hook id and a GUID, as GitHub's headers give them */
	xasprintf(&key, "1:%08zx-0000-4000-8000-%012zx", i, i);
	store_mark(s, key, res.push->at);
	free(key);
	handler_result_clear(&res);
}

int
main(int argc, char **argv)
{
	struct store		*s = store_new();
	struct store_limits	 lim = {
		.max_repositories = 10,
		.max_seen = 100000000,
		.max_commits_per_day = 100000000,
		.max_deliveries_per_day = 100000000,
		.max_open_bytes = (size_t)64 << 30,
	};
	struct mallinfo2	 before, after;
	size_t			 n = 100000, i;

	if (argc > 1)
		n = strtoul(argv[1], NULL, 10);
	if (n == 0)
		n = 1;
	store_set_limits(s, &lim);
	bench_deliver(s, 0);	/* the repository and its day exist */
	before = mallinfo2();
	for (i = 1; i <= n; i++)
		bench_deliver(s, i);
	after = mallinfo2();
	printf("memory per accepted delivery (dedup key + push record, "
	    "%zu deliveries): %.0f bytes\n", n,
	    (double)(after.uordblks + after.hblkhd - before.uordblks -
	    before.hblkhd) / (double)n);
	store_free(s);
	return 0;
}
