"""The command frame: every command is declared by a descriptor and run through one prologue
(parse, help/completion, configuration, argument checks, connection), exit statuses by name."""
import glob
import os
import re
import tempfile
import unittest

import hbtest

CLI = os.path.join(hbtest.SRC, "cli")

# No reachable server: a command that sent anything would fail with exit 3 (network).
DEAD_REST = ["--rest", "http://127.0.0.1:9", "--timeout", "2", "--retries", "0"]

# An exit status written as a number instead of a CLI_EXIT_* name. "return 0;" and
# "return 1;" are left to booleans; every other literal status is caught.
BARE_EXIT = [
    re.compile(r"\breturn\s+\(?\s*([2-9]|[1-9][0-9]+)\s*\)?\s*;"),
    re.compile(r"\b(st|rc|status|ret)\s*=\s*[1-9][0-9]*\s*;"),
    re.compile(r"\breturn\b[^;]*\?\s*[0-9]+\s*:\s*[0-9]+\s*;"),
    re.compile(r"\b_?exit\s*\(\s*[0-9]"),
    re.compile(r"\b(st|rc|status)\s*[!=]=\s*[1-9][0-9]*\b"),
]


def cli_files(pattern="*"):
    return sorted(glob.glob(os.path.join(CLI, pattern)))


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class FrameSourceTest(unittest.TestCase):
    def test_frame__no_bare_exit_numbers_in_cli(self):
        found = []
        for path in cli_files("*.[ch]"):
            if os.path.basename(path) == "exit.h":
                continue
            for no, line in enumerate(strip_comments(read(path)).split("\n"), 1):
                for rx in BARE_EXIT:
                    if rx.search(line):
                        found.append("%s:%d: %s" % (os.path.basename(path), no, line.strip()))
        self.assertEqual(found, [], "exit statuses must be CLI_EXIT_* names:\n" + "\n".join(found))

    def test_frame__the_bare_exit_check_catches_numbers(self):
        # the patterns above must fire on the forms they are meant to refuse
        for bad in ("return 2;", "return 130;", "st = 4;", "return rc ? 2 : 0;", "exit(3);",
                    "if (rc == 4)"):
            self.assertTrue(any(rx.search(bad) for rx in BARE_EXIT), bad)
        for good in ("return 0;", "return 1;", "return CLI_EXIT_USAGE;", "x = n ? 9 : 7;"):
            self.assertFalse(any(rx.search(good) for rx in BARE_EXIT), good)

    def test_frame__every_command_is_declared_by_a_descriptor_and_listed(self):
        main = strip_comments(read(os.path.join(CLI, "main.c")))
        table = re.search(r"cli_commands\[\]\s*=\s*\{(.*?)\};", main, re.S)
        self.assertIsNotNone(table, "main.c has no command table")
        listed = set(re.findall(r"&(\w+)", table.group(1)))
        for path in cli_files("cmd_*.c"):
            name = os.path.basename(path)[4:-2]
            text = strip_comments(read(path))
            with self.subTest(command=name):
                self.assertRegex(text, r"const struct cli_command cli_cmd_%s\s*=\s*\{" % name)
                self.assertIn("cli_cmd_" + name, listed)
                # the prologue is main's: no command parses, reads configuration or connects
                for call in ("cli_parse(", "cli_config_resolve(", "cli_rest_open("):
                    self.assertNotIn(call, text)

    def test_frame__parsing_never_reads_configuration(self):
        text = read(os.path.join(CLI, "parse.c"))
        self.assertNotIn('#include "config.h"', text)
        self.assertNotIn("cli_config_resolve", strip_comments(text))

    def test_frame__no_include_cycle_between_cli_files(self):
        deps = {}
        for path in cli_files("*.[ch]"):
            mod = os.path.splitext(os.path.basename(path))[0]
            for inc in re.findall(r'#include\s+"([a-z_]+)\.h"', read(path)):
                if inc != mod:
                    deps.setdefault(mod, set()).add(inc)
        state = {}

        def visit(m, path):
            if state.get(m) == 1:
                self.fail("include cycle: " + " -> ".join(path + [m]))
            if state.get(m) == 2:
                return
            state[m] = 1
            for d in sorted(deps.get(m, ())):
                visit(d, path + [m])
            state[m] = 2

        for m in sorted(deps):
            visit(m, [])


class FramePrologueTest(hbtest.OfflineTest):
    def test_frame__system_tables_refused_with_exit_5_before_any_request(self):
        for args in (["create", "hbase:x", "--hex-splits", "4"],
                     ["drop", "hbase:meta", "--yes"],
                     ["drop", "hbase:namespace"],
                     ["meta", "set", "hbase:meta", "3"]):
            with self.subTest(args=args):
                r = self.assertFails(self.hb(*(DEAD_REST + args)), 5, "system table")
                self.assertEqual(r.out, "")

    def test_frame__reading_a_system_table_is_not_refused(self):
        # only writes are refused; a read goes to the (here unreachable) server: exit 3
        self.assertFails(self.hb(*(DEAD_REST + ["regions", "hbase:meta"])), 3)

    def test_frame__help_and_completion_need_no_configuration(self):
        with tempfile.TemporaryDirectory() as d:
            cfg = os.path.join(d, "config")
            with open(cfg, "w") as f:
                f.write("this is not a setting\n")
            env = {"HBTAB_CONFIG": cfg}
            self.assertOk(self.hb("create", "--help", env=env))
            self.assertOk(self.hb("help", "audit", env=env))
            self.assertOk(self.hb("__complete", "create", env=env))
            r = self.assertFails(self.hb("tables", env=env), 2, re.escape(cfg))
            self.assertIn(":1:", r.err)

    def test_frame__help_command_and_help_flag_print_the_same(self):
        for cmd in ("splits", "create", "meta", "audit", "drop"):
            with self.subTest(cmd=cmd):
                a, b = self.hb("help", cmd), self.hb(cmd, "--help")
                self.assertOk(a)
                self.assertEqual(a.out, b.out)

    def test_frame__argument_counts_come_from_the_descriptor(self):
        self.assertFails(self.hb("describe"), 2, "missing TABLE")
        self.assertFails(self.hb("describe", "a", "b"), 2, "unexpected argument 'b'")
        self.assertFails(self.hb("status", "x"), 2, "unexpected argument 'x'")
        self.assertFails(self.hb("meta", "set", "t"), 2, "missing N")
        self.assertFails(self.hb("meta"), 2, "missing 'get' or 'set'")
        r = self.assertFails(self.hb("meta", "get"), 2, "missing TABLE")
        self.assertIn("see 'hbtab meta --help'", r.err)

    def test_frame__table_names_checked_before_any_request(self):
        for cmd in (["regions"], ["describe"], ["meta", "get"], ["audit"]):
            with self.subTest(cmd=cmd):
                self.assertFails(self.hb(*(DEAD_REST + cmd + [".bad"])), 2, "invalid table name")


if __name__ == "__main__":
    hbtest.main()
