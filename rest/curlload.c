/* libcurl loaded on the first call of one of its functions, not when hbtab starts: mapping it
 * and the libraries it needs (TLS, Kerberos, LDAP, SSH, IDN, ...) costs about 3 ms of every
 * run, and commands that never talk to HBase (splits, simulate) have no use for it. The
 * functions hbtab calls are defined here with libcurl's names and hand on to libcurl's own,
 * found in the library opened then; a function not listed here is an undefined reference at
 * link time. When the library cannot be loaded every function fails as libcurl does when out
 * of memory (curl_global_init with CURLE_FAILED_INIT, the constructors with NULL). */

/* curl.h's declarations under other names: the definitions below have no prior declaration to
 * agree with (their parameters' qualifiers differ between libcurl versions), and the option
 * type-checking macros are off. */
#define CURL_DISABLE_TYPECHECK
#define curl_global_init    hb_curl_decl_global_init
#define curl_easy_init      hb_curl_decl_easy_init
#define curl_easy_cleanup   hb_curl_decl_easy_cleanup
#define curl_easy_reset     hb_curl_decl_easy_reset
#define curl_easy_perform   hb_curl_decl_easy_perform
#define curl_easy_setopt    hb_curl_decl_easy_setopt
#define curl_easy_getinfo   hb_curl_decl_easy_getinfo
#define curl_easy_strerror  hb_curl_decl_easy_strerror
#define curl_easy_escape    hb_curl_decl_easy_escape
#define curl_free           hb_curl_decl_free
#define curl_slist_append   hb_curl_decl_slist_append
#define curl_slist_free_all hb_curl_decl_slist_free_all
#define curl_getdate        hb_curl_decl_getdate
#define curl_url            hb_curl_decl_url
#define curl_url_cleanup    hb_curl_decl_url_cleanup
#define curl_url_set        hb_curl_decl_url_set
#define curl_url_get        hb_curl_decl_url_get
#define curl_url_strerror   hb_curl_decl_url_strerror
#include <curl/curl.h>
#undef curl_global_init
#undef curl_easy_init
#undef curl_easy_cleanup
#undef curl_easy_reset
#undef curl_easy_perform
#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_easy_strerror
#undef curl_easy_escape
#undef curl_free
#undef curl_slist_append
#undef curl_slist_free_all
#undef curl_getdate
#undef curl_url
#undef curl_url_cleanup
#undef curl_url_set
#undef curl_url_get
#undef curl_url_strerror

#include "core/dynload.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <time.h>

/* The library hbtab is built against (its soname, the same since libcurl 7.16); a test build
 * names one that is not there. */
#ifndef LIBCURL
#define LIBCURL "libcurl.so.4"
#endif

static struct {
	CURLcode (*global_init)(long);
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *);
	void (*easy_reset)(CURL *);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	const char *(*easy_strerror)(CURLcode);
	char *(*easy_escape)(CURL *, const char *, int);
	void (*free)(void *);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
	time_t (*getdate)(const char *, const time_t *);
	CURLU *(*url)(void);
	void (*url_cleanup)(CURLU *);
	CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
	CURLUcode (*url_get)(CURLU *, CURLUPart, char **, unsigned int);
	const char *(*url_strerror)(CURLUcode);
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;

static void load(void)
{
	void *h = dlopen(LIBCURL, RTLD_NOW | RTLD_LOCAL);

	loaded = h && hb_dl_find(h, "curl_global_init", &fn.global_init) &&
	         hb_dl_find(h, "curl_easy_init", &fn.easy_init) &&
	         hb_dl_find(h, "curl_easy_cleanup", &fn.easy_cleanup) &&
	         hb_dl_find(h, "curl_easy_reset", &fn.easy_reset) &&
	         hb_dl_find(h, "curl_easy_perform", &fn.easy_perform) &&
	         hb_dl_find(h, "curl_easy_setopt", &fn.easy_setopt) &&
	         hb_dl_find(h, "curl_easy_getinfo", &fn.easy_getinfo) &&
	         hb_dl_find(h, "curl_easy_strerror", &fn.easy_strerror) &&
	         hb_dl_find(h, "curl_easy_escape", &fn.easy_escape) &&
	         hb_dl_find(h, "curl_free", &fn.free) &&
	         hb_dl_find(h, "curl_slist_append", &fn.slist_append) &&
	         hb_dl_find(h, "curl_slist_free_all", &fn.slist_free_all) &&
	         hb_dl_find(h, "curl_getdate", &fn.getdate) && hb_dl_find(h, "curl_url", &fn.url) &&
	         hb_dl_find(h, "curl_url_cleanup", &fn.url_cleanup) &&
	         hb_dl_find(h, "curl_url_set", &fn.url_set) &&
	         hb_dl_find(h, "curl_url_get", &fn.url_get) &&
	         hb_dl_find(h, "curl_url_strerror", &fn.url_strerror);
}

static int ready(void)
{
	pthread_once(&once, load);
	return loaded;
}

CURLcode curl_global_init(long flags)
{
	return ready() ? fn.global_init(flags) : CURLE_FAILED_INIT;
}

CURL *curl_easy_init(void)
{
	return ready() ? fn.easy_init() : NULL;
}

void curl_easy_cleanup(CURL *h)
{
	if (h && ready())
		fn.easy_cleanup(h);
}

void curl_easy_reset(CURL *h)
{
	if (h && ready())
		fn.easy_reset(h);
}

CURLcode curl_easy_perform(CURL *h)
{
	return ready() ? fn.easy_perform(h) : CURLE_FAILED_INIT;
}

/* The option's number says what its argument is (curl.h's CURLOPTTYPE_ ranges). */
CURLcode curl_easy_setopt(CURL *h, CURLoption opt, ...)
{
	CURLcode rc;
	va_list ap;

	if (!ready())
		return CURLE_FAILED_INIT;
	va_start(ap, opt);
	if (opt < CURLOPTTYPE_OBJECTPOINT)
		rc = fn.easy_setopt(h, opt, va_arg(ap, long));
	else if (opt < CURLOPTTYPE_FUNCTIONPOINT)
		rc = fn.easy_setopt(h, opt, va_arg(ap, void *));
	else if (opt < CURLOPTTYPE_OFF_T)
		rc = fn.easy_setopt(h, opt, va_arg(ap, void (*)(void)));
	else if (opt < CURLOPTTYPE_BLOB)
		rc = fn.easy_setopt(h, opt, va_arg(ap, curl_off_t));
	else
		rc = fn.easy_setopt(h, opt, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

/* Every CURLINFO takes a pointer to where the answer goes. */
CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...)
{
	CURLcode rc;
	va_list ap;

	if (!ready())
		return CURLE_FAILED_INIT;
	va_start(ap, info);
	rc = fn.easy_getinfo(h, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

const char *curl_easy_strerror(CURLcode c)
{
	return ready() ? fn.easy_strerror(c) : "libcurl (" LIBCURL ") could not be loaded";
}

char *curl_easy_escape(CURL *h, const char *s, int n)
{
	return ready() ? fn.easy_escape(h, s, n) : NULL;
}

void curl_free(void *p)
{
	if (p && ready())
		fn.free(p);
}

struct curl_slist *curl_slist_append(struct curl_slist *l, const char *s)
{
	return ready() ? fn.slist_append(l, s) : NULL;
}

void curl_slist_free_all(struct curl_slist *l)
{
	if (l && ready())
		fn.slist_free_all(l);
}

time_t curl_getdate(const char *p, const time_t *unused)
{
	return ready() ? fn.getdate(p, unused) : (time_t)-1;
}

CURLU *curl_url(void)
{
	return ready() ? fn.url() : NULL;
}

void curl_url_cleanup(CURLU *u)
{
	if (u && ready())
		fn.url_cleanup(u);
}

CURLUcode curl_url_set(CURLU *u, CURLUPart what, const char *part, unsigned int flags)
{
	return ready() ? fn.url_set(u, what, part, flags) : CURLUE_OUT_OF_MEMORY;
}

CURLUcode curl_url_get(CURLU *u, CURLUPart what, char **part, unsigned int flags)
{
	return ready() ? fn.url_get(u, what, part, flags) : CURLUE_OUT_OF_MEMORY;
}

const char *curl_url_strerror(CURLUcode c)
{
	return ready() ? fn.url_strerror(c) : "libcurl (" LIBCURL ") could not be loaded";
}
