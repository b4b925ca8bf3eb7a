/*
 * idlekit sweep subsystem, internal: the rows file's text (one line per run, the tidy
 * table's columns) shared by the runner, the reports and the merge.
 */
#ifndef IDLEKIT_SWEEP_INTERNAL_H
#define IDLEKIT_SWEEP_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "report/textout.h"
#include "config/result.h"
#include "sweep/sweep.h"

/* Columns before the axes (point, run, seed) and the settings after them. */
#define IK_SWEEP_LEAD_COLS 3
#define IK_SWEEP_SETTING_COLS 7
/* Settings kept per point for the summary: scenario, platform, driver, governor. */
#define IK_SWEEP_KEPT_SETTINGS 4

/* snprintf for messages, where one cut short is still a message. */
void ik__sweep_msg(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Columns of a row for this spec. */
int ik__sweep_row_columns(const struct ik_sweep_spec *s);
/* The row of one run as malloc'd text ending in '\n' (NULL: out of memory). */
char *ik__sweep_row_format(const struct ik_sweep_spec *s, int64_t point, int run,
			  const struct ik_scenario *sc, const struct ik_run_result *r);

/*
 * Split a CSV line (RFC 4180 quoting, no embedded newlines) in place into at most max
 * fields; returns the number of fields, or -1 when malformed.  Fields are unquoted.
 */
int ik__sweep_split(char *line, char **fields, int max);

/* A rows line read back: fields split; the point and run numbers. */
struct ik_sweep_row {
	char *raw;  /* the line as read, with its '\n' (owned) */
	size_t rawcap;
	size_t len; /* its bytes */
	char *work; /* a copy split into fields (owned) */
	size_t workcap;
	char *f[IK_SWEEP_LEAD_COLS + IK_SWEEP_MAX_AXES + IK_SWEEP_SETTING_COLS + 32];
	int nf;
	int64_t point;
	int run;
};
/* The next complete line: 1, 0 at the end (or a last line cut short), -1 malformed. */
int ik__sweep_row_read(FILE *rows, const struct ik_sweep_spec *s, struct ik_sweep_row *row);
void ik__sweep_row_free(struct ik_sweep_row *row);

#endif
