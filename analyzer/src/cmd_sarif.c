/* ioctl-scan sarif REPORT [-o FILE]: a report as SARIF 2.1.0 (sarif.c). */
#include "subcommands.h"

#include <string.h>

#include "report.h"
#include "report_read.h"
#include "sarif.h"

int cmd_sarif(int argc, char **argv)
{
	const char *path, *out;
	json_t *r, *s;
	int rc;

	if (report_args(argc, argv, "sarif REPORT [-o FILE]", &path, &out))
		return 2;
	r = report_load(path);
	if (!r)
		return 2;
	s = sarif_from_report(r);
	rc = report_write(s, out) ? 2 : 0;
	json_decref(s);
	json_decref(r);
	return rc;
}
