/* Config files: the input is written to a file named by HBTAB_CONFIG and resolved as hbtab
 * does at start-up (cli_config_resolve), with and without a profile chosen by the first byte.
 * A resolved configuration has valid settings; a refused one leaves a message on stderr. */
#include "../../cli/cli.h"
#include "../../cli/config.h"
#include "fuzz.h"

#include <unistd.h>

static char path[] = "/tmp/hbtab-fuzz-config.XXXXXX";
static int fd = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const vars[] = {
	    "HBTAB_REST",     "HBTAB_THRIFT",      "HBTAB_OUTPUT",    "HBTAB_TIMEOUT",
	    "HBTAB_RETRIES",  "HBTAB_CACERT",      "HBTAB_CERT",      "HBTAB_KEY",
	    "HBTAB_INSECURE", "HBTAB_USER",        "HBTAB_NEGOTIATE", "HBTAB_HBASE_SHELL",
	    "HBTAB_COLOR",    "HBTAB_NO_PROGRESS", "HBTAB_PROFILE"};
	size_t i;

	(void)argc;
	(void)argv;
	fd = mkstemp(path);
	if (fd < 0)
		abort();
	unlink(path); /* reopened through /proc/self/fd: nothing is left behind */
	for (i = 0; i < HB_ARRAY_LEN(vars); i++)
		unsetenv(vars[i]);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char fdpath[64];
	int rc;

	if (!size)
		return 0;
	if (ftruncate(fd, 0) || pwrite(fd, data + 1, size - 1, 0) != (ssize_t)(size - 1))
		abort();
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	setenv("HBTAB_CONFIG", fdpath, 1);
	memset(&cli_g, 0, sizeof(cli_g));
	cli_g.profile = data[0] & 1 ? "prod" : NULL;
	rc = cli_config_resolve("fuzz");
	FUZZ_CHECK(rc == 0 || rc == HB_EINVAL);
	if (!rc) {
		FUZZ_CHECK(cli_g.rest_url && cli_g.hbase_shell);
		FUZZ_CHECK(cli_g.timeout > 0 && cli_g.timeout <= 86400);
		FUZZ_CHECK(cli_g.retries >= 0 && cli_g.retries <= 100);
		FUZZ_CHECK(cli_g.output == CLI_OUT_TEXT || cli_g.output == CLI_OUT_JSON);
		FUZZ_CHECK((cli_g.cert != NULL) == (cli_g.key != NULL));
	}
	return 0;
}
