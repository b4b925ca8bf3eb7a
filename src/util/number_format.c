/*
 * Numbers as text, the same on every machine: integers scaled by a power of ten computed in
 * integers (no floating point, no locale), and doubles that read back as themselves.  The
 * reports and the workloads' descriptions of themselves print through these.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/number_format.h"

static const uint64_t powers_of_ten[] = {
	1ULL,
	10ULL,
	100ULL,
	1000ULL,
	10000ULL,
	100000ULL,
	1000000ULL,
	10000000ULL,
	100000000ULL,
	1000000000ULL,
	10000000000ULL,
	100000000000ULL,
	1000000000000ULL,
	10000000000000ULL,
	100000000000000ULL,
	1000000000000000ULL,
	10000000000000000ULL,
	100000000000000000ULL,
	1000000000000000000ULL,
};
#define MAX_DIGITS 18

void ik__fmt_scaled(char *buf, size_t len, int64_t value, int scale_digits, int decimals)
{
	if (scale_digits < 0)
		scale_digits = 0;
	if (scale_digits > MAX_DIGITS)
		scale_digits = MAX_DIGITS;
	if (decimals < 0)
		decimals = 0;
	int extra_zeros = 0;
	if (decimals > scale_digits) {
		extra_zeros = decimals - scale_digits;
		decimals = scale_digits;
	}

	/* the magnitude as unsigned, so INT64_MIN has one too */
	uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
	uint64_t divisor = powers_of_ten[scale_digits - decimals];
	uint64_t remainder = magnitude % divisor;
	magnitude /= divisor;
	if (divisor > 1 && remainder >= divisor - remainder) /* remainder >= divisor/2, exactly */
		magnitude++;

	uint64_t unit = powers_of_ten[decimals];
	const char *sign = value < 0 && magnitude != 0 ? "-" : "";
	if (decimals == 0)
		snprintf(buf, len, "%s%llu%s", sign, (unsigned long long)magnitude,
			 extra_zeros ? "." : "");
	else
		snprintf(buf, len, "%s%llu.%0*llu", sign, (unsigned long long)(magnitude / unit),
			 decimals, (unsigned long long)(magnitude % unit));
	/* more decimals asked than the scale has: they are zeros */
	size_t used = strlen(buf);
	while (extra_zeros-- > 0 && used + 1 < len) {
		buf[used++] = '0';
		buf[used] = '\0';
	}
}

void ik__fmt_exact(char *buf, size_t len, int64_t value, int scale_digits)
{
	ik__fmt_scaled(buf, len, value, scale_digits, scale_digits);
	char *dot = strchr(buf, '.');
	if (!dot)
		return;
	char *end = buf + strlen(buf);
	while (end > dot + 1 && end[-1] == '0')
		*--end = '\0';
	if (end == dot + 1)
		*dot = '\0';
}

bool ik__fmt_double(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		return false;
	}
	if (v == 0.0) { /* also -0.0 */
		snprintf(buf, len, "0");
		return true;
	}
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return true;
}

void ik__fmt_fixed(char *buf, size_t len, double v, int decimals)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	snprintf(buf, len, "%.*f", decimals, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}

