/* The _IOC fields of a command value, as include/uapi/asm-generic/ioctl.h
 * lays them out for x86 (the configuration's architecture). */
#ifndef IOCTL_SCAN_IOC_FIELDS_H
#define IOCTL_SCAN_IOC_FIELDS_H

#include <stdint.h>

struct ioc_fields {
	unsigned dir, type, nr, size;
};

struct ioc_fields ioc_decode(uint32_t cmd);
/* "none", "write", "read", "read_write" */
const char *ioc_dir_name(unsigned dir);

#endif
