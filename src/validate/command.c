/*
 * idlekit validate -- CMD: any command, held against the model of it.
 *
 * There is no model of an arbitrary program to write by hand, so one is learned: a traced
 * run (src/validate/traced.c, idlekit's own recorder over the window) gives a trace, the
 * trace gives a learned workload (src/trace/learn.c, what `idlekit workload learn` does),
 * and the model runs that workload on the platform of this machine.  The figures are the
 * counters of the other real runs, whose window is the command's life: it opens just
 * before the fork and closes when the command has exited (or, with a limit, when the limit
 * is reached and the command has been stopped with SIGTERM).  The command's standard
 * output and error go to a file in the scratch directory; its last line is quoted when it
 * fails.  Meanwhile this process waits for SIGCHLD (or the limit) without polling, so it
 * adds no wake-up of its own to the window but the one at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/format.h"
#include "trace/learn.h"
#include "util/errmsg.h"
#include "validate/validate.h"

bool ik__val_command_found(const char *file)
{
	if (!file || !*file)
		return false;
	if (strchr(file, '/'))
		return access(file, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char full[4096];
		snprintf(full, sizeof(full), "%.*s/%s", (int)(n ? n : 1), n ? path : ".", file);
		struct stat st;
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0)
			return true;
		path += n;
		if (*path)
			path++;
	}
	return false;
}

/* Wait for child pid without polling: SIGCHLD (blocked by the caller) or the deadline
   (0: none).  1 when it exited (status in *status), 0 at the deadline, -1 on a caught
   signal (SIGINT, SIGTERM: the run is interrupted). */
static int await_child(pid_t pid, int64_t deadline_ns, int *status)
{
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		pid_t got = waitpid(pid, status, WNOHANG);
		if (got == pid)
			return 1;
		if (got < 0 && errno != EINTR)
			return 1; /* no such child: taken as ended */
		if (ik__signals_caught())
			return -1;
		struct timespec ts = { 1, 0 };
		if (deadline_ns > 0) {
			int64_t left = deadline_ns - ik__host_now_ns();
			if (left <= 0)
				return 0;
			ts.tv_sec = (time_t)(left / 1000000000LL);
			ts.tv_nsec = (long)(left % 1000000000LL);
		}
		/* a bounded wait even without a deadline, so that a SIGCHLD taken by someone
		   else's handler costs a second at most */
		(void)sigtimedwait(&chld, NULL, &ts);
	}
}

int ik__val_command_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		       const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
		       size_t errlen)
{
	char outfile[2200], msg[512];
	struct ik_val_counters before, after;
	int status = 0, rc = -1;
	bool signalled;
	sigset_t chld, old;

	snprintf(outfile, sizeof(outfile), "%s/command-%d.out", spec->tmpdir, run + 1);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	if (ik__val_counters_read(fs, &before, err, errlen))
		goto unblock;
	if (hooks && hooks->start(hooks->arg, err, errlen)) {
		ik__val_counters_free(&before);
		goto unblock;
	}
	pid_t pid = ik__val_spawn(spec->command[0], spec->command, outfile, err, errlen);
	if (pid < 0) {
		if (hooks)
			hooks->stop(hooks->arg);
		ik__val_counters_free(&before);
		goto unblock;
	}
	int64_t deadline = spec->limit_ns > 0 ? before.at_ns + spec->limit_ns : 0;
	int got = await_child(pid, deadline, &status);
	bool stopped = false;
	/* the window closes with the second read; the recorder stops after it (its drain is
	   no part of the command's time) */
	if (got == 0) { /* the limit: the window closes here, the command is stopped after */
		rc = ik__val_counters_read(fs, &after, err, errlen);
		if (hooks)
			hooks->stop(hooks->arg);
		kill(pid, SIGTERM);
		ik__val_wait_child(pid, 5000000000LL, &signalled);
		stopped = true;
	} else {
		if (got < 0) {
			kill(pid, SIGTERM);
			ik__val_wait_child(pid, 2000000000LL, &signalled);
		}
		if (got < 0) {
			if (hooks)
				hooks->stop(hooks->arg);
			snprintf(err, errlen, "interrupted");
			ik__val_counters_free(&before);
			goto unblock;
		}
		rc = ik__val_counters_read(fs, &after, err, errlen);
		if (hooks)
			hooks->stop(hooks->arg);
	}
	if (rc == 0 && !stopped && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		ik__val_last_output(outfile, msg, sizeof(msg));
		if (WIFSIGNALED(status))
			snprintf(err, errlen, "%s: killed by signal %d%s%s", spec->command[0],
				 WTERMSIG(status), msg[0] ? ": " : "", msg);
		else
			snprintf(err, errlen, "%s: exit status %d%s%s", spec->command[0],
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1, msg[0] ? ": " : "", msg);
		ik__val_counters_free(&after);
		rc = -1;
	} else if (rc == 0) {
		rc = ik__val_sample_window(&before, &after, s, err, errlen);
		ik__val_counters_free(&after);
	}
	ik__val_counters_free(&before);
unblock:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int ik__val_command_learn(struct ik_val_spec *spec, const struct ik_val_sample *traced,
			 char *err, size_t errlen)
{
	char path[2100];
	snprintf(path, sizeof(path), "%s/window.trace", spec->tmpdir);
	snprintf(spec->learned_file, sizeof(spec->learned_file), "%s/command.learned", spec->tmpdir);
	FILE *in = fopen(path, "r");
	if (!in)
		return ik__errmsg(err, errlen, "%s: %s", path, strerror(errno));
	struct ik_trace_reader *r = NULL;
	struct ik_learned m;
	int rc = -1;
	if (ik__trace_open_file(in, path, false, &r, err, errlen) == IK_TRACE_OK) {
		if (ik__learn_trace(r, "the traced run", &m, err, errlen) == 0) {
			FILE *out = fopen(spec->learned_file, "w");
			if (!out) {
				snprintf(err, errlen, "%s: %s", spec->learned_file, strerror(errno));
			} else {
				int wrc = ik__learned_write(out, &m);
				if (fclose(out) != 0 || wrc != 0)
					snprintf(err, errlen, "%s: cannot write the model",
						 spec->learned_file);
				else
					rc = 0;
			}
			ik__learned_free(&m);
		}
		ik__trace_close(r);
	}
	fclose(in);
	if (rc == 0) { /* a limited command's window is the limit */
		int64_t ms = spec->limit_ns > 0 ? (spec->limit_ns + 500000) / 1000000
						: (int64_t)(traced->window_ns / 1e6 + 0.5);
		spec->duration_ns = (ms > 0 ? ms : 1) * 1000000LL;
	}
	return rc;
}
