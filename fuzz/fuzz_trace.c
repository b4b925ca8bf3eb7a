/*
 * Fuzz target: idle traces.  The input is the text of a trace; it must never crash, hang or
 * leak, and the outcome must be consistent:
 *   - the memory reader and the FILE reader (64 KiB chunks) agree on the return code, the
 *     message and the analysis;
 *   - lenient reading never fails on an event line (only on the header or a line of
 *     64 KiB or more);
 *   - an accepted trace written back by the writer reads back to the same events;
 *   - replay (menu) accepts whatever analyze accepted, and its counts add up; with energy
 *     on a platform with package deep states (and a package exit drawn) its energies are
 *     not negative, every period has its wake latency sample, and the deep
 *     time fits in the trace.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/scenario.h"
#include "trace/replay.h"

static int analyze_mem(const uint8_t *data, size_t size, bool lenient, bool file,
		       struct ik_trace_analysis *a, char *err, size_t errlen)
{
	struct ik_trace_reader *r;
	FILE *in = NULL;
	int rc;
	if (file) {
		in = fmemopen((void *)data, size ? size : 1, "r");
		if (!in)
			abort();
		if (!size)
			fgetc(in); /* fmemopen rejects size 0: read the byte away, then EOF */
		rc = ik__trace_open_file(in, "fuzz", lenient, &r, err, errlen);
	} else {
		rc = ik__trace_open_mem((const char *)data, size, "fuzz", lenient, &r, err, errlen);
	}
	if (rc == IK_TRACE_OK) {
		rc = ik__trace_analyze(r, a, err, errlen);
		ik__trace_close(r);
	}
	if (in)
		fclose(in);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ik_trace_analysis a, b;
	char e1[512], e2[512];
	if (size > (1u << 20))
		return 0;

	int rc1 = analyze_mem(data, size, false, false, &a, e1, sizeof(e1));
	int rc2 = analyze_mem(data, size, false, true, &b, e2, sizeof(e2));
	if (rc1 != rc2)
		abort();
	if (rc1 == IK_TRACE_OK) {
		if (a.events != b.events || memcmp(&a.all, &b.all, sizeof(a.all)) ||
		    memcmp(a.hist, b.hist, sizeof(a.hist)))
			abort();
		ik__trace_analysis_free(&a);
		ik__trace_analysis_free(&b);
	} else if (rc1 == IK_TRACE_EINPUT) {
		/* The message names the origin and, for the FILE reader, the same line (a line
		 * longer than the chunk is only an error there). */
		if (strncmp(e1, "fuzz", 4) != 0 || strncmp(e2, "fuzz", 4) != 0)
			abort();
	}

	/* Lenient: fails only where the strict header fails. */
	struct ik_trace_reader *r;
	int rl = ik__trace_open_mem((const char *)data, size, "fuzz", true, &r, e1, sizeof(e1));
	if (rl != IK_TRACE_OK)
		return 0;
	/* Write back what was read, read it again: the same events. */
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out || ik__trace_write_header(out, ik__trace_header(r)))
		abort();
	struct ik_trace_event ev;
	uint64_t n = 0;
	int rc;
	while ((rc = ik__trace_next(r, &ev, e1, sizeof(e1))) == IK_TRACE_OK) {
		if (ik__trace_write_event(out, &ev))
			abort();
		n++;
	}
	if (rc != IK_TRACE_EOF && !(rc == IK_TRACE_EINPUT && strstr(e1, "expected a line shorter")))
		abort(); /* lenient skips bad events, not over-long lines */
	struct ik_driver drv = ik__trace_header(r)->drivers[0].drv;
	ik__trace_close(r);
	fclose(out);
	struct ik_trace_reader *r2;
	if (ik__trace_open_mem(buf, len, "fuzz2", false, &r2, e2, sizeof(e2)))
		abort();
	uint64_t m = 0;
	while ((rc = ik__trace_next(r2, &ev, e2, sizeof(e2))) == IK_TRACE_OK)
		m++;
	if (rc != IK_TRACE_EOF || m != n)
		abort();
	ik__trace_close(r2);

	/* Replay the written-back trace with menu on the first driver's table. */
	if (ik__trace_open_mem(buf, len, "fuzz2", false, &r2, e2, sizeof(e2)))
		abort();
	struct ik_trace_replay_opts o = { .drv = &drv, .gov = ik_governor_find("menu") };
	struct ik_trace_replay rp;
	if (ik__trace_replay_run(r2, &o, &rp, e2, sizeof(e2)) == IK_TRACE_OK) {
		if (rp.compared + rp.wake_pending != rp.periods)
			abort();
		ik__trace_replay_free(&rp);
	}
	ik__trace_close(r2);

	/* Again with energy on a platform that has package deep states (Milan: CC6 gates the
	   core, pkg_idle_mw while every core of a package is in it): the package sweep too. */
	static struct ik_platform plat;
	static int plat_ok = -1;
	if (plat_ok < 0) {
		char perr[256];
		plat_ok = ik__platform_load("amd-zen3-milan", &plat, perr, sizeof(perr)) == 0;
		/* the package's exit drawn (Milan's own is 0): 1..50 us */
		plat.effects.pkg_exit_ns = (struct ik_dist){ .kind = IK_DIST_UNIFORM, .a_ns = 1000,
							      .b_ns = 50000 };
	}
	if (plat_ok && drv.state_count > 0 &&
	    ik__trace_open_mem(buf, len, "fuzz2", false, &r2, e2, sizeof(e2)) == 0) {
		struct ik_trace_cost_model cost = { .plat = &plat };
		for (int i = 0; i < drv.state_count; i++)
			cost.hw_state[i] = i < plat.state_count ? i : plat.state_count - 1;
		o.cost = &cost;
		int rrc = ik__trace_replay_run(r2, &o, &rp, e2, sizeof(e2));
		if (rrc != IK_TRACE_OK && strstr(e2, "internal error"))
			abort(); /* a package exit or a wake the replay could not decide */
		if (rrc == IK_TRACE_OK) {
			const struct ik_run_result *run = &rp.run;
			if (!(rp.package_j >= 0) || !(run->energy_j >= 0) || run->package_deep_ns < 0 ||
			    (rp.packages > 0 && run->package_deep_ns >
			     (int64_t)rp.packages * run->measured_ns))
				abort();
			/* every period's latency sample is in, the deferred ones too; the exits
			   drawn within the distribution's bounds */
			if (run->wake_latency.count != rp.periods ||
			    rp.package_exits_woken > rp.package_exits ||
			    rp.package_exit_ns < (int64_t)rp.package_exits * 1000 ||
			    rp.package_exit_ns > (int64_t)rp.package_exits * 50000 ||
			    rp.package_exit_woken_ns > rp.package_exit_ns)
				abort();
			ik__trace_replay_free(&rp);
		}
		ik__trace_close(r2);
		/* closed loop: the exits move the later events, remote wakes wait for their
		   senders' delays, periods are replayed step by step (src/trace/replay.c) */
		if (ik__trace_open_mem(buf, len, "fuzz2", false, &r2, e2, sizeof(e2)) == 0) {
			o.closed_loop = true;
			rrc = ik__trace_replay_run(r2, &o, &rp, e2, sizeof(e2));
			if (rrc != IK_TRACE_OK && strstr(e2, "internal error"))
				abort();
			if (rrc == IK_TRACE_OK) {
				if (rp.run.wake_latency.count != rp.periods ||
				    rp.package_exits_woken > rp.package_exits)
					abort();
				ik__trace_replay_free(&rp);
			}
			ik__trace_close(r2);
		}
	}
	free(buf);
	return 0;
}
