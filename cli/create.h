/* The create flow as a function other commands call: validate, check absence, DDL, wait,
 * verify byte for byte, write the metadata row. */
#ifndef HB_CLI_CREATE_H
#define HB_CLI_CREATE_H

#include "../core/key.h"
#include "../rest/rest.h"
#include "cli.h"

#include <stddef.h>

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
};

/* What happened. */
struct cli_create_out {
	int created, existed, verified;
	size_t regions, planned;
	char metadata[16]; /* "written", "present", "none" */
	double ddl_s, wait_s, verify_s, metadata_s;
};

/*
 * Runs create's whole flow for req through rest (lent, not freed), printing nothing on
 * stdout; failures are reported on stderr. Returns the exit status create would return.
 */
int cli_create_table(struct hb_rest *rest, const struct cli_create_req *req,
                     struct cli_create_out *out);

#endif
