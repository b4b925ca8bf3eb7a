/*
 * Which release's cpuidle governor API a kernel: file was written against, read from its
 * source (src/core/gov_kernel.c says so, and warns when the run is another release).
 *
 * Two kinds of evidence:
 *  - the file is a release's own governor file, unmodified: its git blob id (the sha1 of
 *    "blob LEN\0" and the bytes, as git hash-object computes it) is one of those below,
 *    taken from the kernel trees named beside them (from 5.10.7 to 6.19.0);
 *  - the API it uses: struct members, calls and the parameters of its select and reflect
 *    callbacks that exist only from or only up to a release.  Each marker's bounds are
 *    those of the change that added or removed it (docs/kernel-releases.md); the file's
 *    releases are where all of them meet.
 *
 * The source is read as C tokens (comments, string and character literals skipped, so that
 * a comment naming last_residency is not evidence); nothing is compiled.  Any bytes are
 * accepted (fuzz/fuzz_gov_api.c).
 */
#include <nettle/sha1.h>
#include <stdio.h>
#include <string.h>

#include "core/gov_internal.h"

#define V(a, b) (((a) << 16) + ((b) << 8))

/* ---- Known files ---------------------------------------------------------------------- */

/*
 * The governor files of the kernel trees read here (git ls-tree HEAD
 * drivers/cpuidle/governors/ in each; Makefile versions), plus what docs/kernel-releases.md
 * established without a tree: teo.c of 6.15 is 6.14.0's, of 6.16 and 6.17 6.18.2's; teo.c
 * of 7.0 and menu.c of 7.1 differ from 6.19's (the patch mails; no blob: "another file").
 * A run's release between two samples of one blob has that file; one at or past a sample
 * of another file does not; one between a sample of this and of another is not known.
 */
static const struct sample {
	const char *file;
	int rel;
	const char *tree; /* the tree read, or how it was known */
	const char *blob; /* NULL: a file other than every blob here */
} samples[] = {
	{ "haltpoll.c", V(5, 10), "5.10.7", "cb2a96eafc02750acc5e7e66fa53cea18a50523a" },
	{ "ladder.c", V(5, 10), "5.10.7", "8e9058c4ea63e1217ad33d2f61dd8e768187af0a" },
	{ "menu.c", V(5, 10), "5.10.7", "b0a7ad566081a2f3d9b51f3a3d52ae9263064b33" },
	{ "teo.c", V(5, 10), "5.10.7", "6deaaf5f05b5765598115132492edc4f654df9da" },
	{ "haltpoll.c", V(5, 15), "5.15.55", "cb2a96eafc02750acc5e7e66fa53cea18a50523a" },
	{ "ladder.c", V(5, 15), "5.15.55", "8e9058c4ea63e1217ad33d2f61dd8e768187af0a" },
	{ "menu.c", V(5, 15), "5.15.55", "2e5670446991f473e92fd8b3845e17622a4724ca" },
	{ "teo.c", V(5, 15), "5.15.55", "d9262db79cae53c0b1d277513d014d3e91a0f879" },
	{ "haltpoll.c", V(6, 1), "6.1.0", "1dff3a52917de9a6b79d1cd9e301a24659b412f6" },
	{ "ladder.c", V(6, 1), "6.1.0", "8e9058c4ea63e1217ad33d2f61dd8e768187af0a" },
	{ "menu.c", V(6, 1), "6.1.0", "c4922684f30583bbfafb2523f986956287e00e5c" },
	{ "teo.c", V(6, 1), "6.1.0", "d9262db79cae53c0b1d277513d014d3e91a0f879" },
	{ "haltpoll.c", V(6, 6), "6.6.9", "1dff3a52917de9a6b79d1cd9e301a24659b412f6" },
	{ "ladder.c", V(6, 6), "6.6.9", "8e9058c4ea63e1217ad33d2f61dd8e768187af0a" },
	{ "menu.c", V(6, 6), "6.6.9", "b96e3da0fedd01dfc7f1ab0815ad3b3f09afa863" },
	{ "teo.c", V(6, 6), "6.6.9", "7244f71c59c5dd4a4b64141af307ef76ee2fcc77" },
	{ "haltpoll.c", V(6, 12), "6.12.0", "663b7f164d202c011a3c8ddf824aeea400af0c50" },
	{ "ladder.c", V(6, 12), "6.12.0", "6617eb494a110c0642b1899163574d2f47223fa4" },
	{ "menu.c", V(6, 12), "6.12.0", "f3c9d49f0f2a52a4a4e2d1a772a95e90e01211c8" },
	{ "teo.c", V(6, 12), "6.12.0", "f2992f92d8db86076701f0f6125cd9be06339ddd" },
	{ "haltpoll.c", V(6, 13), "6.13.7", "663b7f164d202c011a3c8ddf824aeea400af0c50" },
	{ "ladder.c", V(6, 13), "6.13.7", "6617eb494a110c0642b1899163574d2f47223fa4" },
	{ "menu.c", V(6, 13), "6.13.7", "28363bfa3e4c9feb8827d97d407d53ffd6035d1c" },
	{ "teo.c", V(6, 13), "6.13.7", "173ddcac540aded218bccadbcc66fa9dedc20972" },
	{ "haltpoll.c", V(6, 14), "6.14.0", "663b7f164d202c011a3c8ddf824aeea400af0c50" },
	{ "ladder.c", V(6, 14), "6.14.0", "6617eb494a110c0642b1899163574d2f47223fa4" },
	{ "menu.c", V(6, 14), "6.14.0", "28363bfa3e4c9feb8827d97d407d53ffd6035d1c" },
	{ "teo.c", V(6, 14), "6.14.0", "8fe5e1b47ef9082d69584edea1b479023c822009" },
	{ "teo.c", V(6, 15), "6.15 (docs/kernel-releases.md)", "8fe5e1b47ef9082d69584edea1b479023c822009" },
	{ "teo.c", V(6, 16), "6.16 (docs/kernel-releases.md)", "bfa55c1eab5bcd90dfe2e1064ef6279809cea298" },
	{ "teo.c", V(6, 17), "6.17 (docs/kernel-releases.md)", "bfa55c1eab5bcd90dfe2e1064ef6279809cea298" },
	{ "haltpoll.c", V(6, 18), "6.18.2", "663b7f164d202c011a3c8ddf824aeea400af0c50" },
	{ "ladder.c", V(6, 18), "6.18.2", "6617eb494a110c0642b1899163574d2f47223fa4" },
	{ "menu.c", V(6, 18), "6.18.2", "23239b0c04f95b05845e97c97116800fe0c89125" },
	{ "teo.c", V(6, 18), "6.18.2", "bfa55c1eab5bcd90dfe2e1064ef6279809cea298" },
	{ "haltpoll.c", V(6, 19), "6.19.0", "663b7f164d202c011a3c8ddf824aeea400af0c50" },
	{ "ladder.c", V(6, 19), "6.19.0", "6617eb494a110c0642b1899163574d2f47223fa4" },
	{ "menu.c", V(6, 19), "6.19.0", "64d6f7a1c7766325da05248b5e210a7dab4509d3" },
	{ "teo.c", V(6, 19), "6.19.0", "81ac5fd58a1c6955be7ad1a1a6e44fb6c7626715" },
	{ "teo.c", V(7, 0), "7.0 (its patch mails)", NULL },
	{ "menu.c", V(7, 1), "7.1 (its patch mails)", NULL },
};
#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

void ik__gov_api_known(const char *blob, struct ik_gov_api *api)
{
	const struct sample *first = NULL, *last = NULL;
	api->exact_file = NULL;
	for (size_t i = 0; i < NSAMPLES; i++) {
		const struct sample *k = &samples[i];
		if (!k->blob || strcmp(k->blob, blob) != 0)
			continue;
		if (!first || k->rel < first->rel)
			first = k;
		if (!last || k->rel > last->rel)
			last = k;
	}
	if (!first)
		return;
	api->exact_file = first->file;
	api->exact_lo = first->rel;
	api->exact_hi = last->rel;
	api->exact_lo_tree = first->tree;
	api->exact_hi_tree = last->tree;
	api->exact_before = api->exact_after = 0;
	for (size_t i = 0; i < NSAMPLES; i++) {
		const struct sample *k = &samples[i];
		if (strcmp(k->file, first->file) != 0 || (k->blob && strcmp(k->blob, blob) == 0))
			continue;
		if (k->rel < first->rel && k->rel > api->exact_before)
			api->exact_before = k->rel;
		if (k->rel > last->rel && (!api->exact_after || k->rel < api->exact_after))
			api->exact_after = k->rel;
	}
}

static void git_blob_id(const char *src, size_t len, char hex[41])
{
	struct sha1_ctx h;
	char head[32];
	unsigned char d[SHA1_DIGEST_SIZE];
	int n = snprintf(head, sizeof(head), "blob %zu", len);

	sha1_init(&h);
	sha1_update(&h, (size_t)n + 1, (const uint8_t *)head); /* with its NUL */
	sha1_update(&h, len, (const uint8_t *)src);
	sha1_digest(&h, sizeof(d), d);
	for (int i = 0; i < SHA1_DIGEST_SIZE; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* ---- C tokens ----------------------------------------------------------------------------- */

enum tok_kind { T_END, T_IDENT, T_PUNCT, T_OTHER };

struct tok {
	enum tok_kind kind;
	const char *s;
	size_t n;
};

static bool is_id0(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_id(char c)
{
	return is_id0(c) || (c >= '0' && c <= '9');
}

/* The token at *pos (comments, literals and spaces skipped), and *pos past it. */
static struct tok next_tok(const char *s, size_t len, size_t *pos)
{
	size_t i = *pos;
	for (;;) {
		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
				   s[i] == '\f' || s[i] == '\v' || s[i] == '\\'))
			i++;
		if (i + 1 < len && s[i] == '/' && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (i + 1 < len && s[i] == '/' && s[i + 1] == '*') {
			i += 2;
			while (i + 1 < len && !(s[i] == '*' && s[i + 1] == '/'))
				i++;
			i = i + 1 < len ? i + 2 : len;
		} else if (i < len && (s[i] == '"' || s[i] == '\'')) {
			char q = s[i++];
			while (i < len && s[i] != q && s[i] != '\n')
				i += s[i] == '\\' && i + 1 < len ? 2 : 1;
			if (i < len)
				i++;
		} else {
			break;
		}
	}
	struct tok t = { T_END, s + i, 0 };
	if (i >= len) {
		*pos = len;
		return t;
	}
	size_t start = i;
	if (is_id0(s[i])) {
		while (i < len && is_id(s[i]))
			i++;
		t.kind = T_IDENT;
	} else if (s[i] >= '0' && s[i] <= '9') {
		while (i < len && (is_id(s[i]) || s[i] == '.'))
			i++;
		t.kind = T_OTHER;
	} else {
		i += i + 1 < len && s[i] == '-' && s[i + 1] == '>' ? 2 : 1;
		t.kind = T_PUNCT;
	}
	t.s = s + start;
	t.n = i - start;
	*pos = i;
	return t;
}

static bool tok_is(const struct tok *t, const char *text)
{
	size_t n = strlen(text);
	return t->n == n && memcmp(t->s, text, n) == 0;
}

/* ---- Markers -------------------------------------------------------------------------------- */

enum marker_kind {
	M_MEMBER,       /* ->NAME or .NAME */
	M_STATE_MEMBER, /* states[...].NAME */
	M_IDENT,        /* NAME anywhere */
	M_CALL0,        /* NAME() */
	M_CALL1,        /* NAME(an argument) */
};

static const struct marker {
	const char *name;
	enum marker_kind kind;
	int lo, hi; /* 0: no bound on that side */
	const char *shown;
} markers[] = {
	/* nanoseconds: 5.5 (pm-5.5-rc1, "Use nanoseconds as the unit of time") */
	{ "last_residency_ns", M_MEMBER, V(5, 5), 0, "dev->last_residency_ns" },
	{ "exit_latency_ns", M_MEMBER, V(5, 5), 0, "exit_latency_ns" },
	{ "target_residency_ns", M_MEMBER, V(5, 5), 0, "target_residency_ns" },
	/* the per-CPU disable flags replaced the driver-wide one in 5.5 */
	{ "CPUIDLE_STATE_DISABLED_BY_USER", M_IDENT, V(5, 5), 0, "CPUIDLE_STATE_DISABLED_BY_USER" },
	{ "CPUIDLE_STATE_DISABLED_BY_DRIVER", M_IDENT, V(5, 5), 0,
	  "CPUIDLE_STATE_DISABLED_BY_DRIVER" },
	{ "last_residency", M_MEMBER, 0, V(5, 4), "dev->last_residency (microseconds)" },
	{ "cpuidle_get_last_residency", M_IDENT, 0, V(5, 4), "cpuidle_get_last_residency()" },
	{ "disabled", M_STATE_MEMBER, 0, V(5, 4), "drv->states[i].disabled" },
	/* the polling limit of haltpoll: 5.4 */
	{ "poll_limit_ns", M_MEMBER, V(5, 4), 0, "dev->poll_limit_ns" },
	{ "cpuidle_poll_time", M_IDENT, V(5, 4), 0, "cpuidle_poll_time()" },
	/* the sleep length with delta_next: 4.17 (the idle loop's rework, 296bb1e51a44) */
	{ "tick_nohz_get_sleep_length", M_CALL1, V(4, 17), 0, "tick_nohz_get_sleep_length(&delta_next)" },
	{ "tick_nohz_get_sleep_length", M_CALL0, 0, V(4, 16), "tick_nohz_get_sleep_length()" },
};

/* Marker id (its bit in api->seen) used, with its bounds and its words. */
#define NMARKERS (sizeof(markers) / sizeof(markers[0]))
enum { NSIG_SELECT3 = NMARKERS, NSIG_SELECT_OLD, NSIG_REFLECT_OLD };
_Static_assert(NMARKERS + 3 <= 32, "api->seen has a bit per marker");

static void note(struct ik_gov_api *api, unsigned id, int lo, int hi, const char *shown)
{
	if (api->seen & (1u << id))
		return;
	api->seen |= 1u << id;
	api->markers++;
	if (lo > api->lo)
		api->lo = lo;
	if (hi && (api->hi == 0 || hi < api->hi))
		api->hi = hi;
	size_t o = strlen(api->uses);
	if (o + strlen(shown) + 3 < sizeof(api->uses))
		snprintf(api->uses + o, sizeof(api->uses) - o, "%s%s", o ? ", " : "", shown);
}

/* The number of arguments or parameters between the '(' just read and its ')'. */
static int count_list(const char *s, size_t len, size_t *pos)
{
	int depth = 1, commas = 0;
	bool any = false, only_void = true;
	for (;;) {
		struct tok t = next_tok(s, len, pos);
		if (t.kind == T_END)
			return -1;
		if (t.kind == T_PUNCT && (t.s[0] == '(' || t.s[0] == '[' || t.s[0] == '{')) {
			depth++;
		} else if (t.kind == T_PUNCT && (t.s[0] == ')' || t.s[0] == ']' || t.s[0] == '}')) {
			if (--depth == 0)
				return !any || only_void ? 0 : commas + 1;
		} else if (depth == 1 && t.kind == T_PUNCT && t.s[0] == ',') {
			commas++;
		}
		any = true;
		if (!tok_is(&t, "void"))
			only_void = false;
	}
}

#define RING 32

/* Whether the tokens before a '.' are states[...]: ring[(at - 1) % RING] is the ']'. */
static bool after_states_index(const struct tok ring[RING], unsigned at, unsigned have)
{
	int depth = 0;
	for (unsigned k = 1; k <= have && k < RING; k++) {
		const struct tok *t = &ring[(at - k) % RING];
		if (t->kind == T_PUNCT && t->s[0] == ']')
			depth++;
		else if (t->kind == T_PUNCT && t->s[0] == '[' && --depth == 0)
			return k + 1 <= have && k + 1 < RING &&
			       tok_is(&ring[(at - k - 1) % RING], "states");
	}
	return false;
}

/* The callback assigned to .FIELD = NAME in the governor's initialiser. */
static void callback_name(const char *s, size_t len, const char *field, char *name, size_t nlen)
{
	size_t pos = 0;
	struct tok prev = { T_END, s, 0 };
	name[0] = '\0';
	for (;;) {
		struct tok t = next_tok(s, len, &pos);
		if (t.kind == T_END)
			return;
		if (t.kind == T_IDENT && tok_is(&t, field) && prev.kind == T_PUNCT && tok_is(&prev, ".")) {
			size_t p = pos;
			struct tok eq = next_tok(s, len, &p);
			struct tok fn = next_tok(s, len, &p);
			if (tok_is(&fn, "&")) /* .select = &menu_select */
				fn = next_tok(s, len, &p);
			if (tok_is(&eq, "=") && fn.kind == T_IDENT && fn.n < nlen) {
				memcpy(name, fn.s, fn.n);
				name[fn.n] = '\0';
				return;
			}
		}
		prev = t;
	}
}

/* The parameters of the definition of function NAME (NAME ( ... ) {), or -1. */
static int params_of(const char *s, size_t len, const char *name)
{
	size_t pos = 0;
	for (;;) {
		struct tok t = next_tok(s, len, &pos);
		if (t.kind == T_END)
			return -1;
		if (t.kind != T_IDENT || !tok_is(&t, name))
			continue;
		size_t p = pos;
		struct tok open = next_tok(s, len, &p);
		if (!tok_is(&open, "("))
			continue;
		int n = count_list(s, len, &p);
		struct tok body = next_tok(s, len, &p);
		if (n >= 0 && tok_is(&body, "{"))
			return n;
	}
}

void ik__gov_api_recognise(const char *src, size_t len, struct ik_gov_api *api)
{
	memset(api, 0, sizeof(*api));
	git_blob_id(src, len, api->blob);
	ik__gov_api_known(api->blob, api);

	struct tok ring[RING];
	unsigned at = 0, have = 0;
	size_t pos = 0;
	for (;;) {
		struct tok t = next_tok(src, len, &pos);
		if (t.kind == T_END)
			break;
		if (t.kind == T_IDENT) {
			const struct tok *prev = have ? &ring[(at - 1) % RING] : NULL;
			bool member = prev && prev->kind == T_PUNCT &&
				      (tok_is(prev, "->") || tok_is(prev, "."));
			if (tok_is(&t, "LINUX_VERSION_CODE") || tok_is(&t, "KERNEL_VERSION"))
				api->versioned = true;
			for (size_t m = 0; m < sizeof(markers) / sizeof(markers[0]); m++) {
				const struct marker *mk = &markers[m];
				if (!tok_is(&t, mk->name) || (member && mk->kind != M_MEMBER &&
							      mk->kind != M_STATE_MEMBER))
					continue;
				bool hit = false;
				if (mk->kind == M_MEMBER || mk->kind == M_IDENT) {
					hit = mk->kind == M_IDENT || member;
				} else if (mk->kind == M_STATE_MEMBER) {
					hit = member && tok_is(prev, ".") &&
					      after_states_index(ring, at - 1, have - 1);
				} else {
					size_t p = pos;
					struct tok open = next_tok(src, len, &p);
					int n = tok_is(&open, "(") ? count_list(src, len, &p) : -1;
					hit = n == (mk->kind == M_CALL0 ? 0 : 1);
				}
				if (hit)
					note(api, (unsigned)m, mk->lo, mk->hi, mk->shown);
			}
		}
		ring[at % RING] = t;
		at++;
		if (have < RING)
			have++;
	}

	/* The callbacks' signatures: select(drv, dev, stop_tick) from 4.17; reflect(dev, index). */
	char fn[128];
	callback_name(src, len, "select", fn, sizeof(fn));
	int n = fn[0] ? params_of(src, len, fn) : -1;
	if (n == 3)
		note(api, NSIG_SELECT3, V(4, 17), 0, "select(drv, dev, stop_tick)");
	else if (n >= 0)
		note(api, NSIG_SELECT_OLD, 0, V(4, 16), "select() without stop_tick");
	callback_name(src, len, "reflect", fn, sizeof(fn));
	n = fn[0] ? params_of(src, len, fn) : -1;
	if (n == 1)
		note(api, NSIG_REFLECT_OLD, 0, V(4, 16), "reflect() without the state index");
}

static int describe_release(int code, char *buf, size_t len)
{
	return snprintf(buf, len, "%d.%d", code >> 16, (code >> 8) & 255);
}

bool ik__gov_api_fits(const struct ik_gov_api *api, int vcode)
{
	if (api->exact_file) /* (a release between samples of two files is not known) */
		return !((api->exact_before && vcode <= api->exact_before) ||
			 (api->exact_after && vcode >= api->exact_after));
	if (api->versioned || api->markers == 0)
		return true;
	return (api->lo == 0 || vcode >= api->lo) && (api->hi == 0 || vcode <= api->hi);
}

void ik__gov_api_describe(const struct ik_gov_api *api, char *buf, size_t len)
{
	char lo[16], hi[16];
	if (api->exact_file) {
		describe_release(api->exact_lo, lo, sizeof(lo));
		if (api->exact_lo == api->exact_hi)
			snprintf(buf, len, "v%s's drivers/cpuidle/governors/%s, unmodified (git blob "
				 "%.12s, as in the %s tree)", lo, api->exact_file, api->blob,
				 api->exact_lo_tree);
		else
			snprintf(buf, len, "drivers/cpuidle/governors/%s as in the %s to %s trees, "
				 "unmodified (git blob %.12s)", api->exact_file, api->exact_lo_tree,
				 api->exact_hi_tree, api->blob);
		return;
	}
	if (api->markers == 0) {
		snprintf(buf, len, "written against no release's API in particular (it uses nothing "
			 "that a release added or removed)");
		return;
	}
	if (api->lo && api->hi && api->lo > api->hi) {
		snprintf(buf, len, "written against no single release's API: it uses %s, which no "
			 "release has all "
			 "of%s", api->uses, api->versioned ? " (it tests LINUX_VERSION_CODE)" : "");
		return;
	}
	describe_release(api->lo, lo, sizeof(lo));
	describe_release(api->hi, hi, sizeof(hi));
	if (api->lo && api->hi)
		snprintf(buf, len, "written against the cpuidle governor API of v%s to v%s (it uses %s)", lo, hi,
			 api->uses);
	else if (api->lo)
		snprintf(buf, len, "written against the cpuidle governor API of v%s or later (it uses "
			 "%s)", lo,
			 api->uses);
	else
		snprintf(buf, len, "written against the cpuidle governor API of v%s or earlier (it uses "
			 "%s)", hi,
			 api->uses);
	if (api->versioned) {
		size_t o = strlen(buf);
		snprintf(buf + o, len - o, "; it tests LINUX_VERSION_CODE");
	}
}
