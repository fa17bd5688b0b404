"""What every browser test shares: the workbench app as a process, Debian's Chromium, the editor.

``Workbench`` runs ``streamlit run app.py`` on 127.0.0.1 with its own data directory and port,
waits (bounded) until Streamlit answers, and stops it by its PID; it can start again on the same
directory and port (drafts, sessions and users outliving a restart). Each start logs to its own
``streamlit-<n>.log`` in the data directory, whose tail a failed start shows.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import pytest

from ports import free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
START_TIMEOUT_S = 240
SPARK_CONF = '{"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "1g"}'


def require_chromium() -> None:
    """Fail (never skip) without the browser, saying how to get it."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: ./run-tests installs Debian's chromium when run as root "
                    f"(apt-get install -y chromium); install it, or set WORKBENCH_CHROMIUM to a Chromium binary")


class Workbench:
    """``streamlit run app.py`` on one data directory and port; stopped by its PID, startable again."""

    def __init__(self, data_dir: Path, env: Optional[dict] = None, script: Path = ROOT / "app.py") -> None:
        self.data_dir, self.port, self.script = data_dir, free_port(), script
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env or {}
        self.process: Optional[subprocess.Popen] = None
        self.starts = 0

    def start(self) -> None:
        """Start the app and return once Streamlit answers (Spark starts with the first page)."""
        self.starts += 1
        log_path = self.data_dir / f"streamlit-{self.starts}.log"
        env = dict(os.environ, WORKBENCH_DATA_DIR=str(self.data_dir), WORKBENCH_SPARK_MASTER="local[2]",
                   WORKBENCH_SPARK_CONF=SPARK_CONF, **self.env)
        with open(log_path, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(self.script), "--server.address", "127.0.0.1",
                 "--server.port", str(self.port), "--server.headless", "true",
                 "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                exit_code = self.process.poll()
                self.stop()
                pytest.fail(f"streamlit did not start (exit {exit_code}): {log_path.read_text()[-3000:]}")
            time.sleep(0.3)

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        process.terminate()  # SIGTERM to this PID
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@contextmanager
def running_workbench(data_dir: Path, env: Optional[dict] = None, script: Path = ROOT / "app.py") -> Iterator[Workbench]:
    """A started ``Workbench`` (Chromium checked first), stopped on the way out; ``script``: another
    Streamlit script than the app (a test's own)."""
    require_chromium()
    bench = Workbench(data_dir, env, script)
    bench.start()
    try:
        yield bench
    finally:
        bench.stop()


@contextmanager
def chromium() -> Iterator:
    """Debian's Chromium, headless, driven by Playwright; closed on the way out."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def fresh_artifacts(directory: Path) -> Path:
    """An empty screenshot directory (the last run's shots removed)."""
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    return directory


def editor_frame(page, timeout_s: float = 120, while_starting: bool = False):
    """The Ace component's frame once its editor is up (a new frame after each page load).

    While Spark starts the page shows a start-up editor (ui/startup.py), replaced when Spark is up; it
    edits no tab. Unless ``while_starting``, only an editor of a tab is the one wanted.
    """
    wanted = "!!window.sqlEditor" + ("" if while_starting else " && !!window.sqlEditorTab()")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for frame in page.frames:
            if "sql_editor" in frame.url:
                try:
                    if frame.evaluate(wanted):
                        return frame
                except Exception:  # noqa: BLE001 - the frame is being replaced
                    pass
        page.wait_for_timeout(100)
    raise AssertionError("the SQL editor component did not load")


def replace_text(page, frame, text: str, delay_ms: int = 10) -> None:
    """Select all of the editor's text and type ``text`` over it, key by key."""
    frame.click(".ace_content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type(text, delay=delay_ms)
