#include "mhd_lib.h"

#include <dlfcn.h>
#include <stdio.h>

struct mhd_lib mhd;

int mhd_open(char *err, size_t errlen)
{
	static void *lib;

	if (lib)
		return 0;
	void *h = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "--serve needs %s: %s", MHD_SONAME, dlerror());
		return -1;
	}
	struct mhd_lib found;
	const char *missing = NULL;
#define MHD_FIND(f)                                                                                \
	if (!(*(void **)&found.f = dlsym(h, "MHD_" #f)) && !missing)                               \
		missing = "MHD_" #f;
	MHD_FUNCS(MHD_FIND)
#undef MHD_FIND
	if (missing) {
		snprintf(err, errlen, "--serve: %s has no %s", MHD_SONAME, missing);
		dlclose(h);
		return -1;
	}
	mhd = found;
	lib = h;
	return 0;
}
