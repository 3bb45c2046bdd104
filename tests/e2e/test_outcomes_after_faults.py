"""End-to-end: what hbtab reports when a run ends badly or oddly. A run that the deadline or a
signal ends is a failed run for its readers too (the --prom-file gauges, the -o json error
object); -o json always prints a document or the error object; a drop whose answer was lost
says what it found; messages say a thing once, on one line, and name the right cause; -q
keeps the restore handle of a snapshot; rotate's report names the table it failed to drop,
and a table kept on purpose is acknowledged once and not warned about every night."""
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import urllib.request

import hbtest
from hbtest import EmulatorTest, b64
from lib import fakehttp, tlsca

GUARD = 120  # seconds: a guard against a hang only
TABLE = "events_user_clicks_20261128"
NS_TABLE = "ns:events_user_clicks_20261128"
SEED = ["--range-splits", "10", "--start", "0000000000000000", "--end", "ffffffffffffffff"]


def prom_samples(path):
    """The samples of an exposition file as {"name{labels}": value}."""
    out = {}
    with open(path) as f:
        hbtest.promtool_check(f.read())
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            k, v = line.rsplit(" ", 1)
            out[k] = float(v)
    return out


class Outcomes(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.dir = tempfile.mkdtemp(prefix="hbtab-outcomes-")
        self.home = os.path.join(self.dir, "home")
        os.mkdir(self.home)

    def tearDown(self):
        self.emu.control("POST", "/control/release")
        shutil.rmtree(self.dir, ignore_errors=True)
        super().tearDown()

    def seeded(self, table=TABLE, rows=(b"0123456789abcdef", b"cafebabecafebabe")):
        r = self.hb("splits", *SEED, "--format", "json")
        self.assertOk(r)
        keys = [hbtest.unb64(k["base64"]) for k in r.json()["splits"]]
        self.emu.create(table, keys, families=("info",))
        st, body = self.emu.control("POST", "/control/put", {"table": table, "rows": [
            {"key": b64(k), "cells": [{"column": b64("info:q"), "value": b64("v")}]}
            for k in rows]})
        self.assertEqual(st, 200, body)
        return keys

    def shell(self):
        return ["--hbase-shell", "ruby %s -n" % hbtest.SHELL_STANDIN]

    def shell_env(self):
        return {"HBEMU_CONTROL": self.emu.control_url}

    def start(self, *args):
        return subprocess.Popen([hbtest.HBTAB, "--rest", self.emu.rest, "--no-progress"] +
                                list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=hbtest.clean_env(self.home))

    def finish(self, p):
        try:
            out, err = p.communicate(timeout=GUARD)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise
        return p.returncode, out.decode(), err.decode("utf-8", "replace")

    # ------------------------------------------------------- deadline and signals

    def test_deadline_is_a_failed_run_in_the_prom_file_and_the_json_error(self):
        req = urllib.request.Request(self.emu.rest + "/namespaces/ns", method="POST")
        with urllib.request.urlopen(req, timeout=60) as resp:
            self.assertIn(resp.status, (200, 201))
        self.seeded(NS_TABLE)
        prom = os.path.join(self.dir, "audit.prom")
        r = self.hb("audit", NS_TABLE, "--prom-file", prom, "-q")
        self.assertIn(r.rc, (0, 1), r)
        before = prom_samples(prom)
        labels = '{command="audit",table="%s"}' % NS_TABLE
        self.assertEqual(before["hbtab_last_run_success" + labels], 1)
        self.emu.fault(server="rest", kind="delay", seconds=30, count=-1)
        r = self.hb("--deadline", "1", "audit", NS_TABLE, "--prom-file", prom, "-o", "json")
        self.assertEqual(r.rc, 4, r)
        self.assertEqual(r.json(), {
            "error": "deadline of 1 s passed (--deadline): stopped; open scanners deleted, "
                     "temporary files removed, locks released", "exit": 4})
        after = prom_samples(prom)
        self.assertEqual(after["hbtab_last_run_success" + labels], 0)
        self.assertEqual(after["hbtab_last_run_exit_status" + labels], 4)
        self.assertGreaterEqual(after["hbtab_last_run_timestamp_seconds" + labels],
                                before["hbtab_last_run_timestamp_seconds" + labels])
        # the last success is the one the file held
        self.assertEqual(after["hbtab_last_success_timestamp_seconds" + labels],
                         before["hbtab_last_success_timestamp_seconds" + labels])
        self.assertEqual(sorted(os.listdir(self.dir)), ["audit.prom", "home"])
        # a file that did not exist is made, for repair as well
        fresh = os.path.join(self.dir, "repair.prom")
        r = self.hb("--deadline", "1", "repair", NS_TABLE, "--keyspace", "hex{16}",
                    "--prom-file", fresh)
        self.assertEqual(r.rc, 4, r)
        rl = '{command="repair",table="%s"}' % NS_TABLE
        self.assertEqual(prom_samples(fresh)["hbtab_last_run_exit_status" + rl], 4)
        self.assertNotIn("hbtab_last_success_timestamp_seconds" + rl, prom_samples(fresh))

    def test_sigterm_is_a_failed_run_in_the_prom_file_and_the_json_error(self):
        self.emu.create("ev_20261127", [b"4", b"8"])
        prom = os.path.join(self.dir, "rotate.prom")
        self.emu.fault(server="rest", kind="hold", seconds=60, count=-1)
        p = self.start("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "4", "--now",
                       "2026-11-28", "--lock", os.path.join(self.dir, "lock"),
                       "--prom-file", prom, "-o", "json")
        hbtest.wait_for(lambda: self.emu.control("GET", "/control/held")[1]["held"] > 0 or
                        p.poll() is not None, "the held request")
        p.send_signal(signal.SIGTERM)
        rc, out, err = self.finish(p)
        self.assertEqual(rc, 143, err)
        self.assertEqual(json.loads(out), {"error": "terminated (SIGTERM)", "exit": 143})
        labels = '{command="rotate",table="ev_%Y%m%d"}'
        got = prom_samples(prom)
        self.assertEqual(got["hbtab_last_run_success" + labels], 0)
        self.assertEqual(got["hbtab_last_run_exit_status" + labels], 143)
        self.assertEqual(sorted(os.listdir(self.dir)), ["home", "lock", "rotate.prom"])

    def test_sigint_under_format_prometheus_prints_the_failure_gauges(self):
        self.seeded()
        self.emu.fault(server="rest", kind="hold", seconds=60, count=-1)
        p = self.start("audit", TABLE, "--format", "prometheus")
        hbtest.wait_for(lambda: self.emu.control("GET", "/control/held")[1]["held"] > 0 or
                        p.poll() is not None, "the held request")
        p.send_signal(signal.SIGINT)
        rc, out, err = self.finish(p)
        self.assertEqual(rc, 130, err)
        hbtest.promtool_check(out)
        self.assertIn('hbtab_last_run_exit_status{command="audit",table="%s"} 130\n' % TABLE,
                      out)

    # ------------------------------------------------------- -o json documents

    def test_repair_json_when_the_table_cannot_be_read_completely(self):
        self.seeded()
        self.emu.fault(server="rest", kind="invalid_json", path=".*hbase.*meta.*", count=20)
        # no Thrift2 server to ask for the table's state instead
        r = hbtest.run(["--rest", self.emu.rest, "--retries", "1", "repair", TABLE,
                        "--keyspace", "hex{16}", "-o", "json"])
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        self.assertEqual((j["table"], j["readable"], j["steps"], j["applied"]),
                         (TABLE, False, [], False), r)
        self.assertTrue(j["reason"], r)
        self.assertRegex(r.err, "cannot read table '%s' completely" % TABLE)

    def test_meta_get_json_without_a_metadata_row_prints_the_document_with_nulls(self):
        self.emu.create(TABLE, [b"8"], families=("info",))
        r = self.hb("-o", "json", "meta", "get", TABLE)
        self.assertEqual(r.rc, 1, r)
        self.assertEqual(r.json(), {"table": TABLE, "family": "info", "row": "totalPartition",
                                    "N": None, "keyspace": None, "splits": None,
                                    "created": None, "creator": None, "rotate": None})
        self.assertFails(r, 1, "no metadata row 'totalPartition' in table '%s'" % TABLE)

    def test_repair_via_print_json_is_the_plan_with_the_script(self):
        self.seeded()
        script = self.hb("repair", TABLE, "--keyspace", "hex{16}", "--via", "print")
        self.assertEqual(script.rc, 1, script)
        r = self.hb("repair", TABLE, "--keyspace", "hex{16}", "--via", "print", "-o", "json")
        self.assertEqual(r.rc, 1, r)
        j = r.json()
        self.assertEqual(j["script"], script.out)
        self.assertEqual([s["command"] for s in j["steps"]],
                         [ln for ln in script.out.splitlines() if ln.startswith("merge_region")])
        self.assertIn("# a split only submitted: run 'hbtab repair %s' afterwards" % TABLE,
                      script.out)

    def test_repair_regions_gauge_counts_the_regions_after_apply(self):
        self.seeded()
        prom = os.path.join(self.dir, "repair.prom")
        r = self.hb("repair", TABLE, "--keyspace", "hex{16}", "--apply", "--prom-file", prom,
                    *self.shell(), env=self.shell_env())
        self.assertOk(r)
        got = prom_samples(prom)
        # regions 0-1 and 2-7 merged: 4 of the 10 read before
        self.assertEqual(len(self.emu.live_regions(TABLE)), 4)
        self.assertEqual(got['hbtab_repair_regions{table="%s"}' % TABLE], 4)
        self.assertEqual(got['hbtab_repair_steps_done{table="%s"}' % TABLE], 2)

    def test_repair_of_a_default_namespace_name_waits_on_the_tables_meta_rows(self):
        self.seeded()
        r = self.hb("-v", "repair", "default:" + TABLE, "--keyspace", "hex{16}", "--apply",
                    *self.shell(), env=self.shell_env())
        self.assertOk(r)
        # meta rows name a default-namespace table bare: every scan of them says so (a
        # range from "default:T" holds no row and would find every region OPEN at once)
        scans = [ln for ln in r.err.splitlines() if "GET /hbase%3Ameta/*?startrow=" in ln]
        self.assertTrue(scans, r)
        self.assertFalse([ln for ln in scans if "startrow=default" in ln], r)
        self.assertEqual(len(self.emu.live_regions(TABLE)), 4)

    def test_a_split_of_a_region_gone_since_the_plan_says_so(self):
        self.emu.create(TABLE, [b"4", b"8", b"c"], families=("info",))
        st, body = self.emu.control("POST", "/control/put", {"table": TABLE, "rows": [
            {"key": b64(b"9%07d" % i), "cells": [{"column": b64("info:q"), "value": b64("v")}]}
            for i in range(300)]})
        self.assertEqual(st, 200, body)

        def planned():
            r = self.hb("repair", TABLE, "--split-hot", "--window", "0", "-o", "json")
            return r.rc == 1 and any(s["action"] == "split" for s in r.json()["steps"])
        hbtest.wait_for(planned, "the writes to show in /status/cluster")
        # what the 2.x shells print when the region named is no longer in hbase:meta
        # (admin.rb's split falls back to a table of that name)
        gone = os.path.join(self.dir, "gone.py")
        with open(gone, "w") as f:
            f.write("import re, sys\n"
                    "enc = re.search(r\"split '([0-9a-f]{32})'\", open(sys.argv[-1]).read())\n"
                    "print('ERROR RuntimeError: Unknown table %s!' % enc.group(1))\n"
                    "sys.exit(1)\n")
        r = self.hb("repair", TABLE, "--split-hot", "--window", "0", "--apply",
                    "--hbase-shell", "%s %s" % (sys.executable, gone))
        self.assertFails(r, 4, r"step 1/1 failed: shell split '[0-9a-f]{32}', .*Unknown table "
                               r"[0-9a-f]{32}! \(the region is no longer in hbase:meta: it "
                               r"changed since the plan; rerun to plan again\)")

    # ------------------------------------------------------- a drop whose answer was lost

    def test_a_drop_that_timed_out_reads_the_table_back(self):
        self.emu.create(TABLE, [b"8"])
        # the gateway has not begun the drop when hbtab stops waiting
        self.emu.fault(server="rest", method="DELETE", kind="delay", seconds=3, count=1)
        r = self.hb("--timeout", "1", "--retries", "0", "drop", TABLE, "--yes")
        self.assertFails(r, 3, r"cannot DELETE .*/%s/schema: timed out; table '%s' still "
                               r"exists, but the gateway may still be dropping it: see "
                               r"'hbtab tables', or rerun the drop with --if-exists"
                         % (TABLE, TABLE))
        hbtest.wait_for(lambda: self.emu.table(TABLE) is None, "the delayed drop")
        r = self.hb("drop", TABLE, "--yes", "--if-exists")
        self.assertOk(r)
        self.assertIn("does not exist; nothing dropped", r.out)

    def test_a_drop_whose_answer_never_came_is_done_when_the_table_is_gone(self):
        self.emu.create(TABLE, [b"8"])
        # the gateway drops the table and holds its answer until hbtab gives up
        self.emu.fault(server="rest", method="DELETE", kind="delay", until="gone",
                       seconds=30, count=1)
        r = self.hb("--timeout", "1", "--retries", "0", "drop", TABLE, "--yes", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["dropped"], True)
        self.assertIsNone(self.emu.table(TABLE))

    # ------------------------------------------------------- messages

    def test_a_step_whose_result_never_shows_is_named_without_nested_quotes(self):
        self.seeded()
        r = self.hb("repair", TABLE, "--keyspace", "hex{16}", "--apply", "--wait", "1",
                    "--hbase-shell", "true")
        self.assertFails(r, 4, r"step 1/2 failed: the shell ran merge_region '[0-9a-f]{32}', "
                               r"'[0-9a-f]{32}', but its result did not show within 1 s")
        self.assertNotIn("''", r.err)
        self.assertEqual(r.err.count("did not show"), 1, r)

    def test_a_newline_in_a_table_name_is_escaped(self):
        r = self.hb("audit", "events\nclicks")
        self.assertFails(r, 2, r"^hbtab: invalid table name 'events\\x0Aclicks': ")
        self.assertEqual(len(r.err.splitlines()), 1, r)

    def test_a_reset_from_a_server_that_answered_plain_http_is_not_blamed_on_tls(self):
        self.seeded()
        # meta get's second GET (the row, after the schema): its status line comes, then a
        # reset
        self.emu.fault(server="rest", method="GET", kind="reset_headers", skip=1, count=1)
        r = hbtest.run(["--rest", self.emu.rest, "--retries", "0", "meta", "get", TABLE])
        self.assertFails(r, 3, "connection reset by the server")
        self.assertNotIn("TLS", r.err)
        self.assertNotIn("https", r.err)

    def test_a_reset_from_a_thrift2_server_that_answered_plain_http_is_not_blamed_on_tls(self):
        # disable's first Thrift2 call (the table's state) is answered; the disableTable
        # after it meets a reset, as from a Thrift2 server restarting
        self.emu.create("events_user_clicks_20261128", [b"8"])
        self.emu.fault(server="thrift", kind="reset_headers", skip=1, count=-1)
        r = self.hb("--retries", "0", "disable", "events_user_clicks_20261128", "--yes",
                    "--via", "thrift2")
        self.assertFails(r, 3, r"thrift2 \w+: cannot POST .*connection reset")
        self.assertNotIn("https", r.err)

    def test_a_reset_at_first_contact_still_mentions_tls(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            s.listen(4)
            port = s.getsockname()[1]

            def serve():
                c, _ = s.accept()
                c.recv(65536)
                c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
                c.close()
            threading.Thread(target=serve, daemon=True).start()
            r = hbtest.run(["--rest", "http://127.0.0.1:%d" % port, "--retries", "0",
                            "tables"])
        self.assertFails(r, 3, r"if the server speaks TLS on this port, use an https:// URL")

    def test_a_redirect_names_its_location_and_is_not_followed(self):
        class Redirect(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(307)
                self.send_header("Location", "http://rest-2.example.net:8080" + self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *a):
                pass
        with fakehttp.Server(Redirect) as srv:
            r = hbtest.run(["--rest", srv.url, "--retries", "0", "audit", TABLE])
        self.assertFails(r, 4, r"HTTP 307: redirected to 'http://rest-2.example.net:8080/%s/"
                               r"[^']*', which hbtab does not follow" % TABLE)

    # ------------------------------------------------------- -q and snapshots

    def test_quiet_snapshot_and_drop_still_print_the_snapshot_name(self):
        self.emu.create(TABLE, [b"8"])
        r = self.hb("-q", "snapshot", TABLE, "events_before_backfill", *self.shell(),
                    env=self.shell_env())
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("events_before_backfill\n", ""))
        snaps = [x["name"] for x in self.emu.control("GET", "/control/snapshots")[1]]
        r = self.hb("-q", "drop", TABLE, "--yes", "--snapshot", *self.shell(),
                    env=self.shell_env())
        self.assertOk(r)
        later = [x["name"] for x in self.emu.control("GET", "/control/snapshots")[1]]
        (taken,) = set(later) - set(snaps)
        self.assertTrue(taken.startswith(TABLE + "-"), taken)
        self.assertEqual((r.out, r.err), (taken + "\n", ""))
        self.assertIsNone(self.emu.table(TABLE))

    # ------------------------------------------------------- rotate

    def rotate(self, *extra, env=None):
        return self.hb("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "4", "--now",
                       "2026-11-03", "--ahead", "0", "--lock",
                       os.path.join(self.dir, "lock"), *extra, env=env)

    def test_rotate_json_names_the_table_whose_snapshot_failed(self):
        for day in ("2026-11-01", "2026-11-02"):
            r = self.hb("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "4", "--now", day,
                        "--ahead", "0", "--retain", "9", "--lock",
                        os.path.join(self.dir, "lock"))
            self.assertOk(r)
        # the second shell run (the snapshot of ev_20261102) fails as HBase's shell reports
        calls = os.path.join(self.dir, "calls")
        wrapper = os.path.join(self.dir, "nth.py")
        with open(wrapper, "w") as f:
            f.write("import os, sys\n"
                    "n = int(open(%r).read()) + 1 if os.path.exists(%r) else 1\n"
                    "open(%r, 'w').write(str(n))\n"
                    "if n == 2:\n"
                    "    print('ERROR: org.apache.hadoop.hbase.snapshot.SnapshotCreationException:"
                    " snapshot failed')\n"
                    "    sys.exit(1)\n"
                    "os.execvp('ruby', ['ruby'] + sys.argv[1:])\n" % (calls, calls, calls))
        r = self.rotate("--retain", "1", "--max-drops", "5", "--yes", "--snapshot-before-drop",
                        "--hbase-shell", "%s %s %s -n" % (sys.executable, wrapper,
                                                          hbtest.SHELL_STANDIN),
                        "-o", "json", env=self.shell_env())
        self.assertEqual(r.rc, 4, r)
        tables = {t["name"]: t for t in r.json()["tables"]}
        self.assertEqual(tables["ev_20261101"]["action"], "dropped", r)
        self.assertIn("snapshot", tables["ev_20261101"])
        failed = tables["ev_20261102"]
        self.assertEqual(failed["action"], "failed", r)
        self.assertRegex(failed["error"], "table 'ev_20261102' not dropped: .*snapshot failed")
        self.assertIn(failed["error"], r.err)
        self.assertIsNotNone(self.emu.table("ev_20261102"))

    def test_rotate_quiet_names_only_the_unmarked_tables_not_acknowledged(self):
        self.emu.create("ev_20261101", [b"5"])  # made by hand, kept on purpose
        self.emu.create("ev_20261102", [b"5"])  # made by hand, new
        r = self.rotate("--retain", "1", "--yes", "-q", "--known-unmarked", "ev_20261101")
        self.assertOk(r)
        self.assertEqual(r.out, "")
        self.assertEqual(r.err.splitlines(), [
            "hbtab: warning: 1 table past retention matches the template 'ev_%Y%m%d' but "
            "carries no rotate mark, so rotate never drops it: 'ev_20261102' (drop it with "
            "'hbtab drop TABLE --yes' when no longer needed)"])
        r = self.rotate("--retain", "1", "--yes", "-q", "--known-unmarked", "ev_20261101",
                        "--known-unmarked", "ev_20261102")
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("", ""))
        r = self.rotate("--retain", "1", "--yes", "-o", "json", "--known-unmarked",
                        "ev_20261101")
        notes = {t["name"]: t.get("note") for t in r.json()["tables"]}
        self.assertEqual(notes["ev_20261101"], "kept on purpose (--known-unmarked): carries "
                                               "no rotate mark; left alone")
        self.assertIsNotNone(self.emu.table("ev_20261101"))
        self.assertIsNotNone(self.emu.table("ev_20261102"))

    def test_rotate_quiet_takes_the_kept_tables_from_the_profile(self):
        self.emu.create("ev_20261101", [b"5"])
        self.emu.create("ev_20261102", [b"5"])
        self.emu.create("ev_20261031", [b"5"])
        conf = os.path.join(self.dir, "config")
        with open(conf, "w") as f:
            f.write("[profile prod]\nknown-unmarked = ev_20261101, ev_20261102\n")
        env = {"HBTAB_CONFIG": conf, "HBTAB_PROFILE": "prod"}
        r = self.rotate("--retain", "1", "--yes", "-q", env=env)
        self.assertOk(r)
        self.assertEqual(r.out, "")
        self.assertRegex(r.err, r"^hbtab: warning: 1 table past retention .*: 'ev_20261031' ")
        r = self.rotate("--retain", "1", "--yes", "-q", "--known-unmarked", "ev_20261031",
                        env=env)
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("", ""))


class TlsNames(EmulatorTest):
    """An emulator serving TLS with a certificate for the address 127.0.0.1 only."""

    @classmethod
    def setUpClass(cls):
        cls.pki = tempfile.mkdtemp(prefix="hbtab-pki-")
        tlsca.make_ca(cls.pki, "ca")
        tlsca.make_server_cert(cls.pki, "ca", names="IP:127.0.0.1")
        cls.emulator_args = ("--tls-cert", os.path.join(cls.pki, "server.pem"),
                             "--tls-key", os.path.join(cls.pki, "server.key"))
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.pki, ignore_errors=True)

    def test_a_certificate_for_another_name_is_not_blamed_on_the_ca(self):
        ca = os.path.join(self.pki, "ca.pem")
        url = self.emu.rest.replace("127.0.0.1", "localhost")
        r = hbtest.run(["--rest", url, "--cacert", ca, "--retries", "0", "tables"])
        self.assertFails(r, 3, r"the certificate is not for the host name of the URL")
        self.assertNotIn("--cacert", r.err)
        # the same CA and the address the certificate names
        self.assertOk(hbtest.run(["--rest", self.emu.rest, "--cacert", ca, "tables"]))


if __name__ == "__main__":
    hbtest.main()
