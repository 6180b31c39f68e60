/* Parses files in parallel, one libclang index per worker, and reduces each
 * to file_facts. The only stage that runs the parser. */
#ifndef IOCTL_SCAN_PARSE_FILES_H
#define IOCTL_SCAN_PARSE_FILES_H

#include <signal.h>

#include "compile_flags.h"
#include "facts_cache.h"
#include "facts.h"
#include "knowledge.h"

/* Set from the SIGINT/SIGTERM handler: workers stop taking files. */
extern volatile sig_atomic_t scan_interrupted;

struct parse_request {
	const struct kernel_tree *kt;
	struct flag_source *flags;
	const struct knowledge *kn;
	/* which header functions a parsed file has contributed, shared by
	 * every parse: each is kept once (header_functions.h) */
	struct header_functions *hf;
	struct facts_cache *cache;	/* NULL: parse every file */
	int jobs;
	int show_progress;
	const char *phase;	/* shown in the progress line */
};

/* Parses files (relative to the tree); returns an array of the same length
 * (entries NULL only when interrupted). */
struct file_facts **parse_files(const struct parse_request *req, const strvec *files);

#endif
