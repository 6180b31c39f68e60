/* Reading a report back (for the subcommands that work on reports). */
#ifndef IOCTL_SCAN_REPORT_READ_H
#define IOCTL_SCAN_REPORT_READ_H

#include <jansson.h>
#include <stdint.h>

#include "ioctl_class.h"

/* Loads a JSON file (a report, a subcommand's data file); prints why not
 * and returns NULL. */
json_t *load_json_file(const char *path);

/* Loads and checks the top-level shape; prints why not and returns NULL. */
json_t *report_load(const char *path);

/* A string field of a report object, "" when absent. */
const char *report_str(json_t *o, const char *key);

/* A command's class; a class the report does not name counts as unknown. */
enum ioctl_class report_class(json_t *cmd);

/* A command's first capability, "" when it has none. */
const char *report_first_capability(json_t *command);

/* Whether the command's first capability is checked in a user namespace
 * the code chooses (its capabilities_in_user_ns lists it). */
int report_capability_in_user_ns(json_t *command);

/* Whether a list of strings (a command's "capabilities_in_user_ns")
 * holds s; no for a list that is absent. */
int report_list_contains(json_t *list, const char *s);

/* A hex string field ("value", "mask") as a number, 0 when absent. */
uint32_t report_hex(json_t *o, const char *key);

/* The low 16 bits of the commands c selects, the part of a command an
 * SELinux extended permission names (type and number): a 16-bit number x
 * is one of them when (x & *mask) == *value. A command without a mask is
 * exact; a size-encoded family's mask frees only size bits, above these. */
void report_low16(json_t *c, uint16_t *value, uint16_t *mask);

/* Whether handler h is a compat entry point (compat_ioctl, *.compat_ioctl,
 * vfs_compat): it serves 32-bit callers the commands its native
 * counterpart serves, so listing both would only repeat them. */
int report_compat_handler(json_t *h);

/* The arguments of "SUBCOMMAND REPORT [-o FILE]"; returns 0, or prints the
 * usage and returns 2. *out stays NULL without -o (standard output). */
int report_args(int argc, char **argv, const char *synopsis, const char **path,
		const char **out);

#endif
