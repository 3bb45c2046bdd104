"""Messages name what was asked: the whole URL path (with --rest's prefix), and the content
type of a Thrift2 reply that is an HTML page, as for REST."""

import hbtest
from hbtest import EmulatorTest


class MessagesNameWhatWasAsked(EmulatorTest):
    """Errors name the whole URL path (with --rest's prefix), and a Thrift reply that
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
