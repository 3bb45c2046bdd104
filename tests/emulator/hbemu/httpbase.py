"""HTTP plumbing shared by the REST, Thrift and control servers: threaded
HTTP/1.1 servers bound to 127.0.0.1, a response writer without Server/Date
headers, fault injection and the request log."""
import gzip
import http.server
import random
import re
import select
import socket
import socketserver
import ssl
import struct
import sys
import threading
import time

VERBOSE = [False]


def log(msg):
    if VERBOSE[0]:
        sys.stderr.write("hbemu: %s\n" % msg)
        sys.stderr.flush()


# ----------------------------------------------------------------------------
# faults and request log

CANNED_JSON = (b'{"Row":[{"key":"cm93MQ==","Cell":[{"column":"Y2Y6YQ==",'
               b'"timestamp":1700000000000,"$":"dmFsdWUx"}]}]}')


class Fault(object):
    def __init__(self, spec):
        self.server = spec.get("server", "rest")
        self.method = spec.get("method", "*") or "*"
        self.path = spec.get("path", ".*") or ".*"
        self.rx = re.compile(self.path)
        self.kind = str(spec["kind"])
        self.count = int(spec.get("count", 1))
        self.probability = float(spec.get("probability", 1.0))
        self.seconds = float(spec.get("seconds", 0) or 0)
        self.retry_after = spec.get("retry_after")
        # Matching requests to let through before the fault fires (the nth request: skip n-1).
        self.skip = int(spec.get("skip", 0))
        # What ends a delay or a refusal instead of `seconds` (which is then only a guard):
        # delay "release": the request waits for POST /control/release, then executes;
        # delay "gone": the request executes at once and its answer waits until the client
        # has closed the connection (given up); refuse "reopen": the port stays closed
        # until POST /control/reopen.
        self.until = spec.get("until")
        if self.until is not None and (self.kind, self.until) not in UNTIL:
            raise ValueError("until %r does not apply to %s" % (self.until, self.kind))
        self.fired = 0
        self.seen = 0

    def to_json(self):
        return {"server": self.server, "method": self.method, "path": self.path,
                "kind": self.kind, "count": self.count, "probability": self.probability,
                "seconds": self.seconds, "retry_after": self.retry_after,
                "skip": self.skip, "until": self.until, "fired": self.fired,
                "seen": self.seen}


UNTIL = {("delay", "release"), ("delay", "gone"), ("refuse", "reopen")}

KINDS = {"refuse", "reset_headers", "reset_body", "delay", "hold", "403", "500", "503", "504",
         "truncated_json", "invalid_json", "wrong_ctype", "drip", "scanner_end"}

# How long a held request waits at most when nobody releases it (a guard, not a behaviour).
HOLD_GUARD = 300.0


class Faults(object):
    def __init__(self):
        self.lock = threading.Lock()
        self.faults = []
        self.requests = []
        self.rng = random.Random()
        # Requests a "hold" fault stopped wait on this gate until the control channel
        # opens it (release); each release replaces it, so later holds wait again.
        self.gate = threading.Event()
        # requests waiting at the gate now: a release counts them out at once, so that the
        # count never shows a request that was let go but whose thread has not run yet
        self.at_gate = 0
        # requests whose answer waits until the client has gone (delay "gone")
        self.waiting_gone = 0
        # requests a release let go that have not been answered yet
        self.released = 0
        # the gate that was current when this thread's request matched its fault: a release
        # that comes between the match and the wait still lets that request go
        self.local = threading.local()

    def add(self, f):
        with self.lock:
            self.faults.append(f)

    def clear(self):
        with self.lock:
            self.faults = []
        self.release()

    def release(self):
        """Lets every request held now go on (it executes and is answered)."""
        with self.lock:
            self.gate.set()
            self.gate = threading.Event()
            self.released += self.at_gate
            self.at_gate = 0

    @property
    def held(self):
        """Requests held now: at the gate, or waiting for their client to go."""
        with self.lock:
            return self.at_gate + self.waiting_gone

    @property
    def released_running(self):
        """Requests a release let go that are still running (not answered yet)."""
        with self.lock:
            return self.released

    def hold(self, seconds):
        with self.lock:
            gate = getattr(self.local, "gate", None) or self.gate
            self.local.gate = None
            if gate.is_set():
                return  # released between the match and now
            self.at_gate += 1
        gate.wait(seconds or HOLD_GUARD)
        with self.lock:
            if gate.is_set():  # a release counted it out of at_gate, into released
                self.local.let_go = True
            else:  # the guard ran out
                self.at_gate -= 1

    def answered(self):
        """This thread's request has been answered (or has failed)."""
        if getattr(self.local, "let_go", False):
            self.local.let_go = False
            with self.lock:
                self.released -= 1

    def match(self, server, method, path):
        """Return the fault that fires for this request (consuming one count)."""
        with self.lock:
            for f in self.faults:
                if f.server != server:
                    continue
                if f.method != "*" and f.method.upper() != method.upper():
                    continue
                if not f.rx.search(path):
                    continue
                if f.count == 0:
                    continue
                f.seen += 1
                if f.skip > 0:
                    f.skip -= 1
                    continue
                if f.probability < 1.0 and self.rng.random() >= f.probability:
                    continue
                if f.count > 0:
                    f.count -= 1
                f.fired += 1
                self.faults = [x for x in self.faults if x.count != 0]
                self.local.gate = self.gate
                return f
        return None

    def record(self, server, method, path, status, fault, accept=None):
        with self.lock:
            self.requests.append({"server": server, "method": method, "path": path,
                                  "status": status, "fault": fault, "accept": accept})

    def get_requests(self):
        with self.lock:
            return list(self.requests)

    def clear_requests(self):
        with self.lock:
            self.requests = []


class Response(object):
    __slots__ = ("status", "headers", "body")

    def __init__(self, status, body=b"", ctype=None, headers=None):
        self.status = status
        self.body = body if isinstance(body, bytes) else body.encode("utf-8")
        self.headers = list(headers or [])
        if ctype:
            self.headers.insert(0, ("Content-Type", ctype))

    def header(self, name):
        for k, v in self.headers:
            if k.lower() == name.lower():
                return v
        return None


# ----------------------------------------------------------------------------

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are written separately; without TCP_NODELAY the body waits for the
    # client's delayed ACK (~40 ms) on every keep-alive request.
    disable_nagle_algorithm = True
    server_kind = "rest"          # "rest" | "thrift" | "control"
    ctx = None                    # the Emulator object (set by subclass factory)
    gzip_responses = False
    extra_headers = ()

    # no Server: / Date: headers (like HBase 2.x's Jetty setup)
    def send_response(self, code, message=None):
        self.log_request(code)
        self.send_response_only(code, message)

    def log_message(self, fmt, *args):
        log("%s %s" % (self.server_kind, fmt % args))

    def handle_one_request(self):
        try:
            http.server.BaseHTTPRequestHandler.handle_one_request(self)
        except (ConnectionError, ssl.SSLError, socket.timeout, OSError, ValueError):
            self.close_connection = True
        finally:
            if self.server_kind != "control":
                self.ctx.faults.answered()

    def _read_body(self):
        te = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in te:
            chunks = []
            while True:
                line = self.rfile.readline()
                n = int(line.split(b";")[0].strip() or b"0", 16)
                if n == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                chunks.append(self.rfile.read(n))
                self.rfile.readline()
            body = b"".join(chunks)
        else:
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n > 0 else b""
        if (self.headers.get("Content-Encoding") or "").lower() == "gzip" and body:
            body = gzip.decompress(body)
        return body

    def _handle(self):
        method = self.command
        path = self.path
        try:
            body = self._read_body()
        except Exception:
            self.close_connection = True
            return
        faults = self.ctx.faults if self.server_kind != "control" else None
        fault = faults.match(self.server_kind, method, path) if faults else None
        kind = fault.kind if fault else None
        sent_accept = self.headers.get("Accept")
        if kind == "refuse":
            # A server that goes away at this request: the request is not executed, the
            # connection is reset and the port refuses connections for `seconds` (or until
            # the control channel reopens it).
            if fault.until == "reopen":
                self.ctx.runners[self.server_kind].refuse(fault.seconds or HOLD_GUARD,
                                                          until_reopen=True)
            else:
                self.ctx.runners[self.server_kind].refuse(fault.seconds or 1.0)
            faults.record(self.server_kind, method, path, 0, kind)
            self._rst()
            return
        if kind == "delay" and fault.until == "release":
            faults.hold(fault.seconds)
        elif kind == "delay" and fault.until is None:
            time.sleep(fault.seconds)
        elif kind == "hold":
            faults.hold(fault.seconds)
        if kind in ("500", "503", "504"):
            resp = self._canned_error(int(kind), fault)
        elif kind == "scanner_end":
            # a stateful scanner's GET after its region server failed: ScannerResultGenerator
            # logs the IOException and ends the scan, so the GET is a 204, as at a real end
            resp = Response(204, b"", None, [("Cache-Control", "no-cache")])
        elif kind == "403":
            # ResourceBase.processException for an AccessDeniedException anywhere in the
            # cause chain: 403, "Forbidden" and the stack trace (the request is not executed)
            resp = Response(403, ("Forbidden\r\norg.apache.hadoop.hbase.security."
                                  "AccessDeniedException: Insufficient permissions for user "
                                  "'rest' (table=%s, action=READ)\r\n"
                                  % path.split("/")[1].split("?")[0]).encode(), "text/plain")
        elif kind == "invalid_json":
            resp = Response(200, b'{"Row":[{"key":"cm93MQ==","Cell":[{"column":garbage!!',
                            "application/json")
        elif kind == "wrong_ctype":
            resp = Response(200, b"<html><head><title>Proxy</title></head><body>"
                                 b"<h1>Welcome</h1></body></html>\n", "text/html;charset=utf-8")
        else:
            if kind == "truncated_json":
                # a JSON answer cut short: asked for as JSON whatever the client accepts
                del self.headers["Accept"]
                self.headers["Accept"] = "application/json"
            try:
                resp = self.dispatch(method, path, body)
            except Exception as e:  # a bug in the emulator: report it as a 500
                import traceback
                traceback.print_exc(file=sys.stderr)
                resp = Response(500, ("emulator error: %r\r\n" % (e,)).encode(), "text/plain")
        if kind == "truncated_json":
            full = resp.body if (resp.status == 200 and resp.body) else CANNED_JSON
            resp = Response(200, full[:len(full) // 2], "application/json")
        if kind == "delay" and fault.until == "gone":
            self._wait_gone(fault.seconds or HOLD_GUARD)
        if faults is not None:
            faults.record(self.server_kind, method, path, resp.status, kind, sent_accept)
        self._write(resp, fault)

    def _wait_gone(self, guard):
        """Waits until the client has closed the connection (it sends nothing more while
        it waits for an answer, so readable means closed), or guard seconds."""
        faults = self.ctx.faults
        with faults.lock:
            faults.waiting_gone += 1
        try:
            select.select([self.connection], [], [], guard)
        except (OSError, ValueError):
            pass
        finally:
            with faults.lock:
                faults.waiting_gone -= 1
        self.close_connection = True

    def _canned_error(self, status, fault):
        words = {500: "Internal Server Error", 503: "Unavailable", 504: "Gateway Timeout"}
        hdrs = []
        if status == 503 and fault.retry_after is not None:
            hdrs.append(("Retry-After", str(fault.retry_after)))
        return Response(status, ("%s\r\n" % words[status]).encode(), "text/plain", hdrs)

    def _rst(self):
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        self.close_connection = True
        try:
            self.wfile.flush()
        except OSError:
            pass
        for f in (self.rfile, self.wfile):
            try:
                f.close()
            except OSError:
                pass
        try:
            self.connection.close()
        except OSError:
            pass

    def _write(self, resp, fault=None):
        kind = fault.kind if fault else None
        body = resp.body
        headers = list(resp.headers)
        if (self.gzip_responses and body and resp.status not in (204, 304)
                and "gzip" in (self.headers.get("Accept-Encoding") or "").lower()):
            body = gzip.compress(body, compresslevel=6)  # Jetty: Deflater.DEFAULT_COMPRESSION
            headers.append(("Content-Encoding", "gzip"))
            headers.append(("Vary", "Accept-Encoding"))
        if self.command == "HEAD":
            send_body = b""
        else:
            send_body = body
        self.send_response(resp.status)
        for k, v in headers:
            self.send_header(k, v)
        for k, v in self.extra_headers:
            self.send_header(k, v)
        if resp.status not in (204, 304) and not (100 <= resp.status < 200):
            self.send_header("Content-Length", str(len(body)))
        else:
            send_body = b""
        self.end_headers()
        if kind == "reset_headers":
            self._rst()
            return
        if kind == "reset_body":
            self.wfile.write(send_body[:len(send_body) // 2])
            self._rst()
            return
        if kind == "drip":
            try:
                for i in range(len(send_body)):
                    self.wfile.write(send_body[i:i + 1])
                    self.wfile.flush()
                    time.sleep(fault.seconds)
            except OSError:
                self.close_connection = True
            return
        if send_body:
            self.wfile.write(send_body)

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_OPTIONS = do_PATCH = _handle

    def do_TRACE(self):
        self._read_body()
        resp = Response(405, b"", None)
        if self.server_kind != "control":
            self.ctx.faults.record(self.server_kind, "TRACE", self.path, 405, None)
        self._write(resp)

    def dispatch(self, method, path, body):
        return Response(404, b"Not found\r\n", "text/plain")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, addr, handler, ssl_ctx=None):
        self.ssl_ctx = ssl_ctx
        http.server.ThreadingHTTPServer.__init__(self, addr, handler)

    def server_bind(self):
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = host
        self.server_port = port

    def finish_request(self, request, client_address):
        if self.ssl_ctx is not None:
            try:
                request.settimeout(30)
                request = self.ssl_ctx.wrap_socket(request, server_side=True)
                request.settimeout(None)
            except (ssl.SSLError, OSError):
                return
        self.RequestHandlerClass(request, client_address, self)


class Runner(object):
    """Runs one Server in a thread and can take its listening socket away for
    a while (so that clients get a real ECONNREFUSED)."""

    def __init__(self, handler, port=0, ssl_ctx=None):
        self.handler = handler
        self.ssl_ctx = ssl_ctx
        self.httpd = Server(("127.0.0.1", port), handler, ssl_ctx)
        self.port = self.httpd.server_address[1]
        self.lock = threading.Lock()
        self.thread = None
        # set while the port is closed until POST /control/reopen (refuse "until": "reopen")
        self.reopen_gate = None
        self.listening = threading.Event()
        self.listening.set()

    def reopen(self, guard=60.0):
        """Ends a refusal that waits for the control channel; returns once the port
        listens again (at once when it is not closed that way)."""
        with self.lock:
            gate = self.reopen_gate
        if gate is None:
            return
        gate.set()
        self.listening.wait(guard)

    def start(self):
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def refuse(self, seconds, until_reopen=False):
        """Close the listening socket now; reopen it on the same port after
        `seconds`, or with until_reopen when reopen() is called (seconds is then a
        guard). Runs in the background; returns at once."""
        # stop accepting synchronously, so the caller can rely on it
        done = threading.Event()
        gate = threading.Event() if until_reopen else None

        def run2():
            with self.lock:
                self.httpd.shutdown()
                self.httpd.socket.close()
                self.listening.clear()
                if gate is not None:
                    self.reopen_gate = gate
            done.set()
            if gate is not None:
                gate.wait(seconds)
            else:
                time.sleep(seconds)
            with self.lock:
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                for _ in range(200):
                    try:
                        s.bind(("127.0.0.1", self.port))
                        break
                    except OSError:
                        time.sleep(0.05)
                s.listen(128)
                self.httpd.socket = s
                if self.reopen_gate is gate:
                    self.reopen_gate = None
                self.start()
                self.listening.set()
        threading.Thread(target=run2, daemon=True).start()
        done.wait(5)
