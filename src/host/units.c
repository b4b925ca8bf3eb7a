/* Durations with units, as users type them: "100us", "1.5ms", "250ns", "2s". */
#include <stdio.h>
#include <string.h>

#include "host/host.h"
#include "util/errmsg.h"

static int64_t unit_ns(const char *unit)
{
	if (strcmp(unit, "ns") == 0)
		return 1;
	if (strcmp(unit, "us") == 0)
		return 1000;
	if (strcmp(unit, "ms") == 0)
		return 1000000;
	if (strcmp(unit, "s") == 0)
		return 1000000000;
	return 0;
}

int ik__parse_duration_ns(const char *text, const char *default_unit, int64_t max_ns,
			 int64_t *ns, char *err, size_t errlen)
{
	const char *p = text ? text : "";
	int64_t whole = 0, frac = 0, frac_scale = 1;
	bool digits = false;

	/* Whole and fractional parts as integers, so "0.1ms" is exactly 100000 ns. */
	for (; *p >= '0' && *p <= '9'; p++, digits = true) {
		if (whole > INT64_MAX / 100)
			goto range;
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, digits = true) {
			if (frac_scale >= 1000000000) {
				if (*p != '0')
					goto fraction;
				continue;
			}
			frac = frac * 10 + (*p - '0');
			frac_scale *= 10;
		}
	}
	if (!digits)
		goto bad;
	int64_t unit = *p ? unit_ns(p) : unit_ns(default_unit);
	if (!unit)
		goto bad;
	if (whole > max_ns / unit)
		goto range;
	int64_t v = whole * unit;
	if ((frac * unit) % frac_scale != 0)
		goto fraction;
	v += frac * unit / frac_scale;
	if (v > max_ns)
		goto range;
	*ns = v;
	return 0;
bad:
	return ik__errmsg(err, errlen, "expected a duration such as 100us, 1.5ms, 250ns or 2s (a "
			  "bare number is in %s), got '%.40s'", default_unit, text ? text : "");
fraction:
	return ik__errmsg(err, errlen, "'%.40s' is not a whole number of nanoseconds", text);
range:
	return ik__errmsg(err, errlen, "'%.40s' is out of range (at most %lld ns)", text,
			  (long long)max_ns);
}
