/* State files: a row hbtab must be able to restore, kept on disk while it is out of the table. */
#include "rest/statefile.h"

#include "core/filereplace.h"
#include "core/key.h"
#include "core/tname.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef HB_VERSION
#define HB_VERSION "0.0.0"
#endif

#define STATEFILE_MAX (1u << 20) /* a metadata row is a few hundred bytes */

void hb_statefile_init(struct hb_statefile *s)
{
	memset(s, 0, sizeof(*s));
	hb_row_init(&s->row);
}

void hb_statefile_release(struct hb_statefile *s)
{
	free(s->cluster);
	free(s->table);
	free(s->saved);
	free(s->operation);
	hb_row_release(&s->row);
	hb_statefile_init(s);
}

int hb_statefile_dir(struct hb_buf *out, struct hb_error *err)
{
	const char *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");
	int rc;

	if (x && *x == '/')
		rc = hb_buf_addf(out, "%s/hbtab", x);
	else if (h && *h)
		rc = hb_buf_addf(out, "%s/.local/state/hbtab", h);
	else
		return hb_error_set(err, HB_EINVAL,
		                    "no state directory: neither XDG_STATE_HOME (an absolute path) "
		                    "nor HOME is set");
	return rc ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

/* The URL as it names a cluster: scheme and host lower case, no trailing '/'. */
static int normal_url(struct hb_buf *out, const char *url)
{
	const char *p = strstr(url, "://"), *host = p ? p + 3 : url;
	size_t hn = strcspn(host, "/?#"), n = strlen(url), i;

	while (n > 0 && url[n - 1] == '/')
		n--;
	for (i = 0; i < n; i++) {
		int c = (unsigned char)url[i];

		if (url + i < host + hn)
			c = tolower(c);
		if (hb_buf_addc(out, c))
			return HB_ENOMEM;
	}
	return 0;
}

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

int hb_statefile_path(struct hb_buf *out, const char *operation, const char *cluster,
                      const char *table, struct hb_error *err)
{
	struct hb_buf url = HB_BUF_INIT;
	struct hb_tname tn;
	const char *host;
	size_t hn, i;
	int rc;

	rc = hb_tname_parse(&tn, table, err);
	if (!rc)
		rc = hb_statefile_dir(out, err);
	if (rc)
		return rc;
	if (normal_url(&url, cluster ? cluster : "")) {
		hb_buf_release(&url);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	host = strstr(hb_buf_str(&url), "://");
	host = host ? host + 3 : hb_buf_str(&url);
	hn = strcspn(host, "/?#");
	if (hn > 48)
		hn = 48;
	rc = hb_buf_addf(out, "/%s-", operation);
	for (i = 0; !rc && i < hn; i++) {
		int c = (unsigned char)host[i];

		rc = hb_buf_addc(out, isalnum(c) || c == '.' || c == '-' ? c : '_');
	}
	if (!rc)
		rc = hb_buf_addf(out, "-%08x-%.*s.%.*s.json", (unsigned)fnv1a(hb_buf_str(&url)),
		                 (int)tn.ns_len, tn.ns, (int)tn.qual_len, tn.qual);
	hb_buf_release(&url);
	return rc ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

/* mkdir -p of dir, each new directory 0700. */
static int make_dirs(const char *dir)
{
	char *p = strdup(dir), *s;
	int rc = 0;

	if (!p)
		return ENOMEM;
	for (s = p + 1; !rc; s++) {
		if (*s && *s != '/')
			continue;
		{
			char c = *s;

			*s = 0;
			if (mkdir(p, 0700) && errno != EEXIST)
				rc = errno;
			*s = c;
		}
		if (!*s)
			break;
	}
	free(p);
	return rc;
}

/* path's directory into dir. */
static int dir_of(struct hb_buf *dir, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return hb_buf_adds(dir, ".");
	return hb_buf_add(dir, path, slash == path ? 1 : (size_t)(slash - path));
}

static cJSON *b64_string(const void *p, size_t n)
{
	struct hb_buf b = HB_BUF_INIT;
	cJSON *s = NULL;

	if (!hb_b64_encode(&b, p, n))
		s = cJSON_CreateString(hb_buf_str(&b));
	hb_buf_release(&b);
	return s;
}

static char *document(const char *operation, const char *cluster, const char *table,
                      const struct hb_row *row)
{
	cJSON *root = cJSON_CreateObject(), *cells = cJSON_CreateArray();
	struct hb_buf text = HB_BUF_INIT, what = HB_BUF_INIT;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	char *out = NULL;
	size_t i;
	int ok = root && cells;

	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ok = ok && !hb_row_describe(&text, row) &&
	     !hb_buf_addf(&what,
	                  "hbtab's metadata row of table '%s', taken out of the table by "
	                  "'hbtab %s' and not yet written back; the same command run again "
	                  "writes it back first",
	                  table, operation);
	ok = ok && cJSON_AddStringToObject(root, "what", hb_buf_str(&what)) &&
	     cJSON_AddStringToObject(root, "operation", operation) &&
	     cJSON_AddStringToObject(root, "cluster", cluster) &&
	     cJSON_AddStringToObject(root, "table", table) &&
	     cJSON_AddStringToObject(root, "saved", when) &&
	     cJSON_AddNumberToObject(root, "pid", (double)getpid()) &&
	     cJSON_AddStringToObject(root, "hbtab", HB_VERSION);
	if (ok) {
		cJSON *k = b64_string(row->key, row->key_len);

		ok = k && cJSON_AddItemToObject(root, "row", k);
	}
	ok = ok && cJSON_AddStringToObject(root, "cells_text", hb_buf_str(&text));
	for (i = 0; ok && i < row->ncells; i++) {
		cJSON *c = cJSON_CreateObject(), *col, *val;

		ok = c && cJSON_AddItemToArray(cells, c);
		col = ok ? b64_string(row->cells[i].column, row->cells[i].column_len) : NULL;
		ok = col && cJSON_AddItemToObject(c, "column", col);
		val = ok ? b64_string(row->cells[i].value, row->cells[i].value_len) : NULL;
		ok = val && cJSON_AddItemToObject(c, "value", val);
	}
	if (ok) {
		ok = cJSON_AddItemToObject(root, "cells", cells);
		cells = NULL;
	}
	if (ok)
		out = cJSON_Print(root);
	cJSON_Delete(cells);
	cJSON_Delete(root);
	hb_buf_release(&text);
	hb_buf_release(&what);
	return out;
}

int hb_statefile_save(const char *path, const char *operation, const char *cluster,
                      const char *table, const struct hb_row *row, struct hb_error *err)
{
	struct hb_buf dir = HB_BUF_INIT, text = HB_BUF_INIT;
	char *doc = document(operation, cluster, table, row);
	int e, rc = 0;

	if (!doc || dir_of(&dir, path) || hb_buf_adds(&text, doc) || hb_buf_addc(&text, '\n')) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	if ((e = make_dirs(hb_buf_str(&dir)))) {
		rc = hb_error_set(err, HB_EINVAL, "cannot make the state directory '%s': %s",
		                  hb_buf_str(&dir), strerror(e));
		goto done;
	}
	rc = hb_file_replace(path, text.data, text.len, 0600, err);
done:
	free(doc);
	hb_buf_release(&text);
	hb_buf_release(&dir);
	return rc;
}

static const char *str_field(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int b64_field(const cJSON *o, const char *name, struct hb_buf *out)
{
	const char *s = str_field(o, name);

	return s ? hb_b64_decode(out, s, strlen(s)) : HB_EINVAL;
}

/* The document's fields into s; HB_EINVAL (with what is wrong in *why) or HB_ENOMEM. */
static int read_document(const cJSON *root, struct hb_statefile *s, const char **why)
{
	const cJSON *cells = cJSON_GetObjectItemCaseSensitive(root, "cells"), *c;
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(root, "pid");
	struct hb_buf key = HB_BUF_INIT, col = HB_BUF_INIT, val = HB_BUF_INIT;
	const char *f[4] = {str_field(root, "cluster"), str_field(root, "table"),
	                    str_field(root, "saved"), str_field(root, "operation")};
	int rc = 0;

	*why = "a field is missing or malformed";
	if (!f[0] || !f[1] || !f[2] || !f[3] || !cJSON_IsArray(cells) ||
	    b64_field(root, "row", &key) || !key.len) {
		rc = HB_EINVAL;
		goto done;
	}
	s->cluster = strdup(f[0]);
	s->table = strdup(f[1]);
	s->saved = strdup(f[2]);
	s->operation = strdup(f[3]);
	s->pid = cJSON_IsNumber(pid) ? (long)pid->valuedouble : 0;
	s->row.key = malloc(key.len + 1);
	if (!s->cluster || !s->table || !s->saved || !s->operation || !s->row.key) {
		rc = HB_ENOMEM;
		goto done;
	}
	memcpy(s->row.key, key.data, key.len);
	s->row.key[key.len] = 0;
	s->row.key_len = key.len;
	cJSON_ArrayForEach(c, cells)
	{
		hb_buf_reset(&col);
		hb_buf_reset(&val);
		if (b64_field(c, "column", &col) || b64_field(c, "value", &val) || !col.len ||
		    !memchr(col.data, ':', col.len)) {
			rc = HB_EINVAL;
			goto done;
		}
		if (hb_row_add_cell(&s->row, col.data, col.len, val.data ? (void *)val.data : "",
		                    val.len, 0)) {
			rc = HB_ENOMEM;
			goto done;
		}
	}
	if (!s->row.ncells) {
		*why = "it holds no cell";
		rc = HB_EINVAL;
	}
done:
	hb_buf_release(&key);
	hb_buf_release(&col);
	hb_buf_release(&val);
	return rc;
}

int hb_statefile_load(const char *path, const char *operation, const char *cluster,
                      const char *table, struct hb_statefile *s, int *found, struct hb_error *err)
{
	struct hb_buf text = HB_BUF_INIT, url = HB_BUF_INIT, theirs = HB_BUF_INIT;
	struct hb_tname a, b;
	struct hb_error ignored;
	const char *why = NULL;
	char chunk[4096];
	cJSON *root = NULL;
	size_t got;
	FILE *f = fopen(path, "rb");
	int rc = 0;

	*found = 0;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return hb_error_set(err, HB_EINVAL, "cannot read the state file '%s': %s", path,
		                    strerror(errno));
	}
	*found = 1;
	hb_buf_init(&text, STATEFILE_MAX);
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (hb_buf_add(&text, chunk, got)) {
			why = "it is larger than 1 MiB";
			break;
		}
	if (ferror(f) && !why)
		why = strerror(errno);
	fclose(f);
	if (!why && !(root = cJSON_ParseWithLength(hb_buf_str(&text), text.len)))
		why = "it is not JSON";
	if (!why) {
		rc = read_document(root, s, &why);
		if (rc == HB_ENOMEM) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			goto done;
		}
		if (!rc)
			why = NULL;
	}
	if (!why &&
	    (strcmp(s->operation, operation) || normal_url(&url, cluster ? cluster : "") ||
	     normal_url(&theirs, s->cluster) || strcmp(hb_buf_str(&url), hb_buf_str(&theirs))))
		why = "it was written for another operation or cluster";
	if (!why &&
	    (hb_tname_parse(&a, table, &ignored) || hb_tname_parse(&b, s->table, &ignored) ||
	     a.ns_len != b.ns_len || memcmp(a.ns, b.ns, a.ns_len) || a.qual_len != b.qual_len ||
	     memcmp(a.qual, b.qual, a.qual_len)))
		why = "it was written for another table";
	if (why) {
		hb_statefile_release(s);
		rc =
		    hb_error_set(err, HB_EINVAL,
		                 "the state file '%s' cannot be used: %s; it may hold the metadata "
		                 "row of table '%s' that an interrupted '%s' took out: look at it, "
		                 "then move it away to go on",
		                 path, why, table, operation);
	}
done:
	cJSON_Delete(root);
	hb_buf_release(&text);
	hb_buf_release(&url);
	hb_buf_release(&theirs);
	return rc;
}

int hb_statefile_remove(const char *path, struct hb_error *err)
{
	int rc = 0;

	if (unlink(path) && errno != ENOENT)
		rc = hb_error_set(err, HB_EINVAL, "cannot remove the state file '%s': %s", path,
		                  strerror(errno));
	if (!rc)
		hb_file_sync_dir(path);
	return rc;
}

static int cell_in(const struct hb_cell *c, const struct hb_row *r)
{
	size_t i;

	for (i = 0; i < r->ncells; i++)
		if (r->cells[i].column_len == c->column_len &&
		    r->cells[i].value_len == c->value_len &&
		    !memcmp(r->cells[i].column, c->column, c->column_len) &&
		    (!c->value_len || !memcmp(r->cells[i].value, c->value, c->value_len)))
			return 1;
	return 0;
}

int hb_row_same_cells(const struct hb_row *a, const struct hb_row *b)
{
	size_t i;

	if (a->ncells != b->ncells)
		return 0;
	for (i = 0; i < a->ncells; i++)
		if (!cell_in(&a->cells[i], b) || !cell_in(&b->cells[i], a))
			return 0;
	return 1;
}

int hb_row_has_cells(const struct hb_row *a, const struct hb_row *b)
{
	size_t i;

	for (i = 0; i < b->ncells; i++)
		if (!cell_in(&b->cells[i], a))
			return 0;
	return 1;
}

int hb_row_describe(struct hb_buf *out, const struct hb_row *row)
{
	size_t i;
	int rc = 0;

	for (i = 0; !rc && i < row->ncells; i++) {
		const struct hb_cell *c = &row->cells[i];

		rc = (i && hb_buf_addc(out, ' ')) || hb_tsb_append(out, c->column, c->column_len) ||
		             hb_buf_adds(out, "='") ||
		             hb_tsb_append_quoted(out, c->value, c->value_len) ||
		             hb_buf_addc(out, '\'')
		         ? HB_ENOMEM
		         : 0;
	}
	return rc;
}
