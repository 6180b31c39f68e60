/* Is a file part of the configured build? Reads .config and the Kbuild
 * Makefiles (obj-$(CONFIG_X) += file.o, composite objects, directories) the
 * way a reader would; files of drivers the configuration cannot build (other
 * platforms' hardware) are skipped instead of failing to parse. */
#ifndef IOCTL_SCAN_KBUILD_CONFIG_H
#define IOCTL_SCAN_KBUILD_CONFIG_H

#include "kernel_tree.h"

struct kbuild_config;

struct kbuild_config *kbuild_config_open(const struct kernel_tree *kt);
/* 1 when the configuration builds rel (a .c file), 0 when it cannot, and 1
 * when the Makefiles do not say (the file is parsed, not guessed away). */
int kbuild_config_builds(struct kbuild_config *kc, const char *rel);
/* The object that links a .c file, as Kbuild names it. */
struct kbuild_object {
	char *module;	/* KBUILD_MODNAME: "loop", "snd_pcm" */
	char *config;	/* the symbol that builds it ("CONFIG_BLK_DEV_LOOP"), or NULL
			 * when it is built whenever the kernel is */
};

typedef VEC(struct kbuild_object) kbuild_objects;

/* Fills out with the objects the Makefiles link rel into (usually one; a
 * file can be part of two modules): 0, or -1 with out empty when they do
 * not say for certain (a line Kbuild would evaluate that this reader does
 * not, a directory entered by a rule it cannot read, an included .c). */
int kbuild_config_objects(struct kbuild_config *kc, const char *rel, kbuild_objects *out);
void kbuild_objects_clear(kbuild_objects *v);
void kbuild_config_free(struct kbuild_config *kc);

#endif
