/*
 * idlekit validate: the traced run.  The machine's idle periods by length need a trace: the
 * counters give each state's entries and time, not how the periods spread.  So one more
 * real run records the window with idlekit's own recorder (a tracefs instance of its own,
 * src/host/record_tracefs.c), and the trace's idle periods (src/trace/analyze.c) are its
 * histogram.  The recorder wakes its CPUs to drain the buffers (every 200 ms) and its
 * events cost time, which is why this run is kept out of the figures; its counters are
 * still read, so the page can say what tracing changed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "host/record_tracefs.h"
#include "trace/analyze.h"
#include "trace/format.h"
#include "util/errmsg.h"
#include "validate/validate.h"

struct tracer {
	struct ik_recording rec;
	const char *dir;
	bool started;
};

static int trace_start(void *arg, char *err, size_t errlen)
{
	struct tracer *t = arg;
	if (ik__recording_start(&t->rec, t->dir, err, errlen))
		return -1;
	t->started = true;
	return 0;
}

static void trace_stop(void *arg)
{
	struct tracer *t = arg;
	if (t->started)
		ik__recording_stop(&t->rec);
}

/* The trace's idle periods by length into s. */
static int histogram(struct ik_recording *rec, const char *path, struct ik_val_sample *s,
		     char *err, size_t errlen)
{
	uint64_t nev = 0;
	FILE *f = fopen(path, "w+");
	if (!f)
		return ik__errmsg(err, errlen, "%s: %s", path, strerror(errno));
	if (ik__recording_write(rec, f, &nev) != 0 || fflush(f) != 0) {
		snprintf(err, errlen, "%s: writing the trace failed: %s", path, strerror(errno));
		fclose(f);
		return -1;
	}
	rewind(f);
	struct ik_trace_reader *r = NULL;
	struct ik_trace_analysis a;
	int rc = -1;
	if (ik__trace_open_file(f, path, false, &r, err, errlen) == IK_TRACE_OK) {
		if (ik__trace_analyze(r, &a, err, errlen) == 0) {
			memcpy(s->idle_hist, a.hist, sizeof(s->idle_hist));
			s->have_hist = true;
			ik__trace_analysis_free(&a);
			rc = 0;
		}
		ik__trace_close(r);
	}
	fclose(f);
	return rc;
}

int ik__val_traced_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		      struct ik_val_sample *s, char *err, size_t errlen)
{
	struct tracer t = { .dir = spec->tmpdir };
	char path[2100];

	memset(s, 0, sizeof(*s));
	if (!ik__recording_supported())
		return ik__errmsg(err, errlen, "this idlekit was built without libtracefs");
	if (ik__recording_open(&t.rec, NULL, 0, 16384, err, errlen)) {
		ik__recording_close(&t.rec);
		return -1;
	}
	struct ik_val_hooks hooks = { trace_start, trace_stop, &t };
	int rc = ik__val_real_run(spec, fs, run, &hooks, s, err, errlen);
	if (rc == 0 && t.started) {
		ik__recording_drain(&t.rec);
		if (t.rec.spool.failed || t.rec.read_failed) {
			snprintf(err, errlen, "reading the trace buffers failed");
			rc = -1;
		} else {
			snprintf(path, sizeof(path), "%s/window.trace", spec->tmpdir);
			rc = histogram(&t.rec, path, s, err, errlen);
		}
		if (rc != 0)
			ik__val_sample_free(s);
	}
	ik__recording_close(&t.rec);
	return rc;
}
