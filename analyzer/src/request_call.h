/* The request code a call to a transport (request_codes.h) sends, read
 * from the facts of the function making the call. */
#ifndef IOCTL_SCAN_REQUEST_CALL_H
#define IOCTL_SCAN_REQUEST_CALL_H

#include "facts.h"
#include "request_codes.h"

struct request_verdict {
	const struct request_transport *transport;	/* NULL: not a transport */
	int known;		/* the code was found */
	int64_t code;		/* the code, or the first one that is not a query */
	const char *query;	/* its name when every code sent is a query */
	const char *macro;	/* how the code is written, when an argument */
};

/* Call s in fn; transport is set when it goes to a transport (by the
 * function's name, or "struct.member" for a call through an ops member).
 * known is
 * set when every store of the code field in fn is a constant, at least
 * one precedes s, and no other call that may change the block runs
 * between the first of them and s; query then names the code when every
 * such constant is a query code, else it is NULL and code is one that is
 * not. A transport whose code is an argument (no field) is known when
 * that argument is a constant. */
struct request_verdict request_call(const struct request_codes *rc,
				    const struct function_facts *fn, const struct stmt *s);

#endif
