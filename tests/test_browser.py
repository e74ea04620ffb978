"""The offline HTML pages in a real browser: headless Debian chromium, no network.

Chromium is driven through the DevTools protocol over a pipe (``--remote-debugging-pipe``:
JSON messages ending in NUL on file descriptors 3 and 4), so the test needs no driver, no
Python package and no browser download; ``.ci/browser-setup.sh`` installs chromium.

Each kind of report page (binary, multiclass with probabilities, grouped, many classes) is
opened once: every chart must draw marks, the tables must carry their styles, the console
must stay clean, and the threshold explorer must show, at several slider positions reached
with the keyboard and the mouse, exactly the counts of ``clfeval.thresholds`` for every
group. The grouped page is also looked at on a phone-sized screen, in dark mode and as
printed. Screenshots go to ``tests/artifacts/`` for a person to look at. The tests wait
for conditions, never for a fixed time, and are patient with a loaded machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import clfeval as ce
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


def _chromium_or_skip() -> None:
    if not os.access(CHROMIUM, os.X_OK):
        if os.environ.get("CI"):  # CI installs it: a missing browser there is a failure
            pytest.fail("chromium is not installed: .ci/browser-setup.sh should have done it")
        pytest.skip("chromium is not installed: run .ci/browser-setup.sh")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    _chromium_or_skip()
    chromium = Chromium(tmp_path_factory.mktemp("chromium") / "profile")
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / ".gitignore").write_text("*\n")
    return ARTIFACTS


def grouped_frame() -> pl.DataFrame:
    """Two models of the demo and a cautious one whose scores stop at 0.6: the explorer must
    keep its counts over the whole shared range (it once lost such a group above 0.39)."""
    df = ce.datasets.predictions(n=2500, seed=11).drop("region")
    cautious = df.filter(pl.col("model") == "logistic").with_columns(
        model=pl.lit("cautious"), score=(pl.col("score") * 0.6).round(4)
    )
    cautious = cautious.with_columns(yhat=(pl.col("score") >= 0.5).cast(pl.Int64))
    return pl.concat([df, cautious])


def many_classes_frame(k: int = 30, n: int = 4000) -> pl.DataFrame:
    rng = np.random.default_rng(7)
    p = 1 / np.arange(1, k + 1)
    p /= p.sum()
    y = rng.choice(k, n, p=p)
    yhat = np.where(rng.random(n) < 0.6, y, rng.choice(k, n, p=p))
    return pl.DataFrame(
        {"y": [f"class {v:02d}" for v in y], "yhat": [f"class {v:02d}" for v in yhat]}
    )


PROBA = {"low": "p_low", "medium": "p_medium", "high": "p_high"}


def page_kinds() -> dict:
    """Each kind of page: the frame, the report_html arguments, and whether it has an explorer."""
    binary = ce.datasets.predictions(n=5000, seed=5).filter(pl.col("model") == "boosted")
    return {
        "binary": (binary, {"score": "score"}, True),
        "multiclass": (ce.datasets.predictions_multiclass(n=3000), {"score": PROBA}, False),
        "grouped": (grouped_frame(), {"score": "score", "by": "model"}, True),
        "many_classes": (many_classes_frame(), {}, False),
    }


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    _chromium_or_skip()
    folder = tmp_path_factory.mktemp("pages")
    out = {}
    for kind, (frame, kw, explorer) in page_kinds().items():
        page = ce.report_html(frame, "y", "yhat", title=f"{kind} {EVIL}", **kw)
        out[kind] = (page.save(folder / f"{kind}.html"), frame, kw, explorer)
    return out


def open_page(browser: Chromium, path: Path, timeout: float = 180) -> int:
    """Open ``path`` (unless it is open) and wait until every chart has drawn; the count."""
    if browser.js("location.href") != path.as_uri():
        browser.call("Page.navigate", session=True, url=path.as_uri())
    browser.wait_for(f"location.href === {json.dumps(path.as_uri())}", timeout=timeout)
    n = browser.wait_for(
        "document.readyState === 'complete' && document.querySelectorAll('.clf-chart').length",
        timeout=timeout,
    )
    browser.wait_for(
        "[...document.querySelectorAll('.clf-chart')].every(e => "
        "['true', 'error'].includes(e.getAttribute('data-rendered')))",
        timeout=timeout,
    )
    return int(n)


MARKS = """[...document.querySelectorAll('.clf-chart')].map(el => {
  const svg = el.querySelector('svg');
  if (!svg || el.getAttribute('data-rendered') !== 'true') { return [el.id, -1, -1]; }
  const groups = [...svg.querySelectorAll('g.role-mark')];
  const all = groups.reduce((n, g) => n + g.children.length, 0);
  const drawn = groups.filter(g => !g.classList.contains('mark-text'))
    .reduce((n, g) => n + g.children.length, 0);
  return [el.id, all, drawn];
})"""

TABLE_STYLE = """(() => {
  const out = [];
  document.querySelectorAll('table.clf').forEach(table => {
    const th = getComputedStyle(table.querySelector('thead th'));
    const num = table.querySelector('td.num');
    const td = getComputedStyle(num || table.querySelector('td'));
    out.push({collapse: getComputedStyle(table).borderCollapse, head: th.borderBottomWidth,
              line: td.borderBottomWidth + ' ' + td.borderBottomStyle,
              align: num ? td.textAlign : null, digits: td.fontVariantNumeric});
  });
  return out;
})()"""


def screenshots(browser: Chromium, folder: Path, name: str, width: int = 1280) -> None:
    """The whole page, and the same page in pieces a person can read."""
    browser.screenshot(folder / f"{name}.png")
    height = browser.call("Page.getLayoutMetrics", session=True)["cssContentSize"]["height"]
    for i, top in enumerate(range(0, int(height), 1400)):
        clip = {"x": 0, "y": top, "width": width, "height": min(1400, height - top)}
        browser.screenshot(folder / f"{name}-{i + 1:02d}.png", clip)


@pytest.mark.parametrize("kind", list(page_kinds()))
def test_report_page_draws_every_chart_with_styled_tables(browser, pages, artifacts, kind):
    path, _, _, _ = pages[kind]
    browser.drain()
    n = open_page(browser, path)
    marks = browser.js(MARKS)
    assert n >= 2
    assert [m for m in marks if m[2] <= 0] == [], "a chart drew no mark"
    styles = browser.js(TABLE_STYLE)
    assert len(styles) >= 1
    for style in styles:  # the styles reach the tables: borders, right-aligned tabular digits
        assert style["collapse"] == "collapse"
        assert style["head"] == "2px"
        assert style["line"] == "1px solid"
        assert style["align"] == "right"
        assert "tabular-nums" in style["digits"]
    assert browser.js("document.title") == f"{kind} {EVIL}"
    assert browser.js("document.scripts.length") == 2  # the bundle and the embed code
    assert browser.js("typeof window.__clfevalAlert") == "undefined"
    text = browser.js("document.body.innerText")
    assert "constant" in text  # the headline metrics beside a constant predictor's
    assert "scikit-learn's classification_report text" in text
    overflow = browser.js(
        "[...document.querySelectorAll('.clf-chart')].filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.id)"
    )
    assert overflow == []  # every chart fits its card
    assert problems(browser.drain()) == []
    screenshots(browser, artifacts, f"report-{kind}")


def test_grouped_page_on_a_phone_in_dark_mode_and_in_print(browser, pages, artifacts):
    path, _, _, _ = pages["grouped"]
    open_page(browser, path)
    browser.drain()
    try:
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            session=True, width=390, height=844, deviceScaleFactor=1, mobile=True,
        )  # fmt: skip
        browser.call(
            "Emulation.setEmulatedMedia",
            session=True, features=[{"name": "prefers-color-scheme", "value": "dark"}],
        )  # fmt: skip
        # the page draws its charts again at the new width and in the dark theme
        browser.wait_for(
            "[...document.querySelectorAll('.clf-chart')].every(e => e.getAttribute('data-rendered') === 'true' && e.clientWidth < 380)",
            timeout=120,
        )
        browser.wait_for(
            "[...document.querySelectorAll('.clf-chart')].every(e => e.getAttribute('data-rendered') === 'true' && e.scrollWidth <= e.clientWidth + 1)",
            timeout=120,
        )
        assert browser.js("getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)"
        assert browser.js("document.documentElement.scrollWidth") <= 390
        screenshots(browser, artifacts, "report-grouped-phone-dark", width=390)
        browser.call("Emulation.setEmulatedMedia", session=True, media="print", features=[])
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            session=True, width=794, height=1123, deviceScaleFactor=1, mobile=False,
        )  # fmt: skip
        browser.wait_for(
            "[...document.querySelectorAll('.clf-chart')].every(e => e.getAttribute('data-rendered') === 'true')",
            timeout=120,
        )
        assert browser.js("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
        screenshots(browser, artifacts, "report-grouped-print", width=794)
        assert problems(browser.drain()) == []
    finally:
        browser.call("Emulation.setEmulatedMedia", session=True, media="", features=[])
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            session=True, width=1280, height=1000, deviceScaleFactor=1, mobile=False,
        )  # fmt: skip


# --- the threshold explorer ---------------------------------------------------------------

SLIDER = "document.querySelector('.clf-chart input[type=range]')"
SHOWN = f"(() => {{ const s = {SLIDER}; return s.nextElementSibling.textContent; }})()"


def explorer_state(browser: Chromium, n_groups: int) -> dict:
    """What the explorer shows: the slider's text, and per group (in the page's order) the
    threshold its panel prints and its confusion matrix's four counts."""
    got = browser.js(
        f"""(() => {{
      const el = {SLIDER}.closest('.clf-chart');
      const texts = [...el.querySelectorAll('svg text')].map(t => t.textContent);
      const panel = [...el.querySelectorAll('svg g.mark-text.role-mark')].find(
        g => g.querySelectorAll('text').length === 9 * {n_groups});
      const values = panel ? [...panel.querySelectorAll('text')].map(t => t.textContent) : [];
      return {{slider: {SHOWN}, cells: texts.filter(t => /^(TP|FP|FN|TN) [0-9,.]+$/.test(t)),
               values: values}};
    }})()"""
    )
    cells = [re.match(r"^(TP|FP|FN|TN) ([0-9,.]+)$", c).groups() for c in got["cells"]]
    assert len(cells) == 4 * n_groups, got
    counts = []
    for i in range(n_groups):
        mine = dict(cells[4 * i : 4 * i + 4])
        counts.append(tuple(int(mine[k].replace(",", "")) for k in ("TP", "FP", "FN", "TN")))
    shown = [got["values"][9 * i] for i in range(n_groups)]
    return {"slider": got["slider"], "shown": shown, "counts": counts}


def expected_counts(frame: pl.DataFrame, kw: dict, t: float) -> list[tuple]:
    """The counts of clfeval.thresholds at ``t``: the row of the smallest threshold at or
    above it (the rule score >= t), per group in the page's order; above every score, none."""
    by = kw.get("by")
    table = ce.thresholds(frame, "y", "score", by=by, metrics=["precision"])
    parts = table.partition_by(by, maintain_order=True) if by else [table]
    out = []
    for part in parts:
        at = part.filter(pl.col("threshold") >= t).sort("threshold")
        if at.height:
            out.append(tuple(at.row(0, named=True)[c] for c in ("tp", "fp", "fn", "tn")))
        else:
            first = part.row(0, named=True)
            out.append((0, 0, first["tp"] + first["fn"], first["fp"] + first["tn"]))
    return out


KEYS = {"Home": 36, "End": 35, "PageUp": 33, "PageDown": 34, "ArrowLeft": 37, "ArrowRight": 39}


def press(browser: Chromium, key: str) -> None:
    for kind in ("rawKeyDown", "keyUp"):
        browser.call(
            "Input.dispatchKeyEvent",
            session=True,
            type=kind,
            key=key,
            code=key,
            windowsVirtualKeyCode=KEYS[key],
            nativeVirtualKeyCode=KEYS[key],
        )


def click_track(browser: Chromium, share: float) -> None:
    left, top, width, height = browser.js(
        f"(() => {{ const s = {SLIDER}; s.scrollIntoView({{block: 'center'}}); const r = s.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }})()"
    )
    for kind in ("mousePressed", "mouseReleased"):
        browser.call(
            "Input.dispatchMouseEvent",
            session=True,
            type=kind,
            x=left + share * width,
            y=top + height / 2,
            button="left",
            clickCount=1,
        )


@pytest.mark.parametrize("kind", ["binary", "grouped"])
def test_explorer_shows_the_exact_counts_at_every_position(browser, pages, artifacts, kind):
    path, frame, kw, _ = pages[kind]
    open_page(browser, path)
    browser.drain()
    groups = frame["model"].unique(maintain_order=True).sort().to_list() if kw.get("by") else [0]
    n = len(groups)
    assert browser.js(f"{SLIDER}.closest('.clf-chart').textContent").count("Threshold") >= 1
    seen = []

    def check(step: str, previous: str | None) -> str:
        if previous is not None:  # the panel follows the slider
            browser.wait_for(f"{SHOWN} !== {json.dumps(previous)}", timeout=30)
        state = browser.wait_for(
            f"""(() => {{ const el = {SLIDER}.closest('.clf-chart');
              const t = [...el.querySelectorAll('svg text')].map(t => t.textContent);
              return t.includes({SHOWN}) ? {SHOWN} : null; }})()""",
            timeout=30,
        )
        now = explorer_state(browser, n)
        assert now["shown"] == [now["slider"]] * n, (step, now)  # the slider's own digits
        t = float(now["slider"])
        assert now["counts"] == expected_counts(frame, kw, t), (step, t)
        seen.append((step, t))
        return state

    value = check("start", None)
    assert float(value) == 0.5  # yhat is score >= 0.5: the explorer starts there
    browser.js(f"{SLIDER}.focus()")  # keyboard: the slider is a focusable range input
    assert browser.js(f"document.activeElement === {SLIDER}")
    for step in ("End", "Home", "ArrowRight", "PageUp", "PageUp"):
        press(browser, step)
        value = check(step, value)
    click_track(browser, 0.62)
    check("click", value)
    positions = [t for _, t in seen]
    assert len(set(positions)) >= 6, seen
    top = positions[1]
    assert top >= frame["score"].max()  # the grid covers every score
    if kw.get("by"):  # above its highest score the cautious model predicts nothing, drawn
        assert explorer_state(browser, n)["counts"]
    assert problems(browser.drain()) == []
    box = browser.js(
        f"(() => {{ const r = {SLIDER}.closest('.clf-card').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }})()"
    )
    browser.screenshot(
        artifacts / f"explorer-{kind}.png",
        {"x": box[0], "y": box[1], "width": box[2], "height": box[3]},
    )


def test_target_prevalence_and_costs_on_the_page(browser, tmp_path, artifacts):
    frame = page_kinds()["binary"][0]
    costs = {"cost_fp": 1, "cost_fn": 8, "prevalence": 0.05}
    page = ce.report_html(frame, "y", "yhat", score="score", **costs)
    assert open_page(browser, page.save(tmp_path / "decisions.html")) == page.charts
    chips = browser.js("[...document.querySelectorAll('.clf-chips li')].map(li => li.textContent)")
    labels = ce.expected_cost(frame, "y", "yhat", **costs)["expected_cost"].item()
    assert "target prevalence 5.00%" in chips
    assert f"expected cost of yhat: {labels:,.4g} per row (costs FP 1, FN 8)" in chips
    # the explorer's panel: ten rows, the last the expected cost at the slider, at the target
    values = browser.wait_for(
        f"""(() => {{ const el = {SLIDER}.closest('.clf-chart');
          const g = [...el.querySelectorAll('svg g.mark-text.role-mark')].find(
            g => g.querySelectorAll('text').length === 10);
          return g ? [...g.querySelectorAll('text')].map(t => t.textContent) : null; }})()""",
        timeout=60,
    )
    at = float(values[0])
    table = ce.thresholds(frame, "y", "score", metrics=["precision"], **costs)
    row = table.filter(pl.col("threshold") >= at).sort("threshold").row(0, named=True)
    assert values[9] == f"{row['expected_cost']:,.4f}".rstrip("0").rstrip(".")
    text = browser.js("document.body.innerText")
    assert "Precision and NPV by prevalence" in text
    assert problems(browser.drain()) == []
    box = browser.js(
        f"(() => {{ const r = {SLIDER}.closest('.clf-card').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }})()"
    )
    browser.screenshot(
        artifacts / "explorer-costs.png",
        {"x": box[0], "y": box[1], "width": box[2], "height": box[3]},
    )


# --- the generic page: every chart, hostile labels -----------------------------------------


@pytest.fixture(scope="module")
def chart_page(tmp_path_factory):
    """Every chart on one page of render_html, some with hostile labels."""
    _chromium_or_skip()
    from test_charts import builders, confusion_frame, roc_frame

    made = builders()
    evil = roc_frame(*_binary()).select(pl.lit(EVIL).alias(EVIL), pl.all())
    confusion = confusion_frame(
        ["<b>", "<!--", "<b>", "<b>"], ["<b>", "<b>", "<!--", "<b>"], ["<b>", "<!--"]
    )
    chart_list = [(name.replace("_", " ").capitalize(), build()) for name, build in made.items()]
    chart_list += [
        (f"Hostile labels {EVIL}", charts.roc(evil)),
        ("Hostile classes", charts.confusion_matrix(confusion)),
    ]
    table = pl.DataFrame({"metric": ["accuracy", "f1", EVIL], "value": [0.81, 0.77, 0.5]})
    path = write_html(
        tmp_path_factory.mktemp("report") / "charts.html",
        f"clfeval charts {EVIL}",
        [("Metrics", table)],
        chart_list,
        intro="Browser test page.",
    )
    return path, len(chart_list)


def _binary():
    from test_charts import DF

    return DF["y"].to_numpy(), DF["s"].to_numpy()


def test_every_chart_renders_offline_without_errors(browser, chart_page, artifacts):
    path, n_charts = chart_page
    browser.drain()
    assert open_page(browser, path) == n_charts
    marks = browser.js(MARKS)
    assert [m for m in marks if m[2] <= 0] == []
    assert browser.js("document.title") == f"clfeval charts {EVIL}"
    assert browser.js("document.scripts.length") == 2
    assert browser.js("window.__clfevalAlert === undefined && typeof vegaEmbed") == "function"
    assert problems(browser.drain()) == []
    screenshots(browser, artifacts, "charts")
