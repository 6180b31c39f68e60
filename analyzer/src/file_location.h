/* Source locations by file offset, fast.
 *
 * clang_getLocationForOffset() finds the file's FileID by a linear scan over
 * every source-location entry of the unit (SourceManager::translateFile),
 * and a kernel unit has hundreds of thousands of them (one per macro
 * expansion): called per operator and per token range, it dominated the
 * scan. A file's locations are its start plus the offset (that is how
 * libclang computes them), so the start is looked up once per file and
 * unit and kept here, per thread. */
#ifndef IOCTL_SCAN_FILE_LOCATION_H
#define IOCTL_SCAN_FILE_LOCATION_H

#include <clang-c/Index.h>

/* Forgets the starts kept for a unit: call when it is disposed. */
void file_location_forget(void);

/* The location at byte offset off of file f in the current unit. */
CXSourceLocation file_location(CXTranslationUnit tu, CXFile f, unsigned off);

#endif
