/* Configuration: flags win over HBTAB_* environment variables, which win over the config file. */
#ifndef HB_CLI_CONFIG_H
#define HB_CLI_CONFIG_H

#include <stddef.h>

/* Fills every unset global setting from the environment, then the config file profile,
 * then the defaults, and validates them. Prints "hbtab: ..." and returns HB_EINVAL on bad
 * values; cmd names the command for the hint. */
int cli_config_resolve(const char *cmd);

/* The path of the config file: $HBTAB_CONFIG, else $XDG_CONFIG_HOME/hbtab/config, else
 * ~/.config/hbtab/config. Returns a static string or NULL when no home is known. */
const char *cli_config_path(void);

/* Reads all of a regular file (at most max bytes) into a NUL-terminated malloc'ed buffer.
 * A missing file is *out = NULL and 0 unless must_exist. Otherwise prints "cannot read WHAT
 * 'PATH': ..." (FIFOs and devices refused without blocking) and returns HB_EINVAL. */
int cli_slurp(const char *what, const char *path, int must_exist, size_t max, char **out,
              size_t *len_out);

#endif
