/* libcrypto opened on the first call of one of its functions, not when hbtab starts: mapping
 * it costs about 1 ms of every run, and simulate's hashing loops ran 2-4% slower with it
 * mapped (docs/ARCHITECTURE.md), while the only use hbtab has for it is the MD5 of a region
 * name the gateway sent mangled, on commands that talk to HBase. The functions hbtab calls are
 * defined here with libcrypto's names and hand on to libcrypto's own, found in the library opened
 * then; a function not listed here is an undefined reference at link time. When the library cannot
 * be loaded every function fails as libcrypto does (EVP_md5 with NULL, EVP_Digest with 0), and
 * hb_libcrypto_ready says so. */
#include "cryptoload.h"
#include "dynload.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <pthread.h>

/* The library hbtab is built against (CMakeLists.txt names it from libcrypto's version); a
 * test build names one that is not there. */
#ifndef LIBCRYPTO
#define LIBCRYPTO "libcrypto.so.3"
#endif

static struct {
	int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const EVP_MD *,
	              ENGINE *);
	const EVP_MD *(*md5)(void);
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void)
{
	void *h = dlopen(LIBCRYPTO, RTLD_NOW | RTLD_LOCAL);

	loaded = h && hb_dl_find(h, "EVP_Digest", &fn.digest) && hb_dl_find(h, "EVP_md5", &fn.md5);
}

int hb_libcrypto_ready(void)
{
	pthread_once(&once, load);
	return loaded;
}

const char *hb_libcrypto_name(void)
{
	return LIBCRYPTO;
}

int EVP_Digest(const void *data, size_t count, unsigned char *md, unsigned int *size,
               const EVP_MD *type, ENGINE *impl)
{
	return hb_libcrypto_ready() ? fn.digest(data, count, md, size, type, impl) : 0;
}

const EVP_MD *EVP_md5(void)
{
	return hb_libcrypto_ready() ? fn.md5() : NULL;
}
