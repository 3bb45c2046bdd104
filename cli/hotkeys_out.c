/* The hot regions' key prefixes in audit --hotspots's text and JSON. */
#include "hotkeys_out.h"
#include "../core/key.h"
#include "output.h"

#include <stdio.h>

static int json_key(struct hb_buf *b, const struct hb_hot_key *e, int first)
{
	return hb_buf_adds(b, first ? "{\"prefix\":" : ",{\"prefix\":") ||
	       cli_json_tsb(b, e->prefix, e->len, NULL) ||
	       (e->bucket >= 0 ? hb_buf_addf(b, ",\"bucket\":%lld", e->bucket)
	                       : hb_buf_adds(b, ",\"bucket\":null")) ||
	       hb_buf_addf(b,
	                   ",\"write_share\":%s,\"writes\":%llu,\"region\":%ld,\"regions\":%zu,"
	                   "\"measured\":%s}",
	                   CLI_NUM(e->share), (unsigned long long)e->writes, e->region, e->regions,
	                   e->measured ? "true" : "false");
}

int cli_hot_keys_json(struct hb_buf *b, const struct hb_hot_keys *k, const char *ks_canon)
{
	size_t i;
	int rc;

	if (!k)
		return hb_buf_adds(b, ",\"hot_keys\":null") ? HB_ENOMEM : 0;
	rc = hb_buf_adds(b, ",\"hot_keys\":{\"keyspace\":") ||
	     cli_json_strz(b, k->design[0] ? k->design : ks_canon) ||
	     hb_buf_addf(b,
	                 ",\"from_splits\":%s,\"prefix_bytes\":%zu,\"buckets\":%s,"
	                 "\"regions_decoded\":%zu,\"unlisted_share\":%s,\"keys\":[",
	                 k->design[0] ? "true" : "false", k->prefix_len,
	                 k->buckets ? "true" : "false", k->regions, CLI_NUM(k->unlisted));
	for (i = 0; !rc && i < k->n; i++)
		rc = json_key(b, &k->v[i], !i);
	return rc || hb_buf_adds(b, "]}") ? HB_ENOMEM : 0;
}

/* One line: the prefix (a bucket by its number too), its share, writes and region. */
static int text_key(struct hb_buf *b, const struct hb_hot_key *e)
{
	int rc = hb_buf_adds(b, "  ");

	if (!rc && e->bucket >= 0)
		rc = hb_buf_addf(b, "bucket %lld ", e->bucket);
	rc = rc || hb_buf_addc(b, '\'') || hb_tsb_append_quoted(b, e->prefix, e->len) ||
	     hb_buf_addf(b, "': %.2f%% of the writes (%llu), ", 100.0 * e->share,
	                 (unsigned long long)e->writes);
	if (!rc)
		rc = e->regions > 1 ? hb_buf_addf(b, "regions %ld.. (%zu)", e->region, e->regions)
		                    : hb_buf_addf(b, "region %ld", e->region);
	return rc ||
	       hb_buf_adds(b, e->measured ? ", measured\n"
	                                  : ", estimated by its share of the region's keys\n");
}

int cli_hot_keys_text(struct hb_buf *b, const struct hb_hot_keys *k, const char *ks_canon)
{
	size_t i;
	int rc;

	if (!k || !k->n)
		return 0;
	rc =
	    hb_buf_addf(b, "hot keys (the %zu hottest region%s decoded through '%s'%s, by %s):\n",
	                k->regions, k->regions == 1 ? "" : "s", k->design[0] ? k->design : ks_canon,
	                k->design[0] ? " of the recorded split specification" : "",
	                k->buckets ? "bucket" : "key prefix");
	for (i = 0; !rc && i < k->n && i < CLI_HOT_KEYS_TEXT; i++)
		rc = text_key(b, &k->v[i]);
	if (!rc && k->n > CLI_HOT_KEYS_TEXT)
		rc = hb_buf_addf(b, "  ... %zu more prefixes (-o json lists them)\n",
		                 k->n - CLI_HOT_KEYS_TEXT);
	return rc || hb_buf_addc(b, '\n') ? HB_ENOMEM : 0;
}
