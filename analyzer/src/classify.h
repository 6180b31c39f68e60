/* commands -> class (read / modify / admin / unknown) with evidence. */
#ifndef IOCTL_SCAN_CLASSIFY_H
#define IOCTL_SCAN_CLASSIFY_H

#include "function_index.h"
#include "knowledge.h"
#include "scan.h"

/* Names of functions on command paths whose definitions are not parsed
 * yet (so the scan can parse the files that define them). */
void classify_wanted(struct scan_result *r, const struct function_index *fi,
		     const struct knowledge *kn, strvec *wanted);
void classify_handlers(struct scan_result *r, const struct function_index *fi,
		       const struct knowledge *kn);

#endif
