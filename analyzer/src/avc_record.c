/* Reading AVC records. The kernel writes one record per line:
 *
 *   avc:  denied  { ioctl } for  pid=1234 comm="stty" path="/dev/pts/0"
 *   dev="devpts" ino=3 ioctlcmd=0x5401 scontext=u:r:untrusted_app:s0
 *   tcontext=u:object_r:devpts:s0 tclass=chr_file permissive=0
 *
 * after a prefix that differs by where it was read (type=AVC msg=audit(...):,
 * dmesg's audit: type=1400 audit(...):, ausearch -i's msg=audit(date) :),
 * so fields are read from "avc:" on. Values have no spaces: the kernel
 * quotes a string that needs none of its escaping and writes any other as
 * hex digits (audit_log_untrustedstring), ausearch -i prints it decoded
 * and unquoted. */
#include "avc_record.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Whether the permission set "{ ... }" at p names ioctl. The same audit
 * data also goes with the fd use check made first, whose record says
 * { use } tclass=fd: not a denial of the ioctl permission. */
static int denies_ioctl(const char *p)
{
	const char *end;

	p = strchr(p, '{');
	end = p ? strchr(p, '}') : NULL;
	for (; end && p < end; p++)
		if (!strncmp(p, " ioctl ", 7) && p + 6 < end)
			return 1;
	return 0;
}

static int is_hex_text(const char *s, size_t n)
{
	if (!n || n % 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* A field's value: unquoted, and hex-encoded text decoded. A value
 * without quotes that is all hex digits is encoded text for the fields
 * that hold strings (path); numbers such as ioctlcmd=5401 stay as they
 * are. */
static char *field_value(const char *v, size_t n, int is_string)
{
	char *out;

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"')
		return xstrndup(v + 1, n - 2);
	if (!is_string || !is_hex_text(v, n))
		return xstrndup(v, n);
	out = xmalloc(n / 2 + 1);
	for (size_t i = 0; i < n / 2; i++) {
		char byte[3] = { v[2 * i], v[2 * i + 1], 0 };

		out[i] = (char)strtol(byte, NULL, 16);
	}
	out[n / 2] = '\0';
	return out;
}

/* The type of an SELinux context: its third field (user:role:type:level). */
static char *context_type(const char *ctx)
{
	const char *t = strchr(ctx, ':'), *end;

	t = t ? strchr(t + 1, ':') : NULL;
	if (!t)
		return NULL;
	t++;
	end = strchr(t, ':');
	return end ? xstrndup(t, (size_t)(end - t)) : xstrdup(t);
}

static int key_is(const char *key, size_t klen, const char *name)
{
	return klen == strlen(name) && !strncmp(key, name, klen);
}

/* Keeps the fields explain reads; the first of each wins. */
static void take_field(struct avc_record *rec, const char *key, size_t klen,
		       const char *v, size_t vlen)
{
	char **type = key_is(key, klen, "scontext") ? &rec->source_type :
		key_is(key, klen, "tcontext") ? &rec->target_type : NULL;

	if (key_is(key, klen, "ioctlcmd") && !rec->cmd) {
		rec->cmd = field_value(v, vlen, 0);
	} else if (key_is(key, klen, "tclass") && !rec->tclass) {
		rec->tclass = field_value(v, vlen, 0);
	} else if (key_is(key, klen, "path") && !rec->path) {
		rec->path = field_value(v, vlen, 1);
	} else if (type && !*type) {
		char *ctx = field_value(v, vlen, 0);

		*type = context_type(ctx);
		free(ctx);
	}
}

int avc_record_parse(const char *line, struct avc_record *rec)
{
	struct avc_record r = { 0 };
	const char *p = strstr(line, "avc:");

	if (!p || !denies_ioctl(p))
		return 0;
	p = strchr(p, '}') + 1;
	while (*p) {
		const char *tok, *eq;
		size_t n;

		while (isspace((unsigned char)*p))
			p++;
		tok = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		n = (size_t)(p - tok);
		eq = memchr(tok, '=', n);
		if (eq && eq > tok)
			take_field(&r, tok, (size_t)(eq - tok), eq + 1, n - (size_t)(eq - tok) - 1);
	}
	if (!r.cmd || !*r.cmd) {
		avc_record_free(&r);
		return 0;
	}
	*rec = r;
	return 1;
}

void avc_record_free(struct avc_record *rec)
{
	free(rec->cmd);
	free(rec->tclass);
	free(rec->path);
	free(rec->source_type);
	free(rec->target_type);
}
