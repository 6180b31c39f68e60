/* The scan: source files -> parse -> handlers -> commands -> report. */
#ifndef IOCTL_SCAN_SCAN_H
#define IOCTL_SCAN_SCAN_H

#include "facts.h"
#include "kernel_tree.h"
#include "knowledge.h"
#include "model.h"

struct scan_options {
	const char *ksrc;
	const char *build_dir;
	const char *output;	/* NULL: stdout */
	const char *config_name;
	const char *files_out;	/* list of parsed files, for make bench */
	const char *times_out;	/* seconds per phase, for make bench */
	const char *data_dir;
	/* the facts cache (facts_cache.h): NULL for none; cache_required
	 * makes a cache that cannot be opened an error, not a warning */
	const char *cache_dir;
	int cache_required;
	uint64_t cache_max;
	const char *cache_log;	/* one line per file: hit, miss, stale, corrupt */
	int quiet;		/* no progress and no cache summary */
	int parse_only;		/* parse the PATHs (files) into the cache, no report */
	strvec paths;
	int jobs;
	int generated_at;
	int progress;
	int sarif;		/* write SARIF instead of the report */
};

struct scan_stats {
	size_t files_total, files_considered, files_parsed, files_failed;
	size_t files_followed, other_arch_dirs, files_outside_config;
	size_t ops_unlocked, ops_unlocked_resolved;
	size_t commands;
	double seconds;
};

struct scan_result {
	struct kernel_tree kt;
	char *flags_description;
	VEC(struct handler) handlers;
	diag_vec diags;
	VEC(struct file_facts *) files;
	struct scan_stats stats;
};

/* Is file (relative to the tree) under one of paths? Every file is when
 * there are none. */
int under_paths(const strvec *paths, const char *file);
/* The facts of a parsed file, or NULL; and whether it was parsed. */
const struct file_facts *parsed_file(const struct scan_result *r, const char *file);
int file_known(const struct scan_result *r, const char *file);

/* Returns the exit status: 0, 1 (some files failed to parse), 2. */
int scan_run(const struct scan_options *opt);

#endif
