#!/usr/bin/env python3
"""Conformance adapter (protocol 2, with batches) for a real browser's TextDecoder and
TextEncoder, utf-8 only: Firefox ESR (Debian's firefox-esr), headless, driven over
Marionette, its remote protocol.

One browser process per run: started at the first line with a fresh profile (removed at
the end) whose user.js sets marionette.port to 0 (Firefox then picks a free port on
127.0.0.1 and writes it to the profile's MarionetteActivePort) and turns off what would
reach for the network (updates, telemetry, first-run pages). The adapter opens a
WebDriver session over Marionette (length-prefixed JSON on that TCP port) and sends every
batch as one WebDriver:ExecuteScript in the page (about:blank): browser/page.js, then
`return __matrix(arguments[0])`. The decoding is the browser's own TextDecoder (fatal and
replacement, `stream: true` for chunked requests: streaming is declared) and
TextEncoder. The protocol loop is chromium.py's. Standard library only.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium as common  # noqa: E402

PREFS = {
    "marionette.port": 0,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage": "about:blank",
    "startup.homepage_welcome_url": "about:blank",
    "browser.startup.homepage_override.mstone": "ignore",
    "app.update.disabledForTesting": True,
    "app.normandy.enabled": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "browser.safebrowsing.update.enabled": False,
    "extensions.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
}


class Firefox:
    def __init__(self, binary: str):
        self.profile = tempfile.mkdtemp(prefix="matrix-firefox-")
        self.proc = None
        try:
            self.start(binary)
        except BaseException:
            if self.proc is not None and self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            common.remove_profile(self.profile)
            raise

    def start(self, binary: str):
        Path(self.profile, "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in PREFS.items()))
        env = dict(os.environ, MOZ_HEADLESS="1", MOZ_CRASHREPORTER_DISABLE="1")
        self.proc = subprocess.Popen([binary, "--headless", "--marionette", "--no-remote", "--profile", self.profile,
                                      "about:blank"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, env=env)
        port_file = Path(self.profile, "MarionetteActivePort")
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("firefox did not start Marionette")
            time.sleep(0.1)
        self.sock = socket.create_connection(("127.0.0.1", int(port_file.read_text())), timeout=120)
        self.buffer = b""
        self.next_id = 0
        self.receive()  # the server's greeting
        caps = self.command("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {"acceptInsecureCerts": True}}})
        caps = caps.get("capabilities", caps)
        self.name = (f"Firefox {caps.get('browserVersion', '?')} TextDecoder / TextEncoder "
                     "(headless, in a page, Marionette)")
        self.script = (Path(__file__).parent / "page.js").read_text() + "\nreturn __matrix(arguments[0]);"

    def receive(self):
        while b":" not in self.buffer:
            self.fill()
        size, rest = self.buffer.split(b":", 1)
        while len(rest) < int(size):
            self.fill()
            size, rest = self.buffer.split(b":", 1)
        self.buffer = rest[int(size):]
        return json.loads(rest[:int(size)])

    def fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise RuntimeError("firefox closed the Marionette connection")
        self.buffer += chunk

    def command(self, name: str, params: dict):
        self.next_id += 1
        data = json.dumps([0, self.next_id, name, params]).encode()
        self.sock.sendall(str(len(data)).encode() + b":" + data)
        while True:
            message = self.receive()
            if message[0] == 1 and message[1] == self.next_id:
                if message[2]:
                    raise RuntimeError(f"{name}: {message[2]}")
                return message[3]

    def run(self, todo: list) -> list:
        return self.command("WebDriver:ExecuteScript", {"script": self.script, "args": [todo]})["value"]

    def close(self):
        # The runner allows an adapter 2 s after the end of its input before it kills the
        # process group: no graceful quit (the profile is thrown away anyway), the
        # browser killed and its profile removed at once.
        self.sock.close()
        self.proc.kill()
        self.proc.wait()
        common.remove_profile(self.profile)


if __name__ == "__main__":
    sys.exit(common.main(lambda: Firefox(os.environ.get("FIREFOX", "/usr/bin/firefox-esr"))))
