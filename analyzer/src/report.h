/* scan_result -> report JSON (the contract with every later stage). */
#ifndef IOCTL_SCAN_REPORT_H
#define IOCTL_SCAN_REPORT_H

#include <jansson.h>

#include "scan.h"

#define IOCTL_SCAN_VERSION "0.1.0"

json_t *report_build(const struct scan_result *r, const struct scan_options *opt,
		     const struct knowledge *kn);
/* Writes through a temporary file renamed into place; path NULL: stdout. */
int report_write(json_t *report, const char *path);

#endif
