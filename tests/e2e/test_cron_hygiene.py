"""End-to-end: what an unattended (cron) run relies on: exit codes that say what went wrong,
clean-up on every way out, no waiting on what is already known, and odd input refused."""
import json
import os
import re
import shutil
import base64
import http.server
import signal
import socketserver
import subprocess
import tempfile
import threading

import hbtest
import test_completion
from hbtest import EmulatorTest, OfflineTest
from lib.tlsca import make_ca, make_server_cert, openssl


class ExitCodes(OfflineTest):
    """Item: consistent exit codes and refusal of odd input (-V, --tz '', --now year)."""

    def test_version_after_the_command_word_prints_the_version(self):
        for args in (["splits", "-V"], ["rotate", "--version"], ["status", "-V"]):
            r = self.hb(*args)
            self.assertOk(r)
            self.assertRegex(r.out, r"^hbtab \d+\.\d+\.\d+\n$", args)

    def test_empty_tz_is_bad_input(self):
        r = self.hb("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "2", "--tz", "",
                    "--now", "2026-11-01", "--dry-run", "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"empty --tz")

    def test_now_whose_tables_ahead_reach_a_five_digit_year_is_bad_input(self):
        r = self.hb("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "2",
                    "--now", "9999-12-31T23:59Z", "--ahead", "2", "--dry-run",
                    "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"year 10000")
        r = self.hb("rotate", "--template", "ev_%Y%m%d%H", "--period", "hour", "--hex-splits",
                    "2", "--now", "9999-12-31T23:30Z", "--ahead", "1", "--dry-run",
                    "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"year 10000")


class BadLocalTlsMaterial(EmulatorTest):
    """Item: garbage --cacert, or --cert/--key that do not match, is bad input (2), not
    a network failure (3); a wrong CA stays 3."""

    @classmethod
    def setUpClass(cls):
        cls.pki = tempfile.mkdtemp(prefix="hbtab-pki-")
        make_ca(cls.pki, "ca")
        make_ca(cls.pki, "client")
        make_server_cert(cls.pki, "ca")
        openssl("genrsa", "-out", "other.key", "2048", cwd=cls.pki)
        with open(os.path.join(cls.pki, "garbage.pem"), "w") as f:
            f.write("this is not a certificate\n")
        cls.emulator_args = ("--tls-cert", os.path.join(cls.pki, "server.pem"),
                             "--tls-key", os.path.join(cls.pki, "server.key"))
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.pki, ignore_errors=True)

    def pki_file(self, name):
        return os.path.join(self.pki, name)

    def test_garbage_cacert_is_exit_2(self):
        r = self.hb("--cacert", self.pki_file("garbage.pem"), "tables")
        self.assertFails(r, 2, r"--cacert")

    def test_cert_and_key_that_do_not_match_are_exit_2(self):
        r = self.hb("--cacert", self.pki_file("ca.pem"), "--cert", self.pki_file("client.pem"),
                    "--key", self.pki_file("other.key"), "tables")
        self.assertFails(r, 2, r"--key")

    def test_garbage_client_certificate_is_exit_2(self):
        r = self.hb("--cacert", self.pki_file("ca.pem"), "--cert", self.pki_file("garbage.pem"),
                    "--key", self.pki_file("client.key"), "tables")
        self.assertFails(r, 2, r"--cert")

    def test_a_certificate_signed_by_another_ca_stays_a_network_failure(self):
        r = self.hb("--retries", "0", "--cacert", self.pki_file("client.pem"), "tables")
        self.assertFails(r, 3, r"certificate")


class MessagesNameWhatWasAsked(EmulatorTest):
    """Item: errors name the whole URL path (with --rest's prefix), and a Thrift reply that
    is an HTML page is named by its content type, as REST's are."""

    def test_a_404_under_a_rest_url_prefix_names_the_prefixed_path(self):
        r = hbtest.run(["--rest", self.emu.rest + "/gw/hbase", "--no-progress", "tables"])
        self.assertFails(r, 4, r"GET /gw/hbase/: HTTP 404")

    def test_an_html_page_from_thrift_names_its_content_type(self):
        self.emu.fault(server="thrift", method="*", path="", kind="wrong_ctype", count=-1)
        r = self.hb("create", "t", "--hex-splits", "4", "--via", "thrift2")
        self.assertFails(r, 4, r"thrift2 createTable: unexpected content type 'text/html")
        self.assertNotIn("protocol version", r.err)


MAN = os.path.join(hbtest.SRC, "man")


def man(name):
    with open(os.path.join(MAN, name), encoding="utf-8") as f:
        return f.read().replace("\\-", "-")


def significant_digits(tok):
    mant = re.sub(r"[eE].*$", "", tok).lstrip("-").replace(".", "").lstrip("0")
    return len(mant)


class DocsSayWhatRuns(EmulatorTest):
    """Item: the listed doc fixes (SEE ALSO, rotate's synopsis, help spacing, generator lists,
    regions(1)/meta(1) naming the requests that run) and JSON numbers in shortest exact form."""

    GENERATORS = ("md5", "hash", "partition:4", "sequential", "hex8", "salt:4", "roundrobin:4",
                  "transaction", "statistics:10")

    def test_hbtab_1_see_also_names_every_command_page(self):
        see_also = man("hbtab.1").split(".SH SEE ALSO", 1)[1]
        for page in sorted(os.listdir(MAN)):
            if page.startswith("hbtab-") and page.endswith(".1"):
                self.assertIn(".BR %s (1)" % page[:-2], see_also)

    def test_rotate_synopsis_and_usage_name_sample_previous(self):
        r = self.hb("rotate", "--help")
        self.assertRegex(r.out.split("\n")[0], r"--sample-previous")
        synopsis = man("hbtab-rotate.1").split(".SH SYNOPSIS", 1)[1].split(".SH ", 1)[0]
        self.assertIn("--sample-previous", synopsis)

    def test_every_help_line_has_a_space_between_option_and_text(self):
        for cmd in ("splits", "simulate", "create", "rotate", "audit"):
            r = self.hb(cmd, "--help")
            for line in r.out.split("\n"):
                m = re.match(r"^    (-\S, )?--\S+( [A-Z|0-9]+)?(.*)$", line)
                if m and m.group(3):
                    self.assertRegex(m.group(3), r"^ ", "%s --help: %r" % (cmd, line))

    def test_every_accepted_generator_is_listed_in_help_and_splits_1(self):
        helptext = self.hb("simulate", "--help").out
        gen_line = [l for l in helptext.split("\n") if l.strip().startswith("--generator")][0]
        splits_man = man("hbtab-splits.1")
        for g in self.GENERATORS:
            r = self.hb("splits", "--sampled-splits", "2", "--generator", g, "--sample-size", "50")
            self.assertOk(r)
            name = g.split(":")[0]
            if name == "hash":
                continue  # documented as md5's alias
            self.assertIn(name, gen_line)
            self.assertRegex(splits_man, r"\.B[RI]? %s\b" % name)

    def test_regions_and_meta_pages_name_the_requests_that_run(self):
        self.emu.create("t", [b"m"])
        self.assertOk(self.hb("meta", "set", "t", "2"))
        self.emu.clear_requests()
        self.assertOk(self.hb("regions", "t", "--source", "meta"))
        self.assertOk(self.hb("meta", "get", "t"))
        paths = [q["method"] + " " + q["path"] for q in self.emu.requests()]
        self.assertFalse([p for p in paths if "scanner" in p], paths)
        self.assertTrue([p for p in paths if p.startswith("GET /hbase%3Ameta/*?startrow=")],
                        paths)
        self.assertTrue([p for p in paths if p.startswith("GET /t/totalPartition")], paths)
        regions = man("hbtab-regions.1")
        self.assertNotIn("with a REST scanner", regions)
        self.assertIn("stateless scan", regions)
        self.assertIn("row GET", man("hbtab-meta.1"))

    def test_json_numbers_are_the_shortest_exact_text(self):
        r = self.hb("-o", "json", "simulate", "--hex-splits", "7", "--generator", "md5",
                    "--count", "1000")
        self.assertOk(r)
        r2 = self.hb("-o", "json", "audit", "--hex-splits", "10", "--keyspace", "hex{8}")
        self.assertOk(r2)
        for out in (r.out, r2.out):
            json.loads(out)
            toks = re.findall(r"(?<=[:\[,])-?\d+\.\d+(?:[eE][-+]?\d+)?", out)
            self.assertTrue(toks)
            for tok in toks:
                self.assertLessEqual(significant_digits(tok), significant_digits(repr(float(tok))),
                                     tok)
        self.assertIn('"share":0.141', r.out)


class SignalsEraseProgress(EmulatorTest):
    """Item: SIGINT/SIGTERM erase the progress line before the interruption message."""

    def interrupt_while_drawing(self, sig, args, pattern):
        t = hbtest.TtyStderr(["--rest", self.emu.rest] + args)
        t.wait_for_err(pattern)
        t.p.send_signal(sig)
        return t.finish()

    def test_sigint_during_a_simulation_erases_the_progress_line_first(self):
        rc, out, err = self.interrupt_while_drawing(
            signal.SIGINT, ["simulate", "--hex-splits", "16", "--generator", "md5",
                            "--count", "1000000000000"], rb"\rsimulating: \d+")
        self.assertEqual(rc, 130, err)
        self.assertIn(b"\r\x1b[Khbtab: interrupted (SIGINT)", err)

    def test_sigterm_during_a_region_wait_erases_the_progress_line_first(self):
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        rc, out, err = self.interrupt_while_drawing(
            signal.SIGTERM, ["--thrift", self.emu.thrift, "create", "t1", "--hex-splits", "4",
                             "--via", "thrift2", "--wait", "3600"], rb"\rregions online: 0/4")
        self.assertEqual(rc, 143, err)
        self.assertIn(b"\r\x1b[Khbtab: terminated (SIGTERM)", err)


class DisabledTableIsNotWaitedFor(EmulatorTest):
    """Item: create/rotate say at once that an existing table is DISABLED instead of waiting
    the whole --wait (an hour here: only the hang guard of run() would end a wait)."""

    def setUp(self):
        super().setUp()
        self.emu.create("d_20260101", [b"80000000"])
        self.emu.control("POST", "/control/disable", {"table": "d_20260101"})

    def test_create_on_a_disabled_table_says_so_without_waiting(self):
        r = self.hb("create", "d_20260101", "--hex-splits", "2", "--wait", "3600")
        self.assertFails(r, 4, r"table 'd_20260101' is DISABLED: .*not waiting")
        self.assertNotIn("regions not online after", r.err)

    def test_rotate_on_a_disabled_table_says_so_without_waiting(self):
        r = self.hb("rotate", "--template", "d_%Y%m%d", "--hex-splits", "2", "--wait", "3600",
                    "--now", "2026-01-01", "--ahead", "0", "--retain", "1")
        self.assertEqual(r.rc, 4, r)
        self.assertRegex(r.err, r"table 'd_20260101' is DISABLED: .*not waiting")


class ClosedStderrDeletesTheScanner(EmulatorTest):
    """Item: with stderr a closed pipe (hbtab -v ... 2>&1 | head -3) the open REST scanner is
    still deleted: the clean-up's own trace writes must not end it."""

    def setUp(self):
        super().setUp()
        self.emu.create("samp")
        self.emu.control("POST", "/control/put", {"table": "samp", "rows": [
            {"key": hbtest.b64(b"user%05d" % i),
             "cells": [{"column": hbtest.b64(b"cf:a"), "value": hbtest.b64(b"x")}]}
            for i in range(500)]})

    def test_verbose_trace_into_a_closed_pipe_leaves_no_scanner_open(self):
        # The first scanner GET is held: a scanner is open when the pipe closes.
        self.emu.fault(server="rest", method="GET", path=r"/samp/scanner/", kind="hold")
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        try:
            rd, wr = os.pipe()
            p = subprocess.Popen([hbtest.HBTAB, "-v", "--rest", self.emu.rest, "splits",
                                  "--sampled-splits", "4", "--sample-table", "samp"],
                                 stdout=subprocess.DEVNULL, stderr=wr,
                                 env=hbtest.clean_env(home))
            os.close(wr)
            try:
                hbtest.wait_for(lambda: self.emu.control("GET", "/control/held")[1]["held"] == 1,
                                "the scanner GET to be held")
                self.assertEqual(len(self.emu.control("GET", "/control/scanners")[1]), 1)
                os.close(rd)  # the reader goes away, as head does after its lines
                rd = None
                self.emu.control("POST", "/control/release")
                rc = p.wait(120)
            finally:
                if rd is not None:
                    os.close(rd)
                if p.poll() is None:
                    p.kill()
                    p.wait()
        finally:
            shutil.rmtree(home, ignore_errors=True)
        self.assertEqual(rc, 141)
        self.assertEqual(self.emu.control("GET", "/control/scanners")[1], [])
        deletes = [q for q in self.emu.requests()
                   if q["method"] == "DELETE" and "/scanner/" in q["path"]]
        self.assertEqual(len(deletes), 1, self.emu.requests())


class EndlessScanner(http.server.BaseHTTPRequestHandler):
    """A gateway whose scanner never ends: every GET returns the same row, never a 204."""
    protocol_version = "HTTP/1.1"
    seen = []

    def log_message(self, *a):
        pass

    def answer(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        EndlessScanner.seen.append(self.command + " " + self.path)
        path, extra = self.path.split("?")[0], {}
        if self.command == "POST" and path == "/t/scanner":
            st, body = 201, b""
            extra["Location"] = "http://%s/t/scanner/s1" % self.headers["Host"]
        elif self.command == "GET" and path == "/t/scanner/s1":
            cell = {"column": hbtest.b64(b"cf:a"), "timestamp": 1, "$": hbtest.b64(b"x")}
            st, body = 200, json.dumps({"Row": [{"key": hbtest.b64(b"row1"),
                                                 "Cell": [cell]}]}).encode()
        elif self.command == "DELETE" and path == "/t/scanner/s1":
            st, body = 200, b""
        else:
            st, body = 404, b"not found"
        self.send_response(st)
        self.send_header("Content-Type", "application/json")
        for k, v in extra.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_PUT = do_DELETE = answer


class ThreadedServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


class DeadlineEndsAHungScan(OfflineTest):
    """Item: --deadline SEC (global, also HBTAB_DEADLINE and the config file) ends a run that
    would never end: the scanner is deleted and the exit status is 4."""

    @classmethod
    def setUpClass(cls):
        cls.srv = ThreadedServer(("127.0.0.1", 0), EndlessScanner)
        threading.Thread(target=cls.srv.serve_forever, daemon=True).start()
        cls.url = "http://127.0.0.1:%d" % cls.srv.server_address[1]

    @classmethod
    def tearDownClass(cls):
        cls.srv.shutdown()
        cls.srv.server_close()

    def setUp(self):
        EndlessScanner.seen = []

    def check_stopped(self, r):
        self.assertFails(r, 4, r"deadline of 3 s passed")
        self.assertIn("DELETE /t/scanner/s1", EndlessScanner.seen)
        self.assertGreater(len([s for s in EndlessScanner.seen if s.startswith("GET")]), 1)

    # 3 s: far more than reaching the scanner takes, even under a sanitizer on a busy machine
    def test_deadline_flag_stops_an_endless_scanner_and_deletes_it(self):
        self.check_stopped(self.hb("--rest", self.url, "--deadline", "3", "splits",
                                   "--sampled-splits", "2", "--sample-table", "t",
                                   "--sample-rows", "100"))

    def test_deadline_from_the_environment_and_the_config_file(self):
        self.check_stopped(self.hb("--rest", self.url, "splits", "--sampled-splits", "2",
                                   "--sample-table", "t", env={"HBTAB_DEADLINE": "3"}))
        EndlessScanner.seen = []
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        try:
            os.makedirs(os.path.join(home, ".config", "hbtab"))
            with open(os.path.join(home, ".config", "hbtab", "config"), "w") as f:
                f.write("[default]\ndeadline = 3\n")
            self.check_stopped(self.hb("--rest", self.url, "splits", "--sampled-splits", "2",
                                       "--sample-table", "t", home=home))
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def test_a_bad_deadline_is_bad_input(self):
        for v in ("x", "-1", "1e99", ""):
            self.assertFails(self.hb("--deadline", v, "status"), 2, r"--deadline")


class DeadlineReleasesTheRotateLock(EmulatorTest):
    """Item: a rotate run stopped by --deadline releases its lock: the next run is not
    refused (exit 5) but does its work."""

    def test_rotate_stopped_by_the_deadline_does_not_hold_the_lock(self):
        lock = os.path.join(self.emu.tmp, "rotate.lock")
        self.emu.control("POST", "/control/open-delay", {"seconds": 3600})
        line = ["rotate", "--template", "ev_%Y%m%d", "--hex-splits", "2", "--now", "2026-11-01",
                "--ahead", "0", "--retain", "1", "--lock", lock, "--wait", "3600"]
        r = self.hb("--deadline", "1", *line)
        self.assertFails(r, 4, r"deadline of 1 s passed")
        self.emu.control("POST", "/control/open-delay", {"seconds": 0})
        self.emu.control("POST", "/control/open", {"table": "ev_20261101"})
        r = self.hb(*line)
        self.assertOk(r)


class CronFriendlyDefaults(EmulatorTest):
    """Item: the default retries ride out a gateway restart for idempotent requests, and an
    unusable TMPDIR or XDG_RUNTIME_DIR falls back to /tmp."""

    DEFAULTS = {"HBTAB_RETRIES": None}  # hbtab's own default, not the suite's quick one

    def setUp(self):
        super().setUp()
        self.emu.create("t", [b"m"])

    def test_default_retries_ride_out_eight_503_answers(self):
        # event-driven: the gateway answers 503 to the first 8 requests, then works again
        self.emu.fault(server="rest", method="GET", path=r"^/t/regions", kind="503", count=8)
        r = self.hb("regions", "t", "--source", "rest", env=self.DEFAULTS)
        self.assertOk(r)
        self.assertEqual(len([q for q in self.emu.requests() if q["path"] == "/t/regions"]), 9)

    def test_default_retries_ride_out_a_refused_port(self):
        # 6 s closed: the default back-off waits at least 13.75 s before it gives up
        self.emu.fault(server="rest", kind="refuse", seconds=6)
        r = self.hb("regions", "t", env=self.DEFAULTS)
        self.assertOk(r)
        self.assertIn("t,m,", r.out)

    def test_an_unusable_tmpdir_falls_back_to_tmp(self):
        for d in ("/nonexistent-hbtab-dir", "/dev/null"):
            r = self.hb("regions", "t", env={"TMPDIR": d})
            self.assertOk(r)
            r = self.hb("regions", "t", "--source", "meta", env={"TMPDIR": d})
            self.assertOk(r)

    def test_an_unusable_xdg_runtime_dir_falls_back_to_tmp(self):
        r = self.hb("rotate", "--template", "x_%Y%m%d", "--hex-splits", "2", "--now",
                    "2026-11-01", "--ahead", "0", "--retain", "1",
                    env={"XDG_RUNTIME_DIR": "/nonexistent-hbtab-dir"})
        self.assertOk(r)
        self.assertIsNotNone(self.emu.table("x_20261101"))


class OneAutoRuleOneRegionCap(EmulatorTest):
    """Item: N = auto follows one rule everywhere (--servers S where the command takes it, no
    server asked; else the cluster's live servers), and every split source has one cap."""

    def test_splits_auto_with_servers_asks_no_server(self):
        r = hbtest.run(["--rest", "http://127.0.0.1:9", "--retries", "0", "splits",
                        "--hex-splits", "auto", "--regions-per-server", "2", "--servers", "3"])
        self.assertOk(r)
        self.assertEqual(len(r.out.splitlines()), 5)
        self.assertFails(self.hb("splits", "--hex-splits", "4", "--servers", "3"), 2,
                         r"--servers goes with N = auto")

    def test_audit_of_a_split_set_takes_auto_like_splits(self):
        offline = hbtest.run(["--rest", "http://127.0.0.1:9", "--retries", "0", "-o", "json",
                              "audit", "--hex-splits", "auto", "--regions-per-server", "2",
                              "--servers", "3", "--keyspace", "hex{8}"])
        self.assertOk(offline)
        self.assertEqual(len(offline.json()["regions"]), 6)
        # without --servers: the emulator's 3 live region servers, as splits and create count
        self.emu.clear_requests()
        live = self.hb("-o", "json", "audit", "--hex-splits", "auto", "--regions-per-server",
                       "2", "--keyspace", "hex{8}")
        self.assertOk(live)
        self.assertEqual(live.json()["regions"], offline.json()["regions"])
        self.assertIn("/status/cluster", [q["path"] for q in self.emu.requests()])
        keys = self.hb("splits", "--hex-splits", "auto", "--regions-per-server", "2")
        self.assertEqual([g["start"] for g in live.json()["regions"][1:]], keys.out.split())

    def test_a_splits_file_over_the_region_cap_is_refused_like_n(self):
        self.assertFails(self.hb("splits", "--hex-splits", "10000001"), 2, r"10000000")
        path = os.path.join(self.emu.tmp, "many.txt")
        with open(path, "w") as f:
            for base in range(0, 10000000, 100000):
                f.write("".join("%07x\n" % i for i in range(base, base + 100000)))
        r = self.hb("splits", "--splits-file", path, "--format", "json")
        self.assertFails(r, 2, r"many\.txt:10000000: more than 9999999 split keys")


class DebianPackage(OfflineTest):
    """Item: cpack -G DEB builds a .deb with the binary, man pages and completions and the
    right dependencies; dpkg -i installs it into a scratch root, whose hbtab runs and whose
    man pages man finds."""

    def test_deb_installs_into_a_scratch_root_and_runs(self):
        build = os.path.dirname(hbtest.HBTAB)
        config = os.path.join(build, "CPackConfig.cmake")
        self.assertTrue(os.path.exists(config), "no CPack configuration in " + build)
        work = tempfile.mkdtemp(prefix="hbtab-deb-")
        try:
            out = os.path.join(work, "out")
            p = subprocess.run(["cpack", "-G", "DEB", "-B", out, "--config", config],
                               cwd=build, capture_output=True, text=True, timeout=900)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            debs = [f for f in os.listdir(out) if f.endswith(".deb")]
            self.assertEqual(len(debs), 1, os.listdir(out))
            deb = os.path.join(out, debs[0])
            fields = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Depends"],
                                    capture_output=True, text=True, check=True).stdout
            self.assertIn("Package: hbtab", fields)
            depends = fields.split("Depends:", 1)[1]
            for lib in ("libcurl4", "libcjson1", "libgmp10", "libssl3", "libc6"):
                self.assertIn(lib, depends)
            # A scratch dpkg database that knows the dependencies as this machine has them
            # installed: dpkg -i then checks the Depends line for real, without --force.
            root = os.path.join(work, "root")
            admin = os.path.join(root, "var", "lib", "dpkg")
            for d in ("info", "updates", "triggers"):
                os.makedirs(os.path.join(admin, d))
            names = re.findall(r"(?:^|,)\s*([a-z0-9][a-z0-9+.-]*)", depends.strip())
            status = subprocess.run(["dpkg-query", "-s"] + names, capture_output=True,
                                    text=True, check=True).stdout
            with open(os.path.join(admin, "status"), "w") as f:
                f.write(status.rstrip("\n") + "\n\n")
            open(os.path.join(admin, "available"), "w").close()
            p = subprocess.run(["dpkg", "--root=" + root, "--log=/dev/null", "--force-not-root",
                                "--force-script-chrootless", "-i", deb],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            binary = os.path.join(root, "usr", "bin", "hbtab")
            r = subprocess.run([binary, "--version"], capture_output=True, text=True,
                               env=hbtest.clean_env(work))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertRegex(r.stdout, r"^hbtab \d+\.\d+\.\d+\n$")
            mandir = os.path.join(root, "usr", "share", "man")
            for page in ("hbtab", "hbtab-rotate"):
                m = subprocess.run(["man", "-w", page], capture_output=True, text=True,
                                   env=dict(hbtest.clean_env(work), MANPATH=mandir))
                self.assertEqual(m.returncode, 0, m.stderr)
                self.assertEqual(m.stdout.strip(), os.path.join(mandir, "man1", page + ".1"))
            for f in ("usr/share/bash-completion/completions/hbtab",
                      "usr/share/zsh/vendor-completions/_hbtab",
                      "usr/share/fish/vendor_completions.d/hbtab.fish"):
                self.assertTrue(os.path.exists(os.path.join(root, f)), f)
        finally:
            shutil.rmtree(work, ignore_errors=True)


class PolicySharesAddUp(OfflineTest):
    """Item: simulate --policy reports shares that add up to 100% for regions and servers,
    and the servers' writes cover every write of the run."""

    ARGS = ["--sampled-splits", "4", "--generator", "md5", "--sample-size", "20000",
            "--count", "200000", "--policy", "increasing", "--row-size", "4K",
            "--flush-size", "1M", "--max-filesize", "16M", "--servers", "3"]

    def test_json_shares_add_up_to_one_and_servers_count_every_write(self):
        r = self.hb("-o", "json", "simulate", *self.ARGS)
        self.assertOk(r)
        doc = r.json()
        self.assertTrue(doc["splits"])  # splits happened: parents took writes
        self.assertAlmostEqual(sum(g["share"] for g in doc["regions"]), 1.0, places=9)
        self.assertAlmostEqual(sum(s["share"] for s in doc["servers"]), 1.0, places=9)
        self.assertEqual(sum(s["writes"] for s in doc["servers"]), doc["count"])
        self.assertEqual(sum(g["writes"] for g in doc["regions"]), doc["region_writes"])
        self.assertLess(doc["region_writes"], doc["count"])

    def test_text_shares_add_up_and_the_columns_say_what_they_count(self):
        r = self.hb("simulate", *self.ARGS)
        self.assertOk(r)
        lines = r.out.splitlines()
        self.assertRegex(lines[1], r"^regions: WRITES since each opened, \d+ of the 200000")
        region_rows = [l.split("\t") for l in lines[2:lines.index("")]]
        server_rows = [l.split("\t") for l in lines if l.startswith("server-")]
        shares = sum(float(row[4].rstrip("%")) for row in region_rows)
        self.assertAlmostEqual(shares, 100.0, delta=0.01 * len(region_rows))
        self.assertEqual(sum(int(row[2]) for row in server_rows), 200000)
        self.assertAlmostEqual(sum(float(row[3].rstrip("%")) for row in server_rows), 100.0,
                               delta=0.03)


class CompletesValuesAndTables:
    """Item: completion offers --tz zone names, --generator and --policy values, and the
    table names of the gateway for commands that take an existing table (asked only when
    --rest or a profile is set), in bash, zsh and fish."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.emu = hbtest.Emulator(1)
        for t in ("users", "events"):
            cls.emu.create(t)

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()
        super().tearDownClass()

    def test_values_of_tz_generator_and_policy(self):
        tz = set(self.offers("hbtab rotate --tz Europe/Be"))
        self.assertIn("Europe/Berlin", tz)
        self.assertTrue(all(z.startswith("Europe/Be") for z in tz), tz)
        self.assertIn("UTC", self.offers("hbtab rotate --tz U"))
        gens = set(self.offers("hbtab simulate --hex-splits 4 --generator "))
        self.assertTrue({"md5", "partition", "sequential", "hex8", "salt", "roundrobin",
                         "transaction", "statistics"} <= gens, gens)
        self.assertIn("statistics", self.offers("hbtab splits --sampled-splits 2 --generator st"))
        pols = set(self.offers("hbtab simulate --hex-splits 4 --generator md5 --policy "))
        self.assertTrue({"stepping", "increasing", "constant", "disabled"} <= pols, pols)

    def test_table_names_come_from_the_gateway_named_on_the_line(self):
        rest = self.emu.rest
        self.assertEqual(set(self.offers("hbtab --rest %s regions " % rest)), {"users", "events"})
        self.assertEqual(set(self.offers("hbtab audit --rest %s u" % rest)), {"users"})
        self.assertEqual(set(self.offers("hbtab --rest %s meta get " % rest)),
                         {"users", "events"})
        self.assertEqual(set(self.offers("hbtab --rest %s drop e" % rest)), {"events"})
        # a new table's name, a second argument: nothing to offer
        self.assertEqual(self.offers("hbtab --rest %s create " % rest), [])
        self.assertEqual(self.offers("hbtab --rest %s meta set users " % rest), [])
        # without --rest or a profile no gateway is asked
        self.emu.clear_requests()
        self.assertEqual(self.offers("hbtab describe "), [])
        self.assertEqual(self.emu.requests(), [])


def _shell_case(base):
    cls = type("Completes" + base.__name__, (CompletesValuesAndTables, base), {})
    for name in dir(test_completion.CompletionCases):
        if name.startswith("test_"):
            setattr(cls, name, None)  # the shells' other cases run in test_completion
    return cls


CompletesBash = _shell_case(test_completion.Bash)
CompletesZsh = _shell_case(test_completion.Zsh)
CompletesFish = _shell_case(test_completion.Fish)


if __name__ == "__main__":
    hbtest.main()
