"""End-to-end: Kerberos SPNEGO against a real MIT KDC.

A temporary realm (lib/krbrealm.py) runs krb5kdc on a loopback port, with everything under one
temporary directory. The emulator's REST gateway requires SPNEGO for the service principal
HTTP/localhost and hands out the hadoop.auth cookie as hadoop-auth's AuthenticationFilter
does (tests/emulator/hbemu/spnego.py). hbtab --negotiate uses the user's ticket cache.

Nothing here is skipped: if the KDC cannot be set up, every test fails.
"""
import os
import shutil
import tempfile
import time

import hbtest
from hbtest import Emulator, run
from lib import krbrealm, metalisting
from lib.tlsca import make_ca, make_server_cert

USER, USER_PW = "alice", "alice-pw-1"


class Realm:
    """One realm for the whole module: principals, keytabs and the user's ticket cache."""
    realm = None

    @classmethod
    def get(cls):
        if cls.realm is None:
            r = krbrealm.Realm()
            try:
                r.add_service("HTTP/localhost", r.path("http.keytab"))
                r.add_service("HTTP/elsewhere", r.path("elsewhere.keytab"))
                r.add_user(USER, USER_PW)
                r.kinit(USER, USER_PW, r.path("cc-alice"))
            except Exception:
                r.stop()
                raise
            cls.realm = r
        return cls.realm


def tearDownModule():
    if Realm.realm is not None:
        Realm.realm.stop()
        Realm.realm = None


class KerberosTest(hbtest.OfflineTest):
    keytab = "http.keytab"
    tls = False

    @classmethod
    def setUpClass(cls):
        cls.krb = Realm.get()
        args = ["--spnego-keytab", cls.krb.path(cls.keytab)]
        cls.pki = None
        if cls.tls:
            cls.pki = tempfile.mkdtemp(prefix="hbtab-pki-")
            make_ca(cls.pki, "ca")
            make_server_cert(cls.pki, "ca")
            args += ["--tls-cert", os.path.join(cls.pki, "server.pem"),
                     "--tls-key", os.path.join(cls.pki, "server.key")]
        # The acceptor reads its key from the keytab named on the command line; the realm's
        # krb5.conf tells it the realm and the (tight) clock skew.
        cls.emu = Emulator(3, args, env=cls.krb.env)

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()
        if cls.pki:
            shutil.rmtree(cls.pki, ignore_errors=True)

    def setUp(self):
        self.emu.clear_faults()
        self.emu.reset()
        self.emu.clear_requests()
        self.emu.control("POST", "/control/spnego", {"validity": 36000, "cookie_path": "/"})
        self.emu.control("DELETE", "/control/spnego")
        self.emu.create("t1", [b"g", b"p"])

    def url(self, host="localhost"):
        scheme = "https" if self.tls else "http"
        return "%s://%s:%d" % (scheme, host, self.emu.ports["rest"])

    def hb(self, *args, ccache=None, host="localhost", extra=()):
        cc = ccache or self.krb.path("cc-alice")
        base = ["--rest", self.url(host), "--negotiate", "--no-progress", "--retries", "0"]
        if self.tls:
            base += ["--cacert", os.path.join(self.pki, "ca.pem")]
        return run(base + list(extra) + list(args), env=self.krb.client_env(cc))

    def spnego(self):
        st, body = self.emu.control("GET", "/control/spnego")
        self.assertEqual(st, 200, body)
        return body

    def rest_requests(self):
        return [r for r in self.emu.requests() if r["server"] == "rest"]


class Negotiate(KerberosTest):
    def test_negotiate__ticket_cache_authenticates_the_user(self):
        r = self.hb("tables")
        self.assertOk(r)
        self.assertIn("t1", r.out.split())
        s = self.spnego()
        self.assertEqual(s["users"], ["alice@HBTAB.TEST"])
        self.assertEqual(s["established"], 1)
        self.assertEqual(s["failures"], 0)

    def test_negotiate__once_per_run_the_cookie_carries_the_rest(self):
        # audit reads the schema, the regions and the metadata row: several requests in
        # several path directories (/t1/..., /version/...), one SPNEGO exchange.
        r = self.hb("audit", "t1")
        self.assertOk(r)
        self.assertNotIn("401", r.err)
        reqs = self.rest_requests()
        ok = [q for q in reqs if q["status"] != 401]
        self.assertGreaterEqual(len(ok), 3, reqs)
        s = self.spnego()
        self.assertEqual(s["negotiate_headers"], 1, s)
        self.assertEqual(s["negotiations"], 1, s)
        self.assertEqual(s["cookies_issued"], 1, s)
        # every request after the negotiated one was let in by the cookie alone
        self.assertEqual(s["cookies_accepted"], len(ok) - 1, (s, reqs))
        # one challenge: the very first request, sent without credentials
        self.assertEqual(s["challenges"], 1, s)
        self.assertEqual(reqs[0]["status"], 401, reqs)

    def test_negotiate__cookie_path_is_root_as_hbase_sets_it(self):
        r = self.hb("status", extra=("-v",))
        self.assertOk(r)
        self.assertRegex(r.err, r"Added cookie <redacted>")
        self.assertEqual(self.spnego()["cookie_path"], "/")
        self.assertEqual(self.spnego()["negotiations"], 1)

    def test_negotiate__cookie_without_path_is_sent_to_other_paths_of_the_server(self):
        # A Hadoop filter without cookie.path sends no Path attribute. status asks
        # /version/cluster and /status/cluster: the cookie set for the first still reaches
        # the second, as Hadoop's own client sends it.
        self.emu.control("POST", "/control/spnego", {"cookie_path": None})
        r = self.hb("status")
        self.assertOk(r)
        paths = {q["path"].split("?")[0].rsplit("/", 1)[0] for q in self.rest_requests()}
        self.assertGreaterEqual(len(paths), 2, paths)
        s = self.spnego()
        self.assertEqual(s["negotiate_headers"], 1, s)
        self.assertEqual(s["negotiations"], 1, s)

    def test_negotiate__expired_cookie_negotiates_again_and_succeeds(self):
        # The server's token validity is 0 s: every cookie is stale by the next request,
        # so each request is challenged and negotiated anew; the run still succeeds.
        self.emu.control("POST", "/control/spnego", {"validity": 0})
        r = self.hb("regions", "t1")
        self.assertOk(r)
        self.assertEqual(len(r.out.strip().splitlines()), 3, r)
        s = self.spnego()
        self.assertGreaterEqual(s["cookies_rejected"], 1, s)
        self.assertEqual(s["failures"], 0, s)
        self.assertEqual(s["established"], s["negotiations"], s)

    def test_negotiate__without_ticket_fails_with_exit_4(self):
        empty = self.krb.path("cc-nobody")
        r = self.hb("tables", ccache=empty)
        self.assertFails(r, 4, r"HTTP 401: Kerberos SPNEGO failed: .*(No credentials|not found)")
        self.assertIn("klist", r.err)
        self.assertEqual(r.out, "")
        self.assertEqual(self.spnego()["established"], 0)

    def test_negotiate__expired_ticket_fails_with_exit_4(self):
        cc = self.krb.path("cc-short")
        self.krb.kinit(USER, USER_PW, cc, lifetime="2s")
        # Wait until the ticket has expired (klist -s says so) and the realm's 1 s clock
        # skew has passed as well; the bound is only a guard against a hang.
        deadline = time.monotonic() + 120
        while self.krb.klist_valid(cc):
            self.assertLess(time.monotonic(), deadline, "the 2 s ticket never expired")
            time.sleep(0.2)
        time.sleep(1.5)
        r = self.hb("tables", ccache=cc)
        self.assertFails(r, 4, r"HTTP 401: Kerberos SPNEGO failed: .*[Ee]xpired")
        self.assertEqual(self.spnego()["established"], 0)

    def test_negotiate__unknown_service_principal_fails_with_exit_4(self):
        # By address, the service principal hbtab asks for is HTTP/127.0.0.1: not in the KDC.
        r = self.hb("tables", host="127.0.0.1")
        self.assertFails(r, 4, r"Kerberos SPNEGO failed: .*HTTP/127\.0\.0\.1@HBTAB\.TEST "
                               r"not found in Kerberos database")
        self.assertEqual(self.spnego()["established"], 0)

    def test_negotiate__without_flag_is_refused_401_exit_4(self):
        r = run(["--rest", self.url(), "--no-progress", "--retries", "0", "tables"],
                env=self.krb.client_env(self.krb.path("cc-alice")))
        self.assertFails(r, 4, "HTTP 401")
        self.assertEqual(self.spnego()["negotiate_headers"], 0)

    def test_negotiate__trace_redacts_token_and_cookie(self):
        r = self.hb("tables", extra=("-v",))
        self.assertOk(r)
        self.assertIn("Authorization: <redacted>", r.err)
        self.assertIn("Cookie: <redacted>", r.err)
        self.assertNotIn("u=alice", r.err)
        self.assertNotRegex(r.err, r"Authorization: Negotiate [A-Za-z0-9+/]")


class WrongServerKey(KerberosTest):
    """The server holds the key of HTTP/elsewhere only: it cannot read hbtab's ticket for
    HTTP/localhost, so the GSS accept fails and the filter answers 403."""
    keytab = "elsewhere.keytab"

    def test_negotiate__server_with_other_principal_refuses_403_exit_4(self):
        r = self.hb("tables")
        self.assertFails(r, 4, r"HTTP 403: the server rejected the Kerberos ticket")
        s = self.spnego()
        self.assertEqual(s["failures"], 1, s)
        self.assertEqual(s["established"], 0, s)


class TlsNegotiate(KerberosTest):
    tls = True

    def test_negotiate__over_tls_once_per_run(self):
        r = self.hb("audit", "t1")
        self.assertOk(r)
        self.assertNotIn("401", r.err)
        s = self.spnego()
        self.assertEqual(s["users"], ["alice@HBTAB.TEST"])
        self.assertEqual(s["negotiations"], 1, s)
        self.assertEqual(s["negotiate_headers"], 1, s)
        self.assertGreaterEqual(s["cookies_accepted"], 2, s)

    def test_negotiate__over_tls_checks_the_certificate_first(self):
        r = run(["--rest", self.url(), "--negotiate", "--no-progress", "--retries", "0",
                 "tables"], env=self.krb.client_env(self.krb.path("cc-alice")))
        self.assertFails(r, 3, "certificate")
        self.assertEqual(self.spnego()["negotiate_headers"], 0)


class NegotiateMetaRanges(KerberosTest):
    """A large table's meta listing read in ranges (docs/hbase-wire.md §6.6): the sample and
    the ranges go out on connections of their own, and each new connection negotiates for
    itself (the cookie lives with its connection). A range whose fetch fails is read again
    on the first connection, which holds a cookie, with the same output: the request log
    and the filter's counts are what show that every connection negotiated."""
    splits = None

    @classmethod
    def setUpClass(cls):
        cls.splits = metalisting.hex_splits()
        super().setUpClass()

    def test_negotiate__meta_ranges_each_negotiate_on_their_own_connection(self):
        table = metalisting.TABLE
        self.emu.create(table, self.splits)
        self.emu.clear_requests()
        self.emu.control("DELETE", "/control/spnego")
        r = self.hb("-o", "json", "regions", table, "--source", "meta")
        self.assertOk(r)
        self.assertNotIn("401", r.err)
        regions = r.json()["regions"]
        self.assertEqual([x["start"].encode() for x in regions], [b""] + self.splits)
        log = self.rest_requests()
        self.assertEqual([q for q in log if q["fault"] is not None
                          or q["status"] not in (200, 401)], [], log)
        # A challenge is the first request of a connection without a cookie; each was then
        # negotiated: a connection that could not (no --negotiate, no ticket) would have
        # taken the 401 as its answer, a challenge not followed by an established context.
        s = self.spnego()
        challenged = [q for q in log if q["status"] == 401]
        self.assertEqual(s["failures"], 0, s)
        self.assertEqual(s["challenges"], len(challenged), (s, log))
        self.assertEqual(s["established"], s["challenges"], s)
        self.assertEqual(s["users"], ["alice@HBTAB.TEST"] * s["established"], s)

        def answers(path):
            return [q["status"] for q in log if q["path"] == path]

        # the first connection and the sample's: challenged, negotiated, answered
        listing = {q["path"] for q in metalisting.meta_scans(log)
                   if metalisting.startrow(q["path"]) == table}
        self.assertEqual([answers(p) for p in listing], [[401, 200]], log)
        samples = {q["path"] for q in metalisting.samples(log)}
        self.assertEqual([answers(p) for p in samples], [[401, 200]], log)
        # The first range is read on the sample's connection (its cookie already there);
        # each range after it on a new connection that negotiates. Every range is answered
        # exactly once: none was read again on the first connection.
        ranges = metalisting.ranges(log)
        starts = sorted({metalisting.startrow(q["path"]) for q in ranges})
        self.assertGreaterEqual(len(starts), 1, log)
        got = [[q["status"] for q in ranges if metalisting.startrow(q["path"]) == st]
               for st in starts]
        self.assertEqual(got, [[200]] + [[401, 200]] * (len(starts) - 1), log)
        # one negotiation per connection: the first, the sample's, each range's after the
        # first
        self.assertEqual(s["established"], 2 + len(starts) - 1, s)


class TlsNegotiateMetaRanges(NegotiateMetaRanges):
    tls = True


if __name__ == "__main__":
    hbtest.main()
