/* The cheap part: which files of the tree to parse, found by reading text,
 * never by parsing. Also a text index of where functions are defined, so
 * calls that leave a file can be followed into the file that defines them. */
#ifndef IOCTL_SCAN_SOURCE_FILES_H
#define IOCTL_SCAN_SOURCE_FILES_H

#include "kernel_tree.h"
#include "knowledge.h"

struct source_files {
	strvec all;		/* every .c file of the configuration's arch */
	strvec headers;		/* every .h file read; the indexes below name
				 * files by pointers into all and headers */
	strvec candidates;	/* files that may hold a handler */
	size_t other_arch;	/* .c files of other architectures, skipped */
	struct definition_index *defs;
	struct definition_index *member_sets;	/* member name -> files */
	/* struct or typedef name -> files initialising an object of it by
	 * position */
	struct definition_index *positional;
	/* struct or typedef name -> the structs that hold one by value
	 * (`struct adreno_gpu_funcs { struct msm_gpu_funcs base; ... }`,
	 * `struct td_outer_ops { td_inner_t inner; }`);
	 * SOURCE_FILES_ANONYMOUS among them for a struct without a name */
	struct definition_index *embedders;
	/* struct or typedef name -> its typedef names, and back */
	struct definition_index *aliases, *aliased;
	struct definition_index *names;	/* the last three's values */
};

/* The holder of a member of an anonymous struct outside any other: no
 * text names it. */
#define SOURCE_FILES_ANONYMOUS "(anonymous)"

/* Reads the tree's text with jobs workers. */
int source_files_scan(struct source_files *sf, const struct kernel_tree *kt,
		      const struct knowledge *kn, int jobs);
/* Files whose text looks like it defines name (relative paths). */
const strvec *source_files_defining(const struct source_files *sf, const char *name);
/* Files (.c and .h) whose text sets a struct member of that name
 * (`.name =`, `->name =`): the only files that can install a target of a
 * call through such a member, short of a macro that hides the name. */
const strvec *source_files_setting_member(const struct source_files *sf, const char *member);
/* Files (.c and .h) whose text defines an object of `struct sname`, or
 * of a typedef of it, with an initialiser whose first element is not
 * designated (`{ f }`): they may set any member of it, by position. */
const strvec *source_files_initialising_by_position(const struct source_files *sf,
						    const char *sname);
/* The structs whose text declares a member of type `struct sname` (or
 * of the typedef name sname) by value, directly or in an anonymous
 * struct or union of theirs: an initialiser or assignment of one of them
 * may set sname's members without naming sname (`.base = { .set_param =
 * f }`). */
const strvec *source_files_embedding(const struct source_files *sf, const char *sname);
/* The typedef names of a struct or of a typedef name (`typedef struct
 * td_ops { ... } td_ops_t;`: td_ops_t for td_ops). */
const strvec *source_files_typedef_names(const struct source_files *sf, const char *name);
void source_files_free(struct source_files *sf);

#endif
