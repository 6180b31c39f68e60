/* Installers: the files of the tree that may put a function into an ops
 * member or a hook variable, found by reading their text. The scan parses
 * them so that a member can be closed (every function it can hold is
 * known) and so that a scan of some PATHs sees how the handlers defined
 * under them are installed. The concept is explained in installers.c. */
#ifndef IOCTL_SCAN_INSTALLERS_H
#define IOCTL_SCAN_INSTALLERS_H

#include "classify.h"
#include "function_index.h"
#include "kbuild_config.h"
#include "knowledge.h"
#include "scan.h"
#include "source_files.h"

/* The members sought across the scan's rounds, and what was learnt of
 * their installers. */
struct member_search;

struct member_search *member_search_new(void);
void member_search_free(struct member_search *ms);

/* The members the classifier wants closed (each once, again with a larger
 * cap): their installer files not parsed yet join to_parse. */
void seek_members(struct member_search *ms, const struct scan_result *r,
		  const struct source_files *sf, struct kbuild_config *kc,
		  const struct function_index *fi, const wanted_members *wanted, strvec *to_parse);

/* The functions that the parsed files' calls to the sought hooks' setters
 * install, added to the function index (each file read once). */
void read_setter_calls(struct member_search *ms, const struct scan_result *r,
		       struct function_index *fi);

/* Closes in the index each sought member whose installers were all parsed. */
void close_members(const struct member_search *ms, const struct scan_result *r,
		   struct function_index *fi);

/* Candidate files outside paths that may install a function the parsed
 * files define (their text names it right after an '='), into out. */
void installing_files(const struct scan_result *r, const struct source_files *sf,
		      struct kbuild_config *kc, const struct knowledge *kn, const strvec *paths,
		      strvec *out);

#endif
