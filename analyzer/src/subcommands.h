/* Subcommands that work on reports: ioctl-scan SUBCOMMAND ARGS. */
#ifndef IOCTL_SCAN_SUBCOMMANDS_H
#define IOCTL_SCAN_SUBCOMMANDS_H

int cmd_list(int argc, char **argv);
int cmd_flags(int argc, char **argv);
int cmd_facts(int argc, char **argv);
int cmd_labels(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_xperm(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_sarif(int argc, char **argv);
int cmd_html(int argc, char **argv);
int cmd_coverage(int argc, char **argv);

/* The knowledge data files' directory: $IOCTL_SCAN_DATA, data/ next to
 * the program, or PREFIX/share/ioctl-scan when installed. */
char *default_data_dir(void);

/* Prints "usage: ioctl-scan SYNOPSIS" and returns 2. */
int subcommand_usage(const char *synopsis);

#endif
