/* Which handlers of a report can have served an AVC record's ioctl, from
 * the record's tclass and path (data/avc_narrowing.json, ioctl-scan
 * explain). */
#ifndef IOCTL_SCAN_AVC_NARROWING_H
#define IOCTL_SCAN_AVC_NARROWING_H

#include <jansson.h>

struct avc_narrowing {
	json_t *root;
};

/* Loads and checks the data file in dir; prints why not and returns -1. */
int avc_narrowing_load(struct avc_narrowing *n, const char *dir);
void avc_narrowing_free(struct avc_narrowing *n);

/* The first target whose tclasses and paths match (either may be NULL),
 * or NULL: the record is not narrowed. */
json_t *avc_target(const struct avc_narrowing *n, const char *tclass, const char *path);
/* What the target narrows to, for people: "tty handlers". */
const char *avc_target_what(json_t *target);
/* Whether report handler h can serve a record target matched; every
 * handler can when target is NULL. */
int avc_target_serves(const struct avc_narrowing *n, json_t *target, json_t *h);

/* The number ausearch -i printed as name (TCGETS), or -1. */
int avc_audit_name(const struct avc_narrowing *n, const char *name);

#endif
