/* ioctl-scan flags [--build-dir DIR] KSRC FILE...: the compiler command
 * ioctl-scan parses each file with, as a clang -fsyntax-only line (to
 * reproduce a parse failure by hand, or to time the parser alone). */
#include "subcommands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile_flags.h"
#include "util.h"

int cmd_flags(int argc, char **argv)
{
	const char *build_dir = NULL, *ksrc = NULL;
	struct kernel_tree kt;
	struct flag_source *fs;
	char err[1024];
	int a = 1, rc = 0;

	if (a + 1 < argc && !strcmp(argv[a], "--build-dir")) {
		build_dir = argv[a + 1];
		a += 2;
	}
	if (a + 1 >= argc)
		return subcommand_usage("flags [--build-dir DIR] KSRC FILE...");
	ksrc = argv[a++];
	if (kernel_tree_open(&kt, ksrc, build_dir, err, sizeof(err))) {
		fprintf(stderr, "ioctl-scan: %s\n", err);
		kernel_tree_free(&kt);
		return 2;
	}
	fs = flag_source_open(&kt, err, sizeof(err));
	if (!fs) {
		fprintf(stderr, "ioctl-scan: %s\n", err);
		kernel_tree_free(&kt);
		return 2;
	}
	for (; a < argc; a++) {
		strvec args = {0};
		char *path = xasprintf("%s/%s", kt.ksrc, argv[a]);
		int missing = access(path, R_OK) != 0;

		free(path);
		if (missing) {
			/* a command for a file that is not there would only fail later */
			fprintf(stderr, "ioctl-scan: %s: no such file in %s (FILEs are relative to KSRC)\n",
				argv[a], kt.ksrc);
			rc = 2;
			continue;
		}
		flags_for_file(fs, argv[a], &args);
		printf("clang-14 -fsyntax-only");
		for (size_t i = 0; i < args.len; i++) {
			/* single-quote for the shell */
			fputs(" '", stdout);
			for (const char *p = args.items[i]; *p; p++)
				if (*p == '\'')
					fputs("'\\''", stdout);
				else
					putchar(*p);
			putchar('\'');
		}
		printf(" '%s/%s'\n", kt.ksrc, argv[a]);
		strvec_clear(&args);
	}
	flag_source_free(fs);
	kernel_tree_free(&kt);
	return rc;
}
