/*
 * idlekit validate --builtin cyclictest: rt-tests' cyclictest, a timer latency measurement
 * of its own.  cyclictest runs --tasks measurement threads, thread i pinned to CPU i, each
 * woken every --period by an absolute clock_nanosleep, as normal tasks (--policy=other:
 * the task's timer slack applies, as to the periodic model's) and without tuning the
 * machine (--default-system: it leaves /dev/cpu_dma_latency alone, which by default it
 * sets to 0, keeping every CPU out of its idle states).  Its own histogram (one bucket per
 * microsecond, up to 100 ms; the overflows counted above it) is the wake-up latency: how
 * late each thread ran after its timer's time.  The window opens once its threads exist
 * and lasts --duration, as cyclictest's -D counts; the histogram holds its whole run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "validate/validate.h"
#include "util/errmsg.h"

#define HIST_MAX_US 100000 /* cyclictest's -h: buckets 0..this, the rest overflows */

int ik__val_cyclictest_hist(FILE *f, const char *path, struct ik_val_sample *s,
			   uint64_t *cycles, char *err, size_t errlen)
{
	uint64_t *count = calloc(HIST_MAX_US + 2, sizeof(uint64_t)), total = 0;
	char line[4096];
	int rc = 0, lineno = 0;
	if (!count)
		return ik__errmsg(err, errlen, "out of memory");
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		char *p = line, *end;
		if (strncmp(line, "# Histogram Overflows:", 22) == 0) {
			p = line + 22;
			for (;;) {
				unsigned long long v = strtoull(p, &end, 10);
				if (end == p)
					break;
				count[HIST_MAX_US + 1] += v; /* (wraps only past 2^64 samples) */
				p = end;
			}
			continue;
		}
		if (line[0] == '#' || line[0] == '\n')
			continue;
		unsigned long long us = strtoull(p, &end, 10);
		if (end == p || us > HIST_MAX_US) {
			line[strcspn(line, "\n")] = '\0';
			ik__errmsg_one_line(line); /* one line, printable */
			snprintf(err, errlen, "%s:%d: expected a histogram line 'USEC COUNT...' "
				 "(USEC up to %d), got '%.60s'", path, lineno, HIST_MAX_US, line);
			rc = -1;
			break;
		}
		for (p = end;;) {
			unsigned long long v = strtoull(p, &end, 10);
			if (end == p)
				break;
			count[us] += v;
			p = end;
		}
	}
	for (int i = 0; rc == 0 && i <= HIST_MAX_US + 1; i++)
		total += count[i];
	if (rc == 0 && total > 0) {
		uint64_t seen = 0, want50 = (total + 1) / 2, want99 = (total * 99 + 99) / 100;
		bool have50 = false;
		for (int i = 0; i <= HIST_MAX_US + 1; i++) {
			seen += count[i];
			if (!have50 && seen >= want50) {
				s->wake_p50_us = i;
				have50 = true;
			}
			if (seen >= want99) {
				s->wake_p99_us = i;
				break;
			}
		}
		s->have_wake = true;
	}
	*cycles = total;
	free(count);
	return rc;
}

int ik__val_cyclictest_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
			  const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
			  size_t errlen)
{
	char outfile[2200], histfile[2200], a_interval[32], a_threads[16], a_cpus[32], a_dur[32],
		a_hist[32], a_histfile[2300];

	snprintf(outfile, sizeof(outfile), "%s/cyclictest-%d.out", spec->tmpdir, run + 1);
	snprintf(histfile, sizeof(histfile), "%s/cyclictest-%d.hist", spec->tmpdir, run + 1);
	snprintf(a_interval, sizeof(a_interval), "-i%" PRId64, spec->period_us);
	snprintf(a_threads, sizeof(a_threads), "-t%d", spec->tasks);
	if (spec->tasks > 1)
		snprintf(a_cpus, sizeof(a_cpus), "-a0-%d", spec->tasks - 1);
	else
		snprintf(a_cpus, sizeof(a_cpus), "-a0");
	snprintf(a_dur, sizeof(a_dur), "-D%" PRId64, spec->duration_ns / 1000000000);
	snprintf(a_hist, sizeof(a_hist), "-h%d", HIST_MAX_US);
	snprintf(a_histfile, sizeof(a_histfile), "--histfile=%s", histfile);
	char *argv[] = { (char *)"cyclictest", (char *)"-q", a_threads, a_cpus, a_interval, a_dur,
			 a_hist, a_histfile, (char *)"--policy=other", (char *)"--default-system",
			 NULL };
	pid_t pid = ik__val_spawn("cyclictest", argv, outfile, err, errlen);
	if (pid < 0)
		return -1;
	/* its threads: the main one and one per measurement thread */
	int64_t t0, t1;
	int rc = ik__val_program_window("cyclictest", pid, 1 + spec->tasks, 30000000000LL,
				       spec->duration_ns, outfile, fs, hooks, s, &t0, &t1, err, errlen);
	uint64_t cycles = 0;
	if (rc == 0) {
		FILE *hf = fopen(histfile, "r");
		if (!hf)
			snprintf(err, errlen, "%s: %s (cyclictest wrote no histogram)", histfile,
				 strerror(errno));
		if (!hf || ik__val_cyclictest_hist(hf, histfile, s, &cycles, err, errlen)) {
			ik__val_sample_free(s);
			rc = -1;
			if (hf)
				fclose(hf);
		} else {
			fclose(hf);
			s->have_throughput = true;
			s->throughput_name = "activations/s";
			/* the histogram holds the whole run, its -D, not only the window */
			s->throughput = (double)cycles / ((double)spec->duration_ns / 1e9);
		}
	}
	return rc;
}
