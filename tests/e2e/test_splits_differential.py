"""hbtab splits: randomized differential test against an independent big-int model of HBase.

The model below is written only from docs/hbase-keys.md (sections 2-7 and 11) and
hbtab-splits(1); it shares no code with the C implementation.  Every random case is run
through the real binary and stdout is compared byte for byte (`--format lines`), a subset
also through `--format json`.  Error cases must exit 2 with a message starting "hbtab: ".

The random generator is seeded with a fixed seed that is printed; set HBTAB_DIFF_SEED to
replay another seed and HBTAB_DIFF_CASES to change the number of cases per algorithm.
"""
import base64
import json
import os
import random
import shlex
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import hbtest

SEED = int(os.environ.get("HBTAB_DIFF_SEED", "20261122"))
CASES = int(os.environ.get("HBTAB_DIFF_CASES", "300"))
MAX_REGIONS = 10000000  # hbtab-splits(1): "at most 10000000 regions"
JOBS = 4


class ModelError(Exception):
    """HBase (or hbtab, where the doc leaves the choice to it) refuses the input."""


# ---------------------------------------------------------------------------------------------
# Model: keys (docs/hbase-keys.md section 2)
# ---------------------------------------------------------------------------------------------

def to_string_binary(key):
    """Bytes.toStringBinary: 0x20..0x7E except the backslash as is, else \\xHH upper-case."""
    return "".join(chr(b) if 0x20 <= b <= 0x7E and b != 0x5C else "\\x%02X" % b for b in key)


def to_bytes_binary(text):
    """Bytes.toBytesBinary, modern rule (HBASE-30304): walks UTF-16 code units."""
    raw = text.encode("utf-16-be")
    units = [(raw[i] << 8) | raw[i + 1] for i in range(0, len(raw), 2)]
    upper_hex = "0123456789ABCDEF"
    out = bytearray()
    i = 0
    while i < len(units):
        u = units[i]
        if u == 0x5C and i + 3 < len(units) and units[i + 1] == ord("x"):
            h1, h2 = chr(units[i + 2]), chr(units[i + 3])
            if h1 in upper_hex and h2 in upper_hex:
                out.append(int(h1 + h2, 16))
                i += 4
            else:
                i += 1  # bogus escape: only the backslash is dropped
            continue
        out.append(u & 0xFF)  # a lone backslash stays 0x5C; others keep their low 8 bits
        i += 1
    return bytes(out)


def ubig(key):
    return int.from_bytes(key, "big")


def validate_split_keys(keys):
    """Split-key validation at table creation (section 5): sort, no empty key, no duplicate."""
    keys = sorted(keys)
    for i, k in enumerate(keys):
        if len(k) == 0:
            raise ModelError("Empty split key must not be passed in the split keys.")
        if i > 0 and keys[i - 1] == k:
            raise ModelError("All split keys must be unique, found duplicate")
    return keys


# ---------------------------------------------------------------------------------------------
# Model: Bytes.split (section 3) and createTable(start, end, n) (section 4)
# ---------------------------------------------------------------------------------------------

def bytes_split(a, b, num, inclusive=False):
    """Bytes.split(a, b, inclusive, num): num + 2 keys, endpoints of the final round included."""
    while True:
        width = max(len(a), len(b))
        pa = a + b"\x00" * (width - len(a))
        pb = b + b"\x00" * (width - len(b))
        if pa >= pb:
            raise ModelError("b <= a")
        if num <= 0:
            raise ModelError("num cannot be <= 0")
        diff = ubig(pb) - ubig(pa) + (1 if inclusive else 0)
        if diff < num + 1:
            # too narrow: zero-extend both and restart with the longer arrays
            a, b = pa + b"\x00", pb + b"\x00"
            continue
        step = diff // (num + 1)
        base = ubig(pa)
        mids = [(base + i * step).to_bytes(width, "big") for i in range(1, num + 1)]
        return [a] + mids + [b]


def create_table_range(start, end, n):
    """Admin.createTable(desc, start, end, n), then split-key validation."""
    if n < 3:
        raise ModelError("Must create at least three regions")
    if start >= end:
        raise ModelError("Start key must be smaller than end key")
    if n == 3:
        keys = [start, end]
    else:
        keys = bytes_split(start, end, n - 3)
    return validate_split_keys(keys)


# ---------------------------------------------------------------------------------------------
# Model: RegionSplitter (section 6)
# ---------------------------------------------------------------------------------------------

def java_biginteger(text, radix):
    """new BigInteger(text, radix): one optional sign, then ASCII digits of either case."""
    body = text[1:] if text[:1] in ("+", "-") else text
    digits = "0123456789abcdef"[:radix]
    if not body or any(c.lower() not in digits for c in body):
        raise ModelError("NumberFormatException: %r" % text)
    value = int(body, radix)
    return -value if text[:1] == "-" else value


def to_radix(value, radix):
    return format(value, "x") if radix == 16 else str(value)


def number_string_split(n, radix, first_text=None, last_text=None):
    """HexStringSplit / DecimalStringSplit.split(n) with setFirstRow/setLastRow(String)."""
    first = 0 if first_text is None else java_biginteger(first_text, radix)
    if last_text is None:
        last_text = "FFFFFFFF" if radix == 16 else "99999999"
    last = java_biginteger(last_text, radix)
    width = len(last_text)  # only the last row's text sets the width
    if n < 1 or n > MAX_REGIONS:
        raise ModelError("region count out of range")
    if first < 0:
        raise ModelError("hbtab refuses a negative first row (hbtab-splits(1))")
    if not last > first:
        raise ModelError("last row is configured less than first row")
    rng = last - first + 1
    if rng < n:
        raise ModelError("split granularity is greater than the range")
    step = rng // n
    keys = [to_radix(first + i * step, radix).rjust(width, "0").encode() for i in range(1, n)]
    return validate_split_keys(keys)


def uniform_split(n, first=b"", last=b"\xff" * 8):
    """UniformSplit.split(n): Bytes.split(first, last, inclusive, n-1) without its two ends."""
    if n > MAX_REGIONS:
        raise ModelError("region count out of range")
    if not last > first:
        raise ModelError("last row is configured less than first row")
    return validate_split_keys(bytes_split(first, last, n - 1, inclusive=True)[1:-1])


def book_hex_splits(n, start_text, end_text):
    """The reference guide's getHexSplits (section 7.1), then createTable(desc, splits)."""
    lowest = java_biginteger(start_text, 16)
    highest = java_biginteger(end_text, 16)
    if n < 0 or n > MAX_REGIONS:
        raise ModelError("region count out of range")
    if n == 0:
        raise ModelError("NegativeArraySizeException")
    if lowest < 0 or highest < 0:
        raise ModelError("doc leaves negative bounds open; hbtab refuses them")
    rng = highest - lowest  # no +1
    inc = abs(rng) // n * (1 if rng >= 0 else -1)  # BigInteger.divide truncates toward zero
    keys = [format(lowest + inc * (i + 1), "016x").encode() for i in range(n - 1)]
    return validate_split_keys(keys)


# ---------------------------------------------------------------------------------------------
# Model: seed designs (section 7.3) and salt prefixes (hbtab-splits(1))
# ---------------------------------------------------------------------------------------------

def partition_splits(n):
    if n < 1 or n > MAX_REGIONS:
        raise ModelError("region count out of range")
    return [i.to_bytes(8, "big", signed=True) for i in range(1, n)]


def salt_splits(n, width=1):
    if n < 1 or n > 256 ** width:
        raise ModelError("salt buckets do not fit")
    return [i.to_bytes(width, "big") for i in range(1, n)]


# ---------------------------------------------------------------------------------------------
# Random inputs
# ---------------------------------------------------------------------------------------------

SPECIAL_BYTES = [0x00, 0xFF, 0x5C, 0x27, 0x20, 0x01, 0xFE, 0x7F, 0x80, 0x7E]


def rand_key(rng, lo=0, hi=20):
    n = rng.randint(lo, hi)
    out = bytearray()
    for _ in range(n):
        r = rng.random()
        if r < 0.35:
            out.append(rng.choice(SPECIAL_BYTES))
        elif r < 0.7:
            out.append(rng.randint(0x20, 0x7E))
        else:
            out.append(rng.randint(0, 255))
    return bytes(out)


def key_arg(rng, key):
    """A command-line spelling of `key` that toBytesBinary parses back to `key`."""
    if rng.random() < 0.7:
        return to_string_binary(key)
    parts = []
    for b in key:
        if 0x20 <= b <= 0x7E and b != 0x5C and rng.random() < 0.5:
            parts.append(chr(b))
        elif b == 0x5C and rng.random() < 0.3:
            parts.append("\\")  # a backslash not followed by x stays a backslash
        else:
            parts.append("\\x%02X" % b)
    text = "".join(parts)
    if to_bytes_binary(text) != key:  # e.g. a literal backslash that now starts an escape
        text = to_string_binary(key)
    return text


RAW_PIECES = ["\\xff", "\\xZZ", "\\x4", "\\", "\\q", "\\x", "x", "é", "€", "\U0001F600", "ÿ",
              "\\x41", "\\xA0", "a", "Z", "0", " ", "'", "-", "~"]


def raw_key_arg(rng):
    """A free-form key argument: lower-case (bogus) escapes, lone backslashes, non-ASCII."""
    return "".join(rng.choice(RAW_PIECES) for _ in range(rng.randint(1, 6)))


def rand_regions(rng, lo=2, big_ok=True):
    r = rng.random()
    if r < 0.55:
        return rng.randint(lo, max(lo, 40))
    if r < 0.9 or not big_ok:
        return rng.randint(lo, 2000)
    if r < 0.99:
        return rng.randint(2000, 60000)
    return rng.randint(100000, 300000)


def number_text(rng, value, radix, min_len=0, plus=None):
    """A text for BigInteger(text, radix): random case, leading zeros, optional '+'."""
    digits = to_radix(value, radix)
    if radix == 16:
        mode = rng.random()
        if mode < 0.3:
            digits = digits.upper()
        elif mode < 0.5:
            digits = "".join(c.upper() if rng.random() < 0.5 else c for c in digits)
    digits = digits.rjust(max(min_len, len(digits)), "0")
    if plus is None:
        plus = rng.random() < 0.1
    return ("+" if plus else "") + digits


def gen_number_case(rng, radix):
    """(extra args, first_text, last_text, n) for --hex-splits / --decimal-splits."""
    kind = rng.random()
    width = rng.randint(1, 40)
    top = radix ** width - 1
    first_text = last_text = None
    if kind < 0.1:  # defaults
        n = rng.choice([rng.randint(1, 40), rng.randint(2, 2000), rng.randint(2000, 60000)])
        return first_text, last_text, n
    if kind < 0.65:  # random bounds
        last = rng.randint(1, top)
        last_text = number_text(rng, last, radix, min_len=rng.choice([0, width, width + 2]))
        if rng.random() < 0.7:
            first = rng.randint(0, last - 1) if rng.random() < 0.8 else rng.randint(0, top)
            first_text = number_text(rng, first, radix, min_len=rng.randint(0, width + 6))
        rngsize = last - (0 if first_text is None else java_biginteger(first_text, radix)) + 1
        n = rand_regions(rng, lo=1)
        if 0 < rngsize <= 70000 and rng.random() < 0.15:
            n = rng.choice([rngsize, rngsize + 1, max(1, rngsize - 1)])
        return first_text, last_text, min(n, MAX_REGIONS + 1)
    if kind < 0.85:  # equal-ish bounds: n around the range
        first = rng.randint(0, top)
        last = first + rng.randint(-1, 6)
        if last < 0:
            last = 0
        first_text = number_text(rng, first, radix, min_len=rng.randint(0, width))
        last_text = number_text(rng, last, radix, min_len=rng.randint(0, width + 1))
        size = last - first + 1
        n = rng.choice([1, 2, max(1, size), size + 1, max(1, size - 1), rng.randint(1, 8)])
        return first_text, last_text, n
    # malformed or refused input
    bad = rng.choice(["", "+", "-", "G1", "0x1F", " 12", "12 ", "1_0", "++1", "+-1", "-5",
                      "-0", "-00ff", "1e3", "a", "Ab", "١٢", "ff" if radix == 10 else "fg"])
    if rng.random() < 0.5:
        first_text = bad
        last_text = number_text(rng, rng.randint(1, top), radix) if rng.random() < 0.7 else None
    else:
        last_text = bad
        if rng.random() < 0.5:
            first_text = number_text(rng, rng.randint(0, 50), radix)
    n = rng.choice([rng.randint(1, 20), 0, MAX_REGIONS + 1])
    return first_text, last_text, n


def gen_key_pair(rng):
    """Two keys with one of several relations (independent, prefix, close, equal after padding)."""
    a = rand_key(rng)
    r = rng.random()
    if r < 0.3:
        b = rand_key(rng)
        if rng.random() < 0.85:
            a, b = sorted((a, b))
    elif r < 0.45:  # b extends a
        b = a + rand_key(rng, 1, 6)
    elif r < 0.55:  # equal after zero padding only
        b = a + b"\x00" * rng.randint(1, 4)
    elif r < 0.75 and a:  # close: bump the last byte(s)
        n = ubig(a) + rng.randint(1, 3)
        b = n.to_bytes(len(a), "big") if n < 256 ** len(a) else a + b"\x01"
    elif r < 0.78:
        b = a
    elif r < 0.84:  # a sorts after b, or b is shorter
        b = a[:rng.randint(0, len(a))]
    elif r < 0.94:
        b = rand_key(rng, 1, 20)
        a = rand_key(rng, 1, 20)
        a, b = sorted((a, b))
    else:
        b = rand_key(rng, 1, 3)
        a = b""
    if rng.random() < 0.08:
        a, b = b, a
    return a, b


def flag_args(name, value):
    return [] if value is None else [name, value]


# ---------------------------------------------------------------------------------------------
# Case builders: each returns (argv after "splits", expected keys or ModelError)
# ---------------------------------------------------------------------------------------------

def expect(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except ModelError as e:
        return e


def build_number_cases(rng, radix, count):
    flag = "--hex-splits" if radix == 16 else "--decimal-splits"
    cases = []
    for _ in range(count):
        first_text, last_text, n = gen_number_case(rng, radix)
        args = [flag, str(n)] + flag_args("--first", first_text) + flag_args("--last", last_text)
        cases.append((args, expect(number_string_split, n, radix, first_text, last_text)))
    return cases


def build_uniform_cases(rng, count):
    cases = []
    for _ in range(count):
        r = rng.random()
        first = last = None
        first_arg = last_arg = None
        if r < 0.15:
            pass
        elif r < 0.3:
            first = rand_key(rng, 0, 10)
        elif r < 0.45:
            last = rand_key(rng, 0, 10)
        elif r < 0.9:
            first, last = gen_key_pair(rng)
        else:
            first_arg, last_arg = raw_key_arg(rng), raw_key_arg(rng)
            first, last = to_bytes_binary(first_arg), to_bytes_binary(last_arg)
        if first is not None and first_arg is None:
            first_arg = key_arg(rng, first)
        if last is not None and last_arg is None:
            last_arg = key_arg(rng, last)
        n = rng.choice([rand_regions(rng), rng.randint(2, 12), 1, 0]) if rng.random() < 0.2 \
            else rand_regions(rng)
        args = ["--uniform-splits", str(n)] + flag_args("--first", first_arg) + \
            flag_args("--last", last_arg)
        kw = {}
        if first is not None:
            kw["first"] = first
        if last is not None:
            kw["last"] = last
        cases.append((args, expect(uniform_split, n, **kw)))
    return cases


def build_range_cases(rng, count):
    cases = []
    for _ in range(count):
        if rng.random() < 0.1:
            sa, sb = raw_key_arg(rng), raw_key_arg(rng)
            a, b = to_bytes_binary(sa), to_bytes_binary(sb)
        else:
            a, b = gen_key_pair(rng)
            sa, sb = key_arg(rng, a), key_arg(rng, b)
        r = rng.random()
        if r < 0.1:
            n = rng.choice([0, 1, 2, 3, 3, 4])
        else:
            n = rand_regions(rng, lo=3)
        args = ["--range-splits", str(n), "--start", sa, "--end", sb]
        cases.append((args, expect(create_table_range, a, b, n)))
    return cases


def build_book_cases(rng, count, ordered=True):
    """getHexSplits cases; ordered=True keeps start < end, else start >= end only."""
    cases = []
    for _ in range(count):
        w1, w2 = rng.randint(1, 40), rng.randint(1, 40)
        x, y = rng.randint(0, 16 ** w1 - 1), rng.randint(0, 16 ** w2 - 1)
        if rng.random() < 0.25:  # narrow ranges: n around the range, duplicates
            y = x + rng.randint(1, 5)
        lo, hi = min(x, y), max(x, y)
        if ordered:
            if lo == hi:
                hi += 1
            start, end = lo, hi
        else:
            start, end = hi, lo if rng.random() < 0.8 else hi
        st = number_text(rng, start, 16, min_len=rng.randint(0, 20))
        en = number_text(rng, end, 16, min_len=rng.randint(0, 20))
        size = abs(end - start)
        n = rng.choice([rand_regions(rng, lo=1), rand_regions(rng, lo=1), 1, 2,
                        max(1, size), size + 1, rng.randint(1, 6)])
        if n > 70000 and size < MAX_REGIONS:  # n near a big range: keep the output small
            n = rand_regions(rng, lo=1)
        n = min(n, MAX_REGIONS + 1)
        cases.append((["--book-hex-splits", str(n), "--start", st, "--end", en],
                      expect(book_hex_splits, n, st, en)))
    if ordered:
        for st, en, n in (("0", "f", 0), ("-5", "5", 3), ("0", "g", 2), ("", "f", 2)):
            cases.append((["--book-hex-splits", str(n), "--start", st, "--end", en],
                          expect(book_hex_splits, n, st, en)))
    return cases


def build_partition_cases(rng, count):
    cases = []
    for _ in range(count):
        n = rng.choice([rand_regions(rng, lo=1), rng.randint(1, 300), 0, 1, 256, 257, 65537,
                        MAX_REGIONS + 1])
        cases.append((["--partition-splits", str(n)], expect(partition_splits, n)))
    return cases


def build_salt_cases(rng, count):
    cases = []
    for _ in range(count):
        width = rng.choice([None, 1, 2])
        limit = 256 if width in (None, 1) else 65536
        n = rng.choice([rng.randint(1, limit), rng.randint(1, limit), limit, limit + 1, 0, 1,
                        rng.randint(limit + 1, 2 * limit)])
        args = ["--salt-splits", str(n)] + flag_args("--salt-width", None if width is None
                                                     else str(width))
        cases.append((args, expect(salt_splits, n, width or 1)))
    return cases


# ---------------------------------------------------------------------------------------------
# Running and comparing
# ---------------------------------------------------------------------------------------------

def lines_output(keys):
    return "".join(to_string_binary(k) + "\n" for k in keys).encode()


class SplitsDifferential(hbtest.OfflineTest):
    """Random cases per algorithm, compared byte for byte with the model."""

    @classmethod
    def setUpClass(cls):
        print("\nsplits differential: seed %d (HBTAB_DIFF_SEED), %d cases per algorithm"
              % (SEED, CASES), file=sys.stderr)
        cls.home = tempfile.mkdtemp(prefix="hbtab-diff-home-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.home, ignore_errors=True)

    def rng(self, salt):
        return random.Random("%d/%s" % (SEED, salt))

    def run_case(self, args):
        return hbtest.run(["splits"] + args, home=self.home, timeout=120)

    def compare(self, case, json_too=False):
        """Return None when hbtab agrees with the model, else a description."""
        args, want = case
        got = self.run_case(args)
        cmd = "hbtab splits " + " ".join(shlex.quote(a) for a in args)
        if isinstance(want, ModelError):
            if got.rc != 2 or not got.err.startswith("hbtab: ") or got.out_bytes:
                return "%s\n  expected: exit 2, 'hbtab: ...' (model: %s)\n  got: %r" % (
                    cmd, want, got)
            return None
        exp = lines_output(want)
        if got.rc != 0 or got.out_bytes != exp:
            return "%s\n  expected (%d keys): %r\n  got: rc=%d stdout=%r stderr=%r" % (
                cmd, len(want), exp[:600], got.rc, got.out_bytes[:600], got.err[:300])
        if json_too:
            got = self.run_case(args + ["--format", "json"])
            try:
                doc = json.loads(got.out)
                entries = doc["splits"]
                keys = [base64.b64decode(e["base64"], validate=True) for e in entries]
                tsbs = [e["key"] for e in entries]
                ok = (got.rc == 0 and list(doc) == ["splits"] and keys == want
                      and tsbs == [to_string_binary(k) for k in want]
                      and all(sorted(e) == ["base64", "key"] for e in entries))
            except (ValueError, KeyError, TypeError):
                ok = False
            if not ok:
                return "%s --format json\n  expected %d keys %r\n  got: %r" % (
                    cmd, len(want), want[:5], got)
        return None

    def check_cases(self, name, cases, json_every=5):
        with ThreadPoolExecutor(max_workers=JOBS) as pool:
            results = list(pool.map(lambda ic: self.compare(ic[1], ic[0] % json_every == 0),
                                    enumerate(cases)))
        failures = [r for r in results if r is not None]
        n_err = sum(1 for _, w in cases if isinstance(w, ModelError))
        print("  %s: %d cases (%d error cases), %d mismatches" % (
            name, len(cases), n_err, len(failures)), file=sys.stderr)
        if failures:
            self.fail("%d of %d %s cases differ from the model (seed %d); first ones:\n%s" % (
                len(failures), len(cases), name, SEED, "\n".join(failures[:8])))

    # --- the model reproduces the doc's own examples (guards the oracle itself) ---------------

    def test_model__reproduces_hbase_keys_examples(self):
        self.assertEqual(bytes_split(b"AAA", b"EEE", 1)[1:-1], [b"CCC"])
        self.assertEqual(bytes_split(b"AAA", b"DDD", 2)[1:-1], [b"BBB", b"CCC"])
        self.assertEqual(bytes_split(b"http://A", b"http://z", 1)[1:-1], [b"http://]"])
        self.assertEqual(bytes_split(b"aaa", b"aab", 1)[1:-1], [b"aaa\x80"])
        self.assertEqual(bytes_split(b"a", b"b\0\0", 1)[0], b"a")
        self.assertEqual([len(k) for k in bytes_split(b"\1\1\1", b"\1\1\3", 2)], [4] * 4)
        self.assertIsInstance(expect(bytes_split, b"a", b"a\x00", 1), ModelError)
        guide = create_table_range(b"0" * 16, b"f" * 16, 10)
        self.assertEqual(to_string_binary(guide[1]), "6" + "\\xF6" * 15)
        self.assertEqual(guide[4], b"KKKKKKKKKKKKKKKH")
        self.assertEqual(to_string_binary(guide[7]), "_" + "\\x9F" * 14 + "\\x9A")
        self.assertEqual(create_table_range(b"a", b"b", 10)[0], b"a\x00")
        self.assertEqual(number_string_split(10, 16)[-1], b"e6666661")
        self.assertEqual(number_string_split(3, 16), [b"55555555", b"aaaaaaaa"])
        self.assertEqual(number_string_split(10, 16, "0" * 16, "f" * 16)[4], b"7ffffffffffffffd")
        self.assertEqual(number_string_split(7, 10)[-1], b"85714284")
        self.assertEqual(len(number_string_split(11, 16, "0", "A")), 10)
        self.assertIsInstance(expect(number_string_split, 12, 16, "0", "A"), ModelError)
        self.assertIsInstance(expect(number_string_split, 11, 10, "0", "9"), ModelError)
        self.assertEqual(uniform_split(3), [b"\x55" * 8, b"\xaa" * 8])
        self.assertEqual(uniform_split(16)[0], b"\x10" + b"\0" * 7)
        self.assertEqual(len(uniform_split(12, b"\x00", b"\x0a")[0]), 2)
        self.assertEqual(book_hex_splits(16, "00000000", "ffffffff")[0], b"000000000fffffff")
        self.assertEqual(book_hex_splits(10, "0" * 16, "f" * 16),
                         number_string_split(10, 16, "0" * 16, "f" * 16))
        self.assertEqual(to_bytes_binary("\\xff"), b"xff")
        self.assertEqual(to_bytes_binary("\\x4"), b"\\x4")
        self.assertEqual(to_bytes_binary("é€"), b"\xe9\xac")

    # --- differential runs, one per algorithm ------------------------------------------------

    def test_hex_splits__match_model_on_random_bounds_and_counts(self):
        self.check_cases("hex", build_number_cases(self.rng("hex"), 16, CASES))

    def test_decimal_splits__match_model_on_random_bounds_and_counts(self):
        self.check_cases("decimal", build_number_cases(self.rng("dec"), 10, CASES))

    def test_uniform_splits__match_model_on_random_keys_and_counts(self):
        self.check_cases("uniform", build_uniform_cases(self.rng("uniform"), CASES))

    def test_range_splits__match_model_on_random_keys_and_counts(self):
        self.check_cases("range", build_range_cases(self.rng("range"), CASES))

    def test_book_hex_splits__match_model_on_ordered_bounds(self):
        self.check_cases("book-hex", build_book_cases(self.rng("book"), CASES))

    def test_book_hex_splits__match_model_when_start_is_not_below_end(self):
        # KNOWN DISCREPANCY (kept failing on purpose): docs/hbase-keys.md 7.1 defines getHexSplits
        # with range = end - start and a truncating BigInteger division and no start < end
        # check; createTable(desc, splits) then sorts the keys (section 5).  So start == end
        # with N = 2 gives one key (the start), and start > end gives a decreasing list that
        # createTable sorts.  hbtab refuses both with "Start key must be smaller than end key",
        # a check that belongs to createTable(start, end, n) (section 4), not to the book.
        # It is also inconsistent: --start 5 --end 6 with N = 2 (inc = 0) prints
        # 0000000000000005, but --start 5 --end 5 with N = 2, which HBase turns into the same
        # single key, is refused.  Examples: N=2 start=5 end=5 -> 0000000000000005;
        # N=4 start=ff end=0 -> 0000000000000042 0000000000000081 00000000000000c0;
        # N=1 with any start > end -> no keys, exit 0.
        self.check_cases("book-hex start>=end", build_book_cases(self.rng("book-rev"), 60,
                                                                 ordered=False))

    def test_partition_splits__match_model(self):
        self.check_cases("partition", build_partition_cases(self.rng("partition"), CASES // 3))

    def test_salt_splits__match_model(self):
        self.check_cases("salt", build_salt_cases(self.rng("salt"), CASES // 3))


if __name__ == "__main__":
    hbtest.main()
