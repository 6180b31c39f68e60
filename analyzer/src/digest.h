/* Content digests (SHA-256, from libcrypto): what the facts cache keys its
 * entries by and checks them with. */
#ifndef IOCTL_SCAN_DIGEST_H
#define IOCTL_SCAN_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define DIGEST_BYTES 32
#define DIGEST_HEX (2 * DIGEST_BYTES + 1)

struct digest {
	void *ctx;		/* EVP_MD_CTX */
};

void digest_init(struct digest *d);
void digest_add(struct digest *d, const void *data, size_t n);
/* a string and its terminating NUL, so that "ab","c" and "a","bc" differ */
void digest_add_str(struct digest *d, const char *s);
void digest_final(struct digest *d, unsigned char out[DIGEST_BYTES]);
void digest_of(const void *data, size_t n, unsigned char out[DIGEST_BYTES]);
void digest_hex(const unsigned char in[DIGEST_BYTES], char out[DIGEST_HEX]);

#endif
