#include "function_index.h"

#include <stdlib.h>
#include <string.h>

#define BUCKETS 65536

struct entry {
	const struct function_facts *fn;
	struct entry *next;
};

struct function_index {
	struct entry *bucket[BUCKETS];
};

struct function_index *function_index_new(void)
{
	return xcalloc(1, sizeof(struct function_index));
}

void function_index_add_file(struct function_index *fi, struct file_facts *ff)
{
	for (size_t i = 0; i < ff->functions.len; i++) {
		struct entry *e = xmalloc(sizeof(*e));
		unsigned h = (str_hash(ff->functions.items[i]->name, strlen(ff->functions.items[i]->name)) % BUCKETS);

		e->fn = ff->functions.items[i];
		e->next = fi->bucket[h];
		fi->bucket[h] = e;
	}
}

const struct function_facts *function_index_find(const struct function_index *fi,
						 const char *name, const char *from_file)
{
	const struct function_facts *global = NULL;

	for (struct entry *e = fi->bucket[(str_hash(name, strlen(name)) % BUCKETS)]; e; e = e->next) {
		const struct function_facts *fn = e->fn;

		if (strcmp(fn->name, name))
			continue;
		if (from_file && !strcmp(fn->file, from_file))
			return fn;
		if (!fn->is_static && (!global || strcmp(fn->file, global->file) < 0))
			global = fn;
	}
	return global;
}

void function_index_free(struct function_index *fi)
{
	if (!fi)
		return;
	for (size_t i = 0; i < BUCKETS; i++) {
		struct entry *e = fi->bucket[i];

		while (e) {
			struct entry *n = e->next;

			free(e);
			e = n;
		}
	}
	free(fi);
}
