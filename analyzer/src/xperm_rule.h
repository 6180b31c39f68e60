/* SELinux rules granting ioctl command numbers, the low 16 bits of commands
 * (xperm writes them per handler, explain per denial). */
#ifndef IOCTL_SCAN_XPERM_RULE_H
#define IOCTL_SCAN_XPERM_RULE_H

#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* A number as policy tools and audit records write it: "0x5401". */
char *xperm_number(uint16_t n);

/* Prints the rule granting domain the numbers nums (xperm_number's form)
 * on type's class cls, one line: `allowxperm D T:C ioctl 0x5401;` (braces
 * around several numbers), or with cil `(allowx D T (ioctl C (0x5401)))`. */
void xperm_rule_print(FILE *fp, const char *domain, const char *type, const char *cls,
		      const strvec *nums, int cil);

#endif
