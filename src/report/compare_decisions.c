/*
 * idlekit compare of govreplay results (idlekit.govreplay/1 with their decision lists):
 * each result against the first, decision by decision.  How many decisions differ in the
 * state chosen and in stop_tick, a matrix of the state chosen (rows: the baseline's,
 * columns: the result's), and the first differing decisions with their input lines (read
 * again from the input file when both results name the same one and it is still there).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/ini_common.h"
#include "report/compare.h"
#include "util/errmsg.h"

#define MAX_STATES 10
#define SHOWN 10

struct decisions {
	const char *path;
	json_t *root;
	const char *governor, *platform, *input;
	char kernel[32];
	int hz;
	int nstates;
	const char *state[MAX_STATES];
	size_t n;
	unsigned long long *line;
	int *state_of, *stop;
};

/* Every message through ik__errmsg: names and paths read from a result may hold a newline. */
static int fail(char *err, size_t errlen, const char *path, const char *what)
{
	return ik__errmsg(err, errlen, "%s: %s", path, what);
}

bool ik__compare_is_govreplay(const char *path)
{
	FILE *f = fopen(path, "r");
	char head[512];
	size_t n = f ? fread(head, 1, sizeof(head) - 1, f) : 0;
	if (f)
		fclose(f);
	head[n] = '\0';
	return strstr(head, "\"schema\": \"idlekit.govreplay/") != NULL;
}

/* One result from its text (named path in messages). */
static int load_text(struct decisions *d, const char *path, const char *text, size_t len,
		     char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->path = path;
	json_error_t je;
	d->root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!d->root) {
		/* jansson quotes the text it met: one line still */
		return ik__errmsg(err, errlen, "%s:%d: %s", path, je.line, je.text);
	}
	const char *schema = json_string_value(json_object_get(d->root, "schema"));
	if (!schema || strcmp(schema, "idlekit.govreplay/1") != 0)
		return fail(err, errlen, path, "expected a govreplay result (idlekit govreplay --json, "
			    "schema idlekit.govreplay/1) beside the others");
	d->governor = json_string_value(json_object_get(d->root, "governor"));
	d->platform = json_string_value(json_object_get(d->root, "platform"));
	d->input = json_string_value(json_object_get(d->root, "input"));
	d->hz = (int)json_integer_value(json_object_get(d->root, "hz"));
	json_t *k = json_object_get(d->root, "kernel");
	const char *v = json_is_object(k) ? json_string_value(json_object_get(k, "version")) : NULL;
	snprintf(d->kernel, sizeof(d->kernel), "%s", v ? v : "?");
	json_t *states = json_object_get(d->root, "states");
	json_t *dec = json_object_get(d->root, "decisions");
	if (!json_is_array(states) || !json_is_array(dec))
		return fail(err, errlen, path, "a govreplay result without its 'states' or "
			    "'decisions' (made by an idlekit before decisions were written?)");
	size_t i;
	json_t *x;
	json_array_foreach(states, i, x) {
		if (d->nstates == MAX_STATES)
			return fail(err, errlen, path, "more than 10 states");
		const char *name = json_string_value(json_object_get(x, "name"));
		d->state[d->nstates++] = name ? name : "?";
	}
	d->n = json_array_size(dec);
	d->line = malloc((d->n ? d->n : 1) * sizeof(*d->line));
	d->state_of = malloc((d->n ? d->n : 1) * sizeof(int));
	d->stop = malloc((d->n ? d->n : 1) * sizeof(int));
	if (!d->line || !d->state_of || !d->stop)
		return fail(err, errlen, path, "out of memory");
	json_array_foreach(dec, i, x) {
		json_t *l = json_array_get(x, 0), *s = json_array_get(x, 1), *t = json_array_get(x, 2);
		if (!json_is_integer(l) || !json_is_integer(s) || !json_is_integer(t) ||
		    json_integer_value(s) < 0 || json_integer_value(s) >= d->nstates ||
		    json_integer_value(l) < 1 || (json_integer_value(t) != 0 && json_integer_value(t) != 1)) {
			char what[96];
			snprintf(what, sizeof(what), "decision %zu: expected [line, state 0..%d, "
				 "stop_tick 0 or 1]", i + 1, d->nstates - 1);
			return fail(err, errlen, path, what);
		}
		d->line[i] = (unsigned long long)json_integer_value(l);
		d->state_of[i] = (int)json_integer_value(s);
		d->stop[i] = (int)json_integer_value(t);
	}
	return 0;
}

static void release(struct decisions *d)
{
	free(d->line);
	free(d->state_of);
	free(d->stop);
	json_decref(d->root);
}

/* The input lines of the first differing decisions (numbers ascending), or NULLs. */
static void input_lines(const char *path, const unsigned long long *want, int n, char **out)
{
	/* a regular file only: a result names its input, and a device or FIFO named so would
	   never end or never answer */
	int fd = path ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	char buf[512];
	unsigned long long line = 0;
	int k = 0;
	for (int i = 0; i < n; i++)
		out[i] = NULL;
	while (f && k < n && fgets(buf, sizeof(buf), f)) {
		line++;
		buf[strcspn(buf, "\r\n")] = '\0';
		while (k < n && want[k] == line)
			out[k++] = strdup(buf);
	}
	if (f)
		fclose(f);
}

static void describe(FILE *out, const char *tag, const struct decisions *d)
{
	fprintf(out, "  %s %s: governor %s, platform %s, kernel %s, HZ %d, input %s, %zu decisions\n",
		tag, d->path, d->governor ? d->governor : "?", d->platform ? d->platform : "?",
		d->kernel, d->hz, d->input ? d->input : "?", d->n);
}

static int against(FILE *out, const struct decisions *a, const struct decisions *b, char *err,
		   size_t errlen)
{
	(void)err, (void)errlen; /* the inputs were checked to match (ik__compare_decisions) */
	size_t state_diff = 0, stop_diff = 0, any = 0;
	size_t matrix[MAX_STATES][MAX_STATES] = { { 0 } };
	unsigned long long shown_line[SHOWN];
	size_t shown_at[SHOWN];
	int nshown = 0;
	for (size_t i = 0; i < a->n; i++) {
		matrix[a->state_of[i]][b->state_of[i]]++;
		bool ds = a->state_of[i] != b->state_of[i], dt = a->stop[i] != b->stop[i];
		state_diff += ds;
		stop_diff += dt;
		if ((ds || dt) && nshown < SHOWN) {
			shown_line[nshown] = a->line[i];
			shown_at[nshown++] = i;
		}
		any += ds || dt;
	}
	double pct = a->n ? 100.0 / (double)a->n : 0;
	fprintf(out, "\n%s against the baseline: %zu of %zu decisions differ (%.2f%%): the state in "
		"%zu (%.2f%%), stop_tick in %zu (%.2f%%)\n", b->path, any, a->n, (double)any * pct,
		state_diff, (double)state_diff * pct, stop_diff, (double)stop_diff * pct);
	bool same_names = a->nstates == b->nstates;
	for (int s = 0; same_names && s < a->nstates; s++)
		same_names = strcmp(a->state[s], b->state[s]) == 0;
	if (!same_names)
		fprintf(out, "note: the two results' state tables differ: states are matched by "
			"index\n");
	fprintf(out, "state chosen (decisions; rows: the baseline's, columns: this result's)\n");
	fprintf(out, "%-12s", "base\\this");
	for (int s = 0; s < b->nstates; s++)
		fprintf(out, " %10s", b->state[s]);
	fputc('\n', out);
	for (int r = 0; r < a->nstates; r++) {
		fprintf(out, "%-12s", a->state[r]);
		for (int s = 0; s < b->nstates; s++)
			fprintf(out, " %10zu", matrix[r][s]);
		fputc('\n', out);
	}
	if (nshown == 0)
		return 0;
	char *text[SHOWN];
	bool same_input = a->input && b->input && strcmp(a->input, b->input) == 0;
	input_lines(same_input ? a->input : NULL, shown_line, nshown, text);
	fprintf(out, "the first %d decisions that differ (state,stop_tick), with their input line:\n",
		nshown);
	fprintf(out, "%8s  %-14s %-14s %s\n", "line", "baseline", "this", "input");
	for (int k = 0; k < nshown; k++) {
		size_t i = shown_at[k];
		char x[48], y[48];
		snprintf(x, sizeof(x), "%s,%d", a->state[a->state_of[i]], a->stop[i]);
		snprintf(y, sizeof(y), "%s,%d", b->state[b->state_of[i]], b->stop[i]);
		fprintf(out, "%8llu  %-14s %-14s %s\n", shown_line[k], x, y,
			text[k] ? text[k] : same_input ? "(the input file is not readable now)"
						       : "(the results name different input files)");
		free(text[k]);
	}
	return 0;
}

int ik__compare_decisions_text(FILE *out, const char *const *paths, const char *const *texts,
			      const size_t *lens, int n, char *err, size_t errlen)
{
	struct decisions *d = calloc((size_t)n, sizeof(*d));
	int rc = -1, loaded = 0;
	if (!d)
		return fail(err, errlen, paths[0], "out of memory");
	for (; loaded < n; loaded++)
		if (load_text(&d[loaded], paths[loaded], texts[loaded], lens[loaded], err, errlen)) {
			loaded++;
			goto out;
		}
	for (int k = 1; k < n; k++) /* all checked before anything is written */
		if (d[k].n != d[0].n ||
		    (d[0].n && memcmp(d[0].line, d[k].line, d[0].n * sizeof(*d[0].line)) != 0)) {
			ik__errmsg(err, errlen, "%s and %s replay different inputs (%zu and %zu "
				 "decisions, of %s and %s): expected the same input file", paths[0],
				 paths[k], d[0].n, d[k].n, d[0].input ? d[0].input : "?",
				 d[k].input ? d[k].input : "?");
			goto out;
		}
	fprintf(out, "compare: %d govreplay results decision by decision, baseline %s\n", n,
		paths[0]);
	describe(out, "baseline", &d[0]);
	for (int k = 1; k < n; k++)
		describe(out, "result  ", &d[k]);
	for (int k = 1; k < n; k++)
		if (against(out, &d[0], &d[k], err, errlen))
			goto out;
	rc = ferror(out) ? -1 : 0;
	if (rc)
		fail(err, errlen, paths[0], "writing the output failed");
out:
	for (int k = 0; k < loaded; k++)
		release(&d[k]);
	free(d);
	return rc;
}

int ik__compare_decisions(FILE *out, const char *const *paths, int n, uint64_t max_bytes,
			 char *err, size_t errlen)
{
	char **texts = calloc((size_t)n, sizeof(char *));
	size_t *lens = calloc((size_t)n, sizeof(size_t));
	int rc = -1, k = 0;
	if (!texts || !lens) {
		fail(err, errlen, paths[0], "out of memory");
		goto out;
	}
	/* each read whole, a regular file within the bound only, refused before reading */
	for (; k < n; k++) {
		size_t max = max_bytes < SIZE_MAX ? (size_t)max_bytes : SIZE_MAX;
		if (ik__config_read_file(paths[k], max, &texts[k], &lens[k], err, errlen, NULL))
			goto out;
	}
	rc = ik__compare_decisions_text(out, paths, (const char *const *)texts, lens, n, err, errlen);
out:
	for (int i = 0; texts && i < k; i++)
		free(texts[i]);
	free(texts);
	free(lens);
	return rc;
}
