/* Comparing two reports: what a new report changes, per handler, and how
 * the permissions the table would enforce move. One home for both
 * `ioctl-scan diff` (text, JSON) and the review page's diff
 * (`ioctl-scan html --diff`). */
#ifndef IOCTL_SCAN_REPORT_DIFF_H
#define IOCTL_SCAN_REPORT_DIFF_H

#include <jansson.h>

/* Bits of how permissions move. */
#define DIFF_TIGHTER 1
#define DIFF_LOOSER 4

/* Matches handlers by name and kind and commands by name, value and mask:
 * {"summary": {old_release, new_release, handlers_added, handlers_removed,
 * commands_added, commands_removed, commands_reclassified, tighter,
 * looser}, "handlers": [{name, kind, file, line, status: changed | added |
 * removed, changes: [{change: added | removed | reclassified, name, value,
 * old, new, permissions: tighter | looser | changed | same}]}]}.
 * *moves gets DIFF_TIGHTER and/or DIFF_LOOSER. */
json_t *report_diff(json_t *old, json_t *new, int *moves);

#endif
