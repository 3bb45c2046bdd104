"""Loopback HTTP servers a test scripts itself, for what neither the emulator nor real HBase
will do on request: hostile documents, a scanner that never ends, a recorder in front of a
server. Each runs in a thread of the test process:

    gw = fakehttp.Server(Handler)   # listens on a free port: gw.url, gw.port
    ...
    gw.stop()

or `with fakehttp.Server(Handler) as gw:`."""
import http.server
import json
import socketserver
import threading

from hbtest import b64


class ThreadedServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


class Server:
    """handler (a BaseHTTPRequestHandler class) served on 127.0.0.1 at a free port."""

    def __init__(self, handler):
        self.server = ThreadedServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def route_handler():
    """A handler class of its own answering from its routes: {path (no query): (status,
    content type, body bytes or str, or a callable returning them)}; 404 elsewhere. Request
    bodies are read and dropped."""

    class Routes(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        routes = {}

        def log_message(self, *a):
            pass

        def answer(self):
            n = int(self.headers.get("Content-Length") or 0)
            if n:
                self.rfile.read(n)
            path = self.path.split("?")[0]
            st, ctype, body = self.routes.get(path, (404, "text/plain", b"not found"))
            if callable(body):
                body = body()
            if isinstance(body, str):
                body = body.encode()
            self.send_response(st)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_DELETE = answer

    return Routes


class EndlessScanner(http.server.BaseHTTPRequestHandler):
    """A gateway whose scanner on table t never ends: every GET of /t/scanner/s1 returns the
    same row, never a 204; seen lists each request as "METHOD path"."""
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
            cell = {"column": b64(b"cf:a"), "timestamp": 1, "$": b64(b"x")}
            st, body = 200, json.dumps({"Row": [{"key": b64(b"row1"),
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
