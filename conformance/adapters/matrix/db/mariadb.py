#!/usr/bin/env python3
"""Conformance adapter (protocol 2, with batches) for MariaDB's utf8mb4 conversion,
utf-8 only: a real server, started by the adapter at its first line in a temporary
directory (mariadb-install-db, then mariadbd with --skip-networking and a Unix socket
there, --skip-grant-tables), killed (its data is thrown away) and removed at the end. As root the
server runs as the `mysql` user.

decode: SELECT HEX(CONVERT(UNHEX('hex') USING utf8mb4)) (UNHEX gives a binary string of
  the bytes; HEX brings the answer back byte for byte), then
  SHOW WARNINGS: `lossy` is the converted text as the server returns it (MariaDB writes
  '?' for what it cannot convert), `valid`, `result` from the warnings (1300, "Invalid
  utf8mb4 character string", or any other: invalid; none: valid). No error offset or
  length: no `strict`.
encode: CONVERT(CHAR(cp USING utf32) USING utf8mb4): the bytes, or NULL (with a warning)
  for a value UTF-32 cannot hold: `error: null`; a value above 32 bits cannot be passed:
  null.
One statement per case (a warning belongs to a statement; each selects from a one-row
table, since only a statement that uses a table clears the warnings before it). Driver: PyMySQL (Debian's
python3-pymysql). Protocol: conformance/adapters/README.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server as common  # noqa: E402

import pymysql  # noqa: E402


class MariaDB:
    def __init__(self):
        self.dir = common.workdir("matrix-mariadb-", "mysql")
        self.proc = None
        try:
            self.start()
        except BaseException:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            common.remove(self.dir)
            raise

    def start(self):
        data, self.socket = os.path.join(self.dir, "data"), os.path.join(self.dir, "sock")
        user = ["--user=mysql"] if os.geteuid() == 0 else []
        common.run_quiet(["mariadb-install-db", "--no-defaults", f"--datadir={data}", "--skip-test-db",
                          "--auth-root-authentication-method=normal", *user], "mariadb-install-db")
        self.proc = subprocess.Popen(["mariadbd", "--no-defaults", f"--datadir={data}", f"--socket={self.socket}",
                                      "--skip-networking", "--skip-grant-tables", "--skip-log-bin",
                                      "--innodb-buffer-pool-size=16M", f"--pid-file={self.dir}/pid",
                                      f"--log-error={self.dir}/log", *user],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                self.conn = pymysql.connect(unix_socket=self.socket, user="root", charset="utf8mb4",
                                            autocommit=True)
                break
            except pymysql.err.OperationalError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("mariadbd did not start: " + open(f"{self.dir}/log").read()[-2000:])
                time.sleep(0.2)
        with self.conn.cursor() as cur:
            # A statement clears the warnings of the one before only if it uses a table:
            # every query selects from this one-row table.
            cur.execute("CREATE DATABASE matrix")
            cur.execute("CREATE TABLE matrix.one (x INT)")
            cur.execute("INSERT INTO matrix.one VALUES (1)")
            cur.execute("SELECT VERSION()")
            self.name = f"MariaDB {cur.fetchone()[0]} CONVERT(... USING utf8mb4) and its warnings"

    def answer(self, works: list) -> list:
        out = []
        with self.conn.cursor() as cur:
            for op, value in works:
                if op == "decode":
                    cur.execute("SELECT HEX(CONVERT(UNHEX(%s) USING utf8mb4)) AS v FROM matrix.one", (value.hex(),))
                    # The server may return encoded surrogates (surrogatepass keeps them as they are).
                    text = bytes.fromhex(cur.fetchone()[0] or "").decode("utf-8", "surrogatepass")
                    cur.execute("SHOW WARNINGS")
                    ok = not cur.fetchall()
                    out.append({"lossy": ["U+%04X" % ord(c) for c in text], "valid": ok,
                                "result": "valid" if ok else "invalid"})
                elif value > 0xFFFFFFFF:
                    out.append({"error": None})
                else:
                    cur.execute("SELECT HEX(CONVERT(CHAR(%s USING utf32) USING utf8mb4)) AS v FROM matrix.one", (value,))
                    got = cur.fetchone()[0]
                    out.append({"error": None} if got is None else {"bytes": got.lower()})
        return out

    def close(self):
        # The runner allows an adapter 2 s after the end of its input before it kills the
        # process group: the server (whose data is thrown away) is killed, not shut down.
        self.conn.close()
        self.proc.kill()
        self.proc.wait()
        common.remove(self.dir)


HELLO = {"protocol": 2, "batch": common.BATCH,
         "supports": [{"encoding": "utf-8", "op": "decode", "fields": ["lossy", "result", "valid"]},
                      {"encoding": "utf-8", "op": "encode", "fields": ["bytes", "error"]}]}

if __name__ == "__main__":
    common.serve(MariaDB, HELLO)
