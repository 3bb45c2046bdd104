/* Configuration: flags win over HBTAB_* environment variables, which win over the config file. */
#ifndef HB_CLI_CONFIG_H
#define HB_CLI_CONFIG_H

/* Fills every unset global setting from the environment, then the config file profile,
 * then the defaults, and validates them. Prints "hbtab: ..." and returns HB_EINVAL on bad
 * values; cmd names the command for the hint. */
int cli_config_resolve(const char *cmd);

/* The path of the config file: $HBTAB_CONFIG, else $XDG_CONFIG_HOME/hbtab/config, else
 * ~/.config/hbtab/config. Returns a static string or NULL when no home is known. */
const char *cli_config_path(void);

#endif
