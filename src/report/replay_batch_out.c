/* The reports of a batch of replays (replay_batch_out.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#endif
#include <stdio.h>
#include <stdlib.h>

#include "report/html.h"
#include "report/replay_batch_out.h"
#include "util/freep.h"

/* How replay charges a package's exit: said in every report. */
static const char package_exit[] =
	"included: the first CPU to wake from a deep package (all its CPUs in a core_off state) pays pkg_exit_ns on top of its state's exit, added to that wake's latency, and its work starts that much later (open loop: a next entry inside the exit waits for its end; closed loop: the CPU's later events move by its delay) (docs/replay.md)";

int ik__report_replay_batch_one(void *user, const struct ik_replay_batch_done *d, char *err,
			       size_t errlen)
{
	const struct ik_replay_batch_out *o = user;
	struct ik_replay_batch_bytes *v = &o->v[d->index];
	const struct ik_replay_batch *b = d->b;
	struct ik_trace_replay_report rep = {
		.origin = d->origin, .platform = b->sc->platform.name, .hz = d->hz,
		.cpus = d->h->cpus, .closed_loop = b->closed_loop, .compare = o->compare,
		.seed = b->seed, .drv = d->drv, .h = d->h, .map = &d->runs[0].map,
		.haltpoll_from = d->haltpoll_from, .haltpoll = d->haltpoll, .nruns = b->ngov,
		.governors = d->governors, .runs = d->runs, .package_exit = package_exit,
	};
	FILE *of = open_memstream(&v->out, &v->outlen);
	int wrc = -1;
	if (of) {
		wrc = o->json ? ik__report_replay_json(of, &rep) : ik__report_replay_text(of, &rep);
		if (fclose(of))
			wrc = -1;
	}
	if (wrc == 0 && o->html) {
		FILE *hf = open_memstream(&v->html, &v->htmllen);
		wrc = -1;
		if (hf) {
			struct ik_html_replay hr = { .origin = d->origin, .governor = d->governors[0],
						     .platform = rep.platform, .hz = rep.hz,
						     .compare = o->compare, .drv = d->drv, .h = d->h,
						     .rp = &d->runs[0], .tl = d->timeline, .report = &rep };
			wrc = ik__report_html_replay(hf, &hr);
			if (fclose(hf))
				wrc = -1;
		}
	}
	if (wrc != 0)
		snprintf(err, errlen, "writing the report failed");
	return wrc == 0 ? 0 : -1;
}

int ik__report_replay_batch_write(FILE *f, const struct ik_replay_batch_out *o, int n)
{
	const struct ik_replay_batch_bytes *v = o->v;
	if (n == 1)
		return fwrite(v[0].out, 1, v[0].outlen, f) == v[0].outlen ? 0 : -1;
	if (o->json)
		fputs("{\"schema\": \"idlekit.replays/1\", \"replays\": [\n", f);
	for (int i = 0; i < n; i++) {
		size_t len = v[i].outlen;
		if (o->json && len && v[i].out[len - 1] == '\n')
			len--;
		if (i)
			fputs(o->json ? ",\n" : "\n", f);
		fwrite(v[i].out, 1, len, f);
	}
	if (o->json)
		fputs("\n]}\n", f);
	return ferror(f) ? -1 : 0;
}

void ik__report_replay_batch_free(struct ik_replay_batch_out *o, int n)
{
	for (int i = 0; o->v && i < n; i++) {
		free(o->v[i].out);
		free(o->v[i].html);
	}
	ik__freep(&o->v);
}
