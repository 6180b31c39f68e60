/* Functions defined in headers (static inlines: netif_running(),
 * XFS_I(), mtd_get_master()) are read like the tree's own functions. Each
 * file's facts hold every header function its calls reach (so that they
 * are the file's own, and can be cached); every file sees the same
 * definition, so the scan keeps the first copy. This is the thread-safe
 * record of which ones have been claimed: shared by the scan, or private
 * to one file's extraction. */
#ifndef IOCTL_SCAN_HEADER_FUNCTIONS_H
#define IOCTL_SCAN_HEADER_FUNCTIONS_H

struct header_functions;

struct header_functions *header_functions_new(void);
/* 1 when the caller is the first to claim file:name (and should extract
 * it), 0 when another file already has. */
int header_functions_claim(struct header_functions *hf, const char *file, const char *name);
/* Gives back a claim (facts that turned out unusable). */
void header_functions_unclaim(struct header_functions *hf, const char *file, const char *name);
void header_functions_free(struct header_functions *hf);

struct file_facts;
/* Drops from ff the header functions another file has already given. */
void header_functions_keep_first(struct header_functions *hf, struct file_facts *ff);

#endif
