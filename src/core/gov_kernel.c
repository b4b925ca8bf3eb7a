/*
 * Kernel-source governors (`--governor kernel:PATH`): a governor file as it sits in a
 * kernel tree, compiled unmodified with the system's C compiler against idlekit's kernel
 * shim (src/kshim/: headers for what governor files include, and ikk_runtime.c, which
 * answers the kernel services from idlekit's core), cached, and loaded as a private copy
 * per instance.
 *
 * Build: cc -std=gnu11 -O2 -fno-strict-overflow -fno-strict-aliasing -fPIC -shared
 * -nostdinc (no system header can stand in for a kernel one) -Werror=implicit-function-
 * declaration -Wl,--no-undefined: a kernel symbol the shim lacks stops the build, and is
 * named.  Cache: $IDLEKIT_CACHE_DIR, else $XDG_CACHE_HOME/idlekit, else ~/.cache/idlekit;
 * one object per sha256 of (the file, gov.h beside it, every shim file, the release, the
 * compiler's name), so an unchanged file is never compiled twice and any change to it or
 * to the shim is.
 *
 * Divisions: sha256 of the sources; where things are (the shim, the cache); a private copy
 * of a shared object; compiling (the build, the compiler's warnings; its error messages are
 * gov_compile_msg.c's); the instance (the hooks the shim calls back, the ops that wrap the
 * kernel governor, each call guarded by gov_guard.c, its module parameters set before its
 * initcalls, ik__gov_kernel_open).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/gov_internal.h"
#include "kshim/ikk_bridge.h"
#include "util/errmsg.h"
#include "util/read_file.h"

#ifndef IK_KSHIM_SOURCE_DIR
#define IK_KSHIM_SOURCE_DIR ""
#endif
#ifndef IK_BUILD_DIR
#define IK_BUILD_DIR ""
#endif

/* ---- sha256 ---------------------------------------------------------------------------- */

static int hash_file(struct sha256_ctx *h, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	unsigned char buf[65536];
	size_t n;

	if (!f)
		return ik__errmsg(err, errlen, "%s: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sha256_update(h, n, buf);
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return ik__errmsg(err, errlen, "%s: read failed", path);
	return 0;
}

static void hex_digest(struct sha256_ctx *h, char out[65])
{
	unsigned char d[SHA256_DIGEST_SIZE];

	sha256_digest(h, sizeof(d), d);
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

int ik__gov_sha256_files(const char *const *paths, int npaths, char out[65], char *err,
			size_t errlen)
{
	struct sha256_ctx h;

	sha256_init(&h);
	for (int i = 0; i < npaths; i++)
		if (hash_file(&h, paths[i], err, errlen))
			return -1;
	hex_digest(&h, out);
	return 0;
}

/* ---- Where things are ------------------------------------------------------------------ */

static bool is_dir(const char *p)
{
	struct stat st;
	return p[0] && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The shim, in this order: $IDLEKIT_KSHIM_DIR; BINDIR/../share/idlekit/kshim beside this
 * binary (an installed idlekit, under any prefix, also after its prefix was moved); the
 * source tree, only when this binary is the one its build tree made (a build copied or
 * moved elsewhere never takes another tree's shim).  NULL, with buf saying where it was
 * looked for, when none is there.
 */
static const char *shim_dir(char *buf, size_t len)
{
	const char *env = getenv("IDLEKIT_KSHIM_DIR");
	if (env && env[0])
		return env;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		snprintf(buf, len, "(this binary's path: /proc/self/exe cannot be read)");
		return NULL;
	}
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	char beside[PATH_MAX + 32], real[PATH_MAX];
	snprintf(beside, sizeof(beside), "%s/../share/idlekit/kshim", exe);
	snprintf(buf, len, "%.*s", (int)(len - 1), beside);
	if (is_dir(beside) && realpath(beside, real) && strlen(real) < len) {
		memcpy(buf, real, strlen(real) + 1);
		return buf;
	}
	if (IK_BUILD_DIR[0] && strcmp(exe, IK_BUILD_DIR) == 0 && is_dir(IK_KSHIM_SOURCE_DIR))
		return IK_KSHIM_SOURCE_DIR;
	return NULL;
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		int rc = mkdir(path, 0755);
		*p = '/';
		if (rc && errno != EEXIST)
			return -1;
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

static int cache_dir(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("IDLEKIT_CACHE_DIR");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && env[0])
		n = snprintf(buf, len, "%s", env);
	else if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/idlekit", xdg);
	else if (home && home[0])
		n = snprintf(buf, len, "%s/.cache/idlekit", home);
	else {
		return ik__errmsg(err, errlen, "no cache directory: set IDLEKIT_CACHE_DIR (or "
				  "HOME)");
	}
	if (n < 0 || (size_t)n >= len || mkdirs(buf))
		return ik__errmsg(err, errlen, "cache directory %s: %s", buf,
				  (size_t)n >= len ? "path too long" : strerror(errno));
	return 0;
}

/* Every file of the shim, in name order, into the hash (its content is its version). */
static int hash_tree(struct sha256_ctx *h, const char *dir, int depth, char *err, size_t errlen)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	int rc = 0;

	if (n < 0)
		return ik__errmsg(err, errlen, "kernel shim %s: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		char p[PATH_MAX];
		struct stat st;
		if (rc || nm[0] == '.' || (size_t)snprintf(p, sizeof(p), "%s/%s", dir, nm) >= sizeof(p) ||
		    stat(p, &st)) {
			free(names[i]);
			continue;
		}
		if (S_ISDIR(st.st_mode) && depth < 4) {
			rc = hash_tree(h, p, depth + 1, err, errlen);
		} else if (S_ISREG(st.st_mode)) {
			sha256_update(h, strlen(nm) + 1, (const uint8_t *)nm);
			rc = hash_file(h, p, err, errlen);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* ---- A private copy of a shared object ---------------------------------------------------- */

void *ik__gov_dlopen_private(const char *path, int *fd_out, char *err, size_t errlen)
{
	int in = open(path, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	int fd = memfd_create("idlekit-governor", MFD_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		close(in);
		return NULL;
	}
	char buf[65536];
	ssize_t n;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(fd, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	}
	close(in);
	if (n < 0) {
		snprintf(err, errlen, "%s: copying: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	char fdpath[64];
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	/*
	 * The descriptor stays open while the object is loaded: the loader knows objects by
	 * name, and a closed descriptor's number (hence the name) would be used again.
	 */
	void *h = dlopen(fdpath, RTLD_NOW | RTLD_LOCAL);
	if (h)
		*fd_out = fd;
	else
		close(fd);
	if (!h) {
		const char *e = dlerror();
		const char *shown = e ? strstr(e, ": ") : NULL;
		snprintf(err, errlen, "not a loadable shared object (%s)",
			 shown ? shown + 2 : e ? e : "dlopen failed");
	}
	return h;
}

void ik__gov_dlclose_private(void *dl, int fd)
{
	if (!dl)
		return;
	dlclose(dl);
	close(fd);
}

/* ---- Compiling (the messages: gov_compile_msg.c) ------------------------------------------- */

static int run_compiler(char *const argv[], char *out, size_t outlen, int *status)
{
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		setenv("LC_ALL", "C", 1); /* plain quotes in messages */
		execvp(argv[0], argv);
		fprintf(stderr, "error: cannot run the C compiler '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	size_t have = 0;
	ssize_t n;
	char sink[4096];
	while ((n = read(pfd[0], have + 1 < outlen ? out + have : sink,
			 have + 1 < outlen ? outlen - 1 - have : sizeof(sink))) > 0)
		if (have + 1 < outlen)
			have += (size_t)n;
	out[have] = '\0';
	close(pfd[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

static int version_code(const char *v, char *err, size_t errlen)
{
	int major = 6, minor = 19;
	if (v && (sscanf(v, "%d.%d", &major, &minor) != 2 || major < 0 || minor < 0 || minor > 255))
		return ik__errmsg(err, errlen, "kernel version '%s': expected X.Y, e.g. 6.19", v);
	int code = (major << 16) + (minor << 8);
	/* the microsecond layout, as read in v5.4.6 (v5.2.1's teo.c compiles against it too);
	   nanoseconds from v5.5 (pm-5.5-rc1), v5.10.7's layout (v5.7.14's and v5.9.1's files) */
	/* v7.0 and v7.1 as v6.19: their teo.c and menu.c (from the patch mails) use nothing
	   the 6.19 files did not */
	if (code < ((5 << 16) + (1 << 8)) || code > ((7 << 16) + (1 << 8))) {
		snprintf(err, errlen,
			 "kernel version %d.%d: the kernel shim serves the governor API of v5.5 to "
			 "v7.1 (v7.0 and v7.1 as v6.19), and of v5.1 to v5.4 (microseconds, as in v5.4)",
			 major, minor);
		return -1;
	}
	return code;
}

static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static bool quiet; /* -q: the compiler's warnings as a count */

/* The cached object for path, compiled now if needed.  0, -2 (does not compile), -1. */
static int build(const char *path, const char *gov_h, int vcode, const struct ik_gov_api *api,
		 char so[PATH_MAX], char file_sha[65], bool *compiled, char *err, size_t errlen)
{
	char shimbuf[PATH_MAX], cache[PATH_MAX];
	const char *shim = shim_dir(shimbuf, sizeof(shimbuf));
	if (!shim)
		return ik__errmsg(err, errlen, "the kernel shim's headers are not where this "
				  "idlekit looks: %s (an installed idlekit has them there; set "
				  "IDLEKIT_KSHIM_DIR to use others)", shimbuf);
	const char *cc = getenv("IDLEKIT_CC");
	if (!cc || !cc[0])
		cc = "cc";

	const char *files[2] = { path, gov_h };
	if (ik__gov_sha256_files(files, gov_h ? 2 : 1, file_sha, err, errlen))
		return -2;

	struct sha256_ctx h;
	char key[65], tag[64];
	sha256_init(&h);
	snprintf(tag, sizeof(tag), "idlekit-kshim-%d-%d-", IKK_BRIDGE_VERSION, vcode);
	sha256_update(&h, strlen(tag), (const uint8_t *)tag);
	sha256_update(&h, strlen(cc) + 1, (const uint8_t *)cc);
	sha256_update(&h, 64, (const uint8_t *)file_sha);
	if (hash_tree(&h, shim, 0, err, errlen)) {
		snprintf(err + strlen(err), errlen - strlen(err),
			 " (the kernel shim's headers: set IDLEKIT_KSHIM_DIR, or install idlekit)");
		return -1;
	}
	hex_digest(&h, key);
	if (cache_dir(cache, sizeof(cache), err, errlen))
		return -1;
	if ((size_t)snprintf(so, PATH_MAX, "%s/kgov-%.40s.so", cache, key) >= PATH_MAX)
		return ik__errmsg(err, errlen, "cache path too long");
	*compiled = false;
	if (getenv("IDLEKIT_GOV_VERBOSE"))
		fprintf(stderr, "kernel:%s: kernel shim %s\n", path, shim);
	if (access(so, R_OK) == 0)
		return 0;

	char tmp[PATH_MAX + 32], inc[PATH_MAX + 16], iq[PATH_MAX + 8], rt[PATH_MAX + 32], def[64];
	char rtp[PATH_MAX + 32];
	/* A name of its own (mkstemps), so that runs compiling the same file at once do not meet. */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX.tmp", so);
	int tfd = mkstemps(tmp, 4);
	if (tfd < 0)
		return ik__errmsg(err, errlen, "%s: %s", cache, strerror(errno));
	close(tfd);
	snprintf(inc, sizeof(inc), "%s/include", shim);
	snprintf(iq, sizeof(iq), "-I%s", shim);
	snprintf(rt, sizeof(rt), "%s/ikk_runtime.c", shim);
	snprintf(rtp, sizeof(rtp), "%s/ikk_params.c", shim);
	snprintf(def, sizeof(def), "-DIKK_LINUX_VERSION_CODE=%d", vcode);
	char src[PATH_MAX + 8]; /* a file named "-x.c" is a file, not an option */
	snprintf(src, sizeof(src), "%s%s", path[0] == '-' ? "./" : "", path);
	char *argv[] = { (char *)cc, "-std=gnu11", "-O2", "-fno-strict-overflow",
			 "-fno-strict-aliasing", "-fno-common", "-fPIC", "-shared", "-nostdinc",
			 "-isystem", inc, iq, def, "-fdiagnostics-color=never",
			 "-Werror=implicit-function-declaration", "-Werror=implicit-int",
			 "-Wl,--no-undefined", "-Wall", "-o", tmp, src, rt, rtp, NULL };
	char out[16384];
	int status = 0;
	if (run_compiler(argv, out, sizeof(out), &status))
		return ik__errmsg(err, errlen, "cannot run the C compiler '%s': %s", cc,
				  strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		unlink(tmp);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			return ik__errmsg(err, errlen, "cannot run the C compiler '%s' (set "
					  "IDLEKIT_CC)", cc);
		ik__gov_compile_message_shim(src, out, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
					    shim, err, errlen);
		/* A file of one release fails against another's API: say which one it met. */
		size_t used = strlen(err);
		snprintf(err + used, errlen - used,
			 " (compiled against the cpuidle governor API of kernel %d.%d, the release "
			 "idlekit runs as", vcode >> 16, (vcode >> 8) & 255);
		/* ... and, when the file says it was written for another, which. */
		used = strlen(err);
		if (!ik__gov_api_fits(api, vcode)) {
			char what[512];
			ik__gov_api_describe(api, what, sizeof(what));
			snprintf(err + used, errlen - used, "; the file is %s)", what);
		} else {
			snprintf(err + used, errlen - used, ")");
		}
		/* The message names the first error; the compiler's whole output goes beside the
		   cache's objects, and the message says how many more there are and where. */
		int errors = 0;
		for (const char *q = out; (q = strstr(q, ": error:")) != NULL; q++)
			errors++;
		if (errors > 1) {
			char log[PATH_MAX + 16];
			snprintf(log, sizeof(log), "%s.log", so);
			FILE *lf = fopen(log, "w");
			bool lok = lf && fputs(out, lf) >= 0;
			if (lf && fclose(lf))
				lok = false;
			used = strlen(err);
			if (lok)
				snprintf(err + used, errlen - used, "; %d more errors, the compiler's "
					 "output in %s", errors - 1, log);
			else
				snprintf(err + used, errlen - used, "; %d more errors", errors - 1);
		}
		return -2;
	}
	/* The warnings about the user's file go beside the object: shown at every run. */
	static char warn[16384];
	char wpath[PATH_MAX + 16], wtmp[PATH_MAX + 48];
	pthread_mutex_lock(&warn_lock);
	ik__gov_compile_warnings(src, out, warn, sizeof(warn));
	snprintf(wpath, sizeof(wpath), "%s.warn", so);
	snprintf(wtmp, sizeof(wtmp), "%s.warn", tmp);
	FILE *wf = fopen(wtmp, "w");
	bool wok = wf && fputs(warn, wf) >= 0;
	if (wf && fclose(wf))
		wok = false;
	pthread_mutex_unlock(&warn_lock);
	if (!wok || rename(wtmp, wpath) || rename(tmp, so)) {
		snprintf(err, errlen, "%s: %s", so, strerror(errno));
		unlink(wtmp);
		unlink(tmp);
		return -1;
	}
	*compiled = true;
	return 0;
}

/*
 * The compiler's warnings about the file (kept in the cache beside the object), once per
 * process and object: in full, or as a count when the command runs quiet (-q).
 */
static void show_warnings(const char *path, const char *so)
{
	static char shown[32][PATH_MAX];
	static int nshown;
	char wpath[PATH_MAX + 16], text[16384];
	snprintf(wpath, sizeof(wpath), "%s.warn", so);
	pthread_mutex_lock(&warn_lock);
	bool seen = false;
	for (int i = 0; i < nshown && !seen; i++)
		seen = strcmp(shown[i], so) == 0;
	FILE *f = seen ? NULL : fopen(wpath, "r");
	if (f) {
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = '\0';
		fclose(f);
		int count = 0;
		for (const char *p = strstr(text, ": warning:"); p; p = strstr(p + 1, ": warning:"))
			count++;
		if (count && quiet)
			fprintf(stderr, "idlekit: kernel:%s: %d compiler warning%s (-Wall; run without "
				"-q to see %s)\n", path, count, count == 1 ? "" : "s",
				count == 1 ? "it" : "them");
		else if (count)
			fprintf(stderr, "idlekit: kernel:%s: %d compiler warning%s (-Wall):\n%s", path,
				count, count == 1 ? "" : "s", text);
		if (nshown < 32)
			snprintf(shown[nshown++], PATH_MAX, "%s", so);
	}
	pthread_mutex_unlock(&warn_lock);
}

/* The file's bytes (at most 16 MiB: a larger file is not read), malloc'd; NULL if not. */
static char *read_source(const char *path, size_t *len)
{
	char *buf;
	struct ik_read_failure why;
	return ik__read_file_whole(path, (size_t)16 << 20, &buf, len, &why) ? NULL : buf;
}

void ik__gov_kernel_describe_file(const char *path, char *buf, size_t len)
{
	size_t n = 0;
	char *src = read_source(path, &n);
	struct ik_gov_api api;
	buf[0] = '\0';
	if (!src)
		return;
	ik__gov_api_recognise(src, n, &api);
	free(src);
	ik__gov_api_describe(&api, buf, len);
}

/*
 * The release the file was written for, against the run's: a warning when they differ
 * (once per process and object, also with -q: it changes what the results mean).
 */
static void warn_release(const char *path, const char *so, const struct ik_gov_api *api,
			 int vcode)
{
	static char warned[32][PATH_MAX];
	static int nwarned;
	if (ik__gov_api_fits(api, vcode))
		return;
	pthread_mutex_lock(&warn_lock);
	bool seen = false;
	for (int i = 0; i < nwarned && !seen; i++)
		seen = strcmp(warned[i], so) == 0;
	if (!seen) {
		char what[512], fix[192] = "";
		int major = vcode >> 16, minor = (vcode >> 8) & 255;
		/* a release the shim serves that the file was written for: for a release's own
		   file the last known to have it, else the lowest */
		int lo = api->exact_file ? api->exact_lo : api->lo, hi = api->exact_file ?
			api->exact_hi : api->hi, served_lo = (5 << 16) + (1 << 8),
			served_hi = (7 << 16) + (1 << 8);
		int top = hi && hi < served_hi ? hi : served_hi;
		int own = api->exact_file ? top : lo > served_lo ? lo : served_lo;
		if (own >= served_lo && own >= lo && own <= top)
			snprintf(fix, sizeof(fix), " (--set kernel.version=%d.%d, or govreplay's and "
				 "replay's --kernel %d.%d, runs it as %s)", own >> 16, (own >> 8) & 255,
				 own >> 16, (own >> 8) & 255,
				 !api->exact_file ? "a release it was written for" :
				 api->exact_lo == api->exact_hi ? "its own release" : "a release that has it");
		else
			snprintf(fix, sizeof(fix), " (idlekit serves the governor API of v5.1 to "
				 "v7.1)");
		ik__gov_api_describe(api, what, sizeof(what));
		if (api->exact_file)
			fprintf(stderr, "idlekit: kernel:%s: warning: the file is %s, but the run is "
				"kernel %d.%d: the file decides as its own release's code, the core "
				"and the built-in governors as %d.%d%s\n", path, what, major, minor,
				major, minor, fix);
		else
			fprintf(stderr, "idlekit: kernel:%s: warning: the file is %s, but the run is "
				"kernel %d.%d: the file gets that release's structures and calls, "
				"which it was not written for%s\n", path, what, major, minor, fix);
		if (nwarned < 32)
			snprintf(warned[nwarned++], PATH_MAX, "%s", so);
	}
	pthread_mutex_unlock(&warn_lock);
}

void ik__gov_kernel_set_quiet(bool q)
{
	quiet = q;
}

/* ---- The instance ---------------------------------------------------------------------------- */

struct kgov {
	struct ik_gov_loaded l; /* first: the loader's view */
	void *dl;
	int fd;
	struct ikk_host host;
	struct ik_driver drv;
	ikk_enable_fn enable;
	ikk_disable_fn disable;
	ikk_select_fn select;
	ikk_reflect_fn reflect;
	ikk_param_count_fn param_count;
	ikk_param_get_fn param_get;
	ikk_param_set_fn param_set;
	uint64_t decisions; /* selects so far: what a crash report counts */
};

static struct kgov *of(const struct ik_device *dev)
{
	return dev->governor->priv;
}

static long long h_sleep_length(void *d, long long *delta)
{
	int64_t dn = 0;
	int64_t r = ik_sleep_length(d, &dn);
	*delta = dn;
	return r;
}
static int h_tick_stopped(void *d) { return ik_tick_stopped(d); }
static int h_got_tick(void *d) { return ik_got_tick(d); }
static long long h_latency_req(void *d) { return ik_latency_req(d); }
static unsigned long long h_poll_time(void *d)
{
	struct ik_device *dev = d;
	return ik_poll_time(&of(dev)->drv, dev);
}
static long long h_now(void *d) { return ((struct ik_device *)d)->in.now_ns; }
/* The next clock event: the model's delta_next from now (the tick, or a timer before it). */
static long long h_next_event(void *d)
{
	const struct ik_device *dev = d;
	return dev->in.now_ns + dev->in.delta_next_ns;
}
/* (The only answer that takes a lock: a time-out waits until it is done.) */
static void h_log(const char *msg)
{
	ik__gov_guard_host_enter();
	fprintf(stderr, "kernel governor: %s", msg);
	ik__gov_guard_host_leave();
}

/* (Only the table's states: the others stay zero on both sides.) */
static void to_io(const struct ik_device *dev, struct ikk_dev *io)
{
	int n = of(dev)->drv.state_count;

	io->cpu = dev->cpu;
	io->last_state_idx = dev->last_state_idx;
	io->poll_time_limit = dev->poll_time_limit;
	io->last_residency_ns = dev->last_residency_ns;
	io->poll_limit_ns = dev->poll_limit_ns;
	io->cpu_util = dev->in.cpu_util;
	io->cpu_capacity = dev->in.cpu_capacity;
	io->nr_iowaiters = dev->in.nr_iowaiters;
	for (int i = 0; i < n; i++) {
		const struct ik_state_usage *u = &dev->states_usage[i];
		io->disable[i] = dev->states_disable[i];
		io->usage[i] = u->usage;
		io->time_ns[i] = u->time_ns;
		io->above[i] = u->above;
		io->below[i] = u->below;
		io->rejected[i] = u->rejected;
	}
}

static void from_io(const struct ikk_dev *io, struct ik_device *dev)
{
	dev->last_state_idx = io->last_state_idx;
	dev->poll_time_limit = io->poll_time_limit != 0;
	dev->poll_limit_ns = io->poll_limit_ns;
}

/* What a crash report says about the call (it reads the inputs from the device). */
static void call_of(struct ik_gov_call *c, const struct ik_device *dev, const char *what,
		    int index)
{
	const struct kgov *k = of(dev);
	c->path = k->l.id.path;
	c->what = what;
	c->decision = k->decisions;
	c->index = index;
	c->dev = dev;
}

/* Arms the guard in the caller's frame (sigsetjmp's rule); a fault comes back here. */
#define GUARDED(g, callp) do { \
	(g) = ik__gov_guard_enter(callp); \
	if (g) { \
		int how_ = sigsetjmp(*ik__gov_guard_jmpbuf(g), 0); \
		if (how_) \
			ik__gov_guard_failed(g, how_); \
		ik__gov_guard_arm(g); \
	} \
} while (0)

/* The governor's enable (0 or -1) or disable (0) callback, guarded. */
static int k_enable_disable(struct ik_device *dev, bool enable)
{
	struct ikk_dev io;
	struct ik_gov_call c;
	struct ik_gov_guard *g;
	to_io(dev, &io);
	call_of(&c, dev, enable ? "enable" : "disable", -1);
	GUARDED(g, &c);
	int rc = enable ? of(dev)->enable(dev, &io) : (of(dev)->disable(dev, &io), 0);
	ik__gov_guard_leave(g);
	from_io(&io, dev);
	return rc ? -1 : 0;
}

static int k_enable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	return k_enable_disable(dev, true);
}

static void k_disable(const struct ik_driver *drv, struct ik_device *dev)
{
	(void)drv;
	k_enable_disable(dev, false);
}

static int k_select(const struct ik_driver *drv, struct ik_device *dev, bool *stop_tick)
{
	struct ikk_dev io;
	struct ik_gov_call c;
	struct ik_gov_guard *g;
	int stop = *stop_tick;
	(void)drv;
	to_io(dev, &io);
	of(dev)->decisions++;
	call_of(&c, dev, "select", -1);
	GUARDED(g, &c);
	int idx = of(dev)->select(dev, &io, &stop);
	ik__gov_guard_leave(g);
	from_io(&io, dev);
	*stop_tick = stop != 0;
	return idx;
}

static void k_reflect(struct ik_device *dev, int index)
{
	struct ikk_dev io;
	struct ik_gov_call c;
	struct ik_gov_guard *g;
	to_io(dev, &io);
	call_of(&c, dev, "reflect", index);
	GUARDED(g, &c);
	of(dev)->reflect(dev, &io, index);
	ik__gov_guard_leave(g);
	from_io(&io, dev);
}

static void k_close(struct ik_gov_loaded *l)
{
	struct kgov *k = (struct kgov *)l;
	ik__gov_dlclose_private(k->dl, k->fd);
	free(k);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ik_gov_param *)a)->name, ((const struct ik_gov_param *)b)->name);
}

/* The file's module parameters with their values now, in name order. */
static void collect_params(struct kgov *k, struct ik_governor_identity *id)
{
	int np = k->param_count();
	id->nparams = 0;
	for (int i = 0; i < np && id->nparams < IK_GOV_PARAMS_MAX; i++) {
		struct ikk_param_info pi;
		struct ik_gov_param *p = &id->params[id->nparams];
		if (k->param_get(i, &pi, p->value, sizeof(p->value)) == 0) {
			snprintf(p->name, sizeof(p->name), "%s", pi.name);
			snprintf(p->type, sizeof(p->type), "%s", pi.type);
			id->nparams++;
		}
	}
	qsort(id->params, (size_t)id->nparams, sizeof(id->params[0]), by_name);
}

static void list_params(struct kgov *k, char *buf, size_t len)
{
	size_t o = 0;
	collect_params(k, &k->l.id);
	buf[0] = '\0';
	for (int i = 0; i < k->l.id.nparams && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", k->l.id.params[i].name);
	if (!buf[0])
		snprintf(buf, len, "none");
}

int ik__gov_kernel_open(const struct ik_governor_open_args *a, const char *path,
		       struct ik_gov_loaded **out, char *err, size_t errlen)
{
	int vcode = version_code(a->kernel_version, err, errlen);
	if (vcode < 0)
		return -2;
	if (a->drv->state_count < 1 || a->drv->state_count > IKK_STATE_MAX) {
		snprintf(err, errlen, "the driver has %d states", a->drv->state_count);
		return -2;
	}

	/* gov.h beside the file is the user's (governors include "gov.h"). */
	char gov_h[PATH_MAX];
	const char *slash = strrchr(path, '/');
	snprintf(gov_h, sizeof(gov_h), "%.*sgov.h", slash ? (int)(slash - path + 1) : 0, path);
	bool have_gov_h = access(gov_h, R_OK) == 0;

	/* Which release's API the file was written against (nothing known if unreadable:
	   build() then says why). */
	struct ik_gov_api api;
	size_t srclen = 0;
	char *src = read_source(path, &srclen);
	ik__gov_api_recognise(src ? src : "", src ? srclen : 0, &api);
	free(src);

	char so[PATH_MAX], sha[65];
	bool compiled = false;
	int rc = build(path, have_gov_h ? gov_h : NULL, vcode, &api, so, sha, &compiled, err,
		       errlen);
	if (rc)
		return rc;
	show_warnings(path, so);
	warn_release(path, so, &api, vcode);

	struct kgov *k = calloc(1, sizeof(*k));
	if (!k)
		return ik__errmsg(err, errlen, "out of memory");
	k->l.close = k_close;
	k->drv = *a->drv;
	snprintf(k->l.id.path, sizeof(k->l.id.path), "%s", path); /* for a crash report */
	k->dl = ik__gov_dlopen_private(so, &k->fd, err, errlen);
	if (!k->dl) {
		free(k);
		return -1;
	}
	ikk_prepare_fn prepare = (ikk_prepare_fn)dlsym(k->dl, "ikk_prepare");
	ikk_init_fn init = (ikk_init_fn)dlsym(k->dl, "ikk_init");
	ikk_name_fn name = (ikk_name_fn)dlsym(k->dl, "ikk_name");
	k->enable = (ikk_enable_fn)dlsym(k->dl, "ikk_enable");
	k->disable = (ikk_disable_fn)dlsym(k->dl, "ikk_disable");
	k->select = (ikk_select_fn)dlsym(k->dl, "ikk_select");
	k->reflect = (ikk_reflect_fn)dlsym(k->dl, "ikk_reflect");
	k->param_count = (ikk_param_count_fn)dlsym(k->dl, "ikk_param_count");
	k->param_get = (ikk_param_get_fn)dlsym(k->dl, "ikk_param_get");
	k->param_set = (ikk_param_set_fn)dlsym(k->dl, "ikk_param_set");
	if (!prepare || !init || !name || !k->enable || !k->disable || !k->select || !k->reflect ||
	    !k->param_count || !k->param_get || !k->param_set) {
		snprintf(err, errlen, "%s: not built by this idlekit's kernel shim (remove it)", so);
		k_close(&k->l);
		return -1;
	}
	k->host = (struct ikk_host){ h_sleep_length, h_tick_stopped, h_got_tick, h_latency_req,
				     h_poll_time, h_now, h_next_event, h_log, a->hz,
				     ik_tick_nsec(a->hz), a->ncpus };
	struct ikk_state states[IKK_STATE_MAX];
	memset(states, 0, sizeof(states));
	for (int i = 0; i < a->drv->state_count; i++) {
		const struct ik_state *s = &a->drv->states[i];
		memcpy(states[i].name, s->name, sizeof(states[i].name));
		memcpy(states[i].desc, s->desc, sizeof(states[i].desc));
		states[i].exit_latency_ns = s->exit_latency_ns;
		states[i].target_residency_ns = s->target_residency_ns;
		states[i].exit_latency = s->exit_latency;
		states[i].target_residency = s->target_residency;
		states[i].power_usage = s->power_usage;
		states[i].flags = s->flags;
	}
	char lerr[400] = "";
	if (prepare(&k->host, states, a->drv->state_count, k->drv.name, IKK_BRIDGE_VERSION, lerr,
		    sizeof(lerr))) {
		snprintf(err, errlen, "not a governor: %s", lerr);
		k_close(&k->l);
		return -2;
	}

	/* The parameters first, then the initcalls: the kernel's order, so an init that
	   clamps or acts on a parameter sees the value set. */
	for (int i = 0; i < a->nparams; i++) {
		char perr[300] = "";
		int prc = k->param_set(a->param_names[i], a->param_values[i], perr, sizeof(perr));
		if (prc == -1) {
			char names[400];
			list_params(k, names, sizeof(names));
			snprintf(err, errlen, "governor.%s: the governor in %s has no parameter '%s' (its "
					      "module parameters: %s)",
				 a->param_names[i], path, a->param_names[i], names);
		} else if (prc) {
			snprintf(err, errlen, "governor.%s: %s", a->param_names[i], perr);
		}
		if (prc) {
			k_close(&k->l);
			return -2;
		}
	}
	/* The initcalls are the file's code too: guarded as the callbacks are. */
	struct ik_gov_call c = { .path = k->l.id.path, .what = "an initcall", .index = -1 };
	struct ik_gov_guard *g;
	GUARDED(g, &c);
	int irc = init(lerr, sizeof(lerr));
	ik__gov_guard_leave(g);
	if (irc) {
		snprintf(err, errlen, "not a governor: %s", lerr);
		k_close(&k->l);
		return -2;
	}

	struct ik_governor_identity *id = &k->l.id;
	id->kind = IK_GOVERNOR_KERNEL;
	snprintf(id->name, sizeof(id->name), "%s", name());
	snprintf(id->path, sizeof(id->path), "%s", path);
	memcpy(id->sha256, sha, sizeof(id->sha256));
	ik__gov_api_describe(&api, id->api, sizeof(id->api));
	collect_params(k, id);
	k->l.ops = (struct ik_governor){
		.name = id->name, .rating = 0, .enable = k_enable, .disable = k_disable,
		.select = k_select, .reflect = k_reflect, .priv = k,
	};
	if (getenv("IDLEKIT_GOV_VERBOSE"))
		fprintf(stderr, "kernel:%s: sha256 %s, %s %s; the file is %s\n", path, sha,
			compiled ? "compiled into" : "cached in", so, id->api);
	*out = &k->l;
	return 0;
}
