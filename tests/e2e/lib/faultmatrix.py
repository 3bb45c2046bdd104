"""The machinery of the emulator's fault matrices (test_fault_matrix*.py): the fault kinds,
the steps of a command's fault-free run, the exit status each cell expects, the workers that
run cells on emulators of their own, and the bases of a command's matrix (FaultMatrix; for
create, CreateMatrixBase)."""
import os
import queue
import re
import shutil
import socket
import tempfile
import threading
import time
import unittest

import hbtest

# Every kind the emulator has (hbemu/httpbase.py KINDS; EmulatorKinds checks the two agree).
KINDS = ["403", "500", "503", "504", "reset_headers", "reset_body", "delay", "drip",
         "truncated_json", "invalid_json", "wrong_ctype", "refuse"]
TIMEOUT = "2"        # per request; delay and drip are made to outlast it
RETRIES = "1"
# How long create and rotate wait for the regions of a table they made. The emulator opens
# regions as it creates them, so this is spent only where a fault keeps the regions from
# being read (a 500 on /regions, hbtab's sign of regions not yet assigned, is waited out).
# A Thrift2 createTable gets TIMEOUT + WAIT; the shell stand-in, a whole ruby process, gets
# TIMEOUT + SHELL_WAIT, which leaves it ample time on a loaded machine.
WAIT = "10"
SHELL_WAIT = "30"
# The slow kinds end on an event, not a timer (tests/emulator/README.md, "until"): a delayed
# REST request is executed when the cell releases it, after the command ended; a delayed
# Thrift2 call (its timeout is TIMEOUT + WAIT) is executed at once and answered when hbtab
# has given up on it; a refused port stays closed until the cell reopens it after the
# command. `seconds` is then only a guard. drip sends a byte every 1.5 s: past TIMEOUT
# for any body of two bytes or more.
FAULT_SECONDS = {"delay": 300.0, "drip": 1.5, "refuse": 300.0}

OK, FINDINGS, NETWORK, SERVER = 0, 1, 3, 4


def pattern(path):
    """A regex for a logged request path: scanner ids, and the region ids and encoded names
    of region names in a meta scan's filter (a table made afresh gets new ones),
    generalised."""
    m = re.match(r"^(.*/scanner/)[0-9a-f]+$", path)
    if m:
        return "^" + re.escape(m.group(1)) + "[0-9a-f]+$"
    parts = re.split(r"%2C[0-9]+\.[0-9a-f]{32}\.", path)
    return "^" + r"%2C[0-9]+\.[0-9a-f]{32}\.".join(re.escape(x) for x in parts) + "$"


def classify(step):
    """What kind of answer the step gets in the fault-free run."""
    server, method, path, status = step["server"], step["method"], step["path"], step["status"]
    if server == "thrift":
        return "thrift"
    if method == "DELETE" and "/scanner/" in path:
        return "scanner_delete"
    if method == "DELETE":
        return "drop"
    if method == "PUT" and path.endswith("/schema"):
        return "schema_put"  # the REST channel's create
    if method == "POST" and path.endswith("/scanner"):
        return "scanner_open"
    if method == "GET" and "/scanner/" in path:
        return "scanner_page" if status == 200 else "scanner_end"
    if method == "PUT":
        return "write"
    if method == "GET" and status == 404:
        return "get_404"
    if method == "GET" and status == 200 and path.endswith("/exists"):
        return "get_empty"  # ExistsResource answers an empty 200
    return "get_json"


def expected(cls, kind, later_required, optional=False):
    """The one exit code of a cell, from what the fault does to that kind of answer.

    - A scanner DELETE is best-effort clean-up after the data is read, and an optional
      step is a check the command reports as a warning when it cannot be made: whatever
      happens to them, the command succeeds, unless the port closed by refuse is still
      closed for a required request after them.
    - 403/500/503/504 replace the answer with an error status (the request is not
      executed): a server error (exit 4), after the retries where the request is idempotent.
    - delay (past --timeout) and refuse (connection reset, port closed) are transport
      failures: exit 3 after the retries.
    - reset_headers, reset_body and drip cut or slow the body. An answer without a body
      (201 scanner, 204 end of scan, the empty 200 of a put) is complete once its headers
      are out, so nothing is lost (exit 0); an answer with a body is a transport failure
      (exit 3).
    - A Thrift2 createTable whose answer was lost, slowed past the timeout or cut after
      the table was made is followed by an existence check: the table is there, the
      create verifies it and succeeds. 500s, invalid_json and wrong_ctype replace the
      call (nothing was created): exit 4.
    - A schema PUT (create --via rest) is never retried. Its 201 has no body, so reset and
      drip lose nothing (exit 0). truncated_json runs the create and turns the 201 into a
      200 with a broken body, which is no create answer: the existence check after the
      failure finds the table and the create verifies it (exit 0); invalid_json and
      wrong_ctype are that 200 without the create: the table is absent, exit 4.
    - A schema DELETE answered 200 with a body (HBase sends an empty 200) counts only when
      a fresh existence check finds the table gone: truncated_json (executed) passes,
      invalid_json and wrong_ctype (not executed, the table is still there) are exit 4.
    - truncated_json, invalid_json and wrong_ctype make the answer a 200 with a broken or
      foreign body: a malformed answer, exit 4. That includes a put: HBase answers it with
      an empty 200, so a body means the row may not have been written.
    """
    if cls == "thrift" and kind in ("delay", "reset_headers", "reset_body", "drip",
                                    "truncated_json"):
        # createTable was executed and only its answer was slow, cut or broken: the
        # existence check after the failure finds the table, and the create verifies it
        # (a warning says so)
        return OK
    if cls == "schema_put" and kind in ("reset_headers", "reset_body", "drip",
                                        "truncated_json"):
        return OK
    if cls == "drop" and kind == "truncated_json":
        # the drop was executed and its empty 200 replaced by a broken body: the fresh
        # existence check after it finds the table gone, so the drop counts
        return OK
    if optional or cls == "scanner_delete":
        # a check reported as a warning when it cannot be made, or clean-up; but refuse
        # keeps the port closed for a while, and a required request after it meets that
        return NETWORK if kind == "refuse" and later_required else OK
    if kind in ("403", "500", "503", "504"):
        return SERVER
    if kind in ("delay", "refuse"):
        return NETWORK
    if kind in ("reset_headers", "reset_body", "drip"):
        if cls in ("scanner_open", "scanner_end", "write", "drop", "get_empty"):
            return OK
        return NETWORK
    return SERVER


# Emulators side by side: the cells mostly wait (hbtab's timeouts and backoff), so more
# workers than cores pay.
WORKERS = int(os.environ.get("HBTAB_MATRIX_WORKERS", "8"))


class Worker:
    """One emulator and the helpers a cell needs on it."""

    def __init__(self, tmp):
        self.emu = hbtest.Emulator(3)
        self.tmp = tempfile.mkdtemp(prefix="w-", dir=tmp)
        self.home = os.path.join(self.tmp, "home")
        os.mkdir(self.home)

    def stop(self):
        self.emu.stop()

    def hbm(self, *args, env=None):
        return hbtest.run(["--rest", self.emu.rest, "--thrift", self.emu.thrift, "--no-progress",
                           "--timeout", TIMEOUT, "--retries", RETRIES] + list(args),
                          home=self.home, env=env)

    def settle(self, kind):
        """A delayed request is executed once released (REST) or once hbtab has closed its
        connection (Thrift2): release it now that the command ended, and wait until it has
        run, so it cannot land in the next cell's fresh state."""
        if kind != "delay":
            return
        self.emu.control("POST", "/control/release")
        deadline = time.monotonic() + 120   # guard only
        while time.monotonic() < deadline:
            fired = sum(f["fired"] for f in self.emu.control("GET", "/control/fault")[1])
            done = sum(1 for q in self.emu.requests() if q["fault"] == "delay")
            if done >= fired:
                return
            time.sleep(0.1)
        raise AssertionError("delayed requests did not finish")

    def wait_listening(self):
        deadline = time.monotonic() + 120   # guard only
        while time.monotonic() < deadline:
            try:
                for port in (self.emu.ports["rest"], self.emu.ports["thrift"]):
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        pass
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the emulator did not reopen its port")


class FaultMatrix(unittest.TestCase):
    name = None
    optional = ()  # (method, path regex) of steps whose failure is only a warning
    min_steps = 3  # a fault-free run with fewer requests means the scenario broke

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="hbtab-matrix-")
        cls.workers = []
        # the emulators start side by side (each start mostly waits on its imports)
        started, errors = [], []

        def start():
            try:
                w = Worker(cls.tmp)
            except Exception as e:  # reported below, once every start has ended
                errors.append(e)
                return
            started.append(w)

        threads = [threading.Thread(target=start) for _ in range(WORKERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        cls.workers = started
        if errors:
            cls.tearDownClass()
            raise errors[0]

    @classmethod
    def tearDownClass(cls):
        for w in cls.workers:
            w.stop()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    # scenario hooks, each given the worker it runs on
    def prepare(self, w):
        pass

    def command(self, w):
        raise NotImplementedError

    def rerun(self, w):
        """The command that completes the job after a faulted run."""
        return self.command(w)

    def env(self, w):
        """Extra environment of the command (None: none)."""
        return None

    def check_no_harm(self, w, requests):
        raise NotImplementedError

    def check_done(self, w):
        raise NotImplementedError

    def select_steps(self, steps):
        return steps

    def check_steps(self, steps):
        """Asserts what the fault-free run must contain for the matrix to mean anything."""

    def fresh(self, w):
        w.emu.clear_faults()
        w.emu.reset()
        self.prepare(w)
        w.emu.clear_requests()

    def steps(self, w):
        self.fresh(w)
        r = w.hbm(*self.command(w), env=self.env(w))
        self.assertEqual(r.rc, 0, r)
        log = w.emu.requests()
        self.assertGreater(len(log), 0)
        out = []
        for i, q in enumerate(log):
            pat = pattern(q["path"])
            rx = re.compile(pat)
            skip = sum(1 for p in log[:i] if p["server"] == q["server"]
                       and p["method"] == q["method"] and rx.search(p["path"]))
            out.append(dict(q, index=i, pattern=pat, skip=skip, cls=classify(q),
                            optional=self.is_optional(q)))
        for i, st in enumerate(out):
            st["later_required"] = any(not x["optional"] and x["cls"] != "scanner_delete"
                                       for x in out[i + 1:])
        return out

    def fault_seconds(self, step, kind):
        return FAULT_SECONDS[kind]

    # The command reads the table's schema only to find the metadata row's family.
    metadata_row_alone = False

    def is_optional(self, q):
        return any(q["method"] == m and re.search(rx, q["path"]) for m, rx in self.optional)

    def cell(self, w, step, kind):
        """Runs one cell on worker w; returns a list of problems (empty when it passed)."""
        label = "%s: step %d (%s %s %s), %s" % (self.name, step["index"], step["server"],
                                              step["method"], step["path"], kind)
        problems = []
        self.fresh(w)
        spec = {"server": step["server"], "method": step["method"], "path": step["pattern"],
                "kind": kind, "count": -1, "skip": step["skip"]}
        if kind in FAULT_SECONDS:
            spec["seconds"] = self.fault_seconds(step, kind)
        if kind == "delay":
            spec["until"] = "gone" if step["server"] == "thrift" else "release"
        if kind == "refuse":
            spec["at_request"] = True
            spec["until"] = "reopen"
        w.emu.fault(**spec)
        r = w.hbm(*self.command(w), env=self.env(w))
        want = expected(step["cls"], kind, step["later_required"], step["optional"])
        if (kind == "403" and self.metadata_row_alone and step["method"] == "GET" and
                step["path"].endswith("/schema")):
            # HBase refusing the schema (a READ-only user's lot) leaves the metadata row to
            # be read whole: a command that needs no more goes on (rest/metarow.c)
            want = OK
        if r.rc != want:
            problems.append("%s: exit %d, expected %d: %s" % (label, r.rc, want,
                                                             r.err.strip()[-300:]))
        elif r.rc and not r.err.startswith("hbtab: "):
            problems.append("%s: no hbtab message: %r" % (label, r.err[:300]))
        w.settle(kind)
        w.emu.clear_faults()  # reopens a refused port
        if kind == "refuse":
            w.wait_listening()
        try:
            self.check_no_harm(w, w.emu.requests())
        except AssertionError as e:
            problems.append("%s: harm: %s" % (label, e))
        w.emu.clear_requests()
        r2 = w.hbm(*self.rerun(w), env=self.env(w))
        if r2.rc != 0:
            problems.append("%s: rerun exit %d: %s" % (label, r2.rc, r2.err.strip()[-300:]))
        else:
            try:
                self.check_done(w)
            except AssertionError as e:
                problems.append("%s: rerun end state: %s" % (label, e))
        return problems

    def run_matrix(self):
        all_steps = self.steps(self.workers[0])
        self.check_steps(all_steps)
        steps = self.select_steps(all_steps)
        cells = queue.Queue()
        for step in steps:
            for kind in KINDS:
                cells.put((step, kind))
        total = cells.qsize()
        problems = []
        lock = threading.Lock()

        def work(w):
            while True:
                try:
                    step, kind = cells.get_nowait()
                except queue.Empty:
                    return
                try:
                    got = self.cell(w, step, kind)
                except Exception as e:  # a broken cell must not hide the others
                    got = ["%s step %d %s: %r" % (self.name, step["index"], kind, e)]
                with lock:
                    problems.extend(got)

        threads = [threading.Thread(target=work, args=(w,)) for w in self.workers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertGreaterEqual(total, len(KINDS) * self.min_steps)
        self.assertEqual(problems, [], "%d of %d cells failed:\n%s" % (
            len(problems), total, "\n".join(sorted(problems))))


HEX4 = [b"40000000", b"80000000", b"c0000000"]


# the faults that still deliver the status line of the answer they hit
STATUS_DELIVERED = (None, "reset_headers", "reset_body", "drip")


class CreateMatrixBase(FaultMatrix):
    """create t1 with planned boundaries `splits`; the metadata row records N."""
    # The region states come from hbase:meta, and from Thrift2 when meta cannot be read.
    optional = (("GET", r"^/hbase%3Ameta/"),)
    splits = HEX4
    spec = ["--hex-splits", "4", "--family", "cf"]
    via = []
    wait = WAIT
    schema_put = False  # the channel creates with PUT /t1/schema

    def command(self, w):
        return ["create", "t1"] + self.spec + self.via + ["--wait", self.wait]

    def check_no_harm(self, w, requests):
        for q in requests:
            if q["method"] == "DELETE":
                self.assertIn("/scanner/", q["path"])
            if q["server"] == "rest" and q["method"] in ("PUT", "POST"):
                self.assertTrue(q["path"] == "/t1/hbtab-row?check=put"
                                or q["path"].endswith("/scanner")
                                or (self.schema_put and q["method"] == "PUT"
                                    and q["path"] == "/t1/schema"), q)
        # the DDL: a schema PUT, or a Thrift2 call before the wait for regions (after it,
        # Thrift2 only reads the region states when meta cannot be read)
        waits = [i for i, q in enumerate(requests) if q["path"] == "/t1/regions"]
        ddl = [i for i, q in enumerate(requests)
               if (q["server"] == "thrift" and (not waits or i < waits[0]))
               or (q["method"] == "PUT" and q["path"] == "/t1/schema")]
        if w.emu.table("t1") is not None or ddl:
            # no DDL (a shell run leaves only the table) unless the absence check that
            # comes first was answered 404
            first = requests[0]
            self.assertEqual((first["method"], first["path"], first["status"]),
                             ("GET", "/t1/exists", 404), "created without an absence check")
            self.assertIn(first["fault"], STATUS_DELIVERED,
                          "created though the absence check failed")
            self.assertLessEqual(len(ddl), 1, "the create was sent twice")
        if w.emu.table("t1") is not None:
            self.assertEqual(w.emu.boundaries("t1"), self.splits)
            row = w.emu.metadata_row("t1")
            if row is not None:
                self.assertEqual(row["cf:N"], str(len(self.splits) + 1))

    def check_done(self, w):
        self.assertEqual(w.emu.boundaries("t1"), self.splits)
        self.assertEqual(w.emu.metadata_row("t1")["cf:N"], str(len(self.splits) + 1))
