/* Changes and their undoing: the journal, the PM QoS stand-in, commands and signals. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/host.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/ik-restore-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *value, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(value, f);
	fclose(f);
}

static void expect_content(const char *path, const char *value)
{
	char buf[128] = "";
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf, value);
}

static void journal(void **state)
{
	(void)state;
	char a[256], b[256], c[256], err[IK_HOST_ERR_LEN] = "";
	struct ik_journal j;
	put("a", "0\n", a, sizeof(a));
	put("b", "menu\n", b, sizeof(b));
	put("c", "1\n", c, sizeof(c));
	ik__journal_init(&j);
	assert_int_equal(ik__journal_write(&j, a, "1", err, sizeof(err)), 0);
	assert_int_equal(ik__journal_write(&j, b, "teo", err, sizeof(err)), 0);
	assert_int_equal(ik__journal_write(&j, c, "1", err, sizeof(err)), 0); /* already so */
	assert_int_equal(ik__journal_write(&j, a, "0", err, sizeof(err)), 0); /* back again */
	assert_int_equal(j.count, 3);
	expect_content(a, "0");
	expect_content(b, "teo");
	expect_content(c, "1\n"); /* untouched */
	assert_string_equal(j.entries[1].old_value, "menu");
	/* Undo goes newest first: a ends as it began, before the first write. */
	assert_int_equal(ik__journal_undo(&j, err, sizeof(err)), 0);
	assert_int_equal(j.count, 0);
	expect_content(a, "0");
	expect_content(b, "menu");
	ik__journal_free(&j);
}

static void failures(void **state)
{
	(void)state;
	char a[256], missing[256], err[IK_HOST_ERR_LEN] = "";
	struct ik_journal j;
	put("a", "0\n", a, sizeof(a));
	snprintf(missing, sizeof(missing), "%s/nope/disable", dir);
	ik__journal_init(&j);
	assert_int_equal(ik__check_writable(a, err, sizeof(err)), 0);
	assert_int_equal(ik__check_writable(missing, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "nope/disable: cannot open for writing"));
	assert_int_equal(ik__journal_write(&j, missing, "1", err, sizeof(err)), -1);
	assert_int_equal(j.count, 0); /* nothing recorded for a write that did not happen */
	/* A directory where the value should be: cannot write, says so. */
	char sub[256];
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(ik__check_writable(sub, err, sizeof(err)), -1);
	/* Undo reports a file that vanished but restores the rest. */
	assert_int_equal(ik__journal_write(&j, a, "1", err, sizeof(err)), 0);
	char b[256];
	put("b", "x", b, sizeof(b));
	assert_int_equal(ik__journal_write(&j, b, "y", err, sizeof(err)), 0);
	unlink(a);
	assert_int_equal(mkdir(a, 0755), 0);
	assert_int_equal(ik__journal_undo(&j, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "could not restore '0'"));
	expect_content(b, "x");
	ik__journal_free(&j);
}

static void pmqos(void **state)
{
	(void)state;
	char dev[256], err[IK_HOST_ERR_LEN] = "";
	struct ik_pmqos q;
	put("qos", "", dev, sizeof(dev));
	assert_int_equal(ik__pmqos_open(&q, dev, err, sizeof(err)), 0);
	assert_int_equal(q.latency_us, -1);
	assert_int_equal(ik__pmqos_set(&q, 20, err, sizeof(err)), 0);
	int fd = open(dev, O_RDONLY);
	int32_t v = 0;
	assert_int_equal(read(fd, &v, sizeof(v)), 4); /* a binary s32, nothing else */
	assert_int_equal(v, 20);
	assert_int_equal(read(fd, &v, sizeof(v)), 0);
	close(fd);
	assert_int_equal(ik__pmqos_read(dev, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 20);
	assert_int_equal(fcntl(q.fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	assert_int_equal(ik__pmqos_set(&q, -1, err, sizeof(err)), -1);
	ik__pmqos_close(&q);
	assert_int_equal(q.fd, -1);
	ik__pmqos_close(&q); /* twice is harmless */
	char missing[256];
	snprintf(missing, sizeof(missing), "%s/none/cpu_dma_latency", dir);
	assert_int_equal(ik__pmqos_open(&q, missing, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open for writing"));
}

static void commands(void **state)
{
	(void)state;
	char err[IK_HOST_ERR_LEN] = "";
	int code = -1;
	char *ok[] = { "sh", "-c", "exit 3", NULL };
	assert_int_equal(ik__run_command(ok, &code, err, sizeof(err)), 0);
	assert_int_equal(code, 3);
	char *killed[] = { "sh", "-c", "kill -TERM $$", NULL };
	assert_int_equal(ik__run_command(killed, &code, err, sizeof(err)), 0);
	assert_int_equal(code, 128 + SIGTERM);
	char *none[] = { "/nonexistent/command", NULL };
	assert_int_equal(ik__run_command(none, &code, err, sizeof(err)), -1);
	assert_int_equal(code, 127);
	assert_non_null(strstr(err, "cannot run /nonexistent/command"));
}

static void signals(void **state)
{
	(void)state;
	char err[IK_HOST_ERR_LEN] = "";
	int code = -1;
	assert_int_equal(ik__signals_catch(), 0);
	assert_int_equal(ik__signals_caught(), 0);
	/* Blocked, a signal waits; unblocked, it is recorded and we are still here. */
	ik__signals_block(true);
	kill(getpid(), SIGTERM);
	assert_int_equal(ik__signals_caught(), 0);
	ik__signals_block(false);
	assert_int_equal(ik__signals_caught(), SIGTERM);
	/* A signal sent to us while a command runs is passed on to the command. */
	assert_int_equal(ik__signals_catch(), 0);
	char *sleeper[] = { "sh", "-c", "kill -INT $PPID; sleep 5; exit 0", NULL };
	assert_int_equal(ik__run_command(sleeper, &code, err, sizeof(err)), 0);
	assert_int_equal(ik__signals_caught(), SIGINT);
	assert_int_equal(code, 128 + SIGINT);
	ik__signals_restore();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(journal, setup, teardown),
		cmocka_unit_test_setup_teardown(failures, setup, teardown),
		cmocka_unit_test_setup_teardown(pmqos, setup, teardown),
		cmocka_unit_test(commands),
		cmocka_unit_test(signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
