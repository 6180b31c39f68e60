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
void kbuild_config_free(struct kbuild_config *kc);

#endif
