/* Source locations by file offset: see file_location.h. */
#include "file_location.h"
#include <stdlib.h>

#include "util.h"

struct file_start {
	CXFile file;
	CXSourceLocation start;
};

static __thread CXTranslationUnit cache_tu;
static __thread VEC(struct file_start) cache;

void file_location_forget(void)
{
	cache_tu = NULL;
	vec_free(&cache);
}

CXSourceLocation file_location(CXTranslationUnit tu, CXFile f, unsigned off)
{
	CXSourceLocation loc;
	struct file_start s;

	if (tu != cache_tu) {
		file_location_forget();
		cache_tu = tu;
	}
	for (size_t i = 0; i < cache.len; i++)
		if (cache.items[i].file == f) {
			loc = cache.items[i].start;
			loc.int_data += off;
			return loc;
		}
	s.file = f;
	s.start = clang_getLocationForOffset(tu, f, 0);
	if (clang_equalLocations(s.start, clang_getNullLocation()))
		return clang_getLocationForOffset(tu, f, off);
	vec_push(&cache, s);
	loc = s.start;
	loc.int_data += off;
	return loc;
}
