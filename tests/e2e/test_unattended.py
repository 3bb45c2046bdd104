"""Unattended (cron-style) runs never report success they have not earned: unknown state,
refusals before DDL, leaked scanners, idempotent reruns, dry runs that predict, rotation that
keeps its promise, and plain messages for missing namespaces."""
import os
import re
import subprocess
import tempfile
import urllib.request

import hbtest
from hbtest import unb64
from lib.rows import put_rows


class SampledSplits(hbtest.EmulatorTest):
    def test_sampled_create_reruns_verified_against_its_own_boundaries_and_metadata_row_not_sampled(self):
        # the sampled table is made by hbtab, so it carries hbtab's metadata row
        self.assertOk(self.hb("create", "samp", "--hex-splits", "2", "-q"))
        keys = [b"user%05d" % i for i in range(3000)]
        put_rows(self.emu, "samp", keys)
        # a small sample takes every row but the metadata row: the same keys as a file of
        # the data rows gives
        tmp = tempfile.mkdtemp(prefix="hbtab-sample-")
        try:
            path = os.path.join(tmp, "keys.txt")
            with open(path, "w") as f:
                f.write("".join(k.decode() + "\n" for k in keys[:150]))
            self.emu.reset()
            self.assertOk(self.hb("create", "small", "--hex-splits", "2", "-q"))
            put_rows(self.emu, "small", keys[:150])
            want = self.hb("splits", "--sampled-splits", "4", "--sample-file", path)
        finally:
            subprocess.run(["rm", "-rf", tmp])
        got = self.hb("splits", "--sampled-splits", "4", "--sample-table", "small")
        self.assertOk(got)
        self.assertEqual(got.out, want.out)
        r = self.hb("-o", "json", "create", "s2", "--sampled-splits", "4", "--sample-table",
                    "small")
        self.assertOk(r)
        self.assertEqual(self.emu.boundaries("s2"), [k.encode() for k in want.out.split()])
        # the row records the options in force (the default --sample-rows, not the keys kept)
        self.assertEqual(self.emu.metadata_row("s2")["cf:splits"],
                         "--sampled-splits 4 --sample-table small --sample-rows 10000")
        # a sample thinned by the server's random filter differs on every run: a rerun
        # verifies the table against the boundaries recorded for it, changing nothing
        self.emu.reset()
        self.assertOk(self.hb("create", "samp", "--hex-splits", "2", "-q"))
        put_rows(self.emu, "samp", keys)
        argv = ("create", "fromsample", "--sampled-splits", "4", "--sample-table", "samp",
                "--sample-rows", "300")
        self.assertOk(self.hb(*argv, "-q"))
        made = self.emu.boundaries("fromsample")
        for _ in range(3):
            self.emu.clear_requests()
            r = self.hb("-o", "json", *argv)
            self.assertOk(r)
            self.assertEqual((r.json()["created"], r.json()["verified"]), (False, True))
            self.assertEqual(self.emu.boundaries("fromsample"), made)
            writes = [q for q in self.emu.requests() if q["method"] in ("PUT", "POST", "DELETE")
                      and "/scanner" not in q["path"]]
            self.assertEqual(writes, [])
        # another spec than the recorded one is compared with its fresh sample as before
        r = self.hb("create", "fromsample", "--sampled-splits", "4", "--sample-table", "samp",
                    "--sample-rows", "200")
        self.assertFails(r, 5, r"already exists with other region boundaries")


class StateUnknown(hbtest.EmulatorTest):
    def test_audit_and_regions_report_state_unknown_never_healthy_when_meta_and_thrift_fail(self):
        self.assertOk(self.hb("create", "fx", "--hex-splits", "4", "--keyspace", "hex{8}", "-q"))
        self.emu.control("POST", "/control/disable", {"table": "fx"})
        # a user without READ on hbase:meta, and Thrift2 failing
        self.emu.fault(server="rest", path="hbase%3Ameta", kind="403", count=-1)
        self.emu.fault(server="thrift", kind="500", count=-1)
        r = self.hb("-q", "audit", "fx")
        self.assertEqual(r.rc, 1, r)
        self.assertRegex(r.out, r"^state_unknown: cannot learn whether table 'fx' is enabled "
                                r"and its regions open: .*HTTP 403.*thrift2 isTableEnabled.*"
                                r"HTTP 500.*the table may be disabled")
        self.assertEqual(len(r.out.splitlines()), 1, r)
        j = self.hb("-o", "json", "audit", "fx")
        self.assertEqual(j.rc, 1, j)
        doc = j.json()
        self.assertFalse(doc["healthy"])
        self.assertIsNone(doc["metadata_row"])  # not "missing": a disabled table hides it
        self.assertEqual([f["kind"] for f in doc["findings"]], ["state_unknown"])
        t = self.hb("audit", "fx")
        self.assertIn("unhealthy: 4 regions, 1 finding, metadata row unknown", t.out)
        self.assertNotIn("no metadata row", t.out)
        g = self.hb("-q", "regions", "fx")
        self.assertEqual(g.rc, 1, g)
        self.assertEqual(len(g.out.splitlines()), 4)
        self.assertRegex(g.err, r"^hbtab: state_unknown: cannot learn whether table 'fx' is "
                                r"enabled")
        gj = self.hb("-o", "json", "regions", "fx")
        self.assertEqual(gj.rc, 1, gj)
        self.assertIsNone(gj.json()["table_state"])
        self.assertEqual([f["kind"] for f in gj.json()["findings"]], ["state_unknown"])
        # without --thrift the message says there was nothing else to ask
        r = hbtest.run(["--rest", self.emu.rest, "-q", "audit", "fx"])
        self.assertEqual(r.rc, 1, r)
        self.assertIn("no --thrift server to ask instead", r.out)
        # once meta is readable the state is known: the finding is the real one
        self.emu.clear_faults()
        r = self.hb("-q", "audit", "fx")
        self.assertEqual(r.rc, 1, r)
        self.assertRegex(r.out, r"^disabled: table 'fx' is disabled")


class CreateKeyspaceRefusal(hbtest.EmulatorTest):
    def test_create_keyspace_refuses_an_unreachable_design_before_any_ddl_unless_allowed(self):
        argv = ("create", "t1", "--hex-splits", "4", "--keyspace", "dec{8}")
        r = self.hb(*argv)
        self.assertFails(r, 1, r"^hbtab: refusing to create 't1': 1 of 4 regions cannot hold "
                               r"any key of keyspace 'dec\{8\}'; nothing was sent "
                               r"\(--allow-unreachable creates it anyway\)")
        self.assertIn("region 3 starting at 'c0000000'", r.err)
        self.assertEqual(r.out, "")
        self.assertIsNone(self.emu.table("t1"))
        self.assertEqual([q for q in self.emu.requests() if q["method"] != "GET"], [])
        # the explicit flag creates it; under -q the findings alone are printed
        r = self.hb("-q", *argv, "--allow-unreachable")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual(r.out.splitlines(), ["1 region no key of 'dec{8}' can reach:",
                                              "  region 3 starting at 'c0000000'"])
        self.assertEqual(len(self.emu.live_regions("t1")), 4)
        self.assertFails(self.hb("create", "t2", "--hex-splits", "4", "--allow-unreachable"), 2,
                         "--allow-unreachable needs --keyspace")


class ScannerDelete(hbtest.EmulatorTest):
    KEYS = [b"user%04d" % i for i in range(200)]

    def setUp(self):
        super().setUp()
        self.emu.create("samp", [b"user0100"])
        put_rows(self.emu, "samp", self.KEYS)

    def open_scanners(self):
        return self.emu.control("GET", "/control/scanners")[1]

    def deletes(self):
        return [(q["method"], q["status"]) for q in self.emu.requests()
                if q["method"] == "DELETE" and "/scanner/" in q["path"]]

    def test_failed_scanner_delete_is_reported_even_under_q_and_transient_ones_retried(self):
        argv = ("-q", "splits", "--sampled-splits", "4", "--sample-table", "samp")
        clean = self.hb(*argv)
        self.assertOk(clean)
        self.assertEqual(clean.err, "")
        # a 503 is transient: the DELETE is sent again, the scanner is gone, nothing to say
        self.emu.clear_requests()
        self.emu.fault(method="DELETE", path="/scanner/", kind="503", count=1)
        r = self.hb(*argv)
        self.assertOk(r)
        self.assertEqual(r.out, clean.out)
        self.assertEqual(r.err, "")
        self.assertEqual(self.deletes(), [("DELETE", 503), ("DELETE", 200)])
        self.assertEqual(self.open_scanners(), [])
        # a 500, a 403 or an answer that is not HBase's: the scanner may be left open, and
        # cron hears of it (the keys read are complete, so the run itself succeeds)
        for kind, said in (("500", r"HTTP 500"), ("403", r"HTTP 403"),
                           ("wrong_ctype", r"HTTP 200 with a \d+-byte body")):
            self.emu.clear_faults()
            self.emu.clear_requests()
            self.emu.fault(method="DELETE", path="/scanner/", kind=kind, count=1)
            r = self.hb(*argv)
            self.assertOk(r)
            self.assertEqual(r.out, clean.out)
            self.assertRegex(r.err, r"^hbtab: warning: (unexpected answer to )?DELETE "
                                    r"/samp/scanner/\w+: .*%s.*the scanner may stay open on "
                                    r"the gateway" % said)
            self.assertEqual(len(r.err.splitlines()), 1, r)
            self.assertEqual(len(self.deletes()), 1)


class Rotation(hbtest.EmulatorTest):
    def setUp(self):
        super().setUp()
        self.tmp = tempfile.mkdtemp(prefix="hbtab-unattended-")

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.tmp])

    def rotate(self, template, now, *extra):
        return self.hb("rotate", "--template", template, "--now", now,
                       "--lock", os.path.join(self.tmp, "lock"), *extra)

    def tables(self, prefix):
        return sorted(t["name"] for t in self.emu.state()["tables"] if t["name"].startswith(prefix))

    def test_rotate_dry_run_predicts_the_real_runs_lines_and_status(self):
        real_word = {"would create": "created", "would drop": "dropped"}

        def predicted(dry, yes):
            out = []
            for line in dry.out.splitlines():
                action, rest = re.match(r"^(would create|would drop|\S+) +(.*)$", line).groups()
                if action in real_word and (action != "would drop" or yes):
                    action = real_word[action]
                out.append("%-11s %s" % (action, rest))
            return out

        scenarios = [
            # (now, spec, extra): a fresh window, a rerun, a design change on the cron line
            # with a drop due, drops within and beyond --max-drops, without --yes
            ("2026-12-20", ("--hex-splits", "16"), ("--ahead", "1", "--retain", "9")),
            ("2026-12-21", ("--hex-splits", "16"), ("--ahead", "1", "--retain", "9")),
            ("2026-12-23", ("--hex-splits", "8"), ("--ahead", "1", "--retain", "2", "--yes")),
            ("2026-12-25", ("--hex-splits", "16"), ("--ahead", "0", "--retain", "5")),
            ("2026-12-26", ("--hex-splits", "16"), ("--ahead", "0", "--retain", "5", "--yes",
                                                    "--max-drops", "1")),
            ("2026-12-26", ("--hex-splits", "16"), ("--ahead", "0", "--retain", "3", "--yes",
                                                    "--max-drops", "5")),
        ]
        self.assertOk(self.rotate("cc_%Y%m%d", "2026-12-22", "--hex-splits", "16", "--ahead", "1"))
        drys = []
        for now, spec, extra in scenarios:
            with self.subTest(now=now, spec=spec, extra=extra):
                before = self.tables("cc_")
                dry = self.rotate("cc_%Y%m%d", now, *spec, *extra, "--dry-run")
                self.assertEqual(self.tables("cc_"), before, "a dry run changed something")
                drys.append(dry.out)
                real = self.rotate("cc_%Y%m%d", now, *spec, *extra)
                self.assertEqual((dry.rc, predicted(dry, "--yes" in extra), dry.err),
                                 (real.rc, real.out.splitlines(), real.err), (dry, real))
        # the design change was seen by the dry run as "differs", not as "exists"
        self.assertIn("differs     cc_20261223 (16 regions, N=16)", drys[2])
        self.assertNotIn("exists", "".join(drys))

    def test_rotate_still_creates_the_tables_ahead_when_the_design_changed(self):
        self.assertOk(self.rotate("cc_%Y%m%d", "2026-12-25", "--hex-splits", "16", "--ahead", "1"))
        r = self.rotate("cc_%Y%m%d", "2026-12-26", "--hex-splits", "8", "--ahead", "1",
                        "--retain", "1", "--yes")
        self.assertEqual(r.rc, 1, r)
        # the existing table keeps its own 16 regions and N; the new one gets the new design
        self.assertEqual(r.out.splitlines(), [
            "differs     cc_20261226 (16 regions, N=16): not this run's design; left as it is",
            "created     cc_20261227 (8 regions, N=8)"])
        self.assertRegex(r.err, r"table 'cc_20261226' already exists with other region boundaries")
        self.assertEqual(len(self.emu.live_regions("cc_20261227")), 8)
        self.assertEqual(len(self.emu.live_regions("cc_20261226")), 16)
        # drops are withheld while a table differs: cc_20261225 is past retention but stays
        self.assertEqual(self.tables("cc_"), ["cc_20261225", "cc_20261226", "cc_20261227"])
        q = self.rotate("cc_%Y%m%d", "2026-12-26", "--hex-splits", "8", "--ahead", "1", "-q")
        self.assertEqual(q.rc, 1, q)
        self.assertEqual(q.out, "")

    def test_rotate_adopt_marks_look_alikes_with_the_design_and_names_the_rest_under_q(self):
        tmpl = "ev_%Y%m%d"
        # made by 'hbtab create' with exactly the design, inside the window
        self.assertOk(self.hb("create", "ev_20261120", "--hex-splits", "4", "-q"))
        # the same, but another design
        self.assertOk(self.hb("create", "ev_20261121", "--hex-splits", "2", "-q"))
        # past retention, unmarked: never dropped
        self.assertOk(self.hb("create", "ev_20261101", "--hex-splits", "4", "-q"))
        r = self.rotate(tmpl, "2026-11-20", "--hex-splits", "4", "--ahead", "0")
        self.assertIn("verified    ev_20261120 (4 regions, N=4): not managed", r.out)
        self.assertNotIn("cf:rotate", self.emu.metadata_row("ev_20261120"))
        dry = self.rotate(tmpl, "2026-11-20", "--hex-splits", "4", "--ahead", "0", "--adopt",
                          "--dry-run")
        self.assertIn("verified    ev_20261120 (4 regions, N=4): would adopt", dry.out)
        self.assertNotIn("cf:rotate", self.emu.metadata_row("ev_20261120"))
        r = self.rotate(tmpl, "2026-11-20", "--hex-splits", "4", "--ahead", "1", "--adopt",
                        "--retain", "5", "--yes")
        self.assertEqual(r.rc, 1, r)
        self.assertEqual(r.out.splitlines()[:2], [
            "verified    ev_20261120 (4 regions, N=4): adopted: it has this run's design and "
            "now carries the rotate mark",
            "differs     ev_20261121 (2 regions): not this run's design; left as it is"])
        self.assertEqual(self.emu.metadata_row("ev_20261120")["cf:rotate"], tmpl)
        self.assertNotIn("cf:rotate", self.emu.metadata_row("ev_20261121"))
        # adopted, it is retired like any managed table; the unmarked one never is, and is
        # named once per run even under -q
        req = urllib.request.Request(self.emu.rest + "/ev_20261121/schema", method="DELETE")
        urllib.request.urlopen(req, timeout=60).close()
        q = self.rotate(tmpl, "2026-11-30", "--hex-splits", "4", "--ahead", "0", "--adopt",
                        "--retain", "2", "--yes", "--max-drops", "5", "-q")
        self.assertOk(q)
        self.assertEqual(q.out, "")
        self.assertEqual(q.err.splitlines(), [
            "hbtab: warning: 1 table past retention matches the template 'ev_%Y%m%d' but "
            "carries no rotate mark, so rotate never drops it: 'ev_20261101' (drop it with "
            "'hbtab drop TABLE --yes' when no longer needed)"])
        self.assertEqual(self.tables("ev_"), ["ev_20261101", "ev_20261130"])

    def test_missing_namespace_is_named_plainly_and_created_with_create_namespace(self):
        tmpl = "clicks:h_%Y%m%d%H"
        r = self.rotate(tmpl, "2026-11-20T08:00Z", "--hex-splits", "4", "--ahead", "1")
        self.assertFails(r, 4, r"^hbtab: namespace 'clicks' does not exist, so table "
                               r"'clicks:h_2026112008' cannot be created in it; add "
                               r"--create-namespace to create it, or create it in the hbase "
                               r"shell: create_namespace 'clicks'")
        self.assertEqual(self.tables("clicks:"), [])
        self.assertEqual(r.out, "failed      clicks:h_2026112008 (N=4)\n")
        c = self.hb("create", "clicks:t1", "--hex-splits", "4")
        self.assertFails(c, 4, r"namespace 'clicks' does not exist.*--create-namespace")
        d = self.rotate(tmpl, "2026-11-20T08:00Z", "--hex-splits", "4", "--ahead", "1",
                        "--create-namespace", "--dry-run")
        self.assertOk(d)
        self.assertEqual(d.out.splitlines(), ["would create clicks:h_2026112008 (4 regions, N=4)",
                                              "would create clicks:h_2026112009 (4 regions, N=4)"])
        self.assertNotIn("clicks", self.emu.rest_get("/namespaces")[1]["Namespace"])
        r = self.rotate(tmpl, "2026-11-20T08:00Z", "--hex-splits", "4", "--ahead", "1",
                        "--create-namespace")
        self.assertOk(r)
        self.assertEqual(r.out.splitlines(), ["created     clicks:h_2026112008 (4 regions, N=4)",
                                              "created     clicks:h_2026112009 (4 regions, N=4)"])
        self.assertEqual(self.tables("clicks:"), ["clicks:h_2026112008", "clicks:h_2026112009"])
        c = self.hb("create", "other:t1", "--hex-splits", "2", "--create-namespace")
        self.assertOk(c)
        self.assertIn("created namespace 'other'", c.out)


class MetadataRowDotSegments(hbtest.EmulatorTest):
    def test_metadata_row_named_dot_or_dotdot_is_written_and_read_back_as_itself(self):
        # libcurl removes dot segments from a URL path: a row GET of '.' or '..' would read
        # another resource, so such rows go through a scanner like other unsafe keys.
        for row in (".", ".."):
            self.emu.reset()
            r = self.hb("create", "mr", "--hex-splits", "2", "--metadata-row", row, "-q")
            self.assertOk(r)
            self.assertEqual(r.out, "")
            self.assertEqual(self.emu.metadata_row("mr", row=row)["cf:N"], "2")
            g = self.hb("meta", "get", "mr", "--metadata-row", row, "-o", "json")
            self.assertOk(g)
            self.assertEqual(g.json()["N"], 2)
            s = self.hb("meta", "set", "mr", "7", "--force", "--metadata-row", row, "-q")
            self.assertOk(s)
            g = self.hb("meta", "get", "mr", "--metadata-row", row, "-o", "json")
            self.assertOk(g)
            self.assertEqual(g.json()["N"], 7)
            self.emu.clear_requests()
            self.hb("meta", "get", "mr", "--metadata-row", row)
            paths = [q["path"] for q in self.emu.requests() if q["method"] == "GET"]
            self.assertFalse([p for p in paths if p.split("?")[0] in ("/mr/cf", "/cf", "/mr", "/")],
                             paths)


if __name__ == "__main__":
    hbtest.main()
