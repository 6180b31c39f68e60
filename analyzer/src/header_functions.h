/* Functions defined in headers (static inlines: netif_running(),
 * XFS_I(), mtd_get_master()) are read like the tree's own functions, from
 * whichever parsed file first calls them: every file sees the same
 * definition, so one copy is kept. This is the shared, thread-safe record
 * of which ones have been claimed. */
#ifndef IOCTL_SCAN_HEADER_FUNCTIONS_H
#define IOCTL_SCAN_HEADER_FUNCTIONS_H

struct header_functions;

struct header_functions *header_functions_new(void);
/* 1 when the caller is the first to claim file:name (and should extract
 * it), 0 when another file already has. */
int header_functions_claim(struct header_functions *hf, const char *file, const char *name);
void header_functions_free(struct header_functions *hf);

#endif
