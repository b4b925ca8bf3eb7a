/*
 * Fuzz target: platform files.  The input is a platform file's text; it must never crash,
 * hang or leak, and what it yields must be consistent: a success is a valid platform whose
 * cost distributions print and re-read to the same thing, a failure is a one-line message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/scenario.h"
#include "drivers/registry.h"

/*
 * Every idle driver on the platform, with the kernel's default options: it loads with a
 * consistent table bound to existing hardware states, or refuses with a one-line message.
 */
static void check_drivers(const struct ik_platform *p)
{
	static const char *const names[] = { "table", "acpi_idle", "intel_idle", "powernv_idle",
					      "haltpoll", "none", "auto" };
	struct ik_scenario *sc = calloc(1, sizeof(*sc));
	struct ik_driver_binding *b = malloc(sizeof(*b));
	char err[IK_ERR_LEN];

	if (!sc || !b) {
		free(sc);
		free(b);
		return;
	}
	sc->platform = *p;
	sc->hz = 250;
	sc->opt.latency_factor = 2;
	sc->opt.max_cstate = -1;
	sc->opt.use_acpi = -1;
	sc->opt.pc6 = -1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(sc->driver, sizeof(sc->driver), "%s", names[i]);
		ik__idle_driver_resolve(sc);
		err[0] = '\0';
		if (ik__idle_driver_probe(sc, b, err, sizeof(err)) != 0) {
			if (err[0] == '\0' || strchr(err, '\n'))
				abort();
			continue;
		}
		const struct ik_driver *drv = &b->table;
		if (drv->state_count < 1 || drv->state_count > IK_STATE_MAX)
			abort();
		for (int k = 0; k < drv->state_count; k++) {
			if (b->hw_state[k] < 0 || b->hw_state[k] >= p->state_count)
				abort();
			if (drv->states[k].exit_latency_ns > drv->states[k].target_residency_ns)
				abort();
		}
		if (strchr(b->notes, '\n'))
			abort();
	}
	free(sc);
	free(b);
}

/* format(parse(format(d))) == format(d), and samples are never negative. */
static void check_dist(const struct ik_dist *d, struct ik_rng *rng)
{
	char a[1024], b[1024]; /* 16 points of the longest spelling need about 620 bytes */
	struct ik_dist again;

	ik__dist_format(d, a, sizeof(a));
	if (ik__dist_parse(a, &again, NULL, 0) != 0)
		abort();
	ik__dist_format(&again, b, sizeof(b));
	if (strcmp(a, b) != 0)
		abort();
	for (int i = 0; i < 4; i++)
		if (ik__dist_sample(d, rng) < 0)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct ik_platform *p = malloc(sizeof(*p));
	char err[IK_ERR_LEN];
	struct ik_rng rng;

	if (!text || !p) {
		free(text);
		free(p);
		return 0;
	}
	memcpy(text, data, size);
	text[size] = '\0';
	ik__rng_seed(&rng, size);

	/* The whole input as a distribution, too: the grammar's own parser. */
	struct ik_dist d;
	if (ik__dist_parse(text, &d, err, sizeof(err)) == 0)
		check_dist(&d, &rng);

	if (ik__platform_parse_string("fuzz.ini", text, p, err, sizeof(err)) == 0) {
		int cpus = ik__platform_cpus(p);
		if (p->state_count < 1 || p->state_count > IK_STATE_MAX || cpus < 1 || cpus > 8192 ||
		    p->cores_per_package % p->cores_per_llc != 0)
			abort();
		struct ik_cpu_topo t;
		ik__platform_topology(p, cpus - 1, &t);
		if (t.package != p->packages - 1 || t.thread != p->threads_per_core - 1)
			abort();
		check_dist(&p->ipi_ns, &rng);
		const struct ik_hw_state *prev = NULL; /* the table's order skips unlisted states */
		for (int i = 0; i < p->state_count; i++) {
			const struct ik_hw_state *s = &p->states[i];
			if (!s->unlisted) {
				if (prev && (s->latency_us < prev->latency_us ||
					     s->residency_us < prev->residency_us))
					abort();
				prev = s;
			}
			check_dist(&s->entry, &rng);
			for (int src = 0; src < IK_WAKE_SOURCES; src++)
				check_dist(&s->exit[src], &rng);
		}
		check_dist(&p->acpi.pm_timer_read, &rng);
		check_drivers(p);
	} else if (err[0] == '\0' || strchr(err, '\n')) {
		abort();
	}
	free(text);
	free(p);
	return 0;
}
