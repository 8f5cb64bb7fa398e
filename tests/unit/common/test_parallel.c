/* parallel_for: every index once, on the threads asked, in order on one. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "parallel.h"

#define N	1000

struct seen {
	atomic_int	 count[N];
	size_t		 order[N];	/* on one thread: the calls in turn */
	atomic_size_t	 calls;
	pthread_t	 self;
	atomic_int	 others;	/* calls on a thread not the caller's */
};

static void
mark(void *arg, size_t i)
{
	struct seen	*s = arg;
	size_t		 k = atomic_fetch_add(&s->calls, 1);

	atomic_fetch_add(&s->count[i], 1);
	if (k < N)
		s->order[k] = i;
	if (!pthread_equal(pthread_self(), s->self))
		atomic_fetch_add(&s->others, 1);
	/* long enough that the other threads take some */
	for (volatile int spin = 0; spin < 20000; spin++)
		;
}

static void
run(struct seen *s, size_t n, int threads)
{
	size_t	i;

	memset(s, 0, sizeof(*s));
	s->self = pthread_self();
	parallel_for(n, threads, mark, s);
	assert_int_equal(atomic_load(&s->calls), n);
	for (i = 0; i < n; i++)
		assert_int_equal(atomic_load(&s->count[i]), 1);
}

static void
test_each_index_once(void **state)
{
	static struct seen	s;
	int			t;

	(void)state;
	for (t = 0; t <= 6; t++) {
		run(&s, N, t);
		run(&s, 3, t);
		run(&s, 0, t);
	}
}

static void
test_one_thread_in_order(void **state)
{
	static struct seen	s;
	size_t			i;

	(void)state;
	run(&s, N, 1);
	for (i = 0; i < N; i++)
		assert_int_equal(s.order[i], i);
	assert_int_equal(atomic_load(&s.others), 0);
}

static void
test_several_threads_share(void **state)
{
	static struct seen	s;

	(void)state;
	/* four threads asked: others than the caller take some */
	run(&s, N, 4);
	assert_true(atomic_load(&s.others) > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_index_once),
		cmocka_unit_test(test_one_thread_in_order),
		cmocka_unit_test(test_several_threads_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
