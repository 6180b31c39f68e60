#include "model.h"

#include <stdlib.h>

void command_free(struct command *c)
{
	free(c->name);
	free(c->file);
	vec_free(&c->sites);
	kbuild_objects_clear(&c->entry_objects);
	strvec_clear(&c->capabilities);
	strvec_clear(&c->capabilities_in_user_ns);
	strvec_clear(&c->conditional_capabilities);
	for (size_t i = 0; i < c->evidence.len; i++) {
		free(c->evidence.items[i].kind);
		free(c->evidence.items[i].what);
		free(c->evidence.items[i].file);
	}
	vec_free(&c->evidence);
	free(c->confidence);
}

void handler_free(struct handler *h)
{
	free(h->name);
	free(h->file);
	strvec_clear(&h->fops);
	for (size_t i = 0; i < h->commands.len; i++)
		command_free(&h->commands.items[i]);
	vec_free(&h->commands);
	free(h->default_action);
	strvec_clear(&h->forwards_to);
	free(h->forwarder_of);
	strvec_clear(&h->unresolved);
	kbuild_objects_clear(&h->objects);
}
