/* rest/curlload.c built to open a library that is not there: every call fails as libcurl does
 * when it cannot start, and the messages say the library could not be loaded. */
#include "test.h"

#include <curl/curl.h>
#include <string.h>

static void test_curlload_absent__every_call_fails_and_says_why(void)
{
	char *host = NULL;

	CHECK_EQ_INT(curl_global_init(CURL_GLOBAL_DEFAULT), CURLE_FAILED_INIT);
	CHECK(strstr(curl_easy_strerror(CURLE_FAILED_INIT), "could not be loaded") != NULL);
	CHECK(strstr(curl_url_strerror(CURLUE_OUT_OF_MEMORY), "could not be loaded") != NULL);
	CHECK(curl_easy_init() == NULL);
	CHECK(curl_url() == NULL);
	CHECK(curl_slist_append(NULL, "x") == NULL);
	CHECK(curl_easy_escape(NULL, "a", 1) == NULL);
	CHECK_EQ_INT(curl_url_get(NULL, CURLUPART_HOST, &host, 0), CURLUE_OUT_OF_MEMORY);
	CHECK_EQ_INT((int)curl_getdate("Sun, 06 Nov 1994 08:49:37 GMT", NULL), -1);
	/* releasing nothing is harmless */
	curl_easy_cleanup(NULL);
	curl_slist_free_all(NULL);
	curl_free(NULL);
}

int main(void)
{
	RUN(test_curlload_absent__every_call_fails_and_says_why);
	return TEST_DONE();
}
