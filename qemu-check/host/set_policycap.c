// SPDX-License-Identifier: GPL-2.0-only
/*
 * set_policycap IN NUMBER OUT: copies the binary SELinux policy IN to OUT
 * with policy capability NUMBER declared.
 *
 * checkpolicy and secilc accept `policycap NAME;` only for names libsepol
 * knows, and Debian 12's libsepol does not know ioctl_semantics, which the
 * kernel series adds. The kernel reads capabilities from the binary by
 * number, so the QEMU check compiles its policy with today's tools and sets
 * the bit here; NUMBER is the name's position in the patched kernel's
 * security/selinux/include/policycap_names.h (run.sh finds it).
 *
 * The capabilities are the first ebitmap of the binary policy, right after
 * its header (policydb_read() in security/selinux/ss/policydb.c):
 *   u32 magic, u32 len, char id[len], u32 version, u32 config,
 *   u32 sym_num, u32 ocon_num,
 *   ebitmap: u32 mapsize (64), u32 highbit, u32 count,
 *            count x { u32 startbit, u64 map }
 * all little-endian. The rest of the file is copied unchanged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POLICYDB_MAGIC 0xf97cff8cu
#define POLICYDB_VERSION_POLCAP 22
#define MAX_NODES 64

static unsigned char *data;
static size_t size, pos;

static void fail(const char *why)
{
	fprintf(stderr, "set_policycap: %s\n", why);
	exit(2);
}

static uint32_t get32(void)
{
	uint32_t v;

	if (pos + 4 > size)
		fail("policy is truncated");
	v = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16 | (uint32_t)data[pos + 3] << 24;
	pos += 4;
	return v;
}

static uint64_t get64(void)
{
	uint64_t lo = get32();

	return lo | (uint64_t)get32() << 32;
}

static void put32(FILE *fp, uint32_t v)
{
	unsigned char b[4] = { v, v >> 8, v >> 16, v >> 24 };

	fwrite(b, 1, 4, fp);
}

static void put64(FILE *fp, uint64_t v)
{
	put32(fp, (uint32_t)v);
	put32(fp, (uint32_t)(v >> 32));
}

int main(int argc, char **argv)
{
	struct { uint32_t start; uint64_t map; } node[MAX_NODES + 1];
	uint32_t len, version, mapsize, highbit, count, bit, start, i;
	size_t header_end;
	FILE *fp;
	long n;

	if (argc != 4)
		fail("usage: set_policycap IN NUMBER OUT");
	bit = (uint32_t)strtoul(argv[2], NULL, 10);
	fp = fopen(argv[1], "rb");
	if (!fp || fseek(fp, 0, SEEK_END) || (n = ftell(fp)) <= 0 || fseek(fp, 0, SEEK_SET))
		fail("cannot read the policy");
	size = (size_t)n;
	data = malloc(size);
	if (!data || fread(data, 1, size, fp) != size)
		fail("cannot read the policy");
	fclose(fp);

	if (get32() != POLICYDB_MAGIC)
		fail("not a binary SELinux policy");
	len = get32();
	if (len > 64 || pos + len > size)
		fail("policy id is corrupt");
	pos += len;
	version = get32();
	if (version < POLICYDB_VERSION_POLCAP)
		fail("policy version has no capabilities");
	get32();		/* config */
	get32();		/* sym_num */
	get32();		/* ocon_num */
	header_end = pos;
	mapsize = get32();
	highbit = get32();
	count = get32();
	if (mapsize != 64 || count > MAX_NODES)
		fail("capability bitmap is corrupt");
	for (i = 0; i < count; i++) {
		node[i].start = get32();
		node[i].map = get64();
	}

	/* nodes are sorted by startbit: set the bit in its node, or add one */
	start = bit & ~63u;
	for (i = 0; i < count && node[i].start < start; i++)
		;
	if (i == count || node[i].start != start) {
		memmove(&node[i + 1], &node[i], (count - i) * sizeof(node[0]));
		node[i].start = start;
		node[i].map = 0;
		count++;
	}
	node[i].map |= 1ull << (bit & 63);
	if (highbit < start + 64)
		highbit = start + 64;

	fp = fopen(argv[3], "wb");
	if (!fp)
		fail("cannot write the output");
	fwrite(data, 1, header_end, fp);
	put32(fp, mapsize);
	put32(fp, highbit);
	put32(fp, count);
	for (i = 0; i < count; i++) {
		put32(fp, node[i].start);
		put64(fp, node[i].map);
	}
	fwrite(data + pos, 1, size - pos, fp);
	if (fclose(fp))
		fail("cannot write the output");
	return 0;
}
