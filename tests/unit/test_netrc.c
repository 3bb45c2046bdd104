/* ~/.netrc entries as libcurl reads them: machine or default, login, password, quoting. */
#include "core/netrc.h"
#include "test.h"

static struct hb_buf login, pw;

static int look(const char *text, const char *host, const char *user)
{
	hb_buf_reset(&login);
	hb_buf_reset(&pw);
	return hb_netrc_lookup(text, strlen(text), host, user, &login, &pw);
}

static void test_netrc__the_entry_for_the_host_and_login_is_chosen(void)
{
	const char *t = "machine gw login bob password b1\n"
	                "machine other login alice password o1\n"
	                "machine GW login alice password a1\n";

	CHECK_EQ_INT(look(t, "gw", "alice"), 1);
	CHECK_EQ_STR(hb_buf_str(&pw), "a1");
	CHECK_EQ_INT(look(t, "gw", NULL), 1); /* without --user: the first entry for the host */
	CHECK_EQ_STR(hb_buf_str(&login), "bob");
	CHECK_EQ_STR(hb_buf_str(&pw), "b1");
	CHECK_EQ_INT(look(t, "gw", "carol"), 0);
	CHECK_EQ_INT(look(t, "nowhere", "alice"), 0);
}

static void test_netrc__default_matches_any_host_and_entries_may_share_a_line(void)
{
	const char *t = "machine a login u password p1 default login u password d1";

	CHECK_EQ_INT(look(t, "a", "u"), 1);
	CHECK_EQ_STR(hb_buf_str(&pw), "p1");
	CHECK_EQ_INT(look(t, "b", "u"), 1);
	CHECK_EQ_STR(hb_buf_str(&pw), "d1");
}

static void test_netrc__quoted_tokens_and_macros(void)
{
	const char *t = "macdef init\ncd /machine x login u password wrong\n\n"
	                "machine h login \"u s\" password \"p \\\"q\\\"\" account z\n";

	CHECK_EQ_INT(look(t, "x", "u"), 0); /* inside the macro: not an entry */
	CHECK_EQ_INT(look(t, "h", "u s"), 1);
	CHECK_EQ_STR(hb_buf_str(&pw), "p \"q\"");
}

static void test_netrc__an_entry_without_a_password_or_a_cut_file_is_no_match(void)
{
	CHECK_EQ_INT(look("machine h login u", "h", "u"), 0);
	CHECK_EQ_INT(look("machine h login u password", "h", "u"), 0);
	CHECK_EQ_INT(look("machine", "h", NULL), 0);
	CHECK_EQ_INT(look("", "h", NULL), 0);
}

int main(void)
{
	RUN(test_netrc__the_entry_for_the_host_and_login_is_chosen);
	RUN(test_netrc__default_matches_any_host_and_entries_may_share_a_line);
	RUN(test_netrc__quoted_tokens_and_macros);
	RUN(test_netrc__an_entry_without_a_password_or_a_cut_file_is_no_match);
	hb_buf_release(&login);
	hb_buf_release(&pw);
	return TEST_DONE();
}
