/* Tables and namespaces: GET /, /namespaces, /T/exists, /T/schema and the PUT that creates a table.
 */
#include "rest/schema.h"
#include "core/vec.h"
#include "rest/jsonhelp.h"
#include "rest/resource.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int decode_tables(void *out, const struct hb_rest_resp *r, const char *what,
                         struct hb_error *err)
{
	return hb_rest_decode_tables(r->body.data, r->body.len, what, out, err);
}

int hb_rest_list_tables(struct hb_rest *c, struct hb_names *out, struct hb_error *err)
{
	return hb_rest_get_decoded(c, "/", NULL, 0, decode_tables, out, NULL, err);
}

struct namespace_find {
	const char *ns;
	int *exists;
};

/* {"Namespace": ["default", "hbase", ...]} (NamespacesModel): whether it lists ns. */
static int decode_namespaces(void *out, const struct hb_rest_resp *r, const char *what,
                             struct hb_error *err)
{
	const struct namespace_find *f = out;
	cJSON *doc = cJSON_ParseWithLength(r->body.data, r->body.len), *list, *it;
	int rc = 0;

	list = doc ? cJSON_GetObjectItemCaseSensitive(doc, "Namespace") : NULL;
	if (!cJSON_IsArray(list)) {
		rc = hb_error_malformed(err, what, "no Namespace list");
	} else {
		cJSON_ArrayForEach(it, list)
		{
			if (cJSON_IsString(it) && !strcmp(it->valuestring, f->ns))
				*f->exists = 1;
		}
	}
	cJSON_Delete(doc);
	return rc;
}

int hb_rest_namespace_exists(struct hb_rest *c, const char *ns, int *exists, struct hb_error *err)
{
	struct namespace_find f = {ns, exists};

	*exists = 0;
	return hb_rest_get_decoded(c, "/namespaces", NULL, 0, decode_namespaces, &f, NULL, err);
}

int hb_rest_create_namespace(struct hb_rest *c, const char *ns, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	int rc = 0;

	hb_rest_resp_init(&r);
	if (hb_buf_adds(&path, "/namespaces/") || hb_rest_path_escape(&path, ns, strlen(ns)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		rc = hb_rest_request(c, "POST", path.data, HB_JSON_TYPE, "{}", 2, 0, &r, err);
	if (!rc && r.status != 201 && r.status != 200)
		rc = hb_rest_status_error("POST", path.data, &r, err);
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_table_exists(struct hb_rest *c, const char *table, int *exists, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	int rc;

	*exists = 0;
	hb_rest_resp_init(&r);
	rc = hb_rest_table_path(&path, table, "/exists", err);
	if (!rc)
		rc = hb_rest_request(c, "GET", path.data, NULL, NULL, 0, 1, &r, err);
	/* HBase's ExistsResource answers an empty 200 (exists), 404 "Not found" or 503. A 200
	 * with a body came from something else (a proxy page): it proves nothing, and taking it
	 * for "exists" would verify or skip a table that is not there. */
	if (!rc) {
		if (r.status == 200 && r.body.len)
			rc = hb_error_set(
			    err, HB_ESERVER,
			    "unexpected answer to GET %s: HTTP 200 with a %zu-byte body "
			    "(HBase answers an empty 200)",
			    path.data, r.body.len);
		else if (r.status == 200)
			*exists = 1;
		else if (r.status != 404)
			rc = hb_rest_status_error("GET", path.data, &r, err);
	}
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

static int decode_schema(void *out, const struct hb_rest_resp *r, const char *what,
                         struct hb_error *err)
{
	return hb_rest_decode_schema(r->body.data, r->body.len, what, out, err);
}

int hb_rest_get_schema(struct hb_rest *c, const char *table, struct hb_schema *out,
                       struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	int rc = hb_rest_table_path(&path, table, "/schema", err);

	if (!rc)
		rc = hb_rest_get_decoded(c, path.data, NULL, 0, decode_schema, out, NULL, err);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_create_schema(struct hb_rest *c, const struct hb_schema *s, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	char *body = NULL;
	int rc;

	if (!s->table || !*s->table)
		return hb_error_set(err, HB_EINVAL, "schema without a table name");
	hb_rest_resp_init(&r);
	rc = hb_rest_table_path(&path, s->table, "/schema", err);
	if (!rc)
		rc = hb_rest_encode_schema(s, &body, err);
	/* Never retried: a repeated PUT on a table that now exists would replace it. */
	if (!rc)
		rc = hb_rest_request(c, "PUT", path.data, HB_JSON_TYPE, body, strlen(body), 0, &r,
		                     err);
	if (!rc) {
		if (r.status == 304)
			rc =
			    hb_error_set(err, HB_ESAFETY,
			                 "PUT %s: table '%s' was created by someone else meanwhile",
			                 path.data, s->table);
		else if (r.status == 200 && r.body.len)
			/* SchemaResource answers a create with 201 Created (docs/hbase-wire.md
			 * §2): a 200 with a body is some other page, and nothing says the table
			 * was made (the caller checks whether it exists now). */
			rc = hb_error_set(
			    err, HB_ESERVER,
			    "unexpected answer to PUT %s: HTTP 200 with a %zu-byte body "
			    "(HBase answers a create with 201 Created)",
			    path.data, r.body.len);
		/* A 201 counts whatever its body: SchemaResource sends it only after the
		 * create returned, and the read-back that follows decides. */
		else if (r.status != 201 && r.status != 200)
			rc = hb_rest_status_error("PUT", path.data, &r, err);
	}
	free(body);
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

/* ---- GET / ---- */

void hb_names_init(struct hb_names *n)
{
	n->v = NULL;
	n->n = n->cap = 0;
}

void hb_names_release(struct hb_names *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	hb_names_init(n);
}

int hb_names_push(struct hb_names *n, const char *s)
{
	char *c;

	if (HB_VEC_GROW(n->v, n->cap, n->n + 1, 16))
		return HB_ENOMEM;
	if (!(c = strdup(s)))
		return HB_ENOMEM;
	n->v[n->n++] = c;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int hb_rest_decode_tables(const char *json, size_t len, const char *what, struct hb_names *out,
                          struct hb_error *err)
{
	const cJSON *arr, *x;
	cJSON *root = hb_json_parse_object(json, len, what, err);
	size_t i = 0;
	int rc = 0;

	if (!root)
		return HB_ESERVER;
	arr = hb_json_get_array(root, "table", 0, "", what, err, &rc);
	if (rc || !arr)
		goto done;
	cJSON_ArrayForEach(x, arr)
	{
		const char *name;
		char ctx[48];

		snprintf(ctx, sizeof(ctx), "table[%zu].", i++);
		if (!cJSON_IsObject(x)) {
			rc = HB_BAD("table[%zu] is not an object", i - 1);
			goto done;
		}
		if ((rc = hb_json_get_str(x, "name", &name, ctx, what, err)))
			goto done;
		if (!name || !*name) {
			rc = HB_BAD("%sname is missing", ctx);
			goto done;
		}
		if (hb_names_push(out, name)) {
			rc = hb_json_oom(err);
			goto done;
		}
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_names);
done:
	cJSON_Delete(root);
	return rc;
}

/* ---- /T/schema ---- */

/* Attribute values are strings; numbers and booleans are accepted and printed as text. */
static int attr_value(const cJSON *v, char *buf, size_t cap, const char **out)
{
	if (cJSON_IsString(v) && v->valuestring) {
		*out = v->valuestring;
		return 0;
	}
	if (cJSON_IsBool(v)) {
		*out = cJSON_IsTrue(v) ? "true" : "false";
		return 0;
	}
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
		if (v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9e15)
			snprintf(buf, cap, "%.0f", v->valuedouble);
		else
			snprintf(buf, cap, "%.17g", v->valuedouble);
		*out = buf;
		return 0;
	}
	return -1;
}

int hb_rest_decode_schema(const char *json, size_t len, const char *what, struct hb_schema *out,
                          struct hb_error *err)
{
	const cJSON *x, *fams, *f;
	cJSON *root = hb_json_parse_object(json, len, what, err);
	const char *name;
	char num[64], shown_key[200];
	size_t i = 0;
	int rc = 0;

	if (!root)
		return HB_ESERVER;
	if ((rc = hb_json_get_str(root, "name", &name, "", what, err)))
		goto done;
	if (!name || !*name) {
		rc = HB_BAD("table name is missing");
		goto done;
	}
	if (hb_schema_set_table(out, name)) {
		rc = hb_json_oom(err);
		goto done;
	}
	cJSON_ArrayForEach(x, root)
	{
		const char *v;

		if (!x->string || !strcmp(x->string, "name") || !strcmp(x->string, "ColumnSchema"))
			continue;
		if (attr_value(x, num, sizeof(num), &v)) {
			rc = HB_BAD("table attribute %s is not a string",
			            HB_SHOWN(shown_key, x->string));
			goto done;
		}
		if (hb_attrs_set(&out->attrs, x->string, v)) {
			rc = hb_json_oom(err);
			goto done;
		}
	}
	fams = hb_json_get_array(root, "ColumnSchema", 0, "", what, err, &rc);
	if (rc || !fams)
		goto done;
	cJSON_ArrayForEach(f, fams)
	{
		struct hb_family *fam;
		char ctx[48];

		snprintf(ctx, sizeof(ctx), "ColumnSchema[%zu].", i);
		if (!cJSON_IsObject(f)) {
			rc = HB_BAD("ColumnSchema[%zu] is not an object", i);
			goto done;
		}
		if ((rc = hb_json_get_str(f, "name", &name, ctx, what, err)))
			goto done;
		if (!name || !*name) {
			rc = HB_BAD("%sname is missing", ctx);
			goto done;
		}
		if (hb_schema_add_family(out, name, &fam)) {
			rc = hb_json_oom(err);
			goto done;
		}
		cJSON_ArrayForEach(x, f)
		{
			const char *v;

			if (!x->string || !strcmp(x->string, "name"))
				continue;
			if (attr_value(x, num, sizeof(num), &v)) {
				rc = HB_BAD("%s%s is not a string", ctx,
				            HB_SHOWN(shown_key, x->string));
				goto done;
			}
			if (hb_attrs_set(&fam->attrs, x->string, v)) {
				rc = hb_json_oom(err);
				goto done;
			}
		}
		i++;
	}
done:
	cJSON_Delete(root);
	return rc;
}

int hb_rest_encode_schema(const struct hb_schema *s, char **out, struct hb_error *err)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	size_t i, j;
	int ok = root != NULL;

	*out = NULL;
	ok = ok && cJSON_AddStringToObject(root, "name", s->table ? s->table : "");
	for (i = 0; ok && i < s->attrs.n; i++)
		ok = cJSON_AddStringToObject(root, s->attrs.v[i].key, s->attrs.v[i].value) != NULL;
	arr = ok ? cJSON_AddArrayToObject(root, "ColumnSchema") : NULL;
	ok = arr != NULL;
	for (i = 0; ok && i < s->nfamilies; i++) {
		cJSON *f = cJSON_CreateObject();

		ok = f && cJSON_AddItemToArray(arr, f) &&
		     cJSON_AddStringToObject(f, "name", s->families[i].name);
		for (j = 0; ok && j < s->families[i].attrs.n; j++)
			ok = cJSON_AddStringToObject(f, s->families[i].attrs.v[j].key,
			                             s->families[i].attrs.v[j].value) != NULL;
	}
	if (ok)
		*out = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return *out ? 0 : hb_json_oom(err);
}
