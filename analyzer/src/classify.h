/* commands -> class (read / modify / admin / unknown) with evidence. */
#ifndef IOCTL_SCAN_CLASSIFY_H
#define IOCTL_SCAN_CLASSIFY_H

#include "function_index.h"
#include "knowledge.h"
#include "scan.h"

void classify_handlers(struct scan_result *r, const struct function_index *fi,
		       const struct knowledge *kn);

#endif
