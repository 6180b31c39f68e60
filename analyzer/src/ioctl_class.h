/* The four classes of an ioctl command (analyzer/doc/classes.md), named
 * once: for the classifier that gives them, the report that writes them
 * and every subcommand that reads them back.
 *
 * The order is meaningful, and meant: from what the table restricts least
 * to most. unknown has no entry and keeps today's checks; read needs the
 * ioctl permission; modify also write; admin also the capability. diff
 * calls a move up this order "tighter". */
#ifndef IOCTL_SCAN_IOCTL_CLASS_H
#define IOCTL_SCAN_IOCTL_CLASS_H

enum ioctl_class {
	CLASS_UNKNOWN,
	CLASS_READ,
	CLASS_MODIFY,
	CLASS_ADMIN,
	CLASS_COUNT
};

/* "unknown", "read", "modify", "admin" */
const char *ioctl_class_name(enum ioctl_class c);

/* The class a name names, or -1 for a string that names none (or NULL). */
int ioctl_class_parse(const char *name);

#endif
