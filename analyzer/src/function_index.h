/* name -> function definitions, across every parsed file. */
#ifndef IOCTL_SCAN_FUNCTION_INDEX_H
#define IOCTL_SCAN_FUNCTION_INDEX_H

#include "facts.h"

struct function_index;

struct function_index *function_index_new(void);
void function_index_add_file(struct function_index *fi, struct file_facts *ff);
/* The definition a call from from_file reaches: a static function of the
 * same file first, then a global one (the first by file name when a
 * configuration variant defines it twice). NULL if not parsed. */
const struct function_facts *function_index_find(const struct function_index *fi,
						 const char *name, const char *from_file);
void function_index_free(struct function_index *fi);

#endif
