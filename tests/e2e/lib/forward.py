"""A forwarding proxy for tests against a real server (the REST gateway, the Thrift2 server):
every request passed on as it came, except where the test's rules say otherwise. Shared by
the tests that land a fault at a given request (real_fault_matrix.py,
test_backend_truncate_metadata.py)."""
import http.client
import http.server
import re
import select
import threading
import urllib.parse


class ForwardingProxy:
    """Listens on a free loopback port (url). Each request is recorded in seen as (method,
    path, act) and in bodies as (method, path, body), first shown to on_request(method, path, body) when given (which may start a
    fault on the server before the request reaches it), then handled by the first rule that
    matches it (fault()): an int answers that status itself, a callable runs first and the
    request goes on, "late" forwards it and holds the server's answer until the client has
    given up and closed the connection. A request the server drops (it went away under it)
    drops the client's connection too. on_answered(method, path, headers), when given, is
    called once a request's whole answer has been passed to the client (headers: the
    server's, a dict)."""

    def __init__(self, target, on_request=None, on_answered=None):
        self.target = target  # a callable: the server's URL now ("http://host:port")
        self.on_request = on_request
        self.on_answered = on_answered
        self.rules = []  # [method, path regex, count (-1 always), act, body substring]
        self.seen = []
        self.bodies = []  # (method, path, request body), as seen
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def drop(self):
                self.close_connection = True
                try:
                    self.connection.shutdown(2)
                except OSError:
                    pass

            def handle_one(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n) if n else b""
                if proxy.on_request is not None:
                    proxy.on_request(self.command, self.path, body)
                act = proxy.take(self.command, self.path, body)
                with proxy.lock:
                    proxy.seen.append((self.command, self.path, act))
                    proxy.bodies.append((self.command, self.path, body))
                if isinstance(act, int):
                    text = b"Internal Server Error\r\n"
                    self.send_response(act)
                    self.send_header("Content-Type", "text/plain")
                    self.send_header("Content-Length", str(len(text)))
                    self.end_headers()
                    self.wfile.write(text)
                    return
                if callable(act):
                    act()
                u = urllib.parse.urlsplit(proxy.target())
                hdrs = {k: v for k, v in self.headers.items()
                        if k.lower() not in ("host", "connection", "content-length")}
                try:
                    c = http.client.HTTPConnection(u.hostname, u.port, timeout=300)
                    c.request(self.command, self.path, body=body or None, headers=hdrs)
                    r = c.getresponse()
                    data = r.read()
                except (OSError, http.client.HTTPException):
                    self.drop()  # the server went away under the request: so does the answer
                    return
                if act == "late":
                    # the client sends nothing more while it waits: readable means closed
                    select.select([self.connection], [], [], 300)
                    self.close_connection = True
                    c.close()
                    return
                self.send_response(r.status, r.reason)
                for k, v in r.getheaders():
                    if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()
                c.close()
                if proxy.on_answered is not None:
                    proxy.on_answered(self.command, self.path, dict(r.getheaders()))

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_one

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def fault(self, method, path, act, count=1, body=b""):
        """The next count requests (-1: every one) of method whose path matches the regex
        path and whose body holds body are handled by act."""
        with self.lock:
            self.rules.append([method, re.compile(path), count, act, body])

    def take(self, method, path, body):
        with self.lock:
            for f in self.rules:
                if f[0] == method and f[1].search(path) and f[2] != 0 and f[4] in body:
                    f[2] -= 1 if f[2] > 0 else 0
                    return f[3]
        return None

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
