"""hbtab splits: every algorithm, every output format and every bad input, through the binary."""
import base64
import hashlib
import json
import os
import shlex
import shutil
import struct
import subprocess
import tempfile

import hbtest
from hbtest import tsb


def tbb(text):
    """Bytes.toBytesBinary (modern rule), written independently of the C code."""
    out = bytearray()
    units = text.encode("utf-16-be")
    cs = [int.from_bytes(units[i:i + 2], "big") for i in range(0, len(units), 2)]
    i = 0
    hexd = "0123456789ABCDEF"
    while i < len(cs):
        c = cs[i]
        if c == 0x5C and i + 3 < len(cs) and cs[i + 1] == ord("x"):
            a, b = chr(cs[i + 2]), chr(cs[i + 3])
            if a in hexd and b in hexd:
                out.append(int(a + b, 16))
                i += 4
                continue
            i += 1
            continue
        out.append(c & 0xFF)
        i += 1
    return bytes(out)


class JavaRandom:
    """java.util.Random, from its published definition."""

    def __init__(self, seed):
        self.s = (seed ^ 0x5DEECE66D) & ((1 << 48) - 1)

    def next(self, bits):
        self.s = (self.s * 0x5DEECE66D + 0xB) & ((1 << 48) - 1)
        return self.s >> (48 - bits)

    def next_int(self, bound):
        r = self.next(31)
        m = bound - 1
        if bound & m == 0:
            return (bound * r) >> 31
        u = r
        while True:
            r = u % bound
            if u - r + m < (1 << 31):
                return r
            u = self.next(31)


def md5_keys(count, seed, start):
    rnd, ts, out = JavaRandom(seed), start, []
    for i in range(1, count + 1):
        ts += rnd.next_int(1000)
        raw = struct.pack(">I", i & 0xFFFFFFFF) + struct.pack(">I", ts & 0xFFFFFFFF)
        out.append(hashlib.md5(raw).hexdigest()[:8].encode() + struct.pack(">q", i))
    return out


def hash_chore_woker(sample, regions):
    """The seed's HashChoreWoker.calcSplitKeys over a given sample."""
    base = len(sample) // regions
    rows = sorted(set(sample))
    return [k for p, k in enumerate(rows) if p != 0 and p % base == 0][:regions - 1]


RUBY_TBB = r'''
def tbb(s)
  out = []
  cs = s.encode("UTF-16BE").unpack("n*")
  i = 0
  hexd = "0123456789ABCDEF"
  while i < cs.length
    c = cs[i]
    if c == 0x5C && i + 3 < cs.length && cs[i + 1] == "x".ord
      a = cs[i + 2].chr(Encoding::UTF_8) rescue "?"
      b = cs[i + 3].chr(Encoding::UTF_8) rescue "?"
      if hexd.include?(a) && hexd.include?(b)
        out << (a + b).to_i(16)
        i += 4
        next
      end
      i += 1
      next
    end
    out << (c & 0xFF)
    i += 1
  end
  out.pack("C*").unpack1("H*")
end
'''


class SplitsTest(hbtest.OfflineTest):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="hbtab-splits-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def file(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return path

    def lines(self, *args):
        r = self.hb("splits", *args)
        self.assertOk(r)
        self.assertEqual(r.err, "")
        return r.out.splitlines()

    # ---- every algorithm ----

    def test_splits__hex_default_n10_matches_regionsplitter(self):
        self.assertEqual(self.lines("--hex-splits", "10"),
                         "19999999 33333332 4ccccccb 66666664 7ffffffd 99999996 b333332f "
                         "ccccccc8 e6666661".split())

    def test_splits__hex_custom_bounds_use_last_row_width(self):
        self.assertEqual(self.lines("--hex-splits", "4", "--first", "0", "--last", "00FF"),
                         ["0040", "0080", "00c0"])
        self.assertEqual(self.lines("--hex-splits", "11", "--first", "0", "--last", "A"),
                         list("123456789a"))

    def test_splits__decimal_default_n7(self):
        self.assertEqual(self.lines("--decimal-splits", "7"),
                         "14285714 28571428 42857142 57142856 71428570 85714284".split())

    def test_splits__uniform_default_and_custom_rows(self):
        self.assertEqual(self.lines("--uniform-splits", "2"), ["\\x80" + "\\x00" * 7])
        self.assertEqual(self.lines("--uniform-splits", "3", "--first", "\\x10", "--last", "\\x30"),
                         ["\\x1B", "&"])  # inclusive: (0x30 - 0x10 + 1) // 3 = 11

    def test_splits__range_matches_createtable_listing(self):
        out = self.lines("--range-splits", "10", "--start", "0" * 16, "--end", "f" * 16)
        self.assertEqual(len(out), 9)
        self.assertEqual(out[0], "0" * 16)
        self.assertEqual(out[4], "KKKKKKKKKKKKKKKH")
        self.assertEqual(out[1], "6" + "\\xF6" * 15)
        self.assertEqual(out[8], "f" * 16)
        self.assertEqual(self.lines("--range-splits", "3", "--start", "a", "--end", "z"), ["a", "z"])
        self.assertEqual(self.lines("--range-splits", "4", "--start", "a", "--end", "b"),
                         ["a\\x00", "a\\x80", "b\\x00"])

    def test_splits__book_hex_matches_seed_001(self):
        self.assertEqual(self.lines("--book-hex-splits", "10", "--start", "0" * 16, "--end", "f" * 16),
                         self.lines("--hex-splits", "10", "--first", "0" * 16, "--last", "f" * 16))
        self.assertEqual(self.lines("--book-hex-splits", "16", "--start", "00000000",
                                    "--end", "ffffffff")[0], "000000000fffffff")

    def test_splits__book_hex_reversed_range_steps_down_and_is_sorted(self):
        # getHexSplits has no start < end check; createTable sorts what it computes.
        self.assertEqual(self.lines("--book-hex-splits", "4", "--start", "ff", "--end", "0"),
                         ["0000000000000042", "0000000000000081", "00000000000000c0"])
        self.assertEqual(self.lines("--book-hex-splits", "2", "--start", "5", "--end", "5"),
                         ["0000000000000005"])

    def test_splits__partition_and_salt(self):
        self.assertEqual(self.lines("--partition-splits", "3"),
                         ["\\x00" * 7 + "\\x01", "\\x00" * 7 + "\\x02"])
        self.assertEqual(self.lines("--salt-splits", "3"), ["\\x01", "\\x02"])
        self.assertEqual(self.lines("--salt-splits", "3", "--salt-width", "2"),
                         ["\\x00\\x01", "\\x00\\x02"])
        self.assertEqual(len(self.lines("--salt-splits", "256")), 255)

    def test_splits__sampled_generator_reproduces_the_java_program(self):
        sample = md5_keys(5000, 7, 1700000000000)
        want = [tsb(k) for k in hash_chore_woker(sample, 10)]
        self.assertEqual(self.lines("--sampled-splits", "10", "--generator", "md5",
                                    "--sample-size", "5000", "--seed", "7",
                                    "--start-time", "1700000000000"), want)
        self.assertEqual(len(want), 9)

    def test_splits__sampled_from_file_counts_every_line(self):
        path = self.file("sample.txt", "e\na\nc\nb\nd\na\n")
        self.assertEqual(self.lines("--sampled-splits", "3", "--sample-file", path), ["c", "e"])

    def test_splits__splits_file_round_trips(self):
        path = self.file("s.txt", "a\r\nb\\x00\r\n\\xFF")
        self.assertEqual(self.lines("--splits-file", path), ["a", "b\\x00", "\\xFF"])
        r = self.hb("splits", "--splits-file", "-", stdin=b"k1\nk2\n")
        self.assertOk(r)
        self.assertEqual(r.out, "k1\nk2\n")

    # ---- formats ----

    def test_splits__json_format_has_key_and_base64(self):
        r = self.hb("splits", "--range-splits", "4", "--start", "a\\x5C\"", "--end", "b",
                    "--format", "json")
        self.assertOk(r)
        doc = json.loads(r.out)
        self.assertEqual(len(doc["splits"]), 3)
        for s in doc["splits"]:
            self.assertEqual(base64.b64decode(s["base64"]), tbb(s["key"]))
        self.assertEqual(doc["splits"][0]["key"], 'a\\x5C"')
        r2 = self.hb("-o", "json", "splits", "--hex-splits", "2")
        self.assertOk(r2)
        self.assertEqual(json.loads(r2.out), {"splits": [{"key": "80000000",
                                                          "base64": hbtest.b64("80000000")}]})
        r3 = self.hb("splits", "--hex-splits", "1", "--format", "json")
        self.assertEqual(json.loads(r3.out), {"splits": []})
        r4 = self.hb("-o", "json", "splits", "--hex-splits", "2", "--format", "lines")
        self.assertEqual(r4.out, "80000000\n")

    def tricky_keys(self):
        keys = [b" \x00a", b" lead", b"mid'quote", b"q\\back", b"tail ", b"x\x7f\x80\xff ",
                b"\xff' \\ "]
        keys.sort()
        return keys, self.file("tricky.txt", "\n".join(tsb(k) for k in keys) + "\n")

    def test_splits__shell_format_gives_back_the_bytes_under_ruby(self):
        keys, path = self.tricky_keys()
        r = self.hb("splits", "--splits-file", path, "--format", "shell")
        self.assertOk(r)
        self.assertTrue(r.out.startswith("SPLITS => ['"), r.out)
        self.assertNotIn("\\'", r.out)
        script = RUBY_TBB + "SPLITS = 'SPLITS'\nh = {" + r.out.strip() + "}\n" + \
            "h[SPLITS].each { |s| puts tbb(s) }\n"
        p = subprocess.run(["ruby", "-e", script], capture_output=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(p.stdout.decode().split(), [k.hex() for k in keys])

    def test_splits__splits_file_format_survives_chomp_and_strip(self):
        keys, path = self.tricky_keys()
        r = self.hb("splits", "--splits-file", path, "--format", "splits-file")
        self.assertOk(r)
        out = self.file("out.txt", r.out_bytes)
        for trim in ("chomp", "strip"):
            script = RUBY_TBB + "File.foreach(ARGV[0]) { |l| puts tbb(l.%s) }\n" % trim
            p = subprocess.run(["ruby", "-e", script, out], capture_output=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr.decode())
            self.assertEqual(p.stdout.decode().split(), [k.hex() for k in keys], trim)
        # and hbtab reads its own output back to the same keys
        self.assertEqual(self.lines("--splits-file", out), [tsb(k) for k in keys])

    def test_splits__lines_print_nothing_else(self):
        r = self.hb("splits", "--partition-splits", "1")
        self.assertOk(r)
        self.assertEqual((r.out, r.err), ("", ""))

    # ---- bad input ----

    def test_splits__bad_input_is_a_usage_error(self):
        unsorted = self.file("splits.txt", "a\nc\nb\n")
        blank = self.file("blank.txt", "a\n\nb\n")
        dup = self.file("dup.txt", "a\na\n")
        badutf = self.file("bad.txt", b"a\nb\xff\n")
        longkey = self.file("long.txt", "k" * 32768 + "\n")
        empty = self.file("empty.txt", "")
        cases = [
            ((), r"no split specification given"),
            (("--hex-splits", "10", "--decimal-splits", "3"), r"--hex-splits and --decimal-splits cannot be used together"),
            (("--hex-splits", "0"), r"--hex-splits needs at least 1 region"),
            (("--hex-splits", "-3"), r"--hex-splits needs at least 1 region"),
            (("--hex-splits", "ten"), r"--hex-splits must be a whole number"),
            (("--hex-splits", "10000001"), r"at most 10000000 regions"),
            (("--hex-splits", "12", "--first", "0", "--last", "A"), r"split granularity \(12\) is greater than the range \(11\)"),
            (("--hex-splits", "3", "--first", "AA", "--last", "00"), r"last row \(00\) is configured less than first row \(AA\)"),
            (("--hex-splits", "3", "--last", "fg"), r"--last 'fg' is not a hex number"),
            (("--hex-splits", "3", "--first", "-1"), r"negative"),
            (("--decimal-splits", "3", "--last", "9a"), r"not a decimal number"),
            (("--uniform-splits", "1"), r"at least 2 regions"),
            (("--uniform-splits", "3", "--first", "\\xAA", "--last", "\\x00"), r"last row \(\\x00\) is configured less than first row \(\\xAA\)"),
            (("--range-splits", "2", "--start", "a", "--end", "z"), r"Must create at least three regions"),
            (("--range-splits", "5", "--start", "z", "--end", "a"), r"Start key must be smaller than end key"),
            (("--range-splits", "5", "--start", "a"), r"needs both --start and --end"),
            (("--range-splits", "5", "--start", "", "--end", "a"), r"Empty split key must not be passed"),
            (("--range-splits", "5", "--start", "a", "--end", "a\\x00"), r"b <= a"),
            (("--book-hex-splits", "4", "--start", "0", "--end", "2"), r"All split keys must be unique, found duplicate: 0000000000000000, 0000000000000000"),
            (("--book-hex-splits", "4", "--start", "0", "--end", "xyz"), r"not a hex number"),
            (("--book-hex-splits", "4", "--start", "8", "--end", "-ff"), r"end key \(-ff\) makes the keys negative"),
            (("--salt-splits", "257"), r"257 salt buckets do not fit in 1 byte"),
            (("--salt-splits", "65537", "--salt-width", "2"), r"do not fit in 2 bytes"),
            (("--salt-splits", "3", "--salt-width", "4"), r"invalid value '4' for --salt-width"),
            (("--hex-splits", "3", "--start", "a"), r"--start cannot be used with --hex-splits"),
            (("--partition-splits", "3", "--first", "a"), r"--first cannot be used with --partition-splits"),
            (("--last", "a"), r"--last needs"),
            (("--sampled-splits", "3"), r"needs --sample-file or --generator"),
            (("--sampled-splits", "3", "--generator", "nope"), r"unknown generator 'nope'"),
            (("--sampled-splits", "3", "--generator", "md5", "--sample-size", "2"), r"too small for 3 regions"),
            (("--sampled-splits", "3", "--generator", "md5", "--sample-size", "0"), r"--sample-size must be between"),
            (("--sampled-splits", "3", "--sample-file", unsorted, "--seed", "1"), r"--seed goes with --generator"),
            (("--sampled-splits", "4", "--sample-file", dup), r"too small for 4 regions"),
            (("--splits-file", unsorted), r"^hbtab: .*splits.txt:3: key 'b' is not greater than the key on line 2\n"),
            (("--splits-file", blank), r"blank.txt:2: empty line"),
            (("--splits-file", dup), r"dup.txt:2: key 'a' is not greater than the key on line 1"),
            (("--splits-file", badutf), r"bad.txt:2: invalid UTF-8"),
            (("--splits-file", longkey), r"long.txt:1: key is 32768 bytes long"),
            (("--splits-file", empty), r"empty.txt: no keys"),
            (("--splits-file", os.path.join(self.tmp, "missing")), r"cannot read --splits-file '.*missing'"),
            (("--hex-splits", "3", "--format", "xml"), r"invalid value 'xml' for --format"),
            (("--hex-splits", "3", "stray"), r"unexpected argument 'stray'"),
        ]
        for args, pattern in cases:
            with self.subTest(args=args):
                r = self.hb("splits", *args)
                self.assertFails(r, 2, pattern)
                self.assertEqual(r.out, "")

    def test_splits__help_shows_usage_and_every_flag(self):
        r = self.hb("splits", "--help")
        self.assertOk(r)
        self.assertTrue(r.out.startswith(
            "usage: hbtab splits SPLITSPEC [--format lines|json|shell|splits-file]\n"), r.out)
        for flag in ("--hex-splits", "--decimal-splits", "--uniform-splits", "--range-splits",
                     "--book-hex-splits", "--partition-splits", "--salt-splits",
                     "--sampled-splits", "--splits-file", "--sample-file", "--generator",
                     "--sample-size", "--seed", "--start-time", "--salt-width", "--format"):
            self.assertIn(flag, r.out)

    def test_splits__describe_gives_canonical_flags_that_reproduce_the_keys(self):
        path = self.file("s.txt", "a\nb\n")
        specs = [
            (("--hex-splits", "010", "--last", "ff"), "--hex-splits 10 --last ff"),
            (("--range-splits", "5", "--start", "a b", "--end", "it's\\x00"),
             "--range-splits 5 --start 'a b' --end 'it'\\''s\\x00'"),
            (("--sampled-splits", "3", "--generator", "md5", "--sample-size", "100"),
             "--sampled-splits 3 --generator md5 --sample-size 100 --seed 0 --start-time 0"),
            (("--salt-splits", "4"), "--salt-splits 4 --salt-width 1"),
            (("--uniform-splits", "4", "--first", "\\x00"), "--uniform-splits 4 --first '\\x00'"),
            (("--splits-file", path), "--splits-file " + path),
        ]
        for args, want in specs:
            with self.subTest(args=args):
                r = self.hb("splits", "--describe", *args)
                self.assertOk(r)
                self.assertEqual(r.out, want + "\n")
                self.assertEqual(self.lines(*shlex.split(r.out)), self.lines(*args))
        self.assertFails(self.hb("splits", "--describe", "--hex-splits", "3", "--start", "a"), 2,
                         r"--start cannot be used with --hex-splits")

    def test_splits__million_keys_are_exact_at_both_ends(self):
        r = self.hb("splits", "--hex-splits", "1000001", "--first", "0", "--last", "ffffffffffff")
        self.assertOk(r)
        out = r.out_bytes.split(b"\n")
        self.assertEqual(len(out), 1000001)
        step = (1 << 48) // 1000001
        self.assertEqual(out[0], b"%012x" % step)
        self.assertEqual(out[999999], b"%012x" % (step * 1000000))


if __name__ == "__main__":
    hbtest.main()
