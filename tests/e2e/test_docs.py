"""Man pages and completions stay in step with the option tables that parse the command line."""
import os
import re
import subprocess
import shutil

import hbtest

MAN = os.path.join(hbtest.SRC, "man")


def commands():
    r = hbtest.run(["__complete"])
    return [c for c in r.out.split("\n") if c and c != "help"]


def usage_lines(cmd):
    r = hbtest.run([cmd, "--help"])
    assert r.rc == 0, repr(r)
    out = []
    for line in r.out.split("\n"):
        m = re.match(r"^(usage:|   or:) (hbtab .*)$", line)
        if m:
            out.append(m.group(2))
    return out


def man_text(name):
    with open(os.path.join(MAN, name), encoding="utf-8") as f:
        return f.read()


def unroff(text):
    text = text.replace("\\-", "-").replace("\\e", "\\").replace("\\(aq", "'").replace("\\&", "")
    text = re.sub(r"\\f[BIRP]", "", text)
    return text


def synopsis(text):
    m = re.search(r"^\.SH SYNOPSIS\n(.*?)(?=^\.SH )", text, re.S | re.M)
    if not m:
        return None
    lines = []
    for line in m.group(1).split("\n"):
        if not line or line.startswith("."):
            continue
        lines.append(unroff(line).strip())
    return lines


class ManPages(hbtest.OfflineTest):
    def test_docs__every_command_has_a_man_page(self):
        for cmd in commands():
            self.assertTrue(os.path.exists(os.path.join(MAN, "hbtab-%s.1" % cmd)),
                            "man/hbtab-%s.1 is missing" % cmd)

    def test_docs__synopsis_matches_help_usage(self):
        for cmd in commands():
            path = os.path.join(MAN, "hbtab-%s.1" % cmd)
            if not os.path.exists(path):
                continue
            self.assertEqual(synopsis(man_text("hbtab-%s.1" % cmd)), usage_lines(cmd),
                             "SYNOPSIS of hbtab-%s.1 drifted from 'hbtab %s --help'" % (cmd, cmd))

    def test_docs__every_option_is_documented(self):
        for cmd in commands():
            path = os.path.join(MAN, "hbtab-%s.1" % cmd)
            if not os.path.exists(path):
                continue
            # Global options live in hbtab(1), the split-specification group in hbtab-splits(1).
            page = "".join(unroff(man_text(n)) for n in ("hbtab-%s.1" % cmd, "hbtab.1", "hbtab-splits.1"))
            r = hbtest.run(["__complete", cmd])
            for line in r.out.split("\n"):
                if not line:
                    continue
                opt = line.split("\t")[0]
                self.assertTrue(re.search(re.escape(opt) + r"\b", page),
                                "%s of 'hbtab %s' is not in its man page" % (opt, cmd))

    def test_docs__main_page_lists_every_command_and_exit_status(self):
        page = unroff(man_text("hbtab.1"))
        for cmd in commands():
            self.assertRegex(page, r"\b%s\b" % re.escape(cmd))
        for section in ("EXIT STATUS", "ENVIRONMENT", "FILES"):
            self.assertIn(".SH %s" % section, man_text("hbtab.1"))
        for code in range(6):
            self.assertRegex(page, r"(?m)^\.IP %d\b|^\.TP\n\.B %d\b|^%d\b" % (code, code, code))

    def test_docs__man_pages_render_without_warnings(self):
        if not shutil.which("groff"):
            self.skipTest("groff not installed")
        for name in sorted(os.listdir(MAN)):
            p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", os.path.join(MAN, name)],
                               capture_output=True, text=True)
            self.assertEqual(p.stderr, "", name)


SOURCE_DIRS = ("cli", "core", "rest", "tests", "scripts", "man", "completions", "docs")
SOURCE_EXT = (".c", ".h", ".py", ".rb", ".sh", ".md", ".1", ".txt", ".bash", ".zsh", ".fish")


def source_files():
    for top in SOURCE_DIRS:
        for root, dirs, files in os.walk(os.path.join(hbtest.SRC, top)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "gen")]
            for name in files:
                if name.endswith(SOURCE_EXT) or name == "hbase-shell":
                    yield os.path.join(root, name)
    for name in ("README.md", "CMakeLists.txt"):
        yield os.path.join(hbtest.SRC, name)


def doc_sections(path):
    """Section numbers ("3", "6.4", "8.1") of the headings of a docs/ file."""
    with open(path, encoding="utf-8") as f:
        return set(re.findall(r"^#+ (\d+(?:\.\d+)*)\.? ", f.read(), re.M))


class References(hbtest.OfflineTest):
    """Every "see docs/X.md §N" in code, tests and docs names a file and section that exist
    in the repository, and nothing points outside it for its authority."""

    def test_docs__references_name_existing_files_and_sections(self):
        bad = []
        sections = {}
        ref = re.compile(r"(?:docs/)?(hbase-(?:wire|keys)\.md)((?:[ ,]*(?:§|section )\d+(?:\.\d+)*"
                         r"(?:-§?\d+(?:\.\d+)*)?)*)")
        for path in source_files():
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in ref.finditer(text):
                doc = os.path.join(hbtest.SRC, "docs", m.group(1))
                if not os.path.exists(doc):
                    bad.append("%s: %s does not exist" % (path, m.group(1)))
                    continue
                have = sections.setdefault(doc, doc_sections(doc))
                for num in re.findall(r"\d+(?:\.\d+)*", m.group(2)):
                    if num not in have:
                        bad.append("%s: %s has no section %s" % (path, m.group(1), num))
        self.assertEqual(bad, [])

    def test_docs__nothing_points_outside_the_repository(self):
        bad = []
        outside = re.compile("|".join(re.escape(p) for p in ("../" + "shared", "shared" + "/docs",
                                                            "shared" + "/seeds")))
        for path in source_files():
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    if outside.search(line):
                        bad.append("%s:%d: %s" % (path, n, line.strip()))
        self.assertEqual(bad, [])


class Frame(hbtest.OfflineTest):
    def test_cli__version_prints_name_and_version(self):
        r = self.hb("--version")
        self.assertOk(r)
        self.assertRegex(r.out, r"^hbtab \d+\.\d+\.\d+\n$")

    def test_cli__unknown_command_is_a_usage_error(self):
        self.assertFails(self.hb("frobnicate"), 2, r"unknown command 'frobnicate'")

    def test_cli__no_command_is_a_usage_error(self):
        self.assertFails(self.hb(), 2, r"no command given")

    def test_cli__unknown_option_names_the_option(self):
        self.assertFails(self.hb("splits", "--bogus"), 2, r"unknown option '--bogus'")

    def test_cli__missing_option_value_is_reported(self):
        self.assertFails(self.hb("tables", "--rest"), 2, r"option '--rest' needs a value")

    def test_cli__bad_choice_is_reported(self):
        self.assertFails(self.hb("-o", "yaml", "tables"), 2, r"invalid value 'yaml' for --output")

    def test_cli__help_command_shows_command_usage(self):
        r = self.hb("help", "splits")
        self.assertOk(r)
        self.assertIn("usage: hbtab splits", r.out)

    def test_cli__help_for_unknown_command_fails(self):
        self.assertFails(self.hb("help", "nope"), 2, r"unknown command 'nope'")

    def test_cli__main_help_lists_commands(self):
        r = self.hb("--help")
        self.assertOk(r)
        for cmd in commands():
            self.assertIn(cmd, r.out)

    def test_cli__control_bytes_in_messages_are_escaped(self):
        r = self.hb("regions", "a\x1b[31mb")
        self.assertFails(r, 2, r"'a\\x1B\[31mb'")
        self.assertNotIn("\x1b", r.err)

    def test_config__bad_timeout_is_rejected(self):
        self.assertFails(self.hb("--timeout", "0", "tables"), 2, r"--timeout")

    def test_config__cert_without_key_is_rejected(self):
        self.assertFails(self.hb("--cert", "/x", "tables"), 2, r"--cert and --key")

    def test_config__password_in_config_file_is_refused(self):
        home = self._tmp_home("[default]\npassword = hunter2\n")
        r = hbtest.run(["tables"], home=home)
        self.assertFails(r, 2, r"passwords are not read from the config file")
        self.assertNotIn("hunter2", r.err)

    def test_config__unknown_profile_is_reported(self):
        home = self._tmp_home("[default]\nrest = http://127.0.0.1:1\n")
        self.assertFails(hbtest.run(["--profile", "prod", "tables"], home=home), 2,
                         r"profile 'prod' not found")

    def test_config__unknown_setting_names_file_and_line(self):
        home = self._tmp_home("[default]\n\nbogus = 1\n")
        self.assertFails(hbtest.run(["tables"], home=home), 2, r"config:3: unknown setting 'bogus'")

    def _tmp_home(self, config):
        import tempfile
        home = tempfile.mkdtemp(prefix="hbtab-home-")
        self.addCleanup(shutil.rmtree, home, True)
        os.makedirs(os.path.join(home, ".config", "hbtab"))
        with open(os.path.join(home, ".config", "hbtab", "config"), "w") as f:
            f.write(config)
        return home


if __name__ == "__main__":
    hbtest.main()
