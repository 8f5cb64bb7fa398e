/* Work shared among threads (parallel.h). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>

#include "parallel.h"

struct parallel {
	void		 (*fn)(void *, size_t);
	void		  *arg;
	size_t		   n;
	atomic_size_t	   next;	/* the next index to take */
};

/* Take indices until none is left. */
static void *
parallel_run(void *arg)
{
	struct parallel	*p = arg;
	size_t		 i;

	while ((i = atomic_fetch_add(&p->next, 1)) < p->n)
		p->fn(p->arg, i);
	return NULL;
}

int
parallel_cpus(void)
{
	cpu_set_t	set;
	int		n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 &&
	    (n = CPU_COUNT(&set)) > 0)
		return n;
	return 1;
}

void
parallel_for(size_t n, int threads, void (*fn)(void *, size_t), void *arg)
{
	struct parallel	 p;
	pthread_t	 tid[PARALLEL_MAX];
	size_t		 k, nt, started = 0;

	if (threads <= 0)
		threads = parallel_cpus();
	nt = threads > PARALLEL_MAX ? PARALLEL_MAX : (size_t)threads;
	if (nt > n)
		nt = n;
	p.fn = fn;
	p.arg = arg;
	p.n = n;
	atomic_init(&p.next, 0);
	/* this thread is one of them */
	for (k = 1; k < nt; k++)
		if (pthread_create(&tid[started], NULL, parallel_run, &p) == 0)
			started++;
	parallel_run(&p);
	for (k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
}
