/* ioctl-scan sarif REPORT [-o FILE]: a report as SARIF 2.1.0 (sarif.c). */
#include "subcommands.h"

#include <string.h>

#include "report.h"
#include "report_read.h"
#include "sarif.h"

int cmd_sarif(int argc, char **argv)
{
	const char *path = NULL, *out = NULL;
	json_t *r, *s;
	int rc;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-o") && a + 1 < argc)
			out = argv[++a];
		else if (!path && argv[a][0] != '-')
			path = argv[a];
		else
			return subcommand_usage("sarif REPORT [-o FILE]");
	}
	if (!path)
		return subcommand_usage("sarif REPORT [-o FILE]");
	r = report_load(path);
	if (!r)
		return 2;
	s = sarif_from_report(r);
	rc = report_write(s, out) ? 2 : 0;
	json_decref(s);
	json_decref(r);
	return rc;
}
