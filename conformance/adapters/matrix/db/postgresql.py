#!/usr/bin/env python3
"""Conformance adapter (protocol 2, with batches) for PostgreSQL 15's UTF-8 validation,
utf-8 only: a real server, started by the adapter at its first line with initdb in a
temporary directory (UTF8 database, C locale, trust authentication, Unix socket in that
directory, no TCP), stopped (pg_ctl stop -m immediate: within the runner's 2 s) and
removed at the end. As root the
server runs as the `postgres` user (it refuses root).

decode: convert_from(bytes, 'UTF8') in PL/pgSQL, whose exception handler catches
  SQLSTATE 22021 (invalid byte sequence for encoding "UTF8"): `valid`, `result`. The
  error message names the bad bytes but not their offset: no `strict`; PostgreSQL has
  no replacement mode: no `lossy`.
encode: convert_to(chr(cp), 'UTF8') (chr refuses a surrogate, a value above U+10FFFF
  and 0 with a data exception, class 22: `error: null`; a value above int4 cannot be
  passed: null).
One query per batch (unnest ... WITH ORDINALITY). Driver: psycopg2 (Debian's
python3-psycopg2). Protocol: conformance/adapters/README.md.
"""

from __future__ import annotations

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server as common  # noqa: E402

import psycopg2  # noqa: E402

BIN = os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin")
SETUP = """
CREATE FUNCTION matrix_valid(b bytea) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM convert_from(b, 'UTF8');
  RETURN true;
EXCEPTION WHEN SQLSTATE '22021' THEN
  RETURN false;
END $$;
CREATE FUNCTION matrix_encode(cp int) RETURNS bytea LANGUAGE plpgsql AS $$
BEGIN
  RETURN convert_to(chr(cp), 'UTF8');
EXCEPTION WHEN data_exception OR program_limit_exceeded THEN
  RETURN NULL;
END $$;
"""


class Postgres:
    def __init__(self):
        self.dir = common.workdir("matrix-pg-", "postgres")
        self.stop = None
        try:
            self.start()
        except BaseException:
            if self.stop:
                subprocess.run(self.stop, stdin=subprocess.DEVNULL, capture_output=True)
            common.remove(self.dir)
            raise

    def start(self):
        data = os.path.join(self.dir, "data")
        user = lambda argv: common.as_server_user(argv, "postgres")  # noqa: E731
        common.run_quiet(user([f"{BIN}/initdb", "-D", data, "-E", "UTF8", "--locale=C", "-U", "matrix",
                               "--auth=trust", "--no-sync"]), "initdb")
        self.stop = user([f"{BIN}/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"])
        common.run_quiet(user([f"{BIN}/pg_ctl", "-D", data, "-l", os.path.join(self.dir, "log"), "-w", "-t", "60",
                               "-o", f"-c listen_addresses='' -k {self.dir} -c fsync=off", "start"]), "pg_ctl start")
        self.conn = psycopg2.connect(host=self.dir, user="matrix", dbname="postgres")
        self.conn.autocommit = True
        with self.conn.cursor() as cur:
            cur.execute(SETUP)
            cur.execute("SHOW server_version")
            self.name = f"PostgreSQL {cur.fetchone()[0]} convert_from(bytea, 'UTF8') / convert_to(chr(n), 'UTF8')"

    def answer(self, works: list) -> list:
        decodes = [w[1].hex() for w in works if w[0] == "decode"]
        encodes = [w[1] for w in works if w[0] == "encode" and w[1] <= 0x7FFFFFFF]
        with self.conn.cursor() as cur:
            valid = iter([])
            if decodes:
                cur.execute("SELECT matrix_valid(decode(x, 'hex')) FROM unnest(%s::text[]) WITH ORDINALITY"
                            " AS t(x, n) ORDER BY n", (decodes,))
                valid = iter([row[0] for row in cur.fetchall()])
            encoded = iter([])
            if encodes:
                cur.execute("SELECT encode(matrix_encode(c), 'hex') FROM unnest(%s::int[]) WITH ORDINALITY"
                            " AS t(c, n) ORDER BY n", (encodes,))
                encoded = iter([row[0] for row in cur.fetchall()])
        out = []
        for op, value in works:
            if op == "decode":
                ok = next(valid)
                out.append({"valid": ok, "result": "valid" if ok else "invalid"})
            elif value > 0x7FFFFFFF:
                out.append({"error": None})
            else:
                got = next(encoded)
                out.append({"error": None} if got is None else {"bytes": got})
        return out

    def close(self):
        try:
            self.conn.close()
        finally:
            subprocess.run(self.stop, stdin=subprocess.DEVNULL, capture_output=True)
            common.remove(self.dir)


HELLO = {"protocol": 2, "batch": common.BATCH,
         "supports": [{"encoding": "utf-8", "op": "decode", "fields": ["result", "valid"]},
                      {"encoding": "utf-8", "op": "encode", "fields": ["bytes", "error"]}]}

if __name__ == "__main__":
    common.serve(Postgres, HELLO)
