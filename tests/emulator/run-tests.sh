#!/bin/sh
# Runs the emulator's own tests (unittest) with Debian's python3.
exec /usr/bin/python3 -m unittest discover -s "$(dirname "$0")/tests" "$@"
