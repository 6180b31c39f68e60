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
/* The parsed functions that initialisers assign to member field of struct
 * sname (`.read_time = ds1307_get_time`), each once, sorted by name: up
 * to max in out; returns how many there are. Only the parsed files are
 * seen, so these are some of the targets of a call through the member,
 * never known to be all. */
size_t function_index_member_targets(const struct function_index *fi, const char *sname,
				     const char *field, const struct function_facts **out,
				     size_t max);
void function_index_free(struct function_index *fi);

#endif
