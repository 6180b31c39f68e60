// SPDX-License-Identifier: GPL-2.0-only
/*
 * make_cases REPORT CHOICES [SOURCE]: the guest's /cases, each command's
 * value taken from the generated report and its expected class from the
 * hand-checked class CHOICES gives it, which the report must agree with.
 *
 * CHOICES (qemu-check/cases.conf):
 *   case DEVICE HANDLER[,HANDLER...] COMMAND|0xVALUE CLASS WHERE... [-- WHY]
 *   compat DEVICE HANDLER[,HANDLER...] COMMAND|0xVALUE CLASS WHERE... [-- WHY]
 *   userns DEVICE HANDLER[,HANDLER...] COMMAND|0xVALUE CLASS WHERE... [-- WHY]
 *   storm DEVICE
 *   bench DEVICE HANDLER COMMAND CLASS WHERE... [-- WHY]
 * HANDLER is the chain the kernel looks the command up in after the
 * syscall's own commands (do_vfs_ioctl): the file's ioctl handler, then for
 * a block device or a tty the second-level ones, for a socket
 * (DEVICE socket:FAMILY:TYPE) the protocol family's and protocol's
 * handlers and then sock_do_ioctl: the commands of sock_ioctl that reach
 * dev_ioctl() (dev_ioctl in their path), which the kernel tries only after
 * the protocol's handlers, as the table generator lists them; for a DRM
 * device drm_ioctl and then the driver's table (vgem_ioctls), whose
 * commands a record names by their entry's function; NAME=KIND for a file
 * handler under which the table lists every KIND handler's commands, each
 * value merged to the most restrictive class (a V4L2 device:
 * v4l2_ioctl=v4l2_file_operations.unlocked_ioctl). The command's value is
 * found by name in the chain; the report's class is the one the patched
 * kernel applies: the first handler of do_vfs_ioctl + chain whose entries
 * match the value (exact value first, then the families, most specific
 * mask first), as the table generator and the kernel lookup order them.
 * `unknown` is written as `none` (not checked by the table).
 * A compat line is a 32-bit call (compat_sys_ioctl): the syscall's compat
 * commands (__do_compat_sys_ioctl) come before do_vfs_ioctl's, and each
 * HANDLER is the one installed for compat calls (compat_ioctl,
 * block_device_operations.compat_ioctl, ...), or the native one where
 * there is none (a file whose compat_ioctl is compat_ptr_ioctl, which the
 * kernel looks up as its unlocked_ioctl; a DRM driver's table).
 * A userns line is a native call made from a new user namespace.
 *
 * CLASS is the class a person found by reading the driver source
 * (/work/shared/CLASSES.md): read, modify, admin:CAP_X (the capability
 * every successful run passes, checked with capable() in the initial user
 * namespace), admin:CAP_X:user_ns (checked with ns_capable() in a user
 * namespace the driver chooses, which SELinux asks in cap_userns when it
 * is not the initial one), or none (no handler of the chain serves the
 * value). WHERE is the line that decides it, FILE:LINE for every release or
 * RELEASE=FILE:LINE (6.1=..., 6.12=...) for one; the report's release must
 * have one. A case whose report class differs from CLASS is an error naming
 * the command, both classes and the line: the boot then checks the table
 * against the hand-checked class, not against the report it came from.
 * With SOURCE (a tree of the report's release), each cited line must exist
 * in it and is quoted in the message.
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

/* The handler of that name installed for native calls (compat 0), for
 * compat calls (-1: a compat kind's only), or for compat calls where a
 * compat kind has it and else the native one (1). */
static json_t *handler_named(const char *name, int compat)
{
	json_t *h, *found = NULL;
	size_t i;

	if (compat > 0) {
		found = handler_named(name, -1);
		if (found)
			return found;
		compat = 0;
	}
	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		const char *kind = json_string_value(json_object_get(h, "kind"));

		if (strcmp(json_string_value(json_object_get(h, "name")), name) ||
		    !strstr(kind, "compat") != !compat)
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

/*
 * sock_do_ioctl is not a handler of the report: it is sock_ioctl's commands
 * with dev_ioctl in their path, and sock_ioctl the others (the table
 * generator's handed_last, analyzer/src/cmd_table.c).
 */
static const char *report_name(const char *chain_name)
{
	return strcmp(chain_name, "sock_do_ioctl") ? chain_name : "sock_ioctl";
}

/* Is c one of chain_name's commands (see report_name())? */
static int listed_under(const char *chain_name, json_t *c)
{
	int via_dev = 0;
	json_t *fn;
	size_t i;

	if (strcmp(report_name(chain_name), "sock_ioctl"))
		return 1;
	json_array_foreach(json_object_get(c, "path"), i, fn)
		via_dev |= !strcmp(json_string_value(fn), "dev_ioctl");
	return via_dev == !strcmp(chain_name, "sock_do_ioctl");
}

static json_t *command_named(json_t *h, const char *chain_name, const char *name)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(h, "commands"), i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), name) &&
		    listed_under(chain_name, c))
			return c;
	return NULL;
}

/*
 * A chain element NAME=KIND: the table lists under the file handler NAME
 * the commands of every handler of KIND, each value merged to the most
 * restrictive class (the generator's merged_kinds, analyzer/src/cmd_table.c:
 * v4l2_ioctl=v4l2_file_operations.unlocked_ioctl). Unknown commands and
 * families wider than a type are not merged.
 */
static const char *merged_kind(const char *chain_name)
{
	const char *eq = strchr(chain_name, '=');

	return eq ? eq + 1 : NULL;
}

static int class_rank(json_t *c)
{
	static const char *const order[] = { "read", "modify", "admin" };
	const char *cls = json_string_value(json_object_get(c, "class"));

	for (int i = 0; i < 3; i++)
		if (!strcmp(cls, order[i]))
			return i + 1;
	return 0;
}

/* The first command called name of a handler of kind (by-name search). */
static json_t *merged_command_named(const char *kind, const char *name)
{
	json_t *h, *c;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		if (strcmp(json_string_value(json_object_get(h, "kind")), kind))
			continue;
		json_array_foreach(json_object_get(h, "commands"), j, c)
			if (!strcmp(json_string_value(json_object_get(c, "name")), name))
				return c;
	}
	return NULL;
}

/* The merged entry the kernel takes for value: the most specific mask that
 * matches, and of the kind's commands with it the most restrictive. */
static json_t *merged_entry_for(const char *kind, unsigned long value)
{
	json_t *h, *c, *best = NULL;
	int best_bits = -1;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h) {
		if (strcmp(json_string_value(json_object_get(h, "kind")), kind))
			continue;
		json_array_foreach(json_object_get(h, "commands"), j, c) {
			unsigned long v = hex(json_object_get(c, "value"));
			unsigned long m = hex(json_object_get(c, "mask"));
			int bits = __builtin_popcountl(m);

			if ((value & m) != v || !class_rank(c) ||
			    (m != 0xfffffffful && (m & 0xff00ul) != 0xff00ul))
				continue;
			if (bits > best_bits || (bits == best_bits && class_rank(c) > class_rank(best))) {
				best = c;
				best_bits = bits;
			}
		}
	}
	return best;
}

/* The entry of h that the kernel's lookup takes for value, or NULL. */
static json_t *entry_for(json_t *h, const char *chain_name, unsigned long value)
{
	json_t *c, *best = NULL;
	int best_bits = -1;
	size_t i;

	json_array_foreach(json_object_get(h, "commands"), i, c) {
		unsigned long v = hex(json_object_get(c, "value")), m = hex(json_object_get(c, "mask"));
		int bits = __builtin_popcountl(m);

		if ((value & m) == v && bits > best_bits && listed_under(chain_name, c)) {
			best = c;
			best_bits = bits;
		}
	}
	return best;
}

struct chosen {
	char cls[16], handler[64];
	char lookup[16];	/* ioctl_lookup= of a record: vfs, file, device, socket, drm */
	char said[64];	/* the report's words: unknown, admin without a capability */
	char ns[16];	/* an admin command's capability checked in: user_ns, init_ns */
};

static int classify(char *chain, int compat, const char *name, unsigned long *value,
		    const char **dir, char *cap, size_t capsize, struct chosen *ch)
{
	char *names[8], *save = NULL;
	int n = 0, nvfs;
	json_t *cmd = NULL, *h;

	if (compat)
		names[n++] = "__do_compat_sys_ioctl";
	names[n++] = "do_vfs_ioctl";
	nvfs = n;
	for (char *t = strtok_r(chain, ",", &save); t && n < 8; t = strtok_r(NULL, ",", &save))
		names[n++] = t;
	if (!strncmp(name, "0x", 2)) {
		/* a raw value, for commands no handler in the chain serves */
		static const char *const dirs[] = { "none", "write", "read", "read_write" };

		*value = strtoul(name, NULL, 16);
		*dir = dirs[*value >> 30];
		goto lookup;
	}
	/* by name in the chain, then in the syscall's own commands */
	for (int k = 0; k < n && !cmd; k++) {
		int i = (nvfs + k) % n;

		if (merged_kind(names[i])) {
			cmd = merged_command_named(merged_kind(names[i]), name);
			continue;
		}
		h = handler_named(report_name(names[i]), compat);
		if (!h) {
			fprintf(stderr, "make_cases: no handler %s in the report\n", names[i]);
			return -1;
		}
		cmd = command_named(h, names[i], name);
	}
	if (!cmd) {
		fprintf(stderr, "make_cases: %s is not a command of %s\n", name, chain);
		return -1;
	}
	*value = hex(json_object_get(cmd, "value"));
	*dir = json_string_value(json_object_get(cmd, "dir"));
	/* an entry that leaves the direction bits out (DRM's, by number)
	 * does not say what the command's direction is */
	if ((hex(json_object_get(cmd, "mask")) & 0xc0000000ul) != 0xc0000000ul)
		*dir = "-";
lookup:
	snprintf(ch->cls, sizeof(ch->cls), "none");
	snprintf(ch->said, sizeof(ch->said), "none (no handler of the chain serves it)");
	snprintf(ch->handler, sizeof(ch->handler), "-");
	snprintf(ch->lookup, sizeof(ch->lookup), "-");
	snprintf(ch->ns, sizeof(ch->ns), "-");
	snprintf(cap, capsize, "-");
	for (int i = 0; i < n; i++) {
		json_t *e;
		const char *cls, *c;

		if (merged_kind(names[i])) {
			e = merged_entry_for(merged_kind(names[i]), *value);
		} else {
			h = handler_named(report_name(names[i]), compat);
			e = h ? entry_for(h, names[i], *value) : NULL;
		}
		if (!e)
			continue;
		cls = json_string_value(json_object_get(e, "class"));
		snprintf(ch->cls, sizeof(ch->cls), "%s", strcmp(cls, "unknown") ? cls : "none");
		snprintf(ch->said, sizeof(ch->said), "%s", strcmp(cls, "unknown") ? "" :
			 "unknown (not in the table)");
		snprintf(ch->handler, sizeof(ch->handler), "%.*s", (int)strcspn(names[i], "="),
			 names[i]);
		snprintf(ch->lookup, sizeof(ch->lookup), "%s", i < nvfs ? "vfs" :
			 i == nvfs ? "file" :
			 !strcmp(names[nvfs], "sock_ioctl") ? "socket" :
			 !strcmp(names[nvfs], "drm_ioctl") ||
			 !strcmp(names[nvfs], "drm_compat_ioctl") ? "drm" : "device");
		/* a DRM driver's command is listed under its entry's function,
		 * the last of its path (analyzer/src/cmd_table.c entry_kinds) */
		if (!strcmp(ch->lookup, "drm"))
			snprintf(ch->handler, sizeof(ch->handler), "%s",
				 json_string_value(json_array_get(json_object_get(e, "path"),
					json_array_size(json_object_get(e, "path")) - 1)));
		c = json_string_value(json_array_get(json_object_get(e, "capabilities"), 0));
		if (!strcmp(cls, "admin") && !c) {
			snprintf(ch->cls, sizeof(ch->cls), "modify");	/* as the generator does */
			snprintf(ch->said, sizeof(ch->said), "admin with no capability (the table's"
				 " modify)");
		}
		if (!strcmp(cls, "admin") && c) {
			size_t k = 0;
			json_t *in_user_ns = json_object_get(e, "capabilities_in_user_ns"), *u;
			size_t j;

			snprintf(ch->ns, sizeof(ch->ns), "init_ns");
			json_array_foreach(in_user_ns, j, u)
				if (!strcmp(json_string_value(u), c))
					snprintf(ch->ns, sizeof(ch->ns), "user_ns");

			for (c += 4; *c && k + 1 < capsize; c++)	/* CAP_SYS_TIME -> sys_time */
				cap[k++] = (char)tolower((unsigned char)*c);
			cap[k] = 0;
		}
		break;
	}
	return 0;
}

/* What a person read in the source: CLASS WHERE... [-- WHY] of a line. */
struct expected {
	char cls[16], cap[32];	/* cap as make_cases writes it: sys_time */
	char ns[16];		/* user_ns, init_ns; - when not admin */
	char where[256], why[512];
};

/*
 * Parses the hand-checked class and picks the justification for the
 * report's series (6.1 of 6.1.192): RELEASE=FILE:LINE for it, else a
 * FILE:LINE without a release.
 */
static int expectation(char **tok, int ntok, const char *series, struct expected *e,
		       const char *cmd)
{
	const char *cls = ntok ? tok[0] : "";
	char any[256] = "";
	int i;

	memset(e, 0, sizeof(*e));
	if (!strncmp(cls, "admin:CAP_", 10) && cls[10] && cls[10] != ':') {
		const char *ns = strchr(cls + 10, ':');
		size_t k = 0;

		snprintf(e->cls, sizeof(e->cls), "admin");
		for (const char *c = cls + 10; *c && c != ns && k + 1 < sizeof(e->cap); c++)
			e->cap[k++] = (char)tolower((unsigned char)*c);
		snprintf(e->ns, sizeof(e->ns), "%s", ns ? ns + 1 : "init_ns");
		if (ns && strcmp(ns, ":user_ns")) {
			fprintf(stderr, "make_cases: %s: \"%s\": a capability is checked in the"
				" initial namespace (admin:CAP_X) or a user namespace"
				" (admin:CAP_X:user_ns)\n", cmd, cls);
			return -1;
		}
	} else if (!strcmp(cls, "read") || !strcmp(cls, "modify") || !strcmp(cls, "none")) {
		snprintf(e->cls, sizeof(e->cls), "%s", cls);
		snprintf(e->cap, sizeof(e->cap), "-");
		snprintf(e->ns, sizeof(e->ns), "-");
	} else {
		fprintf(stderr, "make_cases: %s: no hand-checked class (read, modify, admin:CAP_X,"
			" admin:CAP_X:user_ns or none) but \"%s\"\n", cmd, cls);
		return -1;
	}
	for (i = 1; i < ntok && strcmp(tok[i], "--"); i++) {
		char *eq = strchr(tok[i], '='), *colon = strrchr(tok[i], ':');

		if (!colon || colon == tok[i] || !colon[1] || strspn(colon + 1, "0123456789")
		    != strlen(colon + 1)) {
			fprintf(stderr, "make_cases: %s: \"%s\" is not FILE:LINE or"
				" RELEASE=FILE:LINE\n", cmd, tok[i]);
			return -1;
		}
		if (!eq)
			snprintf(any, sizeof(any), "%s", tok[i]);
		else if ((size_t)(eq - tok[i]) == strlen(series) && !strncmp(tok[i], series, strlen(series)))
			snprintf(e->where, sizeof(e->where), "%s", eq + 1);
	}
	if (!e->where[0])
		snprintf(e->where, sizeof(e->where), "%s", any);
	if (!e->where[0]) {
		fprintf(stderr, "make_cases: %s: no FILE:LINE for Linux %s\n", cmd, series);
		return -1;
	}
	for (i++; i < ntok; i++) {
		size_t l = strlen(e->why);

		snprintf(e->why + l, sizeof(e->why) - l, "%s%s", l ? " " : "", tok[i]);
	}
	return 0;
}

/* The text of FILE:LINE in the source tree, spaces squeezed; "" without one. */
static int source_line(const char *src, const char *where, char *out, size_t size)
{
	char path[1024], buf[1024];
	const char *colon = strrchr(where, ':');
	long want = strtol(colon + 1, NULL, 10), n = 0;
	FILE *f;

	out[0] = 0;
	if (!src)
		return 0;
	snprintf(path, sizeof(path), "%s/%.*s", src, (int)(colon - where), where);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		if (++n == want) {
			size_t k = 0;
			int space = 1;

			for (char *c = buf; *c && k + 1 < size; c++) {
				if (isspace((unsigned char)*c)) {
					if (!space)
						out[k++] = ' ';
					space = 1;
				} else {
					out[k++] = *c;
					space = 0;
				}
			}
			while (k && out[k - 1] == ' ')
				k--;
			out[k] = 0;
			break;
		}
	fclose(f);
	return n == want ? 0 : -1;
}

/* "admin CAP_SYS_TIME" of admin and sys_time, "admin CAP_SYS_ADMIN in a
 * user namespace" with user_ns; the class alone otherwise */
static const char *class_name(const char *cls, const char *cap, const char *ns, char *out,
			      size_t size)
{
	size_t k;

	if (strcmp(cls, "admin") || !strcmp(cap, "-"))
		return cls;
	k = (size_t)snprintf(out, size, "admin CAP_");
	for (; *cap && k + 1 < size; cap++)
		out[k++] = (char)toupper((unsigned char)*cap);
	out[k < size ? k : size - 1] = 0;
	if (!strcmp(ns, "user_ns"))
		snprintf(out + strlen(out), size - strlen(out), " in a user namespace");
	return out;
}

int main(int argc, char **argv)
{
	char line[1024], series[32] = "";
	int per_class[3] = { 0 }, lesson = 0, rc = 0, agreed = 0, disagreed = 0;
	char drivers[64][64];
	int nr_drivers = 0;
	const char *release, *src = argc == 4 ? argv[3] : NULL;
	json_error_t err;
	FILE *fp;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: make_cases REPORT CHOICES [SOURCE]\n");
		return 2;
	}
	report = json_load_file(argv[1], 0, &err);
	fp = fopen(argv[2], "r");
	if (!report || !fp) {
		fprintf(stderr, "make_cases: cannot read %s\n", report ? argv[2] : argv[1]);
		return 2;
	}
	release = json_string_value(json_object_get(json_object_get(report, "kernel"), "release"));
	if (!release) {
		fprintf(stderr, "make_cases: %s names no kernel release\n", argv[1]);
		return 2;
	}
	/* the series: 6.1 of 6.1.192 */
	snprintf(series, sizeof(series), "%s", release);
	if (strchr(series, '.') && strchr(strchr(series, '.') + 1, '.'))
		*strchr(strchr(series, '.') + 1, '.') = 0;
	printf("# generated by make_cases from %s (Linux %s) and %s\n", argv[1], release, argv[2]);
	while (fgets(line, sizeof(line), fp)) {
		unsigned long value;
		const char *dir;
		char cap[32], quoted[512], copy[1024], *tok[64], *save = NULL;
		struct chosen ch;
		struct expected e;
		int ntok = 0;

		snprintf(copy, sizeof(copy), "%s", line);
		for (char *t = strtok_r(copy, " \t\n", &save); t && ntok < 64; t = strtok_r(NULL, " \t\n", &save))
			tok[ntok++] = t;
		if (line[0] == '#' || ntok < 2)
			continue;
		if (!strcmp(tok[0], "storm")) {
			printf("storm %s\n", tok[1]);
			continue;
		}
		if (strcmp(tok[0], "case") && strcmp(tok[0], "compat") && strcmp(tok[0], "userns") &&
		    strcmp(tok[0], "bench")) {
			fprintf(stderr, "make_cases: unknown line: %s", line);
			rc = 1;
			continue;
		}
		if (ntok < 6) {
			fprintf(stderr, "make_cases: want %s DEVICE HANDLER COMMAND CLASS FILE:LINE: %s",
				tok[0], line);
			rc = 1;
			continue;
		}
		if (expectation(tok + 4, ntok - 4, series, &e, tok[3])) {
			rc = 1;
			continue;
		}
		if (source_line(src, e.where, quoted, sizeof(quoted))) {
			fprintf(stderr, "make_cases: %s: %s is not a line of %s\n", tok[3], e.where, src);
			rc = 1;
			continue;
		}
		if (classify(tok[2], !strcmp(tok[0], "compat"), tok[3], &value, &dir, cap,
			     sizeof(cap), &ch)) {
			rc = 1;
			continue;
		}
		/* the report's class against the hand-checked one */
		if (strcmp(ch.cls, e.cls) ||
		    (!strcmp(e.cls, "admin") && (strcmp(cap, e.cap) || strcmp(ch.ns, e.ns)))) {
			char said[96], want[96];

			fprintf(stderr, "make_cases: %s %s (%s): the report says %s, the hand-checked"
				" class is %s (%s%s%s%s%s%s)\n", tok[0], tok[3], ch.handler,
				ch.said[0] ? ch.said : class_name(ch.cls, cap, ch.ns, said, sizeof(said)),
				class_name(e.cls, e.cap, e.ns, want, sizeof(want)), e.where,
				quoted[0] ? ": \"" : "", quoted, quoted[0] ? "\"" : "",
				e.why[0] ? "; " : "", e.why);
			disagreed++;
			rc = 1;
		} else {
			agreed++;
		}
		printf("%s %s %s 0x%08lx %s %s %s %s %s %s\n", tok[0], tok[1], tok[3], value, e.cls,
		       e.cap, dir, ch.handler, ch.lookup, e.ns);
		if (strcmp(tok[0], "case"))
			continue;
		for (int c = 0; c < 3; c++)
			per_class[c] += !strcmp(e.cls, (const char *[]){ "read", "modify", "admin" }[c]);
		if ((!strcmp(e.cls, "modify") || !strcmp(e.cls, "admin")) &&
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
	fprintf(stderr, "make_cases: %d commands' report classes agree with the hand-checked ones,"
		" %d disagree\n", agreed, disagreed);
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
