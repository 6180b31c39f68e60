/* name -> function definitions, across every parsed file. */
#ifndef IOCTL_SCAN_FUNCTION_INDEX_H
#define IOCTL_SCAN_FUNCTION_INDEX_H

#include "facts.h"

struct function_index;

struct function_index *function_index_new(void);
void function_index_add_file(struct function_index *fi, struct file_facts *ff);
/* The definition a call from from_file (the caller's unit) reaches: a
 * static function written in or parsed with that file first, then a
 * global one (the first by file name when a configuration variant
 * defines it twice). NULL if not parsed. */
const struct function_facts *function_index_find(const struct function_index *fi,
						 const char *name, const char *from_file);
/* The parsed functions that initialisers and assignments install in
 * member field of struct sname (`.read_time = ds1307_get_time`), each
 * once, sorted by name: up to max in out; returns how many there are.
 * *all_named is 0 when some installed value names no function or one
 * whose definition is not parsed; those functions' names are added to
 * missing (when not NULL). Only the parsed files are seen: these are all
 * the targets only when the member is closed (below). */
size_t function_index_member_targets(const struct function_index *fi, const char *sname,
				     const char *field, const struct function_facts **out,
				     size_t max, int *all_named, strvec *missing);
/* A target installed in a member that no parsed file's member_inits
 * hold (a hook's setter called with a function: hook_setters.h); m
 * stays the caller's. */
void function_index_add_member_init(struct function_index *fi, const struct member_init *m);
/* The scan parsed every file of the tree whose text may install a
 * function in sname.field (source_files_setting_member): calls through
 * the member reach only the targets above. */
void function_index_close_member(struct function_index *fi, const char *sname,
				 const char *field);
int function_index_member_closed(const struct function_index *fi, const char *sname,
				 const char *field);
/* The table of command descriptors named var: the caller's unit's own,
 * else a global one (mga_ioctls, defined in mga_state.c for mga_drv.c),
 * else NULL. */
const struct table_init *function_index_find_table(const struct function_index *fi,
						   const char *var, const char *from_file);
/* The static array var that calls of unit index (stmt.callee_array), by
 * the member read from its elements (field NULL: the element); NULL when
 * its initialiser was not read. */
const struct table_init *function_index_find_fn_array(const struct function_index *fi,
						      const char *var, const char *field,
						      const char *unit);
/* The parsed function that reads the table held in member sname.field
 * (drm_ioctl for drm_driver.ioctls): its dispatcher, or NULL. */
const struct function_facts *function_index_table_dispatcher(const struct function_index *fi,
							     const char *sname,
							     const char *field);
/* The function the initialiser of const object `object` puts in member
 * sname.field (inet_dgram_ops.ioctl: inet_ioctl), when it is one parsed
 * function; else NULL. */
const struct function_facts *function_index_object_member(const struct function_index *fi,
							  const char *sname, const char *field,
							  const char *object);
void function_index_free(struct function_index *fi);

#endif
