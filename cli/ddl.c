/* The DDL channels of `create` on the command line: choosing one from --via and the settings,
 * the channel as a value (Thrift2 server, shell command, timeout), and '--via print'. What is
 * sent is core/ddlscript.c's; the calls and their outcomes are rest/channel.c's and
 * rest/ddl.c's. */
#include "ddl.h"

#include "../core/ddlscript.h"
#include "../rest/shellrun.h"
#include "cli.h"
#include "output.h"
#include "rest_cli.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- channels */

static const char *const via_names[] = {"thrift2", "shell", "rest", "print", "none"};

const char *cli_via_name(enum cli_via via)
{
	return via_names[via];
}

const char *cli_ddl_shell_command(void)
{
	return cli_g.hbase_shell ? cli_g.hbase_shell : "hbase shell -n";
}

int cli_ddl_shell_available(void)
{
	struct hb_argv av;
	struct hb_error err = {0};
	int found;

	if (hb_argv_split(&av, cli_ddl_shell_command(), &err)) {
		cli_fail(&err);
		return -1;
	}
	found = hb_shell_command_found(av.v[0]);
	hb_argv_release(&av);
	return found;
}

int cli_ddl_pick(enum cli_via *out, const char *via, size_t n)
{
	int thrift = cli_g.thrift_url && *cli_g.thrift_url;

	if (!via || !strcmp(via, "auto")) {
		int sh = thrift ? 0 : cli_ddl_shell_available();

		if (sh < 0)
			return HB_EINVAL;
		if (thrift)
			*out = CLI_VIA_THRIFT2;
		else if (sh)
			*out = CLI_VIA_SHELL;
		else if (n == 1)
			*out = CLI_VIA_REST;
		else
			*out = CLI_VIA_NONE; /* a table made from '--via print' is adopted */
		return 0;
	}
	if (!strcmp(via, "thrift2"))
		*out = CLI_VIA_THRIFT2;
	else if (!strcmp(via, "shell"))
		*out = CLI_VIA_SHELL;
	else if (!strcmp(via, "rest"))
		*out = CLI_VIA_REST;
	else if (!strcmp(via, "print"))
		*out = CLI_VIA_PRINT;
	else
		return cli_usage_error("create",
		                       "invalid --via '%s' (expected auto, thrift2, "
		                       "shell, rest or print)",
		                       via);
	if (*out == CLI_VIA_THRIFT2 && !thrift) {
		cli_error("--via thrift2 needs the Thrift2 server's URL (--thrift URL, "
		          "HBTAB_THRIFT or the config file)");
		return HB_EINVAL;
	}
	if (*out == CLI_VIA_REST && n > 1) {
		cli_error("--via rest cannot create %zu regions: the REST gateway's schema "
		          "resource always creates a single region and no REST resource splits",
		          n);
		cli_error("use '--via thrift2' (HBase >= 2.2 with --thrift URL), '--via shell', "
		          "or '--via print' for a script to run in 'hbase shell'");
		return HB_EINVAL;
	}
	return 0;
}

int cli_ddl_print(const struct hb_schema *s, const struct hb_keys *splits, int default_family)
{
	struct hb_error err = {0}; /* what fails here is memory or stdout, which is reported */
	struct hb_buf out = HB_BUF_INIT;
	int rc;

	if (cli_g.output == CLI_OUT_JSON) {
		rc = hb_ddlscript_json_plan(&out, s, splits);
		/* the plan is one object: the default-family flag goes in before its end */
		if (!rc && out.len >= 2 && !memcmp(out.data + out.len - 2, "}\n", 2)) {
			out.len -= 2;
			rc = hb_buf_addf(&out, ",\"default_family\":%s}\n",
			                 default_family ? "true" : "false");
		}
	} else {
		rc = default_family && s->nfamilies
		         ? hb_buf_addf(
		               &out, "# column family '%s': the default (--family names others)\n",
		               s->families[0].name)
		         : 0;
		if (!rc)
			rc = hb_ddlscript_shell_script(&out, s, splits, NULL);
	}
	if (!rc)
		rc = cli_write_stdout(out.data, out.len);
	hb_buf_release(&out);
	return cli_status(rc, &err, 0);
}

void cli_ddl_channel(struct hb_ddl_channel *out, enum cli_via via)
{
	static const enum hb_ddl_via to[] = {HB_DDL_VIA_THRIFT2, HB_DDL_VIA_SHELL, HB_DDL_VIA_REST,
	                                     HB_DDL_VIA_NONE, HB_DDL_VIA_NONE};

	memset(out, 0, sizeof(*out));
	out->via = to[via];
	out->thrift = cli_thrift2_channel();
	out->shell = cli_ddl_shell_command();
	out->timeout = cli_g.timeout;
}

void cli_ddl_no_channel(size_t nregions, struct hb_error *err)
{
	cli_error("cannot create a pre-split table: no Thrift2 server is configured "
	          "(--thrift URL) and the hbase shell command '%s' is not on PATH",
	          cli_ddl_shell_command());
	cli_error("the REST gateway always creates a single region (it has no split "
	          "keys), so it cannot make %zu regions",
	          nregions);
	hb_error_set(err, HB_EINVAL,
	             "use '--via print' to get a script for 'hbase shell', or set "
	             "--thrift / --hbase-shell");
}

int cli_ddl_shell_usable(struct hb_error *err)
{
	struct hb_argv av;
	int found;

	if (hb_argv_split(&av, cli_ddl_shell_command(), err))
		return HB_EINVAL;
	found = hb_shell_command_found(av.v[0]);
	hb_argv_release(&av);
	if (!found)
		return hb_error_set(
		    err, HB_EINVAL,
		    "the hbase shell command '%s' is not on PATH: merges and splits "
		    "go through it (set --hbase-shell, or use --via print for a "
		    "script to run elsewhere)",
		    cli_ddl_shell_command());
	return 0;
}

int cli_ddl_via_steps(const char *cmd, const char *via, int apply, int *print_only)
{
	if (via && strcmp(via, "auto") && strcmp(via, "shell") && strcmp(via, "print"))
		return cli_usage_exit(cmd, "invalid --via '%s' (expected auto, shell or print)",
		                      via);
	*print_only = via && !strcmp(via, "print");
	if (*print_only && apply)
		return cli_usage_exit(cmd, "--via print writes the script and runs nothing: "
		                           "leave out --apply");
	return 0;
}
