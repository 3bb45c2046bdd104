"""The alert rules hbtab installs (dist/prometheus/hbtab.rules.yml) checked by Prometheus's own
`promtool test rules` against the series hbtab writes: each case's input is a textfile an
audit or rotate run wrote (against the emulator), every sample as it is, its timestamps moved
to the test's clock (the run at time 0), scraped once a minute. A failed run, a run gone stale (the same file, no
newer run), unreachable regions (the seed-001 table) and rotate's pending drops each fire the
one alert meant for them, named and labelled as an operator's route would match them, and a
healthy table's file fires nothing."""
import json
import os
import shutil
import subprocess
import tempfile
import urllib.request

import hbtest
from hbtest import EmulatorTest, b64, run

RULES = os.path.join(hbtest.SRC, "dist", "prometheus", "hbtab.rules.yml")
TABLE = "ns_events:user_clicks_20261128"
HEALTHY = "ns_events:user_views_20261128"
TEMPLATE = "ns_events:clicks_%Y%m%d"
HEX10 = [b"%08x" % (i * (2 ** 32 // 10)) for i in range(1, 10)]


def series(text):
    """The samples of an exposition as promtool input series: 'name{labels}' -> value, with
    the *_timestamp_seconds gauges set to 0 (the run ended at the test's time 0)."""
    out = {}
    for line in hbtest.promtool_check(text).splitlines():
        if not line or line.startswith("#"):
            continue
        name, value = line.rsplit(" ", 1)
        out[name] = 0.0 if name.split("{")[0].endswith("_timestamp_seconds") else float(value)
    return out


def alert(name, labels, summary):
    return {"exp_labels": dict(labels, severity="warning"),
            "exp_annotations": {"summary": summary}}


class AlertRules(EmulatorTest):
    servers = 2

    def setUp(self):
        super().setUp()
        self.dir = tempfile.mkdtemp(prefix="hbtab-rules-")
        req = urllib.request.Request(self.emu.rest + "/namespaces/ns_events", method="POST")
        urllib.request.urlopen(req, timeout=60).close()

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def create(self, table, keys, n, keyspace):
        self.emu.create(table, keys)
        cells = [{"column": b64("cf:N"), "value": b64(str(n))},
                 {"column": b64("cf:keyspace"), "value": b64(keyspace)}]
        st, body = self.emu.control("POST", "/control/put", {
            "table": table, "rows": [{"key": b64("totalPartition"), "cells": cells}]})
        self.assertIn(st, (200, 201), body)

    def prom(self, name, *args, rc):
        path = os.path.join(self.dir, name)
        r = self.hb(*args, "--prom-file", path)
        self.assertEqual(r.rc, rc, repr(r))
        with open(path, encoding="utf-8") as f:
            return series(f.read())

    def promtool(self, cases):
        """Runs promtool test rules over cases [(input series, [(eval time, alert, [exp])])]."""
        tests = []
        for inputs, evals in cases:
            tests.append({
                "interval": "1m",
                "input_series": [{"series": k, "values": "%s+0x1800" % repr(v)}
                                 for k, v in sorted(inputs.items())],
                "alert_rule_test": [{"eval_time": t, "alertname": a, "exp_alerts": e}
                                    for t, a, e in evals]})
        path = os.path.join(self.dir, "tests.yml")
        with open(path, "w") as f:  # JSON is YAML
            json.dump({"rule_files": [RULES], "tests": tests}, f, indent=1)
        exe = shutil.which("promtool")
        self.assertIsNotNone(exe, "promtool is not installed (scripts/dev.sh installs it)")
        p = subprocess.run([exe, "test", "rules", path], capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr + open(path).read())
        self.assertIn("SUCCESS", p.stdout + p.stderr)

    def seed001(self):
        keys = [hbtest.unb64(k["base64"]) for k in run(
            ["-o", "json", "splits", "--range-splits", "10", "--start", "0000000000000000",
             "--end", "ffffffffffffffff"]).json()["splits"]]
        self.create(TABLE, keys, 10, "hex{16}")

    def test_rules__unreachable_regions_fire_and_a_file_no_run_renews_goes_stale(self):
        self.seed001()
        s = self.prom("audit.prom", "audit", TABLE, rc=1)
        self.assertEqual(s['hbtab_audit_findings{table="%s",kind="unreachable"}' % TABLE], 6)
        run_labels = {"command": "audit", "table": TABLE}
        unreachable = [alert("HBaseUnreachableRegions", {"table": TABLE, "kind": "unreachable"},
                             "%s: 6 regions no row key can reach" % TABLE)]
        stale = [alert("HbtabRunStale", run_labels,
                       "hbtab audit of %s: no success for 1d 3h 0m 0s" % TABLE)]
        self.promtool([(s, [("10m", "HBaseUnreachableRegions", unreachable),
                            ("10m", "HbtabRunFailed", []),   # findings are a success
                            ("10m", "HbtabRunStale", []),
                            ("25h", "HbtabRunStale", []),
                            ("27h", "HbtabRunStale", stale)])])

    def test_rules__a_failed_run_fires_with_its_exit_status(self):
        self.create(HEALTHY, HEX10, 10, "hex{8}")
        self.prom("audit.prom", "audit", HEALTHY, rc=0)
        self.assertOk(self.hb("drop", HEALTHY, "--yes"))
        s = self.prom("audit.prom", "audit", HEALTHY, rc=4)  # not found: a server error
        self.assertEqual(s['hbtab_last_run_success{command="audit",table="%s"}' % HEALTHY], 0)
        failed = [alert("HbtabRunFailed", {"command": "audit", "table": HEALTHY},
                        "hbtab audit of %s failed (exit status 4)" % HEALTHY)]
        self.promtool([(s, [("2m", "HbtabRunFailed", []),  # for: 5m
                            ("10m", "HbtabRunFailed", failed),
                            ("10m", "HBaseUnreachableRegions", [])])])

    def test_rules__a_healthy_table_fires_nothing(self):
        self.create(HEALTHY, HEX10, 10, "hex{8}")
        s = self.prom("audit.prom", "audit", HEALTHY, rc=0)
        self.promtool([(s, [("1h", a, []) for a in ("HbtabRunFailed", "HbtabRunStale",
                                                    "HBaseUnreachableRegions",
                                                    "HbtabRotateDropsPending")])])

    def test_rules__drops_rotate_leaves_pending_fire_after_three_hours(self):
        def rotate(now, *extra):
            return self.prom("rotate.prom", "rotate", "--template", TEMPLATE, "--hex-splits",
                             "4", "--now", now, "--lock", os.path.join(self.dir, "lock"),
                             *extra[:-1], rc=extra[-1])
        rotate("2026-11-01", "--ahead", "1", 0)
        s = rotate("2026-11-05", "--ahead", "0", "--retain", "2", "--yes", "--max-drops", "1",
                   5)
        self.assertEqual(s['hbtab_rotate_pending_drops{table="%s"}' % TEMPLATE], 1)
        pending = [alert("HbtabRotateDropsPending", {"table": TEMPLATE},
                         "rotate %s: 1 tables past retention not dropped" % TEMPLATE)]
        failed = [alert("HbtabRunFailed", {"command": "rotate", "table": TEMPLATE},
                        "hbtab rotate of %s failed (exit status 5)" % TEMPLATE)]
        self.promtool([(s, [("1h", "HbtabRotateDropsPending", []),
                            ("4h", "HbtabRotateDropsPending", pending),
                            ("4h", "HbtabRunFailed", failed)])])


if __name__ == "__main__":
    hbtest.main()
