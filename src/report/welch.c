/*
 * Welch's t-test: are two sets of runs' means different beyond what their spread
 * explains?  compare marks a change significant when the two-sided p-value is below 0.05.
 *
 * The p-value comes from Student's t distribution: P(|T| > t) with df degrees of freedom
 * is the regularized incomplete beta function I_x(df/2, 1/2) at x = df / (df + t^2),
 * evaluated here by its continued fraction (modified Lentz method).
 */
#include <math.h>

#include "config/result.h"

/* ln Gamma(x) for x > 0 (Lanczos approximation, g = 7, 9 terms). */
static double log_gamma(double x)
{
	static const double c[9] = { 0.99999999999980993,  676.5203681218851,
				     -1259.1392167224028,  771.32342877765313,
				     -176.61502916214059,  12.507343278686905,
				     -0.13857109526572012, 9.9843695780195716e-6,
				     1.5056327351493116e-7 };
	if (x < 0.5)
		return log(M_PI / sin(M_PI * x)) - log_gamma(1.0 - x);
	x -= 1.0;
	double a = c[0];
	double t = x + 7.5;
	for (int i = 1; i < 9; i++)
		a += c[i] / (x + i);
	return 0.5 * log(2.0 * M_PI) + (x + 0.5) * log(t) - t + log(a);
}

#define TINY 1e-300

/* One term num of the continued fraction (Lentz's method): c and d updated, the factor. */
static double lentz_step(double num, double *c, double *d)
{
	*d = 1.0 + num * *d;
	*d = fabs(*d) < TINY ? TINY : *d;
	*c = 1.0 + num / *c;
	*c = fabs(*c) < TINY ? TINY : *c;
	*d = 1.0 / *d;
	return *d * *c;
}

/* Continued fraction of the incomplete beta function. */
static double beta_fraction(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
	if (fabs(d) < TINY)
		d = TINY;
	d = 1.0 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		h *= lentz_step(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)), &c, &d);
		double delta = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
					  &c, &d);
		h *= delta;
		if (fabs(delta - 1.0) < 1e-15)
			break;
	}
	return h;
}

double ik__incomplete_beta(double a, double b, double x)
{
	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	double front = exp(log_gamma(a + b) - log_gamma(a) - log_gamma(b) + a * log(x) +
			   b * log(1.0 - x));
	/* The fraction converges fast only below the mean; use the symmetry above it. */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_fraction(a, b, x) / a;
	return 1.0 - front * beta_fraction(b, a, 1.0 - x) / b;
}

/* Two-sided P(|T| > t) for Student's t with df degrees of freedom. */
static double t_two_sided_p(double t, double df)
{
	return ik__incomplete_beta(df / 2.0, 0.5, df / (df + t * t));
}

double ik__student_t_quantile(double two_sided_p, double df)
{
	if (!(two_sided_p > 0.0 && two_sided_p < 1.0) || !(df > 0.0))
		return NAN;
	/* P(|T| > t) falls from 1 at t = 0: bisect (on a scale that reaches the far tail). */
	double lo = 0.0, hi = 1.0;
	while (t_two_sided_p(hi, df) > two_sided_p && hi < 1e12)
		hi *= 2.0;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (t_two_sided_p(mid, df) > two_sided_p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

void ik__welch_test(const struct ik_summary *a, const struct ik_summary *b, double confidence,
		   struct ik_welch *w)
{
	w->diff = b->amean - a->amean;
	w->t = w->df = w->p = w->ci_low = w->ci_high = NAN;
	w->tested = false;
	if (a->n < 2 || b->n < 2)
		return;
	double va = a->stddev * a->stddev / a->n, vb = b->stddev * b->stddev / b->n;
	/* No spread on either side: the runs repeat exactly, there is nothing to test. */
	if (!(va + vb > 0.0) || !isfinite(va + vb))
		return;
	double se = sqrt(va + vb);
	w->t = w->diff / se;
	w->df = (va + vb) * (va + vb) / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	w->p = t_two_sided_p(w->t, w->df);
	double q = ik__student_t_quantile(1.0 - confidence, w->df);
	w->ci_low = w->diff - q * se;
	w->ci_high = w->diff + q * se;
	w->tested = true;
}

double ik__welch_p(const struct ik_summary *a, const struct ik_summary *b)
{
	struct ik_welch w;
	ik__welch_test(a, b, 0.95, &w);
	return w.p;
}
