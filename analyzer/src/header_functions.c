/* The functions defined in headers that some parsed file has extracted. */
#include "header_functions.h"

#include "facts.h"
#include "util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 16384

struct claimed {
	char *key;	/* "include/linux/netdevice.h:netif_running" */
	struct claimed *next;
};

struct header_functions {
	pthread_mutex_t lock;
	struct claimed *bucket[BUCKETS];
};

struct header_functions *header_functions_new(void)
{
	struct header_functions *hf = xcalloc(1, sizeof(*hf));

	pthread_mutex_init(&hf->lock, NULL);
	return hf;
}

int header_functions_claim(struct header_functions *hf, const char *file, const char *name)
{
	char *key = xasprintf("%s:%s", file, name);
	unsigned h = str_hash(key, strlen(key)) % BUCKETS;
	struct claimed *c;

	pthread_mutex_lock(&hf->lock);
	for (c = hf->bucket[h]; c; c = c->next)
		if (!strcmp(c->key, key))
			break;
	if (!c) {
		c = xmalloc(sizeof(*c));
		c->key = key;
		c->next = hf->bucket[h];
		hf->bucket[h] = c;
		key = NULL;
	}
	pthread_mutex_unlock(&hf->lock);
	if (key) {
		free(key);
		return 0;
	}
	return 1;
}

void header_functions_unclaim(struct header_functions *hf, const char *file, const char *name)
{
	char *key = xasprintf("%s:%s", file, name);
	unsigned h = str_hash(key, strlen(key)) % BUCKETS;

	pthread_mutex_lock(&hf->lock);
	for (struct claimed **p = &hf->bucket[h]; *p; p = &(*p)->next) {
		if (!strcmp((*p)->key, key)) {
			struct claimed *c = *p;

			*p = c->next;
			free(c->key);
			free(c);
			break;
		}
	}
	pthread_mutex_unlock(&hf->lock);
	free(key);
}

void header_functions_free(struct header_functions *hf)
{
	if (!hf)
		return;
	for (size_t i = 0; i < BUCKETS; i++) {
		for (struct claimed *c = hf->bucket[i], *n; c; c = n) {
			n = c->next;
			free(c->key);
			free(c);
		}
	}
	pthread_mutex_destroy(&hf->lock);
	free(hf);
}

void header_functions_keep_first(struct header_functions *hf, struct file_facts *ff)
{
	size_t kept = 0;

	for (size_t i = 0; i < ff->functions.len; i++) {
		struct function_facts *fn = ff->functions.items[i];

		if (fn->in_header && !header_functions_claim(hf, fn->file, fn->name)) {
			function_facts_free(fn);
			continue;
		}
		ff->functions.items[kept++] = fn;
	}
	ff->functions.len = kept;
}
