/* The reduced facts of one file as text, one fact a line, for people and
 * tests to read (ioctl-scan facts; sparse's test-linearize plays this
 * part for sparse's validation/ tests). */
#ifndef IOCTL_SCAN_FACTS_PRINT_H
#define IOCTL_SCAN_FACTS_PRINT_H

#include <stdio.h>

#include "facts.h"

/* Writes ff: its functions (a header line, then one statement a line,
 * "LINE<indent>kind ..."), its ops and member initialisers, tables and
 * diagnostics. The order is the facts' own, so the output is stable. */
void facts_print(FILE *out, const struct file_facts *ff);

#endif
