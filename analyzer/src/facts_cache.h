/* The facts cache: each parsed file's facts kept on disk, so that a file
 * whose translation unit has not changed is not parsed again (ccache's
 * direct mode is the model).
 *
 * An entry is named by the key of the file: the facts format (derived at
 * build time from the sources that produce and store facts), the libclang
 * version, the knowledge extraction reads (knowledge.h, digest), the
 * file's path and content, and its exact compile flags. It holds the list of every file the translation unit
 * included with the digest of its content, and the facts. It is used only
 * when every included file still has that content; otherwise the file is
 * parsed again and the entry replaced. (As with ccache's direct mode, a
 * header newly created earlier on the include path than the one a file
 * included is not noticed: the kernel's include paths do not shadow one
 * another that way.)
 *
 * Entries are written to a temporary file and renamed into place, so that
 * concurrent scans never see half an entry; an entry that is truncated,
 * corrupt or of another format is discarded with a warning, never trusted.
 * The cache is kept under a size limit by removing the entries used least
 * recently. */
#ifndef IOCTL_SCAN_FACTS_CACHE_H
#define IOCTL_SCAN_FACTS_CACHE_H

#include <clang-c/Index.h>
#include <stdint.h>

#include "digest.h"
#include "facts.h"
#include "header_functions.h"
#include "kernel_tree.h"
#include "knowledge.h"

/* When no limit is given: about twice a whole 6.1 tree's entries. */
#define FACTS_CACHE_DEFAULT_MAX ((uint64_t)2 << 30)

struct facts_cache;

/* What became of one file. */
enum cache_outcome {
	CACHE_HIT,		/* facts read from the cache */
	CACHE_MISS,		/* no entry: parsed */
	CACHE_STALE,		/* an included file changed: parsed */
	CACHE_CORRUPT,		/* the entry was unusable: parsed */
};

struct facts_cache_stats {
	size_t hits, misses, stale, corrupt, stored;
	uint64_t bytes, evicted;	/* size after the scan, bytes removed */
};

/* Opens (creating) the cache in dir; log (may be NULL) receives one line
 * per file: its outcome and name. Returns NULL with a message in err. */
struct facts_cache *facts_cache_open(const char *dir, uint64_t max_bytes,
				     const struct knowledge *kn, const char *log,
				     char *err, size_t errlen);
/* The key of a file: 0, or -1 when the file cannot be read. */
int facts_cache_key(struct facts_cache *c, const struct kernel_tree *kt, const char *rel,
		    const strvec *args, unsigned char key[DIGEST_BYTES]);
/* The file's facts from the entry named key, or NULL (outcome says why).
 * Header functions another file has given are left out as they are read
 * (header_functions_keep_first). */
struct file_facts *facts_cache_load(struct facts_cache *c, const unsigned char key[DIGEST_BYTES],
				    const char *rel, struct header_functions *hf,
				    enum cache_outcome *outcome);
/* Keeps ff, the facts of tu, under key. */
void facts_cache_store(struct facts_cache *c, const unsigned char key[DIGEST_BYTES],
		       CXTranslationUnit tu, const struct file_facts *ff);
/* Records what became of a file (the log and the counts). */
void facts_cache_note(struct facts_cache *c, const char *rel, enum cache_outcome outcome);
/* Removes the least recently used entries over the limit, then closes. */
void facts_cache_close(struct facts_cache *c, struct facts_cache_stats *stats);
/* The default directory: $IOCTL_SCAN_CACHE_DIR, else
 * $XDG_CACHE_HOME/ioctl-scan, else ~/.cache/ioctl-scan (NULL when none of
 * the variables is set). */
char *facts_cache_default_dir(void);
/* "2G", "512M", "100k" or a number of bytes; -1 when not a size. */
int facts_cache_parse_size(const char *s, uint64_t *bytes);

#endif
