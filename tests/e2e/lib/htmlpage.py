"""What a person sees of an HTML page hbtab wrote: the page rendered by headless Chromium
(Debian's chromium) into a PNG screenshot, read back with a small PNG decoder (zlib only), and
the page's markup checked strictly with html.parser (every element closed in order, nothing
fetched from anywhere)."""
import html.parser
import os
import shutil
import struct
import subprocess
import tempfile
import zlib

GUARD = 180  # seconds: a hang guard only


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    raise AssertionError("chromium is not installed (scripts/dev.sh installs it)")


def screenshot(page, png, width=1280, height=480):
    """Renders the file page at width x height CSS pixels (device scale 1) into png."""
    if os.path.exists(png):
        os.unlink(png)  # a screenshot left from before is not this page's
    profile = tempfile.mkdtemp(prefix="hbtab-chromium-")
    try:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": profile,
               "LANG": "C.UTF-8"}
        p = subprocess.run([chromium(), "--headless=new", "--no-sandbox", "--disable-gpu",
                            "--hide-scrollbars", "--force-device-scale-factor=1",
                            "--user-data-dir=" + profile, "--no-first-run",
                            "--window-size=%d,%d" % (width, height), "--screenshot=" + png,
                            "file://" + os.path.abspath(page)],
                           capture_output=True, text=True, env=env, timeout=GUARD)
        if p.returncode != 0 or not os.path.exists(png):
            raise AssertionError("chromium failed (%d): %s" % (p.returncode, p.stderr[-2000:]))
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return read_png(png)


class Image:
    def __init__(self, width, height, rows, channels):
        self.width, self.height, self.rows, self.channels = width, height, rows, channels

    def pixel(self, x, y):
        row, c = self.rows[y], self.channels
        return tuple(row[x * c:x * c + 3])

    def colours(self):
        out = set()
        for y in range(0, self.height, 4):
            for x in range(0, self.width, 4):
                out.add(self.pixel(x, y))
        return out


def read_png(path):
    """An 8-bit RGB or RGBA, non-interlaced PNG as rows of bytes."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError("%s is not a PNG" % path)
    pos, idat, head = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    width, height, depth, ctype, _, _, interlace = head
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise AssertionError("unexpected PNG format %r" % (head,))
    c = 3 if ctype == 2 else 4
    raw, stride = zlib.decompress(b"".join(idat)), width * c
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ftype == 2:  # Up, the common case: bytewise sums mod 256 on whole rows at once
            line = bytearray(add_bytes(bytes(line), bytes(prev)))
            ftype = 0
        for i in range(stride if ftype else 0):
            a = line[i - c] if i >= c else 0
            b, cc = prev[i], prev[i - c] if i >= c else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - cc
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else cc)) & 255
        rows.append(bytes(line))
        prev = line
    return Image(width, height, rows, c)


def add_bytes(a, b):
    """Each byte of a plus the same byte of b, mod 256, as big-integer arithmetic."""
    n = len(a)
    low, high = int.from_bytes(b"\x7f" * n, "big"), int.from_bytes(b"\x80" * n, "big")
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return (((x & low) + (y & low)) ^ ((x ^ y) & high)).to_bytes(n, "big")


def rgb(hexcolour):
    return tuple(int(hexcolour[i:i + 2], 16) for i in (1, 3, 5))


VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr", "area", "base", "source"}
SVG_SELF_CLOSING = {"rect", "line", "path", "circle", "polyline", "polygon"}


class StrictPage(html.parser.HTMLParser):
    """Collects what a strict reading finds wrong: an element closed out of order or left
    open, an end tag with no start, a script, a reference to anything outside the page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.problems, self.text, self.ids = [], [], [], {}
        self.doctype = False

    def handle_decl(self, decl):
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        self.check(tag, attrs)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.check(tag, attrs)
        if tag not in VOID and tag not in SVG_SELF_CLOSING:
            self.problems.append("<%s/> at %r is not an element that may close itself"
                                 % (tag, self.getpos()))

    def check(self, tag, attrs):
        if tag in ("script", "iframe", "object", "embed", "link", "img"):
            self.problems.append("<%s> at %r" % (tag, self.getpos()))
        for k, v in attrs:
            if k in ("src", "href", "xlink:href") or (v and "url(" in v):
                self.problems.append("reference %s=%r at %r" % (k, v, self.getpos()))
            if k == "id":
                if v in self.ids:
                    self.problems.append("duplicate id %r" % v)
                self.ids[v] = tag

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.problems.append("</%s> at %r closes %r" % (tag, self.getpos(),
                                                            self.stack[-1] if self.stack else None))
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)
        if "url(" in data or "@import" in data:
            self.problems.append("a fetch in text or style at %r" % (self.getpos(),))


def check_page(text):
    """The problems of a page (empty when it is sound) and its text."""
    p = StrictPage()
    p.feed(text)
    p.close()
    problems = list(p.problems)
    if not p.doctype:
        problems.append("no <!DOCTYPE html>")
    if p.stack:
        problems.append("left open: %r" % p.stack)
    return problems, "".join(p.text)
