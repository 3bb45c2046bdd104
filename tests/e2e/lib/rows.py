"""Rows written into the emulator's tables through its control channel (/control/put), as
data a command then reads (samples, counts, loads). The behaviour tests that run on real HBase
too write rows with backend.py's put()."""
from hbtest import b64

BATCH = 500  # rows per control request


def put_rows(emu, table, keys, column=b"cf:v", value=b"x"):
    """One cell (column = value) in each row of keys (bytes or str)."""
    rows = [{"key": b64(k), "cells": [{"column": b64(column), "value": b64(value)}]}
            for k in keys]
    for i in range(0, len(rows), BATCH):
        st, body = emu.control("POST", "/control/put", {"table": table, "rows": rows[i:i + BATCH]})
        if st not in (200, 201):
            raise AssertionError("put into %s: %s %s" % (table, st, body))
