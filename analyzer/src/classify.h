/* commands -> class (read / modify / admin / unknown) with evidence. */
#ifndef IOCTL_SCAN_CLASSIFY_H
#define IOCTL_SCAN_CLASSIFY_H

#include "analysis_limits.h"
#include "function_index.h"
#include "knowledge.h"
#include "scan.h"

/* A struct member a call on a command's path goes through, and how many
 * installer files the scan follows to close it: MAX_COMMAND_TARGETS when
 * the call hands on the command, MAX_MEMBER_TARGETS otherwise. */
struct wanted_member {
	char *sname, *field;
	size_t cap;
};

typedef VEC(struct wanted_member) wanted_members;

/* Names of functions whose definitions are not parsed yet (so the scan
 * can parse the files that define them): with callees, those on command
 * paths; always, the functions installed in the members below. And the
 * members whose installers the scan should parse (each once, with the
 * largest cap asked for). */
void classify_wanted(struct scan_result *r, const struct function_index *fi,
		     const struct knowledge *kn, int callees, strvec *wanted,
		     wanted_members *members);
void classify_handlers(struct scan_result *r, const struct function_index *fi,
		       const struct knowledge *kn);

#endif
