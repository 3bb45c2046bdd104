/* What the loaders of libraries opened at their first use share (core/cryptoload.c,
 * rest/curlload.c). */
#ifndef HB_DYNLOAD_H
#define HB_DYNLOAD_H

/* Stores the address of the library h's function name in *slot (a function pointer of the
 * right type: POSIX makes dlsym's pointer convertible) and says whether it was found. */
int hb_dl_find(void *h, const char *name, void *slot);

#endif
