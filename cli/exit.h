/* hbtab's process exit statuses, the one place they are numbered (documented in hbtab(1)). */
#ifndef HB_CLI_EXIT_H
#define HB_CLI_EXIT_H

enum cli_exit_status {
	CLI_EXIT_OK = 0,        /* success */
	CLI_EXIT_FINDINGS = 1,  /* audit findings, verification mismatch, a design that differs */
	CLI_EXIT_USAGE = 2,     /* usage or bad input: flags, keys, files, configuration */
	CLI_EXIT_NETWORK = 3,   /* connect, TLS, timeout */
	CLI_EXIT_SERVER = 4,    /* server or API error, object not found */
	CLI_EXIT_REFUSED = 5,   /* refused for safety: would change or destroy what exists */
	CLI_EXIT_SIGINT = 130,  /* interrupted by SIGINT (128 + 2) */
	CLI_EXIT_SIGPIPE = 141, /* stdout closed under us, SIGPIPE (128 + 13) */
	CLI_EXIT_OUTPUT = 141,  /* any failure to write stdout: closed pipe, full disk, closed fd */
	CLI_EXIT_SIGTERM = 143, /* terminated by SIGTERM (128 + 15) */
};

#endif
