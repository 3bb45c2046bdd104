"""audit --format prometheus against a cluster: the emulator, or real HBase (HBTAB_BACKEND=real).

The gauges are read back with Debian's python3-prometheus-client parser. The seed design is
createTable(desc, "0000000000000000", "ffffffffffffffff", 10) over 16-char lower-case hex
keys: regions 0 and 3-7 hold no key of the key space (docs/hbase-keys.md §4).
"""
from prometheus_client.parser import text_string_to_metric_families

import backend
import hbtest
from hbtest import unb64

SEED = ["--range-splits", "10", "--start", "0000000000000000", "--end", "ffffffffffffffff"]


def gauges(text):
    """{(metric name, frozenset(labels)): value}; every family a gauge with HELP text."""
    out = {}
    hbtest.promtool_check(text)
    for fam in text_string_to_metric_families(text):
        assert fam.type == "gauge" and fam.documentation, fam
        for s in fam.samples:
            out[(s.name, frozenset(s.labels.items()))] = s.value
    return out


def findings(g, table):
    return {dict(k)["kind"]: v for (name, k), v in g.items()
            if name == "hbtab_audit_findings" and dict(k)["table"] == table}


class PrometheusAgainstCluster(backend.BackendTest):
    def seeded(self, t):
        r = self.hb("splits", *SEED, "--format", "json")
        self.assertOk(r)
        self.be.create(t, families=["cf"], splits=[unb64(k["base64"]) for k in r.json()["splits"]])
        self.be.put(t, [(b"totalPartition", {"cf:N": b"10", "cf:keyspace": b"hex{16}"})])

    def test_unreachable_regions_n_and_a_disabled_table_as_gauges(self):
        t = self.name()
        self.seeded(t)
        r = self.hb("audit", t, "--format", "prometheus")
        self.assertEqual((r.rc, r.err), (1, ""), r)
        g = gauges(r.out)
        found = findings(g, t)
        self.assertEqual(found["unreachable"], 6, r.out)
        # the same counts as the JSON document's findings (a placement finding depends on
        # where the cluster put the regions)
        j = self.hb("audit", t, "-o", "json")
        kinds = [f["kind"] for f in j.json()["findings"]]
        self.assertEqual({k: v for k, v in found.items() if v},
                         {k: kinds.count(k) for k in kinds}, r.out)
        self.assertEqual(g[("hbtab_audit_regions", frozenset({"table": t}.items()))], 10)
        self.assertEqual(g[("hbtab_audit_partitions", frozenset({"table": t}.items()))], 10)
        run = frozenset({"command": "audit", "table": t}.items())
        self.assertEqual(g[("hbtab_last_run_success", run)], 1)
        self.assertEqual(g[("hbtab_last_run_exit_status", run)], 1)
        # disabled: the one finding that tells, counted; the metadata row is not read
        self.be.disable(t)
        try:
            r = self.hb("audit", t, "--format", "prometheus")
            self.assertEqual(r.rc, 1, r)
            g = gauges(r.out)
            self.assertEqual(findings(g, t)["disabled"], 1, r.out)
            self.assertNotIn(("hbtab_audit_partitions", frozenset({"table": t}.items())), g)
        finally:
            self.be.enable(t)


if __name__ == "__main__":
    hbtest.main()
