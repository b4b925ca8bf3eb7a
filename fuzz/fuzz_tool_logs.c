/*
 * Fuzz target: the logs of the real tools validate runs (src/validate): rt-app's
 * per-activation log (ik__val_rtapp_log), cyclictest's histogram file
 * (ik__val_cyclictest_hist) and tbench's output (ik__val_tbench_log).  The first byte modulo
 * 3 chooses the reader ('0', '1', '2'), the rest is the file.  Reading must never crash or
 * hang; a log read counts no more wake-up latencies than activations, a histogram read has
 * p50 <= p99, tbench's counts rise and an interpolation between them is never negative, and
 * a refusal is one line.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	FILE *f = fmemopen((void *)(data + 1), size - 1, "r");
	if (size == 1)
		f = fopen("/dev/null", "r");
	if (!f)
		return 0;
	char err[IK_VAL_ERR_LEN] = "";
	int rc;
	if (data[0] % 3 == 0) {
		struct ik_val_logs l = { 0 };
		rc = ik__val_rtapp_log(f, 0, INT64_MAX, &l, err, sizeof(err));
		if (rc == 0 && l.n > l.lines)
			abort();
		free(l.wu);
	} else if (data[0] % 3 == 2) {
		struct ik_val_tbench_log *l = malloc(sizeof(*l));
		if (!l) {
			fclose(f);
			return 0;
		}
		rc = ik__val_tbench_log(f, "fuzz.out", l, err, sizeof(err));
		if (rc == 0) {
			for (int i = 1; i < l->n; i++)
				if (!(l->sec[i] > l->sec[i - 1]) || l->ops[i] < l->ops[i - 1])
					abort();
			double ops = ik__val_tbench_ops_between(l, 0.25, l->sec[l->n - 1]);
			if (ops < 0)
				abort();
		}
		free(l);
	} else {
		struct ik_val_sample s;
		uint64_t cycles = 0;
		memset(&s, 0, sizeof(s));
		rc = ik__val_cyclictest_hist(f, "fuzz.hist", &s, &cycles, err, sizeof(err));
		if (rc == 0 && s.have_wake && !(s.wake_p50_us <= s.wake_p99_us))
			abort();
	}
	if (rc != 0 && (!err[0] || strchr(err, '\n')))
		abort();
	fclose(f);
	return 0;
}
