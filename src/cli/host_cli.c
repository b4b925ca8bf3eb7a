/* Helpers shared by the commands that look at the real machine. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/textout.h"
#include "cli/cli.h"
#include "cli/host_cli.h"

int host_open(const char *cmd, const struct host_source *src, struct ik_sysfs **fs)
{
	char err[IK_HOST_ERR_LEN] = "";
	int r;

	if (src->root && src->dump) {
		fprintf(stderr, "idlekit %s: --sysfs-root and --sysfs-dump exclude each other\n", cmd);
		return -1;
	}
	if (src->dump)
		r = ik__sysfs_open_dump(src->dump, fs, err, sizeof(err));
	else
		r = ik__sysfs_open_root(src->root ? src->root : "/", fs, err, sizeof(err));
	if (r) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		return -1;
	}
	return 0;
}

bool host_source_opt(int c, const char *arg, struct host_source *src)
{
	if (c == HOST_OPT_ROOT)
		src->root = arg;
	else if (c == HOST_OPT_DUMP)
		src->dump = arg;
	else
		return false;
	return true;
}

int host_format_opt(const char *cmd, enum host_format want, enum host_format *format)
{
	if (*format != HOST_FMT_TEXT && *format != want) {
		fprintf(stderr, "idlekit %s: --json and --csv exclude each other\n", cmd);
		return -1;
	}
	*format = want;
	return 0;
}

int host_view_opt(const char *cmd, int c, const char *arg, struct host_view *v)
{
	switch (c) {
	case HOST_OPT_CPU:
		v->cpu_list = arg;
		return 0;
	case HOST_OPT_PER_CPU:
		v->per_cpu = true;
		return 0;
	case HOST_OPT_JSON:
	case HOST_OPT_CSV:
		return host_format_opt(cmd, c == HOST_OPT_JSON ? HOST_FMT_JSON : HOST_FMT_CSV,
				       &v->format);
	default:
		host_source_opt(c, arg, &v->src);
		return 0;
	}
}

int host_cpu_arg(const char *cmd, const struct ik_sysfs *fs, const char *list,
		 struct ik_cpuset *out)
{
	char err[IK_HOST_ERR_LEN] = "";
	struct ik_cpuset present, online, absent;

	if (ik__cpulist_parse(list, IK_HOST_CPU_MAX, false, out, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: --cpu: %s\n", cmd, err);
		return -1;
	}
	if (ik__host_cpus(fs, &present, &online, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: %s\n", cmd, err);
		return -1;
	}
	absent = *out;
	ik__cpuset_andnot(&absent, &present);
	if (ik__cpuset_count(&absent)) {
		char a[128], p[256];
		ik__cpuset_format(&absent, a, sizeof(a));
		ik__cpuset_format(&present, p, sizeof(p));
		fprintf(stderr, "idlekit %s: --cpu %s: CPU %s out of range (CPUs present in %s: %s)\n",
			cmd, list, a, ik__sysfs_origin(fs), p);
		return -1;
	}
	return 0;
}

int host_long_arg(const char *cmd, const char *opt, const char *text, long min, long max,
		  long *out)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (text[0] == '\0' || *end || errno || v < min || v > max) {
		fprintf(stderr, "idlekit %s: %s: expected an integer %ld..%ld, got '%s'\n", cmd, opt,
			min, max, text);
		return -1;
	}
	*out = v;
	return 0;
}

int host_duration_arg(const char *cmd, const char *opt, const char *text,
		      const char *default_unit, int64_t max_ns, int64_t *ns)
{
	char err[IK_HOST_ERR_LEN];
	if (ik__parse_duration_ns(text, default_unit, max_ns, ns, err, sizeof(err))) {
		fprintf(stderr, "idlekit %s: %s: %s\n", cmd, opt, err);
		return -1;
	}
	return 0;
}

int host_pmqos_opt(const char *cmd, int c, const char *arg, struct host_pmqos_limit *l)
{
	if (c == HOST_OPT_PMQOS) {
		l->dev = arg;
		return 0;
	}
	if (host_duration_arg(cmd, "--latency", arg, "us", (int64_t)IK_PMQOS_MAX_US * 1000,
			      &l->latency_ns))
		return -1;
	if (l->latency_ns % 1000) {
		fprintf(stderr, "idlekit %s: --latency: '%s' is not a whole number of microseconds "
			"(the limit's unit)\n", cmd, arg);
		return -1;
	}
	return 0;
}

int host_seconds_arg(const char *cmd, const char *opt, const char *text, int64_t *ns)
{
	if (host_duration_arg(cmd, opt, text, "s", (int64_t)86400 * 1000000000, ns))
		return -1;
	if (*ns <= 0) {
		fprintf(stderr, "idlekit %s: %s: expected more than 0 seconds, got '%s'\n", cmd, opt,
			text);
		return -1;
	}
	return 0;
}

int host_waker_wakee_check(const char *cmd, int waker_cpu, int wakee_cpu)
{
	char list[256], err[IK_HOST_ERR_LEN];
	int cpus[2] = { waker_cpu, wakee_cpu };
	int bad = ik__host_unavailable_cpu(cpus, list, sizeof(list), err, sizeof(err));
	if (bad < 0)
		return 0;
	fprintf(stderr, "idlekit %s: --%s-cpu %d: not available (CPUs this process may use: %s)\n",
		cmd, bad ? "wakee" : "waker", cpus[bad], list);
	return EXIT_USAGE;
}

long long host_power_mw(uint64_t sysfs_power)
{
	if (sysfs_power <= UINT32_MAX)
		return (int32_t)(uint32_t)sysfs_power;
	return (long long)(sysfs_power > INT64_MAX ? INT64_MAX : sysfs_power);
}

const char *host_pmqos_path(const char *option)
{
	if (option && *option)
		return option;
	const char *env = getenv("IDLEKIT_PM_QOS_DEV");
	if (env && *env)
		return env;
	return IK_PMQOS_DEV;
}

int host_pmqos_open(const char *cmd, const struct host_pmqos_limit *l, struct ik_pmqos *q)
{
	char err[IK_HOST_ERR_LEN];
	if (ik__pmqos_open(q, host_pmqos_path(l->dev), err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "idlekit %s: %s\n", cmd, err);
	return -1;
}

void host_table_init(struct host_table *t, int ncols, const char *const *headers,
		     const char *align)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->headers = headers;
	t->align = align;
}

void host_table_row(struct host_table *t, const char *const *cells)
{
	if (t->nrows == t->capacity) {
		int cap = t->capacity ? t->capacity * 2 : 16;
		char **more = realloc(t->cells, (size_t)cap * (size_t)t->ncols * sizeof(char *));
		if (!more)
			return; /* the row is dropped; a table this large is not for a terminal */
		t->cells = more;
		t->capacity = cap;
	}
	for (int c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = strdup(cells[c] ? cells[c] : "");
	t->nrows++;
}

void host_table_print(FILE *f, const struct host_table *t)
{
	size_t width[32] = { 0 };
	int ncols = t->ncols < 32 ? t->ncols : 32;

	for (int c = 0; c < ncols; c++) {
		width[c] = strlen(t->headers[c]);
		for (int r = 0; r < t->nrows; r++) {
			const char *cell = t->cells[r * t->ncols + c];
			size_t n = cell ? strlen(cell) : 0;
			if (n > width[c])
				width[c] = n;
		}
	}
	for (int r = -1; r < t->nrows; r++) {
		for (int c = 0; c < ncols; c++) {
			const char *cell = r < 0 ? t->headers[c] : t->cells[r * t->ncols + c];
			if (!cell)
				cell = "";
			bool last = c == ncols - 1;
			if (t->align[c] == 'r')
				fprintf(f, "%*s", (int)width[c], cell);
			else if (last)
				fputs(cell, f);
			else
				fprintf(f, "%-*s", (int)width[c], cell);
			fputs(last ? "\n" : "  ", f);
		}
	}
}

void host_table_free(struct host_table *t)
{
	for (int i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}
