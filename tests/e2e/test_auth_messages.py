"""Authentication and TLS failures say what to do: a login without a password, no login at
all, the wrong scheme for the port (https:// to plain HTTP, http:// to TLS), a read the
gateway forbids, and a read that needs a scanner on a read-only gateway."""
import os
import shutil
import socket
import tempfile
import threading
import unittest

import hbtest
from hbtest import EmulatorTest
from lib.tlsca import make_ca, make_server_cert

PASSWORD = "pw-0815-secret"
NO_RETRY = ("--retries", "0")


class Login(EmulatorTest):
    emulator_args = ("--basic-auth", "alice:" + PASSWORD)

    def netrc(self, text):
        """A home directory whose ~/.netrc holds text (removed after the test)."""
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.addCleanup(shutil.rmtree, home, True)
        path = os.path.join(home, ".netrc")
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o600)
        return home

    def test_auth__user_without_any_password_is_bad_input_before_any_request(self):
        # libcurl would send the name with an empty password and get a 401
        self.emu.clear_requests()
        r = self.hb("--user", "alice", "tables")
        self.assertFails(r, 2, "--user alice has no password: HBTAB_PASSWORD is not set and "
                               "there is no ~/.netrc; set HBTAB_PASSWORD, or add 'machine "
                               "127.0.0.1 login alice password ...' to ~/.netrc")
        self.assertEqual(self.emu.requests(), [])
        r = self.hb("--user", "alice", "tables",
                    home=self.netrc("machine 127.0.0.1 login bob password x\n"))
        self.assertFails(r, 2, "~/.netrc has no 'machine 127.0.0.1 login alice' entry")
        self.assertEqual(self.emu.requests(), [])

    def test_auth__an_unusable_netrc_is_passed_over_without_user_and_an_error_with_it(self):
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.addCleanup(shutil.rmtree, home, True)
        os.mkdir(os.path.join(home, ".netrc"))  # not a regular file (unreadable for root too)
        r = self.hb("tables", home=home)
        self.assertFails(r, 4, "wants a login: add --user NAME")  # no credentials were sent
        r = self.hb("--user", "alice", "tables", home=home)
        self.assertFails(r, 2, r"netrc file '.*/\.netrc' is not a regular file")

    def test_auth__netrc_entry_of_the_user_is_chosen_among_the_host_logins(self):
        home = self.netrc("machine 127.0.0.1 login bob password bobs\n"
                          "machine 127.0.0.1 login alice password %s\n" % PASSWORD)
        r = self.hb("--user", "alice", "tables", home=home)
        self.assertOk(r)
        # without --user the host's first entry logs in, as libcurl does
        r = self.hb("tables", home=self.netrc("machine 127.0.0.1 login alice password %s\n"
                                              % PASSWORD))
        self.assertOk(r)

    def test_auth__refused_netrc_password_says_it_came_from_netrc(self):
        r = self.hb("--user", "alice", "tables",
                    home=self.netrc("machine 127.0.0.1 login alice password wrong\n"))
        self.assertFails(r, 4, "refused user 'alice' with the password from ~/.netrc")

    def test_auth__no_login_at_all_says_to_give_user(self):
        r = self.hb("tables")
        self.assertFails(r, 4, "HTTP 401")
        self.assertIn("wants a login: add --user NAME, with the password in HBTAB_PASSWORD "
                      "or ~/.netrc", r.err)

    def test_auth__refused_password_says_where_it_came_from(self):
        r = self.hb("--user", "alice", "tables", env={"HBTAB_PASSWORD": "wrong-" + PASSWORD})
        self.assertFails(r, 4, "refused user 'alice' with the password from HBTAB_PASSWORD")
        self.assertNotIn(PASSWORD, r.err)


class ForbiddenRead(EmulatorTest):
    def test_auth__forbidden_read_names_the_user_and_permission_hbase_refused(self):
        # the gateway's 403 carries HBase's AccessDeniedException: the user HBase saw (the
        # gateway's own, not the login a proxy took) and the permission it wanted
        self.emu.create("t1", [b"m"])
        self.emu.fault(server="rest", method="GET", path="^/t1/regions", kind="403", count=-1)
        r = self.hb("--user", "alice", "regions", "t1", "--source", "rest",
                    env={"HBTAB_PASSWORD": "x"})
        self.assertFails(r, 4, r"GET /t1/regions: HTTP 403: permission denied: HBase refused "
                               r"user 'rest' the READ permission")
        self.assertNotIn("refuses writes", r.err)
        self.assertNotIn("Kerberos", r.err)


class ReadOnlyGateway(EmulatorTest):
    emulator_args = ("--read-only",)

    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"m"])

    def test_read_only__plain_reads_work(self):
        self.assertOk(self.hb("regions", "t1"))
        self.assertOk(self.hb("audit", "t1", "--keyspace", "print{1,4}"))

    def test_read_only__sampling_says_to_use_a_sample_file(self):
        r = self.hb("splits", "--sampled-splits", "4", "--sample-table", "t1")
        self.assertFails(r, 4, "HTTP 403")
        self.assertIn("read-only (hbase.rest.readonly)", r.err)
        self.assertIn("sample the keys elsewhere and give --sample-file", r.err)


class WrongScheme(EmulatorTest):
    """A plain emulator and a TLS one: each URL has the other's scheme."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.pki = tempfile.mkdtemp(prefix="hbtab-pki-")
        make_ca(cls.pki, "ca")
        make_server_cert(cls.pki, "ca")
        cls.tls = hbtest.Emulator(1, ("--tls-cert", os.path.join(cls.pki, "server.pem"),
                                      "--tls-key", os.path.join(cls.pki, "server.key")))

    @classmethod
    def tearDownClass(cls):
        cls.tls.stop()
        shutil.rmtree(cls.pki, ignore_errors=True)
        super().tearDownClass()

    def test_tls__https_to_a_plain_port_says_use_http(self):
        url = self.emu.rest.replace("http://", "https://")
        r = hbtest.run(["--rest", url, "--no-progress", *NO_RETRY, "tables"])
        self.assertFails(r, 3, "does not speak TLS on this port: use an http:// URL")

    def test_tls__http_to_a_tls_port_says_use_https(self):
        url = self.tls.rest.replace("https://", "http://")
        r = hbtest.run(["--rest", url, "--no-progress", *NO_RETRY, "tables"])
        self.assertFails(r, 3, r"if the server speaks TLS on this port, use an https:// URL")

    def test_tls__thrift_http_to_a_tls_port_says_use_https(self):
        thrift = self.tls.thrift.replace("https://", "http://")
        r = hbtest.run(["--rest", self.tls.rest, "--insecure", "--thrift", thrift,
                        "--no-progress", *NO_RETRY, "create", "t9", "--hex-splits", "2",
                        "--via", "thrift2"])
        self.assertFails(r, 3, r"thrift2 .*use an https:// URL")
        self.assertNotIn("t9", str(self.tls.state()))


# Jetty 9.4's answers to the wrong scheme (docs/hbase-wire.md, section 7), byte for byte.
JETTY_400_BODY = b"<h1>Bad Message 400</h1><pre>reason: Illegal character CNTL=0x16</pre>"
JETTY_PLAIN_PORT_TO_TLS = (b"HTTP/1.1 400 Illegal character CNTL=0x16\r\n"
                           b"Content-Type: text/html;charset=iso-8859-1\r\n"
                           b"Content-Length: %d\r\n"
                           b"Connection: close\r\n\r\n" % len(JETTY_400_BODY)) + JETTY_400_BODY
JETTY_TLS_PORT_TO_PLAIN = b"\x15\x03\x03\x00\x02\x02\x0a"  # one fatal TLS alert record


class JettyWrongScheme(unittest.TestCase):
    """A server that answers each connection with fixed bytes, as Jetty answers a client
    that speaks the other scheme."""

    def serve(self, answer):
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(8)
        self.addCleanup(srv.close)

        def loop():
            while True:
                try:
                    conn, _ = srv.accept()
                except OSError:
                    return
                with conn:
                    conn.recv(65536)  # the ClientHello or the request, whatever it is
                    conn.sendall(answer)

        threading.Thread(target=loop, daemon=True).start()
        return srv.getsockname()[1]

    def test_tls__https_to_jettys_plain_port_says_use_http(self):
        port = self.serve(JETTY_PLAIN_PORT_TO_TLS)
        r = hbtest.run(["--rest", "https://127.0.0.1:%d" % port, "--no-progress", *NO_RETRY,
                        "tables"])
        self.assertEqual(r.rc, 3, r)
        self.assertIn("does not speak TLS on this port: use an http:// URL", r.err)

    def test_tls__http_to_jettys_tls_port_says_use_https(self):
        port = self.serve(JETTY_TLS_PORT_TO_PLAIN)
        r = hbtest.run(["--rest", "http://127.0.0.1:%d" % port, "--no-progress", *NO_RETRY,
                        "tables"])
        self.assertEqual(r.rc, 3, r)
        self.assertIn("if the server speaks TLS on this port, use an https:// URL", r.err)


if __name__ == "__main__":
    hbtest.main()
