"""End-to-end: what an unattended (cron) run relies on: exit codes that say what went wrong,
clean-up on every way out, no waiting on what is already known, and odd input refused."""
import os
import shutil
import tempfile

import hbtest
from hbtest import EmulatorTest, OfflineTest
from test_rest_tls_auth import make_ca, make_server_cert, openssl


class ExitCodes(OfflineTest):
    """Item: consistent exit codes and refusal of odd input (-V, --tz '', --now year)."""

    def test_version_after_the_command_word_prints_the_version(self):
        for args in (["splits", "-V"], ["rotate", "--version"], ["status", "-V"]):
            r = self.hb(*args)
            self.assertOk(r)
            self.assertRegex(r.out, r"^hbtab \d+\.\d+\.\d+\n$", args)

    def test_empty_tz_is_bad_input(self):
        r = self.hb("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "2", "--tz", "",
                    "--now", "2026-11-01", "--dry-run", "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"empty --tz")

    def test_now_whose_tables_ahead_reach_a_five_digit_year_is_bad_input(self):
        r = self.hb("rotate", "--template", "ev_%Y%m%d", "--hex-splits", "2",
                    "--now", "9999-12-31T23:59Z", "--ahead", "2", "--dry-run",
                    "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"year 10000")
        r = self.hb("rotate", "--template", "ev_%Y%m%d%H", "--period", "hour", "--hex-splits",
                    "2", "--now", "9999-12-31T23:30Z", "--ahead", "1", "--dry-run",
                    "--rest", "http://127.0.0.1:9")
        self.assertFails(r, 2, r"year 10000")


class BadLocalTlsMaterial(EmulatorTest):
    """Item: garbage --cacert, or --cert/--key that do not match, is bad input (2), not
    a network failure (3); a wrong CA stays 3."""

    @classmethod
    def setUpClass(cls):
        cls.pki = tempfile.mkdtemp(prefix="hbtab-pki-")
        make_ca(cls.pki, "ca")
        make_ca(cls.pki, "client")
        make_server_cert(cls.pki, "ca")
        openssl("genrsa", "-out", "other.key", "2048", cwd=cls.pki)
        with open(os.path.join(cls.pki, "garbage.pem"), "w") as f:
            f.write("this is not a certificate\n")
        cls.emulator_args = ("--tls-cert", os.path.join(cls.pki, "server.pem"),
                             "--tls-key", os.path.join(cls.pki, "server.key"))
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        shutil.rmtree(cls.pki, ignore_errors=True)

    def pki_file(self, name):
        return os.path.join(self.pki, name)

    def test_garbage_cacert_is_exit_2(self):
        r = self.hb("--cacert", self.pki_file("garbage.pem"), "tables")
        self.assertFails(r, 2, r"--cacert")

    def test_cert_and_key_that_do_not_match_are_exit_2(self):
        r = self.hb("--cacert", self.pki_file("ca.pem"), "--cert", self.pki_file("client.pem"),
                    "--key", self.pki_file("other.key"), "tables")
        self.assertFails(r, 2, r"--key")

    def test_garbage_client_certificate_is_exit_2(self):
        r = self.hb("--cacert", self.pki_file("ca.pem"), "--cert", self.pki_file("garbage.pem"),
                    "--key", self.pki_file("client.key"), "tables")
        self.assertFails(r, 2, r"--cert")

    def test_a_certificate_signed_by_another_ca_stays_a_network_failure(self):
        r = self.hb("--retries", "0", "--cacert", self.pki_file("client.pem"), "tables")
        self.assertFails(r, 3, r"certificate")


class MessagesNameWhatWasAsked(EmulatorTest):
    """Item: errors name the whole URL path (with --rest's prefix), and a Thrift reply that
    is an HTML page is named by its content type, as REST's are."""

    def test_a_404_under_a_rest_url_prefix_names_the_prefixed_path(self):
        r = hbtest.run(["--rest", self.emu.rest + "/gw/hbase", "--no-progress", "tables"])
        self.assertFails(r, 4, r"GET /gw/hbase/: HTTP 404")

    def test_an_html_page_from_thrift_names_its_content_type(self):
        self.emu.fault(server="thrift", method="*", path="", kind="wrong_ctype", count=-1)
        r = self.hb("create", "t", "--hex-splits", "4", "--via", "thrift2")
        self.assertFails(r, 4, r"thrift2 createTable: unexpected content type 'text/html")
        self.assertNotIn("protocol version", r.err)


if __name__ == "__main__":
    hbtest.main()
