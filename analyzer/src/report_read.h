/* Reading a report back (for the subcommands that work on reports). */
#ifndef IOCTL_SCAN_REPORT_READ_H
#define IOCTL_SCAN_REPORT_READ_H

#include <jansson.h>

/* Loads and checks the top-level shape; prints why not and returns NULL. */
json_t *report_load(const char *path);

#endif
