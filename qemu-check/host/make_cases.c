// SPDX-License-Identifier: GPL-2.0-only
/*
 * make_cases REPORT CHOICES: the guest's /cases, with each command's
 * expected class taken from the generated report, never typed in.
 *
 * CHOICES (qemu-check/cases.conf) names commands only:
 *   case DEVICE HANDLER[,HANDLER...] COMMAND|0xVALUE
 *   storm DEVICE
 *   bench DEVICE HANDLER COMMAND
 * HANDLER is the chain the kernel looks the command up in after the
 * syscall's own commands (do_vfs_ioctl): the file's ioctl handler, then for
 * a block device or a tty the second-level ones. The command's value is
 * found by name in the chain; its class is the one the patched kernel
 * applies: the first handler of do_vfs_ioctl + chain whose entries match the
 * value (exact value first, then the families, most specific mask first),
 * as the table generator and the kernel lookup order them. `unknown` is
 * written as `none` (not checked by the table).
 *
 * Checks that the choice covers what the QEMU check must show: two commands
 * of each class from at least three drivers, and one command whose
 * direction bits say none or read but whose class is modify or admin.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *report;

static unsigned long hex(json_t *j)
{
	return strtoul(json_string_value(j), NULL, 16);
}

/* The handler of that name installed for native (not compat) calls. */
static json_t *handler_named(const char *name)
{
	json_t *h, *found = NULL;
	size_t i;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		const char *kind = json_string_value(json_object_get(h, "kind"));

		if (strcmp(json_string_value(json_object_get(h, "name")), name) || strstr(kind, "compat"))
			continue;
		if (found && strcmp(json_string_value(json_object_get(found, "file")),
				    json_string_value(json_object_get(h, "file")))) {
			fprintf(stderr, "make_cases: handler %s is ambiguous\n", name);
			exit(2);
		}
		found = h;
	}
	return found;
}

static json_t *command_named(json_t *h, const char *name)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(h, "commands"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), name))
			return c;
	return NULL;
}

/* The entry of h that the kernel's lookup takes for value, or NULL. */
static json_t *entry_for(json_t *h, unsigned long value)
{
	json_t *c, *best = NULL;
	int best_bits = -1;
	size_t i;

	json_array_foreach(json_object_get(h, "commands"), i, c) {
		unsigned long v = hex(json_object_get(c, "value")), m = hex(json_object_get(c, "mask"));
		int bits = __builtin_popcountl(m);

		if ((value & m) == v && bits > best_bits) {
			best = c;
			best_bits = bits;
		}
	}
	return best;
}

struct chosen {
	char cls[16], handler[64];
};

static int classify(char *chain, const char *name, unsigned long *value, const char **dir,
		    char *cap, size_t capsize, struct chosen *ch)
{
	char *names[8], *save = NULL;
	int n = 0;
	json_t *cmd = NULL, *h;

	names[n++] = "do_vfs_ioctl";
	for (char *t = strtok_r(chain, ",", &save); t && n < 8; t = strtok_r(NULL, ",", &save))
		names[n++] = t;
	if (!strncmp(name, "0x", 2)) {
		/* a raw value, for commands no handler in the chain serves */
		static const char *const dirs[] = { "none", "write", "read", "read_write" };

		*value = strtoul(name, NULL, 16);
		*dir = dirs[*value >> 30];
		goto lookup;
	}
	for (int i = 1; i < n && !cmd; i++) {
		h = handler_named(names[i]);
		if (!h) {
			fprintf(stderr, "make_cases: no handler %s in the report\n", names[i]);
			return -1;
		}
		cmd = command_named(h, name);
	}
	if (!cmd) {
		fprintf(stderr, "make_cases: %s is not a command of %s\n", name, chain);
		return -1;
	}
	*value = hex(json_object_get(cmd, "value"));
	*dir = json_string_value(json_object_get(cmd, "dir"));
lookup:
	snprintf(ch->cls, sizeof(ch->cls), "none");
	snprintf(ch->handler, sizeof(ch->handler), "-");
	snprintf(cap, capsize, "-");
	for (int i = 0; i < n; i++) {
		json_t *e;
		const char *cls, *c;

		h = handler_named(names[i]);
		e = h ? entry_for(h, *value) : NULL;
		if (!e)
			continue;
		cls = json_string_value(json_object_get(e, "class"));
		snprintf(ch->cls, sizeof(ch->cls), "%s", strcmp(cls, "unknown") ? cls : "none");
		snprintf(ch->handler, sizeof(ch->handler), "%s", names[i]);
		c = json_string_value(json_array_get(json_object_get(e, "capabilities"), 0));
		if (!strcmp(cls, "admin") && !c)
			snprintf(ch->cls, sizeof(ch->cls), "modify");	/* as the generator does */
		if (!strcmp(cls, "admin") && c) {
			size_t k = 0;

			for (c += 4; *c && k + 1 < capsize; c++)	/* CAP_SYS_TIME -> sys_time */
				cap[k++] = (char)tolower((unsigned char)*c);
			cap[k] = 0;
		}
		break;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char line[512], kind[16], dev[64], chain[256], name[64];
	int per_class[3] = { 0 }, lesson = 0, rc = 0;
	char drivers[64][64];
	int nr_drivers = 0;
	json_error_t err;
	FILE *fp;

	if (argc != 3) {
		fprintf(stderr, "usage: make_cases REPORT CHOICES\n");
		return 2;
	}
	report = json_load_file(argv[1], 0, &err);
	fp = fopen(argv[2], "r");
	if (!report || !fp) {
		fprintf(stderr, "make_cases: cannot read %s\n", report ? argv[2] : argv[1]);
		return 2;
	}
	printf("# generated by make_cases from %s (Linux %s)\n", argv[1],
	       json_string_value(json_object_get(json_object_get(report, "kernel"), "release")));
	while (fgets(line, sizeof(line), fp)) {
		unsigned long value;
		const char *dir;
		char cap[32];
		struct chosen ch;
		int k = sscanf(line, "%15s %63s %255s %63s", kind, dev, chain, name);

		if (line[0] == '#' || k < 2)
			continue;
		if (!strcmp(kind, "storm")) {
			printf("storm %s\n", dev);
			continue;
		}
		if (k != 4 || classify(chain, name, &value, &dir, cap, sizeof(cap), &ch)) {
			rc = 1;
			continue;
		}
		printf("%s %s %s 0x%08lx %s %s %s %s\n", kind, dev, name, value, ch.cls, cap, dir,
		       ch.handler);
		if (strcmp(kind, "case"))
			continue;
		for (int c = 0; c < 3; c++)
			per_class[c] += !strcmp(ch.cls, (const char *[]){ "read", "modify", "admin" }[c]);
		if ((!strcmp(ch.cls, "modify") || !strcmp(ch.cls, "admin")) &&
		    (!strcmp(dir, "none") || !strcmp(dir, "read")))
			lesson++;
		if (strcmp(ch.handler, "-")) {
			int seen = 0;

			for (int d = 0; d < nr_drivers; d++)
				seen |= !strcmp(drivers[d], ch.handler);
			if (!seen && nr_drivers < 64)
				snprintf(drivers[nr_drivers++], sizeof(drivers[0]), "%s", ch.handler);
		}
	}
	fclose(fp);
	fprintf(stderr, "make_cases: read %d, modify %d, admin %d; %d handlers; %d against the"
		" direction bits\n", per_class[0], per_class[1], per_class[2], nr_drivers, lesson);
	if (per_class[0] < 2 || per_class[1] < 2 || per_class[2] < 2 || nr_drivers < 3 || !lesson) {
		fprintf(stderr, "make_cases: the choice does not cover two commands per class from"
			" three drivers and one against the direction bits: edit %s\n", argv[2]);
		rc = 1;
	}
	json_decref(report);
	return rc;
}
