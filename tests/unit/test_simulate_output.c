/* hbtab simulate's report, byte for byte, for several key designs, thread counts and a split
 * policy: the text the binary printed before keys were made in batches, the sample sorted by
 * radix and the writes routed by prefix (tests/unit/data/simulate/NAME.txt). */
#define _POSIX_C_SOURCE 200809L
#include "core/buf.h"
#include "core/hb.h"
#include "test.h"

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 24

static const struct {
	const char *name; /* expected output: tests/unit/data/simulate/NAME.txt */
	const char *args[MAX_ARGS];
} cases[] = {
    {"md5_sampled",
     {"--sampled-splits", "10", "--generator", "md5", "--sample-size", "100000", "--count",
      "300000", "--threads", "1", NULL}},
    {"md5_sampled",
     {"--sampled-splits", "10", "--generator", "md5", "--sample-size", "100000", "--count",
      "300000", "--threads", "3", NULL}},
    {"md5_seeded",
     {"--sampled-splits", "7", "--generator", "md5", "--seed", "42", "--start-time",
      "1700000000000", "--sample-size", "50000", "--count", "250000", "--threads", "2", NULL}},
    {"md5_hex",
     {"--hex-splits", "16", "--generator", "hash", "--seed", "-5", "--count", "200001", "--threads",
      "2", NULL}},
    {"partition",
     {"--sampled-splits", "8", "--generator", "partition:20", "--sample-size", "40000", "--count",
      "150000", NULL}},
    {"sequential",
     {"--uniform-splits", "5", "--generator", "sequential", "--count", "100000", "--threads", "2",
      NULL}},
    {"hex8",
     {"--sampled-splits", "12", "--generator", "hex8", "--seed", "7", "--sample-size", "60000",
      "--count", "200000", "--threads", "2", NULL}},
    {"salt",
     {"--salt-splits", "16", "--generator", "salt:16", "--count", "200000", "--threads", "2",
      NULL}},
    {"salt_wide",
     {"--sampled-splits", "9", "--generator", "salt:1000", "--sample-size", "30000", "--count",
      "120000", NULL}},
    {"roundrobin",
     {"--sampled-splits", "6", "--generator", "roundrobin:300", "--sample-size", "20000", "--count",
      "100000", NULL}},
    {"transaction",
     {"--sampled-splits", "10", "--generator", "transaction", "--seed", "3", "--sample-size",
      "50000", "--count", "150000", "--threads", "2", NULL}},
    {"statistics",
     {"--sampled-splits", "5", "--generator", "statistics:700", "--sample-size", "20000", "--count",
      "100000", NULL}},
    {"md5_policy",
     {"--sampled-splits", "4", "--generator", "md5", "--sample-size", "20000", "--count", "200000",
      "--policy", "increasing", "--row-size", "4K", "--flush-size", "1M", "--max-filesize", "16M",
      NULL}},
};

/* Reads the whole of fd into out; 0 or -1. */
static int read_all(struct hb_buf *out, int fd)
{
	char b[65536];

	for (;;) {
		ssize_t n = read(fd, b, sizeof(b));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return 0;
		if (hb_buf_add(out, b, (size_t)n))
			return -1;
	}
}

/* Runs bin --no-progress simulate ARGS with a clean environment and home; its stdout in out,
 * its exit status returned (-1 when it could not run). */
static int run_simulate(struct hb_buf *out, const char *bin, const char *home,
                        const char *const *args)
{
	const char *argv[MAX_ARGS + 4];
	char env_home[4200];
	char *envp[] = {env_home, "PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
	int fds[2], st = 0;
	size_t i, n = 0;
	pid_t pid;

	snprintf(env_home, sizeof(env_home), "HOME=%s", home);
	argv[n++] = bin;
	argv[n++] = "--no-progress";
	argv[n++] = "simulate";
	for (i = 0; args[i]; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execve(bin, (char *const *)argv, envp);
		_exit(127);
	}
	close(fds[1]);
	if (read_all(out, fds[0]))
		st = -1;
	close(fds[0]);
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int read_file(struct hb_buf *out, const char *path)
{
	FILE *f = fopen(path, "rb");
	char b[65536];
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(b, 1, sizeof(b), f)) > 0)
		if (hb_buf_add(out, b, n)) {
			fclose(f);
			return -1;
		}
	fclose(f);
	return 0;
}

static void test_simulate_output__reports_are_those_of_before_byte_for_byte(void)
{
	const char *bin = getenv("HBTAB_BIN"), *src = getenv("HBTAB_SRC");
	char home[] = "/tmp/hbtab-simout-XXXXXX", path[4200];
	size_t i;

	CHECK(bin && src);
	if (!bin || !src || !mkdtemp(home)) {
		CHECK(!"HBTAB_BIN and HBTAB_SRC set, a temporary home made");
		return;
	}
	for (i = 0; i < HB_ARRAY_LEN(cases); i++) {
		struct hb_buf got = HB_BUF_INIT, want = HB_BUF_INIT;

		snprintf(path, sizeof(path), "%s/tests/unit/data/simulate/%s.txt", src,
		         cases[i].name);
		CHECK_EQ_INT(read_file(&want, path), 0);
		CHECK_EQ_INT(run_simulate(&got, bin, home, cases[i].args), 0);
		CHECK(got.len == want.len && (!got.len || !memcmp(got.data, want.data, got.len)));
		if (got.len != want.len || (got.len && memcmp(got.data, want.data, got.len)))
			fprintf(stderr, "%s: the report differs from %s\n", cases[i].name, path);
		hb_buf_release(&got);
		hb_buf_release(&want);
	}
	rmdir(home);
}

int main(void)
{
	RUN(test_simulate_output__reports_are_those_of_before_byte_for_byte);
	return TEST_DONE();
}
