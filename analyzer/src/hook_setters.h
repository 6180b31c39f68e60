/* Hook variables set through a setter function: net/socket.c keeps
 * `static int (*br_ioctl_hook)(...)` and exports brioctl_set(hook), which
 * the bridge module calls with br_ioctl_stub. The hook's targets are what
 * the setter's callers pass. extract_facts records the hook's stores
 * (member_inits of the pseudo-struct "hook in FILE"); the scan finds the
 * files that call the setter and, here, reads the values they pass. */
#ifndef IOCTL_SCAN_HOOK_SETTERS_H
#define IOCTL_SCAN_HOOK_SETTERS_H

#include "facts.h"
#include "source_files.h"

typedef VEC(struct member_init *) member_init_list;

#define HOOK_STRUCT_PREFIX "hook in "

/* The file that declares the hook of pseudo-struct sname, or NULL when
 * sname is a real struct. */
const char *hook_file(const char *sname);
/* Every call to setter in ff's functions: the value passed as parameter
 * p installed in sname.field (a named function; nothing for NULL;
 * anything else leaves the hook open), appended to out. */
void hook_setter_calls(const struct file_facts *ff, const char *setter, int p,
		       const char *sname, const char *field, member_init_list *out);
/* The .c files of the tree whose text calls names->items[n] (`name(`),
 * into files[n]: one pass over the tree for all of them. */
void hook_files_calling(const struct source_files *sf, const char *ksrc, const strvec *names,
			strvec *files);
void member_init_free(struct member_init *m);

#endif
