/* Requests a driver sends its device, decided by their request code
 * (data/request_codes.json): a transport such as
 * cdrom_device_ops.generic_packet does what the code in its command block
 * asks, and only the codes listed as queries leave the device as it was. */
#ifndef IOCTL_SCAN_REQUEST_CODES_H
#define IOCTL_SCAN_REQUEST_CODES_H

#include <jansson.h>
#include <stdint.h>

#include "util.h"

/* A function or ops member ("struct.member") that sends the command
 * block in argument arg; its code is block.field[0] (block[0] when field
 * is empty), or the argument itself when field is NULL
 * (gb_operation_sync's type), read in the code set codes. */
struct request_transport {
	char *callee;
	int arg;
	char *field;
	char *codes;
};

/* A query code: by value, or by the macro that names it when a set's
 * values mean different things per protocol (macro non-NULL). */
struct request_code {
	int64_t value;
	char *macro;
	char *name;
};

struct request_code_set {
	char *name;
	VEC(struct request_code) queries;
};

struct request_codes {
	VEC(struct request_transport) transports;
	VEC(struct request_code_set) sets;
};

/* Reads the parsed request_codes.json; on error prints a message and
 * returns -1 (what was read stays for request_codes_free). */
int request_codes_load(struct request_codes *rc, json_t *root);
void request_codes_free(struct request_codes *rc);
/* The transport a call goes to: the function name (field NULL:
 * "sr_do_ioctl"), or the struct and member of a call through an ops
 * member ("cdrom_device_ops", "generic_packet"); NULL if none. */
const struct request_transport *request_transport_for(const struct request_codes *rc,
						      const char *name, const char *field);
/* The name of the query code with this value, or written as the macro
 * macro (NULL when not known), in t's code set; NULL when the code is not
 * known to be a query. */
const char *request_query_name(const struct request_codes *rc,
			       const struct request_transport *t, int64_t value,
			       const char *macro);

#endif
