/* What snapshot, drop --snapshot and rotate --snapshot-before-drop share: the channel and the
 * line that says how to restore. */
#include "snapshot.h"
#include "output.h"

#include <stdio.h>

void cli_snapshot_channel(struct hb_shell_channel *out)
{
	out->command = cli_g.hbase_shell ? cli_g.hbase_shell : "hbase shell -n";
	out->timeout = cli_g.timeout + 60;
}

void cli_snapshot_print(const char *table, const char *name)
{
	/* -q: the name alone, the one handle that restores the table (snap=$(hbtab -q ...)) */
	if (cli_g.output == CLI_OUT_TEXT && cli_g.quiet)
		printf("%s\n", name);
	else if (cli_g.output == CLI_OUT_TEXT)
		printf("snapshot '%s' of %s taken; restore it with the hbase shell's "
		       "clone_snapshot '%s', '%s'\n",
		       name, table, name, table);
}
