/*
 * Load for a trace with IPIs sent to a mask of CPUs (ipi:ipi_send_cpumask), for the
 * committed recording tests/fixtures/traces/trace-cmd-ipimask.dat (README there): the
 * kernel sends one IPI to a mask only when two or more other CPUs need it
 * (smp_call_function_many_cond), so it needs at least 3 CPUs.  The main thread (CPU 0)
 * calls membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) (an IPI to every CPU running one of
 * its threads) and flips a page's protection (a TLB shootdown to the CPUs using the mm)
 * every millisecond; one thread on each other CPU spins 300 us and sleeps 700 us, so they
 * are sometimes running (targets of both) and sometimes idle.
 *
 *   cc -O2 -static -pthread -o ipimask-load ipimask-load.c; ./ipimask-load MS
 * (built and run by scripts/ipimask-vm/record, in a 4-CPU guest)
 */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static char *page;

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static void *worker(void *arg)
{
	pin((int)(intptr_t)arg);
	while (!stop) {
		int64_t end = now_ns() + 300000;
		while (now_ns() < end)
			page[64] = 1; /* uses the mm: a TLB shootdown target */
		struct timespec t = { 0, 700000 };
		nanosleep(&t, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int ms = argc > 1 ? atoi(argv[1]) : 1000;
	int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t t[64];

	pin(0);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 1;
	page[0] = 1;
	syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
	for (int c = 1; c < cpus && c < 64; c++)
		pthread_create(&t[c], NULL, worker, (void *)(intptr_t)c);
	int64_t end = now_ns() + (int64_t)ms * 1000000;
	while (now_ns() < end) {
		syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
		mprotect(page, 4096, PROT_READ);
		mprotect(page, 4096, PROT_READ | PROT_WRITE);
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	stop = 1;
	for (int c = 1; c < cpus && c < 64; c++)
		pthread_join(t[c], NULL);
	return 0;
}
