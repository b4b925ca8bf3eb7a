/*
 * idlekit validate --builtin tbench: dbench's tbench_srv and one tbench client over loopback
 * TCP (Debian package dbench), the client measured as a program that ends by itself
 * (ik__val_program_window), its operations in the window taken from the cumulative count it
 * prints once a second.  Modelled by the pingpong workload with one pair: an operation is a
 * request and its reply, two messages (predict.c).
 */
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host/host.h"
#include "util/errmsg.h"
#include "validate/validate.h"

#define TBENCH_PORT 7003 /* tbench_srv's (dbench's) port, which it does not let one change */

/*
 * tbench's lines: "   1    303016   800.10 MB/sec  execute   1 sec  latency 4.361 ms" once
 * a second (clients, operations so far, throughput, phase, seconds since the clients were
 * released), "Throughput 150.696 MB/sec  1 clients  1 procs  max_latency=4.152 ms" at the
 * end; the rest (the operation table, start-up and cleanup lines) is passed over.
 */
int ik__val_tbench_log(FILE *f, const char *origin, struct ik_val_tbench_log *l, char *err,
		      size_t errlen)
{
	char line[512];
	int lineno = 0;
	memset(l, 0, sizeof(*l));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		double ops, mb, sec, total;
		int clients, used = 0;
		char phase[16];
		if (sscanf(line, " %d %lf %lf MB/sec %15s %lf sec%n", &clients, &ops, &mb, phase, &sec,
			   &used) == 5 && used > 0 && strcmp(phase, "execute") == 0) {
			if (!(ops >= 0) || !(sec >= 0) || !isfinite(ops) || !isfinite(sec) ||
			    (l->n > 0 && (sec <= l->sec[l->n - 1] || ops < l->ops[l->n - 1]))) {
				return ik__errmsg(err, errlen, "%s:%d: expected tbench's "
						  "per-second count, seconds rising and operations "
						  "not falling, got %.9g operations at %.9g s",
						  origin, lineno, ops, sec);
			}
			if (l->n == IK_VAL_TBENCH_MAX_SECONDS)
				return ik__errmsg(err, errlen, "%s:%d: more than %d per-second "
						  "counts (a run of at most %d s is read)", origin,
						  lineno, IK_VAL_TBENCH_MAX_SECONDS,
						  IK_VAL_TBENCH_MAX_SECONDS);
			l->sec[l->n] = sec;
			l->ops[l->n] = ops;
			l->n++;
		} else if (sscanf(line, "Throughput %lf MB/sec", &total) == 1) {
			if (!(total >= 0) || !isfinite(total))
				return ik__errmsg(err, errlen, "%s:%d: expected tbench's "
						  "throughput in MB/s, got %.9g", origin, lineno,
						  total);
			l->have_mb_s = true;
			l->mb_s = total;
		}
	}
	if (ferror(f))
		return ik__errmsg(err, errlen, "%s: %s", origin, strerror(errno));
	if (l->n == 0)
		return ik__errmsg(err, errlen, "%s: no per-second count of tbench's ('N OPS MB/sec "
				  "execute S sec ...'): tbench ran less than a second or printed "
				  "something else", origin);
	return 0;
}

/* The operations so far at t_s (seconds since the clients' release), interpolated between
   the per-second counts (0 at 0 s); NAN past the last count. */
static double ops_at(const struct ik_val_tbench_log *l, double t_s)
{
	double ta = 0, a = 0;
	for (int i = 0; i < l->n; i++) {
		double tb = l->sec[i], b = l->ops[i];
		if (t_s <= tb)
			return t_s <= ta ? a : a + (b - a) * (t_s - ta) / (tb - ta);
		ta = tb;
		a = b;
	}
	return NAN;
}

double ik__val_tbench_ops_between(const struct ik_val_tbench_log *l, double a_s, double b_s)
{
	if (!(a_s >= 0) || !(b_s >= a_s))
		return NAN;
	return ops_at(l, b_s) - ops_at(l, a_s);
}

/* Until the server accepts a connection on 127.0.0.1 (it is up): true, or false when it
   ended, a signal came or limit_ns passed. */
static bool listening(pid_t srv, int64_t limit_ns)
{
	int64_t end = ik__host_now_ns() + limit_ns;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(TBENCH_PORT),
				 .sin_addr = { htonl(INADDR_LOOPBACK) } };
	while (!ik__signals_caught() && ik__host_now_ns() < end) {
		int status;
		if (waitpid(srv, &status, WNOHANG) == srv)
			return false;
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return false;
		int ok = connect(fd, (const struct sockaddr *)&a, sizeof(a)) == 0;
		close(fd);
		if (ok)
			return true;
		ik__val_sleep_until(ik__host_now_ns() + 10000000);
	}
	return false;
}

int ik__val_tbench_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		      const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
		      size_t errlen)
{
	char srvout[2200], cliout[2200], a_t[32], msg[512];
	bool signalled;

	snprintf(srvout, sizeof(srvout), "%s/tbench_srv-%d.out", spec->tmpdir, run + 1);
	snprintf(cliout, sizeof(cliout), "%s/tbench-%d.out", spec->tmpdir, run + 1);
	char *sargv[] = { (char *)"tbench_srv", NULL };
	pid_t srv = ik__val_spawn("tbench_srv", sargv, srvout, err, errlen);
	if (srv < 0)
		return -1;
	/* the connection the check makes is one the server forks a child for: it ends at once */
	if (!listening(srv, 5000000000LL)) {
		kill(srv, SIGTERM);
		ik__val_wait_child(srv, 2000000000LL, &signalled);
		ik__val_last_output(srvout, msg, sizeof(msg));
		if (ik__signals_caught())
			snprintf(err, errlen, "interrupted");
		else
			snprintf(err, errlen, "tbench_srv: not accepting connections on 127.0.0.1:%d "
				 "within 5 s (another tbench_srv running?)%s%s", TBENCH_PORT,
				 msg[0] ? ": " : "", msg);
		return -1;
	}
	/* one second of start-up before the window, and two after it: tbench's last count is
	   a second before its end (then it cleans up) */
	int64_t secs = (spec->duration_ns + 999999999LL) / 1000000000LL + 3;
	snprintf(a_t, sizeof(a_t), "%lld", (long long)secs);
	char *cargv[] = { (char *)"tbench", (char *)"-t", a_t, (char *)"1", (char *)"127.0.0.1",
			  NULL };
	int64_t t_spawn = ik__host_now_ns();
	pid_t cl = ik__val_spawn("tbench", cargv, cliout, err, errlen);
	if (cl < 0) {
		kill(srv, SIGTERM);
		ik__val_wait_child(srv, 2000000000LL, &signalled);
		return -1;
	}
	int rc = -1;
	int64_t t0 = 0, t1 = 0;
	if (!ik__val_sleep_until(t_spawn + 1000000000LL)) {
		kill(cl, SIGTERM);
		ik__val_wait_child(cl, 2000000000LL, &signalled);
		snprintf(err, errlen, "interrupted");
	} else {
		rc = ik__val_program_window("tbench", cl, 1, 5000000000LL, spec->duration_ns, cliout,
					   fs, hooks, s, &t0, &t1, err, errlen);
	}
	kill(srv, SIGTERM);
	ik__val_wait_child(srv, 2000000000LL, &signalled);
	if (rc != 0)
		return -1;
	struct ik_val_tbench_log *l = malloc(sizeof(*l));
	FILE *f = fopen(cliout, "r");
	if (!l || !f) {
		snprintf(err, errlen, "%s: %s", cliout, l ? strerror(errno) : "out of memory");
		rc = -1;
	} else if (ik__val_tbench_log(f, cliout, l, err, errlen) == 0) {
		/* tbench counts its seconds from the clients' release, a few ms after its start */
		double ops = ik__val_tbench_ops_between(l, (double)(t0 - t_spawn) / 1e9,
						       (double)(t1 - t_spawn) / 1e9);
		if (isnan(ops) || t1 <= t0) {
			snprintf(err, errlen, "%s: tbench's per-second counts (to %.0f s) do not cover "
				 "the window (%.3f-%.3f s from its start)", cliout, l->sec[l->n - 1],
				 (double)(t0 - t_spawn) / 1e9, (double)(t1 - t_spawn) / 1e9);
			rc = -1;
		} else {
			s->have_throughput = true;
			s->throughput_name = "operations/s";
			s->throughput = ops / ((double)(t1 - t0) / 1e9);
		}
	} else {
		rc = -1;
	}
	if (f)
		fclose(f);
	free(l);
	if (rc != 0)
		ik__val_sample_free(s);
	return rc;
}
