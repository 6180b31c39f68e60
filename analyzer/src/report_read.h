/* Reading a report back (for the subcommands that work on reports). */
#ifndef IOCTL_SCAN_REPORT_READ_H
#define IOCTL_SCAN_REPORT_READ_H

#include <jansson.h>
#include <stdint.h>

/* Loads and checks the top-level shape; prints why not and returns NULL. */
json_t *report_load(const char *path);

/* A string field of a report object, "" when absent. */
const char *report_str(json_t *o, const char *key);

/* A command's first capability, "" when it has none. */
const char *report_first_capability(json_t *command);

/* A hex string field ("value", "mask") as a number, 0 when absent. */
uint32_t report_hex(json_t *o, const char *key);

/* The arguments of "SUBCOMMAND REPORT [-o FILE]"; returns 0, or prints the
 * usage and returns 2. *out stays NULL without -o (standard output). */
int report_args(int argc, char **argv, const char *synopsis, const char **path,
		const char **out);

#endif
