/* ioctl-scan stats REPORT: commands per class and per handler kind, the
 * share of unknown, and the _IOC direction bits against the class: the
 * measured answer to how often the 2008 direction-bit rule (_IOC_READ ->
 * file:read, _IOC_WRITE -> file:write) gives the wrong permission. */
#include "subcommands.h"

#include <stdio.h>
#include <string.h>

#include "report_read.h"

static const char *const classes[] = { "read", "modify", "admin", "unknown" };
static const char *const dirs[] = { "none", "read", "write", "read_write" };
#define NCLASS 4
#define NDIR 4

static int index_of(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

int cmd_stats(int argc, char **argv)
{
	int table[NDIR][NCLASS] = {{0}}, per_class[NCLASS] = {0}, total = 0;
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
			int cl = index_of(classes, NCLASS, json_string_value(json_object_get(c, "class")));
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
	printf("commands: %d\n\n%-40s %7s %7s %7s %7s\n", total, "per class", classes[0], classes[1],
	       classes[2], classes[3]);
	printf("%-40s %7d %7d %7d %7d\n", "all", per_class[0], per_class[1], per_class[2], per_class[3]);
	json_object_foreach(kinds, k, v)
		printf("%-40s %7lld %7lld %7lld %7lld\n", k,
		       (long long)json_integer_value(json_array_get(v, 0)),
		       (long long)json_integer_value(json_array_get(v, 1)),
		       (long long)json_integer_value(json_array_get(v, 2)),
		       (long long)json_integer_value(json_array_get(v, 3)));
	printf("\nunknown: %d of %d (%.1f%%)\n", per_class[3], total, total ? 100.0 * per_class[3] / total : 0);
	printf("\ndirection bits against class (the 2008 rule read the bits as the permission)\n");
	printf("%-12s %7s %7s %7s %7s\n", "_IOC dir", classes[0], classes[1], classes[2], classes[3]);
	for (int d = 0; d < NDIR; d++)
		printf("%-12s %7d %7d %7d %7d\n", dirs[d], table[d][0], table[d][1], table[d][2], table[d][3]);
	{
		/* the 2008 rule granted a read-only domain every command whose
		 * bits carry no _IOC_WRITE: none and read */
		int changing = 0, let_through = 0;

		for (int d = 0; d < NDIR; d++) {
			changing += table[d][1] + table[d][2];
			if (d == 0 || d == 1)
				let_through += table[d][1] + table[d][2];
		}
		printf("\nstate-changing commands (modify + admin): %d; without _IOC_WRITE in their bits: %d (%.1f%%)\n",
		       changing, let_through, changing ? 100.0 * let_through / changing : 0);
		printf("(the 2008 rule would have let a read-only domain run those)\n");
	}
	json_decref(kinds);
	json_decref(r);
	return 0;
}
