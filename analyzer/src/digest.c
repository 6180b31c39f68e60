/* SHA-256 through libcrypto's EVP interface (digest.h). */
#include "digest.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void crypto_failed(void)
{
	fputs("ioctl-scan: libcrypto could not compute a SHA-256 digest\n", stderr);
	abort();
}

void digest_init(struct digest *d)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		crypto_failed();
	d->ctx = ctx;
}

void digest_add(struct digest *d, const void *data, size_t n)
{
	if (n && !EVP_DigestUpdate(d->ctx, data, n))
		crypto_failed();
}

void digest_add_str(struct digest *d, const char *s)
{
	digest_add(d, s ? s : "", (s ? strlen(s) : 0) + 1);
}

void digest_final(struct digest *d, unsigned char out[DIGEST_BYTES])
{
	unsigned int n = 0;

	if (!EVP_DigestFinal_ex(d->ctx, out, &n) || n != DIGEST_BYTES)
		crypto_failed();
	EVP_MD_CTX_free(d->ctx);
	d->ctx = NULL;
}

void digest_of(const void *data, size_t n, unsigned char out[DIGEST_BYTES])
{
	struct digest d;

	digest_init(&d);
	digest_add(&d, data, n);
	digest_final(&d, out);
}

void digest_hex(const unsigned char in[DIGEST_BYTES], char out[DIGEST_HEX])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < DIGEST_BYTES; i++) {
		out[2 * i] = hex[in[i] >> 4];
		out[2 * i + 1] = hex[in[i] & 15];
	}
	out[2 * DIGEST_BYTES] = '\0';
}
