"""Local TLS material an operator names that cannot be used (a garbage --cacert, a --cert
and --key that do not match) is bad input (exit 2), not a network failure (3); a CA that
did not sign the server's certificate stays a network failure."""
import os
import shutil
import tempfile

import hbtest
from hbtest import EmulatorTest
from lib.tlsca import make_ca, make_server_cert, openssl


class BadLocalTlsMaterial(EmulatorTest):
    """Garbage --cacert, or --cert/--key that do not match, is bad input (2), not
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


if __name__ == "__main__":
    hbtest.main()
