/* The create flow as a function other commands call: validate, check absence, DDL, wait,
 * verify byte for byte, write the metadata row. */
#ifndef HB_CLI_CREATE_H
#define HB_CLI_CREATE_H

#include "../core/key.h"
#include "../rest/create.h"
#include "../rest/rest.h"
#include "cli.h"
#include "ddl.h"
#include "splitspec.h"

#include <stddef.h>

/* The table options create and rotate share: option values live here, the option table
 * (CLI_CREATE_OPTIONS) points at them. */
struct cli_create_opts {
	struct cli_strlist families, attrs;
	const char *keyspace, *via, *wait;
	int timings;
};

/* --family, --attr, --keyspace, then --via (its help and choices differ between commands),
 * --wait and the hidden --timings; entries for a struct cli_option table. */
#define CLI_CREATE_OPTIONS(o, via_help, via_choices)                                               \
	CLI_GROUP("Table"),                                                                        \
	    CLI_LIST(0, "family", &(o)->families, "NAME[:ATTR=VAL,...]",                           \
	             "a column family with attributes (repeatable; default 'cf')"),                \
	    CLI_LIST(0, "attr", &(o)->attrs, "KEY=VAL",                                            \
	             "a table attribute such as SPLIT_POLICY or MAX_FILESIZE (repeatable)"),       \
	    CLI_STRING(                                                                            \
	        0, "keyspace", &(o)->keyspace, "SPEC",                                             \
	        "row-key space: every region must be reachable; stored in the metadata row"),      \
	    CLI_GROUP("Creation"),                                                                 \
	    CLI_CHOICE(0, "via", &(o)->via, "CHANNEL", (via_help), (via_choices)),                 \
	    CLI_STRING(0, "wait", &(o)->wait, "SEC",                                               \
	               "how long to wait for every region to be online (60)"),                     \
	{                                                                                          \
		CLI_OPT_FLAG, 0, "timings", &(o)->timings, NULL, "print per-phase times", NULL,    \
		    CLI_OPT_HIDDEN                                                                 \
	}

/* --wait SEC into *out: 0 to 86400 seconds, 60 when s is NULL. A usage error of cmd is
 * printed for a bad value: HB_EINVAL. */
int cli_create_parse_wait(const char *cmd, const char *s, double *out);

/* Frees the option lists. */
void cli_create_opts_release(struct cli_create_opts *o);

/* One table to create (or to verify when it exists). */
struct cli_create_req {
	const char *table;
	const struct hb_keys *splits; /* the split keys, computed by the caller */
	const char *spec_text;        /* the spec as hbtab flags, for the metadata row */
	const struct cli_strlist *families, *attrs;
	const char *via;      /* NULL = auto */
	const char *keyspace; /* NULL = none */
	double wait;          /* seconds for regions to come online */
	const char *rotate;   /* recorded as <first family>:rotate in the metadata row, or NULL */
	int dry_run;          /* change nothing: an absent table is only reported (existed 0) */
	int adopt;            /* a verified table whose row lacks the rotate mark receives it */
	int create_namespace; /* create the table's namespace when it is missing */
};

/* What happened. */
struct cli_create_out {
	int created, existed, verified;
	size_t regions, planned;
	/* "written", "present", "adopted", "none"; in a dry run "would write", "would adopt" */
	char metadata[16];
	int ns_created; /* the namespace was created */
	double ddl_s, wait_s, verify_s, metadata_s;
};

/* A create on the command line: the flow's plan and results, and what only the command line
 * knows. */
struct cli_create {
	struct hb_create f;
	enum cli_via via;
	const char *ks_spec;              /* --keyspace as given */
	int default_family;               /* no --family: the table gets the default one */
	int exit_status;                  /* for the JSON summary of a failure */
	long live_servers;                /* N = auto: the live region servers it came from */
	const struct hb_keys *pre_splits; /* computed by the caller, or NULL */
	const char *pre_spec_text;
	struct hb_rest *rest;
	/* prints the summary (error: the failure's message; returns an HB_E* code), or NULL */
	int (*summary)(const struct cli_create *c, const char *error);
};

/* An empty create of table (lent); release with cli_create_release. */
void cli_create_init(struct cli_create *c, const char *table);
void cli_create_release(struct cli_create *c);

/*
 * Builds c's plan from the options: table name, --family (default 'cf'), --attr, the split
 * keys (c->pre_splits, else ss's), the channel (--via), --keyspace, --metadata-family and
 * --metadata-row (NULL: the default row). Messages are printed. HB_EINVAL, HB_ENOMEM.
 */
int cli_create_validate(struct cli_create *c, const struct hb_splitspec *ss,
                        const struct cli_strlist *fams, const struct cli_strlist *attrs,
                        const char *via, const char *meta_row);

/* Runs the flow (rest/create.h) through c's channel; prints a failure (with the difference
 * from the plan) and the regions no key reaches, then c->summary. Returns the exit status. */
int cli_create_run(struct cli_create *c);

/*
 * Runs create's whole flow for req through rest (lent, not freed), printing nothing on
 * stdout; failures are reported on stderr. Returns the exit status create would return.
 */
int cli_create_table(struct hb_rest *rest, const struct cli_create_req *req,
                     struct cli_create_out *out);

#endif
