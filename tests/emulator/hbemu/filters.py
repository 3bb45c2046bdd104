"""HBase scan filters as the REST gateway receives them: the scanner model's filter JSON
(ScannerModel.FilterModel) and the stateless scan's filter language (ParseFilter).

Each filter follows the calls a region scanner makes (see NOTES.md for the HBase files):
reset() per row, filter_all_remaining(), filter_row_key(row), filter_cell(cell) returning
INCLUDE / SKIP / NEXT_ROW with transform(cell) for included cells, and filter_row()."""
import base64
import json
import random
import re
import struct

INCLUDE, SKIP, NEXT_ROW = "INCLUDE", "SKIP", "NEXT_ROW"

COMPARE_OPS = ("LESS", "LESS_OR_EQUAL", "EQUAL", "NOT_EQUAL", "GREATER_OR_EQUAL", "GREATER",
               "NO_OP")


class FilterError(ValueError):
    """A filter the gateway would refuse (HTTP 400)."""


def _cmp(a, b):
    return (a > b) - (a < b)


# ---------------------------------------------------------------- comparators

class BinaryComparator(object):
    def __init__(self, value):
        self.value = value

    def compare_to(self, data):
        return _cmp(self.value, data)


class BinaryPrefixComparator(BinaryComparator):
    def compare_to(self, data):
        return _cmp(self.value, data[:len(self.value)])


class RegexStringComparator(object):
    """Java's Pattern with DOTALL, find() anywhere in the value decoded as UTF-8."""

    def __init__(self, expr):
        try:
            self.rx = re.compile(expr, re.DOTALL)
        except re.error as e:
            raise FilterError("bad regex: %s" % e)

    def compare_to(self, data):
        return 0 if self.rx.search(data.decode("utf-8", "replace")) else 1


class SubstringComparator(object):
    """Case-insensitive: both sides lower-cased (Locale.ROOT)."""

    def __init__(self, sub):
        self.sub = sub.lower()

    def compare_to(self, data):
        return 0 if self.sub in data.decode("utf-8", "replace").lower() else 1


def compare(op, result):
    """CompareFilter.compare: True means the cell (or row) is filtered out."""
    if op == "LESS":
        return result <= 0
    if op == "LESS_OR_EQUAL":
        return result < 0
    if op == "EQUAL":
        return result != 0
    if op == "NOT_EQUAL":
        return result == 0
    if op == "GREATER_OR_EQUAL":
        return result > 0
    if op == "GREATER":
        return result >= 0
    return True  # NO_OP


# ---------------------------------------------------------------- filters

class Filter(object):
    reversed = False   # Filter.setReversed: a reversed scan walks rows downwards

    def reset(self):
        pass

    def filter_all_remaining(self):
        return False

    def filter_row_key(self, row):
        return False

    def filter_cell(self, cell):
        return INCLUDE

    def transform(self, cell):
        return cell

    def filter_row(self):
        return False


class PrefixFilter(Filter):
    def __init__(self, prefix):
        self.prefix = prefix
        self.passed = False
        self.out = False

    def reset(self):
        self.out = False

    def filter_all_remaining(self):
        return self.passed

    def filter_row_key(self, row):
        if len(row) < len(self.prefix):
            self.out = True
            return True
        c = _cmp(row[:len(self.prefix)], self.prefix)
        if (c > 0 and not self.reversed) or (c < 0 and self.reversed):
            self.passed = True
        self.out = c != 0
        return self.out

    def filter_cell(self, cell):
        return NEXT_ROW if self.out else INCLUDE

    def filter_row(self):
        return self.out


class PageFilter(Filter):
    def __init__(self, size):
        self.size = size
        self.accepted = 0

    def filter_all_remaining(self):
        return self.accepted >= self.size

    def filter_row_key(self, row):
        return self.filter_all_remaining()

    def filter_row(self):
        self.accepted += 1
        return self.accepted > self.size


class FirstKeyOnlyFilter(Filter):
    def __init__(self):
        self.found = False

    def reset(self):
        self.found = False

    def filter_cell(self, cell):
        if self.found:
            return NEXT_ROW
        self.found = True
        return INCLUDE


class KeyOnlyFilter(Filter):
    def __init__(self, len_as_val=False):
        self.len_as_val = len_as_val

    def transform(self, cell):
        f, q, ts, v = cell
        return (f, q, ts, struct.pack(">i", len(v)) if self.len_as_val else b"")


class RandomRowFilter(Filter):
    rng = random.Random()

    def __init__(self, chance):
        self.chance = chance
        self.out = False

    def reset(self):
        self.out = False

    def filter_row_key(self, row):
        if self.chance < 0:
            self.out = True
        elif self.chance > 1:
            self.out = False
        else:
            self.out = not (self.rng.random() < self.chance)
        return self.out

    def filter_cell(self, cell):
        return NEXT_ROW if self.out else INCLUDE

    def filter_row(self):
        return self.out


class InclusiveStopFilter(Filter):
    def __init__(self, stop):
        self.stop = stop
        self.done = False

    def filter_all_remaining(self):
        return self.done

    def filter_row_key(self, row):
        c = _cmp(self.stop, row)
        self.done = c > 0 if self.reversed else c < 0
        return self.done

    def filter_cell(self, cell):
        return NEXT_ROW if self.done else INCLUDE


class RowFilter(Filter):
    def __init__(self, op, comparator):
        self.op, self.comparator = op, comparator
        self.out = False

    def reset(self):
        self.out = False

    def filter_row_key(self, row):
        self.out = compare(self.op, self.comparator.compare_to(row))
        return self.out

    def filter_cell(self, cell):
        return NEXT_ROW if self.out else INCLUDE

    def filter_row(self):
        return self.out


class ValueFilter(Filter):
    def __init__(self, op, comparator):
        self.op, self.comparator = op, comparator

    def filter_cell(self, cell):
        return SKIP if compare(self.op, self.comparator.compare_to(cell[3])) else INCLUDE


class QualifierFilter(ValueFilter):
    def filter_cell(self, cell):
        return SKIP if compare(self.op, self.comparator.compare_to(cell[1])) else INCLUDE


class SingleColumnValueFilter(Filter):
    """A row is in when its family:qualifier cell passes the comparison; a row without
    that cell is in unless filter_if_missing. With latest_version_only (the default), the
    scan moves to the next row at the first version that fails; the cells before it were
    included, and filter_row then drops the whole row."""

    def __init__(self, family, qualifier, op, comparator, filter_if_missing=False,
                 latest_version_only=True):
        self.family, self.qualifier = family, qualifier
        self.op, self.comparator = op, comparator
        self.filter_if_missing = filter_if_missing
        self.latest_version_only = latest_version_only
        self.found = self.matched = False

    def reset(self):
        self.found = self.matched = False

    def filter_cell(self, cell):
        if self.matched:
            return INCLUDE
        if self.latest_version_only and self.found:
            return NEXT_ROW
        if (cell[0], cell[1]) != (self.family, self.qualifier):
            return INCLUDE
        self.found = True
        if compare(self.op, self.comparator.compare_to(cell[3])):
            return NEXT_ROW if self.latest_version_only else INCLUDE
        self.matched = True
        return INCLUDE

    def filter_row(self):
        return not self.matched if self.found else self.filter_if_missing


class FilterList(Filter):
    """MUST_PASS_ALL (FilterListWithAND): every sub-filter sees every row key and cell; the
    largest step wins. MUST_PASS_ONE (FilterListWithOR): a row is out only when every
    sub-filter drops it; a cell is in when one sub-filter still in the row includes it."""

    def __init__(self, op, filters):
        if op not in ("MUST_PASS_ALL", "MUST_PASS_ONE"):
            raise FilterError("bad FilterList operator %r" % (op,))
        self.all = op == "MUST_PASS_ALL"
        self.filters = filters
        self.active = list(filters)

    def reset(self):
        for f in self.filters:
            f.reset()
        self.active = list(self.filters)

    def filter_all_remaining(self):
        if not self.filters:
            return False
        done = [f.filter_all_remaining() for f in self.filters]
        return any(done) if self.all else all(done)

    def filter_row_key(self, row):
        if not self.filters:
            return False
        outs = [f.filter_all_remaining() or f.filter_row_key(row) for f in self.filters]
        if self.all:
            return any(outs)
        self.active = [f for f, o in zip(self.filters, outs) if not o]
        return not self.active

    def filter_cell(self, cell):
        self._transformers = []
        if not self.filters:
            return INCLUDE
        if self.all:
            rc = INCLUDE
            for f in self.filters:
                if f.filter_all_remaining():
                    return NEXT_ROW
                local = f.filter_cell(cell)
                if local == NEXT_ROW:
                    rc = NEXT_ROW
                elif local == SKIP and rc == INCLUDE:
                    rc = SKIP
                if local == INCLUDE:
                    self._transformers.append(f)
            return rc
        codes = []
        for f in self.active:
            if f.filter_all_remaining():
                codes.append(NEXT_ROW)
                continue
            local = f.filter_cell(cell)
            codes.append(local)
            if local == INCLUDE:
                self._transformers.append(f)
        if INCLUDE in codes:
            return INCLUDE
        if codes and all(c == NEXT_ROW for c in codes):
            return NEXT_ROW
        return SKIP

    def transform(self, cell):
        for f in getattr(self, "_transformers", []):
            cell = f.transform(cell)
        return cell

    def filter_row(self):
        if not self.filters:
            return False
        if self.all:
            return any([f.filter_row() for f in self.filters])
        return all([f.filter_row() for f in self.active]) if self.active else True


def set_reversed(f):
    """Scan.setReversed passes the flag down to every filter of a FilterList."""
    f.reversed = True
    for sub in getattr(f, "filters", []):
        set_reversed(sub)
    return f


def apply(f, key, cells):
    """Runs one row through filter f the way a region scanner does. Returns the cells to
    send (possibly transformed), or None when the row is left out."""
    f.reset()
    if f.filter_row_key(key):
        return None
    out = []
    for c in cells:
        rc = f.filter_cell(c)
        if rc == INCLUDE:
            out.append(f.transform(c))
        elif rc == NEXT_ROW:
            break
    if f.filter_row():
        return None
    return out or None


# ---------------------------------------------------------------- the JSON model

def _b64(d, field):
    v = d.get(field)
    if v is None:
        raise FilterError("missing %s" % field)
    try:
        return base64.b64decode(v, validate=True)
    except Exception:
        raise FilterError("bad base64 in %s" % field)


def _comparator(d):
    if not isinstance(d, dict):
        raise FilterError("missing comparator")
    t = d.get("type")
    if t == "BinaryComparator":
        return BinaryComparator(_b64(d, "value"))
    if t == "BinaryPrefixComparator":
        return BinaryPrefixComparator(_b64(d, "value"))
    if t == "RegexStringComparator":
        return RegexStringComparator(str(d.get("value")))
    if t == "SubstringComparator":
        return SubstringComparator(str(d.get("value")))
    raise FilterError("unsupported comparator %r" % (t,))


def _op(d):
    op = d.get("op")
    if op not in COMPARE_OPS:
        raise FilterError("bad compare operator %r" % (op,))
    return op


def from_model(d):
    """Builds a filter from a FilterModel (already decoded from JSON)."""
    if not isinstance(d, dict):
        raise FilterError("a filter is a JSON object")
    t = d.get("type")
    if t == "FilterList":
        subs = d.get("filters")
        if not isinstance(subs, list):
            raise FilterError("FilterList needs filters")
        return FilterList(d.get("op"), [from_model(x) for x in subs])
    if t == "PrefixFilter":
        return PrefixFilter(_b64(d, "value"))
    if t == "PageFilter":
        try:
            return PageFilter(int(str(d.get("value"))))
        except ValueError:
            raise FilterError("PageFilter value is a long")
    if t == "FirstKeyOnlyFilter":
        return FirstKeyOnlyFilter()
    if t == "KeyOnlyFilter":
        return KeyOnlyFilter()
    if t == "RandomRowFilter":
        ch = d.get("chance")
        if isinstance(ch, bool) or not isinstance(ch, (int, float)):
            raise FilterError("RandomRowFilter needs a float chance")
        return RandomRowFilter(float(ch))
    if t == "InclusiveStopFilter":
        return InclusiveStopFilter(_b64(d, "value"))
    if t in ("RowFilter", "ValueFilter", "QualifierFilter"):
        cls = {"RowFilter": RowFilter, "ValueFilter": ValueFilter,
               "QualifierFilter": QualifierFilter}[t]
        return cls(_op(d), _comparator(d.get("comparator")))
    raise FilterError("unsupported filter type %r" % (t,))


def parse_model(text):
    """ScannerModel.filter: a string holding the FilterModel's JSON. A factory is returned
    so that each region gets its own filter instance, as each region server does."""
    if text is None or text == "":
        return None
    if not isinstance(text, str):
        raise FilterError("the scanner's filter is a string of JSON")
    try:
        d = json.loads(text)
    except ValueError:
        raise FilterError("filter is not JSON")
    from_model(d)  # refuse bad filters when the scanner is created
    return lambda: from_model(d)


# ---------------------------------------------------------------- the filter language

_OPS = {b"<": "LESS", b"<=": "LESS_OR_EQUAL", b"=": "EQUAL", b"!=": "NOT_EQUAL",
        b">=": "GREATER_OR_EQUAL", b">": "GREATER"}


def _unquote(arg):
    if len(arg) < 2 or arg[:1] != b"'" or arg[-1:] != b"'":
        raise FilterError("expected a quoted argument")
    return arg[1:-1]


def _lang_comparator(arg):
    body = _unquote(arg)
    i = body.find(b":")
    if i < 0:
        raise FilterError("Incorrect comparator")
    t, v = body[:i], body[i + 1:]
    if t == b"binary":
        return BinaryComparator(v)
    if t == b"binaryprefix":
        return BinaryPrefixComparator(v)
    if t == b"regexstring":
        return RegexStringComparator(v.decode("utf-8", "replace"))
    if t == b"substring":
        return SubstringComparator(v.decode("utf-8", "replace"))
    raise FilterError("Incorrect comparatorType")


def _long(arg):
    if not re.match(rb"^-?[0-9]+$", arg):
        raise FilterError("Byte Array should only contain digits")
    return int(arg)


def _bool(arg):
    if arg.lower() == b"true":
        return True
    if arg.lower() == b"false":
        return False
    raise FilterError("Incorrect Boolean Expression")


def _simple(name, args):
    """createFilterFromArguments of each filter ParseFilter registers (those we model)."""
    def nargs(n):
        if len(args) != n:
            raise FilterError("%s expects %d arguments" % (name, n))
    if name == "KeyOnlyFilter":
        if len(args) not in (0, 1):
            raise FilterError("KeyOnlyFilter expects 0 or 1 arguments")
        return KeyOnlyFilter(_bool(args[0]) if args else False)
    if name == "FirstKeyOnlyFilter":
        nargs(0)
        return FirstKeyOnlyFilter()
    if name == "PrefixFilter":
        nargs(1)
        return PrefixFilter(_unquote(args[0]))
    if name == "PageFilter":
        nargs(1)
        return PageFilter(_long(args[0]))
    if name == "InclusiveStopFilter":
        nargs(1)
        return InclusiveStopFilter(_unquote(args[0]))
    if name in ("RowFilter", "ValueFilter", "QualifierFilter"):
        nargs(2)
        op = _OPS.get(args[0])
        if op is None:
            raise FilterError("Invalid compare operator")
        cls = {"RowFilter": RowFilter, "ValueFilter": ValueFilter,
               "QualifierFilter": QualifierFilter}[name]
        return cls(op, _lang_comparator(args[1]))
    if name == "SingleColumnValueFilter":
        if len(args) not in (4, 6):
            raise FilterError("Expected 4 or 6 but got: %d" % len(args))
        op = _OPS.get(args[2])
        if op is None:
            raise FilterError("Invalid compare operator")
        comparator = _lang_comparator(args[3])
        if (isinstance(comparator, (RegexStringComparator, SubstringComparator)) and
                op not in ("EQUAL", "NOT_EQUAL")):
            raise FilterError("A regexstring comparator and substring comparator can only "
                              "be used with EQUAL and NOT_EQUAL")
        extra = (_bool(args[4]), _bool(args[5])) if len(args) == 6 else ()
        return SingleColumnValueFilter(_unquote(args[0]), _unquote(args[1]), op, comparator,
                                       *extra)
    raise FilterError("Filter Name %s not supported" % name)


def _extract_simple(s, i):
    """extractFilterSimpleExpression: up to the first ')' outside quotes ('' escapes ')."""
    quotes = 0
    j = i
    while j < len(s):
        if s[j:j + 1] == b"'":
            if j + 1 < len(s) and s[j + 1:j + 2] == b"'":
                j += 2
                continue
            quotes += 1
        if s[j:j + 1] == b")" and quotes % 2 == 0:
            return s[i:j + 1]
        j += 1
    raise FilterError("Incorrect Filter String")


def _arguments(expr):
    """getFilterArguments: quoted arguments keep their quotes, '' unescaped to '."""
    i = expr.find(b"(")
    if i < 0:
        raise FilterError("Incorrect argument list")
    args = []
    j = i + 1
    n = len(expr)
    while j < n:
        c = expr[j:j + 1]
        if c in (b" ", b",", b")"):
            j += 1
            continue
        if c == b"'":
            k = j + 1
            buf = b"'"
            while True:
                if k >= n:
                    raise FilterError("Incorrect argument list")
                if expr[k:k + 1] == b"'":
                    if k + 1 < n and expr[k + 1:k + 2] == b"'":
                        buf += b"'"
                        k += 2
                        continue
                    buf += b"'"
                    break
                buf += expr[k:k + 1]
                k += 1
            args.append(buf)
            j = k + 1
        else:
            k = j
            while k < n and expr[k:k + 1] not in (b" ", b",", b")"):
                k += 1
            if k >= n:
                raise FilterError("Incorrect argument list")
            args.append(expr[j:k])
            j = k
    return args


def _kw(s, i, word, need_before):
    w = len(word)
    if s[i:i + w] != word:
        return False
    before = s[i - 1:i] if i > 0 else None
    after = s[i + w:i + w + 1]
    if before is None:
        if need_before:
            return False
    elif before not in (b" ", b")") + ((b"(",) if not need_before else ()):
        return False
    return after in (b" ", b"(")


_PREC = {"SKIP": 1, "WHILE": 1, "AND": 2, "OR": 3}


def _pop(ops, filters):
    top = ops[-1]
    if top in ("OR", "AND"):
        group = []
        try:
            while ops and ops[-1] == top:
                group.insert(0, filters.pop())
                ops.pop()
            group.insert(0, filters.pop())
        except IndexError:
            raise FilterError("Incorrect input string - an %s needs two filters" % top)
        return FilterList("MUST_PASS_ONE" if top == "OR" else "MUST_PASS_ALL", group)
    if top in ("SKIP", "WHILE"):
        raise FilterError("%s is not modelled by the emulator" % top)
    if top == "(":
        try:
            f = filters.pop()
        except IndexError:
            raise FilterError("Incorrect Filter String")
        ops.pop()
        return f
    raise FilterError("Incorrect arguments on operatorStack")


def parse_language(text):
    """ParseFilter.parseFilterString: simple expressions joined by AND / OR (OR binds
    loosest), parentheses; quoted arguments with '' for a quote. Returns a factory."""
    s = text.encode("utf-8") if isinstance(text, str) else text
    ops, filters = [], []
    i = 0
    while i < len(s):
        c = s[i:i + 1]
        if c == b"(":
            ops.append("(")
        elif c in (b" ", b"\t"):
            pass
        elif _kw(s, i, b"OR", True):
            i += 1
            while ops and ops[-1] != "(" and _PREC[ops[-1]] < _PREC["OR"]:
                filters.append(_pop(ops, filters))
            ops.append("OR")
        elif _kw(s, i, b"AND", True):
            i += 2
            while ops and ops[-1] != "(" and _PREC[ops[-1]] < _PREC["AND"]:
                filters.append(_pop(ops, filters))
            ops.append("AND")
        elif _kw(s, i, b"SKIP", False) or _kw(s, i, b"WHILE", False):
            raise FilterError("SKIP and WHILE are not modelled by the emulator")
        elif c == b")":
            if not ops:
                raise FilterError("Mismatched parenthesis")
            if ops[-1] == "(":
                ops.pop()
            else:
                while ops[-1] != "(":
                    filters.append(_pop(ops, filters))
                    if not ops:
                        raise FilterError("Mismatched parenthesis")
                ops.pop()
        else:
            expr = _extract_simple(s, i)
            i += len(expr) - 1
            m = re.match(rb"^([^( ]+)[( ]", expr)
            if not m:
                raise FilterError("Incorrect Filter Name")
            filters.append(("simple", m.group(1).decode("utf-8", "replace"), _arguments(expr)))
        i += 1
    while ops:
        filters.append(_pop(ops, filters))
    if len(filters) != 1:
        raise FilterError("Incorrect Filter String")
    tree = filters[0]
    build(tree)  # refuse bad filters up front

    return lambda: build(tree)


def build(node):
    """Instantiates a parsed tree (simple expressions are kept as tuples, lists as
    FilterList templates) into fresh filter objects."""
    if isinstance(node, tuple):
        return _simple(node[1], node[2])
    if isinstance(node, FilterList):
        return FilterList("MUST_PASS_ALL" if node.all else "MUST_PASS_ONE",
                          [build(x) for x in node.filters])
    raise FilterError("Incorrect Filter String")
