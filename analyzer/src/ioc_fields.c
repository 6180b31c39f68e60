#include "ioc_fields.h"

/* asm-generic/ioctl.h: 8 bits nr, 8 bits type, 14 bits size, 2 bits dir;
 * _IOC_WRITE is 1 and _IOC_READ 2. */
#define IOC_NRBITS 8
#define IOC_TYPEBITS 8
#define IOC_SIZEBITS 14
#define IOC_TYPESHIFT IOC_NRBITS
#define IOC_SIZESHIFT (IOC_TYPESHIFT + IOC_TYPEBITS)
#define IOC_DIRSHIFT (IOC_SIZESHIFT + IOC_SIZEBITS)

struct ioc_fields ioc_decode(uint32_t cmd)
{
	struct ioc_fields f = {
		.nr = cmd & ((1u << IOC_NRBITS) - 1),
		.type = (cmd >> IOC_TYPESHIFT) & ((1u << IOC_TYPEBITS) - 1),
		.size = (cmd >> IOC_SIZESHIFT) & ((1u << IOC_SIZEBITS) - 1),
		.dir = (cmd >> IOC_DIRSHIFT) & 3u,
	};

	return f;
}

const char *ioc_dir_name(unsigned dir)
{
	static const char *const names[] = { "none", "write", "read", "read_write" };

	return names[dir & 3];
}
