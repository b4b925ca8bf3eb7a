/*
 * Changing the machine and putting it back.
 *
 * Every sysfs write goes through a journal that first reads the old value; undoing replays
 * the journal backwards.  A change that is already in place is not recorded, so undoing
 * touches only what this run changed.
 *
 * Signals: while a command runs under changed settings, SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * must not kill idlekit before it has put things back.  The handlers below only note the
 * signal and pass it on to the command; the normal flow then notices, waits for the
 * command, and undoes.  A handler cannot be handed a context, so the signal caught and the
 * child's pid are the two process-wide variables this library has.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <linux/magic.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/host.h"
#include "util/errmsg.h"

/* ---- the journal ------------------------------------------------------------------------ */

void ik__journal_init(struct ik_journal *j)
{
	memset(j, 0, sizeof(*j));
}

void ik__journal_free(struct ik_journal *j)
{
	free(j->entries);
	memset(j, 0, sizeof(*j));
}

static void access_message(const char *path, int e, const char *doing, char *err, size_t errlen)
{
	if (!err || !errlen)
		return;
	if (e == EACCES || e == EPERM || e == EROFS)
		snprintf(err, errlen, "needs root (write access to %s): %s", path, strerror(e));
	else
		snprintf(err, errlen, "%s: cannot %s: %s", path, doing, strerror(e));
}

int ik__check_writable(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		access_message(path, errno, "open for writing", err, errlen);
		return -1;
	}
	close(fd);
	return 0;
}

static int read_value(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ik__errmsg(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	ssize_t n;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n < 0)
		return ik__errmsg(err, errlen, "%s: cannot read: %s", path, strerror(e));
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int write_value(const char *path, const char *value, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		access_message(path, errno, "open for writing", err, errlen);
		return -1;
	}
	/* An ordinary file (a test's stand-in tree) must lose its old value; a sysfs
	 * attribute takes the write whole and has nothing to truncate. */
	struct statfs sfs;
	if (fstatfs(fd, &sfs) == 0 && sfs.f_type != SYSFS_MAGIC)
		(void)!ftruncate(fd, 0);
	size_t len = strlen(value);
	ssize_t n;
	do
		n = write(fd, value, len);
	while (n < 0 && errno == EINTR);
	int e = errno;
	if (close(fd) != 0 && n == (ssize_t)len) {
		n = -1;
		e = errno;
	}
	if (n != (ssize_t)len) {
		if (n >= 0)
			e = EIO;
		access_message(path, e, "write", err, errlen);
		return -1;
	}
	return 0;
}

int ik__journal_write(struct ik_journal *j, const char *path, const char *value, char *err,
		     size_t errlen)
{
	char old[128];

	if (strlen(path) >= sizeof(j->entries[0].path) || strlen(value) >= sizeof(old))
		return ik__errmsg(err, errlen, "%.200s: path or value too long", path);
	if (read_value(path, old, sizeof(old), err, errlen))
		return -1;
	if (strcmp(old, value) == 0)
		return 0;
	if (j->count == j->capacity) {
		int cap = j->capacity ? j->capacity * 2 : 16;
		struct ik_journal_entry *e = realloc(j->entries, (size_t)cap * sizeof(*e));
		if (!e)
			return ik__errmsg(err, errlen, "%s: out of memory for the undo journal",
					  path);
		j->entries = e;
		j->capacity = cap;
	}
	/* Record first: if the write half-happens, undoing it is still right. */
	struct ik_journal_entry *e = &j->entries[j->count];
	snprintf(e->path, sizeof(e->path), "%s", path);
	snprintf(e->old_value, sizeof(e->old_value), "%s", old);
	snprintf(e->new_value, sizeof(e->new_value), "%s", value);
	if (write_value(path, value, err, errlen))
		return -1; /* not recorded: nothing changed */
	j->count++;
	return 0;
}

int ik__journal_undo(struct ik_journal *j, char *err, size_t errlen)
{
	int ret = 0;
	char msg[IK_HOST_ERR_LEN];

	for (int i = j->count - 1; i >= 0; i--) {
		const struct ik_journal_entry *e = &j->entries[i];
		if (write_value(e->path, e->old_value, msg, sizeof(msg)) != 0 && ret == 0) {
			ret = -1;
			if (err && errlen)
				snprintf(err, errlen, "could not restore '%s': %s", e->old_value, msg);
		}
	}
	j->count = 0;
	return ret;
}

/* ---- signals ------------------------------------------------------------------------------ */

static const int caught_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NCAUGHT (sizeof(caught_signals) / sizeof(caught_signals[0]))

/* The process-wide state: see the comment at the top. */
static volatile sig_atomic_t first_signal;
static volatile sig_atomic_t signal_count;
static volatile sig_atomic_t child_pid;

static void on_signal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	int saved = errno;
	if (!first_signal)
		first_signal = sig;
	signal_count++;
	pid_t child = (pid_t)child_pid;
	if (child > 0) {
		if (signal_count > 1)
			kill(child, SIGKILL);
		else if (!info || info->si_code <= 0) /* sent by kill(): the child did not get it */
			kill(child, sig);
		/* else the terminal signalled the whole foreground group, the child included */
	}
	errno = saved;
}

int ik__signals_catch(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: waits return EINTR and look again */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NCAUGHT; i++)
		sigaddset(&sa.sa_mask, caught_signals[i]);
	first_signal = 0;
	signal_count = 0;
	child_pid = 0;
	for (size_t i = 0; i < NCAUGHT; i++)
		if (sigaction(caught_signals[i], &sa, NULL) != 0)
			return -1;
	return 0;
}

void ik__signals_restore(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NCAUGHT; i++)
		sigaction(caught_signals[i], &sa, NULL);
}

int ik__signals_caught(void)
{
	return first_signal;
}

static void caught_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < NCAUGHT; i++)
		sigaddset(set, caught_signals[i]);
}

void ik__signals_block(bool block)
{
	sigset_t set;
	caught_set(&set);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

void ik__signals_wait(void)
{
	sigset_t block, old;
	caught_set(&block);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigset_t wait_mask = old;
	for (size_t i = 0; i < NCAUGHT; i++)
		sigdelset(&wait_mask, caught_signals[i]);
	while (!first_signal)
		sigsuspend(&wait_mask);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int ik__run_command(char *const argv[], int *exit_code, char *err, size_t errlen)
{
	int status = 0;
	int report[2]; /* the child writes errno here if exec fails */

	*exit_code = 127;
	if (pipe2(report, O_CLOEXEC) != 0)
		return ik__errmsg(err, errlen, "cannot start %s: %s", argv[0], strerror(errno));
	/* Signals stay blocked over fork so the child's pid is known before any handler runs. */
	sigset_t block, old;
	caught_set(&block);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(report[0]);
		close(report[1]);
		return ik__errmsg(err, errlen, "cannot start %s: %s", argv[0], strerror(e));
	}
	if (pid == 0) {
		/* Default dispositions and an open mask for the command. */
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		for (size_t i = 0; i < NCAUGHT; i++)
			sigaction(caught_signals[i], &sa, NULL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(argv[0], argv);
		int e = errno;
		(void)!write(report[1], &e, sizeof(e));
		_exit(127);
	}
	child_pid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* A signal that came before the child existed is passed on now. */
	if (first_signal)
		kill(pid, first_signal);
	close(report[1]);
	int child_errno = 0;
	ssize_t n;
	do
		n = read(report[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(report[0]);

	pid_t got;
	do
		got = waitpid(pid, &status, 0);
	while (got < 0 && errno == EINTR);
	child_pid = 0;
	if (got < 0)
		return ik__errmsg(err, errlen, "waiting for %s: %s", argv[0], strerror(errno));
	if (n == (ssize_t)sizeof(child_errno)) {
		if (err && errlen)
			snprintf(err, errlen, "cannot run %s: %s", argv[0], strerror(child_errno));
		*exit_code = child_errno == ENOENT ? 127 : 126;
		return -1;
	}
	if (WIFEXITED(status))
		*exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		*exit_code = 128 + WTERMSIG(status);
	return 0;
}
