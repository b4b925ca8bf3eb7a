/* idlekit kernel: the kernel releases idlekit can behave as, and their behaviour switches. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "idlekit/kernel.h"
#include "util/errmsg.h"

static const char kernel_usage[] =
	"usage: idlekit kernel list\n"
	"       idlekit kernel show X.Y\n"
	"\n"
	"The cpuidle system changed its decisions many times between Linux 4.16 and 7.x.  Each\n"
	"behaviour-changing commit is a named switch; a release is the set of switches landed\n"
	"by it.  Run as a release with kernel.version (scenarios) or --kernel (govreplay), and\n"
	"flip one switch on top of it to isolate that commit's effect.\n"
	"\n"
	"list  every known release (the governors that can run as it) and every switch: name,\n"
	"      the release it landed in (and was reverted in), commit, status, what it changes\n"
	"show  one release: each switch on or off in it, '*' where it differs from 6.19\n"
	"\n"
	"Status: modelled = the code follows the switch; no-input = idlekit has no such input,\n"
	"so the switch changes nothing here; pending = a core function exists, the idle loop\n"
	"does not call it yet; catalogued = described only (a release that differs from 6.19\n"
	"there is refused as not implemented for the governors it concerns).\n"
	"Source: src = read in that release's kernel source, mail = a patch mail or pull\n"
	"request, inf = inferred.\n"
	"\n"
	"Examples:\n"
	"  idlekit kernel list\n"
	"  idlekit kernel show 6.12\n"
	"  idlekit sim --set kernel.version=6.12 --set cpuidle.governor=menu\n"
	"  idlekit sim --set kernel.version=6.12 --set kernel.switch.menu_no_iowait=on\n"
	"  idlekit govreplay -g menu -p intel-skx --kernel 5.4 --input tests/govreplay/menu-timer-bands.csv\n"
	"  idlekit govreplay -g menu -p intel-skx --kernel 6.19 --switch menu_latency_first=off\n";

static const char *const status_names[] = {
	[IK_SW_MODELLED] = "modelled",
	[IK_SW_NO_INPUT] = "no-input",
	[IK_SW_PENDING] = "pending",
	[IK_SW_CATALOGUED] = "catalogued",
};
static const char *const source_names[] = {
	[IK_SRC_SOURCE] = "src", [IK_SRC_MAIL] = "mail", [IK_SRC_INFERRED] = "inf",
};
static const char *const governors[] = { "ladder", "menu", "teo", "haltpoll" };

/* "5.1" or "6.15-6.18" (landed, reverted). */
static const char *landed(const struct ik_switch_info *i, char *buf, size_t len)
{
	char a[16], b[16];

	if (ik_switch_is_proposal(i)) {
		snprintf(buf, len, "proposal");
		return buf;
	}
	ik_kernel_release_name(i->since, a, sizeof(a));
	if (i->until)
		snprintf(buf, len, "%s-%s", a, ik_kernel_release_name(i->until, b, sizeof(b)));
	else
		snprintf(buf, len, "%s", a);
	return buf;
}

static void print_switch(const struct ik_switch_info *i, const char *mark)
{
	char when[32];

	printf("%s%-28s %-10s %-9s %-10s %-4s %-13s %s\n", mark, i->name, landed(i, when, sizeof(when)),
	       ik_switch_area_name(i->area), status_names[i->status], source_names[i->source],
	       i->commit[0] ? i->commit : "-", i->what);
}

static void print_switch_header(const char *mark)
{
	printf("%s%-28s %-10s %-9s %-10s %-4s %-13s %s\n", mark, "switch", "release", "area",
	       "status", "src", "commit", "what it changes");
}

static int kernel_list(void)
{
	size_t n;
	const unsigned *rel = ik_kernel_releases(&n);
	char name[16], err[1024];

	printf("%-8s %-28s %s\n", "release", "runs as it (governors)", "switches landed (+) or reverted (-)");
	for (size_t r = 0; r < n; r++) {
		struct ik_kernel k;
		char runs[64] = "";
		size_t o = 0;

		/* an LTS line no catalogued change landed in: listed all the same */
		for (unsigned x = r ? rel[r - 1] + 1 : rel[r]; x < rel[r]; x++)
			if (ik_kernel_release_is_lts(x)) {
				char as[16], lts[24];
				snprintf(lts, sizeof(lts), "%s LTS", ik_kernel_release_name(x, name, sizeof(name)));
				printf("%-8s behaves as %s (no catalogued change landed in it)\n", lts,
				       ik_kernel_release_name(rel[r - 1], as, sizeof(as)));
			}
		ik_kernel_init(&k, rel[r]);
		for (size_t g = 0; g < sizeof(governors) / sizeof(governors[0]); g++)
			if (ik_kernel_check(&k, governors[g], err, sizeof(err)) == 0)
				o += (size_t)snprintf(runs + o, sizeof(runs) - o, "%s%s", o ? " " : "",
						      governors[g]);
		char shown[24];
		snprintf(shown, sizeof(shown), "%s%s", ik_kernel_release_name(rel[r], name, sizeof(name)),
			 ik_kernel_release_is_lts(rel[r]) ? " LTS" : "");
		printf("%-8s %-28s", shown, o ? runs : "(not implemented)");
		for (int s = 0; s < IK_SW_COUNT; s++) {
			const struct ik_switch_info *i = ik_switch_info((enum ik_switch)s);
			if (i->since == rel[r])
				printf(" +%s", i->name);
			if (i->until == rel[r])
				printf(" -%s", i->name);
		}
		printf("%s\n", rel[r] == IK_KERNEL_DEFAULT_RELEASE ? "  (default)" : "");
	}
	printf("\n");
	print_switch_header("");
	for (int s = 0; s < IK_SW_COUNT; s++)
		print_switch(ik_switch_info((enum ik_switch)s), "");
	return ferror(stdout) ? EXIT_FAIL : EXIT_OK;
}

static int kernel_show(const char *text)
{
	unsigned release;
	char err[1024], name[16];
	struct ik_kernel k;

	if (ik_kernel_parse_release(text, &release, err, sizeof(err))) {
		fprintf(stderr, "idlekit kernel show: %s\n", err);
		return EXIT_USAGE;
	}
	ik_kernel_init(&k, release);
	printf("kernel %s%s%s\n", ik_kernel_release_name(release, name, sizeof(name)),
	       ik_kernel_release_is_lts(release) ? " (LTS)" : "",
	       release == IK_KERNEL_DEFAULT_RELEASE ? " (the default)" : "");
	unsigned as = ik_kernel_release_behaves_as(release);
	if (as != release) {
		char asname[16];
		printf("  behaves as %s here: no catalogued change landed in %s\n",
		       ik_kernel_release_name(as, asname, sizeof(asname)), name);
	}
	for (size_t g = 0; g < sizeof(governors) / sizeof(governors[0]); g++) {
		if (ik_kernel_check(&k, governors[g], err, sizeof(err)) == 0)
			printf("  %-9s runs as this release\n", governors[g]);
		else
			printf("  %-9s %s\n", governors[g], err);
	}
	printf("\n");
	print_switch_header("     ");
	for (int s = 0; s < IK_SW_COUNT; s++) {
		bool on = ik_kernel_has(&k, (enum ik_switch)s);
		bool differs = on != ik_kernel_has(&ik_kernel_default, (enum ik_switch)s);
		char mark[8];
		snprintf(mark, sizeof(mark), "%s%s", on ? "on " : "off", differs ? "*" : " ");
		printf("%s", mark);
		print_switch(ik_switch_info((enum ik_switch)s), " ");
	}
	return ferror(stdout) ? EXIT_FAIL : EXIT_OK;
}

int cmd_kernel(int argc, char **argv)
{
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(kernel_usage, stdout);
		return EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "list") == 0)
		return kernel_list();
	if (argc == 3 && strcmp(argv[1], "show") == 0)
		return kernel_show(argv[2]);
	fprintf(stderr, "idlekit kernel: expected 'list' or 'show X.Y'%s%s%s\n(see idlekit kernel --help)\n",
		argc >= 2 ? ", got '" : "", argc >= 2 ? argv[1] : "", argc >= 2 ? "'" : "");
	return EXIT_USAGE;
}

int cli_kernel_switch(struct ik_kernel *k, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	char name[64];

	if (!eq || (size_t)(eq - arg) >= sizeof(name))
		return ik__errmsg(err, errlen, "expected NAME=on|off, got '%.60s'", arg);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	return ik_kernel_flip(k, name, eq + 1, err, errlen);
}

void cli_kernel_json(FILE *f, const struct ik_kernel *k)
{
	char name[16];
	bool first = true;

	fprintf(f, "{\"version\": \"%s\", \"switches\": {",
		ik_kernel_release_name(k->release, name, sizeof(name)));
	for (int s = 0; s < IK_SW_COUNT; s++) {
		bool on = ik_kernel_has(k, (enum ik_switch)s);
		if (on == ik_kernel_release_has(k->release, (enum ik_switch)s))
			continue;
		fprintf(f, "%s\"%s\": \"%s\"", first ? "" : ", ",
			ik_switch_info((enum ik_switch)s)->name, on ? "on" : "off");
		first = false;
	}
	fputs("}}", f);
}
