"""Headless Chromium and Firefox, driven for the explorer's browser tests (test_site.py).

Chromium (Debian's /usr/bin/chromium) over the Chrome DevTools Protocol on a pipe
(--remote-debugging-pipe: NUL-terminated JSON on file descriptors 3 and 4, no port);
Firefox (Debian's firefox-esr) over Marionette, its WebDriver protocol (length-prefixed
JSON on a TCP port it picks and writes into the profile). Each starts with a fresh,
empty profile (removed at the end) and the flags that keep it off the network, which
this machine's closed network otherwise makes it wait on.

Both offer the same few operations: open a URL and wait for its load, evaluate a
JavaScript expression (a promise is awaited), focus an element, type text, press a key,
take a PNG screenshot. Every wait is for an event (a load, a promise, an answer), each
bounded by a deadline that fails the test rather than hangs it. Standard library only.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-extensions", "--disable-dev-shm-usage", "--remote-debugging-pipe",
                  "--window-size=1200,900", "--hide-scrollbars", "--force-device-scale-factor=1"]

FIREFOX_PREFS = {
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

# WebDriver's key codes (the Unicode private use area) for the keys the tests press.
KEYS = {"Backspace": "\ue003", "Tab": "\ue004", "Enter": "\ue007", "ArrowUp": "\ue013", "ArrowDown": "\ue015"}
# CDP's key events for the same keys: (key, code, keyCode, text).
CDP_KEYS = {"Backspace": ("Backspace", "Backspace", 8, ""), "Tab": ("Tab", "Tab", 9, ""),
            "Enter": ("Enter", "Enter", 13, "\r"), "ArrowUp": ("ArrowUp", "ArrowUp", 38, ""),
            "ArrowDown": ("ArrowDown", "ArrowDown", 40, "")}


class BrowserError(Exception):
    pass


def remove_profile(path: str):
    """Removes a profile; again while the browser's last child processes exit."""
    for _ in range(20):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.exists(path):
            return
        time.sleep(0.1)


class Chromium:
    """A headless Chromium and a CDP session attached to its page."""

    name = "chromium"

    def __init__(self, binary: str = "/usr/bin/chromium", timeout: float = 60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="explorer-chromium-")
        self.proc = None
        self.exceptions = []
        try:
            self._start(binary)
        except BaseException:
            self.close()
            raise

    def _start(self, binary: str):
        to_child, self.out = os.pipe()
        self.inp, from_child = os.pipe()

        def fds():
            a, b = os.dup(to_child), os.dup(from_child)
            a2, b2 = os.dup2(a, 100), os.dup2(b, 101)
            os.dup2(a2, 3)
            os.dup2(b2, 4)
            for fd in (a, b, a2, b2):
                os.close(fd)

        self.proc = subprocess.Popen([binary, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     preexec_fn=fds, pass_fds=(3, 4))
        os.close(to_child)
        os.close(from_child)
        self.pending = b""
        self.next_id = 0
        self.session = None
        self.events = []
        self.version = self.call("Browser.getVersion")["product"]
        page = None
        deadline = time.monotonic() + self.timeout
        while page is None:
            page = next((t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page"), None)
            if page is None and time.monotonic() > deadline:
                raise BrowserError("chromium opened no page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self.inp], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.inp, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed its pipe")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\0", 1)
        return json.loads(line)

    def _note(self, message: dict):
        if message.get("method") == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.exceptions.append(details.get("exception", {}).get("description") or details.get("text"))
        else:
            self.events.append(message)

    def call(self, method: str, timeout: float | None = None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith(("Browser.", "Target.")):
            message["sessionId"] = self.session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.out, data):]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return answer["result"]
            self._note(answer)

    def _wait_event(self, method: str, deadline: float):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    del self.events[:i + 1]
                    return e
            self.events.clear()
            self._note(self._read_message(deadline))

    def open(self, url: str):
        """Loads `url` as a new document (about:blank first, so that a URL differing only
        in its fragment is loaded afresh too) and waits for its load event."""
        for target in ("about:blank", url):
            self.events.clear()
            result = self.call("Page.navigate", url=target)
            if "errorText" in result:
                raise BrowserError(f"cannot open {target}: {result['errorText']}")
            self._wait_event("Page.loadEventFired", time.monotonic() + self.timeout)

    def eval(self, expression: str, timeout: float | None = None):
        """The value of `expression` in the page (a promise is awaited)."""
        result = self.call("Runtime.evaluate", timeout=timeout, expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            d = result["exceptionDetails"]
            raise BrowserError("in the page: " + (d.get("exception", {}).get("description") or d.get("text", "?")))
        return result["result"].get("value")

    def focus(self, selector: str):
        self.eval(f"document.querySelector({json.dumps(selector)}).focus()")

    def type(self, text: str):
        """Types `text` into the focused element, as an input method commits it."""
        self.call("Input.insertText", text=text)

    def press(self, key: str):
        name, code, key_code, text = CDP_KEYS[key]
        common = {"key": name, "code": code, "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code}
        self.call("Input.dispatchKeyEvent", type="keyDown", text=text, **common)
        self.call("Input.dispatchKeyEvent", type="keyUp", **common)

    def screenshot(self) -> bytes:
        return base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for fd in ("out", "inp"):
            if hasattr(self, fd):
                try:
                    os.close(getattr(self, fd))
                except OSError:
                    pass
        remove_profile(self.profile)


class Firefox:
    """A headless Firefox ESR and a WebDriver session over Marionette."""

    name = "firefox"

    def __init__(self, binary: str = "/usr/bin/firefox-esr", timeout: float = 60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="explorer-firefox-")
        self.proc = None
        self.sock = None
        self.exceptions = []
        try:
            self._start(binary)
        except BaseException:
            self.close()
            raise

    def _start(self, binary: str):
        Path(self.profile, "user.js").write_text(
            "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items()))
        env = dict(os.environ, MOZ_HEADLESS="1", MOZ_CRASHREPORTER_DISABLE="1")
        self.proc = subprocess.Popen([binary, "--headless", "--marionette", "--no-remote", "--profile", self.profile,
                                      "--window-size=1200,900", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=env)
        port_file = Path(self.profile, "MarionetteActivePort")
        deadline = time.monotonic() + self.timeout
        # Firefox writes the file once Marionette listens: wait for that (or its exit).
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise BrowserError("firefox did not start Marionette")
            time.sleep(0.05)
        self.sock = socket.create_connection(("127.0.0.1", int(port_file.read_text())), timeout=self.timeout)
        self.buffer = b""
        self.next_id = 0
        self._receive()
        caps = self.command("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {"pageLoadStrategy": "normal"}}})
        caps = caps.get("capabilities", caps)
        self.version = "Firefox " + caps.get("browserVersion", "?")
        self.command("WebDriver:SetTimeouts", {"script": int(self.timeout * 1000), "pageLoad": int(self.timeout * 1000)})

    def _receive(self):
        while b":" not in self.buffer:
            self._fill()
        size, rest = self.buffer.split(b":", 1)
        while len(rest) < int(size):
            self._fill()
            size, rest = self.buffer.split(b":", 1)
        self.buffer = rest[int(size):]
        return json.loads(rest[:int(size)])

    def _fill(self):
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise BrowserError("firefox closed the Marionette connection")
        self.buffer += chunk

    def command(self, name: str, params: dict):
        self.next_id += 1
        data = json.dumps([0, self.next_id, name, params]).encode()
        self.sock.sendall(str(len(data)).encode() + b":" + data)
        while True:
            message = self._receive()
            if message[0] == 1 and message[1] == self.next_id:
                if message[2]:
                    raise BrowserError(f"{name}: {message[2]}")
                return message[3]

    def open(self, url: str):
        self.command("WebDriver:Navigate", {"url": "about:blank"})
        self.command("WebDriver:Navigate", {"url": url})

    def eval(self, expression: str, timeout: float | None = None):
        return self.command("WebDriver:ExecuteScript", {"script": f"return ({expression});", "args": []})["value"]

    def _active(self) -> str:
        found = self.command("WebDriver:GetActiveElement", {})
        found = found.get("value", found)
        return next(iter(found.values()))

    def focus(self, selector: str):
        self.eval(f"document.querySelector({json.dumps(selector)}).focus()")

    def type(self, text: str):
        """Types `text` into the focused element, key by key."""
        self.command("WebDriver:ElementSendKeys", {"id": self._active(), "text": text})

    def press(self, key: str):
        self.command("WebDriver:ElementSendKeys", {"id": self._active(), "text": KEYS[key]})

    def screenshot(self) -> bytes:
        return base64.b64decode(self.command("WebDriver:TakeScreenshot", {"full": False})["value"])

    def close(self):
        if self.sock is not None:
            self.sock.close()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        remove_profile(self.profile)
