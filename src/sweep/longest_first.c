/* Longest remaining first (longest_first.h). */
#include "sweep/longest_first.h"

static double rank_of(const struct ik_lf_run *r, double keep)
{
	return r->running ? r->left_s * keep : r->left_s; /* INFINITY stays INFINITY */
}

bool ik__lf_goes_on(const struct ik_lf_run *r, int n, int slots, int me, double keep)
{
	double mine = rank_of(&r[me], keep);
	int ahead = 0;
	for (int i = 0; i < n; i++) {
		if (i == me || !r[i].live)
			continue;
		double other = rank_of(&r[i], keep);
		if (other > mine || (other == mine && i < me))
			ahead++;
	}
	return ahead < slots;
}
