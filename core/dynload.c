/* What the loaders of libraries opened at their first use share. */
#include "dynload.h"

#include <dlfcn.h>
#include <string.h>

int hb_dl_find(void *h, const char *name, void *slot)
{
	void *p = dlsym(h, name);

	memcpy(slot, &p, sizeof(p));
	return p != NULL;
}
