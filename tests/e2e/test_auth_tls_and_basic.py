"""End-to-end: TLS verification (CA made at test time with openssl), basic auth, and secrets
kept out of argv, -v traces and error messages."""
import base64
import os
import shutil
import subprocess
import tempfile

import hbtest
from hbtest import EmulatorTest, run
from lib import metalisting
from lib.tlsca import make_ca, make_server_cert

PASSWORD = "s3cr3t-Pw-4711"


def home_with_netrc():
    """A new home directory whose ~/.netrc (mode 600) gives alice's password for 127.0.0.1;
    the caller removes it."""
    home = tempfile.mkdtemp(prefix="hbtab-home-")
    netrc = os.path.join(home, ".netrc")
    with open(netrc, "w") as f:
        f.write("machine 127.0.0.1 login alice password %s\n" % PASSWORD)
    os.chmod(netrc, 0o600)
    return home


class TlsEmulatorTest(EmulatorTest):
    """An emulator serving TLS with a certificate of the CA "ca" in cls.pki (and a CA
    "otherca" that signed nothing); extra_args go to the emulator too."""
    extra_args = ()

    @classmethod
    def setUpClass(cls):
        cls.pki = tempfile.mkdtemp(prefix="hbtab-pki-")
        make_ca(cls.pki, "ca")
        make_ca(cls.pki, "otherca")
        make_server_cert(cls.pki, "ca")
        cls.emulator_args = ("--tls-cert", os.path.join(cls.pki, "server.pem"),
                             "--tls-key", os.path.join(cls.pki, "server.key")) + cls.extra_args
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.pki, ignore_errors=True)


class Tls(TlsEmulatorTest):

    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"m"])
        self.assertTrue(self.emu.rest.startswith("https://"))

    def test_tls__unknown_ca_fails_with_exit_3(self):
        r = self.hb("--retries", "0", "tables")
        self.assertFails(r, 3, "certificate")

    def test_tls__wrong_ca_fails_with_exit_3(self):
        r = self.hb("--retries", "0", "--cacert", os.path.join(self.pki, "otherca.pem"), "tables")
        self.assertFails(r, 3, "certificate")

    def test_tls__right_ca_passes(self):
        r = self.hb("--cacert", os.path.join(self.pki, "ca.pem"), "-o", "json", "regions", "t1",
                    "--source", "meta")
        self.assertOk(r)
        self.assertEqual(len(r.json()["regions"]), 2)

    def test_tls__insecure_passes(self):
        r = self.hb("--insecure", "tables")
        self.assertOk(r)
        self.assertEqual(r.out, "t1\n")


class BasicAuth(EmulatorTest):
    emulator_args = ("--basic-auth", "alice:" + PASSWORD)

    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"m"])

    def assertNoSecret(self, r):
        token = base64.b64encode(("alice:" + PASSWORD).encode()).decode()
        for text in (r.out, r.err):
            self.assertNotIn(PASSWORD, text)
            self.assertNotIn(token, text)

    def test_auth__password_from_environment(self):
        r = self.hb("--user", "alice", "tables", env={"HBTAB_PASSWORD": PASSWORD})
        self.assertOk(r)
        self.assertEqual(r.out, "t1\n")

    def test_auth__wrong_password_is_exit_4_without_echoing_it(self):
        r = self.hb("--user", "alice", "tables", env={"HBTAB_PASSWORD": "nope-" + PASSWORD})
        self.assertFails(r, 4, "HTTP 401")
        self.assertNoSecret(r)

    def test_auth__password_from_netrc(self):
        home = home_with_netrc()
        try:
            r = run(["--rest", self.emu.rest, "--user", "alice", "--no-progress", "tables"],
                    home=home)
            self.assertOk(r)
            self.assertEqual(r.out, "t1\n")
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def test_auth__verbose_trace_redacts_authorization(self):
        r = self.hb("-v", "--user", "alice", "-o", "json", "regions", "t1", "--source", "meta",
                    env={"HBTAB_PASSWORD": PASSWORD})
        self.assertOk(r)
        self.assertIn("Authorization: <redacted>", r.err)
        self.assertIn("> GET /hbase%3Ameta/*?startrow=t1&", r.err)
        self.assertNoSecret(r)

    def test_auth__password_not_in_argv_of_running_process(self):
        # the request is held while the process is looked at: it is running, past its start
        self.emu.fault(kind="delay", path="^/$", until="release", count=1)
        env = hbtest.clean_env(tempfile.gettempdir(), {"HBTAB_PASSWORD": PASSWORD})
        p = subprocess.Popen([hbtest.HBTAB, "--rest", self.emu.rest, "--user", "alice", "tables"],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            hbtest.wait_for(lambda: self.emu.control("GET", "/control/held")[1]["held"] == 1
                            or p.poll() is not None, "the held request")
            self.assertIsNone(p.poll())
            with open("/proc/%d/cmdline" % p.pid, "rb") as f:
                argv = f.read()
            self.assertIn(b"alice", argv)
            self.assertNotIn(PASSWORD.encode(), argv)
            ps = subprocess.run(["ps", "-ww", "-o", "args=", "-p", str(p.pid)],
                                capture_output=True, text=True)
            if ps.returncode == 0:
                self.assertNotIn(PASSWORD, ps.stdout)
        finally:
            self.emu.control("POST", "/control/release")
            out, err = p.communicate(timeout=30)
        self.assertEqual(p.returncode, 0, err)
        self.assertNotIn(PASSWORD.encode(), out + err)


class TlsBasicAuthMetaRanges(TlsEmulatorTest):
    """A large table's meta listing read in ranges (docs/hbase-wire.md §6.6) from a gateway
    that takes https only, from a client with basic auth: the sample and the ranges go out
    on connections of their own, which must carry the CA file and the credentials. A range
    whose fetch fails is read again on the first connection with the same output, so the
    request log's statuses are what shows that they did."""
    extra_args = ("--basic-auth", "alice:" + PASSWORD)

    @classmethod
    def setUpClass(cls):
        cls.splits = metalisting.hex_splits()
        super().setUpClass()

    def setUp(self):
        super().setUp()
        self.assertTrue(self.emu.rest.startswith("https://"))
        self.emu.create(metalisting.TABLE, self.splits)
        self.emu.clear_requests()

    def test_auth__meta_ranges_carry_the_credentials_and_ca_to_their_own_connections(self):
        home = home_with_netrc()
        try:
            for source, kw in (("HBTAB_PASSWORD", {"env": {"HBTAB_PASSWORD": PASSWORD}}),
                               ("~/.netrc", {"home": home})):
                with self.subTest(password=source):
                    self.emu.clear_requests()
                    r = run(["--rest", self.emu.rest, "--no-progress", "--retries", "0",
                             "--cacert", os.path.join(self.pki, "ca.pem"), "--user", "alice",
                             "-o", "json", "regions", metalisting.TABLE, "--source",
                             "meta"], **kw)
                    self.assertOk(r)
                    self.assertNotIn(PASSWORD, r.out + r.err)
                    regions = r.json()["regions"]
                    self.assertEqual([x["start"].encode() for x in regions],
                                     [b""] + self.splits)
                    log = self.emu.requests()
                    # every request, on every connection, let in at once: no 401 anywhere
                    self.assertEqual([q for q in log if (q["status"], q["fault"]) != (200, None)],
                                     [], log)
                    samples = metalisting.samples(log)
                    self.assertEqual([q["status"] for q in samples], [200], samples)
                    ranges = metalisting.ranges(log)
                    self.assertGreaterEqual(len(ranges), 1, log)
                    # each range asked for once: none had to be read again
                    starts = [metalisting.startrow(q["path"]) for q in ranges]
                    self.assertEqual(len(set(starts)), len(starts), starts)
        finally:
            shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    hbtest.main()
