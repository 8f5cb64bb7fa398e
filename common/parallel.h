/*
 * Work shared among threads: fn(arg, i) for each i below n, each index
 * once, on up to a few threads. Whoever calls fn makes it safe to run
 * beside itself (each index its own output).
 */
#ifndef HOOKCAST_PARALLEL_H
#define HOOKCAST_PARALLEL_H

#include <stddef.h>

/* Threads at most, whatever the machine: drafting is short work. */
#define PARALLEL_MAX	4

/*
 * Run fn(arg, i) for i in [0, n) on up to threads threads (0: one per
 * CPU the process may run on, up to PARALLEL_MAX; 1: in this thread, in
 * order). Returns once every call has. A thread that can't be started
 * leaves its share to the others.
 */
void	parallel_for(size_t n, int threads, void (*fn)(void *, size_t),
	    void *arg);
/* The CPUs this process may run on (its affinity), at least 1. */
int	parallel_cpus(void);

#endif
