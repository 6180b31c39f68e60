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
	/* struct name -> files initialising an object of it by position */
	struct definition_index *positional;
	/* struct name -> the structs that hold one by value (`struct
	 * adreno_gpu_funcs { struct msm_gpu_funcs base; ... }`); the names
	 * are embedder_names' */
	struct definition_index *embedders;
	strvec embedder_names;
};

/* Reads the tree's text with jobs workers. */
int source_files_scan(struct source_files *sf, const struct kernel_tree *kt,
		      const struct knowledge *kn, int jobs);
/* Files whose text looks like it defines name (relative paths). */
const strvec *source_files_defining(const struct source_files *sf, const char *name);
/* Files (.c and .h) whose text sets a struct member of that name
 * (`.name =`, `->name =`): the only files that can install a target of a
 * call through such a member, short of a macro that hides the name. */
const strvec *source_files_setting_member(const struct source_files *sf, const char *member);
/* Files (.c and .h) whose text defines an object of `struct sname`
 * with an initialiser whose first element is not designated (`{ f }`):
 * they may set any member of it, by position. */
const strvec *source_files_initialising_by_position(const struct source_files *sf,
						    const char *sname);
/* The structs whose text declares a member of type `struct sname` by
 * value, directly or in an anonymous struct or union of theirs: an
 * initialiser or assignment of one of them may set sname's members
 * without naming sname (`.base = { .set_param = f }`). */
const strvec *source_files_embedding(const struct source_files *sf, const char *sname);
void source_files_free(struct source_files *sf);

#endif
