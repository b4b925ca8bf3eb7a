/*
 * idlekit validate: the real runs, and the machine they ran on.
 *
 * An rt-app file runs by the real rt-app binary.  Its start-up (reading the file, the
 * busy-loop calibration of "calibration": "CPUn", creating the threads) is left out of the
 * window: the window opens when every thread instance exists (rt-app creates them all once
 * it is ready, and its duration counts from there) and closes `duration` later.  The file
 * is run as a copy in the scratch directory with only its logging keys changed, so that
 * rt-app writes one log per thread instance there (one line per activation, with its
 * wake-up latency, wu_lat).  Meanwhile this process sleeps: it adds one wake-up at the end
 * of the window to the counters.
 *
 * The ping-pong is src/host/ctxsw.c's pipe test (what `idlekit ctxsw` runs) inside the
 * window.  Nothing here writes a knob: the machine is only read.
 *
 * Map: the machine (settings, rt-app's version); the rt-app file (info, the generated
 * periodic file, the copy with its logs); running rt-app; its logs; one real run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config/rtapp_json.h"
#include "util/errmsg.h"
#include "validate/validate.h"
#include "util/grow.h"

/* ---- the machine ---------------------------------------------------------------------- */

/* The first line of a file, without its newline ("" when it cannot be read). */
static void read_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Every parameter of a module, as "module.name". */
static void read_params(struct ik_val_machine *m, const char *module)
{
	char dir[256];
	snprintf(dir, sizeof(dir), "/sys/module/%s/parameters", module);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	char names[IK_VAL_MAX_PARAMS][64];
	int n = 0;
	while ((e = readdir(d)) && n < IK_VAL_MAX_PARAMS)
		if (e->d_name[0] != '.')
			snprintf(names[n++], sizeof(names[0]), "%.63s", e->d_name);
	closedir(d);
	/* directory order is not stable: sort, so that two records compare */
	qsort(names, (size_t)n, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);
	for (int i = 0; i < n && m->nparams < IK_VAL_MAX_PARAMS; i++) {
		char path[1400];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		snprintf(m->param_name[m->nparams], sizeof(m->param_name[0]), "%.20s.%.40s", module,
			 names[i]);
		read_line(path, m->param_value[m->nparams], sizeof(m->param_value[0]));
		m->nparams++;
	}
}

/* A command's first line of output ("" when it fails). */
static void command_line(char *const argv[], char *buf, size_t len)
{
	int fd[2];
	buf[0] = '\0';
	if (pipe2(fd, O_CLOEXEC) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 1);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	size_t n = 0;
	ssize_t got;
	while (pid > 0 && n + 1 < len && (got = read(fd[0], buf + n, len - 1 - n)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		n += (size_t)got;
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	close(fd[0]);
	int status;
	if (pid > 0)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (pid <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		buf[0] = '\0';
}

void ik__val_machine_read(const struct ik_sysfs *fs, struct ik_val_machine *m)
{
	struct utsname u;
	char err[IK_HOST_ERR_LEN];

	memset(m, 0, sizeof(*m));
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	struct ik_host_idle idle = { 0 };
	if (ik__host_idle_read(fs, NULL, &idle, err, sizeof(err)) == 0) {
		snprintf(m->driver, sizeof(m->driver), "%s", idle.driver);
		snprintf(m->governor, sizeof(m->governor), "%s", idle.governor);
		m->ncpus_online = ik__cpuset_count(&idle.online);
		m->has_states = ik__host_idle_has_states(&idle);
	}
	ik__host_idle_free(&idle);
	/* the governor's module (haltpoll's guest_halt_poll_*) and the driver's (force) */
	if (m->governor[0])
		read_params(m, m->governor);
	if (m->driver[0] && strcmp(m->driver, "none") != 0) {
		char module[80];
		snprintf(module, sizeof(module), "cpuidle_%.60s", m->driver);
		read_params(m, module);
	}
	char *const dpkg[] = { "dpkg-query", "-W", "-f=${Version}", "rt-app", NULL };
	command_line(dpkg, m->rtapp_version, sizeof(m->rtapp_version));
	m->loadavg_before = m->loadavg_after = ik__val_loadavg();
}

bool ik__val_machine_recheck(struct ik_val_machine *m, int run)
{
	for (int i = 0; i < m->nparams; i++) {
		char module[64], path[400], now[64];
		const char *dot = strchr(m->param_name[i], '.');
		if (!dot)
			continue;
		snprintf(module, sizeof(module), "%.*s", (int)(dot - m->param_name[i]), m->param_name[i]);
		snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", module, dot + 1);
		read_line(path, now, sizeof(now));
		if (strcmp(now, m->param_value[i]) != 0) {
			if (!m->changed[0])
				snprintf(m->changed, sizeof(m->changed), "%.63s was %.63s when validate "
					 "started and %.63s after real run %d: another process changed it, so the runs "
					 "did not all measure the machine recorded here", m->param_name[i],
					 m->param_value[i], now, run);
			return true;
		}
	}
	return false;
}

double ik__val_loadavg(void)
{
	char line[128];
	double v;
	read_line("/proc/loadavg", line, sizeof(line));
	return sscanf(line, "%lf", &v) == 1 ? v : -1;
}

bool ik__val_find_rtapp(char *path, size_t len)
{
	const char *env = getenv("PATH");
	char dirs[8192];
	snprintf(dirs, sizeof(dirs), "%s", env ? env : "/usr/bin:/bin");
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/rt-app", *d ? d : ".");
		if (access(path, X_OK) == 0)
			return true;
	}
	path[0] = '\0';
	return false;
}

/* ---- the rt-app file ------------------------------------------------------------------- */

int ik__val_rtapp_info(const char *file, int64_t *duration_ns, int *instances, char *err,
		      size_t errlen)
{
	struct ik_rtapp prog;
	if (ik__rtapp_load(file, &prog, err, errlen))
		return -1;
	*duration_ns = prog.duration_ns;
	*instances = 0;
	for (int i = 0; i < prog.ntasks; i++)
		*instances += prog.tasks[i].instances;
	ik__rtapp_free(&prog);
	if (*duration_ns <= 0)
		return ik__errmsg(err, errlen, "%s: global.duration: validate needs a duration "
				  "(whole seconds > 0), the same on the machine and in the model",
				  file);
	return 0;
}

int ik__val_periodic_file(struct ik_val_spec *spec, char *err, size_t errlen)
{
	snprintf(spec->rtapp_file, sizeof(spec->rtapp_file), "%s/periodic.json", spec->tmpdir);
	FILE *f = fopen(spec->rtapp_file, "w");
	if (!f)
		return ik__errmsg(err, errlen, "%s: %s", spec->rtapp_file, strerror(errno));
	int64_t run_us = (int64_t)llround((double)spec->period_us * spec->duty_pct / 100.0);
	/* runtime events last their time whatever rt-app's calibration says, so the number
	   given as calibration only spares rt-app its calibration loop */
	fprintf(f, "{\n  \"global\": { \"duration\": %" PRId64 ", \"calibration\": 100, "
		"\"default_policy\": \"SCHED_OTHER\" },\n  \"tasks\": {\n",
		spec->duration_ns / 1000000000);
	for (int i = 0; i < spec->tasks; i++)
		fprintf(f, "    \"periodic%d\": { \"loop\": -1, \"cpus\": [%d], \"phases\": { \"p0\": "
			"{ \"runtime\": %" PRId64 ", \"timer\": { \"ref\": \"unique\", \"period\": %" PRId64
			" } } } }%s\n", i, i, run_us, spec->period_us, i + 1 < spec->tasks ? "," : "");
	fprintf(f, "  }\n}\n");
	if (fclose(f) != 0)
		return ik__errmsg(err, errlen, "%s: %s", spec->rtapp_file, strerror(errno));
	return 0;
}

/*
 * The copy rt-app runs: the user's file with its logs sent to dir (one file per thread
 * instance, buffered in memory, MB per thread, so that writing them does not wake anything
 * during the window) and nothing else changed.
 */
static int write_copy(const char *file, const char *dir, int64_t duration_ns, const char *out,
		      char *err, size_t errlen)
{
	json_error_t je;
	json_t *root = json_load_file(file, 0, &je);
	if (!root)
		return ik__errmsg(err, errlen, "%s:%d: %s", file, je.line, je.text);
	json_t *global = json_object_get(root, "global");
	if (!global) {
		global = json_object();
		json_object_set_new(root, "global", global);
	}
	/* about 100 bytes a line: 2 MB per second of run holds 20,000 activations/s a thread */
	long long mb = (long long)(duration_ns / 1000000000) * 2 + 2;
	json_object_set_new(global, "logdir", json_string(dir));
	json_object_set_new(global, "log_basename", json_string("ik"));
	json_object_set_new(global, "log_size", json_integer(mb > 512 ? 512 : mb));
	int rc = json_dump_file(root, out, JSON_INDENT(1));
	json_decref(root);
	if (rc != 0)
		return ik__errmsg(err, errlen, "%s: cannot write rt-app's copy of the file", out);
	return 0;
}

/* ---- running rt-app ---------------------------------------------------------------------- */

int ik__val_threads_of(pid_t pid)
{
	char path[64], line[128];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	int n = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	fclose(f);
	return n;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
	nanosleep(&ts, NULL);
}

bool ik__val_sleep_until(int64_t at_ns)
{
	struct timespec ts = { (time_t)(at_ns / 1000000000), (long)(at_ns % 1000000000) };
	int rc;
	while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
		if (ik__signals_caught())
			return false;
	return rc == 0;
}

pid_t ik__val_spawn(const char *file, char *const argv[], const char *outfile, char *err,
		   size_t errlen)
{
	int report[2];
	if (pipe2(report, O_CLOEXEC) != 0)
		return ik__errmsg(err, errlen, "cannot start %s: %s", file, strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "cannot start %s: %s", file, strerror(errno));
		close(report[0]);
		close(report[1]);
		return -1;
	}
	if (pid == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		sigaction(SIGQUIT, &sa, NULL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		int in = open("/dev/null", O_RDONLY);
		if (in >= 0)
			dup2(in, 0);
		int fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(file, argv);
		int e = errno;
		(void)!write(report[1], &e, sizeof(e));
		_exit(127);
	}
	close(report[1]);
	int e = 0;
	ssize_t n;
	while ((n = read(report[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (n == (ssize_t)sizeof(e)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return ik__errmsg(err, errlen, "cannot run %s: %s", file, strerror(e));
	}
	return pid;
}

/* Start rt-app on copy, its output into outfile.  The pid, or -1 with err. */
static pid_t start_rtapp(const char *rtapp, const char *copy, const char *outfile, char *err,
			 size_t errlen)
{
	char *argv[] = { (char *)"rt-app", (char *)copy, NULL };
	return ik__val_spawn(rtapp, argv, outfile, err, errlen);
}

int ik__val_wait_child(pid_t pid, int64_t limit_ns, bool *signalled)
{
	int64_t end = ik__host_now_ns() + limit_ns;
	int status;
	*signalled = false;
	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return -1;
		if (ik__signals_caught() && !*signalled) {
			*signalled = true;
			kill(pid, SIGTERM);
			end = ik__host_now_ns() + 2000000000LL;
		}
		if (ik__host_now_ns() > end) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return -1;
		}
		sleep_ns(5000000);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

void ik__val_last_output(const char *outfile, char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen(outfile, "r");
	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

/* ---- rt-app's logs ----------------------------------------------------------------------- */

static int add_wu(struct ik_val_logs *l, double v)
{
	double *p = ik__grow(l->wu, &l->cap, l->n, sizeof(*p), 4096);
	if (!p)
		return -1;
	l->wu = p;
	l->wu[l->n++] = v;
	return 0;
}

int ik__val_rtapp_log(FILE *f, int64_t t0_ns, int64_t t1_ns, struct ik_val_logs *l, char *err,
		     size_t errlen)
{
	char line[1024];
	int col_start = -1, col_wu = -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			char *save = NULL;
			int i = 0;
			for (char *t = strtok_r(line + 1, " \t\n", &save); t;
			     t = strtok_r(NULL, " \t\n", &save), i++) {
				if (strcmp(t, "start") == 0)
					col_start = i;
				else if (strcmp(t, "wu_lat") == 0)
					col_wu = i;
			}
			continue;
		}
		double v[32];
		int n = 0;
		char *p = line, *end;
		while (n < 32) {
			double x = strtod(p, &end);
			if (end == p)
				break;
			v[n++] = x;
			p = end;
		}
		if (n == 0)
			continue;
		if (col_start >= 0 && col_start < n) {
			double at_ns = v[col_start] * 1000.0;
			if (at_ns < (double)t0_ns || at_ns >= (double)t1_ns)
				continue;
		}
		l->lines++;
		if (col_wu >= 0 && col_wu < n) {
			l->have_wu = true;
			if (add_wu(l, v[col_wu]))
				return ik__errmsg(err, errlen, "out of memory");
		}
	}
	return 0;
}

static int read_log(const char *path, int64_t t0_ns, int64_t t1_ns, struct ik_val_logs *l,
		    char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return ik__errmsg(err, errlen, "%s: %s", path, strerror(errno));
	int rc = ik__val_rtapp_log(f, t0_ns, t1_ns, l, err, errlen);
	fclose(f);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Nearest rank, as the model's histogram percentiles. */
static double percentile(const double *v, size_t n, double p)
{
	if (n == 0)
		return 0;
	size_t rank = (size_t)ceil(p / 100.0 * (double)n);
	return v[rank ? rank - 1 : 0];
}

static int read_logs(const char *dir, int64_t t0_ns, int64_t t1_ns, struct ik_val_sample *s,
		     char *err, size_t errlen)
{
	struct ik_val_logs l = { 0 };
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;
	if (!d)
		return ik__errmsg(err, errlen, "%s: %s", dir, strerror(errno));
	while (rc == 0 && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, "ik-", 3) != 0 || n < 5 || strcmp(e->d_name + n - 4, ".log") != 0)
			continue;
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		rc = read_log(path, t0_ns, t1_ns, &l, err, errlen);
	}
	closedir(d);
	if (rc == 0) {
		s->have_throughput = true;
		s->throughput_name = "activations/s";
		s->throughput = (double)l.lines / (s->window_ns / 1e9);
		if (l.have_wu && l.n > 0) {
			qsort(l.wu, l.n, sizeof(double), cmp_double);
			s->have_wake = true;
			s->wake_p50_us = percentile(l.wu, l.n, 50);
			s->wake_p99_us = percentile(l.wu, l.n, 99);
		}
	}
	free(l.wu);
	return rc;
}

/* ---- one real run ----------------------------------------------------------------------- */

int ik__val_program_window(const char *name, pid_t pid, int threads, int64_t ready_ns,
			  int64_t duration_ns, const char *outfile, const struct ik_sysfs *fs,
			  const struct ik_val_hooks *hooks, struct ik_val_sample *s, int64_t *t0_ns,
			  int64_t *t1_ns, char *err, size_t errlen)
{
	struct ik_val_counters before, after;
	char msg[512];
	bool signalled;
	/* Start-up: until it has its threads.  A program that exits meanwhile stays a zombie
	   with one thread until reaped: it is reaped here, so that its end is seen at once. */
	int64_t limit = ik__host_now_ns() + ready_ns;
	int have = 0, status;
	bool ended = false;
	*t0_ns = *t1_ns = 0;
	while (!ik__signals_caught() && ik__host_now_ns() < limit) {
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid || (got < 0 && errno != EINTR)) {
			ended = true;
			break;
		}
		if ((have = ik__val_threads_of(pid)) >= threads)
			break;
		sleep_ns(500000);
	}
	if (ended || have < threads) {
		if (!ended)
			ik__val_wait_child(pid, 0, &signalled);
		ik__val_last_output(outfile, msg, sizeof(msg));
		if (ik__signals_caught())
			snprintf(err, errlen, "interrupted");
		else if (ended)
			snprintf(err, errlen, "%s: ended before all its threads ran%s%s", name,
				 msg[0] ? ": " : "", msg);
		else
			snprintf(err, errlen, "%s: its threads did not start within %lld s%s%s", name,
				 (long long)(ready_ns / 1000000000), msg[0] ? ": " : "", msg);
		return -1;
	}
	if (ik__val_counters_read(fs, &before, err, errlen)) {
		kill(pid, SIGTERM);
		ik__val_wait_child(pid, 2000000000LL, &signalled);
		return -1;
	}
	if (hooks && hooks->start(hooks->arg, err, errlen)) {
		kill(pid, SIGTERM);
		ik__val_wait_child(pid, 2000000000LL, &signalled);
		ik__val_counters_free(&before);
		return -1;
	}
	bool whole = ik__val_sleep_until(before.at_ns + duration_ns);
	/* the window closes with the second read; a recorder stops after it */
	int rc = whole ? ik__val_counters_read(fs, &after, err, errlen) : -1;
	if (hooks)
		hooks->stop(hooks->arg);
	bool have_after = whole && rc == 0;
	if (!have_after)
		kill(pid, SIGTERM);
	/* it ends at its duration, then writes its logs */
	int code = ik__val_wait_child(pid, have_after ? 30000000000LL : 2000000000LL, &signalled);
	if (!whole || signalled) {
		snprintf(err, errlen, "interrupted");
		rc = -1;
	} else if (!have_after) {
		rc = -1; /* the read's message is in err */
	} else if (code != 0) {
		ik__val_last_output(outfile, msg, sizeof(msg));
		snprintf(err, errlen, "%s: exit status %d%s%s", name, code, msg[0] ? ": " : "", msg);
		rc = -1;
	}
	if (rc == 0)
		rc = ik__val_sample_window(&before, &after, s, err, errlen);
	*t0_ns = before.at_ns;
	if (have_after)
		*t1_ns = after.at_ns;
	ik__val_counters_free(&before);
	if (have_after)
		ik__val_counters_free(&after);
	return rc;
}

static int run_rtapp(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		     const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
		     size_t errlen)
{
	char rtapp[4096], dir[4200], copy[4300], outfile[4300], name[4100];
	int64_t duration_ns;
	int instances;

	if (!ik__val_find_rtapp(rtapp, sizeof(rtapp)))
		return ik__errmsg(err, errlen, "rt-app is not installed (on PATH); Debian's "
				  "package is rt-app: apt-get install rt-app");
	if (ik__val_rtapp_info(spec->rtapp_file, &duration_ns, &instances, err, errlen))
		return -1;
	snprintf(dir, sizeof(dir), "%s/run%d", spec->tmpdir, run);
	snprintf(copy, sizeof(copy), "%s/taskset.json", dir);
	snprintf(outfile, sizeof(outfile), "%s/rt-app.out", dir);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return ik__errmsg(err, errlen, "%s: %s", dir, strerror(errno));
	if (write_copy(spec->rtapp_file, dir, duration_ns, copy, err, errlen))
		return -1;
	pid_t pid = start_rtapp(rtapp, copy, outfile, err, errlen);
	if (pid < 0)
		return -1;
	/* its threads exist once it has read the file and calibrated (which can take
	   seconds): the main one and every instance */
	snprintf(name, sizeof(name), "rt-app %.4000s", spec->rtapp_file);
	int64_t t0, t1;
	int rc = ik__val_program_window(name, pid, 1 + instances, 60000000000LL, duration_ns, outfile,
				       fs, hooks, s, &t0, &t1, err, errlen);
	if (rc == 0 && read_logs(dir, t0, t1, s, err, errlen)) {
		ik__val_sample_free(s);
		rc = -1;
	}
	return rc;
}

static int stop_requested(void)
{
	return ik__signals_caught();
}

static int run_pingpong(const struct ik_val_spec *spec, const struct ik_sysfs *fs,
			const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
			size_t errlen)
{
	struct ik_ctxsw_config c = {
		.cpu_a = spec->cpu_a, .cpu_b = spec->cpu_b, .test = IK_CTXSW_PIPE,
		.duration_ns = spec->duration_ns, .tick_ns = spec->duration_ns,
		.should_stop = stop_requested,
	};
	struct ik_ctxsw_result r;
	struct ik_val_counters before, after;

	if (ik__val_counters_read(fs, &before, err, errlen))
		return -1;
	if (hooks && hooks->start(hooks->arg, err, errlen)) {
		ik__val_counters_free(&before);
		return -1;
	}
	int rc = ik__ctxsw_run(&c, &r, err, errlen);
	if (hooks)
		hooks->stop(hooks->arg);
	if (rc == 0 && ik__signals_caught()) {
		snprintf(err, errlen, "interrupted");
		rc = -1;
	}
	if (rc == 0 && ik__val_counters_read(fs, &after, err, errlen) == 0) {
		rc = ik__val_sample_window(&before, &after, s, err, errlen);
		ik__val_counters_free(&after);
		if (rc == 0) {
			/* a pipe round trip is two hand-overs, each one a message of the model's */
			s->have_throughput = true;
			s->throughput_name = "messages/s";
			s->throughput = (double)r.switches / ((double)r.elapsed_ns / 1e9);
		}
	} else {
		rc = -1;
	}
	ik__val_counters_free(&before);
	return rc;
}

int ik__val_real_run(const struct ik_val_spec *spec, const struct ik_sysfs *fs, int run,
		    const struct ik_val_hooks *hooks, struct ik_val_sample *s, char *err,
		    size_t errlen)
{
	memset(s, 0, sizeof(*s));
	if (spec->kind == IK_VAL_PINGPONG)
		return run_pingpong(spec, fs, hooks, s, err, errlen);
	if (spec->kind == IK_VAL_COMMAND)
		return ik__val_command_run(spec, fs, run, hooks, s, err, errlen);
	if (spec->kind == IK_VAL_CYCLICTEST)
		return ik__val_cyclictest_run(spec, fs, run, hooks, s, err, errlen);
	if (spec->kind == IK_VAL_TBENCH)
		return ik__val_tbench_run(spec, fs, run, hooks, s, err, errlen);
	return run_rtapp(spec, fs, run, hooks, s, err, errlen);
}
