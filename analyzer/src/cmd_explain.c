/* ioctl-scan explain REPORT [FILE|-] [--cil] [--data-dir DIR]
 *
 * Policy writers meet ioctl commands as SELinux denials: an AVC record
 * with ioctlcmd=0x5401, the low 16 bits of the command (type and number;
 * direction and size are not logged). For each distinct record read from
 * FILE (standard input without one, or with -): the report's commands
 * those bits can be, narrowed by what the record says about the object
 * (tclass, path; data/avc_narrowing.json), each with its class,
 * capabilities, handlers and decisive evidence; and, when every one is
 * read, the allowxperm rule that grants it (CIL allowx with --cil), or why
 * no rule is suggested. Lines that are not AVC records of the ioctl
 * permission are skipped. A count of records, explained and unserved ends
 * the output. */
#define _GNU_SOURCE
#include "subcommands.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avc_narrowing.h"
#include "avc_record.h"
#include "report_read.h"
#include "util.h"
#include "xperm_rule.h"

/* A distinct record: the same command on the same object for the same
 * domain is explained once, however often it was denied. */
struct denial {
	struct avc_record rec;
	int cmd;		/* the 16 bits, or -1 for a name nothing resolves */
	unsigned count;
};
typedef VEC(struct denial) denial_list;

/* A command of the report the record can be, with the handlers that reach
 * it: TCGETS's code in tty_ioctl.c is reached through every line
 * discipline, and printed once. */
struct candidate {
	json_t *command;
	VEC(json_t *) handlers;
};
typedef VEC(struct candidate) candidate_list;

struct explain {
	json_t *report;
	struct avc_narrowing narrowing;
	int cil;
	unsigned records, explained, unserved, unresolved;
};

/* ioctlcmd as the kernel writes it (0x%hx), or without the 0x. */
static int parse_number(const char *s)
{
	char *end;
	unsigned long n = strtoul(s, &end, 16);

	return *s && !*end ? (int)(n & 0xffff) : -1;
}

/* The 16 bits of the report's exact commands named name, when they agree:
 * for a name ausearch -i prints that the data file does not list. */
static int number_of_name(json_t *report, const char *name)
{
	int found = -1;
	json_t *h, *c;
	size_t i, j;

	json_array_foreach(json_object_get(report, "handlers"), i, h)
		json_array_foreach(json_object_get(h, "commands"), j, c) {
			uint16_t v, m;

			report_low16(c, &v, &m);
			if (strcmp(report_str(c, "name"), name) || m != 0xffff)
				continue;
			if (found >= 0 && found != v)
				return -1;
			found = v;
		}
	return found;
}

static int resolve_cmd(const struct explain *ex, const char *text)
{
	int n = parse_number(text);

	if (n < 0)
		n = avc_audit_name(&ex->narrowing, text);
	return n >= 0 ? n : number_of_name(ex->report, text);
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int same_denial(const struct denial *d, const struct avc_record *r, int cmd)
{
	return d->cmd == cmd && (cmd >= 0 || !strcmp(d->rec.cmd, r->cmd)) &&
		same_str(d->rec.tclass, r->tclass) && same_str(d->rec.path, r->path) &&
		same_str(d->rec.source_type, r->source_type) &&
		same_str(d->rec.target_type, r->target_type);
}

/* Adds rec to the distinct records, or counts it as a repeat (and frees it). */
static void note_denial(const struct explain *ex, denial_list *l, struct avc_record *rec)
{
	int cmd = resolve_cmd(ex, rec->cmd);
	struct denial d = { *rec, cmd, 1 };

	for (size_t i = 0; i < l->len; i++)
		if (same_denial(&l->items[i], rec, cmd)) {
			l->items[i].count++;
			avc_record_free(rec);
			return;
		}
	vec_push(l, d);
}

static int read_denials(struct explain *ex, FILE *in, const char *name, denial_list *out)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, in) >= 0) {
		struct avc_record rec;

		if (!avc_record_parse(line, &rec))
			continue;
		ex->records++;
		note_denial(ex, out, &rec);
	}
	free(line);
	if (ferror(in)) {
		fprintf(stderr, "ioctl-scan: %s: %s\n", name, strerror(errno));
		return -1;
	}
	return 0;
}

static int same_json(json_t *a, json_t *b)
{
	return a == b || (a && b && json_equal(a, b));
}

/* The same command at the same place, classed on the same evidence: only
 * the handler it was reached from (and so its path) differs. */
static int same_command(json_t *a, json_t *b)
{
	static const char *const keys[] = { "name", "value", "mask", "class", "capabilities",
					    "file", "line" };

	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		if (!same_json(json_object_get(a, keys[k]), json_object_get(b, keys[k])))
			return 0;
	return same_json(json_array_get(json_object_get(a, "evidence"), 0),
			 json_array_get(json_object_get(b, "evidence"), 0));
}

static void add_candidate(candidate_list *l, json_t *h, json_t *c)
{
	struct candidate k = { c, { 0 } };

	for (size_t i = 0; i < l->len; i++)
		if (same_command(l->items[i].command, c)) {
			vec_push(&l->items[i].handlers, h);
			return;
		}
	vec_push(&k.handlers, h);
	vec_push(l, k);
}

static void free_candidates(candidate_list *l)
{
	for (size_t i = 0; i < l->len; i++)
		vec_free(&l->items[i].handlers);
	vec_free(l);
}

/* The commands that select cmd: in all, every native handler's; in
 * narrowed, those of the handlers the record's target allows. Compat
 * handlers repeat their native counterparts' commands and are left out. */
static void collect(const struct explain *ex, uint16_t cmd, json_t *target,
		    candidate_list *narrowed, candidate_list *all)
{
	json_t *h, *c;
	size_t i, j;

	json_array_foreach(json_object_get(ex->report, "handlers"), i, h) {
		int serves;

		if (report_compat_handler(h))
			continue;
		serves = avc_target_serves(&ex->narrowing, target, h);
		json_array_foreach(json_object_get(h, "commands"), j, c) {
			uint16_t v, m;

			report_low16(c, &v, &m);
			if ((cmd & m) != v)
				continue;
			add_candidate(all, h, c);
			if (serves)
				add_candidate(narrowed, h, c);
		}
	}
}

static void print_at(json_t *o)
{
	printf("%s:%lld", report_str(o, "file"),
	       (long long)json_integer_value(json_object_get(o, "line")));
}

static void print_capabilities(json_t *c, const char *lead)
{
	json_t *cap;
	size_t i;

	json_array_foreach(json_object_get(c, "capabilities"), i, cap)
		printf("%s%s%s", i ? " " : lead, json_string_value(cap),
		       report_list_contains(json_object_get(c, "capabilities_in_user_ns"),
					    json_string_value(cap)) ? " (in a user namespace)" : "");
}

static void print_candidate(const struct candidate *k, const char *mark)
{
	json_t *c = k->command, *ev = json_array_get(json_object_get(c, "evidence"), 0);

	printf("  %s%s %s", mark, report_str(c, "name"), report_str(c, "value"));
	if (json_object_get(c, "mask") && report_hex(c, "mask") != 0xffffffff)
		printf(" mask %s", report_str(c, "mask"));
	printf(" %s", report_str(c, "class"));
	print_capabilities(c, ", ");
	fputs(", at ", stdout);
	print_at(c);
	if (ev) {
		printf("\n    evidence: %s, %s, at ", report_str(ev, "kind"), report_str(ev, "what"));
		print_at(ev);
	} else {
		fputs("\n    evidence: none recorded", stdout);
	}
	for (size_t i = 0; i < k->handlers.len; i++) {
		json_t *h = k->handlers.items[i];

		printf("\n    handler: %s (%s) at ", report_str(h, "name"), report_str(h, "kind"));
		print_at(h);
	}
	putchar('\n');
}

/* The candidates that are not read, "NAME (class, CAPS)" each once, or
 * NULL when all are read. */
static char *not_read(const candidate_list *l)
{
	struct strbuf sb = { 0 };
	strvec seen = { 0 };

	for (size_t i = 0; i < l->len; i++) {
		json_t *c = l->items[i].command;
		struct strbuf one = { 0 };
		json_t *cap;
		size_t j;

		if (report_class(c) == CLASS_READ)
			continue;
		sb_addf(&one, "%s (%s", report_str(c, "name"), report_str(c, "class"));
		json_array_foreach(json_object_get(c, "capabilities"), j, cap)
			sb_addf(&one, "%s%s", j ? " " : ", ", json_string_value(cap));
		sb_add(&one, ")");
		if (!strvec_contains(&seen, one.buf)) {
			sb_addf(&sb, "%s%s", seen.len ? ", " : "", one.buf);
			strvec_push(&seen, one.buf);
		}
		free(one.buf);
	}
	if (!seen.len)
		return NULL;
	strvec_clear(&seen);
	return sb_detach(&sb);
}

/* The rule granting the record's number when every candidate shown is
 * read; else why not. outside: what the narrowing allowed, when the
 * candidates shown are all outside it. */
static void print_rule(const struct explain *ex, const struct denial *d,
		       const candidate_list *shown, const char *outside)
{
	char *others = not_read(shown), *num = xperm_number((uint16_t)d->cmd);
	const struct avc_record *r = &d->rec;

	if (outside) {
		printf("  no rule suggested: none of the %s serves %s\n", outside, num);
	} else if (others) {
		printf("  no rule suggested: granting %s grants %s\n", num, others);
	} else if (!r->source_type || !r->target_type || !r->tclass) {
		printf("  no rule suggested: the record lacks the scontext, tcontext or tclass "
		       "a rule names\n");
	} else {
		strvec nums = { 0 };

		vec_push(&nums, num);
		num = NULL;
		fputs("  rule: ", stdout);
		xperm_rule_print(stdout, r->source_type, r->target_type, r->tclass, &nums,
				 ex->cil);
		strvec_clear(&nums);
	}
	free(others);
	free(num);
}

static void print_header(const struct denial *d)
{
	const struct avc_record *r = &d->rec;

	if (d->cmd >= 0)
		printf("ioctlcmd=0x%04x", d->cmd);
	else
		printf("ioctlcmd=%s", r->cmd);
	if (r->tclass)
		printf(" tclass=%s", r->tclass);
	if (r->path)
		printf(" path=%s", r->path);
	if (r->source_type)
		printf(" scontext=%s", r->source_type);
	if (r->target_type)
		printf(" tcontext=%s", r->target_type);
	if (d->count > 1)
		printf(" (%u records)", d->count);
	putchar('\n');
}

static void print_narrowing(json_t *target, const struct avc_record *r)
{
	if (!target) {
		printf("  not narrowed: avc_narrowing.json says nothing of tclass=%s\n",
		       r->tclass ? r->tclass : "(none)");
		return;
	}
	printf("  narrowed to %s by tclass=%s", avc_target_what(target), r->tclass);
	if (json_object_get(target, "paths"))
		printf(" path=%s", r->path);
	putchar('\n');
}

/* Prints the candidates and the rule; says plainly when no handler
 * serves the number, and when only handlers outside the narrowing do. */
static void explain_denial(struct explain *ex, const struct denial *d)
{
	candidate_list narrowed = { 0 }, all = { 0 };
	json_t *target;

	print_header(d);
	if (d->cmd < 0) {
		printf("  %s: a name neither avc_narrowing.json nor the report's commands give "
		       "a number for\n", d->rec.cmd);
		ex->unresolved++;
		return;
	}
	target = avc_target(&ex->narrowing, d->rec.tclass, d->rec.path);
	collect(ex, (uint16_t)d->cmd, target, &narrowed, &all);
	if (!all.len) {
		printf("  no handler of the report serves 0x%04x\n", d->cmd);
		ex->unserved++;
	} else if (narrowed.len) {
		print_narrowing(target, &d->rec);
		for (size_t i = 0; i < narrowed.len; i++)
			print_candidate(&narrowed.items[i], "");
		print_rule(ex, d, &narrowed, NULL);
		ex->explained++;
	} else {
		printf("  none of the %s serves 0x%04x; other handlers of the report do:\n",
		       avc_target_what(target), d->cmd);
		for (size_t i = 0; i < all.len; i++)
			print_candidate(&all.items[i], "unnarrowed: ");
		print_rule(ex, d, &all, avc_target_what(target));
		ex->explained++;
	}
	free_candidates(&narrowed);
	free_candidates(&all);
}

static int explain_input(struct explain *ex, const char *input)
{
	FILE *in = input && strcmp(input, "-") ? fopen(input, "r") : stdin;
	denial_list denials = { 0 };
	int err;

	if (!in) {
		fprintf(stderr, "ioctl-scan: %s: %s\n", input, strerror(errno));
		return -1;
	}
	err = read_denials(ex, in, in == stdin ? "standard input" : input, &denials);
	if (in != stdin)
		fclose(in);
	for (size_t i = 0; !err && i < denials.len; i++) {
		explain_denial(ex, &denials.items[i]);
		putchar('\n');
	}
	if (!err) {
		printf("%u ioctl records, %zu distinct: %u explained, %u with no handler",
		       ex->records, denials.len, ex->explained, ex->unserved);
		if (ex->unresolved)
			printf(", %u with an ioctlcmd name not known", ex->unresolved);
		putchar('\n');
	}
	for (size_t i = 0; i < denials.len; i++)
		avc_record_free(&denials.items[i].rec);
	vec_free(&denials);
	return err;
}

int cmd_explain(int argc, char **argv)
{
	static const char synopsis[] = "explain REPORT [FILE|-] [--cil] [--data-dir DIR]";
	const char *path = NULL, *input = NULL, *dir = NULL;
	struct explain ex = { 0 };
	char *data_dir;
	int status = 2;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--cil"))
			ex.cil = 1;
		else if (!strcmp(argv[a], "--data-dir") && a + 1 < argc)
			dir = argv[++a];
		else if (!path && argv[a][0] != '-')
			path = argv[a];
		else if (path && !input && (argv[a][0] != '-' || !strcmp(argv[a], "-")))
			input = argv[a];
		else
			return subcommand_usage(synopsis);
	}
	if (!path)
		return subcommand_usage(synopsis);
	data_dir = dir ? xstrdup(dir) : default_data_dir();
	if (!avc_narrowing_load(&ex.narrowing, data_dir)) {
		ex.report = report_load(path);
		if (ex.report && !explain_input(&ex, input))
			status = 0;
		json_decref(ex.report);
		avc_narrowing_free(&ex.narrowing);
	}
	free(data_dir);
	return status;
}
