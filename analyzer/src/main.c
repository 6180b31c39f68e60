/* ioctl-scan: command line. */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "facts_cache.h"
#include "parse_files.h"
#include "report.h"
#include "scan.h"
#include "subcommands.h"

static const char usage_text[] =
	"usage: ioctl-scan [options] KSRC [PATH...]\n"
	"       ioctl-scan list REPORT [--handler NAME]\n"
	"       ioctl-scan stats REPORT\n"
	"       ioctl-scan coverage REPORT KSRC [--build-dir DIR] [--min-found P] [--missing] [PATH...]\n"
	"       ioctl-scan flags [--build-dir DIR] KSRC FILE...\n"
	"       ioctl-scan facts [--build-dir DIR] [--compile-commands F] [--data-dir D] [--command NAME [--handler H]] KSRC FILE\n"
	"       ioctl-scan labels REPORT LABELS... [--min-agreement P] [--min-capability P] [--min-found P]\n"
	"       ioctl-scan table REPORT [-o FILE] [--config DOTCONFIG]\n"
	"       ioctl-scan diff OLD.json NEW.json [--json]\n"
	"       ioctl-scan sarif REPORT [-o FILE]\n"
	"       ioctl-scan html REPORT [-o FILE] [--source-url TEMPLATE]\n"
	"       ioctl-scan html --diff OLD.json NEW.json [-o FILE] [--source-url TEMPLATE]\n"
	"       ioctl-scan xperm REPORT [--handler H]... [--domain D --type T] [--class C] [--cil]\n"
	"       ioctl-scan explain REPORT [FILE|-] [--cil] [--data-dir DIR]\n"
	"\n"
	"Finds the ioctl handlers of a kernel tree and the commands each one\n"
	"dispatches, and writes a JSON report.\n"
	"\n"
	"  KSRC                 kernel source tree\n"
	"  PATH...              files or directories (relative to KSRC) whose\n"
	"                       handlers are reported; other files are still read\n"
	"                       where the handlers call into them\n"
	"  -o, --output FILE    write the report to FILE (default: stdout)\n"
	"  -j, --jobs N         parallel parser workers (default: number of cores)\n"
	"  --build-dir DIR      prepared out-of-tree build (make O=DIR prepare), or\n"
	"                       a compile_commands.json (default: KSRC itself)\n"
	"  --compile-commands F use the compile database F\n"
	"  --config-name NAME   name of the configuration, recorded in the report\n"
	"  --data-dir DIR       knowledge data files (default: next to the program)\n"
	"  --generated-at       record the time of the run in the report\n"
	"  --files-out FILE     write the list of files parsed to FILE\n"
	"  --times-out FILE     write the seconds each phase took to FILE\n"
	"  --format json|sarif  the report (default), or SARIF 2.1.0 for review tools\n"
	"  --cache-dir DIR      keep each parsed file's facts in DIR and reuse them while\n"
	"                       the file, what it includes and its flags are unchanged\n"
	"                       (default: $IOCTL_SCAN_CACHE_DIR, $XDG_CACHE_HOME/ioctl-scan\n"
	"                       or ~/.cache/ioctl-scan)\n"
	"  --no-cache           parse every file; read and write no cache\n"
	"  --cache-max SIZE     evict least recently used entries beyond SIZE (2G)\n"
	"  --cache-log FILE     write each file's cache outcome (hit, miss, stale,\n"
	"                       corrupt) to FILE\n"
	"  --parse-only         parse the PATHs, which are files, into the cache and\n"
	"                       write no report (make bench times the parser with it)\n"
	"  -q, --quiet          no progress on stderr\n"
	"  -h, --help           this text\n"
	"  -V, --version        the version\n"
	"\n"
	"Exit status: 0 success; 1 report written but some files failed to parse\n"
	"(see the report's diagnostics); 2 usage error or nothing could be done.\n";

static void on_signal(int sig)
{
	(void)sig;
	scan_interrupted = 1;
	atomic_abort_all();
}

char *default_data_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *env = getenv("IOCTL_SCAN_DATA");
	char *dir, *data;

	if (env)
		return xstrdup(env);
	if (n <= 0)
		return xstrdup("analyzer/data");
	exe[n] = '\0';
	dir = path_dirname(exe);
	data = path_join(dir, "data");
	if (!path_is_dir(data)) {
		/* installed: PREFIX/bin/ioctl-scan, PREFIX/share/ioctl-scan */
		free(data);
		data = path_join(dir, "../share/ioctl-scan");
	}
	free(dir);
	return data;
}

int subcommand_usage(const char *synopsis)
{
	fprintf(stderr, "usage: ioctl-scan %s\n", synopsis);
	return 2;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} subcommands[] = {
	{ "list", cmd_list },
	{ "flags", cmd_flags },
	{ "facts", cmd_facts },
	{ "labels", cmd_labels },
	{ "stats", cmd_stats },
	{ "table", cmd_table },
	{ "diff", cmd_diff },
	{ "xperm", cmd_xperm },
	{ "explain", cmd_explain },
	{ "sarif", cmd_sarif },
	{ "html", cmd_html },
	{ "coverage", cmd_coverage },
};

/*
 * The allocator a scan wants. A warm rescan loads about 3 GB of facts from
 * the cache, most of it allocated by the -j workers: with glibc's
 * defaults each worker's arena grows a page at a time (590,000 mprotect
 * calls in a warm whole-tree rescan of 6.1) and every page is a fault of
 * its own (800,000). One arena grown 64 MiB at a time, in transparent
 * huge pages, takes that to about 7,500 faults and 50 mprotect calls and
 * a quarter of the CPU time off (make bench, "warm rescan"). Buffers
 * between 128 KiB and 32 MiB (a cache entry read whole, a source file's
 * text) come from that arena too, not from a mapping of their own: above
 * glibc's mmap threshold each was a fresh mapping the kernel zeroed, in
 * 2 MiB huge pages, and unmapped when freed: half the faults of a warm
 * rescan of 6.1 (22,700 -> 10,200), about a second of 36. glibc reads
 * the huge-page setting only from GLIBC_TUNABLES at start-up, so the scan
 * executes itself again once with it set, then puts the environment back
 * as it was; when that is not possible, mallopt gives the rest.
 */
#define SCAN_TUNABLES "glibc.malloc.arena_max=1:glibc.malloc.top_pad=67108864:glibc.malloc.hugetlb=1:" \
	"glibc.malloc.mmap_threshold=33554432"
#define TUNED_MARK "IOCTL_SCAN_TUNABLES_WERE"	/* "-": unset; "=value" */

static void tune_allocator(char **argv)
{
	const char *was = getenv(TUNED_MARK), *user = getenv("GLIBC_TUNABLES");

	if (was) {
		/* executed again: the environment as the caller gave it */
		if (was[0] == '=')
			setenv("GLIBC_TUNABLES", was + 1, 1);
		else
			unsetenv("GLIBC_TUNABLES");
		unsetenv(TUNED_MARK);
		return;
	}
	if (user) {
		char *mark = xasprintf("=%s", user);
		/* the caller's own settings come last and win */
		char *both = xasprintf("%s:%s", SCAN_TUNABLES, user);

		setenv(TUNED_MARK, mark, 1);
		setenv("GLIBC_TUNABLES", both, 1);
		free(mark);
		free(both);
	} else {
		setenv(TUNED_MARK, "-", 1);
		setenv("GLIBC_TUNABLES", SCAN_TUNABLES, 1);
	}
	execv("/proc/self/exe", argv);
	/* still here: run as we are */
	if (user)
		setenv("GLIBC_TUNABLES", user, 1);
	else
		unsetenv("GLIBC_TUNABLES");
	unsetenv(TUNED_MARK);
	mallopt(M_ARENA_MAX, 1);
	mallopt(M_TOP_PAD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "ioctl-scan: %s\nTry 'ioctl-scan --help'.\n", msg);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "build-dir", required_argument, NULL, 'b' },
		{ "compile-commands", required_argument, NULL, 'c' },
		{ "config-name", required_argument, NULL, 'n' },
		{ "data-dir", required_argument, NULL, 'd' },
		{ "generated-at", no_argument, NULL, 'g' },
		{ "files-out", required_argument, NULL, 'f' },
		{ "times-out", required_argument, NULL, 'T' },
		{ "format", required_argument, NULL, 'F' },
		{ "cache-dir", required_argument, NULL, 'C' },
		{ "no-cache", no_argument, NULL, 'N' },
		{ "cache-max", required_argument, NULL, 'M' },
		{ "cache-log", required_argument, NULL, 'L' },
		{ "parse-only", no_argument, NULL, 'P' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct scan_options opt = { 0 };
	char *data_dir = NULL, *cache_dir = NULL;
	int no_cache = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	int quiet = 0, c, status;

	for (size_t i = 0; argc > 1 && i < sizeof(subcommands) / sizeof(*subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].run(argc - 1, argv + 1);
	tune_allocator(argv);
	opt.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	while ((c = getopt_long(argc, argv, "o:j:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			opt.output = optarg;
			break;
		case 'j': {
			char *end;
			long n = strtol(optarg, &end, 10);

			if (*end || n < 1 || n > 256)
				return usage_error("-j needs a number of workers between 1 and 256");
			opt.jobs = (int)n;
			break;
		}
		case 'b':
		case 'c':
			opt.build_dir = optarg;
			break;
		case 'n':
			opt.config_name = optarg;
			break;
		case 'd':
			data_dir = xstrdup(optarg);
			break;
		case 'g':
			opt.generated_at = 1;
			break;
		case 'f':
			opt.files_out = optarg;
			break;
		case 'T':
			opt.times_out = optarg;
			break;
		case 'F':
			if (strcmp(optarg, "json") && strcmp(optarg, "sarif"))
				return usage_error("--format is json or sarif");
			opt.sarif = !strcmp(optarg, "sarif");
			break;
		case 'C':
			free(cache_dir);
			cache_dir = xstrdup(optarg);
			opt.cache_required = 1;
			break;
		case 'N':
			no_cache = 1;
			break;
		case 'M':
			if (facts_cache_parse_size(optarg, &opt.cache_max) || !opt.cache_max)
				return usage_error("--cache-max needs a size: a number of bytes, or with K, M or G");
			break;
		case 'L':
			opt.cache_log = optarg;
			break;
		case 'P':
			opt.parse_only = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case 'V':
			printf("ioctl-scan %s\n", IOCTL_SCAN_VERSION);
			return 0;
		default:
			fputs("Try 'ioctl-scan --help'.\n", stderr);
			return 2;
		}
	}
	if (optind >= argc)
		return usage_error("missing KSRC (a kernel source tree)");
	opt.ksrc = argv[optind++];
	for (; optind < argc; optind++)
		strvec_push(&opt.paths, argv[optind]);
	opt.progress = !quiet && isatty(STDERR_FILENO);
	opt.quiet = quiet;
	if (opt.parse_only && (!opt.paths.len || opt.output))
		return usage_error("--parse-only needs the files to parse and writes no report (no -o)");
	if (no_cache && (cache_dir || opt.cache_log))
		return usage_error("--no-cache and --cache-dir or --cache-log exclude each other");
	if (!no_cache && !cache_dir)
		cache_dir = facts_cache_default_dir();
	opt.cache_dir = no_cache ? NULL : cache_dir;
	if (!opt.cache_max)
		opt.cache_max = FACTS_CACHE_DEFAULT_MAX;
	opt.data_dir = data_dir ? data_dir : (data_dir = default_data_dir());

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	status = scan_run(&opt);
	strvec_clear(&opt.paths);
	free(data_dir);
	free(cache_dir);
	return status;
}
