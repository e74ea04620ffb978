"""The offline HTML report in a real browser: headless Debian chromium, no network.

Chromium is driven through the DevTools protocol over a pipe (``--remote-debugging-pipe``:
JSON messages ending in NUL on file descriptors 3 and 4), so the test needs no driver, no
Python package and no browser download; ``.ci/browser-setup.sh`` installs chromium.
Screenshots go to ``tests/artifacts/`` for a person to look at.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from clfeval import charts
from clfeval.pages._html import write_html

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).parent / "artifacts"
EVIL = "</script><script>alert(1)</script>"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--proxy-server=127.0.0.1:9",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--hide-scrollbars",
    "--window-size=1280,1000",
    "--remote-debugging-pipe",
]


class Chromium:
    """A headless chromium and one page, spoken to over the DevTools pipe."""

    def __init__(self, profile: Path) -> None:
        to_browser, self._out = os.pipe()
        self._in, from_browser = os.pipe()
        # the protocol wants fd 3 (commands in) and fd 4 (replies out) in the browser
        script = f'exec "$0" "$@" 3<&{to_browser} 4>&{from_browser}'
        args = [
            "/bin/bash",
            "-c",
            script,
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            "about:blank",
        ]
        self._log = (profile.parent / "chromium.log").open("wb")
        self.proc = subprocess.Popen(
            args,
            pass_fds=(to_browser, from_browser),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=self._log,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._next = 0
        self._replies: dict[int, dict] = {}
        self._ready = threading.Condition()
        self.events: queue.Queue[dict] = queue.Queue()
        self.seen: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()
        try:
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
                "sessionId"
            ]
            for domain in ("Page", "Runtime", "Log", "Network"):
                self.call(f"{domain}.enable", session=True)
            self.call(
                "Emulation.setDeviceMetricsOverride",
                session=True,
                width=1280,
                height=1000,
                deviceScaleFactor=1,
                mobile=False,
            )
        except Exception:
            self.close()
            raise

    def _read(self) -> None:
        buffer = b""
        while chunk := os.read(self._in, 1 << 16):
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            for raw in messages:
                message = json.loads(raw)
                if "id" in message:
                    with self._ready:
                        self._replies[message["id"]] = message
                        self._ready.notify_all()
                else:
                    self.events.put(message)

    def call(
        self, method: str, *, session: bool = False, timeout: float = 60, **params: object
    ) -> dict:
        self._next += 1
        message: dict = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        with self._ready:
            if not self._ready.wait_for(lambda: self._next in self._replies, timeout=timeout):
                raise TimeoutError(method)
            reply = self._replies.pop(self._next)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def js(self, expression: str) -> object:
        result = self.call(
            "Runtime.evaluate",
            session=True,
            expression=expression,
            returnByValue=True,
            awaitPromise=True,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def drain(self) -> list[dict]:
        while not self.events.empty():
            self.seen.append(self.events.get())
        return self.seen

    def wait_for(self, expression: str, timeout: float = 60) -> object:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.1)
        raise TimeoutError(expression)

    def screenshot(self, path: Path, clip: dict | None = None) -> None:
        import base64

        if clip is None:
            size = self.call("Page.getLayoutMetrics", session=True)["cssContentSize"]
            clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}
        shot = self.call(
            "Page.captureScreenshot",
            session=True,
            format="png",
            captureBeyondViewport=True,
            clip={**clip, "scale": 1},
        )
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        with contextlib.suppress(TimeoutError, RuntimeError, OSError):
            self.call("Browser.close", timeout=10 if self.proc.poll() is None else 0.1)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._out)
        self._log.close()


def problems(events: list[dict]) -> list[str]:
    """Console errors, uncaught exceptions, dialogs and network requests in ``events``."""
    found = []
    for e in events:
        method, params = e.get("method"), e.get("params", {})
        if method == "Runtime.exceptionThrown":
            found.append(f"exception: {params['exceptionDetails']}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in {"error", "assert"}:
            found.append(
                f"console.{params['type']}: {[a.get('value', a.get('description')) for a in params['args']]}"
            )
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            found.append(f"log: {params['entry']['text']} {params['entry'].get('url', '')}")
        elif method == "Page.javascriptDialogOpening":
            found.append(f"dialog: {params.get('message')}")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not url.startswith(("file:", "data:", "blob:", "about:")):
                found.append(f"network: {url}")
    return found


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """The report: a table and every chart, one of them with hostile labels."""
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI"):  # CI installs it: a missing browser there is a failure
            pytest.fail("chromium is not installed: .ci/browser-setup.sh should have done it")
        pytest.skip("chromium is not installed: run .ci/browser-setup.sh")
    from test_charts import builders, confusion_frame, roc_frame, thresholds_frame

    made = builders()
    explorer = charts.explorer(thresholds_frame(*_binary()), threshold=0.45)
    evil = roc_frame(*_binary()).select(pl.lit(EVIL).alias(EVIL), pl.all())
    confusion = confusion_frame(
        ["<b>", "<!--", "<b>", "<b>"], ["<b>", "<b>", "<!--", "<b>"], ["<b>", "<!--"]
    )
    chart_list = [("Threshold explorer", explorer)]
    chart_list += [
        (name.replace("_", " ").capitalize(), build())
        for name, build in made.items()
        if not name.startswith("explorer")
    ]
    chart_list += [
        (f"Hostile labels {EVIL}", charts.roc(evil)),
        ("Hostile classes", charts.confusion_matrix(confusion)),
    ]
    table = pl.DataFrame({"metric": ["accuracy", "f1", EVIL], "value": [0.81, 0.77, 0.5]})
    path = write_html(
        tmp_path_factory.mktemp("report") / "report.html",
        f"clfeval report {EVIL}",
        [("Metrics", table)],
        chart_list,
        intro="Browser test page.",
    )
    rows = max(explorer.to_dict()["datasets"].values(), key=len)
    return path, len(chart_list), pl.DataFrame([r for r in rows if "threshold" in r])


def _binary():
    from test_charts import DF

    return DF["y"].to_numpy(), DF["s"].to_numpy()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium = Chromium(tmp_path_factory.mktemp("chromium") / "profile")
    yield chromium
    chromium.close()


def test_report_renders_offline_without_errors(browser, report):
    path, n_charts, _ = report
    browser.call("Page.navigate", session=True, url=path.as_uri())
    browser.wait_for(
        f"document.querySelectorAll('.clf-chart[data-rendered]').length === {n_charts}", timeout=120
    )
    drawn = browser.js(
        "[...document.querySelectorAll('.clf-chart')].map(el => el.getAttribute('data-rendered') + ':' + (el.querySelector('svg, canvas') !== null))"
    )
    assert drawn == ["true:true"] * n_charts
    assert browser.js("document.title") == f"clfeval report {EVIL}"
    assert browser.js("document.scripts.length") == 2
    assert browser.js("window.__clfevalAlert === undefined && typeof vegaEmbed") == "function"
    time.sleep(0.5)  # let late console messages arrive
    assert problems(browser.drain()) == []
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / ".gitignore").write_text("*\n")
    browser.screenshot(ARTIFACTS / "report.png")
    height = browser.call("Page.getLayoutMetrics", session=True)["cssContentSize"]["height"]
    for i, top in enumerate(range(0, int(height), 1400)):  # the same page in readable pieces
        clip = {"x": 0, "y": top, "width": 1280, "height": min(1400, height - top)}
        browser.screenshot(ARTIFACTS / f"report-{i + 1:02d}.png", clip)


def test_explorer_slider_updates_the_confusion_matrix(browser, report):
    path, _, rows = report
    if not browser.js("document.querySelector('#clf-chart-0[data-rendered=\"true\"]') !== null"):
        browser.call("Page.navigate", session=True, url=path.as_uri())
        browser.wait_for(
            "document.querySelector('#clf-chart-0[data-rendered=\"true\"]') !== null", timeout=120
        )
    cell = "(() => { const t = [...document.querySelectorAll('#clf-chart-0 svg text')].find(e => e.textContent.startsWith('TP')); return t ? t.textContent : null; })()"
    before = browser.wait_for(cell)
    signal = "document.getElementById('clf-chart-0').clfView.signal('threshold')"
    assert browser.js(signal) == 0.45
    rect = browser.js(
        "(() => { const s = document.querySelector('#clf-chart-0 input[type=range]'); s.scrollIntoView({block: 'center'}); const r = s.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()"
    )
    left, top, width, height = rect
    for kind in ("mousePressed", "mouseReleased"):  # a real click near the right end of the track
        browser.call(
            "Input.dispatchMouseEvent",
            session=True,
            type=kind,
            x=left + 0.85 * width,
            y=top + height / 2,
            button="left",
            clickCount=1,
        )
    after = browser.wait_for(
        f"(() => {{ const now = {cell}; return now !== {json.dumps(before)} ? now : null; }})()",
        timeout=20,
    )
    moved = browser.js(signal)
    assert moved > 0.6
    from test_charts import thresholds_frame

    picked = rows.filter(pl.col("threshold") >= moved).sort("threshold").row(0, named=True)
    assert after.replace(",", "") == f"TP{picked['tp']}", (before, after, moved)
    exact = thresholds_frame(*_binary()).filter(pl.col("threshold") == picked["threshold"])
    assert exact["tp"].item() == picked["tp"]  # the count of the rule score >= that threshold
    text = browser.js("document.querySelector('#clf-chart-0 svg').textContent")
    assert "Matthews correlation" in text
    assert "Threshold (score ≥)" in text
    assert problems(browser.drain()) == []
    ARTIFACTS.mkdir(exist_ok=True)
    box = browser.js(
        "(() => { const r = document.getElementById('clf-chart-0').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })()"
    )
    browser.screenshot(
        ARTIFACTS / "explorer.png", {"x": box[0], "y": box[1], "width": box[2], "height": box[3]}
    )
