/* Compile flags for each file, as Kbuild would pass them.
 *
 * The base set is read from a command line Kbuild itself recorded while
 * preparing the build (arch/x86/kernel/.asm-offsets.s.cmd), so it carries
 * exactly the configuration's flags (-DCC_USING_FENTRY and all); per-file
 * parts are added the way Kbuild adds them: the file's directory on the
 * include path, KBUILD_MODNAME, and the directory Makefile's ccflags-y.
 * A compile_commands.json, when given, is used instead. */
#ifndef IOCTL_SCAN_COMPILE_FLAGS_H
#define IOCTL_SCAN_COMPILE_FLAGS_H

#include "kernel_tree.h"

struct flag_source;

/* Returns NULL with a reason in err when no flags can be derived. */
struct flag_source *flag_source_open(const struct kernel_tree *kt, char *err,
				     size_t errlen);
/* Arguments (argv-style, without the file) for rel_path; free with
 * strvec_clear. Thread-safe. */
void flags_for_file(struct flag_source *fs, const char *rel_path, strvec *out);
const char *flag_source_describe(const struct flag_source *fs);
void flag_source_free(struct flag_source *fs);

#endif
