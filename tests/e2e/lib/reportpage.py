"""The page `hbtab report` writes, looked at as a person would (test_report.py,
test_backend_report.py): the colours of its key-space bar, where each region's column lies
on it, and a screenshot's colour at each region's place."""
import re

from lib import htmlpage

RED, GREEN = htmlpage.rgb("#d7263d"), htmlpage.rgb("#3a9d5d")
FLAGGED = {htmlpage.rgb(c) for c in ("#d7263d", "#7b4fc9", "#3d3d3d", "#f28c28", "#e8c547")}


def map_geometry(text):
    m = re.search(r'<svg id="map"[^>]*data-x0="(\d+)" data-w="(\d+)" data-min-w="(\d+)" '
                  r'data-bar-y="(\d+)" data-bar-h="(\d+)"', text)
    assert m, "no key-space map in the page"
    return tuple(int(v) for v in m.groups())


def expected_columns(regions, x0, width, min_w):
    """The page's x (CSS px, from the svg's left edge) of each region's middle, from the
    audit's shares: a region narrower than min_w is drawn min_w wide, centred, inside the bar."""
    out, at = [], 0.0
    for r in regions:
        p, w = at * width, r["share"] * width
        if w < min_w:
            p, w = p + w / 2 - min_w / 2, min_w
        p = min(max(p, 0), width - w)
        out.append(x0 + p + w / 2)
        at += r["share"]
    return out


class PageChecks:
    def sound(self, path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        problems, words = htmlpage.check_page(text)
        self.assertEqual(problems, [], path)
        return text, words

    def bar_row(self, img, columns, svg_left):
        """The screenshot row through the middle of the bar: the first row, going down the
        column of a reachable region, in the reachable colour."""
        x = int(svg_left + columns)
        for y in range(img.height):
            if img.pixel(x, y) == GREEN:
                return y + 10
        self.fail("no reachable colour in column %d" % x)

    def look(self, page, regions, reachable_index):
        """Renders page and returns, for each region, the colour at the middle of its place."""
        png = page + ".png"
        img = htmlpage.screenshot(page, png)
        with open(page, encoding="utf-8") as f:
            x0, width, min_w, _, _ = map_geometry(f.read())
        cols = expected_columns(regions, x0, width, min_w)
        left = 16  # the page's padding: the svg starts at the body's left edge
        y = self.bar_row(img, cols[reachable_index], left)
        # not blank: text, the legend and the bar in several colours
        self.assertGreater(len(img.colours()), 20)
        return img, [img.pixel(int(left + c), y) for c in cols], y
