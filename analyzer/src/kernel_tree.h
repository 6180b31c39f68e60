/* The kernel tree and its prepared build: validation, release, config. */
#ifndef IOCTL_SCAN_KERNEL_TREE_H
#define IOCTL_SCAN_KERNEL_TREE_H

#include "util.h"

struct kernel_tree {
	char *ksrc;		/* absolute path of the source tree */
	char *build_dir;	/* absolute path of the prepared build */
	char *compile_commands;	/* compile_commands.json, if given */
	char *release;		/* "6.1.192" from the top Makefile */
	int config_options;	/* =y or =m options in .config */
};

/* Checks KSRC and the build; on failure writes a one-line reason that says
 * what to do into err and returns -1. */
int kernel_tree_open(struct kernel_tree *kt, const char *ksrc,
		     const char *build_dir, char *err, size_t errlen);
void kernel_tree_free(struct kernel_tree *kt);

#endif
