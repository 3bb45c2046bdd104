"""hbtab rotate end to end over simulated days and hours (--now) against the emulator."""
import fcntl
import os
import subprocess
import tempfile
import urllib.parse
import urllib.request
import urllib.error

import hbtest
from hbtest import b64, unb64
from lib.rows import put_rows

TEMPLATE = "ev_%Y%m%d"


class RotateBase(hbtest.EmulatorTest):
    def setUp(self):
        super().setUp()
        self.tmp = tempfile.mkdtemp(prefix="hbtab-rotate-")
        self.lock = os.path.join(self.tmp, "rotate.lock")

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.tmp])

    def rotate(self, now, *extra, template=TEMPLATE, spec=("--hex-splits", "4"), lock=None):
        return self.hb("rotate", "--template", template, *spec, "--now", now,
                       "--lock", lock or self.lock, *extra)

    def tables(self, prefix="ev_"):
        return sorted(t["name"] for t in self.emu.state()["tables"] if t["name"].startswith(prefix))


    def days(self, first, last):
        return ["ev_202611%02d" % d for d in range(first, last + 1)]


class RotateDaily(RotateBase):
    def test_rotate__creates_current_and_ahead_through_create_with_rotate_mark(self):
        r = self.rotate("2026-11-20T08:00:00Z", "--ahead", "2")
        self.assertOk(r)
        self.assertEqual(r.out.splitlines(), [
            "created     ev_20261120 (4 regions, N=4)",
            "created     ev_20261121 (4 regions, N=4)",
            "created     ev_20261122 (4 regions, N=4)"])
        self.assertEqual(self.tables(), self.days(20, 22))
        row = self.emu.metadata_row("ev_20261122")
        self.assertEqual(row["cf:rotate"], TEMPLATE)
        self.assertEqual(row["cf:N"], "4")
        self.assertEqual(row["cf:splits"], "--hex-splits 4")
        m = self.hb("meta", "get", "ev_20261122", "-o", "json")
        self.assertOk(m)
        self.assertEqual((m.json()["N"], m.json()["rotate"]), (4, TEMPLATE))
        # boundaries byte for byte as the hex split
        starts = sorted(unb64(x["start"]) for x in self.emu.live_regions("ev_20261121"))
        self.assertEqual(starts, [b"", b"40000000", b"80000000", b"c0000000"])

    def test_rotate__table_left_disabled_by_a_half_done_drop_is_named_exit_5_then_retired(self):
        # The gateway's drop is a disable then a delete; stopped in between, the table is
        # disabled and every row GET of it answers 404, so its mark cannot be read. It is
        # neither dropped unverified nor passed over as unmarked with exit 0.
        for day in (1, 2):
            self.assertOk(self.rotate("2026-11-%02d" % day, "--ahead", "0"))
        self.emu.control("POST", "/control/disable", {"table": "ev_20261101"})
        r = self.rotate("2026-11-20", "--ahead", "0", "--retain", "3", "--yes", "--max-drops", "5")
        self.assertEqual(r.rc, 5, r)
        self.assertEqual(r.out.splitlines(), [
            "created     ev_20261120 (4 regions, N=4)",
            "skipped     ev_20261101: disabled: its rotate mark cannot be read; left alone",
            "dropped     ev_20261102 (N=4)"])
        self.assertRegex(r.err, r"^hbtab: table 'ev_20261101' is past retention but disabled, so "
                                r"its metadata row cannot be read .*enable it and run again")
        self.assertEqual(self.tables(), ["ev_20261101", "ev_20261120"])
        self.assertEqual([x["method"] for x in self.emu.requests() if x["method"] == "DELETE"],
                         ["DELETE"])
        # enabled again, its mark is read and the next run retires it
        self.emu.control("POST", "/control/enable", {"table": "ev_20261101"})
        r = self.rotate("2026-11-20", "--ahead", "0", "--retain", "3", "--yes", "--max-drops", "5")
        self.assertOk(r)
        self.assertEqual(r.out.splitlines(), ["verified    ev_20261120 (4 regions, N=4)",
                                              "dropped     ev_20261101 (N=4)"])
        self.assertEqual(self.tables(), ["ev_20261120"])

    def test_rotate__second_run_verifies_and_touches_nothing(self):
        self.assertOk(self.rotate("2026-11-20"))
        self.emu.clear_requests()
        r = self.rotate("2026-11-20")
        self.assertOk(r)
        self.assertEqual(r.out.splitlines(), [
            "verified    ev_20261120 (4 regions, N=4)",
            "verified    ev_20261121 (4 regions, N=4)"])
        writes = [q for q in self.emu.requests() if q["method"] in ("PUT", "POST", "DELETE")
                  and "/scanner" not in q["path"]]
        self.assertEqual(writes, [])

    def test_rotate__retention_over_ten_days_keeps_the_window(self):
        for day in range(1, 11):
            r = self.rotate("2026-11-%02dT23:59:59Z" % day, "--retain", "3", "--yes")
            self.assertOk(r)
            self.assertEqual(self.tables(), self.days(max(1, day - 2), day + 1), "day %d" % day)
        self.assertIn("dropped     ev_20261107 (N=4)", r.out)

    def test_rotate__without_yes_lists_would_drop_and_exits_5(self):
        for day in (1, 2, 3, 4):
            self.rotate("2026-11-%02d" % day, "--retain", "2")
        r = self.rotate("2026-11-04", "--retain", "2")
        self.assertEqual(r.rc, 5, r)
        self.assertIn("would drop  ev_20261101 (N=4)", r.out)
        self.assertIn("would drop  ev_20261102 (N=4)", r.out)
        self.assertEqual(self.tables(), self.days(1, 5))

    def test_rotate__outage_of_twelve_days_drained_by_max_drops(self):
        for day in (1, 2, 3):
            self.assertOk(self.rotate("2026-11-%02d" % day, "--retain", "3", "--yes"))
        # 12 days later: the window moved past every old table
        now = "2026-11-15"
        runs = []
        while True:
            r = self.rotate(now, "--retain", "3", "--yes", "--max-drops", "1", "-o", "json")
            runs.append(r)
            if r.rc != 5:
                break
            self.assertRegex(r.err, r"more managed tables? (is|are) past retention")
            # the tables still due are named, oldest first
            due = ["ev_202611%02d" % d for d in range(len(runs) + 1, 5)]
            self.assertIn(", ".join("'%s'" % t for t in due), r.err)
            self.assertLess(len(runs), 10)
        self.assertOk(runs[-1])
        # ev_01..ev_04 were managed (04 made ahead on day 3): four runs with one drop each
        self.assertEqual([x.json()["pending_drops"] for x in runs], [3, 2, 1, 0])
        self.assertEqual(self.tables(), ["ev_20261115", "ev_20261116"])
        first = runs[0].json()
        self.assertEqual(first["now"], "2026-11-15T00:00:00+00:00")
        self.assertEqual([(t["name"], t["action"]) for t in first["tables"]], [
            ("ev_20261115", "created"), ("ev_20261116", "created"), ("ev_20261101", "dropped")])
        self.assertEqual(first["tables"][0]["regions"], 4)
        self.assertEqual(first["tables"][0]["N"], 4)

    def test_rotate__look_alikes_are_named_once_and_left_alone(self):
        self.emu.create("ev_20261101", [b"5"])  # made by hand, no metadata row
        # made by 'hbtab create' (metadata row, but no rotate mark)
        self.assertOk(self.hb("create", "ev_20261102", "--hex-splits", "4"))
        self.emu.create("ev_2026110", [])       # does not match the template
        self.emu.create("ev_20261399", [])      # not a date
        r = self.rotate("2026-11-10", "--retain", "2", "--yes", "--max-drops", "5")
        self.assertOk(r)
        self.assertEqual(r.out.count("ev_20261101"), 1)
        self.assertIn("skipped     ev_20261101: matches the template but carries no rotate mark", r.out)
        self.assertIn("skipped     ev_20261102 (N=4): matches the template", r.out)
        for t in ("ev_20261101", "ev_20261102", "ev_2026110", "ev_20261399"):
            self.assertIn(t, self.tables())
        q = self.rotate("2026-11-10", "--retain", "2", "--yes", "-q")
        self.assertOk(q)
        self.assertEqual(q.out, "")
        # never dropped, so never gone: named once per run, even under -q
        self.assertEqual(q.err.splitlines(), [
            "hbtab: warning: 2 tables past retention match the template 'ev_%Y%m%d' but carry "
            "no rotate mark, so rotate never drops them: 'ev_20261101', 'ev_20261102' (drop "
            "them with 'hbtab drop TABLE --yes' when no longer needed)"])

    def test_rotate__table_that_differs_is_shown_and_nothing_is_touched(self):
        for day in (1, 2):
            self.assertOk(self.rotate("2026-11-%02d" % day, "--retain", "9"))
        self.emu.create("ev_20261104", [b"1", b"2"])
        self.emu.clear_requests()
        r = self.rotate("2026-11-03", "--retain", "1", "--yes", "--max-drops", "5")
        self.assertEqual(r.rc, 1, r)
        self.assertRegex(r.err, r"table 'ev_20261104' already exists with other region boundaries")
        self.assertIn("missing boundary '40000000'", r.err)
        # nothing dropped in a run that found a differing table
        self.assertIn("ev_20261101", self.tables())
        self.assertFalse([q for q in self.emu.requests() if q["method"] == "DELETE" and q["path"].endswith("/schema")])

    def test_rotate__recheck_before_drop_spares_a_table_whose_mark_changed(self):
        for day in (1, 2, 3):
            self.assertOk(self.rotate("2026-11-%02d" % day, "--retain", "9"))
        # someone replaced ev_20261101 with their own table between listing and drop: the run
        # must read the mark again right before the drop. Simulated by changing the mark.
        self.emu.control("POST", "/control/put", {"table": "ev_20261101", "rows": [
            {"key": b64("totalPartition"), "cells": [{"column": b64("cf:rotate"), "value": b64("other_%Y%m%d")}]}]})
        r = self.rotate("2026-11-03", "--retain", "1", "--yes", "--max-drops", "5")
        self.assertOk(r)
        self.assertIn("skipped     ev_20261101", r.out)
        self.assertIn("dropped     ev_20261102 (N=4)", r.out)
        self.assertIn("ev_20261101", self.tables())

    def test_rotate__dry_run_changes_nothing(self):
        self.assertOk(self.rotate("2026-11-01", "--ahead", "0"))
        r = self.rotate("2026-11-05", "--retain", "1", "--yes", "--dry-run")
        self.assertOk(r)  # as the real run: one drop, within --max-drops
        self.assertEqual(r.out.splitlines(), [
            "would create ev_20261105 (4 regions, N=4)",
            "would create ev_20261106 (4 regions, N=4)",
            "would drop  ev_20261101 (N=4)"])
        self.assertEqual(self.tables(), ["ev_20261101"])

    def test_rotate__namespace_template(self):
        req = urllib.request.Request(self.emu.rest + "/namespaces/ns1", data=b"", method="POST")
        with urllib.request.urlopen(req, timeout=30) as resp:
            self.assertEqual(resp.status, 201)
        for day in (1, 2, 3):
            r = self.rotate("2026-11-%02d" % day, "--retain", "1", "--yes", template="ns1:ev_%Y%m%d")
            self.assertOk(r)
        self.assertEqual(self.tables("ns1:ev_"), ["ns1:ev_20261103", "ns1:ev_20261104"])


class RotateLocks(RotateBase):
    def test_rotate__two_hosts_at_once_both_succeed_with_one_end_state(self):
        for day in (1, 2, 3):
            self.assertOk(self.rotate("2026-11-%02d" % day, "--retain", "3", "--yes"))
        args = ["--rest", self.emu.rest, "--thrift", self.emu.thrift, "--no-progress", "rotate",
                "--template", TEMPLATE, "--hex-splits", "4", "--now", "2026-11-06", "--ahead", "2",
                "--retain", "3", "--yes", "--max-drops", "5"]
        homes = [tempfile.mkdtemp(dir=self.tmp) for _ in range(2)]
        procs = [subprocess.Popen([hbtest.HBTAB] + args + ["--lock", os.path.join(h, "l")],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=hbtest.clean_env(h)) for h in homes]
        outs = [p.communicate(timeout=120) for p in procs]
        for p, (o, e) in zip(procs, outs):
            self.assertEqual(p.returncode, 0, (o, e))
        # kept: 04 (made ahead on day 3) and 06; made: 06, 07, 08
        self.assertEqual(self.tables(), ["ev_20261104", "ev_20261106", "ev_20261107", "ev_20261108"])
        dropped = sorted(l.split()[1] for o, e in outs for l in o.decode().splitlines()
                         if l.startswith("dropped"))
        # each old table dropped by one run, or found already gone by the other
        self.assertEqual(sorted(set(dropped)), self.days(1, 3))
        for t in self.tables():
            self.assertEqual(len(self.emu.live_regions(t)), 4)
            self.assertEqual(self.emu.metadata_row(t)["cf:rotate"], TEMPLATE)

    def test_rotate__default_lock_lives_under_xdg_runtime_dir(self):
        run_dir = os.path.join(self.tmp, "run")
        os.mkdir(run_dir)
        r = self.hb("rotate", "--template", TEMPLATE, "--hex-splits", "4", "--now", "2026-11-01",
                    env={"XDG_RUNTIME_DIR": run_dir})
        self.assertOk(r)
        locks = os.listdir(run_dir)
        self.assertEqual(len(locks), 1)
        self.assertRegex(locks[0], r"^hbtab-rotate-[0-9a-f]{16}\.lock$")
        with open(os.path.join(run_dir, locks[0]), "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            r = self.hb("rotate", "--template", TEMPLATE, "--hex-splits", "4", "--now", "2026-11-01",
                        env={"XDG_RUNTIME_DIR": run_dir})
        self.assertFails(r, 5, r"another 'hbtab rotate' run holds the lock")

    def test_rotate__overlapping_run_on_one_host_is_refused_by_the_lock(self):
        with open(self.lock, "w") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            r = self.rotate("2026-11-01")
        self.assertFails(r, 5, r"another 'hbtab rotate' run holds the lock '.*rotate.lock'")
        self.assertEqual(self.tables(), [])
        self.assertOk(self.rotate("2026-11-01"))


class RotateAutoN(RotateBase):
    servers = 5

    def test_rotate__n_from_live_servers_grows_with_the_cluster(self):
        for i in (3, 4):
            self.emu.control("POST", "/control/server", {"index": i, "state": "stop"})
        spec = ("--hex-splits", "auto", "--regions-per-server", "2")
        r = self.rotate("2026-11-01", "-o", "json", spec=spec)
        self.assertOk(r)
        self.assertEqual([(t["name"], t["N"]) for t in r.json()["tables"]],
                         [("ev_20261101", 6), ("ev_20261102", 6)])
        self.assertEqual(self.emu.metadata_row("ev_20261101")["cf:N"], "6")
        self.assertEqual(self.emu.metadata_row("ev_20261101")["cf:splits"], "--hex-splits 6")
        # two servers join: the next new table gets N = 2 x 5, existing ones keep theirs
        for i in (3, 4):
            self.emu.control("POST", "/control/server", {"index": i, "state": "start"})
        r = self.rotate("2026-11-02", spec=spec)
        self.assertOk(r)
        self.assertEqual(r.out.splitlines(), [
            "verified    ev_20261102 (6 regions, N=6)",
            "created     ev_20261103 (10 regions, N=10)"])
        self.assertEqual(len(self.emu.live_regions("ev_20261103")), 10)

    def test_create__auto_n_from_live_servers_in_output_and_metadata(self):
        self.emu.control("POST", "/control/server", {"index": 0, "state": "stop"})
        r = self.hb("create", "t_auto", "--hex-splits", "auto", "--regions-per-server", "3", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["N"], 12)
        self.assertEqual(r.json()["live_servers"], 4)
        self.assertEqual(self.emu.metadata_row("t_auto")["cf:N"], "12")

    def test_splits__auto_needs_regions_per_server(self):
        r = self.hb("splits", "--hex-splits", "auto")
        self.assertFails(r, 2, r"--hex-splits auto needs --regions-per-server K")
        r = self.hb("splits", "--hex-splits", "4", "--regions-per-server", "2")
        self.assertFails(r, 2, r"--regions-per-server goes with N = auto")


class RotateHourly(RotateBase):
    def test_rotate__hourly_across_spring_forward_skips_the_missing_hour(self):
        t = "hr_%Y%m%d%H"
        # Europe/Berlin, 2026-03-29: 02:00 CET jumps to 03:00 CEST
        r = self.rotate("2026-03-29T01:30", "--tz", "Europe/Berlin", "--ahead", "2", template=t)
        self.assertOk(r)
        self.assertEqual(self.tables("hr_"), ["hr_2026032901", "hr_2026032903", "hr_2026032904"])
        # a local time inside the gap is accepted
        r = self.rotate("2026-03-29T02:30", "--tz", "Europe/Berlin", "--ahead", "0", template=t)
        self.assertOk(r)
        # retention counts real hours: keep 2 at 04:10 → 03 and 04
        r = self.rotate("2026-03-29T04:10", "--tz", "Europe/Berlin", "--ahead", "0",
                        "--retain", "2", "--yes", "--max-drops", "5", template=t)
        self.assertOk(r)
        self.assertEqual(self.tables("hr_"), ["hr_2026032903", "hr_2026032904"])

    def test_rotate__hourly_across_fall_back_uses_the_repeated_hour_once(self):
        t = "hr_%Y%m%d%H"
        # 2026-10-25 03:00 CEST becomes 02:00 CET: 02 happens twice
        r = self.rotate("2026-10-25T01:30:00+02:00", "--tz", "Europe/Berlin", "--ahead", "3", template=t)
        self.assertOk(r)
        self.assertEqual(self.tables("hr_"), ["hr_2026102501", "hr_2026102502", "hr_2026102503",
                                              "hr_2026102504"])
        r = self.rotate("2026-10-25T02:30:00+01:00", "--tz", "Europe/Berlin", "--ahead", "0",
                        "--retain", "2", "--yes", "--max-drops", "5", template=t)
        self.assertOk(r)
        self.assertEqual(r.out.splitlines()[0], "verified    hr_2026102502 (4 regions, N=4)")
        self.assertEqual(self.tables("hr_"), ["hr_2026102501", "hr_2026102502", "hr_2026102503",
                                              "hr_2026102504"])


class RotateFaults(RotateBase):
    STEPS = [
        ("thrift", "POST", ".*", "reset_body"),         # createTable done, reply lost
        ("thrift", "POST", ".*", "500"),                # createTable refused
        ("rest", "GET", r"^/ev_20261104/regions", "503"),
        ("rest", "PUT", r"^/ev_20261104/", "500"),      # metadata row write
        ("rest", "PUT", r"^/ev_20261104/hbtab-row", "reset_body"),  # metadata write, reply lost
        ("rest", "DELETE", r"^/ev_2026110[12]/schema", "reset_body"),  # drop done, reply lost
        ("rest", "DELETE", r"^/ev_2026110[12]/schema", "500"),
        ("rest", "GET", r"^/$", "500"),                 # the listing
    ]

    def test_rotate__a_fault_at_each_step_is_finished_by_the_next_run(self):
        for server, method, path, kind in self.STEPS:
            with self.subTest(server=server, method=method, path=path, kind=kind):
                self.emu.clear_faults()
                self.emu.reset()
                for day in (1, 2):
                    self.assertOk(self.rotate("2026-11-%02d" % day, "--retain", "2", "--yes"))
                self.emu.fault(server=server, method=method, path=path, kind=kind, count=100)
                r = self.rotate("2026-11-03", "--ahead", "1", "--retain", "1", "--yes",
                                "--max-drops", "5", "--wait", "1")
                self.emu.clear_faults()
                if r.rc:
                    self.assertTrue(r.err.startswith("hbtab: "), r)
                r2 = self.rotate("2026-11-03", "--ahead", "1", "--retain", "1", "--yes",
                                 "--max-drops", "5")
                self.assertOk(r2)
                self.assertEqual(self.tables(), ["ev_20261103", "ev_20261104"])
                for t in self.tables():
                    self.assertEqual(self.emu.metadata_row(t)["cf:rotate"], TEMPLATE)
                    self.assertEqual(len(self.emu.live_regions(t)), 4)


class RotateSampling(RotateBase):
    KEYS = sorted(b"user%04d" % (i * 7919 % 10000) for i in range(400))

    def expected_splits(self, n, keys):
        path = os.path.join(self.tmp, "sample.txt")
        with open(path, "w") as f:
            f.write("".join(k.decode() + "\n" for k in keys))
        r = self.hb("splits", "--sampled-splits", str(n), "--sample-file", path)
        self.assertOk(r)
        return [l.encode() for l in r.out.splitlines()]

    def scanner_posts(self, table):
        return [q for q in self.emu.requests() if q["method"] == "POST" and q["path"] == "/%s/scanner" % table]

    def test_splits__sample_table_takes_every_key_when_the_table_is_small(self):
        self.emu.create("src", [b"user5"])
        put_rows(self.emu, "src", self.KEYS, value=b"x" * 100)
        r = self.hb("splits", "--sampled-splits", "8", "--sample-table", "src")
        self.assertOk(r)
        self.assertEqual([l.encode() for l in r.out.splitlines()], self.expected_splits(8, self.KEYS))

    def test_create__sample_table_thins_a_big_table_with_random_row_filter(self):
        self.emu.create("src", [b"user5"])
        put_rows(self.emu, "src", self.KEYS, value=b"x" * 100)
        self.emu.clear_requests()
        r = self.hb("create", "t_sampled", "--sampled-splits", "4", "--sample-table", "src",
                    "--sample-rows", "50", "-o", "json")
        self.assertOk(r)
        self.assertEqual(r.json()["regions"], 4)
        # 400 rows, 50 wanted: the chance was halved at least twice, a scanner each time
        self.assertGreaterEqual(len(self.scanner_posts("src")), 3)
        starts = sorted(unb64(x["start"]) for x in self.emu.live_regions("t_sampled"))[1:]
        self.assertTrue(all(s in self.KEYS for s in starts), starts)
        self.assertIn("--sample-table src --sample-rows", self.emu.metadata_row("t_sampled")["cf:splits"])

    def test_splits__sample_table_errors(self):
        r = self.hb("splits", "--sampled-splits", "4", "--sample-table", "nope")
        self.assertFails(r, 4, r"--sample-table 'nope' not found")
        self.emu.create("empty", [])
        r = self.hb("splits", "--sampled-splits", "4", "--sample-table", "empty")
        self.assertFails(r, 2, r"--sample-table 'empty' has no rows to sample")
        r = self.hb("splits", "--sampled-splits", "4", "--sample-table", "empty", "--generator", "md5")
        self.assertFails(r, 2, r"cannot be used together")

    def test_rotate__sample_previous_learns_splits_from_the_newest_managed_table(self):
        spec = ("--sampled-splits", "4", "--generator", "hex8", "--sample-size", "1000")
        # day 1: nothing to sample, the generator's design
        r = self.rotate("2026-11-01", "--ahead", "0", "--sample-previous", spec=spec)
        self.assertOk(r)
        gen = sorted(unb64(x["start"]) for x in self.emu.live_regions("ev_20261101"))[1:]
        put_rows(self.emu, "ev_20261101", self.KEYS, value=b"x" * 100)
        # day 2: today's table is sampled from yesterday's rows
        r = self.rotate("2026-11-02", "--ahead", "0", "--sample-previous", spec=spec)
        self.assertOk(r)
        learned = sorted(unb64(x["start"]) for x in self.emu.live_regions("ev_20261102"))[1:]
        self.assertNotEqual(learned, gen)
        self.assertEqual(learned, self.expected_splits(4, self.KEYS))
        self.assertEqual(self.emu.metadata_row("ev_20261102")["cf:splits"],
                         "--sampled-splits 4 --sample-table ev_20261101 --sample-rows 10000")  # the option in force
        # the next run verifies both (each against its own boundaries) and changes nothing
        r = self.rotate("2026-11-02", "--ahead", "0", "--retain", "5", "--sample-previous", spec=spec)
        self.assertOk(r)
        self.assertEqual(r.out.splitlines(), ["verified    ev_20261102 (4 regions, N=4)"])


class RotateKilled(RotateBase):
    """SIGKILL while a step is in flight (the emulator holds the request), then the next run."""
    STEPS = [
        ("thrift", "POST", ".*"),                          # during createTable
        ("rest", "GET", r"^/ev_20261104/regions"),         # while waiting for regions
        ("rest", "PUT", r"^/ev_20261104/hbtab-row"),       # during the metadata row write
        ("rest", "DELETE", r"^/ev_2026110[12]/schema"),    # during a drop
    ]

    def test_rotate__killed_at_each_step_is_finished_by_the_next_run(self):
        args = ["--rest", self.emu.rest, "--thrift", self.emu.thrift, "--no-progress", "rotate",
                "--template", TEMPLATE, "--hex-splits", "4", "--now", "2026-11-03", "--ahead", "1",
                "--retain", "1", "--yes", "--max-drops", "5", "--lock", self.lock]
        for server, method, path in self.STEPS:
            with self.subTest(server=server, method=method, path=path):
                self.emu.clear_faults()
                self.emu.reset()
                for day in (1, 2):
                    self.assertOk(self.rotate("2026-11-%02d" % day, "--retain", "2", "--yes"))
                self.emu.clear_requests()
                self.emu.fault(server=server, method=method, path=path, kind="delay", seconds=3,
                               count=100)
                p = subprocess.Popen([hbtest.HBTAB] + args, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=hbtest.clean_env(self.tmp))
                # wait until the held request has arrived, then kill the run
                for _ in range(600):
                    faults = self.emu.control("GET", "/control/fault")[1]
                    if faults and faults[0]["fired"]:
                        break
                    if p.poll() is not None:
                        break
                    subprocess.run(["sleep", "0.02"])
                self.assertIsNone(p.poll(), "the run ended before the step was reached")
                p.kill()
                p.communicate()
                self.emu.clear_faults()
                r = self.rotate("2026-11-03", "--ahead", "1", "--retain", "1", "--yes", "--max-drops", "5")
                self.assertOk(r)
                self.assertEqual(self.tables(), ["ev_20261103", "ev_20261104"])
                for t in self.tables():
                    self.assertEqual(self.emu.metadata_row(t)["cf:rotate"], TEMPLATE)
                    self.assertEqual(len(self.emu.live_regions(t)), 4)



class RotateSnapshots(RotateBase):
    """--snapshot-before-drop: a table leaves only once a snapshot of it is listed."""

    def shell_env(self):
        return {"HBEMU_CONTROL": self.emu.control_url}

    def test_rotate__snapshot_before_drop_snapshots_then_drops_and_json_names_it(self):
        sh = ("--hbase-shell", "ruby %s -n" % hbtest.SHELL_STANDIN)
        for day in (1, 2):
            self.assertOk(self.rotate("2026-11-%02d" % day, "--ahead", "0"))
        r = self.hb(*sh, "rotate", "--template", TEMPLATE, "--hex-splits", "4", "--now",
                    "2026-11-03", "--lock", self.lock, "--ahead", "0", "--retain", "1",
                    "--max-drops", "5", "--yes", "--snapshot-before-drop", "-o", "json",
                    env=self.shell_env())
        self.assertOk(r)
        dropped = [t for t in r.json()["tables"] if t["action"] == "dropped"]
        self.assertEqual([t["name"] for t in dropped], ["ev_20261101", "ev_20261102"])
        snaps = {x["name"]: x["table"] for x in self.emu.control("GET", "/control/snapshots")[1]}
        self.assertEqual(snaps, {t["snapshot"]: t["name"] for t in dropped})
        self.assertEqual(self.tables(), ["ev_20261103"])

    def test_rotate__without_a_shell_the_due_drop_is_refused_but_tables_are_created(self):
        for day in (1, 2):
            self.assertOk(self.rotate("2026-11-%02d" % day, "--ahead", "0"))
        r = self.rotate("2026-11-03", "--ahead", "0", "--retain", "1", "--yes",
                        "--snapshot-before-drop", "--hbase-shell", "/nonexistent/hbase shell")
        self.assertFails(r, 5, r"refusing to drop with --snapshot-before-drop: snapshots are "
                               r"taken with the hbase shell")
        self.assertEqual(r.out, "created     ev_20261103 (4 regions, N=4)\n")
        self.assertEqual(self.tables(), ["ev_20261101", "ev_20261102", "ev_20261103"])
        self.assertEqual([x for x in self.emu.requests() if x["method"] == "DELETE"], [])

class RotateBadInput(hbtest.OfflineTest):
    def bad(self, *args, pattern):
        r = self.hb("--rest", "http://127.0.0.1:9", "rotate", *args)
        self.assertFails(r, 2, pattern)

    def test_rotate__bad_input_exits_2(self):
        hx = ("--hex-splits", "4")
        self.bad("--template", "events", *hx, pattern=r"no date fields")
        self.bad("--template", "ev_%Y%m", *hx, pattern=r"needs %Y, %m and %d .*missing %d")
        self.bad("--template", "ev/%Y%m%d", *hx, pattern=r"makes invalid table names such as 'ev/2")
        self.bad("--template", "ev_%Y%m%d_%q", *hx, pattern=r"unsupported field '%q'")
        self.bad("--template", "ev_%Y%m%d", "--period", "hour", *hx, pattern=r"--period hour is finer than the template")
        self.bad("--template", "ev_%Y%m%d", "--retain", "0", *hx, pattern=r"--retain")
        self.bad("--template", "ev_%Y%m%d", "--ahead", "-1", *hx, pattern=r"--ahead")
        self.bad("--template", "ev_%Y%m%d", "--now", "yesterday", *hx, pattern=r"invalid --now 'yesterday'")
        self.bad("--template", "ev_%Y%m%d", "--tz", "Mars/Olympus", *hx, pattern=r"unknown time zone 'Mars/Olympus'")
        self.bad("--template", "ev_%Y%m%d", pattern=r"missing SPLITSPEC")
        self.bad(*hx, pattern=r"missing --template")


if __name__ == "__main__":
    hbtest.main()
