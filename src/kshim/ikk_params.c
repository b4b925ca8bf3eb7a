/*
 * idlekit kernel shim: the module parameters of a governor file, linked with it and
 * ikk_runtime.c.  The standard kernel_param_ops (param_ops_uint and the others, with the
 * kernel's parsing rules: kstrtoX with base 0, bool as y/n/1/0/on/off), arrays, and the
 * bridge's view: count, get by index, set by name (ikk_bridge.h).
 *
 * Divisions: parsing; the standard types; arrays; the bridge.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>

#include "ikk_bridge.h"

#define IKK_EXPORT __attribute__((visibility("default")))
#define IKK_EINVAL 22
#define IKK_ENOMEM 12

int snprintf(char *restrict s, unsigned long n, const char *restrict fmt, ...);
unsigned long long strtoull(const char *restrict s, char **restrict end, int base);
long long strtoll(const char *restrict s, char **restrict end, int base);
int *__errno_location(void);
char *strdup(const char *s);

extern const struct ikk_param __start_ikk_params[] __attribute__((weak, visibility("hidden")));
extern const struct ikk_param __stop_ikk_params[] __attribute__((weak, visibility("hidden")));

/* ---- Parsing ------------------------------------------------------------------------------ */

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "1", "y", "Y", "on", "yes", "true" };
	static const char *const no[] = { "0", "n", "N", "off", "no", "false" };
	for (unsigned i = 0; v && i < ARRAY_SIZE(yes); i++) {
		if (strcmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -IKK_EINVAL;
}

static int parse_unsigned(const char *v, unsigned long long max, unsigned long long *out)
{
	char *end;
	if (!v || !*v || *v == '-' || *v == '+' || *v == ' ')
		return -IKK_EINVAL;
	*__errno_location() = 0;
	unsigned long long u = strtoull(v, &end, 0);
	if (*end || *__errno_location() || u > max)
		return -IKK_EINVAL;
	*out = u;
	return 0;
}

static int parse_signed(const char *v, long long min, long long max, long long *out)
{
	char *end;
	if (!v || !*v || *v == ' ')
		return -IKK_EINVAL;
	*__errno_location() = 0;
	long long s = strtoll(v, &end, 0);
	if (*end || *__errno_location() || s < min || s > max)
		return -IKK_EINVAL;
	*out = s;
	return 0;
}

/* ---- The standard types ------------------------------------------------------------------- */

/* One type's set, get and ops (the kernel's STANDARD_PARAM_DEF): parse reads val into v. */
#define IKK_STANDARD(name, type, vtype, parse, fmt) \
	int param_set_##name(const char *val, const struct kernel_param *kp) \
	{ \
		vtype v; \
		int rc = parse; \
		if (!rc) \
			*(type *)kp->arg = (type)v; \
		return rc; \
	} \
	int param_get_##name(char *buffer, const struct kernel_param *kp) \
	{ \
		return snprintf(buffer, 4096, fmt "\n", *(type *)kp->arg); \
	} \
	const struct kernel_param_ops param_ops_##name = { .set = param_set_##name, \
							   .get = param_get_##name }
#define IKK_UNSIGNED(name, type, max, fmt) \
	IKK_STANDARD(name, type, unsigned long long, parse_unsigned(val, max, &v), fmt)
#define IKK_SIGNED(name, type, min, max, fmt) \
	IKK_STANDARD(name, type, long long, parse_signed(val, min, max, &v), fmt)

IKK_UNSIGNED(byte, unsigned char, U8_MAX, "%hhu");
IKK_SIGNED(short, short, S16_MIN, S16_MAX, "%hi");
IKK_UNSIGNED(ushort, unsigned short, U16_MAX, "%hu");
IKK_SIGNED(int, int, S32_MIN, S32_MAX, "%i");
IKK_UNSIGNED(uint, unsigned int, U32_MAX, "%u");
IKK_SIGNED(long, long, S64_MIN, S64_MAX, "%li");
IKK_UNSIGNED(ulong, unsigned long, U64_MAX, "%lu");
IKK_UNSIGNED(ullong, unsigned long long, U64_MAX, "%llu");
IKK_UNSIGNED(hexint, unsigned int, U32_MAX, "%#08x");

int param_set_uint_minmax(const char *val, const struct kernel_param *kp, unsigned int min,
			  unsigned int max)
{
	unsigned long long u;
	if (parse_unsigned(val, U32_MAX, &u) || u < min || u > max)
		return -IKK_EINVAL;
	*(unsigned int *)kp->arg = (unsigned int)u;
	return 0;
}

int param_set_bool(const char *val, const struct kernel_param *kp)
{
	return parse_bool(val, (bool *)kp->arg);
}

int param_get_bool(char *buffer, const struct kernel_param *kp)
{
	return snprintf(buffer, 4096, "%c\n", *(bool *)kp->arg ? 'Y' : 'N');
}

const struct kernel_param_ops param_ops_bool = { .flags = KERNEL_PARAM_OPS_FL_NOARG,
						 .set = param_set_bool, .get = param_get_bool };

int param_set_invbool(const char *val, const struct kernel_param *kp)
{
	bool b;
	int rc = parse_bool(val, &b);
	if (!rc)
		*(bool *)kp->arg = !b;
	return rc;
}

int param_get_invbool(char *buffer, const struct kernel_param *kp)
{
	return snprintf(buffer, 4096, "%c\n", *(bool *)kp->arg ? 'N' : 'Y');
}

const struct kernel_param_ops param_ops_invbool = { .set = param_set_invbool,
						    .get = param_get_invbool };

/* Only false -> true: a feature that cannot be turned off once on. */
int param_set_bool_enable_only(const char *val, const struct kernel_param *kp)
{
	bool b;
	int rc = parse_bool(val, &b);
	if (rc)
		return rc;
	if (!b && *(bool *)kp->arg)
		return -IKK_EINVAL;
	*(bool *)kp->arg = b;
	return 0;
}

/* A string parameter: the pointer is set to a copy of the text (never freed: tiny). */
int param_set_charp(const char *val, const struct kernel_param *kp)
{
	char *copy = strdup(val ? val : "");
	if (!copy)
		return -IKK_ENOMEM;
	*(char **)kp->arg = copy;
	return 0;
}

int param_get_charp(char *buffer, const struct kernel_param *kp)
{
	const char *v = *(char **)kp->arg;
	return snprintf(buffer, 4096, "%s\n", v ? v : "(null)");
}

const struct kernel_param_ops param_ops_charp = { .set = param_set_charp,
						  .get = param_get_charp };

/* ---- Arrays ----------------------------------------------------------------------------- */

static struct kernel_param element(const struct kparam_array *arr, unsigned int i)
{
	struct kernel_param kp = { .name = "", .ops = arr->ops };
	kp.arg = (char *)arr->elem + (unsigned long)i * arr->elemsize;
	return kp;
}

/* "a,b,c": each element through the element type's set; more than max is an error. */
static int param_array_set(const char *val, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	char one[256];
	unsigned int n = 0;
	const char *p = val ? val : "";

	for (;;) {
		unsigned long len = strcspn(p, ",");
		if (n >= arr->max || len >= sizeof(one))
			return -IKK_EINVAL;
		memcpy(one, p, len);
		one[len] = '\0';
		struct kernel_param ek = element(arr, n);
		int rc = arr->ops->set(one, &ek);
		if (rc)
			return rc;
		n++;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (arr->num)
		*arr->num = n;
	return 0;
}

static int param_array_get(char *buffer, const struct kernel_param *kp)
{
	const struct kparam_array *arr = kp->arr;
	unsigned int n = arr->num ? *arr->num : arr->max;
	int off = 0;
	char one[4096];

	buffer[0] = '\0';
	for (unsigned int i = 0; i < n && i < arr->max && off < 4000; i++) {
		struct kernel_param ek = element(arr, i);
		int len = arr->ops->get(one, &ek);
		if (len > 0 && one[len - 1] == '\n')
			one[--len] = '\0';
		off += snprintf(buffer + off, (unsigned long)(4096 - off), "%s%s", i ? "," : "", one);
	}
	off += snprintf(buffer + off, (unsigned long)(4096 - off), "\n");
	return off;
}

const struct kernel_param_ops param_array_ops = { .set = param_array_set,
						  .get = param_array_get };

/* ---- The bridge --------------------------------------------------------------------------- */

static const struct {
	const struct kernel_param_ops *ops;
	const char *type;
	const char *expect;
} standard[] = {
	{ &param_ops_bool, "bool", "y, n, 1, 0, on or off" },
	{ &param_ops_invbool, "invbool", "y, n, 1, 0, on or off" },
	{ &param_ops_uint, "uint", "an integer 0..4294967295" },
	{ &param_ops_hexint, "hexint", "an integer 0..4294967295" },
	{ &param_ops_ulong, "ulong", "an integer 0..18446744073709551615" },
	{ &param_ops_ullong, "ullong", "an integer 0..18446744073709551615" },
	{ &param_ops_ushort, "ushort", "an integer 0..65535" },
	{ &param_ops_byte, "byte", "an integer 0..255" },
	{ &param_ops_int, "int", "an integer -2147483648..2147483647" },
	{ &param_ops_short, "short", "an integer -32768..32767" },
	{ &param_ops_long, "long", "an integer" },
	{ &param_ops_charp, "charp", "a string" },
};

static int nparams(void)
{
	return __start_ikk_params ? (int)(__stop_ikk_params - __start_ikk_params) : 0;
}

/* The type as module_param() wrote it, or that of the standard ops module_param_cb() uses. */
static const char *type_of(const struct ikk_param *p, const char **expect)
{
	*expect = NULL;
	for (unsigned i = 0; i < ARRAY_SIZE(standard); i++)
		if (p->kp->ops == standard[i].ops) {
			*expect = standard[i].expect;
			return p->type ? p->type : standard[i].type;
		}
	return p->type ? p->type : "custom";
}

IKK_EXPORT int ikk_param_count(void)
{
	return nparams();
}

IKK_EXPORT int ikk_param_get(int i, struct ikk_param_info *info, char *buf, unsigned long len)
{
	if (i < 0 || i >= nparams())
		return -1;
	const struct ikk_param *p = &__start_ikk_params[i];
	const char *expect;
	char val[4096];
	info->name = p->kp->name;
	info->type = type_of(p, &expect);
	int n = p->kp->ops->get ? p->kp->ops->get(val, p->kp) : -1;
	if (n < 0)
		snprintf(buf, len, "?");
	else {
		unsigned long l = strlen(val);
		if (l && val[l - 1] == '\n')
			val[l - 1] = '\0';
		snprintf(buf, len, "%s", val);
	}
	return 0;
}

IKK_EXPORT int ikk_param_set(const char *name, const char *value, char *err, unsigned long errlen)
{
	const struct ikk_param *p = NULL;
	for (int i = 0; i < nparams(); i++)
		if (strcmp(__start_ikk_params[i].kp->name, name) == 0)
			p = &__start_ikk_params[i];
	if (!p)
		return -1;
	const char *expect;
	const char *type = type_of(p, &expect);
	if (!p->kp->ops->set) {
		snprintf(err, errlen, "parameter %s (%s) cannot be set (its ops have no set)", name,
			 type);
		return -2;
	}
	int rc = p->kp->ops->set(value, p->kp);
	if (!rc)
		return 0;
	if (expect)
		snprintf(err, errlen, "parameter %s (%s): expected %s, got '%s'", name, type, expect,
			 value);
	else if (p->kp->ops == &param_array_ops)
		snprintf(err, errlen, "parameter %s (%s): expected at most %u values separated by "
			 "commas, got '%s'", name, type, p->kp->arr->max, value);
	else
		snprintf(err, errlen, "parameter %s (%s): its set function refused '%s' (%d)", name,
			 type, value, rc);
	return -2;
}
