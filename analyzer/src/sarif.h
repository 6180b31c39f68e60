/* A report as SARIF 2.1.0, for code-review tools. */
#ifndef IOCTL_SCAN_SARIF_H
#define IOCTL_SCAN_SARIF_H

#include <jansson.h>

/* One result per command whose class needs a reviewer's eye (see
 * analyzer/doc/sarif.md); locations relative to the kernel tree. */
json_t *sarif_from_report(json_t *report);

#endif
