"""--format prometheus and --prom-file PATH of audit and rotate against the emulator, read back
with a real parser (Debian's python3-prometheus-client): the gauges a monitor alerts on, the
file node_exporter's textfile collector reads (replaced atomically, mode 0644), a failed run
keeping the last success time, label escaping, and the normal output left as it was."""
import os
import shutil
import stat
import tempfile
import time

from prometheus_client.parser import text_string_to_metric_families

import hbtest
from hbtest import EmulatorTest, b64, run

# Every finding kind audit knows (core/audit.h): each has a sample, 0 when absent, so an
# alert can fire on a change.
KINDS = {"unreachable", "hole", "overlap", "duplicate", "offline", "split_parent", "no_server",
         "not_open", "disabled", "state_unknown", "bad_first_start", "bad_last_end",
         "meta_rest_mismatch", "drift", "missing_metadata", "hotspot", "placement"}
HEX10 = [b"%08x" % (i * (2 ** 32 // 10)) for i in range(1, 10)]
TEMPLATE = "ev_%Y%m%d"


def parse(text):
    """{metric name: {frozenset(label items): value}}, every family a gauge with HELP text."""
    out = {}
    hbtest.promtool_check(text)
    for fam in text_string_to_metric_families(text):
        assert fam.type == "gauge", (fam.name, fam.type)
        assert fam.documentation, fam.name
        for s in fam.samples:
            out.setdefault(s.name, {})[frozenset(s.labels.items())] = s.value
    return out


def value(metrics, name, **labels):
    return metrics[name][frozenset(labels.items())]


class PromBase(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.dir = tempfile.mkdtemp(prefix="hbtab-prom-")
        self.path = os.path.join(self.dir, "hbtab.prom")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def put_meta(self, table, n, keyspace):
        cells = [{"column": b64("cf:N"), "value": b64(str(n))},
                 {"column": b64("cf:keyspace"), "value": b64(keyspace)}]
        st, body = self.emu.control("POST", "/control/put", {
            "table": table, "rows": [{"key": b64("totalPartition"), "cells": cells}]})
        self.assertIn(st, (200, 201), body)

    def seed001(self, table):
        keys = [hbtest.unb64(k["base64"]) for k in run(
            ["-o", "json", "splits", "--range-splits", "10", "--start", "0000000000000000",
             "--end", "ffffffffffffffff"]).json()["splits"]]
        self.emu.create(table, keys)
        self.put_meta(table, 10, "hex{16}")

    def read(self):
        with open(self.path, encoding="utf-8") as f:
            return hbtest.promtool_check(f.read())

    def assertRun(self, m, command, status, before, after, **subject):
        labels = dict(command=command, **subject)
        self.assertEqual(value(m, "hbtab_last_run_success", **labels), 1 if status in (0, 1) else 0)
        self.assertEqual(value(m, "hbtab_last_run_exit_status", **labels), status)
        t = value(m, "hbtab_last_run_timestamp_seconds", **labels)
        self.assertTrue(before <= t <= after + 1, (before, t, after))
        return t


class AuditPrometheus(PromBase):
    def test_prometheus__audit_findings_per_kind_regions_and_n(self):
        self.seed001("t1")
        before = int(time.time())
        r = self.hb("audit", "t1", "--format", "prometheus")
        after = time.time()
        self.assertEqual((r.rc, r.err), (1, ""), repr(r))
        m = parse(r.out)
        t = self.assertRun(m, "audit", 1, before, after, table="t1")
        self.assertEqual(value(m, "hbtab_last_success_timestamp_seconds", command="audit",
                               table="t1"), t)
        found = {dict(k)["kind"]: v for k, v in m["hbtab_audit_findings"].items()}
        self.assertEqual(set(found), KINDS)
        self.assertTrue(all(dict(k)["table"] == "t1" for k in m["hbtab_audit_findings"]))
        self.assertEqual(found["unreachable"], 6)
        self.assertEqual({k: v for k, v in found.items() if v}, {"unreachable": 6})
        self.assertEqual(value(m, "hbtab_audit_regions", table="t1"), 10)
        self.assertEqual(value(m, "hbtab_audit_partitions", table="t1"), 10)
        # nothing but the exposition on stdout: no text summary, no JSON
        self.assertNotIn("unhealthy", r.out)
        self.assertTrue(all(l.startswith(("# HELP ", "# TYPE ", "hbtab_"))
                            for l in r.out.splitlines()), r.out)

    def test_prometheus__healthy_audit_has_every_kind_at_zero(self):
        self.emu.create("ok", HEX10)
        self.put_meta("ok", 10, "hex{8}")
        r = self.hb("audit", "ok", "--format", "prometheus")
        self.assertEqual((r.rc, r.err), (0, ""), repr(r))
        m = parse(r.out)
        found = {dict(k)["kind"]: v for k, v in m["hbtab_audit_findings"].items()}
        self.assertEqual(found, {k: 0 for k in KINDS})
        self.assertEqual(value(m, "hbtab_last_run_success", command="audit", table="ok"), 1)
        self.assertEqual(value(m, "hbtab_audit_regions", table="ok"), 10)

    def test_prometheus__table_without_metadata_row_has_no_n_sample(self):
        self.emu.create("bare", HEX10)
        r = self.hb("audit", "bare", "--keyspace", "hex{8}", "--format", "prometheus")
        self.assertEqual(r.rc, 0, repr(r))
        m = parse(r.out)
        self.assertNotIn("hbtab_audit_partitions", m)
        self.assertEqual(value(m, "hbtab_audit_regions", table="bare"), 10)

    def test_prometheus__format_overrides_output_option(self):
        self.emu.create("ok", HEX10)
        self.put_meta("ok", 10, "hex{8}")
        r = self.hb("-o", "json", "audit", "ok", "--format", "prometheus")
        self.assertOk(r)
        self.assertIn("hbtab_audit_findings", parse(r.out))
        r = self.hb("audit", "ok", "--format", "json")
        self.assertOk(r)
        self.assertIs(r.json()["healthy"], True)
        r = self.hb("-o", "json", "audit", "ok", "--format", "text")
        self.assertOk(r)
        self.assertTrue(r.out.startswith("healthy: 10 regions"), repr(r))
        r = self.hb("audit", "ok", "--format", "yaml")
        self.assertFails(r, 2, r"invalid value 'yaml' for --format")
        self.assertEqual(r.out, "")

    def test_prometheus__prom_file_leaves_the_normal_output_as_it_was(self):
        self.seed001("t1")
        for out in ([], ["-o", "json"], ["-q"]):
            want = self.hb(*out, "audit", "t1")
            got = self.hb(*out, "audit", "t1", "--prom-file", self.path)
            self.assertEqual((got.rc, got.out, got.err), (want.rc, want.out, want.err),
                             repr(got))
            m = parse(self.read())
            self.assertEqual(value(m, "hbtab_audit_findings", table="t1", kind="unreachable"), 6)
        # both at once: the exposition on stdout and in the file
        r = self.hb("audit", "t1", "--format", "prometheus", "--prom-file", self.path)
        self.assertEqual(r.rc, 1, repr(r))
        self.assertEqual(r.out, self.read())

    def test_prometheus__file_is_replaced_atomically_with_mode_0644(self):
        self.seed001("t1")
        old = os.umask(0o077)
        try:
            r = self.hb("audit", "t1", "--prom-file", self.path)
        finally:
            os.umask(old)
        self.assertEqual(r.rc, 1, repr(r))
        self.assertEqual(stat.S_IMODE(os.stat(self.path).st_mode), 0o644)
        first = self.read()
        # a reader holding the old file (a hard link to it here) never sees it change: the new
        # report is a new file renamed over the name
        keep = os.path.join(self.dir, "keep")
        os.link(self.path, keep)
        self.put_meta("t1", 10, "hex{1,16}")  # now regions 3..7 only
        r = self.hb("audit", "t1", "--prom-file", self.path)
        self.assertEqual(r.rc, 1, repr(r))
        with open(keep, encoding="utf-8") as f:
            self.assertEqual(f.read(), first)
        self.assertNotEqual(os.stat(keep).st_ino, os.stat(self.path).st_ino)
        m = parse(self.read())
        self.assertEqual(value(m, "hbtab_audit_findings", table="t1", kind="unreachable"), 5)
        # no temporary file is left beside it
        self.assertEqual(sorted(os.listdir(self.dir)), ["hbtab.prom", "keep"])

    def test_prometheus__failed_run_keeps_the_last_success_time(self):
        self.seed001("t1")
        r = self.hb("audit", "t1", "--prom-file", self.path)
        self.assertEqual(r.rc, 1, repr(r))
        ok = value(parse(self.read()), "hbtab_last_success_timestamp_seconds", command="audit",
                   table="t1")
        self.assertOk(self.hb("drop", "t1", "--yes"))
        before = int(time.time())
        r = self.hb("audit", "t1", "--prom-file", self.path)
        self.assertFails(r, 4, "not found")
        m = parse(self.read())
        self.assertRun(m, "audit", 4, before, time.time(), table="t1")
        self.assertEqual(value(m, "hbtab_last_success_timestamp_seconds", command="audit",
                               table="t1"), ok)
        # what a failed run could not count is left out, not reported as 0
        for name in ("hbtab_audit_findings", "hbtab_audit_regions", "hbtab_audit_partitions"):
            self.assertNotIn(name, m)
        # a failure with no earlier file knows no success
        other = os.path.join(self.dir, "other.prom")
        r = self.hb("audit", "t1", "--prom-file", other, "--format", "prometheus")
        self.assertEqual(r.rc, 4, repr(r))
        self.assertNotIn("hbtab_last_success_timestamp_seconds", parse(r.out))
        self.assertEqual(value(parse(r.out), "hbtab_last_run_success", command="audit",
                               table="t1"), 0)

    def test_prometheus__unwritable_file_is_reported_exit_2_output_unchanged(self):
        self.seed001("t1")
        want = self.hb("audit", "t1")
        for bad in (os.path.join(self.dir, "missing", "hbtab.prom"),
                    os.path.join(self.path, "under-a-file.prom")):
            if bad.startswith(self.path):
                open(self.path, "w").close()
            r = self.hb("audit", "t1", "--prom-file", bad)
            self.assertFails(r, 2, r"^hbtab: cannot write '%s': " % bad)
            self.assertEqual(r.out, want.out)
        # a directory, or nothing, is a usage error before anything is sent
        self.emu.clear_requests()
        r = self.hb("audit", "t1", "--prom-file", self.dir)
        self.assertFails(r, 2, r"--prom-file '%s' is a directory" % self.dir)
        r = self.hb("audit", "t1", "--prom-file", "")
        self.assertFails(r, 2, r"--prom-file needs a file name")
        self.assertEqual(self.emu.requests(), [])
        # a split set is not a table: nothing to monitor
        r = self.hb("audit", "--hex-splits", "4", "--keyspace", "hex{8}", "--format",
                    "prometheus")
        self.assertFails(r, 2, r"--format prometheus and --prom-file need a TABLE")

    def test_prometheus__odd_table_name_is_a_valid_label_value(self):
        name = "t\u00e1bla_\u00fc-1.x"
        self.emu.create(name, HEX10)
        r = self.hb("audit", name, "--keyspace", "hex{8}", "--format", "prometheus")
        self.assertOk(r)
        m = parse(r.out)
        self.assertEqual(value(m, "hbtab_audit_regions", table=name), 10)
        self.assertEqual(value(m, "hbtab_last_run_success", command="audit", table=name), 1)


class RotatePrometheus(PromBase):
    def rotate(self, now, *extra):
        return self.hb("rotate", "--template", TEMPLATE, "--hex-splits", "4", "--now", now,
                       "--lock", os.path.join(self.dir, "lock"), *extra)

    def test_prometheus__rotate_created_dropped_and_pending_drops(self):
        before = int(time.time())
        r = self.rotate("2026-11-01", "--ahead", "1", "--prom-file", self.path)
        self.assertOk(r)
        m = parse(self.read())
        t1 = self.assertRun(m, "rotate", 0, before, time.time(), table=TEMPLATE)
        self.assertEqual(value(m, "hbtab_rotate_tables_created", table=TEMPLATE), 2)
        self.assertEqual(value(m, "hbtab_rotate_tables_dropped", table=TEMPLATE), 0)
        self.assertEqual(value(m, "hbtab_rotate_pending_drops", table=TEMPLATE), 0)
        # two tables past retention, one drop allowed: exit 5, the other drop pending
        r = self.rotate("2026-11-05", "--ahead", "0", "--retain", "2", "--yes",
                        "--max-drops", "1", "--prom-file", self.path)
        self.assertEqual(r.rc, 5, repr(r))
        m = parse(self.read())
        self.assertRun(m, "rotate", 5, before, time.time(), table=TEMPLATE)
        self.assertEqual(value(m, "hbtab_last_success_timestamp_seconds", command="rotate",
                               table=TEMPLATE), t1)
        self.assertEqual(value(m, "hbtab_rotate_tables_created", table=TEMPLATE), 1)
        self.assertEqual(value(m, "hbtab_rotate_tables_dropped", table=TEMPLATE), 1)
        self.assertEqual(value(m, "hbtab_rotate_pending_drops", table=TEMPLATE), 1)
        # on stdout instead of the text lines
        r = self.rotate("2026-11-05", "--ahead", "0", "--retain", "2", "--yes",
                        "--max-drops", "5", "--format", "prometheus")
        self.assertOk(r)
        m = parse(r.out)
        self.assertRun(m, "rotate", 0, before, time.time(), table=TEMPLATE)
        self.assertEqual(value(m, "hbtab_rotate_tables_created", table=TEMPLATE), 0)
        self.assertEqual(value(m, "hbtab_rotate_tables_dropped", table=TEMPLATE), 1)
        self.assertEqual(value(m, "hbtab_rotate_pending_drops", table=TEMPLATE), 0)

    def test_prometheus__rotate_prom_file_leaves_the_normal_output_as_it_was(self):
        self.assertOk(self.rotate("2026-11-01", "--ahead", "1"))
        for out in ([], ["-o", "json"]):
            want = self.hb(*out, "rotate", "--template", TEMPLATE, "--hex-splits", "4",
                           "--now", "2026-11-09", "--retain", "3", "--dry-run")
            got = self.hb(*out, "rotate", "--template", TEMPLATE, "--hex-splits", "4",
                          "--now", "2026-11-09", "--retain", "3", "--dry-run",
                          "--prom-file", self.path)
            self.assertEqual((got.rc, got.out, got.err), (want.rc, want.out, want.err))
            self.assertEqual([n for n in os.listdir(self.dir) if n.startswith(".")], [])
            m = parse(self.read())
            self.assertEqual(value(m, "hbtab_rotate_tables_dropped", table=TEMPLATE), 0)


class RepairPrometheus(PromBase):
    def test_prometheus__repair_plan_and_apply(self):
        self.seed001("t1")
        want = self.hb("repair", "t1", "-o", "json")
        self.assertEqual(want.rc, 1, repr(want))
        steps = want.json()["steps"]
        r = self.hb("repair", "t1", "--format", "prometheus")
        self.assertEqual((r.rc, r.err), (1, ""), repr(r))
        m = parse(r.out)
        planned = {dict(k)["kind"]: v for k, v in m["hbtab_repair_planned"].items()}
        self.assertEqual(planned["unreachable"], 2)
        self.assertEqual({k: v for k, v in planned.items() if v},
                         {s["finding"]: sum(1 for x in steps if x["finding"] == s["finding"])
                          for s in steps})
        self.assertLessEqual({"unreachable", "unreachable_not_empty", "unreachable_unproven",
                              "unreachable_isolated", "empty", "hotspot",
                              "hotspot_no_split_key"}, set(planned))
        for name, v in (("hbtab_repair_table_readable", 1), ("hbtab_repair_regions", 10),
                        ("hbtab_repair_steps_done", 0), ("hbtab_repair_steps_deferred", 0),
                        ("hbtab_repair_open", 2)):
            self.assertEqual(value(m, name, table="t1"), v, name)
        self.assertEqual(value(m, "hbtab_last_run_success", command="repair", table="t1"), 1)
        # the script is standard output: the gauges can only go to a file
        r = self.hb("repair", "t1", "--via", "print", "--format", "prometheus")
        self.assertFails(r, 2, r"--via print writes the script on standard output")
        # --apply through the shell stand-in, the gauges beside the normal output
        shell = "ruby %s -n" % hbtest.SHELL_STANDIN
        r = self.hb("repair", "t1", "--apply", "--hbase-shell", shell, "--prom-file", self.path,
                    env={"HBEMU_CONTROL": self.emu.control_url})
        self.assertOk(r)
        self.assertRegex(r.out, r"fixed: 2 steps done on 't1'")
        m = parse(self.read())
        self.assertEqual(value(m, "hbtab_repair_steps_done", table="t1"), 2)
        self.assertEqual(value(m, "hbtab_repair_open", table="t1"), 0)
        self.assertEqual(value(m, "hbtab_last_run_exit_status", command="repair", table="t1"), 0)


if __name__ == "__main__":
    hbtest.main()
