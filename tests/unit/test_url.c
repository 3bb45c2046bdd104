/* Server URLs read with libcurl's URL API, and path segments escaped with curl_easy_escape. */
#include "rest/curlx.h"
#include "rest/rest.h"
#include "test.h"

/* The URL as hb_curlx_server_url gives it back, or "ERR: message". */
static const char *server_url(const char *url)
{
	static char out[HB_ERRMSG_MAX + 64];
	struct hb_error err = {0};
	char *u = NULL;
	int rc = hb_curlx_server_url(&u, url, "REST", &err);

	if (rc)
		snprintf(out, sizeof(out), "ERR %d: %s", rc, err.msg);
	else
		snprintf(out, sizeof(out), "%s", u);
	free(u);
	return out;
}

static void test_url__scheme_in_any_case_comes_back_lower_case(void)
{
	CHECK_EQ_STR(server_url("HTTP://Host:8080"), "http://Host:8080/");
	CHECK_EQ_STR(server_url("hTtPs://gw.example:8443/hbase/"),
	             "https://gw.example:8443/hbase/");
	CHECK_EQ_STR(server_url("http://[::1]:8080"), "http://[::1]:8080/");
	/* a path prefix and a query are kept as given */
	CHECK_EQ_STR(server_url("http://h/a?b"), "http://h/a?b");
}

static void test_url__other_schemes_credentials_and_no_host_are_refused(void)
{
	static const struct {
		const char *url, *msg;
	} bad[] = {
	    {"", "ERR -2: invalid REST URL '': expected http://HOST:PORT or https://HOST:PORT"},
	    {"h:8080", "ERR -2: invalid REST URL 'h:8080': expected"},
	    {"ftp://h/", "ERR -2: invalid REST URL 'ftp://h/': expected"},
	    {"http://u:pw@h/", "ERR -2: credentials in the REST URL are not allowed"},
	    {"http://@h/", "ERR -2: credentials in the REST URL are not allowed"},
	    {"http:///x", "ERR -2: REST URL without a host"},
	    {"http://h:99999/", "ERR -2: invalid REST URL 'http://h:99999/': "},
	    {"http://u:pw@[::1", "ERR -2: invalid REST URL '(not shown: it has an '@')': "},
	};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(bad); i++) {
		const char *got = server_url(bad[i].url);

		if (strncmp(got, bad[i].msg, strlen(bad[i].msg)))
			fprintf(stderr, "'%s': %s\n", bad[i].url, got);
		CHECK(!strncmp(got, bad[i].msg, strlen(bad[i].msg)));
		CHECK(!strstr(got, "pw"));
	}
}

static void test_url__path_segments_escape_every_byte_but_unreserved_ones(void)
{
	struct hb_buf b = HB_BUF_INIT;

	CHECK_EQ_INT(hb_rest_path_escape(&b, "ns:t-1_a.b~", 11), 0);
	CHECK_EQ_STR(hb_buf_str(&b), "ns%3At-1_a.b~");
	hb_buf_reset(&b);
	/* binary keys: a NUL byte is escaped, not the end of the key */
	CHECK_EQ_INT(hb_rest_path_escape(&b, "a b\0c/\xc3\xa9\xff", 9), 0);
	CHECK_EQ_STR(hb_buf_str(&b), "a%20b%00c%2F%C3%A9%FF");
	hb_buf_reset(&b);
	CHECK_EQ_INT(hb_rest_path_escape(&b, "", 0), 0);
	CHECK_EQ_STR(hb_buf_str(&b), "");
	CHECK_EQ_INT(b.len, 0);
	hb_buf_release(&b);
}

static void test_url__the_host_is_what_a_netrc_entry_names(void)
{
	char h[64];

	CHECK_EQ_INT(hb_curlx_url_host(h, sizeof(h), "https://GW.example:8443/hbase"), 0);
	CHECK_EQ_STR(h, "GW.example"); /* matched case-insensitively */
	CHECK_EQ_INT(hb_curlx_url_host(h, sizeof(h), "http://[::1]:8080"), 0);
	CHECK_EQ_STR(h, "::1");
	CHECK_EQ_INT(hb_curlx_url_host(h, sizeof(h), "http://127.0.0.1:8080/"), 0);
	CHECK_EQ_STR(h, "127.0.0.1");
	CHECK_EQ_INT(hb_curlx_url_host(h, 4, "http://longer-host:1"), -1);
	CHECK_EQ_INT(hb_curlx_url_host(h, sizeof(h), "not a url"), -1);
}

int main(void)
{
	RUN(test_url__scheme_in_any_case_comes_back_lower_case);
	RUN(test_url__other_schemes_credentials_and_no_host_are_refused);
	RUN(test_url__path_segments_escape_every_byte_but_unreserved_ones);
	RUN(test_url__the_host_is_what_a_netrc_entry_names);
	return TEST_DONE();
}
