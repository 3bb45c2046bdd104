# shellcheck shell=bash
# What each job of scripts/dev.sh needs from Debian 12, and installing what is missing.
# Sourced by scripts/dev.sh.

# The demo: the build (hbtab and the emulator's generated Thrift and protobuf modules) and the
# emulator it runs against (python3-six: Debian 12's python3-thrift imports six without
# depending on it).
demo_packages=(build-essential cmake pkg-config libcurl4-openssl-dev libcjson-dev libgmp-dev
               libssl-dev python3 python3-thrift python3-six python3-protobuf thrift-compiler
               protobuf-compiler)
# demo --real and the suite's real-HBase tests: tests/realhbase (Maven fetches HBase's jars
# from Maven Central into ~/.m2 on first use, over https).
real_packages=(default-jdk-headless maven ca-certificates)
# The rest of the suite:
# openssl: TLS material for the gateway tests; ruby: the emulator's hbase shell stand-in.
# clang, libfuzzer-14-dev, libclang-rt-14-dev: the libFuzzer and ASan runtimes clang links
# the fuzz harnesses with; clang-format: test_format.
# krb5-*, python3-gssapi: the Kerberos test runs a real KDC (kdb5_util, krb5kdc, kadmin.local,
# kinit) and the emulator accepts SPNEGO through GSS-API.
# dpkg-dev, man-db: the package tests build the .deb (cpack runs dpkg-shlibdeps; the build
# with Debian's flags asks dpkg-buildflags), install it into a scratch root and ask man -w for
# its pages.
# python3-prometheus-client: the Prometheus output is read back with its text-format parser.
# zsh, fish: the completion tests; groff-base: the man page tests.
# prometheus: promtool checks every textfile the tests read and tests the alert rules;
# chromium: the report's page rendered headless and its screenshot checked.
test_packages=(openssl ruby curl jq time groff-base zsh fish procps clang libfuzzer-14-dev
               libclang-rt-14-dev clang-format krb5-kdc krb5-admin-server krb5-user
               python3-gssapi dpkg-dev man-db python3-prometheus-client prometheus chromium)

# install_packages PACKAGE...: apt-get installs those of PACKAGE... not installed yet.
install_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing: ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    local log
    log=$(mktemp "${TMPDIR:-/tmp}/hbtab-apt.XXXXXX")
    if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
           "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
               --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        say "package installation failed (full log: $log)"
        exit 1
    fi
    rm -f "$log"
}
