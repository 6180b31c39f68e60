/* Walks one libclang translation unit and reduces it to file_facts. */
#ifndef IOCTL_SCAN_EXTRACT_FACTS_H
#define IOCTL_SCAN_EXTRACT_FACTS_H

#include <clang-c/Index.h>

#include "facts.h"
#include "knowledge.h"

void extract_facts(CXTranslationUnit tu, const struct knowledge *kn,
		   struct file_facts *ff);

#endif
