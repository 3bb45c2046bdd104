/* libcurl opened at its first call (rest/curlload.c): every kind of option argument reaches
 * libcurl as it was given, and answers come back through the pointers given. The build with a
 * library that is not there is tests/unit/curlload_absent.c. */
#include "test.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct got {
	char data[64];
	size_t n;
};

static size_t collect(char *p, size_t size, size_t n, void *ctx)
{
	struct got *g = ctx;
	size_t len = size * n;

	if (g->n + len > sizeof(g->data))
		return 0;
	memcpy(g->data + g->n, p, len);
	g->n += len;
	return len;
}

/* A file of the given text; its file:// URL in url. */
static void temp_file(char *url, size_t cap, const char *text)
{
	char path[] = "/tmp/hbtab-curlload-XXXXXX";
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK_EQ_INT((int)write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	snprintf(url, cap, "file://%s", path);
}

static void test_curlload__options_of_every_kind_reach_libcurl(void)
{
	char url[128];
	struct got g = {{0}, 0};
	curl_off_t size = -1;
	char *scheme = NULL;
	CURL *h;

	temp_file(url, sizeof(url), "twelve bytes");
	CHECK_EQ_INT(curl_global_init(CURL_GLOBAL_DEFAULT), CURLE_OK);
	h = curl_easy_init();
	CHECK(h != NULL);
	/* a string, a function, a pointer, a long and an off_t */
	CHECK_EQ_INT(curl_easy_setopt(h, CURLOPT_URL, url), CURLE_OK);
	CHECK_EQ_INT(curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect), CURLE_OK);
	CHECK_EQ_INT(curl_easy_setopt(h, CURLOPT_WRITEDATA, &g), CURLE_OK);
	CHECK_EQ_INT(curl_easy_setopt(h, CURLOPT_TIMEOUT, 30L), CURLE_OK);
	CHECK_EQ_INT(curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)100), CURLE_OK);
	CHECK_EQ_INT(curl_easy_perform(h), CURLE_OK);
	CHECK_EQ_INT((int)g.n, 12);
	CHECK(!memcmp(g.data, "twelve bytes", 12));
	CHECK_EQ_INT(curl_easy_getinfo(h, CURLINFO_SIZE_DOWNLOAD_T, &size), CURLE_OK);
	CHECK_EQ_INT((int)size, 12);
	CHECK_EQ_INT(curl_easy_getinfo(h, CURLINFO_SCHEME, &scheme), CURLE_OK);
	CHECK(scheme != NULL && !strcasecmp(scheme, "file"));
	/* the off_t arrives whole: a transfer resumed at byte 7 gets the rest */
	g.n = 0;
	CHECK_EQ_INT(curl_easy_setopt(h, CURLOPT_RESUME_FROM_LARGE, (curl_off_t)7), CURLE_OK);
	CHECK_EQ_INT(curl_easy_perform(h), CURLE_OK);
	CHECK_EQ_INT((int)g.n, 5);
	CHECK(!memcmp(g.data, "bytes", 5));
	curl_easy_cleanup(h);
	unlink(url + strlen("file://"));
}

static void test_curlload__lists_urls_and_escapes_go_through(void)
{
	struct curl_slist *l = curl_slist_append(NULL, "Accept: x");
	CURLU *u = curl_url();
	char *e = curl_easy_escape(NULL, "a b", 3), *host = NULL;

	CHECK(l != NULL && !strcmp(l->data, "Accept: x"));
	curl_slist_free_all(l);
	CHECK_EQ_STR(e, "a%20b");
	curl_free(e);
	CHECK(u != NULL);
	CHECK_EQ_INT(curl_url_set(u, CURLUPART_URL, "http://gw:8080/x", 0), CURLUE_OK);
	CHECK_EQ_INT(curl_url_get(u, CURLUPART_HOST, &host, 0), CURLUE_OK);
	CHECK_EQ_STR(host, "gw");
	curl_free(host);
	curl_url_cleanup(u);
	CHECK_EQ_INT((int)curl_getdate("Sun, 06 Nov 1994 08:49:37 GMT", NULL), 784111777);
	CHECK(strlen(curl_easy_strerror(CURLE_OK)) > 0);
}

int main(void)
{
	RUN(test_curlload__options_of_every_kind_reach_libcurl);
	RUN(test_curlload__lists_urls_and_escapes_go_through);
	return TEST_DONE();
}
