/* Walks one libclang translation unit and reduces it to file_facts. */
#ifndef IOCTL_SCAN_EXTRACT_FACTS_H
#define IOCTL_SCAN_EXTRACT_FACTS_H

#include <clang-c/Index.h>

#include "facts.h"
#include "header_functions.h"
#include "kernel_tree.h"
#include "knowledge.h"

/* hf (may be NULL): functions defined in headers that the file's calls
 * reach are extracted too, once across all files (header_functions.h). */
void extract_facts(CXTranslationUnit tu, const struct knowledge *kn,
		   const struct kernel_tree *kt, struct header_functions *hf,
		   struct file_facts *ff);
/* What the knowledge makes of the facts extract_facts recorded without
 * it: the inline assembly a macro of kernel_api.json writes (bind_asm).
 * The facts cache keeps facts unbound, so that what an API does is not
 * part of its key (knowledge.c, digest_facts_knowledge); every file's
 * facts, parsed or loaded, are bound once. */
void facts_bind_knowledge(struct file_facts *ff, const struct knowledge *kn);

#endif
