"""Fault injection through the control channel, and the request log."""
import json
import socket
import sys
import threading
import time
import unittest

from emu_harness import EMU_DIR, EmuTestCase

sys.path.insert(0, EMU_DIR)
from hbemu import httpbase  # noqa: E402


def raw_get(port, path, timeout=60):
    """Send one GET; return (bytes received, error or None)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n" % path).encode())
    data = b""
    err = None
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            head, sep, body = data.partition(b"\r\n\r\n")
            if sep:
                cl = [l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
                if cl and len(body) >= int(cl[0].split(b":")[1]):
                    break
    except (ConnectionResetError, socket.timeout) as e:
        err = e
    finally:
        s.close()
    return data, err


class Faults(EmuTestCase):
    def setUp(self):
        EmuTestCase.setUp(self)
        self.emu.create("t1", [b"m"])

    def fault(self, **kw):
        st, d = self.emu.control("POST", "/control/fault", kw)
        self.assertEqual(st, 200, d)
        return d

    def test_500_fires_count_times_then_normal_and_is_logged(self):
        self.fault(server="rest", method="GET", path="/t1/regions", kind="500", count=2)
        sts = [self.emu.rest("GET", "/t1/regions")[0] for _ in range(3)]
        self.assertEqual(sts, [500, 500, 200])
        st, log = self.emu.control("GET", "/control/requests")
        mine = [(r["path"], r["status"], r["fault"]) for r in log if r["path"] == "/t1/regions"]
        self.assertEqual(mine, [("/t1/regions", 500, "500"), ("/t1/regions", 500, "500"),
                                ("/t1/regions", 200, None)])
        self.emu.control("DELETE", "/control/requests")
        self.assertEqual(self.emu.control("GET", "/control/requests")[1], [])

    def test_hold_keeps_the_request_until_released_then_executes_it(self):
        import threading
        self.fault(server="rest", method="PUT", path="/t1/", kind="hold")
        done = []
        th = threading.Thread(target=lambda: done.append(
            self.emu.put("t1", b"r", b"cf:a", b"v")[0]))
        th.start()
        try:
            deadline = time.monotonic() + 60  # a guard against a hang
            while self.emu.control("GET", "/control/held")[1]["held"] != 1:
                self.assertLess(time.monotonic(), deadline, "the PUT was never held")
                time.sleep(0.02)
            # held: not executed, not answered, not logged; other requests still answered
            self.assertEqual(done, [])
            self.assertEqual(self.emu.rest("GET", "/t1/r")[0], 404)
            self.assertEqual([r for r in self.emu.control("GET", "/control/requests")[1]
                              if r["method"] == "PUT"], [])
        finally:
            st, _ = self.emu.control("POST", "/control/release")
            th.join(60)
        self.assertEqual(st, 200)
        self.assertEqual(done, [200])
        self.assertEqual(self.emu.rest("GET", "/t1/r")[0], 200)
        self.assertEqual(self.emu.control("GET", "/control/held")[1]["held"], 0)
        log = [(r["method"], r["fault"]) for r in self.emu.control("GET", "/control/requests")[1]
               if r["method"] == "PUT"]
        self.assertEqual(log, [("PUT", "hold")])

    def test_503_carries_retry_after(self):
        self.fault(path="regions", kind="503", retry_after=7)
        st, h, b = self.emu.rest("GET", "/t1/regions")
        self.assertEqual((st, h["retry-after"]), (503, "7"))

    def test_504_and_method_filter(self):
        self.fault(method="PUT", path=".*", kind="504", count=-1)
        self.assertEqual(self.emu.rest("GET", "/t1/regions")[0], 200)
        self.assertEqual(self.emu.put("t1", b"r", b"cf:a", b"v")[0], 504)
        self.assertEqual(self.emu.put("t1", b"r", b"cf:a", b"v")[0], 504)
        self.emu.control("DELETE", "/control/fault")
        self.assertEqual(self.emu.put("t1", b"r", b"cf:a", b"v")[0], 200)

    def test_probability_zero_never_fires_and_half_fires_about_half(self):
        self.fault(path="/version", kind="500", count=-1, probability=0.0)
        self.assertEqual({self.emu.rest("GET", "/version")[0] for _ in range(20)}, {200})
        self.emu.control("DELETE", "/control/fault")
        self.fault(path="/version", kind="500", count=-1, probability=0.5)
        n = sum(1 for _ in range(200) if self.emu.rest("GET", "/version")[0] == 500)
        self.assertTrue(50 < n < 150, n)

    def test_path_regex_sees_query_string(self):
        self.fault(path=r"limit=3", kind="500")
        self.assertEqual(self.emu.rest("GET", "/t1/*?limit=2")[0], 200)
        self.assertEqual(self.emu.rest("GET", "/t1/*?limit=3")[0], 500)

    def test_delay_sleeps_then_answers(self):
        self.fault(path="/version", kind="delay", seconds=0.4)
        t0 = time.time()
        st = self.emu.rest("GET", "/version")[0]
        self.assertEqual(st, 200)
        self.assertGreaterEqual(time.time() - t0, 0.4)

    def test_truncated_json_has_matching_content_length_and_bad_json(self):
        self.fault(path="/t1/regions", kind="truncated_json")
        st, h, b = self.emu.rest("GET", "/t1/regions")
        self.assertEqual(st, 200)
        self.assertEqual(int(h["content-length"]), len(b))
        self.assertTrue(b.startswith(b'{"name":"t1"'))
        with self.assertRaises(ValueError):
            json.loads(b)

    def test_invalid_json_body(self):
        self.fault(path="/t1/regions", kind="invalid_json")
        st, h, b = self.emu.rest("GET", "/t1/regions")
        self.assertEqual(st, 200)
        self.assertTrue(b.startswith(b'{"Row":['))
        with self.assertRaises(ValueError):
            json.loads(b)

    def test_wrong_ctype_is_html(self):
        self.fault(path="/version", kind="wrong_ctype")
        st, h, b = self.emu.rest("GET", "/version")
        self.assertEqual(st, 200)
        self.assertTrue(h["content-type"].startswith("text/html"))

    def test_reset_headers_sends_headers_then_rst(self):
        self.fault(path="/t1/regions", kind="reset_headers")
        data, err = raw_get(self.emu.rest_port, "/t1/regions")
        self.assertTrue(data.startswith(b"HTTP/1.1 200"))
        head, _, body = data.partition(b"\r\n\r\n")
        self.assertEqual(body, b"")
        self.assertIn(b"Content-Length:", head)

    def test_reset_body_sends_half_the_body_then_rst(self):
        self.fault(path="/t1/regions", kind="reset_body")
        data, err = raw_get(self.emu.rest_port, "/t1/regions")
        head, _, body = data.partition(b"\r\n\r\n")
        cl = int([l for l in head.split(b"\r\n") if l.startswith(b"Content-Length")][0].split(b":")[1])
        self.assertGreater(len(body), 0)
        self.assertLess(len(body), cl)

    def test_drip_sends_body_slowly(self):
        self.fault(path="/version/cluster", kind="drip", seconds=0.05)
        t0 = time.time()
        st, h, b = self.emu.rest("GET", "/version/cluster")
        self.assertEqual((st, b), (200, b'{"Version":"2.5.8"}'))
        self.assertGreaterEqual(time.time() - t0, 0.3)

    def test_refuse_closes_the_port_then_reopens_it(self):
        # closed for a second, or longer when the machine is too slow to see it closed
        seconds = 1.0
        while True:
            t0 = time.monotonic()
            self.fault(server="rest", kind="refuse", seconds=seconds)
            try:
                socket.create_connection(("127.0.0.1", self.emu.rest_port), timeout=30).close()
            except ConnectionRefusedError:
                break
            self.assertGreaterEqual(time.monotonic() - t0, seconds, "the port was not closed")
            self.assertLess(seconds, 64, "never saw the port closed")
            seconds *= 2
        # reopened once the seconds are over: polled, with a guard against a hang only
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.emu.rest_port), timeout=30).close()
                break
            except ConnectionRefusedError:
                self.assertLess(time.monotonic(), deadline, "the port never reopened")
                time.sleep(0.1)
        self.assertEqual(self.emu.rest("GET", "/version")[0], 200)

    def wait_held(self, n):
        deadline = time.monotonic() + 60  # a guard against a hang
        while self.emu.control("GET", "/control/held")[1]["held"] != n:
            self.assertLess(time.monotonic(), deadline, "never %d held" % n)
            time.sleep(0.02)

    def puts_logged(self):
        return [(r["method"], r["status"], r["fault"])
                for r in self.emu.control("GET", "/control/requests")[1] if r["method"] == "PUT"]

    def test_delay_until_release_executes_only_once_released(self):
        self.fault(server="rest", method="PUT", path="/t1/", kind="delay", until="release")
        s = socket.create_connection(("127.0.0.1", self.emu.rest_port), timeout=60)
        body = json.dumps({"Row": [{"key": "cg==", "Cell": [{"column": "Y2Y6YQ==",
                                                             "$": "dg=="}]}]}).encode()
        s.sendall(b"PUT /t1/fakerow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.wait_held(1)
        # the client gives up: the request is still not executed (a slow server)
        s.close()
        self.assertEqual(self.emu.rest("GET", "/t1/r")[0], 404)
        self.assertEqual(self.puts_logged(), [])
        st, _ = self.emu.control("POST", "/control/release")
        self.assertEqual(st, 200)
        deadline = time.monotonic() + 60
        while not self.puts_logged():
            self.assertLess(time.monotonic(), deadline, "the PUT never ran")
            time.sleep(0.02)
        self.assertEqual(self.puts_logged(), [("PUT", 200, "delay")])
        self.assertEqual(self.emu.rest("GET", "/t1/r")[0], 200)

    def test_delay_until_gone_executes_at_once_and_answers_nobody(self):
        self.fault(server="rest", method="PUT", path="/t1/", kind="delay", until="gone")
        s = socket.create_connection(("127.0.0.1", self.emu.rest_port), timeout=60)
        body = json.dumps({"Row": [{"key": "cg==", "Cell": [{"column": "Y2Y6YQ==",
                                                             "$": "dg=="}]}]}).encode()
        s.sendall(b"PUT /t1/fakerow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.wait_held(1)
        # executed, its answer waiting for the client to give up
        self.assertEqual(self.emu.rest("GET", "/t1/r")[0], 200)
        self.assertEqual(self.puts_logged(), [])
        s.close()
        self.wait_held(0)
        deadline = time.monotonic() + 60
        while not self.puts_logged():
            self.assertLess(time.monotonic(), deadline, "the PUT was never logged")
            time.sleep(0.02)
        self.assertEqual(self.puts_logged(), [("PUT", 200, "delay")])

    def test_until_applies_to_delay_and_refuse_only(self):
        st, d = self.emu.control("POST", "/control/fault", {"kind": "500", "until": "release"})
        self.assertEqual(st, 400, d)
        st, d = self.emu.control("POST", "/control/fault", {"kind": "refuse", "until": "gone"})
        self.assertEqual(st, 400, d)

    def refused(self, port):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=30).close()
            return False
        except ConnectionRefusedError:
            return True

    def test_refuse_until_reopen_keeps_the_port_closed_until_the_control_channel_reopens_it(self):
        self.fault(server="rest", kind="refuse", until="reopen")
        self.assertTrue(self.refused(self.emu.rest_port))
        self.assertEqual(self.emu.control("GET", "/control/state")[0], 200)
        st, _ = self.emu.control("POST", "/control/reopen", {"server": "rest"})
        self.assertEqual(st, 200)
        # listening again when the reopen is answered
        self.assertEqual(self.emu.rest("GET", "/version")[0], 200)

    def test_refuse_until_reopen_at_request_and_clearing_the_faults_reopens(self):
        self.fault(server="thrift", kind="refuse", until="reopen", at_request=True)
        st, h, b = self.emu.http(self.emu.rest_port, "GET", "/version")
        self.assertEqual(st, 200)  # the other server is not affected
        with self.assertRaises(OSError):
            self.emu.http(self.emu.thrift_port, "POST", "/", b"\x80\x01\x00\x01")
        self.assertTrue(self.refused(self.emu.thrift_port))
        log = self.emu.control("GET", "/control/requests")[1]
        self.assertEqual((log[-1]["server"], log[-1]["status"], log[-1]["fault"]),
                         ("thrift", 0, "refuse"))
        st, _ = self.emu.control("DELETE", "/control/fault")
        self.assertEqual(st, 200)
        self.assertFalse(self.refused(self.emu.thrift_port))
        # a reopen with nothing closed is answered at once
        self.assertEqual(self.emu.control("POST", "/control/reopen", {})[0], 200)

    def test_thrift_server_faults(self):
        self.fault(server="thrift", path=".*", kind="503", retry_after=1)
        st, h, b = self.emu.http(self.emu.thrift_port, "POST", "/", b"\x80\x01\x00\x01")
        self.assertEqual(st, 503)
        st, log = self.emu.control("GET", "/control/requests")
        self.assertEqual(log[-1]["server"], "thrift")

    def test_unknown_kind_rejected(self):
        st, d = self.emu.control("POST", "/control/fault", {"kind": "explode"})
        self.assertEqual(st, 400)


class ControlChannel(EmuTestCase):
    def test_create_split_key_validation_errors(self):
        st, d = self.emu.control("POST", "/control/create", {"table": "t", "families": [{"name": "cf"}],
                                                             "splits": ["YQ==", ""]})
        self.assertEqual((st, d["error"]), (400, "Empty split key must not be passed in the split keys."))
        st, d = self.emu.control("POST", "/control/create", {"table": "t", "families": [{"name": "cf"}],
                                                             "splits": ["AP8=", "YQ==", "AP8="]})
        self.assertEqual((st, d["error"]), (400, "All split keys must be unique, found duplicate: \\x00\\xFF, \\x00\\xFF"))
        self.emu.create("t")
        st, d = self.emu.control("POST", "/control/create", {"table": "t", "families": [{"name": "cf"}]})
        self.assertEqual((st, d["error"]), (409, "t"))

    def test_state_dump_has_tables_regions_and_servers(self):
        self.emu.create("t", [b"k"])
        st, d = self.emu.control("GET", "/control/state")
        self.assertEqual(st, 200)
        self.assertEqual(len(d["servers"]), 3)
        t = d["tables"][0]
        self.assertEqual(t["name"], "t")
        self.assertEqual([r["start"] for r in t["regions"]], ["", "aw=="])

    def test_bulk_put_counts_as_writes(self):
        self.emu.create("t", [b"k"])
        rows = [{"key": "eg==", "cells": [{"column": "Y2Y6YQ==", "value": "dg=="}]}] * 4
        st, d = self.emu.control("POST", "/control/put", {"table": "t", "rows": rows})
        self.assertEqual(st, 200)
        st, d = self.emu.control("GET", "/control/state")
        self.assertEqual([r["writes"] for r in d["tables"][0]["regions"]], [0, 4])

    def test_control_paths_are_not_served_by_rest(self):
        self.assertEqual(self.emu.rest("GET", "/control/state")[0], 404)


class HeldCount(unittest.TestCase):
    """The counts a test reads through /control/held. held, its sign that a client is at a
    request, never counts a request a release let go, even while that request's thread has
    not run on yet (a loaded machine); released counts such a request until it is answered."""

    def test_release_counts_held_requests_out_before_their_threads_run(self):
        faults = httpbase.Faults()
        woken = threading.Event()
        go_on = threading.Event()
        answer = threading.Event()

        class SlowGate(threading.Event):
            """A gate whose waiter, once let go, stays in wait() until go_on is set: the
            thread of a released request that the machine has not run yet."""

            def wait(self, timeout=None):
                r = threading.Event.wait(self, timeout)
                woken.set()
                go_on.wait(60)
                return r

        def request():  # as Handler: held, executed, answered
            faults.hold(60)
            answer.wait(60)
            faults.answered()

        faults.gate = SlowGate()
        th = threading.Thread(target=request)
        th.start()
        try:
            for _ in range(6000):  # a guard against a hang (60 s), never a speed bound
                if faults.held == 1:
                    break
                time.sleep(0.01)
            else:
                self.fail("the request was never held")
            self.assertEqual(faults.released_running, 0)
            faults.release()
            self.assertTrue(woken.wait(60))
            self.assertEqual(faults.held, 0, "a released request still counted as held")
            self.assertEqual(faults.released_running, 1)
            go_on.set()
            time.sleep(0.05)  # let it run on to its answer, which waits
            self.assertEqual(faults.released_running, 1, "counted out before its answer")
        finally:
            go_on.set()
            answer.set()
            th.join(60)
        self.assertEqual(faults.held, 0)
        self.assertEqual(faults.released_running, 0)


if __name__ == "__main__":
    unittest.main()
