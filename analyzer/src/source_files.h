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
void source_files_free(struct source_files *sf);

#endif
