/*
 * Synthetic days for the drafter's tests and benchmark: random but seeded,
 * so a failure reproduces. Many authors (some with non-ASCII names), bots,
 * reverts with and without their originals in the day, re-lands, series
 * "[k/n]", conventional commits, numbers in bodies, empty bodies, settings,
 * URLs, e-mail addresses and shas that must never be read aloud.
 *
 * Static inline so each includer uses what it needs without warnings.
 */
#ifndef HOOKCAST_GEN_DAY_H
#define HOOKCAST_GEN_DAY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "day.h"
#include "record.h"
#include "xmalloc.h"

/* People a generated day may name; a day uses some of them. */
static const char *const gen_people[] = {
	"Ada Lovelace", "Grace Hopper", "Linus Torvalds", "Zoë Ångström",
	"José Núñez", "Łukasz Żółć", "李雷", "Søren Kierkegaard",
	"Margaret Hamilton", "Ken Thompson", "Dennis Ritchie",
	"Barbara Liskov", "Edsger Dijkstra", "Frances Allen", "Niklaus Wirth",
	"Radia Perlman", "Anita Borg", "Donald Knuth", "Hedy Lamarr",
	"Alan Kay", "Jean Bartik", "Karen Spärck Jones", "Guido Rossum",
	"Bjarne Stroustrup", "Yukihiro Matsumoto", "Çağla Öztürk",
	"Nguyễn Văn An", "Αλέξης Παππάς", "Ольга Иванова", "Mary Kenneth",
};
#define GEN_NPEOPLE (sizeof gen_people / sizeof gen_people[0])

static const char *const gen_bots[] = {
	"dependabot[bot]", "renovate[bot]", "github-actions[bot]",
	"pytorchmergebot",
};

static const char *const gen_areas[] = {
	"inductor", "dynamo", "cuda", "xpu", "docs", "setopt", "http",
	"vtls", "quantization", "sparsity", "build", "tests",
};

static const char *const gen_things[] = {
	"the attention kernel", "batch norm folding", "the retry delay",
	"cache eviction", "the memory allocator", "error messages",
	"header parsing", "the connection pool", "int8 matmul",
	"the tokenizer", "graph breaks", "lazy imports", "TLS session reuse",
	"the scheduler", "proxy credentials", "the benchmark harness",
};

struct gen {
	uint64_t	 s;
	size_t		 npeople;	/* how many of gen_people this day uses */
	size_t		 people_off;
};

static inline uint64_t
gen_next(struct gen *g)
{
	uint64_t	z = (g->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline size_t
gen_below(struct gen *g, size_t n)
{
	return n == 0 ? 0 : (size_t)(gen_next(g) % n);
}

#define GEN_PICK(g, v) ((v)[gen_below(g, sizeof (v) / sizeof (v)[0])])

static inline char *
gen_sha(struct gen *g)
{
	char		*s = xmalloc(41);
	uint64_t	 r = 0;
	int		 i;

	for (i = 0; i < 40; i++) {
		if (i % 16 == 0)
			r = gen_next(g);
		s[i] = "0123456789abcdef"[r & 15];
		r >>= 4;
	}
	s[40] = '\0';
	return s;
}

/* Whether name is one of the day's people (by index). */
static inline const char *
gen_person(struct gen *g)
{
	return gen_people[(g->people_off + gen_below(g, g->npeople)) %
	    GEN_NPEOPLE];
}

/* A login from a name: ASCII letters lowercased, others dropped. */
static inline char *
gen_login(const char *name)
{
	char	*l = xmalloc(strlen(name) + 8), *q = l;

	for (; *name != '\0'; name++) {
		if ((*name >= 'A' && *name <= 'Z'))
			*q++ = (char)(*name - 'A' + 'a');
		else if (*name >= 'a' && *name <= 'z')
			*q++ = *name;
		else if (*name == ' ')
			*q++ = '-';
	}
	if (q == l || q[-1] == '-')
		q += sprintf(q, "dev%u", (unsigned)strlen(name));
	*q = '\0';
	return l;
}

/* A body: empty, prose with figures, bullets, trailers and noise. */
static inline void
gen_body(struct gen *g, struct buf *b, const char *thing)
{
	static const char *const figs[] = { "1.7x", "35%", "2.5 GB", "120 ms",
	    "3x", "12.5%", "640 MB" };
	switch (gen_below(g, 6)) {
	case 0:
		return;
	case 1:
		buf_printf(b, "This makes %s %s faster on large inputs and "
		    "saves %s of memory. See https://example.com/bench/%u for "
		    "the numbers.\n\n", thing, GEN_PICK(g, figs),
		    GEN_PICK(g, figs), (unsigned)gen_below(g, 9000));
		break;
	case 2:
		buf_printf(b, "Summary:\n- Add a fast path for %s\n- Remove "
		    "the old fallback\n\nTest Plan:\npytest test/x.py -k "
		    "fast\n", thing);
		break;
	case 3:
		buf_printf(b, "Users can now set `HOOKGEN_%s_LIMIT=%u` to cap "
		    "it, or pass `--gen-limit-%u` on the command line.\n\n",
		    gen_below(g, 2) ? "CACHE" : "POOL",
		    (unsigned)gen_below(g, 64), (unsigned)gen_below(g, 9));
		break;
	case 4:
		buf_printf(b, "When %s was empty the daemon crashed at start "
		    "(issue #%u). Reported by someone@example.org, bisected "
		    "to deadbeef1234.\n\n```\nstack trace 0x7fff1234\n```\n",
		    thing, (unsigned)gen_below(g, 50000));
		break;
	default:
		buf_printf(b, "It handles %u edge cases the old code missed "
		    "and cuts %u allocations per call.\n\n",
		    (unsigned)(2 + gen_below(g, 40)),
		    (unsigned)(2 + gen_below(g, 900)));
		break;
	}
	if (gen_below(g, 2))
		buf_printf(b, "Pull Request resolved: https://github.com/o/r/"
		    "pull/%u\nApproved by: https://github.com/someone\n",
		    (unsigned)gen_below(g, 90000));
	if (gen_below(g, 3) == 0)
		buf_puts(b, "Signed-off-by: Someone <someone@example.com>\n");
}

/*
 * A day of n commits for "gen/repo", seeded. The caller pairs the reverts
 * (day_pair_reverts) and frees the day.
 */
static inline struct day *
gen_day(uint64_t seed, size_t n)
{
	struct gen	 g;
	struct day	*d;
	struct buf	 subj, body;
	struct commit	 c;
	size_t		 i, k, nprs;
	const char	*name, *thing, *area;
	char		*msg, *files[2];

	memset(&g, 0, sizeof g);
	g.s = seed * 7919 + 1;
	g.npeople = 1 + gen_below(&g, GEN_NPEOPLE - 4);
	g.people_off = gen_below(&g, GEN_NPEOPLE);
	d = day_new("gen/repo", (time_t)1775260800 + (time_t)(seed % 400) *
	    86400);
	d->end = d->start + 86400;
	buf_init(&subj);
	buf_init(&body);
	for (i = 0; i < n; i++) {
		long	 target = -1;
		int	 bot = gen_below(&g, 8) == 0;

		buf_reset(&subj);
		buf_reset(&body);
		thing = GEN_PICK(&g, gen_things);
		area = GEN_PICK(&g, gen_areas);
		name = bot ? GEN_PICK(&g, gen_bots) : gen_person(&g);
		if (bot) {
			buf_printf(&subj, "Bump lib%s from %u.%u.%u to %u.%u.%u",
			    area, (unsigned)gen_below(&g, 9),
			    (unsigned)gen_below(&g, 20), (unsigned)i % 50,
			    (unsigned)gen_below(&g, 9), 1 +
			    (unsigned)gen_below(&g, 20), (unsigned)i % 50 + 1);
		} else if (i > 0 && (k = gen_below(&g, 14)) < 3) {
			/* a revert, a re-land, or a revert of earlier work */
			target = (long)gen_below(&g, i);
			if (k == 0) {
				buf_printf(&subj, "Revert \"%s\"",
				    d->commits[target].subject);
				buf_printf(&body, "This reverts commit %s.\n\n",
				    d->commits[target].sha);
				switch (gen_below(&g, 4)) {
				case 0:
					buf_puts(&body, "It broke the build "
					    "on macOS.\n");
					break;
				case 1:
					buf_printf(&body, "Reverted https://"
					    "github.com/o/r/pull/%u on behalf "
					    "of https://github.com/%s due to "
					    "breaking internal builds ([comment]"
					    "(https://github.com/o/r/pull/1#c))"
					    "\n", (unsigned)(1000 + i),
					    "pytorch-auto-revert");
					break;
				case 2:
					buf_printf(&body, "Reverted https://"
					    "github.com/o/r/pull/%u on behalf "
					    "of https://github.com/%s due to "
					    "Reverted automatically by the "
					    "autorevert ([comment](https://"
					    "github.com/o/r/pull/1#c))\n",
					    (unsigned)(1000 + i),
					    "pytorch-auto-revert");
					break;
				default:
					break;
				}
			} else if (k == 1) {
				buf_printf(&subj, "Reapply \"%s\"",
				    d->commits[target].subject);
				buf_puts(&body, "Now with the missing guard.\n");
			} else {
				buf_printf(&subj, "Revert \"%s (#%u)\"",
				    thing, (unsigned)gen_below(&g, 9999));
				buf_puts(&body, "This reverts commit "
				    "0123456789abcdef0123456789abcdef01234567."
				    "\n");
				target = -1;
			}
		} else {
			switch (gen_below(&g, 9)) {
			case 0:
				buf_printf(&subj, "[%s] Add %s", area, thing);
				break;
			case 1:
				buf_printf(&subj, "[%u/%u] Speed up %s",
				    (unsigned)(1 + i % 5), 5u, thing);
				break;
			case 2:
				buf_printf(&subj, "feat(%s): support %s", area,
				    thing);
				break;
			case 3:
				buf_printf(&subj, "fix(%s): crash in %s", area,
				    thing);
				break;
			case 4:
				buf_printf(&subj, "docs: explain %s", thing);
				break;
			case 5:
				buf_printf(&subj, "%s: tidy up %s", area, thing);
				break;
			case 6:
				buf_printf(&subj, "Fix %s when it is empty "
				    "(#%u)", thing, (unsigned)gen_below(&g,
				    99999));
				break;
			case 7:
				buf_printf(&subj, "%s step %u: move %s", area,
				    (unsigned)(1 + gen_below(&g, 12)), thing);
				break;
			default:
				buf_printf(&subj, "ci: run %s on %u runners",
				    thing, (unsigned)(2 + gen_below(&g, 30)));
				break;
			}
			gen_body(&g, &body, thing);
		}
		memset(&c, 0, sizeof c);
		xasprintf(&msg, "%s\n\n%s", buf_str(&subj), buf_str(&body));
		commit_set_message(&c, msg);
		free(msg);
		c.sha = gen_sha(&g);
		c.author_name = xstrdup(name);
		c.author_login = bot ? xstrdup(name) : gen_login(name);
		c.author_email = xstrdup("dev@example.com");
		c.committer_name = xstrdup(name);
		c.timestamp = d->start + (time_t)i;
		c.branch = xstrdup("main");
		xasprintf(&files[0], "src/%s/file%u.c", area,
		    (unsigned)gen_below(&g, 40));
		c.nmodified = 1;
		if (gen_below(&g, 3) == 0) {
			xasprintf(&files[1], "test/%s/test_%u.py", area,
			    (unsigned)gen_below(&g, 40));
			c.nmodified = 2;
		}
		c.modified = record_list_dup(files, c.nmodified);
		free(files[0]);
		if (c.nmodified == 2)
			free(files[1]);
		revert_parse(c.subject, c.body, &c.revert);
		if (day_add_commit(d, &c) != 1)
			commit_clear(&c);
	}
	nprs = n / 3;
	for (i = 0; i < nprs; i++) {
		struct merged_pr pr;

		memset(&pr, 0, sizeof pr);
		pr.number = (long)(100 + i);
		xasprintf(&pr.title, "Improve %s", GEN_PICK(&g, gen_things));
		pr.author_login = gen_login(gen_person(&g));
		pr.merged_at = d->start + (time_t)i;
		if (day_add_pr(d, &pr) != 1)
			merged_pr_clear(&pr);
	}
	buf_free(&subj);
	buf_free(&body);
	return d;
}

/*
 * Whether a name of gen_people that is nobody's in the day appears in
 * text; returns it, or NULL.
 */
static inline const char *
gen_stranger(const struct day *d, const char *text)
{
	size_t	i, j;
	int	known;

	for (i = 0; i < GEN_NPEOPLE; i++) {
		if (strstr(text, gen_people[i]) == NULL)
			continue;
		known = 0;
		for (j = 0; j < d->ncommits && !known; j++) {
			if ((d->commits[j].author_name != NULL &&
			    strcmp(d->commits[j].author_name,
			    gen_people[i]) == 0) ||
			    (d->commits[j].committer_name != NULL &&
			    strcmp(d->commits[j].committer_name,
			    gen_people[i]) == 0))
				known = 1;
		}
		if (!known)
			return gen_people[i];
	}
	return NULL;
}

#endif
