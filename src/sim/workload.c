/*
 * The workload as the engine sees it: its hooks called through its ops table (workload.h;
 * the workloads themselves are in src/sim/workloads/), and what every workload may use:
 * tasks, their timers and sleeps, pinned pair placement, and the side spinners that any
 * workload may have beside it (workload.side_spin_cpus).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/workload.h"
#include "util/errmsg.h"
#include "util/freep.h"

int sim_workload_oom(char *err, size_t errlen)
{
	return ik__errmsg(err, errlen, "out of memory setting up the workload");
}

/* See workload.h. */
int sim_pinned_pair(const struct ik_sim *s, int k, int *client, int *server, char *err,
		       size_t errlen)
{
	const struct ik_platform *p = s->plat;
	int cores = p->packages * p->cores_per_package;

	switch (s->sc->workload.placement) {
	case IK_PLACE_SAME_CORE:
		/* SMT siblings: cpu c and cpu c + number of cores. */
		if (p->threads_per_core < 2 || k >= cores)
			goto nofit;
		*client = k;
		*server = k + cores;
		return 0;
	case IK_PLACE_SAME_PACKAGE: {
		/* Two different cores of package 0 (then their SMT threads). */
		int per_pkg = p->cores_per_package * p->threads_per_core;
		if (2 * k + 1 >= per_pkg || p->cores_per_package < 2)
			goto nofit;
		int a = 2 * k, b = 2 * k + 1;
		*client = (a / p->cores_per_package) * cores + a % p->cores_per_package;
		*server = (b / p->cores_per_package) * cores + b % p->cores_per_package;
		return 0;
	}
	case IK_PLACE_CROSS_PACKAGE: {
		int per_pkg = p->cores_per_package * p->threads_per_core;
		if (p->packages < 2 || k >= per_pkg)
			goto nofit;
		int t = k / p->cores_per_package, c = k % p->cores_per_package;
		*client = t * cores + c;
		*server = t * cores + p->cores_per_package + c;
		return 0;
	}
	case IK_PLACE_WAKE_IDLE:
		break;
	}
nofit:
	return ik__errmsg(err, errlen, "workload: %d pinned pairs do not fit on platform %s (%d "
			  "CPUs)", s->sc->workload.pairs, p->name, s->ncpus);
}

void sim_task_init_blocked(struct sim_task *t, int cpu, bool pinned)
{
	t->next = t->peer = -1;
	t->woken_at = -1;
	t->timer_cpu = -1;
	t->state = TASK_BLOCKED;
	t->cpu = cpu;
	t->pinned = pinned;
}

int sim_tasks_alloc(struct ik_sim *s, int n)
{
	s->ntasks = n;
	s->tasks = calloc((size_t)n, sizeof(*s->tasks));
	if (!s->tasks)
		return -1;
	for (int i = 0; i < n; i++)
		sim_task_init_blocked(&s->tasks[i], 0, false);
	return 0;
}

static int grow_timers(struct sim_cpu *c, int cap)
{
	if (cap <= c->timer_cap)
		return 0;
	int *grown = realloc(c->timer_tasks, (size_t)cap * sizeof(*grown));
	if (!grown)
		return -1;
	c->timer_tasks = grown;
	c->timer_cap = cap;
	return 0;
}

/* Task timers fire on their task's CPU; the CPU keeps a list of them for its sleep length. */
int sim_timer_register(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];
	struct sim_cpu *c = &s->cpus[t->cpu];

	if (c->ntimers == c->timer_cap && grow_timers(c, 2 * c->timer_cap + 4))
		return -1;
	c->timer_tasks[c->ntimers++] = task;
	t->timer_cpu = t->cpu;
	return 0;
}

int sim_timer_reserve(struct ik_sim *s, int cap)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (grow_timers(&s->cpus[cpu], cap))
			return -1;
	return 0;
}

void sim_task_sleep(struct ik_sim *s, int task, int64_t until)
{
	struct sim_task *t = &s->tasks[task];

	if (t->timer_cpu != t->cpu) {
		if (t->timer_cpu >= 0) {
			struct sim_cpu *old = &s->cpus[t->timer_cpu];
			for (int i = 0; i < old->ntimers; i++)
				if (old->timer_tasks[i] == task) {
					old->timer_tasks[i] = old->timer_tasks[--old->ntimers];
					break;
				}
			t->timer_cpu = -1;
		}
		/* sim_timer_reserve() made room: this does not allocate */
		if (sim_timer_register(s, task))
			t->timer_cpu = -1;
	}
	ik__eq_arm(&s->eq, task_timer_id(s, task), until);
}

/* See workload.h (the seed decides the order in which the tasks start). */
int sim_task_start_in_spread(struct ik_sim *s, int task)
{
	const struct ik_workload *w = &s->sc->workload;

	if (sim_timer_register(s, task))
		return -1;
	ik__eq_arm(&s->eq, task_timer_id(s, task),
		  w->start_ns + (int64_t)(ik__rng_unit(&s->rng) * (double)w->start_spread_ns));
	return 0;
}

/*
 * The CPUs unpinned tasks start on: task i on start_cpu[i % ncpus], the identity or, with
 * start_cpus = shuffled, a permutation drawn from the run's seed (Fisher-Yates), so which
 * pairs share a last-level cache or a package changes from run to run.
 */
int *sim_start_cpu_order(struct ik_sim *s)
{
	int *order = malloc((size_t)s->ncpus * sizeof(*order));

	if (!order)
		return NULL;
	for (int i = 0; i < s->ncpus; i++)
		order[i] = i;
	if (s->sc->workload.start_cpus == IK_START_CPUS_SHUFFLED)
		for (int i = s->ncpus - 1; i > 0; i--) {
			int j = (int)(ik__rng_unit(&s->rng) * (double)(i + 1));
			if (j > i)
				j = i;
			int x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
	return order;
}

/* Busy tasks beside the workload, on the CPUs side_spin_cpus lists. */
static int setup_side_spinners(struct ik_sim *s, char *err, size_t errlen)
{
	const struct ik_workload *w = &s->sc->workload;
	int first = s->ntasks, n = w->nside_spin_cpus;

	if (n == 0)
		return 0;
	struct sim_task *grown = realloc(s->tasks, (size_t)(first + n) * sizeof(*grown));
	if (!grown)
		goto oom;
	s->tasks = grown;
	s->ntasks = first + n;
	for (int i = 0; i < n; i++) {
		struct sim_task *t = &s->tasks[first + i];
		memset(t, 0, sizeof(*t));
		sim_task_init_blocked(t, w->side_spin_cpus[i], false);
		if (t->cpu >= s->ncpus)
			return ik__errmsg(err, errlen, "workload: side_spin_cpus: CPU %d does not "
					  "exist (platform %s has %d CPUs)", t->cpu, s->plat->name,
					  s->ncpus);
		t->pinned = t->busy_loop = t->side = true;
		t->work_ns = w->side_spin_work_ns;
		if (sim_timer_register(s, first + i))
			goto oom;
		ik__eq_arm(&s->eq, task_timer_id(s, first + i), w->start_ns);
	}
	return 0;
oom:
	return sim_workload_oom(err, errlen);
}

/* A new setting at the end of the list, or NULL when it is full (a workload lists fewer
   than IK_WORKLOAD_SETTINGS; test_workload_registry checks every one). */
static struct ik_workload_setting *new_setting(struct ik_workload_settings *out, const char *key,
					       enum ik_setting_type type)
{
	if (out->n >= IK_WORKLOAD_SETTINGS)
		return NULL;
	struct ik_workload_setting *v = &out->v[out->n++];
	memset(v, 0, sizeof(*v));
	v->key = key;
	v->type = type;
	return v;
}

void sim_setting_int(struct ik_workload_settings *out, const char *key, int64_t i)
{
	struct ik_workload_setting *v = new_setting(out, key, IK_SETTING_INT);
	if (v)
		v->i = i;
}

void sim_setting_real(struct ik_workload_settings *out, const char *key, double x)
{
	struct ik_workload_setting *v = new_setting(out, key, IK_SETTING_REAL);
	if (v)
		v->x = x;
}

void sim_setting_text(struct ik_workload_settings *out, const char *key, const char *text)
{
	struct ik_workload_setting *v = new_setting(out, key, IK_SETTING_TEXT);
	if (v)
		snprintf(v->text, sizeof(v->text), "%s", text);
}

void sim_setting_us(struct ik_workload_settings *out, const char *key, int64_t ns)
{
	struct ik_workload_setting *v = new_setting(out, key, IK_SETTING_NS_AS_US);
	if (v)
		v->i = ns;
}

void sim_setting_dist(struct ik_workload_settings *out, const char *key, const struct ik_dist *d)
{
	struct ik_workload_setting *v = new_setting(out, key, IK_SETTING_TEXT);
	if (v)
		ik__dist_format(d, v->text, sizeof(v->text));
}

void sim_describe_pairs_brief(const struct ik_workload *w, char *buf, size_t len)
{
	snprintf(buf, len, ": %d pairs, %lld B per message, placement %s", w->pairs,
		 (long long)w->msg_bytes, ik__workload_placement_name(w->placement));
}

void ik__workload_settings(const struct ik_workload *w, struct ik_workload_settings *out)
{
	const struct sim_workload_ops *ops = sim_workload_ops_of(w->kind);

	out->n = 0;
	if (ops && ops->settings)
		ops->settings(w, out);
}

bool ik__workload_has_throughput(const struct ik_workload *w)
{
	const struct sim_workload_ops *ops = sim_workload_ops_of(w->kind);

	return ops && ops->throughput;
}

void ik__workload_describe(const struct ik_workload *w, bool brief, char *buf, size_t len)
{
	const struct sim_workload_ops *ops = sim_workload_ops_of(w->kind);
	int n = snprintf(buf, len, "%s", ik__workload_type_name(w->kind));

	void (*describe)(const struct ik_workload *, char *, size_t) =
		!ops ? NULL : brief ? ops->describe_brief : ops->describe;

	if (describe && n >= 0 && (size_t)n < len)
		describe(w, buf + n, len - (size_t)n);
}

bool ik__workload_figures(const struct ik_workload *w, const struct ik_run_result *r,
			 struct ik_workload_figures *f)
{
	const struct sim_workload_ops *ops = sim_workload_ops_of(w->kind);

	memset(f, 0, sizeof(*f));
	if (!ops || !ops->figures || !ops->figures(r, f)) {
		memset(f, 0, sizeof(*f));
		return false;
	}
	return true;
}

void ik__workload_figures_head(struct ik_workload_figures *f, const char *key, const char *title,
			      const char *definition)
{
	f->key = key;
	f->title = title;
	f->definition = definition;
}

void ik__workload_figures_count(struct ik_workload_figures *f, const char *key, const char *label,
			       uint64_t n)
{
	if (f->ncounts < IK_WORKLOAD_COUNTS)
		f->count[f->ncounts++] = (struct ik_workload_count){ key, label, true, n, 0.0 };
}

void ik__workload_figures_value(struct ik_workload_figures *f, const char *key, const char *label,
			       double x)
{
	if (f->ncounts < IK_WORKLOAD_COUNTS)
		f->count[f->ncounts++] = (struct ik_workload_count){ key, label, false, 0, x };
}

void ik__workload_figures_dist(struct ik_workload_figures *f, const char *key, const char *name,
			      const struct ik_hist *h)
{
	if (f->ndists < IK_WORKLOAD_DISTS)
		f->dist[f->ndists++] = (struct ik_workload_dist){ key, name, h };
}

void ik__workload_figures_column(struct ik_workload_figures *f, const char *figure,
				const char *header, double scale, int decimals)
{
	if (f->ncolumns < IK_WORKLOAD_COLUMNS)
		f->column[f->ncolumns++] = (struct ik_workload_column){ figure, header, scale,
									 decimals };
}

int sim_workload_max_tasks(const struct sim_workload_ops *ops, const struct ik_workload *w)
{
	return ops->max_tasks(w) + w->nside_spin_cpus;
}

int sim_workload_setup(struct ik_sim *s, char *err, size_t errlen)
{
	if (s->wl_ops->setup(s, err, errlen))
		return -1;
	return setup_side_spinners(s, err, errlen);
}

void sim_workload_task_done(struct ik_sim *s, int task)
{
	struct sim_task *t = &s->tasks[task];

	if (t->side) {
		if (s->measuring)
			s->side_units++;
		sim_requeue_task(s, task);
		return;
	}
	if (s->wl_ops->task_done)
		s->wl_ops->task_done(s, task);
	if (t->busy_loop)
		sim_requeue_task(s, task);
}

/* The workload's request statistics (s->requests) into the result, then its own figures. */
int sim_workload_result(struct ik_sim *s, struct ik_run_result *out)
{
	if (s->requests) {
		out->requests = malloc(sizeof(*out->requests));
		if (!out->requests)
			return -1;
		*out->requests = *s->requests;
	}
	return s->wl_ops->result ? s->wl_ops->result(s, out) : 0;
}

/* What the workload's state holds (its free hook), then the state itself. */
void sim_workload_free(struct ik_sim *s)
{
	if (s->wl && s->wl_ops->free)
		s->wl_ops->free(s);
	ik__freep(&s->wl);
}
