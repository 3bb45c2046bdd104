/* State files: where they go, their name per cluster and table, a binary-safe round trip,
 * the modes, and files that cannot be used. */
#include "rest/statefile.h"
#include "test.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char home[] = "/tmp/hbtab-statefile-XXXXXX";

static void cell(struct hb_row *r, const char *col, const void *val, size_t n)
{
	CHECK_EQ_INT(hb_row_add_cell(r, col, strlen(col), val, n, 1700000000000), 0);
}

static void metadata_row(struct hb_row *r)
{
	static const unsigned char odd[] = {0x00, 0xff, '\'', '\\', 'x', 0x7f};

	hb_row_init(r);
	r->key = (unsigned char *)strdup("totalPartition");
	r->key_len = strlen("totalPartition");
	cell(r, "cf:N", "64", 2);
	cell(r, "cf:keyspace", "hex{16}", 7);
	cell(r, "cf:rotate", "ev_%Y%m%d", 9);
	cell(r, "cf:binary", odd, sizeof(odd));
	cell(r, "cf:empty", "", 0);
}

static void test_statefile__directory_follows_xdg_state_home_else_home(void)
{
	struct hb_buf b = HB_BUF_INIT;
	struct hb_error err = {0};

	setenv("HOME", "/home/ops", 1);
	unsetenv("XDG_STATE_HOME");
	CHECK_EQ_INT(hb_statefile_dir(&b, &err), 0);
	CHECK_EQ_STR(hb_buf_str(&b), "/home/ops/.local/state/hbtab");
	hb_buf_reset(&b);
	setenv("XDG_STATE_HOME", "relative/dir", 1); /* not absolute: ignored, as the spec says */
	CHECK_EQ_INT(hb_statefile_dir(&b, &err), 0);
	CHECK_EQ_STR(hb_buf_str(&b), "/home/ops/.local/state/hbtab");
	hb_buf_reset(&b);
	setenv("XDG_STATE_HOME", "/var/lib/ops", 1);
	CHECK_EQ_INT(hb_statefile_dir(&b, &err), 0);
	CHECK_EQ_STR(hb_buf_str(&b), "/var/lib/ops/hbtab");
	hb_buf_reset(&b);
	unsetenv("XDG_STATE_HOME");
	unsetenv("HOME");
	CHECK_EQ_INT(hb_statefile_dir(&b, &err), HB_EINVAL);
	CHECK(strstr(err.msg, "XDG_STATE_HOME") != NULL);
	hb_buf_release(&b);
}

static void test_statefile__name_is_per_gateway_and_table(void)
{
	struct hb_buf a = HB_BUF_INIT, b = HB_BUF_INIT;
	struct hb_error err = {0};
	const char *p;

	setenv("XDG_STATE_HOME", "/s", 1);
	CHECK_EQ_INT(hb_statefile_path(&a, "truncate", "https://GW.example.com:8443/",
	                               "ns:events_user_clicks_20261128", &err),
	             0);
	p = hb_buf_str(&a);
	CHECK(!strncmp(p, "/s/hbtab/truncate-gw.example.com_8443-", 38));
	CHECK(strstr(p, "-ns.events_user_clicks_20261128.json") != NULL);
	/* the same gateway written otherwise is the same file */
	CHECK_EQ_INT(hb_statefile_path(&b, "truncate", "https://gw.example.com:8443",
	                               "ns:events_user_clicks_20261128", &err),
	             0);
	CHECK_EQ_STR(hb_buf_str(&b), p);
	/* a bare name is the default namespace's table */
	hb_buf_reset(&a);
	hb_buf_reset(&b);
	CHECK_EQ_INT(hb_statefile_path(&a, "truncate", "http://gw:8080", "t1", &err), 0);
	CHECK_EQ_INT(hb_statefile_path(&b, "truncate", "http://gw:8080", "default:t1", &err), 0);
	CHECK_EQ_STR(hb_buf_str(&a), hb_buf_str(&b));
	CHECK(strstr(hb_buf_str(&a), "-default.t1.json") != NULL);
	/* another gateway, another path (even a path prefix) is another file */
	hb_buf_reset(&b);
	CHECK_EQ_INT(hb_statefile_path(&b, "truncate", "http://gw:8080/hbase", "t1", &err), 0);
	CHECK(strcmp(hb_buf_str(&a), hb_buf_str(&b)) != 0);
	/* no '/' from the URL reaches the file name */
	CHECK(strchr(hb_buf_str(&b) + strlen("/s/hbtab/"), '/') == NULL);
	CHECK_EQ_INT(hb_statefile_path(&b, "truncate", "http://gw", "bad/name", &err), HB_EINVAL);
	hb_buf_release(&a);
	hb_buf_release(&b);
}

static void test_statefile__round_trip_keeps_every_byte_and_modes(void)
{
	struct hb_buf path = HB_BUF_INIT, dir = HB_BUF_INIT, text = HB_BUF_INIT;
	struct hb_error err = {0};
	struct hb_statefile s;
	struct hb_row row;
	struct stat st;
	int found = -1;

	setenv("XDG_STATE_HOME", home, 1);
	metadata_row(&row);
	hb_statefile_init(&s);
	CHECK_EQ_INT(hb_statefile_path(&path, "truncate", "http://gw:8080", "ns:ev_1", &err), 0);
	CHECK_EQ_INT(hb_statefile_load(hb_buf_str(&path), "truncate", "http://gw:8080", "ns:ev_1",
	                               &s, &found, &err),
	             0);
	CHECK_EQ_INT(found, 0);
	CHECK_EQ_INT(hb_statefile_save(hb_buf_str(&path), "truncate", "http://gw:8080", "ns:ev_1",
	                               &row, &err),
	             0);
	CHECK_EQ_INT(stat(hb_buf_str(&path), &st), 0);
	CHECK_EQ_INT(st.st_mode & 0777, 0600);
	hb_statefile_dir(&dir, &err);
	CHECK_EQ_INT(stat(hb_buf_str(&dir), &st), 0);
	CHECK_EQ_INT(st.st_mode & 0777, 0700);
	CHECK_EQ_INT(hb_statefile_load(hb_buf_str(&path), "truncate", "http://GW:8080/", "ns:ev_1",
	                               &s, &found, &err),
	             0);
	CHECK_EQ_INT(found, 1);
	CHECK(hb_row_same_cells(&s.row, &row));
	CHECK(hb_row_has_cells(&s.row, &row));
	CHECK_EQ_INT(s.row.key_len, row.key_len);
	CHECK(!memcmp(s.row.key, row.key, row.key_len));
	CHECK_EQ_STR(s.table, "ns:ev_1");
	CHECK_EQ_INT(s.pid, getpid());
	CHECK_EQ_INT(strlen(s.saved), 20);
	hb_statefile_release(&s);
	/* printable, every byte that is not shown as itself escaped */
	CHECK_EQ_INT(hb_row_describe(&text, &row), 0);
	CHECK_EQ_STR(hb_buf_str(&text), "cf:N='64' cf:keyspace='hex{16}' cf:rotate='ev_%Y%m%d' "
	                                "cf:binary='\\x00\\xFF\\x27\\x5Cx\\x7F' cf:empty=''");
	/* another table, another cluster: the file is not theirs */
	CHECK_EQ_INT(hb_statefile_load(hb_buf_str(&path), "truncate", "http://gw:8080", "ns:ev_2",
	                               &s, &found, &err),
	             HB_EINVAL);
	CHECK(strstr(err.msg, "another table") != NULL);
	CHECK_EQ_INT(hb_statefile_load(hb_buf_str(&path), "truncate", "http://gw2:8080", "ns:ev_1",
	                               &s, &found, &err),
	             HB_EINVAL);
	CHECK_EQ_INT(hb_statefile_remove(hb_buf_str(&path), &err), 0);
	CHECK_EQ_INT(access(hb_buf_str(&path), F_OK), -1);
	CHECK_EQ_INT(hb_statefile_remove(hb_buf_str(&path), &err), 0); /* gone is fine */
	hb_row_release(&row);
	hb_buf_release(&path);
	hb_buf_release(&dir);
	hb_buf_release(&text);
}

static void test_statefile__a_damaged_file_is_an_error_naming_it(void)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_error err = {0};
	struct hb_statefile s;
	struct hb_row row;
	FILE *f;
	int found = 0;

	setenv("XDG_STATE_HOME", home, 1);
	hb_statefile_init(&s);
	metadata_row(&row);
	CHECK_EQ_INT(hb_statefile_path(&path, "truncate", "http://gw", "t9", &err), 0);
	CHECK_EQ_INT(
	    hb_statefile_save(hb_buf_str(&path), "truncate", "http://gw", "t9", &row, &err), 0);
	hb_row_release(&row);
	f = fopen(hb_buf_str(&path), "w");
	CHECK(f != NULL);
	if (f) {
		fputs("{\"cluster\": \"http://gw\", \"tab", f);
		fclose(f);
	}
	CHECK_EQ_INT(
	    hb_statefile_load(hb_buf_str(&path), "truncate", "http://gw", "t9", &s, &found, &err),
	    HB_EINVAL);
	CHECK_EQ_INT(found, 1);
	CHECK(strstr(err.msg, hb_buf_str(&path)) != NULL);
	CHECK(strstr(err.msg, "not JSON") != NULL);
	hb_statefile_remove(hb_buf_str(&path), &err);
	hb_buf_release(&path);
}

static void test_statefile__an_unwritable_directory_leaves_nothing(void)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_error err = {0};
	struct hb_row row;
	char blocker[300];
	FILE *f;

	snprintf(blocker, sizeof(blocker), "%s/file", home);
	f = fopen(blocker, "w"); /* a file where the state directory's parent should be */
	CHECK(f != NULL);
	if (f)
		fclose(f);
	setenv("XDG_STATE_HOME", blocker, 1);
	metadata_row(&row);
	CHECK_EQ_INT(hb_statefile_path(&path, "truncate", "http://gw", "t1", &err), 0);
	CHECK_EQ_INT(
	    hb_statefile_save(hb_buf_str(&path), "truncate", "http://gw", "t1", &row, &err),
	    HB_EINVAL);
	CHECK(strstr(err.msg, "state directory") != NULL);
	unlink(blocker);
	hb_row_release(&row);
	hb_buf_release(&path);
}

int main(void)
{
	if (!mkdtemp(home))
		return 1;
	RUN(test_statefile__directory_follows_xdg_state_home_else_home);
	RUN(test_statefile__name_is_per_gateway_and_table);
	RUN(test_statefile__round_trip_keeps_every_byte_and_modes);
	RUN(test_statefile__a_damaged_file_is_an_error_naming_it);
	RUN(test_statefile__an_unwritable_directory_leaves_nothing);
	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", home);
		if (system(cmd))
			return 1;
	}
	return TEST_DONE();
}
