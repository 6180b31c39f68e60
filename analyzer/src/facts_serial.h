/* One file's facts as bytes and back: the payload of a facts cache entry
 * (facts_cache.h). Every field of facts.h's structures is written; a field
 * added there must be added here too (the static assertions in
 * facts_serial.c stop the build until it is). */
#ifndef IOCTL_SCAN_FACTS_SERIAL_H
#define IOCTL_SCAN_FACTS_SERIAL_H

#include "facts.h"

/* Appends ff to out. */
void facts_write(struct strbuf *out, const struct file_facts *ff);

/* Integers and strings, the units both the facts and the entry around
 * them are written in. */
void ser_u64(struct strbuf *out, uint64_t v);
void ser_str(struct strbuf *out, const char *s);

struct ser_reader {
	const unsigned char *p, *end;
	int bad;		/* set by the first read past the end */
};

uint64_t deser_u64(struct ser_reader *r);
/* NULL for a string written as NULL; also NULL (and r->bad) when malformed */
char *deser_str(struct ser_reader *r);
/* n raw bytes, or NULL */
const unsigned char *deser_bytes(struct ser_reader *r, size_t n);

struct header_functions;
/* Reads the facts of file written by facts_write, which must be all that
 * remains of r; NULL when they are malformed or another file's (nothing is
 * trusted: every count and length is checked against what remains). With
 * hf, a header function another file has already given is left out
 * unread (header_functions_keep_first). */
struct file_facts *facts_read(struct ser_reader *r, const char *file,
			      struct header_functions *hf);

#endif
