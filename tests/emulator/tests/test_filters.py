"""Scan filters: the REST scanner model's filter JSON and the stateless scan's filter
language, checked as HBase's filter classes and ParseFilter behave (see NOTES.md)."""
import json
import os
import sys
import unittest

from emu_harness import EMU_DIR, Emu, b64, unb64

sys.path.insert(0, EMU_DIR)
from hbemu import filters as F  # noqa: E402

ROWS = [
    (b"a1", [(b"cf", b"q1", 1, b"apple"), (b"cf", b"q2", 1, b"Banana")]),
    (b"a2", [(b"cf", b"q1", 1, b"cherry")]),
    (b"b1", [(b"cf", b"q1", 1, b"date"), (b"cf", b"z9", 1, b"elder")]),
    (b"b2", [(b"cf", b"q2", 1, b"fig")]),
    (b"c1", [(b"cf", b"q1", 1, b"grape")]),
]


def run(f, rows=ROWS):
    """One region: the rows through one filter instance, as a region scanner runs them."""
    out = []
    for key, cells in rows:
        if f.filter_all_remaining():
            break
        got = F.apply(f, key, cells)
        if got is not None:
            out.append((key, got))
    return out


def keys(result):
    return [k for k, _ in result]


def model(d):
    return F.parse_model(json.dumps(d))()


class FilterModelJson(unittest.TestCase):
    def test_prefix_filter_keeps_rows_with_the_prefix_and_stops_after_it(self):
        f = model({"type": "PrefixFilter", "value": b64(b"a")})
        self.assertEqual(keys(run(f)), [b"a1", b"a2"])
        self.assertTrue(f.filter_all_remaining())

    def test_page_filter_counts_rows_of_one_region(self):
        self.assertEqual(keys(run(model({"type": "PageFilter", "value": "2"}))), [b"a1", b"a2"])

    def test_first_key_only_and_key_only_send_one_empty_cell_per_row(self):
        f = model({"type": "FilterList", "op": "MUST_PASS_ALL", "filters": [
            {"type": "FirstKeyOnlyFilter"}, {"type": "KeyOnlyFilter"}]})
        got = run(f)
        self.assertEqual(keys(got), [k for k, _ in ROWS])
        self.assertEqual([c for _, cells in got for c in cells],
                         [(b"cf", b"q1", 1, b""), (b"cf", b"q1", 1, b""), (b"cf", b"q1", 1, b""),
                          (b"cf", b"q2", 1, b""), (b"cf", b"q1", 1, b"")])

    def test_random_row_filter_bounds_and_rate(self):
        self.assertEqual(keys(run(model({"type": "RandomRowFilter", "chance": 0.0}))), [])
        self.assertEqual(keys(run(model({"type": "RandomRowFilter", "chance": -1}))), [])
        self.assertEqual(len(run(model({"type": "RandomRowFilter", "chance": 1.0}))), 5)
        self.assertEqual(len(run(model({"type": "RandomRowFilter", "chance": 2.0}))), 5)
        many = [(b"r%05d" % i, [(b"cf", b"q", 1, b"v")]) for i in range(20000)]
        n = len(run(model({"type": "RandomRowFilter", "chance": 0.25}), many))
        self.assertGreater(n, 4500)   # 5000 expected, sd ~61
        self.assertLess(n, 5500)

    def test_row_filter_with_each_comparator(self):
        def rf(op, ctype, value):
            return keys(run(model({"type": "RowFilter", "op": op,
                                   "comparator": {"type": ctype, "value": value}})))
        self.assertEqual(rf("LESS", "BinaryComparator", b64(b"b1")), [b"a1", b"a2"])
        self.assertEqual(rf("GREATER_OR_EQUAL", "BinaryComparator", b64(b"b1")), [b"b1", b"b2", b"c1"])
        self.assertEqual(rf("EQUAL", "BinaryPrefixComparator", b64(b"b")), [b"b1", b"b2"])
        self.assertEqual(rf("NOT_EQUAL", "BinaryPrefixComparator", b64(b"b")), [b"a1", b"a2", b"c1"])
        self.assertEqual(rf("EQUAL", "RegexStringComparator", "[ac]1"), [b"a1", b"c1"])
        self.assertEqual(rf("EQUAL", "RegexStringComparator", "2"), [b"a2", b"b2"])  # find(), not matches()
        self.assertEqual(rf("EQUAL", "SubstringComparator", "B"), [b"b1", b"b2"])    # case-insensitive
        self.assertEqual(rf("NO_OP", "BinaryComparator", b64(b"a")), [])

    def test_value_and_qualifier_filters_drop_cells_not_rows(self):
        got = run(model({"type": "ValueFilter", "op": "EQUAL",
                         "comparator": {"type": "SubstringComparator", "value": "an"}}))
        self.assertEqual(got, [(b"a1", [(b"cf", b"q2", 1, b"Banana")])])
        got = run(model({"type": "QualifierFilter", "op": "EQUAL",
                         "comparator": {"type": "BinaryComparator", "value": b64(b"q2")}}))
        self.assertEqual(keys(got), [b"a1", b"b2"])
        self.assertEqual(got[0][1], [(b"cf", b"q2", 1, b"Banana")])

    def test_reversed_scan_prefix_and_inclusive_stop_look_downwards(self):
        down = list(reversed(ROWS))
        f = F.set_reversed(model({"type": "PrefixFilter", "value": b64(b"a")}))
        self.assertEqual(keys(run(f, down)), [b"a2", b"a1"])
        f = F.set_reversed(model({"type": "InclusiveStopFilter", "value": b64(b"b1")}))
        self.assertEqual(keys(run(f, down)), [b"c1", b"b2", b"b1"])

    def test_inclusive_stop_filter_includes_the_stop_row(self):
        f = model({"type": "InclusiveStopFilter", "value": b64(b"b1")})
        self.assertEqual(keys(run(f)), [b"a1", b"a2", b"b1"])
        self.assertTrue(f.filter_all_remaining())

    def test_filter_list_or_passes_a_row_any_member_passes(self):
        f = model({"type": "FilterList", "op": "MUST_PASS_ONE", "filters": [
            {"type": "PrefixFilter", "value": b64(b"c")},
            {"type": "RowFilter", "op": "EQUAL", "comparator": {"type": "BinaryComparator", "value": b64(b"a2")}}]})
        self.assertEqual(keys(run(f)), [b"a2", b"c1"])

    def test_filter_list_and_with_first_key_only_sees_every_cell(self):
        # FilterListWithAND hands each cell to every member: FirstKeyOnlyFilter takes the
        # row's first cell even when ValueFilter drops it, so b1 yields nothing
        f = model({"type": "FilterList", "op": "MUST_PASS_ALL", "filters": [
            {"type": "ValueFilter", "op": "EQUAL", "comparator": {"type": "BinaryComparator", "value": b64(b"elder")}},
            {"type": "FirstKeyOnlyFilter"}]})
        self.assertEqual(run(f), [])

    def test_bad_models_are_refused(self):
        for bad in ({"type": "Bogus"}, {"type": "FilterList", "op": "XOR", "filters": []},
                    {"type": "RowFilter", "op": "LIKE", "comparator": {"type": "BinaryComparator", "value": ""}},
                    {"type": "RowFilter", "op": "EQUAL", "comparator": {"type": "NopeComparator", "value": ""}},
                    {"type": "RandomRowFilter"}, {"type": "PageFilter", "value": "x"},
                    {"type": "PrefixFilter"}, [1]):
            with self.assertRaises(ValueError, msg=bad):
                F.parse_model(json.dumps(bad))
        with self.assertRaises(ValueError):
            F.parse_model({"type": "KeyOnlyFilter"})  # the model's filter is a string


class FilterLanguage(unittest.TestCase):
    def lang(self, text, rows=ROWS):
        return run(F.parse_language(text)(), rows)

    def test_simple_filters_and_quoting(self):
        self.assertEqual(keys(self.lang("PrefixFilter('b')")), [b"b1", b"b2"])
        self.assertEqual(keys(self.lang("PageFilter(3)")), [b"a1", b"a2", b"b1"])
        self.assertEqual(keys(self.lang("InclusiveStopFilter('a2')")), [b"a1", b"a2"])
        rows = [(b"it's", [(b"cf", b"q", 1, b"v")]), (b"its", [(b"cf", b"q", 1, b"v")])]
        self.assertEqual(keys(self.lang("RowFilter(=, 'binary:it''s')", rows)), [b"it's"])

    def test_key_only_with_length_as_value(self):
        got = self.lang("KeyOnlyFilter(true) AND FirstKeyOnlyFilter()")
        self.assertEqual(got[0][1], [(b"cf", b"q1", 1, b"\x00\x00\x00\x05")])

    def test_compare_operators_and_comparator_types(self):
        self.assertEqual(keys(self.lang("RowFilter(<=, 'binary:a2')")), [b"a1", b"a2"])
        self.assertEqual(keys(self.lang("RowFilter(!=, 'binaryprefix:a')")), [b"b1", b"b2", b"c1"])
        self.assertEqual(keys(self.lang("RowFilter(=, 'regexstring:^b')")), [b"b1", b"b2"])
        self.assertEqual(keys(self.lang("ValueFilter(=, 'substring:RAP')")), [b"c1"])
        self.assertEqual(keys(self.lang("QualifierFilter(>, 'binary:q1')")), [b"a1", b"b1", b"b2"])

    def test_and_binds_tighter_than_or_and_parentheses_group(self):
        # a1 OR (b-prefix AND page 1) = a1, b1
        self.assertEqual(keys(self.lang("RowFilter(=, 'binary:a1') OR PrefixFilter('b') AND PageFilter(1)")),
                         [b"a1", b"b1"])
        self.assertEqual(keys(self.lang("(RowFilter(=, 'binary:a1') OR PrefixFilter('b')) AND PageFilter(2)")),
                         [b"a1", b"b1"])

    def test_single_column_value_filter_keeps_whole_rows_and_rows_without_the_column(self):
        rows = [(b"r1", [(b"info", b"regioninfo", 1, b"ri1"), (b"info", b"state", 1, b"OPEN")]),
                (b"r2", [(b"info", b"regioninfo", 1, b"ri2"), (b"info", b"state", 1, b"CLOSED")]),
                (b"r3", [(b"info", b"regioninfo", 1, b"ri3")]),
                (b"r4", [(b"info", b"regioninfo", 1, b"ri4"), (b"info", b"state", 1, b"OPEN")])]
        scvf = "SingleColumnValueFilter('info','state',!=,'binary:OPEN',false,true)"
        got = self.lang(scvf, rows)
        # the failing row is dropped whole (its regioninfo too); the row without the column
        # passes with what it has
        self.assertEqual(got, [rows[1], rows[2]])
        self.assertEqual(keys(self.lang(scvf.replace("false,true", "true,true"), rows)), [b"r2"])
        self.assertEqual(keys(self.lang("SingleColumnValueFilter('info','state',=,'binary:OPEN')",
                                        rows)), [b"r1", b"r3", b"r4"])
        self.assertEqual(self.lang(scvf + " OR RowFilter(=,'binary:r4')", rows),
                         [rows[1], rows[2], rows[3]])
        for bad in ("SingleColumnValueFilter('info','state',!=)",
                    "SingleColumnValueFilter('info','state',<,'substring:x')",
                    "SingleColumnValueFilter('info','state',=,'binary:x',false)"):
            with self.assertRaises(ValueError, msg=bad):
                F.parse_language(bad)

    def test_errors_are_refused(self):
        for bad in ("Bogus()", "RandomRowFilter(0.5)", "PrefixFilter('a'", "PrefixFilter(a)",
                    "RowFilter(~, 'binary:a')", "RowFilter(=, 'nope:a')", "RowFilter(=, 'binary')",
                    "PageFilter(x)", "KeyOnlyFilter(maybe)", "PrefixFilter('a') AND",
                    "PrefixFilter('a'))", "FirstKeyOnlyFilter(1)"):
            with self.assertRaises(ValueError, msg=bad):
                F.parse_language(bad)


class FiltersOverRest(unittest.TestCase):
    """The same filters through the gateway: scanners get a fresh filter per region."""

    @classmethod
    def setUpClass(cls):
        os.environ.setdefault("HBEMU_TEST_QUIET", "1")
        cls.emu = Emu("--servers", "2")
        cls.emu.create("ft", splits=[b"m"])
        for i in range(26):
            k = bytes([ord("a") + i]) + b"row"
            cls.emu.put("ft", k, b"cf:q", b"v%d" % i)

    @classmethod
    def tearDownClass(cls):
        cls.emu.stop()

    def test_scanner_page_filter_applies_per_region(self):
        rows, _ = self.emu.scan_all("ft", {"filter": json.dumps({"type": "PageFilter", "value": "2"})})
        # two regions, two rows each: HBase's PageFilter does not limit the whole scan
        self.assertEqual([k for k, _ in rows], [b"arow", b"brow", b"mrow", b"nrow"])

    def test_scanner_sampling_filter_sends_keys_without_values(self):
        f = {"type": "FilterList", "op": "MUST_PASS_ALL", "filters": [
            {"type": "RandomRowFilter", "chance": 0.5}, {"type": "FirstKeyOnlyFilter"},
            {"type": "KeyOnlyFilter"}]}
        rows, _ = self.emu.scan_all("ft", {"filter": json.dumps(f)})
        self.assertLess(len(rows), 26)
        for _, cells in rows:
            self.assertEqual(len(cells), 1)
            self.assertEqual(cells[0][0], b"cf:q")
            self.assertEqual(cells[0][2], b"")

    def test_scanner_bad_filter_is_400(self):
        self.assertEqual(self.emu.rest("POST", "/ft/scanner", {"filter": json.dumps({"type": "Bogus"})})[0], 400)
        self.assertEqual(self.emu.rest("POST", "/ft/scanner", {"filter": {"type": "KeyOnlyFilter"}})[0], 400)

    def test_stateless_scan_filter_string(self):
        d = self.emu.rest_json("/ft/*?filter=" + "RowFilter(%3E%3D,%20'binary:x')")
        self.assertEqual([unb64(r["key"]) for r in d["Row"]], [b"xrow", b"yrow", b"zrow"])
        d = self.emu.rest_json("/ft/c*?filter=KeyOnlyFilter()")
        self.assertEqual([unb64(r["key"]) for r in d["Row"]], [b"crow"])
        # not in ParseFilter: its exception reaches the container (2.x): 500
        self.assertEqual(self.emu.rest("GET", "/ft/*?filter=RandomRowFilter(0.5)")[0], 500)
        d = self.emu.rest_json("/ft/*?reversed=true&filter=" + "PrefixFilter('c')")
        self.assertEqual([unb64(r["key"]) for r in d["Row"]], [b"crow"])


if __name__ == "__main__":
    unittest.main()
