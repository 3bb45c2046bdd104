/* Tables and namespaces: the table list, namespaces, a table's existence and schema. */
#ifndef HB_REST_SCHEMA_H
#define HB_REST_SCHEMA_H

#include "core/key.h"
#include "rest/rest.h"

#include <stddef.h>

/* A list of malloc'ed C strings (table names). */
struct hb_names {
	char **v;
	size_t n, cap;
};

void hb_names_init(struct hb_names *n);
void hb_names_release(struct hb_names *n);
/* Appends a copy of s. HB_ENOMEM. */
int hb_names_push(struct hb_names *n, const char *s);

/* GET /: user table names ("ns:t" outside default), sorted; out must be initialised. */
int hb_rest_list_tables(struct hb_rest *c, struct hb_names *out, struct hb_error *err);
/* GET /namespaces: *exists = 1 when namespace ns is listed, 0 when not. HB_ESERVER for an
 * answer that is not the list. */
int hb_rest_namespace_exists(struct hb_rest *c, const char *ns, int *exists, struct hb_error *err);
/* POST /namespaces/NS (NamespacesInstanceResource): creates namespace ns. Not retried (not
 * idempotent: a lost 201 would read as 403 "already exists" the second time). */
int hb_rest_create_namespace(struct hb_rest *c, const char *ns, struct hb_error *err);
/* GET /T/exists: *exists = 1/0 (404 is not an error here). A 200 with a body is not
 * HBase's answer (it sends an empty 200): HB_ESERVER. */
int hb_rest_table_exists(struct hb_rest *c, const char *table, int *exists, struct hb_error *err);
/* GET /T/schema into an initialised schema. HB_ENOTFOUND when the table does not exist. */
int hb_rest_get_schema(struct hb_rest *c, const char *table, struct hb_schema *out,
                       struct hb_error *err);
/*
 * PUT /T/schema creating a single-region table. DANGER: on an existing table PUT replaces
 * the descriptor and drops unlisted families, so call this ONLY after verifying absence
 * (hb_rest_table_exists). 201 → 0; 304 (someone created it first) → HB_ESAFETY.
 */
int hb_rest_create_schema(struct hb_rest *c, const struct hb_schema *s, struct hb_error *err);
/* Dropping a table: rest/drop.h (hb_rest_drop_checked). */

int hb_rest_decode_tables(const char *json, size_t len, const char *what, struct hb_names *out,
                          struct hb_error *err);
int hb_rest_decode_schema(const char *json, size_t len, const char *what, struct hb_schema *out,
                          struct hb_error *err);

/* Encodes a schema as TableSchema JSON (malloc'ed, NUL-terminated) into *out. */
int hb_rest_encode_schema(const struct hb_schema *s, char **out, struct hb_error *err);

#endif
