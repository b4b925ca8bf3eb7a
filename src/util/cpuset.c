/*
 * CPU sets, and the kernel's CPU list format ("0-3,8,10-11") that sysfs files such as
 * 'online' and 'present' use, that traces carry and that users type after --cpu
 * (util/cpuset.h).
 */
#include <stdio.h>
#include <string.h>

#include "util/cpuset.h"

#define WORDS (IK_CPUSET_MAX / 64)

void ik__cpuset_clear(struct ik_cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void ik__cpuset_add(struct ik_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < IK_CPUSET_MAX)
		s->bits[cpu / 64] |= (uint64_t)1 << (cpu % 64);
}

void ik__cpuset_remove(struct ik_cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < IK_CPUSET_MAX)
		s->bits[cpu / 64] &= ~((uint64_t)1 << (cpu % 64));
}

bool ik__cpuset_has(const struct ik_cpuset *s, int cpu)
{
	return cpu >= 0 && cpu < IK_CPUSET_MAX && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int ik__cpuset_count(const struct ik_cpuset *s)
{
	int n = 0;
	for (int i = 0; i < WORDS; i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

int ik__cpuset_next(const struct ik_cpuset *s, int after)
{
	int cpu = after + 1;
	if (cpu < 0)
		cpu = 0;
	while (cpu < IK_CPUSET_MAX) {
		uint64_t word = s->bits[cpu / 64] >> (cpu % 64);
		if (word)
			return cpu + __builtin_ctzll(word);
		cpu = (cpu / 64 + 1) * 64;
	}
	return -1;
}

bool ik__cpuset_equal(const struct ik_cpuset *a, const struct ik_cpuset *b)
{
	return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

void ik__cpuset_and(struct ik_cpuset *into, const struct ik_cpuset *other)
{
	for (int i = 0; i < WORDS; i++)
		into->bits[i] &= other->bits[i];
}

void ik__cpuset_or(struct ik_cpuset *into, const struct ik_cpuset *other)
{
	for (int i = 0; i < WORDS; i++)
		into->bits[i] |= other->bits[i];
}

void ik__cpuset_andnot(struct ik_cpuset *into, const struct ik_cpuset *other)
{
	for (int i = 0; i < WORDS; i++)
		into->bits[i] &= ~other->bits[i];
}

size_t ik__cpuset_format(const struct ik_cpuset *s, char *buf, size_t len)
{
	size_t need = 0;
	char item[32];

	if (buf && len)
		buf[0] = '\0';
	for (int first = ik__cpuset_next(s, -1); first >= 0;) {
		int last = first;
		while (ik__cpuset_has(s, last + 1))
			last++;
		int k = last == first ? snprintf(item, sizeof(item), "%s%d", need ? "," : "", first)
				      : snprintf(item, sizeof(item), "%s%d-%d", need ? "," : "", first,
						 last);
		if (buf && need + (size_t)k < len)
			memcpy(buf + need, item, (size_t)k + 1);
		else if (buf && len)
			buf[need < len ? need : len - 1] = '\0';
		need += (size_t)k;
		first = ik__cpuset_next(s, last);
	}
	return need;
}

/* A decimal CPU number at *p, advancing *p.  -1 if there is none, -2 if it is too large. */
static long parse_number(const char **p)
{
	const char *q = *p;
	long v = 0;

	if (*q < '0' || *q > '9')
		return -1;
	while (*q >= '0' && *q <= '9') {
		if (v > IK_CPUSET_MAX * 10L)
			v = IK_CPUSET_MAX * 10L + 1; /* saturate: any such value is out of range */
		else
			v = v * 10 + (*q - '0');
		q++;
	}
	*p = q;
	return v;
}

/* Up to len characters of s, control characters shown as '?': messages stay one line. */
static void shown(char *out, size_t size, const char *s, size_t len)
{
	size_t n = 0;
	for (; s && *s && n < len && n + 1 < size; s++)
		out[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
	out[n] = '\0';
}

static int fail(char *err, size_t errlen, const char *text, const char *at, const char *what)
{
	char t[80], a[24];
	shown(t, sizeof(t), text, 64);
	shown(a, sizeof(a), at, 16);
	if (err && errlen) {
		if (at && *at)
			snprintf(err, errlen, "CPU list '%s': %s at '%s'", t, what, a);
		else
			snprintf(err, errlen, "CPU list '%s': %s", t, what);
	}
	return -1;
}

static const char *skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

int ik__cpulist_parse(const char *text, int limit, bool allow_empty, struct ik_cpuset *out,
		     char *err, size_t errlen)
{
	const char *p = text ? text : "";
	char msg[128];

	if (limit > IK_CPUSET_MAX || limit < 0)
		limit = IK_CPUSET_MAX;
	ik__cpuset_clear(out);

	/* A trailing newline (or several) is how sysfs ends its values. */
	size_t len = strlen(p);
	while (len && (p[len - 1] == '\n' || p[len - 1] == '\r'))
		len--;
	if (strcspn(p, "\n\r") < len)
		return fail(err, errlen, p, NULL, "expected one line");
	char copy[4096];
	if (len >= sizeof(copy))
		return fail(err, errlen, p, NULL, "too long (at most 4095 characters)");
	memcpy(copy, p, len);
	copy[len] = '\0';
	p = skip_spaces(copy);
	if (*p == '\0') {
		if (allow_empty)
			return 0;
		return fail(err, errlen, copy, NULL, "expected CPU numbers and ranges such as "
			    "0-3,8,10-11, got nothing");
	}
	for (;;) {
		p = skip_spaces(p);
		const char *start = p, *last_text = p;
		long first = parse_number(&p), last;
		if (first < 0)
			return fail(err, errlen, copy, start, "expected a CPU number");
		int last_len = (int)(p - start);
		if (*p == '-') {
			p++;
			const char *second = p;
			last_text = p;
			last = parse_number(&p);
			last_len = (int)(p - second);
			if (last < 0)
				return fail(err, errlen, copy, second, "expected the CPU number ending "
					    "the range");
			if (last < first) {
				snprintf(msg, sizeof(msg), "range %ld-%ld goes backwards", first, last);
				return fail(err, errlen, copy, NULL, msg);
			}
		} else {
			last = first;
		}
		if (last >= limit) {
			/* the number as written: a long one is held saturated, never shown so */
			snprintf(msg, sizeof(msg), "CPU %.*s is out of range (expected 0..%d)",
				 last_len > 24 ? 24 : last_len, last_text, limit - 1);
			return fail(err, errlen, copy, NULL, msg);
		}
		for (long c = first; c <= last; c++)
			ik__cpuset_add(out, (int)c);
		p = skip_spaces(p);
		if (*p == '\0')
			return 0;
		if (*p != ',')
			return fail(err, errlen, copy, p, "expected ',' or the end of the list");
		p++;
	}
}
