"""Server URLs are read with libcurl's URL API: the scheme in any case, as libcurl takes it;
credentials, other schemes and malformed URLs are bad input (exit 2) before any request."""
import hbtest
from hbtest import EmulatorTest, OfflineTest


def upper_scheme(url):
    scheme, rest = url.split("://", 1)
    return scheme.upper() + "://" + rest


class UrlsAgainstTheEmulator(EmulatorTest):
    def setUp(self):
        super().setUp()
        self.emu.create("t1", [b"m"])

    def run_with(self, rest, thrift, *args):
        return hbtest.run(["--rest", rest, "--thrift", thrift, "--no-progress"] + list(args))

    def test_urls__upper_and_mixed_case_rest_scheme_is_accepted(self):
        for rest in (upper_scheme(self.emu.rest), "hTtP://" + self.emu.rest.split("://", 1)[1]):
            with self.subTest(rest=rest):
                r = self.run_with(rest, self.emu.thrift, "tables")
                self.assertOk(r)
                self.assertEqual(r.out, "t1\n")
                self.assertEqual(r.err, "")

    def test_urls__upper_case_thrift_scheme_creates_through_thrift2(self):
        r = self.run_with(upper_scheme(self.emu.rest), upper_scheme(self.emu.thrift),
                          "-o", "json", "create", "t2", "--hex-splits", "4", "--via", "thrift2")
        self.assertOk(r)
        doc = r.json()
        self.assertEqual((doc["created"], doc["via"], doc["regions"]), (True, "thrift2", 4))

    def test_urls__bad_thrift_url_is_bad_input_and_creates_nothing(self):
        for url, pattern in [("ftp://127.0.0.1/", "Thrift2 URL 'ftp://127.0.0.1/': expected"),
                             ("notaurl", "Thrift2 URL 'notaurl': expected"),
                             ("http://u:p@127.0.0.1:9/", "credentials in the Thrift2 URL"),
                             ("http://[::1", "invalid Thrift2 URL 'http://\\[::1'")]:
            with self.subTest(url=url):
                self.emu.clear_requests()
                r = self.run_with(self.emu.rest, url, "create", "t3", "--hex-splits", "4",
                                  "--via", "thrift2")
                self.assertFails(r, 2, pattern)
                self.assertNotIn("t3", self.run_with(self.emu.rest, self.emu.thrift, "tables").out)
                self.assertFalse([q for q in self.emu.requests() if q["method"] != "GET"])


class BadRestUrls(OfflineTest):
    def test_urls__bad_rest_urls_exit_2_with_the_reason(self):
        for url, pattern in [
                ("", "invalid REST URL '': expected http://HOST:PORT or https://HOST:PORT"),
                ("notaurl", "invalid REST URL 'notaurl': expected"),
                ("ftp://x/", "invalid REST URL 'ftp://x/': expected"),
                ("FILE:///etc/passwd", "invalid REST URL 'FILE:///etc/passwd': expected"),
                ("http://user:secret@127.0.0.1:9/", "credentials in the REST URL are not allowed"),
                ("HTTP://user@127.0.0.1:9/", "credentials in the REST URL are not allowed"),
                ("http:///hbase", "REST URL without a host"),
                ("http://[::1", "invalid REST URL 'http://\\[::1': "),
                ("http://127.0.0.1:99999", "invalid REST URL 'http://127.0.0.1:99999': "),
                ("http://a b/", "invalid REST URL 'http://a b/': "),
                # a malformed URL with user information is not repeated: it may hold a password
                ("http://u:secret@[::1", "invalid REST URL '\\(not shown: it has an '@'\\)': ")]:
            with self.subTest(url=url):
                r = self.hb("--rest", url, "--retries", "0", "tables")
                self.assertFails(r, 2, pattern)
                self.assertEqual(r.err.count("\n"), 1, r.err)
                self.assertNotIn("secret", r.err)


if __name__ == "__main__":
    hbtest.main()
