/*
 * Time to write journal records, the json_t way (jrecord_encode_*, then
 * json_dump_callback as the journal ran it) against the direct writers
 * (jrecord_write_*): a delivery's record for a push payload, and the
 * records of a day of 100,000 commits (compaction). Not a test: figures.
 *
 *   bench_jrecord PUSH.json [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "buf.h"
#include "day.h"
#include "handler.h"
#include "jrecord.h"
#include "xmalloc.h"

#define DAY_COMMITS	100000

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The whole of path, or NULL. */
static char *
read_whole(const char *path, size_t *len)
{
	FILE	*f;
	char	*p;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == -1 || (n = ftell(f)) < 0) {
		fclose(f);
		return NULL;
	}
	rewind(f);
	p = xmalloc((size_t)n + 1);
	if (fread(p, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(p);
		return NULL;
	}
	fclose(f);
	p[n] = '\0';
	*len = (size_t)n;
	return p;
}

/* json_dump_callback's sink, as the journal's was: into a buffer. */
static int
sink(const char *data, size_t n, void *arg)
{
	buf_append(arg, data, n);
	return 0;
}

/* The old way of the journal: build, dump, drop. */
static size_t
old_delivery(const struct handler_result *res, struct buf *b)
{
	json_t	*rec = jrecord_encode_delivery(res, "1:bench", 1);

	json_object_set_new(rec, "start", json_integer(0));
	buf_reset(b);
	json_dump_callback(rec, sink, b, JSON_COMPACT);
	json_decref(rec);
	return b->len;
}

static size_t
new_delivery(const struct handler_result *res, struct buf *b)
{
	buf_reset(b);
	jrecord_write_delivery(b, res, "1:bench", 1, 0);
	return b->len;
}

int
main(int argc, char **argv)
{
	struct handler_result	 res;
	struct day		 day;
	struct buf		 b, *nrecs = NULL;
	json_t			**orecs = NULL;
	char			*body, *cause = NULL;
	size_t			 len, i, n, on = 0, nn = 0, olen = 0, nlen = 0;
	double			 t0, told, tnew;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_jrecord PUSH.json [N]\n");
		return 1;
	}
	n = argc > 2 ? strtoul(argv[2], NULL, 10) : 2000;
	if ((body = read_whole(argv[1], &len)) == NULL) {
		fprintf(stderr, "bench_jrecord: cannot read %s\n", argv[1]);
		return 1;
	}
	memset(&res, 0, sizeof(res));
	if (push_scan(body, len, 0, &res, &cause) != HANDLER_OK) {
		fprintf(stderr, "bench_jrecord: %s\n", cause);
		return 1;
	}
	buf_init(&b);
	t0 = now();
	for (i = 0; i < n; i++)
		olen = old_delivery(&res, &b);
	told = (now() - t0) / (double)n;
	t0 = now();
	for (i = 0; i < n; i++)
		nlen = new_delivery(&res, &b);
	tnew = (now() - t0) / (double)n;
	printf("delivery record (%zu commits, %zu byte payload, %zu/%zu bytes):"
	    " json_t %.1f us, direct %.1f us (%.1fx)\n", res.ncommits, len,
	    olen, nlen, told * 1e6, tnew * 1e6, told / tnew);

	/* a day of the push's commits over and over, as compaction sees it */
	memset(&day, 0, sizeof(day));
	day.repo = res.repo;
	day.default_branch = res.default_branch;
	day.commits = xcalloc(DAY_COMMITS, sizeof(*day.commits));
	for (i = 0; i < DAY_COMMITS && res.ncommits > 0; i++)
		day.commits[i] = res.commits[i % res.ncommits];
	day.ncommits = res.ncommits > 0 ? DAY_COMMITS : 0;
	t0 = now();
	jrecord_encode_day(&day, &orecs, &on);
	for (i = 0; i < on; i++) {
		buf_reset(&b);
		json_dump_callback(orecs[i], sink, &b, JSON_COMPACT);
		json_decref(orecs[i]);
	}
	told = now() - t0;
	t0 = now();
	jrecord_write_day(&day, &nrecs, &nn);
	tnew = now() - t0;
	for (i = 0; i < nn; i++)
		buf_free(&nrecs[i]);
	printf("day of %zu commits (%zu records): json_t %.0f ms, direct "
	    "%.0f ms (%.1fx)\n", day.ncommits, nn, told * 1e3, tnew * 1e3,
	    told / tnew);
	free(orecs);
	free(nrecs);
	free(day.commits);
	buf_free(&b);
	handler_result_clear(&res);
	free(body);
	return 0;
}
