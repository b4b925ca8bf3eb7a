/* The read-only view of a cpu tree: dumps (every error names its line) and directories. */
#define _GNU_SOURCE /* open_memstream */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/host.h"

#define P "rw|/sys/devices/system/cpu/"

static struct ik_sysfs *parse_ok(const char *text)
{
	struct ik_sysfs *fs;
	char err[IK_HOST_ERR_LEN] = "";
	if (ik__sysfs_parse_dump("t.txt", text, strlen(text), &fs, err, sizeof(err)))
		fail_msg("expected success, got: %s", err);
	return fs;
}

static void parse_bad(const char *text, const char *needle)
{
	struct ik_sysfs *fs = NULL;
	char err[IK_HOST_ERR_LEN] = "";
	if (ik__sysfs_parse_dump("t.txt", text, strlen(text), &fs, err, sizeof(err)) == 0)
		fail_msg("expected an error for: %s", text);
	assert_null(fs);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, needle))
		fail_msg("error '%s' lacks '%s'", err, needle);
}

static void read_expect(struct ik_sysfs *fs, const char *rel, const char *value)
{
	char buf[256], err[IK_HOST_ERR_LEN] = "";
	int r = ik__sysfs_read(fs, rel, buf, sizeof(buf), err, sizeof(err));
	if (!value) {
		assert_int_equal(r, IK_SYSFS_MISSING);
		return;
	}
	if (r != IK_SYSFS_OK)
		fail_msg("%s: %d %s", rel, r, err);
	assert_string_equal(buf, value);
}

static void dump_lines(void **state)
{
	(void)state;
	struct ik_sysfs *fs = parse_ok(
		"ro|/sys/devices/system/cpu/online|0-3\r\n"
		"# a comment\n"
		"\n"
		P "cpu0/cpuidle/state0/name|POLL\n"
		P "cpu0/cpuidle/state0/desc|a|b with bars\n"
		P "cpu0/cpuidle/state0/empty|\n"
		"rw|/sys/devices/system/node/node0/x|ignored\n"
		P "cpu10/online|1\n"
		P "cpu1/online|0\n");
	assert_true(ik__sysfs_is_dump(fs));
	assert_null(ik__sysfs_root(fs));
	assert_string_equal(ik__sysfs_origin(fs), "t.txt");
	assert_int_equal(ik__sysfs_dump_size(fs), 6);
	read_expect(fs, "online", "0-3");
	read_expect(fs, "cpu0/cpuidle/state0/name", "POLL");
	read_expect(fs, "cpu0/cpuidle/state0/desc", "a|b with bars");
	read_expect(fs, "cpu0/cpuidle/state0/empty", "");
	read_expect(fs, "cpu1/online", "0");
	read_expect(fs, "cpu0/cpuidle/state0/latency", NULL);
	read_expect(fs, "cpu0", NULL); /* a directory is not a file */
	assert_true(ik__sysfs_is_dir(fs, ""));
	assert_true(ik__sysfs_is_dir(fs, "cpu0/cpuidle"));
	assert_true(ik__sysfs_is_dir(fs, "cpu1"));
	assert_false(ik__sysfs_is_dir(fs, "cpu2"));
	assert_false(ik__sysfs_is_dir(fs, "cpu0/cpuidle/state0/name"));

	char where[256];
	ik__sysfs_where(fs, "cpu0/cpuidle/state0/name", where, sizeof(where));
	assert_string_equal(where, "t.txt:4: /sys/devices/system/cpu/cpu0/cpuidle/state0/name");
	char path[64];
	assert_int_equal(ik__sysfs_path(fs, "online", path, sizeof(path)), -1);
	ik__sysfs_close(fs);
}

struct names {
	char all[512];
};

static int collect(const char *name, void *arg)
{
	struct names *n = arg;
	size_t len = strlen(n->all);
	snprintf(n->all + len, sizeof(n->all) - len, "%s%s", len ? " " : "", name);
	return 0;
}

static int stop_at_second(const char *name, void *arg)
{
	(void)name;
	return ++*(int *)arg == 2 ? 7 : 0;
}

static void dump_listing(void **state)
{
	(void)state;
	struct ik_sysfs *fs = parse_ok(P "cpu1/online|1\n" P "cpu10/online|1\n" P "cpu1.x/a|1\n"
				       P "cpu2/cpuidle/state0/name|A\n" P "cpu2/cpuidle/state1/name|B\n"
				       P "cpu2/cpuidle/state1/usage|3\n" P "online|0-2\n");
	struct names n = { "" };
	char err[IK_HOST_ERR_LEN];
	assert_int_equal(ik__sysfs_list(fs, "", collect, &n, err, sizeof(err)), 0);
	assert_string_equal(n.all, "cpu1.x cpu1 cpu10 cpu2 online"); /* sorted by path */
	n.all[0] = '\0';
	assert_int_equal(ik__sysfs_list(fs, "cpu2/cpuidle", collect, &n, err, sizeof(err)), 0);
	assert_string_equal(n.all, "state0 state1");
	assert_int_equal(ik__sysfs_list(fs, "cpu3", collect, &n, err, sizeof(err)), IK_SYSFS_MISSING);
	int calls = 0;
	assert_int_equal(ik__sysfs_list(fs, "", stop_at_second, &calls, err, sizeof(err)), 7);
	ik__sysfs_close(fs);
}

static void dump_numbers(void **state)
{
	(void)state;
	struct ik_sysfs *fs = parse_ok(P "a|42\n" P "b|18446744073709551615\n"
				       P "c|18446744073709551616\n" P "d|12x\n" P "e|\n" P "f| 7 \n");
	uint64_t v;
	char err[IK_HOST_ERR_LEN] = "";
	assert_int_equal(ik__sysfs_read_u64(fs, "a", &v, err, sizeof(err)), IK_SYSFS_OK);
	assert_int_equal(v, 42);
	assert_int_equal(ik__sysfs_read_u64(fs, "b", &v, err, sizeof(err)), IK_SYSFS_OK);
	assert_true(v == UINT64_MAX);
	assert_int_equal(ik__sysfs_read_u64(fs, "c", &v, err, sizeof(err)), IK_SYSFS_ERROR);
	assert_non_null(strstr(err, "t.txt:3: /sys/devices/system/cpu/c: expected an unsigned integer below 2^64"));
	assert_int_equal(ik__sysfs_read_u64(fs, "d", &v, err, sizeof(err)), IK_SYSFS_ERROR);
	assert_non_null(strstr(err, "t.txt:4: /sys/devices/system/cpu/d: expected an unsigned integer, got '12x'"));
	assert_int_equal(ik__sysfs_read_u64(fs, "e", &v, err, sizeof(err)), IK_SYSFS_ERROR);
	assert_int_equal(ik__sysfs_read_u64(fs, "f", &v, err, sizeof(err)), IK_SYSFS_OK);
	assert_int_equal(v, 7);
	assert_int_equal(ik__sysfs_read_u64(fs, "g", &v, err, sizeof(err)), IK_SYSFS_MISSING);
	ik__sysfs_close(fs);
}

static void dump_errors(void **state)
{
	(void)state;
	parse_bad(P "online|0\nnot a dump line\n", "t.txt:2: expected 'rw|/sys/devices/system/cpu/...|value'");
	/* a dump cut off: "12" might have been "1234"; every line a writer finishes ends */
	parse_bad(P "online|0-3\n" P "cpu0/cpuidle/state1/latency|12",
		  "t.txt:2: the last line has no end of line (a truncated dump?), got '" P
		  "cpu0/cpuidle/state1/latency|12'");
	parse_bad(P "online|0-3\r\n# a comment cut", "t.txt:2: the last line has no end of line");
	parse_bad("xx|/sys/devices/system/cpu/online|0\n", "t.txt:1: expected 'rw' or 'ro'");
	parse_bad("rw|sys/devices|0\n", "t.txt:1: expected a path starting with /sys/");
	parse_bad(P "online|0\n\n" P "online|1\n", "t.txt:3: /sys/devices/system/cpu/online given "
		  "twice (first on line 1)");
	parse_bad(P "cpu0/../x|0\n", "t.txt:1: expected a path without empty");
	parse_bad(P "cpu0//x|0\n", "t.txt:1: expected a path without empty");
	parse_bad(P "cpu0/|0\n", "t.txt:1");
	parse_bad(P "cpu0/online|1\n" P "cpu0/online/x|1\n", "t.txt:2: /sys/devices/system/cpu/"
		  "cpu0/online is a file (line 1) and a directory");
	/* ... also when another name sorts between them (fuzz_sysfs_dump found it) */
	parse_bad(P "cpu0/a|1\n" P "cpu0/a-b|2\n" P "cpu0/a/x|3\n", "t.txt:3: /sys/devices/"
		  "system/cpu/cpu0/a is a file (line 1) and a directory");
	/* no sysfs value holds a control character (a CRLF line end is fine, above) */
	parse_bad(P "cpuidle/current_driver|intel_idle\rx\n", "t.txt:1: expected printable text, "
		  "found the control character 0x0d");
	char nul[] = P "a|x\0y\n";
	struct ik_sysfs *fs = NULL;
	char err[IK_HOST_ERR_LEN] = "";
	assert_int_equal(ik__sysfs_parse_dump("t.txt", nul, sizeof(nul) - 1, &fs, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t.txt:1: expected text, found a NUL byte"));
	/* Long garbage is cut in the message, which stays one line. */
	char longline[3000];
	memset(longline, 'z', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	parse_bad(longline, "...'");
	/* Files */
	assert_int_equal(ik__sysfs_open_dump("/nonexistent/dump.txt", &fs, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/dump.txt: cannot open"));
}

/* A dump written back lists every CPU its reader saw, though the 'present' file lacks one
   and the CPU's only file is not one the writer keeps. */
static void dump_write_present(void **state)
{
	(void)state;
	static const char *const inputs[] = {
		"ro|/sys/devices/system/cpu/present|\n" P "cpu3/other|1\n",
		P "present/x|1\n" P "cpu3/other|1\n",
		P "cpu3/other|1\n",
	};
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		struct ik_sysfs *fs = parse_ok(inputs[i]);
		char *text = NULL, err[IK_HOST_ERR_LEN] = "";
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		assert_non_null(f);
		assert_int_equal(ik__sysfs_write_dump(fs, f, NULL, err, sizeof(err)), 0);
		fclose(f);
		if (!strstr(text, "\nro|/sys/devices/system/cpu/present|3\n"))
			fail_msg("input %zu: no 'present' line listing CPU 3 in:\n%s", i, text);
		free(text);
		ik__sysfs_close(fs);
	}
}

static void tree(void **state)
{
	(void)state;
	char dir[] = "/tmp/ik-sysfs-XXXXXX", path[512], err[IK_HOST_ERR_LEN] = "", buf[64];
	struct ik_sysfs *fs;
	assert_non_null(mkdtemp(dir));

	assert_int_equal(ik__sysfs_open_root(dir, &fs, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/sys/devices/system/cpu: no such directory"));

	snprintf(path, sizeof(path), "mkdir -p %s/sys/devices/system/cpu/cpu0/cpuidle/state0 && "
		 "printf 'POLL\\n' > %s/sys/devices/system/cpu/cpu0/cpuidle/state0/name && "
		 "mkdir %s/sys/devices/system/cpu/cpu0/cpuidle/state0/usage", dir, dir, dir);
	assert_int_equal(system(path), 0);
	snprintf(path, sizeof(path), "%s//", dir); /* trailing slashes are fine */
	if (ik__sysfs_open_root(path, &fs, err, sizeof(err)))
		fail_msg("%s", err);
	assert_false(ik__sysfs_is_dump(fs));
	assert_string_equal(ik__sysfs_root(fs), dir);
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu", dir);
	assert_string_equal(ik__sysfs_origin(fs), path);
	assert_int_equal(ik__sysfs_read(fs, "cpu0/cpuidle/state0/name", buf, sizeof(buf), err,
				       sizeof(err)), IK_SYSFS_OK);
	assert_string_equal(buf, "POLL");
	assert_int_equal(ik__sysfs_read(fs, "cpu0/cpuidle/state0/latency", buf, sizeof(buf), err,
				       sizeof(err)), IK_SYSFS_MISSING);
	/* An unreadable file (here a directory where a value should be) is an error. */
	assert_int_equal(ik__sysfs_read(fs, "cpu0/cpuidle/state0/usage", buf, sizeof(buf), err,
				       sizeof(err)), IK_SYSFS_ERROR);
	assert_non_null(strstr(err, "state0/usage: cannot read"));
	assert_true(ik__sysfs_is_dir(fs, "cpu0/cpuidle"));
	assert_int_equal(ik__sysfs_path(fs, "online", path, sizeof(path)), 0);
	assert_non_null(strstr(path, "/sys/devices/system/cpu/online"));
	struct names n = { "" };
	assert_int_equal(ik__sysfs_list(fs, "cpu0/cpuidle", collect, &n, err, sizeof(err)), 0);
	assert_string_equal(n.all, "state0");
	ik__sysfs_close(fs);

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dump_lines),	cmocka_unit_test(dump_listing),
		cmocka_unit_test(dump_numbers), cmocka_unit_test(dump_errors),
		cmocka_unit_test(dump_write_present), cmocka_unit_test(tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
