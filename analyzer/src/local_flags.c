/* Local flags: candidates, stores and tests noted during one function's
 * walk, qualified at its end (local_flags.h). */
#include "local_flags.h"

#include "cursor_util.h"

#include <stdlib.h>
#include <string.h>

struct candidate {
	char *key;
	int64_t init;
};

struct local_flags {
	VEC(struct candidate) candidates;
	strvec escaped;
	VEC(struct stmt *) ifs;
	VEC(char **) uses;
	int poisoned;
};

struct local_flags *local_flags_new(void)
{
	return xcalloc(1, sizeof(struct local_flags));
}

static int is_scalar(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;

	return (k >= CXType_Bool && k <= CXType_Int128) || k == CXType_Enum ||
	       k == CXType_Pointer;
}

static char *var_key(CXCursor var)
{
	char *name = cursor_name(var);
	char *key = xasprintf("%s@%u", name, cursor_line(var));

	free(name);
	return key;
}

char *local_flag_key(CXCursor e)
{
	CXCursor c = strip(e), d;

	if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
		return NULL;
	d = clang_getCursorReferenced(c);
	if (clang_getCursorKind(d) != CXCursor_VarDecl || clang_Cursor_hasVarDeclGlobalStorage(d))
		return NULL;
	return var_key(d);
}

void local_flags_declare(struct local_flags *lf, CXCursor var)
{
	cursorvec kids;
	struct candidate cand = {0};
	int constant = 0;

	if (clang_Cursor_hasVarDeclGlobalStorage(var) || !is_scalar(clang_getCursorType(var)))
		return;
	kids = children_of(var);
	for (size_t i = 0; i < kids.len; i++)
		if (clang_isExpression(clang_getCursorKind(kids.items[i])))
			constant = eval_scalar(kids.items[i], &cand.init);
	vec_free(&kids);
	if (!constant)
		return;
	cand.key = var_key(var);
	vec_push(&lf->candidates, cand);
}

void local_flags_escape(struct local_flags *lf, CXCursor e)
{
	char *key = local_flag_key(e);

	if (key)
		vec_push(&lf->escaped, key);
}

void local_flags_poison(struct local_flags *lf)
{
	lf->poisoned = 1;
}

void local_flags_note_if(struct local_flags *lf, CXCursor var, int neg, struct stmt *s)
{
	s->flag = local_flag_key(var);
	if (!s->flag)
		return;
	s->flag_neg = neg;
	vec_push(&lf->ifs, s);
}

void local_flags_note_use(struct local_flags *lf, char **key)
{
	if (*key)
		vec_push(&lf->uses, key);
}

static const struct candidate *qualified(const struct local_flags *lf, const char *key)
{
	if (lf->poisoned || strvec_contains(&lf->escaped, key))
		return NULL;
	for (size_t i = 0; i < lf->candidates.len; i++)
		if (!strcmp(lf->candidates.items[i].key, key))
			return &lf->candidates.items[i];
	return NULL;
}

static int listed(const struct function_facts *f, const char *key)
{
	for (size_t i = 0; i < f->flags.len; i++)
		if (!strcmp(f->flags.items[i].key, key))
			return 1;
	return 0;
}

void local_flags_resolve(struct local_flags *lf, struct function_facts *f)
{
	for (size_t i = 0; i < lf->ifs.len; i++) {
		struct stmt *s = lf->ifs.items[i];
		const struct candidate *cand = qualified(lf, s->flag);

		if (!cand) {
			free(s->flag);
			s->flag = NULL;
			s->flag_neg = 0;
		} else if (!listed(f, cand->key)) {
			struct local_flag fl = { xstrdup(cand->key), cand->init };

			vec_push(&f->flags, fl);
		}
	}
	for (size_t i = 0; i < lf->uses.len; i++) {
		char **key = lf->uses.items[i];

		if (lf->poisoned || strvec_contains(&lf->escaped, *key)) {
			free(*key);
			*key = NULL;
		}
	}
	vec_free(&lf->uses);
	for (size_t i = 0; i < lf->candidates.len; i++)
		free(lf->candidates.items[i].key);
	vec_free(&lf->candidates);
	strvec_clear(&lf->escaped);
	vec_free(&lf->ifs);
	free(lf);
}
