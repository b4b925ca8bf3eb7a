/*
 * Costs as distributions: parse, print and sample them.
 *
 * A platform file says how long a state's exit really takes, per wake source, in one of
 * four forms (all values integer ns):
 *
 *   constant NS                      always NS
 *   uniform MIN MAX                  any integer in [MIN, MAX], equally likely
 *   lognormal MEDIAN SIGMA           MEDIAN * e^(SIGMA * N(0,1)), rounded
 *   percentiles P:NS P:NS ...        a measured distribution: the inverse CDF through the
 *                                    points, linear between them, the first point's value
 *                                    below it and the last point's above it
 *
 * Measurements are usually published as percentiles (wult, the kernel's own selftests,
 * patch cover letters), which is why that form exists: a table can be pasted in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/sample.h"
#include "util/errmsg.h"

/* Bounds that keep every computation far from int64 overflow (an hour is not a C-state). */
#define DIST_MAX_NS 3600000000000LL
#define DIST_MAX_SIGMA 10.0

#define DIST_GRAMMAR "'constant NS', 'uniform MIN_NS MAX_NS', 'lognormal MEDIAN_NS SIGMA' " \
		     "or 'percentiles P:NS P:NS ...'"

/* The next whitespace-separated token of *p: its start and length (0 at the end). */
static size_t next_token(const char **p, const char **start)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\v' || *s == '\f')
		s++;
	const char *e = s;
	while (*e && *e != ' ' && *e != '\t' && *e != '\r' && *e != '\n' && *e != '\v' && *e != '\f')
		e++;
	*start = s;
	*p = e;
	return (size_t)(e - s);
}

/* A token, printable and short, for a message. */
static const char *shown(const char *tok, size_t len, char *buf, size_t buflen)
{
	size_t n = 0;
	for (size_t i = 0; i < len && n + 4 < buflen; i++) {
		unsigned char c = (unsigned char)tok[i];
		buf[n++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (n < len && n + 4 <= buflen) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

/* A non-negative integer number of ns: digits only, at most DIST_MAX_NS. */
static bool parse_ns(const char *tok, size_t len, int64_t *out)
{
	if (len == 0)
		return false;
	int64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (tok[i] < '0' || tok[i] > '9')
			return false;
		v = v * 10 + (tok[i] - '0');
		if (v > DIST_MAX_NS)
			return false;
	}
	*out = v + 0.0; /* -0 becomes 0, so it prints as "0" */
	return true;
}

/* A finite decimal number in [min, max] (the token is at most 63 characters). */
static bool parse_real(const char *tok, size_t len, double min, double max, double *out)
{
	char buf[64];
	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, tok, len);
	buf[len] = '\0';
	/* Plain decimal notation only: no hex floats, inf or nan spelled out. */
	for (size_t i = 0; i < len; i++)
		if (!strchr("0123456789.eE+-", buf[i]))
			return false;
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (end != buf + len || errno == ERANGE || !isfinite(v) || v < min || v > max)
		return false;
	*out = v;
	return true;
}

static int parse_percentiles(const char *p, struct ik_dist *d, char *err, size_t errlen)
{
	const char *tok;
	size_t len;
	char show[80];

	while ((len = next_token(&p, &tok)) > 0) {
		const char *colon = memchr(tok, ':', len);
		double pct;
		int64_t val;
		if (!colon)
			return ik__errmsg(err, errlen, "expected 'percentiles P:NS P:NS ...' (P in 0..100, NS an "
					 "integer), got '%s' without ':'", shown(tok, len, show, sizeof(show)));
		if (d->npoints == IK_DIST_MAX_POINTS)
			return ik__errmsg(err, errlen, "expected at most %d percentile points, got more",
					 IK_DIST_MAX_POINTS);
		if (!parse_real(tok, (size_t)(colon - tok), 0.0, 100.0, &pct))
			return ik__errmsg(err, errlen, "expected a percentile 0..100 before ':', got '%s'",
					 shown(tok, len, show, sizeof(show)));
		if (!parse_ns(colon + 1, len - (size_t)(colon + 1 - tok), &val))
			return ik__errmsg(err, errlen, "expected an integer number of ns 0..%lld after ':', got '%s'",
					 DIST_MAX_NS, shown(tok, len, show, sizeof(show)));
		if (d->npoints > 0 && !(pct > d->pct[d->npoints - 1]))
			return ik__errmsg(err, errlen, "expected increasing percentiles, got '%s' after %g",
					 shown(tok, len, show, sizeof(show)), d->pct[d->npoints - 1]);
		if (d->npoints > 0 && val < d->val_ns[d->npoints - 1])
			return ik__errmsg(err, errlen, "expected non-decreasing values, got '%s' after %" PRId64
					 " ns", shown(tok, len, show, sizeof(show)), d->val_ns[d->npoints - 1]);
		d->pct[d->npoints] = pct;
		d->val_ns[d->npoints] = val;
		d->npoints++;
	}
	if (d->npoints == 0)
		return ik__errmsg(err, errlen, "expected 'percentiles P:NS P:NS ...' with at least one point, "
				 "got none");
	return 0;
}

int ik__dist_parse(const char *text, struct ik_dist *out, char *err, size_t errlen)
{
	struct ik_dist d;
	const char *p = text ? text : "";
	const char *tok, *tok2;
	size_t len, len2;
	char show[80];

	memset(&d, 0, sizeof(d));
	len = next_token(&p, &tok);
	if (len == 0)
		return ik__errmsg(err, errlen, "expected " DIST_GRAMMAR ", got ''");

	if (len == 8 && memcmp(tok, "constant", 8) == 0) {
		d.kind = IK_DIST_CONSTANT;
		len = next_token(&p, &tok);
		if (!parse_ns(tok, len, &d.a_ns))
			return ik__errmsg(err, errlen, "expected 'constant NS' with NS an integer 0..%lld, got '%s'",
					 DIST_MAX_NS, shown(tok, len, show, sizeof(show)));
		d.b_ns = d.a_ns;
	} else if (len == 7 && memcmp(tok, "uniform", 7) == 0) {
		d.kind = IK_DIST_UNIFORM;
		len = next_token(&p, &tok);
		if (!parse_ns(tok, len, &d.a_ns))
			return ik__errmsg(err, errlen, "expected 'uniform MIN_NS MAX_NS' with MIN_NS an integer "
					 "0..%lld, got '%s'", DIST_MAX_NS, shown(tok, len, show, sizeof(show)));
		len = next_token(&p, &tok);
		if (!parse_ns(tok, len, &d.b_ns))
			return ik__errmsg(err, errlen, "expected 'uniform MIN_NS MAX_NS' with MAX_NS an integer "
					 "0..%lld, got '%s'", DIST_MAX_NS, shown(tok, len, show, sizeof(show)));
		if (d.b_ns < d.a_ns)
			return ik__errmsg(err, errlen, "expected 'uniform MIN_NS MAX_NS' with MIN_NS <= MAX_NS, "
					 "got %" PRId64 " > %" PRId64, d.a_ns, d.b_ns);
	} else if (len == 9 && memcmp(tok, "lognormal", 9) == 0) {
		d.kind = IK_DIST_LOGNORMAL;
		len = next_token(&p, &tok);
		if (!parse_ns(tok, len, &d.a_ns))
			return ik__errmsg(err, errlen, "expected 'lognormal MEDIAN_NS SIGMA' with MEDIAN_NS an "
					 "integer 0..%lld, got '%s'", DIST_MAX_NS,
					 shown(tok, len, show, sizeof(show)));
		len = next_token(&p, &tok);
		if (!parse_real(tok, len, 0.0, DIST_MAX_SIGMA, &d.sigma))
			return ik__errmsg(err, errlen, "expected 'lognormal MEDIAN_NS SIGMA' with SIGMA a number "
					 "0..%g, got '%s'", DIST_MAX_SIGMA, shown(tok, len, show, sizeof(show)));
		d.b_ns = d.a_ns;
	} else if (len == 11 && memcmp(tok, "percentiles", 11) == 0) {
		d.kind = IK_DIST_PERCENTILES;
		if (parse_percentiles(p, &d, err, errlen) != 0)
			return -1;
		p += strlen(p);
		d.a_ns = d.val_ns[0];
		d.b_ns = d.val_ns[d.npoints - 1];
	} else {
		return ik__errmsg(err, errlen, "expected " DIST_GRAMMAR ", got '%s'",
				 shown(tok, len, show, sizeof(show)));
	}

	len2 = next_token(&p, &tok2);
	if (len2 > 0)
		return ik__errmsg(err, errlen, "expected nothing after the %s distribution's values, got '%s'",
				 d.kind == IK_DIST_CONSTANT ? "constant" :
				 d.kind == IK_DIST_UNIFORM ? "uniform" : "lognormal",
				 shown(tok2, len2, show, sizeof(show)));
	*out = d;
	return 0;
}

/* The shortest decimal that reads back as exactly x (so format and parse round-trip). */
static void format_real(double x, char *buf, size_t len)
{
	if (x == floor(x) && fabs(x) < 1e15) {
		snprintf(buf, len, "%.0f", x);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}

void ik__dist_format(const struct ik_dist *d, char *buf, size_t len)
{
	char real[40];
	size_t n;

	if (!buf || len == 0)
		return;
	switch (d->kind) {
	case IK_DIST_CONSTANT:
		snprintf(buf, len, "constant %" PRId64, d->a_ns);
		break;
	case IK_DIST_UNIFORM:
		snprintf(buf, len, "uniform %" PRId64 " %" PRId64, d->a_ns, d->b_ns);
		break;
	case IK_DIST_LOGNORMAL:
		format_real(d->sigma, real, sizeof(real));
		snprintf(buf, len, "lognormal %" PRId64 " %s", d->a_ns, real);
		break;
	case IK_DIST_PERCENTILES:
		snprintf(buf, len, "percentiles");
		for (int i = 0; i < d->npoints && i < IK_DIST_MAX_POINTS; i++) {
			n = strlen(buf);
			format_real(d->pct[i], real, sizeof(real));
			snprintf(buf + n, len - n, " %s:%" PRId64, real, d->val_ns[i]);
		}
		break;
	default:
		snprintf(buf, len, "invalid");
		break;
	}
}

/* Inverse CDF of a percentile table at u in [0, 1). */
static int64_t sample_percentiles(const struct ik_dist *d, double u)
{
	int n = d->npoints;
	if (n <= 0)
		return 0;
	if (n > IK_DIST_MAX_POINTS)
		n = IK_DIST_MAX_POINTS;
	double p = u * 100.0;
	if (p < d->pct[0])
		return d->val_ns[0] > 0 ? d->val_ns[0] : 0;
	for (int i = 0; i + 1 < n; i++) {
		if (p < d->pct[i + 1]) {
			double span = d->pct[i + 1] - d->pct[i];
			double lo = (double)d->val_ns[i], hi = (double)d->val_ns[i + 1];
			double frac = span > 0.0 ? (p - d->pct[i]) / span : 0.0;
			return ik__dist_round_ns(lo + (hi - lo) * frac);
		}
	}
	return d->val_ns[n - 1] > 0 ? d->val_ns[n - 1] : 0;
}

int64_t ik__dist_sample(const struct ik_dist *d, struct ik_rng *rng)
{
	switch (d->kind) {
	case IK_DIST_CONSTANT:
		return d->a_ns > 0 ? d->a_ns : 0;
	case IK_DIST_UNIFORM: {
		if (d->b_ns <= d->a_ns)
			return d->a_ns > 0 ? d->a_ns : 0;
		/* b - a + 1 <= 2^63 values; the modulo bias is below 2^-60 for sane ranges. */
		uint64_t span = (uint64_t)d->b_ns - (uint64_t)d->a_ns + 1;
		int64_t v = d->a_ns + (int64_t)(ik__rng_next(rng) % span);
		return v > 0 ? v : 0;
	}
	case IK_DIST_LOGNORMAL:
		if (d->sigma <= 0.0)
			return d->a_ns > 0 ? d->a_ns : 0;
		return ik__dist_round_ns((double)d->a_ns *
					ik__det_exp(d->sigma * ik__rng_normal_inline(rng)));
	case IK_DIST_PERCENTILES:
		return sample_percentiles(d, ik__rng_unit(rng));
	}
	return 0;
}

static const char *const method_names[] = {
	[IK_METHOD_POLL] = "poll", [IK_METHOD_MWAIT] = "mwait", [IK_METHOD_HLT] = "hlt",
	[IK_METHOD_IOPORT] = "ioport", [IK_METHOD_STOP] = "stop", [IK_METHOD_WFI] = "wfi",
	[IK_METHOD_OTHER] = "other",
};

const char *ik__method_name(enum ik_method m)
{
	if ((unsigned)m < sizeof(method_names) / sizeof(method_names[0]))
		return method_names[m];
	return "?";
}

int ik__method_parse(const char *text, enum ik_method *m)
{
	if (!text)
		return -1;
	for (unsigned i = 0; i < sizeof(method_names) / sizeof(method_names[0]); i++) {
		if (strcmp(text, method_names[i]) == 0) {
			*m = (enum ik_method)i;
			return 0;
		}
	}
	return -1;
}
