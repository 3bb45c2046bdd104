/* The split specification: the metadata row's text written, read back the same, and rows
 * written by earlier hbtab releases read as they were meant. */
#include "core/splitspec.h"
#include "test.h"

static struct hb_error err;

/* Writes s, reads the text back, and writes that again: both texts must be want. */
static void round_trip(const struct hb_splitspec *s, const char *want)
{
	struct hb_buf a = HB_BUF_INIT, b = HB_BUF_INIT, words = HB_BUF_INIT;
	struct hb_splitspec back;

	CHECK_EQ_INT(hb_splitspec_write(&a, s, &err), 0);
	CHECK_EQ_INT(hb_buf_add(&a, "", 0), 0);
	CHECK_EQ_STR(a.data, want);
	CHECK_EQ_INT(hb_splitspec_read(&back, &words, a.data), 0);
	CHECK_EQ_INT(hb_splitspec_check(&back, NULL, &err), 0);
	CHECK_EQ_INT(hb_splitspec_write(&b, &back, &err), 0);
	CHECK_EQ_INT(hb_buf_add(&b, "", 0), 0);
	CHECK_EQ_STR(b.data, want);
	hb_buf_release(&a);
	hb_buf_release(&b);
	hb_buf_release(&words);
}

static void test_splitspec__every_form_round_trips_through_the_recorded_text(void)
{
	struct hb_splitspec s;

	memset(&s, 0, sizeof(s));
	s.hex = "10";
	s.first = "00";
	s.last = "ff";
	round_trip(&s, "--hex-splits 10 --first 00 --last ff");
	memset(&s, 0, sizeof(s));
	s.decimal = "4";
	round_trip(&s, "--decimal-splits 4");
	memset(&s, 0, sizeof(s));
	s.uniform = "8";
	s.first = "a b";
	s.last = "it's";
	round_trip(&s, "--uniform-splits 8 --first 'a b' --last 'it'\\''s'");
	memset(&s, 0, sizeof(s));
	s.range = "5";
	s.start = "\\x00user";
	s.end = "user\\xFF";
	round_trip(&s, "--range-splits 5 --start '\\x00user' --end 'user\\xFF'");
	memset(&s, 0, sizeof(s));
	s.book_hex = "6";
	s.start = "0000";
	s.end = "ffff";
	round_trip(&s, "--book-hex-splits 6 --start 0000 --end ffff");
	memset(&s, 0, sizeof(s));
	s.partition = "20";
	round_trip(&s, "--partition-splits 20");
	memset(&s, 0, sizeof(s));
	s.salt = "16";
	round_trip(&s, "--salt-splits 16 --salt-width 1");
	s.salt = "300";
	s.salt_width = "2";
	round_trip(&s, "--salt-splits 300 --salt-width 2");
	memset(&s, 0, sizeof(s));
	s.sampled = "12";
	s.generator = "md5";
	round_trip(&s, "--sampled-splits 12 --generator md5 --sample-size 1000000 --seed 0 "
	               "--start-time 0");
	s.generator = "partition:8";
	s.sample_size = "5000";
	s.seed = "-42";
	s.start_time = "1700000000000";
	round_trip(&s, "--sampled-splits 12 --generator partition:8 --sample-size 5000 --seed -42 "
	               "--start-time 1700000000000");
	memset(&s, 0, sizeof(s));
	s.sampled = "7";
	s.sample_file = "/srv/keys/clicks sample.txt";
	round_trip(&s, "--sampled-splits 7 --sample-file '/srv/keys/clicks sample.txt'");
	memset(&s, 0, sizeof(s));
	s.sampled = "9";
	s.sample_table = "ns:events_user_clicks_20261127";
	round_trip(&s, "--sampled-splits 9 --sample-table ns:events_user_clicks_20261127 "
	               "--sample-rows 10000");
	memset(&s, 0, sizeof(s));
	s.splits_file = "/srv/splits/events.txt";
	round_trip(&s, "--splits-file /srv/splits/events.txt");
}

static void test_splitspec__n_auto_is_recorded_resolved(void)
{
	struct hb_splitspec s;
	struct hb_buf t = HB_BUF_INIT;

	memset(&s, 0, sizeof(s));
	s.hex = "auto";
	s.regions_per_server = "3";
	CHECK(hb_splitspec_is_auto(&s));
	CHECK_EQ_INT(hb_splitspec_write(&t, &s, &err), HB_EINVAL);
	CHECK_EQ_STR(err.msg, "--hex-splits auto needs the cluster's live region servers (this "
	                      "command does not read them)");
	s.live_servers = 4;
	round_trip(&s, "--hex-splits 12");
	hb_buf_release(&t);
}

/* Texts as the writer in cli/ wrote them into the metadata row before the model moved to
 * core (each one the output of that build's `hbtab splits --describe`). */
static const char *const old_rows[] = {
    "--hex-splits 16 --first 0 --last f",
    "--partition-splits 32",
    "--salt-splits 256 --salt-width 1",
    "--salt-splits 1000 --salt-width 2",
    "--sampled-splits 10 --generator md5 --sample-size 1000000 --seed 7 --start-time 0",
    "--sampled-splits 4 --sample-table ns:events_user_clicks_20261127 --sample-rows 500",
    "--range-splits 3 --start 'a b' --end 'z\\x00'",
    "--splits-file '/tmp/my splits.txt'",
};

static void test_splitspec__rows_written_by_earlier_releases_read_back(void)
{
	static const enum hb_split_algo algo[] = {
	    HB_SPLIT_HEX,     HB_SPLIT_PARTITION, HB_SPLIT_SALT,  HB_SPLIT_SALT,
	    HB_SPLIT_SAMPLED, HB_SPLIT_SAMPLED,   HB_SPLIT_RANGE, HB_SPLIT_FILE};
	static const unsigned long long n[] = {16, 32, 256, 1000, 10, 4, 3, 0};
	static const int width[] = {1, 1, 1, 2, 1, 1, 1, 1};
	struct hb_buf words = HB_BUF_INIT, again = HB_BUF_INIT;
	struct hb_splitspec_design d;
	struct hb_splitspec s;
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(old_rows); i++) {
		CHECK_EQ_INT(hb_splitspec_design(old_rows[i], &d), 0);
		CHECK_EQ_INT(d.algo, algo[i]);
		CHECK_EQ_INT(d.n, n[i]);
		CHECK_EQ_INT(d.salt_width, width[i]);
		/* and written again byte for byte */
		CHECK_EQ_INT(hb_splitspec_read(&s, &words, old_rows[i]), 0);
		hb_buf_reset(&again);
		CHECK_EQ_INT(hb_splitspec_write(&again, &s, &err), 0);
		CHECK_EQ_INT(hb_buf_add(&again, "", 0), 0);
		CHECK_EQ_STR(again.data, old_rows[i]);
	}
	CHECK_EQ_STR(s.splits_file, "/tmp/my splits.txt");
	hb_buf_release(&words);
	hb_buf_release(&again);
}

static void test_splitspec__a_text_that_is_no_specification_names_no_design(void)
{
	struct hb_splitspec_design d;
	struct hb_splitspec s;
	struct hb_buf words = HB_BUF_INIT;

	CHECK_EQ_INT(hb_splitspec_design(NULL, &d), -1);
	CHECK_EQ_INT(d.algo, HB_SPLIT_NONE);
	CHECK_EQ_INT(hb_splitspec_design("", &d), -1);
	CHECK_EQ_INT(hb_splitspec_design("created by hand", &d), -1);
	CHECK_EQ_INT(hb_splitspec_design("--salt-splits", &d), -1);
	CHECK_EQ_INT(hb_splitspec_design("--salt-splits 8 --table-name t", &d), -1);
	/* a value that is no whole number keeps the algorithm, not an N */
	CHECK_EQ_INT(hb_splitspec_design("--salt-splits 16x", &d), 0);
	CHECK_EQ_INT(d.algo, HB_SPLIT_SALT);
	CHECK_EQ_INT(d.n, 0);
	/* N = auto's K is a flag of the command line, never of a recorded text */
	CHECK_EQ_INT(hb_splitspec_read(&s, &words, "--hex-splits auto --regions-per-server 2"), -1);
	hb_buf_release(&words);
}

static void test_splitspec__a_new_n_replaces_the_recorded_one(void)
{
	struct hb_buf words = HB_BUF_INIT, t = HB_BUF_INIT;
	struct hb_splitspec s;
	char num[32];

	CHECK_EQ_INT(hb_splitspec_read(&s, &words, "--salt-splits 16 --salt-width 2"), 0);
	CHECK(hb_splitspec_n_field(&s) == &s.salt);
	CHECK_EQ_INT(hb_splitspec_with_n(&s, 64, num, sizeof(num)), 0);
	CHECK_EQ_INT(hb_splitspec_write(&t, &s, &err), 0);
	CHECK_EQ_INT(hb_buf_add(&t, "", 0), 0);
	CHECK_EQ_STR(t.data, "--salt-splits 64 --salt-width 2");
	CHECK_EQ_INT(hb_splitspec_read(&s, &words, "--splits-file /srv/s.txt"), 0);
	CHECK(hb_splitspec_n_field(&s) == NULL);
	CHECK_EQ_INT(hb_splitspec_with_n(&s, 64, num, sizeof(num)), -1);
	hb_buf_release(&words);
	hb_buf_release(&t);
}

static void test_splitspec__bad_combinations_name_the_flags(void)
{
	struct hb_splitspec s;

	memset(&s, 0, sizeof(s));
	CHECK_EQ_INT(hb_splitspec_check(&s, NULL, &err), HB_EINVAL);
	s.hex = "4";
	s.salt = "4";
	CHECK_EQ_INT(hb_splitspec_check(&s, NULL, &err), HB_EINVAL);
	CHECK_EQ_STR(err.msg, "--hex-splits and --salt-splits cannot be used together");
	s.salt = NULL;
	s.salt_width = "2";
	CHECK_EQ_INT(hb_splitspec_check(&s, NULL, &err), HB_EINVAL);
	CHECK_EQ_STR(err.msg,
	             "--salt-width cannot be used with --hex-splits (it goes with --salt-splits)");
}

int main(void)
{
	RUN(test_splitspec__every_form_round_trips_through_the_recorded_text);
	RUN(test_splitspec__n_auto_is_recorded_resolved);
	RUN(test_splitspec__rows_written_by_earlier_releases_read_back);
	RUN(test_splitspec__a_text_that_is_no_specification_names_no_design);
	RUN(test_splitspec__a_new_n_replaces_the_recorded_one);
	RUN(test_splitspec__bad_combinations_name_the_flags);
	return TEST_DONE();
}
