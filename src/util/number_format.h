/*
 * Numbers as text, exactly and the same everywhere (number_format.c).  The integer ones use
 * no locale; the two for doubles print with the C library's %g and %f, so call them in the
 * "C" numeric locale (the reports enter it: ik__rep_locale_enter).
 */
#ifndef IDLEKIT_UTIL_NUMBER_FORMAT_H
#define IDLEKIT_UTIL_NUMBER_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Long enough for any number these functions print. */
#define IK_FMT_NUM_LEN 64

/*
 * value / 10^scale_digits, rounded half away from zero to `decimals` decimals, computed in
 * integers (exact, no locale, no floating point): (1234567, 3, 2) -> "1234.57".
 */
void ik__fmt_scaled(char *buf, size_t len, int64_t value, int scale_digits, int decimals);
/* value / 10^scale_digits exactly, trailing zeros (and a bare '.') removed: "1234.567", "80000". */
void ik__fmt_exact(char *buf, size_t len, int64_t value, int scale_digits);
/*
 * A double as the shortest of %.15g, %.16g, %.17g that reads back as the same double
 * (so it round-trips), "-0" printed as "0".  Returns false and writes "null" when v is NaN
 * or infinite.
 */
bool ik__fmt_double(char *buf, size_t len, double v);
/* A double with a fixed number of decimals ("%.*f"), "n/a" when not finite, never "-0.00". */
void ik__fmt_fixed(char *buf, size_t len, double v, int decimals);

#endif
