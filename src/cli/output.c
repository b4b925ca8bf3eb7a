/*
 * Output files written whole or not at all, and never in place of something that is not a
 * regular file.
 *
 * What a path names decides how it is written (docs/files.md):
 *   - a regular file, or nothing yet: a temporary file beside it, renamed over it when the
 *     output is complete; a failure or a signal removes the temporary and leaves the old
 *     file as it was.  An existing file's permission bits (and, for root, its owner) are kept.
 *   - a symbolic link: followed (to its final target, which may not exist yet); the target is
 *     replaced as above and the link stays a link.
 *   - a character or block device, a FIFO or a socket: written through, as a shell's '>'
 *     would (-o /dev/null discards, -o /dev/full fails with "No space left on device", a FIFO
 *     blocks until a reader opens it); the node itself is never replaced.
 *   - a directory: refused, exit status 2.
 * Several outputs of one command join a group (cli_output_open_in): all the temporaries are
 * written, then all renamed; a failure of any removes them all.
 */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

/* ---- temporaries removed by a signal ------------------------------------------------------
 *
 * The one piece of process-wide state in the command: a signal handler can reach nothing
 * else.  Slots are filled before they are marked in use and the handler only reads them and
 * calls unlink(2) (async-signal-safe).
 */
#define TMP_SLOTS 16
static char tmp_slot_path[TMP_SLOTS][PATH_MAX + 32]; /* as struct cli_output.tmp */
static volatile sig_atomic_t tmp_slot_used[TMP_SLOTS];
static int tmp_slots_active;
static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define NSIGNALS (int)(sizeof(cleanup_signals) / sizeof(cleanup_signals[0]))
static struct sigaction saved_action[NSIGNALS];
static bool handler_installed[NSIGNALS];

static void remove_temporaries(int sig)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (tmp_slot_used[i])
			unlink(tmp_slot_path[i]);
	/* die of the signal (even where the command had a handler of its own: the output is
	   gone, so there is nothing left to finish) */
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * A kernel:FILE governor crashed and the process ends with exit status 4 (the core calls
 * this, a weak symbol there): no partial output may stay behind.
 */
void ik__fatal_cleanup(void);
void ik__fatal_cleanup(void)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (tmp_slot_used[i])
			unlink(tmp_slot_path[i]);
}

static int tmp_register(const char *path)
{
	for (int i = 0; i < TMP_SLOTS; i++) {
		if (tmp_slot_used[i])
			continue;
		snprintf(tmp_slot_path[i], sizeof(tmp_slot_path[i]), "%s", path);
		atomic_signal_fence(memory_order_seq_cst);
		tmp_slot_used[i] = 1;
		if (tmp_slots_active++ == 0) {
			struct sigaction sa;
			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = remove_temporaries;
			sigemptyset(&sa.sa_mask);
			for (int k = 0; k < NSIGNALS; k++) {
				struct sigaction old;
				handler_installed[k] = false;
				if (sigaction(cleanup_signals[k], NULL, &old) != 0 ||
				    old.sa_handler == SIG_IGN)
					continue; /* an ignored signal kills nothing */
				saved_action[k] = old;
				if (sigaction(cleanup_signals[k], &sa, NULL) == 0)
					handler_installed[k] = true;
			}
		}
		return i;
	}
	return -1;
}

static void tmp_unregister(int slot)
{
	if (slot < 0)
		return;
	tmp_slot_used[slot] = 0;
	atomic_signal_fence(memory_order_seq_cst);
	if (--tmp_slots_active == 0)
		for (int k = 0; k < NSIGNALS; k++)
			if (handler_installed[k]) {
				sigaction(cleanup_signals[k], &saved_action[k], NULL);
				handler_installed[k] = false;
			}
}

/* ---- where a path leads ------------------------------------------------------------------ */

enum target_kind { TARGET_NEW, TARGET_REGULAR, TARGET_THROUGH, TARGET_DIRECTORY };

/*
 * Follows PATH's symbolic links (relative ones from the link's own directory) to the name
 * that will really be written; its kind and, when it exists, its stat.  -1 with errno on a
 * loop or an unreadable link.
 */
static int resolve_target(const char *path, char *target, size_t len, enum target_kind *kind,
			  struct stat *st)
{
	if (snprintf(target, len, "%s", path) >= (int)len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (int hops = 0; hops < 40; hops++) {
		if (lstat(target, st) != 0) {
			if (errno != ENOENT && errno != ENOTDIR) /* ENOTDIR: the directory check says it */
				return -1;
			*kind = TARGET_NEW;
			return 0;
		}
		if (!S_ISLNK(st->st_mode)) {
			if (S_ISREG(st->st_mode))
				*kind = TARGET_REGULAR;
			else if (S_ISDIR(st->st_mode))
				*kind = TARGET_DIRECTORY;
			else
				*kind = TARGET_THROUGH;
			return 0;
		}
		char link[PATH_MAX];
		ssize_t n = readlink(target, link, sizeof(link) - 1);
		if (n < 0)
			return -1;
		link[n] = '\0';
		char next[PATH_MAX];
		const char *slash = strrchr(target, '/');
		if (link[0] == '/' || !slash)
			n = snprintf(next, sizeof(next), "%s", link);
		else
			n = snprintf(next, sizeof(next), "%.*s/%s", (int)(slash - target), target, link);
		if (n >= (ssize_t)sizeof(next) || (size_t)n >= len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(target, next, (size_t)n + 1);
	}
	errno = ELOOP;
	return -1;
}

/* The directory part of PATH ("." for a bare name). */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* The file path names, symbolic links followed and its folder made absolute: two names of
   one file give the same.  -1 when it cannot be told (the check says why). */
static int canonical(const char *path, char *out, size_t len)
{
	char target[PATH_MAX], dir[PATH_MAX], real[PATH_MAX];
	enum target_kind kind;
	struct stat st;

	if (resolve_target(path, target, sizeof(target), &kind, &st) != 0)
		return -1;
	dir_of(target, dir, sizeof(dir));
	if (!realpath(dir, real))
		return -1;
	const char *slash = strrchr(target, '/');
	int n = snprintf(out, len, "%s/%s", real, slash ? slash + 1 : target);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int cli_outputs_distinct(const char *cmd, const char *a, const char *a_opt, const char *b,
			 const char *b_opt)
{
	char ca[PATH_MAX + 1], cb[PATH_MAX + 1];
	struct stat sa, sb;

	if (!a || !b || canonical(a, ca, sizeof(ca)) || canonical(b, cb, sizeof(cb)))
		return 0;
	/* one name, or two names of one existing file (a hard link) */
	bool same = strcmp(ca, cb) == 0 ||
		    (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
		     sa.st_ino == sb.st_ino);
	if (!same)
		return 0;
	fprintf(stderr, "idlekit %s: %s %s and %s %s name the same file (%s): the one written last "
		"would replace the other; expected two files\n", cmd, a_opt, a, b_opt, b, ca);
	return EXIT_USAGE;
}

int cli_output_check(const char *cmd, const char *path)
{
	char target[PATH_MAX], dir[PATH_MAX];
	enum target_kind kind;
	struct stat st;

	if (!path)
		return 0;
	if (!*path) {
		fprintf(stderr, "idlekit %s: an empty output file name\n", cmd);
		return EXIT_USAGE;
	}
	if (resolve_target(path, target, sizeof(target), &kind, &st) != 0) {
		fprintf(stderr, "idlekit %s: %s: cannot write there: %s\n", cmd, path, strerror(errno));
		return EXIT_USAGE;
	}
	if (kind == TARGET_DIRECTORY) {
		fprintf(stderr, "idlekit %s: %s: is a directory; expected a file name\n", cmd, path);
		return EXIT_USAGE;
	}
	if (kind == TARGET_THROUGH) {
		if (access(target, W_OK) != 0) {
			fprintf(stderr, "idlekit %s: %s: cannot write: %s\n", cmd, path, strerror(errno));
			return EXIT_USAGE;
		}
		return 0;
	}
	/* a new or replaced regular file: its directory must take a temporary file */
	dir_of(target, dir, sizeof(dir));
	struct stat dst;
	if (stat(dir, &dst) != 0) {
		fprintf(stderr, "idlekit %s: %s: cannot write there: directory '%s': %s\n", cmd, path,
			dir, strerror(errno));
		return EXIT_USAGE;
	}
	if (!S_ISDIR(dst.st_mode)) {
		fprintf(stderr, "idlekit %s: %s: cannot write there: '%s' is not a directory\n", cmd,
			path, dir);
		return EXIT_USAGE;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		fprintf(stderr, "idlekit %s: %s: cannot write there: directory '%s': %s\n", cmd, path,
			dir, strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

int cli_report_outputs_check(const char *cmd, const char *outpath, const char *htmlpath)
{
	if (cli_output_check(cmd, outpath) || cli_output_check(cmd, htmlpath) ||
	    cli_outputs_distinct(cmd, outpath, "-o", htmlpath, "--html"))
		return EXIT_USAGE;
	return 0;
}

int cli_report_options_check(const struct cli_opts *o)
{
	if (cli_window_needs_html(o))
		return EXIT_USAGE;
	return cli_report_outputs_check(o->cmd, o->output, o->html);
}

/* ---- one output -------------------------------------------------------------------------- */

static void group_abort(struct cli_output_group *g);

/*
 * The stream writes through a cookie that remembers the first write error, so the message
 * says why (stdio's own errno is long overwritten by the time the stream is closed).
 */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	struct cli_output *o = cookie;
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(o->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!o->write_errno)
				o->write_errno = n < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static int cookie_close(void *cookie)
{
	struct cli_output *o = cookie;
	int rc = close(o->fd);
	if (rc != 0 && !o->write_errno)
		o->write_errno = errno;
	o->fd = -1;
	return rc;
}

static int open_one(struct cli_output *o, const char *path)
{
	enum target_kind kind;
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->slot = -1;
	if (!path) {
		o->fp = stdout;
		return 0;
	}
	if (resolve_target(path, o->target, sizeof(o->target), &kind, &st) != 0) {
		fprintf(stderr, "idlekit: %s: cannot write there: %s\n", path, strerror(errno));
		return -1;
	}
	if (kind == TARGET_DIRECTORY) {
		fprintf(stderr, "idlekit: %s: is a directory; expected a file name\n", path);
		return -1;
	}
	int fd;
	if (kind == TARGET_THROUGH) {
		/* a device or a FIFO: written through, never replaced */
		fd = open(o->target, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			fprintf(stderr, "idlekit: %s: cannot open: %s\n", path, strerror(errno));
			return -1;
		}
		o->through = true;
	} else {
		for (int attempt = 0;; attempt++) {
			int n = attempt ? snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%ld.%d", o->target,
						   (long)getpid(), attempt)
					: snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.%ld", o->target,
						   (long)getpid());
			if (n >= (int)sizeof(o->tmp)) {
				fprintf(stderr, "idlekit: %s: name too long\n", path);
				return -1;
			}
			/* O_EXCL: never write through something already at the temporary name */
			fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
			if (fd >= 0 || errno != EEXIST || attempt >= 100)
				break;
		}
		if (fd < 0) {
			char dir[PATH_MAX];
			dir_of(o->target, dir, sizeof(dir));
			fprintf(stderr, "idlekit: %s: cannot create a file in '%s': %s\n", path, dir,
				strerror(errno));
			return -1;
		}
		o->slot = tmp_register(o->tmp);
		if (kind == TARGET_REGULAR) {
			/* the replacement keeps the file's permissions (and owner, when we may) */
			if (fchmod(fd, st.st_mode & 07777) != 0) {
			}
			if (geteuid() == 0 && fchown(fd, st.st_uid, st.st_gid) != 0) {
			}
		}
	}
	o->fd = fd;
	o->fp = fopencookie(o, "w", (cookie_io_functions_t){ .write = cookie_write,
							      .close = cookie_close });
	if (!o->fp) {
		fprintf(stderr, "idlekit: %s: %s\n", path, strerror(errno));
		close(fd);
		if (!o->through) {
			unlink(o->tmp);
			tmp_unregister(o->slot);
		}
		return -1;
	}
	return 0;
}

/* Closes the stream; 0, or -1 with the message printed. */
static int finish_one(struct cli_output *o)
{
	if (!o->path) {
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "idlekit: writing standard output: %s\n", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!o->fp)
		return -1; /* already closed (its group was abandoned) */
	int bad = fflush(o->fp) != 0 || ferror(o->fp);
	if (fclose(o->fp) != 0)
		bad = 1;
	o->fp = NULL;
	if (bad || o->write_errno) {
		fprintf(stderr, "idlekit: %s: write failed: %s\n", o->path,
			strerror(o->write_errno ? o->write_errno : EIO));
		return -1;
	}
	return 0;
}

static void discard_one(struct cli_output *o)
{
	if (o->path && !o->through && o->slot != -2) {
		unlink(o->tmp);
		tmp_unregister(o->slot);
		o->slot = -2; /* gone */
	}
}

static int rename_one(struct cli_output *o)
{
	if (!o->path || o->through || o->slot == -2)
		return 0;
	if (rename(o->tmp, o->target) != 0) {
		fprintf(stderr, "idlekit: %s: cannot rename into place: %s\n", o->path,
			strerror(errno));
		discard_one(o);
		return -1;
	}
	tmp_unregister(o->slot);
	o->slot = -2;
	return 0;
}

int cli_output_open(struct cli_output *o, const char *path)
{
	int rc = open_one(o, path);
	o->group = NULL;
	return rc;
}

int cli_output_close(struct cli_output *o, int ok)
{
	int bad = finish_one(o) != 0;
	if (o->group) {
		if (bad || !ok) {
			discard_one(o);
			group_abort(o->group);
			return -1;
		}
		return 0; /* renamed with the rest by cli_output_group_commit */
	}
	if (bad || !ok) {
		discard_one(o);
		return -1;
	}
	return rename_one(o);
}

/* ---- several outputs, all or none -------------------------------------------------------- */

static void group_abort(struct cli_output_group *g)
{
	for (int i = 0; i < g->n; i++) {
		if (g->o[i]->fp && g->o[i]->path) {
			fclose(g->o[i]->fp);
			g->o[i]->fp = NULL;
		}
		discard_one(g->o[i]);
	}
	g->failed = true;
}

int cli_output_open_in(struct cli_output_group *g, struct cli_output *o, const char *path)
{
	if (g->failed || g->n >= CLI_OUTPUT_GROUP_MAX) {
		if (!g->failed)
			fprintf(stderr, "idlekit: %s: too many outputs\n", path ? path : "-");
		group_abort(g);
		return -1;
	}
	if (open_one(o, path) != 0) {
		group_abort(g);
		return -1;
	}
	o->group = g;
	g->o[g->n++] = o;
	return 0;
}

int cli_output_group_commit(struct cli_output_group *g, int ok)
{
	if (g->failed || !ok) {
		group_abort(g);
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < g->n; i++)
		if (rename_one(g->o[i]) != 0)
			rc = -1;
	g->n = 0;
	return rc;
}

void cli_print_notes(const char *cmd, const char *notes)
{
	for (const char *p = notes; p && *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(stderr, "idlekit %s: note: %.*s\n", cmd, (int)n, p);
		p += n;
		if (*p == '\n')
			p++;
	}
}

int cli_write_report_and_page(const char *outpath, cli_writer report, const char *htmlpath,
			      cli_writer page, void *ctx)
{
	struct cli_output_group outs = { 0 };
	struct cli_output o, html; /* in the group until its commit */
	int rc = EXIT_FAIL;
	if (cli_output_open_in(&outs, &o, outpath) == 0)
		rc = cli_output_close(&o, report(o.fp, ctx) == 0) ? EXIT_FAIL : EXIT_OK;
	if (rc == EXIT_OK && htmlpath) {
		rc = EXIT_FAIL;
		if (cli_output_open_in(&outs, &html, htmlpath) == 0)
			rc = cli_output_close(&html, page(html.fp, ctx) == 0) ? EXIT_FAIL : EXIT_OK;
	}
	if (cli_output_group_commit(&outs, rc == EXIT_OK))
		rc = EXIT_FAIL;
	return rc;
}
