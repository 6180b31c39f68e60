/* ioctl-scan stats REPORT: commands per class and per handler kind, the
 * share of unknown, and the _IOC direction bits against the class: the
 * measured answer to how often the 2008 direction-bit rule (_IOC_READ ->
 * file:read, _IOC_WRITE -> file:write) gives the wrong permission. */
#include "subcommands.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report_read.h"

/* the columns, in the order the CLASSES.md table gives them */
static const enum ioctl_class columns[CLASS_COUNT] = { CLASS_READ, CLASS_MODIFY, CLASS_ADMIN,
						       CLASS_UNKNOWN };
static const char *const dirs[] = { "none", "read", "write", "read_write" };
#define NDIR 4

static int index_of(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* A header line: fmt's leading text, then each column's class name. */
static void print_header(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	for (int i = 0; i < CLASS_COUNT; i++)
		printf(" %7s", ioctl_class_name(columns[i]));
	putchar('\n');
}

/* A row: its name, then the counts (indexed by class) in column order. */
static void print_row(const char *name_fmt, const char *name, const int *counts)
{
	printf(name_fmt, name);
	for (int i = 0; i < CLASS_COUNT; i++)
		printf(" %7d", counts[columns[i]]);
	putchar('\n');
}

int cmd_stats(int argc, char **argv)
{
	int table[NDIR][CLASS_COUNT] = {{0}}, per_class[CLASS_COUNT] = {0}, total = 0;
	json_t *r, *h, *kinds;
	const char *k;
	json_t *v;
	size_t i;

	if (argc != 2)
		return subcommand_usage("stats REPORT");
	r = report_load(argv[1]);
	if (!r)
		return 2;
	kinds = json_object();
	json_array_foreach(json_object_get(r, "handlers"), i, h) {
		const char *kind = json_string_value(json_object_get(h, "kind"));
		json_t *row = json_object_get(kinds, kind), *c;
		size_t j;

		if (!row) {
			row = json_pack("[iiii]", 0, 0, 0, 0);
			json_object_set_new(kinds, kind, row);
		}
		json_array_foreach(json_object_get(h, "commands"), j, c) {
			int cl = ioctl_class_parse(json_string_value(json_object_get(c, "class")));
			int d = index_of(dirs, NDIR, json_string_value(json_object_get(c, "dir")));

			if (cl < 0 || d < 0)
				continue;
			table[d][cl]++;
			per_class[cl]++;
			total++;
			json_array_set_new(row, (size_t)cl,
					   json_integer(json_integer_value(json_array_get(row, (size_t)cl)) + 1));
		}
	}
	print_header("commands: %d\n\n%-40s", total, "per class");
	print_row("%-40s", "all", per_class);
	json_object_foreach(kinds, k, v) {
		int row[CLASS_COUNT];

		for (int c = 0; c < CLASS_COUNT; c++)
			row[c] = (int)json_integer_value(json_array_get(v, (size_t)c));
		print_row("%-40s", k, row);
	}
	printf("\nunknown: %d of %d (%.1f%%)\n", per_class[CLASS_UNKNOWN], total,
	       total ? 100.0 * per_class[CLASS_UNKNOWN] / total : 0);
	printf("\ndirection bits against class (the 2008 rule read the bits as the permission)\n");
	print_header("%-12s", "_IOC dir");
	for (int d = 0; d < NDIR; d++)
		print_row("%-12s", dirs[d], table[d]);
	{
		/* the 2008 rule granted a read-only domain every command whose
		 * bits carry no _IOC_WRITE: none and read */
		int changing = 0, let_through = 0;

		for (int d = 0; d < NDIR; d++) {
			changing += table[d][CLASS_MODIFY] + table[d][CLASS_ADMIN];
			if (d == 0 || d == 1)
				let_through += table[d][CLASS_MODIFY] + table[d][CLASS_ADMIN];
		}
		printf("\nstate-changing commands (modify + admin): %d; without _IOC_WRITE in their bits: %d (%.1f%%)\n",
		       changing, let_through, changing ? 100.0 * let_through / changing : 0);
		printf("(the 2008 rule would have let a read-only domain run those)\n");
	}
	json_decref(kinds);
	json_decref(r);
	return 0;
}
