/* hbtab simulate's report: the final regions, the servers and the policy's splits, as text
 * tables or as one JSON object. */
#include "simulate_report.h"

#include "cli.h"
#include "output.h"

#include <stdio.h>
#include <string.h>

#define BAR_WIDTH 40

/* ---------------------------------------------------------------- JSON report */

static int json_server(struct hb_buf *b, const struct hb_simrun *run, size_t s)
{
	char lab[32];
	const char *nm = hb_simrun_server_name(run, s, lab, sizeof(lab));

	return cli_json_str(b, nm, strlen(nm));
}

static int json_region(struct hb_buf *b, const struct hb_simrun *run, size_t i, struct hb_buf *tmp)
{
	const struct hb_sim_stats *st = &run->stats;
	const unsigned char *s, *e;
	size_t sl, el;
	int rc;

	hb_simrun_bounds(run, i, &s, &sl, &e, &el);
	rc = hb_buf_addf(b, "%s{\"index\":%zu,\"start\":", i ? "," : "", i) ||
	     cli_json_tsb(b, s, sl, tmp) || hb_buf_adds(b, ",\"end\":") ||
	     cli_json_tsb(b, e, el, tmp) ||
	     hb_buf_addf(
	         b, ",\"writes\":%llu,\"share\":%s,\"ratio\":", (unsigned long long)run->writes[i],
	         CLI_NUM(hb_simrun_region_share(run, i))) ||
	     (st->min ? hb_buf_adds(b, CLI_NUM((double)run->writes[i] / (double)st->min))
	              : hb_buf_adds(b, "null")) ||
	     hb_buf_adds(b, ",\"server\":") || json_server(b, run, run->server[i]);
	if (!rc && run->policy_on) {
		const struct hb_sim_region *r = &run->sim.regions[i];

		rc = hb_buf_addf(b, ",\"bytes\":%llu,\"opened_after\":%llu,\"cold\":%s",
		                 (unsigned long long)(r->store + r->memstore),
		                 (unsigned long long)r->opened_at,
		                 hb_simrun_is_cold(run, i) ? "true" : "false");
	}
	return rc || hb_buf_addc(b, '}') || cli_stream_flush(b, 0);
}

static int json_policy(struct hb_buf *b, const struct hb_simrun *run, struct hb_buf *tmp)
{
	const struct hb_sim *s = &run->sim;
	size_t i;
	int rc, first = 1;

	rc = hb_buf_addf(
	    b,
	    ",\"policy\":{\"name\":\"%s\",\"row_size\":%llu,"
	    "\"flush_size\":%llu,\"max_filesize\":%llu,\"initial_size\":%llu,"
	    "\"refused_splits\":%llu},\"splits\":[",
	    hb_sim_policy_name(s->cfg.policy), (unsigned long long)s->cfg.row_size,
	    (unsigned long long)s->cfg.flush_size, (unsigned long long)s->cfg.max_filesize,
	    (unsigned long long)(2 * s->cfg.flush_size), (unsigned long long)s->refused);
	for (i = 0; !rc && i < s->nsplits; i++) {
		const struct hb_sim_split *ev = &s->splits[i];

		rc = hb_buf_addf(b,
		                 "%s{\"after_writes\":%llu,\"after_bytes\":%llu,"
		                 "\"region\":%zu,\"key\":",
		                 i ? "," : "", (unsigned long long)ev->after_writes,
		                 (unsigned long long)ev->after_bytes, ev->region) ||
		     cli_json_tsb(b, ev->key, ev->key_len, tmp) ||
		     hb_buf_addf(b,
		                 ",\"size\":%llu,\"threshold\":%llu,"
		                 "\"regions_on_server\":%ld,\"server\":",
		                 (unsigned long long)ev->size, (unsigned long long)ev->threshold,
		                 ev->count) ||
		     json_server(b, run, ev->server) || hb_buf_addc(b, '}') ||
		     cli_stream_flush(b, 0);
	}
	if (!rc)
		rc = hb_buf_adds(b, "],\"cold\":[");
	for (i = 0; !rc && i < s->nregions; i++)
		if (hb_simrun_is_cold(run, i)) {
			rc = hb_buf_addf(b, "%s%zu", first ? "" : ",", i);
			first = 0;
		}
	return rc || hb_buf_adds(b, "]");
}

static int print_json(const struct hb_simrun *run, const char *source)
{
	const struct hb_sim_stats *st = &run->stats;
	struct hb_buf b = HB_BUF_INIT, tmp = HB_BUF_INIT;
	size_t i;
	int rc;

	rc = hb_buf_addf(&b,
	                 "{\"count\":%llu,\"region_writes\":%llu,\"skew\":%s,\"cv\":%s,"
	                 "\"min\":%llu,\"max\":%llu,\"keys\":",
	                 (unsigned long long)run->count, (unsigned long long)run->total,
	                 CLI_NUM(st->skew), CLI_NUM(st->cv), (unsigned long long)st->min,
	                 (unsigned long long)st->max) ||
	     cli_json_str(&b, source, strlen(source)) || hb_buf_adds(&b, ",\"regions\":[");
	for (i = 0; !rc && i < run->n; i++)
		rc = json_region(&b, run, i, &tmp);
	if (!rc)
		rc = hb_buf_adds(&b, "],\"servers\":[");
	for (i = 0; !rc && i < run->nservers; i++)
		rc = hb_buf_adds(&b, i ? ",{\"name\":" : "{\"name\":") || json_server(&b, run, i) ||
		     hb_buf_addf(&b, ",\"regions\":%zu,\"writes\":%llu,\"share\":%s}",
		                 run->sregions[i], (unsigned long long)run->lineage[i],
		                 CLI_NUM(hb_simrun_server_share(run, i))) ||
		     cli_stream_flush(&b, 0);
	if (!rc)
		rc = hb_buf_adds(&b, "]");
	if (!rc && run->policy_on)
		rc = json_policy(&b, run, &tmp);
	if (!rc)
		rc = hb_buf_adds(&b, "}\n") || cli_stream_flush(&b, 1);
	hb_buf_release(&b);
	hb_buf_release(&tmp);
	return rc;
}

/* ---------------------------------------------------------------- text report */

static int tsb_cell(struct cli_table *t, const unsigned char *k, size_t n, struct hb_buf *tmp)
{
	hb_buf_reset(tmp);
	if (!n)
		return cli_table_add(t, "");
	if (hb_tsb_append(tmp, k, n))
		return HB_ENOMEM;
	return cli_table_add(t, hb_buf_str(tmp));
}

static int human(char *buf, size_t n, uint64_t bytes)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	return snprintf(buf, n, u ? "%.2f %s" : "%.0f %s", v, unit[u]);
}

/* A bar of '#' for v of max, BAR_WIDTH long at max. */
static const char *bar(char out[BAR_WIDTH + 1], uint64_t v, uint64_t max)
{
	size_t w = max ? (size_t)((double)v * BAR_WIDTH / (double)max + 0.5) : 0;

	memset(out, '#', w);
	out[w] = '\0';
	return out;
}

static int text_header(const struct hb_simrun *run, const char *source)
{
	const struct hb_sim_stats *st = &run->stats;
	char ratio[64];

	if (st->min)
		snprintf(ratio, sizeof(ratio), "%.3f", (double)st->max / (double)st->min);
	else
		snprintf(ratio, sizeof(ratio), "n/a (a region got no writes)");
	if (printf("%llu write%s over %zu region%s (%s): skew %.3f (max/mean), cv %.4f, "
	           "largest/smallest %s\n",
	           (unsigned long long)run->count, HB_PLURAL(run->count), run->n, HB_PLURAL(run->n),
	           source, st->skew, st->cv, ratio) < 0)
		return HB_EINVAL;
	/* with --policy, writes before a split went to a parent no longer listed */
	if (run->total != run->count &&
	    printf("regions: WRITES since each opened, %llu of the %llu (%.2f%%; the rest "
	           "went to regions that split), SHARE of those; servers: every write, "
	           "split parents' included, SHARE of all\n",
	           (unsigned long long)run->total, (unsigned long long)run->count,
	           run->count ? 100.0 * (double)run->total / (double)run->count : 0.0) < 0)
		return HB_EINVAL;
	return 0;
}

static int text_region(struct cli_table *t, const struct hb_simrun *run, size_t i,
                       struct hb_buf *tmp)
{
	const struct hb_sim_stats *st = &run->stats;
	const unsigned char *s, *e;
	char lab[32], b[BAR_WIDTH + 1], size[32];
	size_t sl, el;
	int rc;

	hb_simrun_bounds(run, i, &s, &sl, &e, &el);
	rc = cli_table_addf(t, "%zu", i) || tsb_cell(t, s, sl, tmp) || tsb_cell(t, e, el, tmp) ||
	     cli_table_addf(t, "%llu", (unsigned long long)run->writes[i]) ||
	     cli_table_addf(t, "%.2f%%",
	                    run->total ? 100.0 * (double)run->writes[i] / (double)run->total : 0) ||
	     (st->min ? cli_table_addf(t, "%.3f", (double)run->writes[i] / (double)st->min)
	              : cli_table_add(t, "-")) ||
	     cli_table_add(t, hb_simrun_server_name(run, run->server[i], lab, sizeof(lab)));
	if (!rc && run->policy_on) {
		const struct hb_sim_region *r = &run->sim.regions[i];

		human(size, sizeof(size), r->store + r->memstore);
		rc = cli_table_add(t, size) ||
		     cli_table_add(t, hb_simrun_is_cold(run, i) ? "cold" : "");
	}
	return rc || cli_table_add(t, bar(b, run->writes[i], st->max));
}

static int text_servers(const struct hb_simrun *run)
{
	static const char *const sh[] = {"SERVER", "REGIONS", "WRITES", "SHARE", "LOAD"};
	struct cli_table t;
	char lab[32], b[BAR_WIDTH + 1];
	uint64_t smax = 0;
	size_t i;
	int rc = 0;

	cli_table_init(&t, 5, sh);
	for (i = 0; i < run->nservers; i++)
		if (run->lineage[i] > smax)
			smax = run->lineage[i];
	for (i = 0; !rc && i < run->nservers; i++)
		rc = cli_table_add(&t, hb_simrun_server_name(run, i, lab, sizeof(lab))) ||
		     cli_table_addf(&t, "%zu", run->sregions[i]) ||
		     cli_table_addf(&t, "%llu", (unsigned long long)run->lineage[i]) ||
		     cli_table_addf(
		         &t, "%.2f%%",
		         run->count ? 100.0 * (double)run->lineage[i] / (double)run->count : 0) ||
		     cli_table_add(&t, bar(b, run->lineage[i], smax));
	if (!rc) {
		puts("");
		rc = cli_table_print(&t, 0);
	}
	cli_table_release(&t);
	return rc;
}

static int text_policy(const struct hb_simrun *run, struct hb_buf *tmp)
{
	static const char *const th[] = {"AFTER WRITES", "AFTER BYTES", "REGION",   "SPLIT KEY",
	                                 "SIZE",         "THRESHOLD",   "ON SERVER"};
	const struct hb_sim *s = &run->sim;
	struct cli_table t;
	char hb1[32], hb2[32];
	size_t i, ncold = 0;
	int rc = 0;

	for (i = 0; i < run->n; i++)
		ncold += (size_t)hb_simrun_is_cold(run, i);
	human(hb1, sizeof(hb1), s->cfg.flush_size);
	human(hb2, sizeof(hb2), s->cfg.max_filesize);
	printf("\npolicy %s: row %llu B, flush size %s, max file size %s (jitter %.2f): "
	       "%zu split%s, %zu region%s, %zu cold",
	       hb_sim_policy_name(s->cfg.policy), (unsigned long long)s->cfg.row_size, hb1, hb2,
	       s->cfg.jitter, s->nsplits, HB_PLURAL(s->nsplits), s->nregions,
	       HB_PLURAL(s->nregions), ncold);
	if (s->refused)
		printf(", %llu split point%s refused by the key restriction",
		       (unsigned long long)s->refused, HB_PLURAL(s->refused));
	puts("");
	cli_table_init(&t, 7, th);
	for (i = 0; !rc && i < s->nsplits; i++) {
		const struct hb_sim_split *ev = &s->splits[i];

		human(hb1, sizeof(hb1), ev->size);
		human(hb2, sizeof(hb2), ev->threshold);
		rc = cli_table_addf(&t, "%llu", (unsigned long long)ev->after_writes) ||
		     cli_table_addf(&t, "%llu", (unsigned long long)ev->after_bytes) ||
		     cli_table_addf(&t, "%zu", ev->region) ||
		     tsb_cell(&t, ev->key, ev->key_len, tmp) || cli_table_add(&t, hb1) ||
		     cli_table_add(&t, hb2) || cli_table_addf(&t, "%ld", ev->count);
	}
	if (!rc && s->nsplits)
		rc = cli_table_print(&t, 0);
	cli_table_release(&t);
	return rc;
}

static int print_text(const struct hb_simrun *run, const char *source)
{
	static const char *const rh[] = {"#",     "START", "END",    "WRITES",
	                                 "SHARE", "RATIO", "SERVER", "LOAD"};
	static const char *const rhp[] = {"#",     "START",  "END",  "WRITES", "SHARE",
	                                  "RATIO", "SERVER", "SIZE", "COLD",   "LOAD"};
	struct cli_table t;
	struct hb_buf tmp = HB_BUF_INIT;
	size_t i;
	int rc = text_header(run, source);

	cli_table_init(&t, run->policy_on ? 10 : 8, run->policy_on ? rhp : rh);
	for (i = 0; !rc && i < run->n; i++)
		rc = text_region(&t, run, i, &tmp);
	if (!rc)
		rc = cli_table_print(&t, 0);
	if (!rc)
		rc = text_servers(run);
	if (!rc && run->policy_on)
		rc = text_policy(run, &tmp);
	cli_table_release(&t);
	hb_buf_release(&tmp);
	return rc;
}

int cli_simulate_report(const struct hb_simrun *run, const char *source)
{
	return cli_g.output == CLI_OUT_JSON ? print_json(run, source) : print_text(run, source);
}
