"""End-to-end: every fault the emulator injects gives the documented message, exit status,
number of attempts, and never a hang past the timeout."""
import time

import hbtest
from hbtest import EmulatorTest

# Seconds after which a command counts as hung; speed is measured in tests/bench/, not here.
HANG_GUARD = 60


class Faults(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"g", b"p"])
        self.emu.clear_requests()

    def attempts(self, path_suffix, method="GET"):
        return [q for q in self.emu.requests()
                if q["method"] == method and q["path"].endswith(path_suffix)]

    def test_refuse__exit_3_without_retries(self):
        # closed until the faults are cleared, however slowly hbtab starts
        self.emu.fault(kind="refuse", until="reopen")
        r = self.hb("--retries", "0", "tables", timeout=HANG_GUARD)
        self.assertFails(r, 3, r"cannot GET http://127\.0\.0\.1:\d+/: connection refused")
        self.assertNotIn("attempts", r.err)  # one attempt: no retry was made
        self.emu.clear_faults()  # the gateway comes back (answered once it listens)
        self.assertOk(self.hb("--retries", "0", "tables"))

    def test_refuse__retries_reconnect_when_the_gateway_comes_back(self):
        self.emu.fault(kind="refuse", seconds=0.4)
        r = self.hb("--retries", "6", "tables")
        self.assertOk(r)
        self.assertEqual(r.out, "t1\n")

    def test_reset_headers__retried_once_then_ok(self):
        self.emu.fault(kind="reset_headers", path="^/t1/regions", count=1)
        r = self.hb("--retries", "2", "regions", "t1", "--source", "rest")
        self.assertOk(r)
        log = self.attempts("/t1/regions")
        self.assertEqual([q["fault"] for q in log], ["reset_headers", None])

    def test_reset_headers__exit_3_when_retries_run_out(self):
        self.emu.fault(kind="reset_headers", path="^/t1/regions", count=-1)
        r = self.hb("--retries", "2", "regions", "t1", "--source", "rest")
        self.assertFails(r, 3, "connection reset")
        self.assertIn("(3 attempts)", r.err)
        self.assertEqual(len(self.attempts("/t1/regions")), 3)

    def test_reset_body__retried_and_exit_3_when_persistent(self):
        self.emu.fault(kind="reset_body", path="^/t1/regions", count=1)
        self.assertOk(self.hb("--retries", "1", "regions", "t1", "--source", "rest"))
        self.assertEqual(len(self.attempts("/t1/regions")), 2)
        self.emu.clear_requests()
        self.emu.fault(kind="reset_body", path="^/t1/regions", count=-1)
        r = self.hb("--retries", "1", "regions", "t1", "--source", "rest")
        self.assertFails(r, 3, "closed before the whole response|connection reset")
        self.assertEqual(len(self.attempts("/t1/regions")), 2)

    def test_delay__past_timeout_is_exit_3_and_does_not_hang(self):
        # held until released after hbtab ended: slower than any timeout
        self.emu.fault(kind="delay", path="^/t1/regions", until="release", count=-1)
        r = self.hb("--timeout", "0.5", "--retries", "1", "regions", "t1", "--source", "rest",
                    timeout=HANG_GUARD)
        self.assertFails(r, 3, "timed out")
        # the emulator logs a request once it ran: both attempts, released now
        self.emu.control("POST", "/control/release")
        hbtest.wait_for(lambda: len(self.attempts("/t1/regions")) >= 2, "both attempts")
        self.assertEqual(self.emu.control("GET", "/control/held")[1]["held"], 0)
        self.assertEqual(len(self.attempts("/t1/regions")), 2)

    def test_delay__shorter_than_timeout_is_fine(self):
        self.emu.fault(kind="delay", path="^/t1/regions", seconds=0.3, count=1)
        self.assertOk(self.hb("--timeout", "5", "regions", "t1", "--source", "rest"))

    def test_500__not_retried_exit_4_first_line_only(self):
        self.emu.fault(kind="500", path="^/t1/regions", count=-1)
        r = self.hb("--retries", "3", "regions", "t1", "--source", "rest")
        self.assertFails(r, 4, r"^hbtab: table 't1': regions not online \(GET /t1/regions: HTTP 500 "
                               r"Internal Server Error\); 'hbtab regions t1 --source meta' shows "
                               r"each region's state \(with region replicas, a replica not yet "
                               r"open fails this listing too, and meta's shows the primaries\)$")
        self.assertEqual(len(self.attempts("/t1/regions")), 1)

    def test_503_retry_after__honoured_then_ok(self):
        self.emu.fault(kind="503", path="^/t1/regions", count=1, retry_after=1)
        t = time.monotonic()
        r = self.hb("--retries", "2", "regions", "t1", "--source", "rest")
        self.assertOk(r)
        # a lower bound only: the client waited Retry-After (load can only lengthen this)
        self.assertGreaterEqual(time.monotonic() - t, 0.95)
        self.assertEqual([q["status"] for q in self.attempts("/t1/regions")], [503, 200])

    def test_503__exit_4_after_retries(self):
        self.emu.fault(kind="503", path="^/t1/regions", count=-1, retry_after=0)
        r = self.hb("--retries", "2", "regions", "t1", "--source", "rest")
        self.assertFails(r, 4, "GET /t1/regions: HTTP 503 Unavailable")
        self.assertEqual(len(self.attempts("/t1/regions")), 3)

    def test_504__retried(self):
        self.emu.fault(kind="504", path="^/t1/regions", count=2)
        self.assertOk(self.hb("--retries", "2", "regions", "t1", "--source", "rest"))
        self.assertEqual([q["status"] for q in self.attempts("/t1/regions")], [504, 504, 200])

    def test_retries_0__means_one_attempt(self):
        self.emu.fault(kind="504", path="^/t1/regions", count=-1)
        self.assertFails(self.hb("--retries", "0", "regions", "t1", "--source", "rest"), 4, "HTTP 504")
        self.assertEqual(len(self.attempts("/t1/regions")), 1)

    def test_truncated_json__malformed_exit_4_not_retried(self):
        self.emu.fault(kind="truncated_json", path="^/t1/regions", count=1)
        r = self.hb("--retries", "2", "regions", "t1", "--source", "rest")
        self.assertFails(r, 4, r"malformed response from GET /t1/regions: invalid JSON")
        self.assertEqual(len(self.attempts("/t1/regions")), 1)

    def test_invalid_json__malformed_exit_4(self):
        self.emu.fault(kind="invalid_json", path="^/$", count=1)
        self.assertFails(self.hb("tables"), 4, r"malformed response from GET /: invalid JSON")

    def test_wrong_ctype__exit_4_names_the_content_type(self):
        self.emu.fault(kind="wrong_ctype", path="^/status/cluster", count=1)
        self.assertFails(self.hb("status"), 4, "unexpected content type 'text/html")

    def test_drip__slower_than_timeout_is_exit_3(self):
        self.emu.fault(kind="drip", path="^/t1/regions", seconds=0.05, count=-1)
        r = self.hb("--timeout", "1", "--retries", "0", "regions", "t1", "--source", "rest",
                    timeout=HANG_GUARD)
        self.assertFails(r, 3, "timed out")
        self.assertEqual(len(self.attempts("/t1/regions")), 1)

    def test_404__message_has_no_stack_trace(self):
        r = self.hb("describe", "nope")
        self.assertFails(r, 4)
        self.assertEqual(len(r.err.strip().splitlines()), 1, r.err)
        self.assertNotIn("Exception", r.err)

    # A binary metadata row cannot travel in a URL (RowSpec decodes it as UTF-8), so hbtab
    # reads it with a stateful scanner: these tests drive the scanner through it.
    BINARY_ROW = "\\x00N"

    def put_binary_row(self):
        self.emu.control("POST", "/control/put", {"table": "t1", "rows": [
            {"key": hbtest.b64(b"\x00N"),
             "cells": [{"column": hbtest.b64(b"cf:N"), "value": hbtest.b64(b"6")}]}]})

    def test_scanner_create__post_is_not_retried(self):
        self.emu.fault(kind="503", method="POST", path="/scanner$", count=-1)
        r = self.hb("--retries", "3", "meta", "get", "t1", "--metadata-row", self.BINARY_ROW)
        self.assertFails(r, 4, "POST /t1/scanner: HTTP 503")
        self.assertEqual(len(self.attempts("/scanner", "POST")), 1)

    def test_scanner_get_reset__scan_reopens_and_loses_nothing(self):
        self.put_binary_row()
        self.emu.clear_requests()
        self.emu.fault(kind="reset_body", method="GET", path="/scanner/", count=1)
        r = self.hb("meta", "get", "t1", "--metadata-row", self.BINARY_ROW)
        self.assertOk(r)
        self.assertEqual(r.out, "N\t6\n")
        self.assertEqual(len(self.attempts("/scanner", "POST")), 2)
        # every scanner that was opened was deleted
        self.assertEqual(len([q for q in self.emu.requests() if q["method"] == "DELETE"]), 2)

    def sampled_split(self, *faults):
        """The middle key of a whole-table sample of 3000 rows (three scanner batches), with
        faults in place while it is taken."""
        self.emu.clear_faults()
        for f in faults:
            self.emu.fault(**f)
        r = self.hb("splits", "--sampled-splits", "2", "--sample-table", "t1",
                    "--sample-rows", "3000", "--format", "json")
        self.emu.clear_faults()
        return r

    def test_scanner_end__a_sample_whose_scanner_stopped_short_goes_on_to_the_end(self):
        # a region server that fails under a scanner ends it with a 204, as the end of the
        # rows does (NOTES.md, scanner_end): the sample reads on from its last row
        self.emu.control("POST", "/control/put", {"table": "t1", "rows": [
            {"key": hbtest.b64(b"%05d" % i),
             "cells": [{"column": hbtest.b64(b"cf:v"), "value": hbtest.b64(b"x")}]}
            for i in range(3000)]})
        whole = self.sampled_split()
        self.assertOk(whole)
        self.assertEqual([k["key"] for k in whole.json()["splits"]], ["01500"])
        r = self.sampled_split({"kind": "scanner_end", "method": "GET", "path": "/scanner/",
                                "count": 1, "skip": 1})
        self.assertOk(r)
        self.assertEqual(r.json()["splits"], whole.json()["splits"])
        # a scanner that keeps ending early is an error, not a short sample
        r = self.sampled_split({"kind": "scanner_end", "method": "GET", "path": "/scanner/",
                                "count": -1, "skip": 1})
        self.assertFails(r, 4, r"sampling table 't1': the gateway's scanner ended early 4 times")
        self.assertEqual(r.out, "")

    def test_read_only_gateway__scanner_and_write_refused_with_403(self):
        self.emu.control("POST", "/control/readonly", {"on": True})
        self.assertFails(self.hb("meta", "set", "t1", "4"), 4, "403")
        self.assertOk(self.hb("regions", "t1", "--source", "rest"))


if __name__ == "__main__":
    hbtest.main()
