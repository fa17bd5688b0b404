"""End to end in a real headless Chromium (Debian's, driven by Playwright for Python).

The app runs as ``streamlit run app.py`` on 127.0.0.1 in a subprocess with its own data
directory (its own Spark); screenshots of each step go to test-artifacts/e2e/.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from ports import free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("WORKBENCH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
START_TIMEOUT_S = 180



@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    """``streamlit run app.py`` on a free port; waits (bounded) for health, stops by PID."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: ./run-tests installs Debian's chromium when run as root "
                    f"(apt-get install -y chromium); install it, or set WORKBENCH_CHROMIUM to a Chromium binary")
    port = free_port()
    data_dir = tmp_path_factory.mktemp("e2e-data")
    env = dict(os.environ, WORKBENCH_DATA_DIR=str(data_dir), WORKBENCH_SPARK_MASTER="local[2]",
               WORKBENCH_SPARK_CONF='{"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "1g"}')
    log = open(data_dir / "streamlit.log", "w")
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.address", "127.0.0.1",
         "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"streamlit did not start (exit {process.poll()}): "
                            f"{(data_dir / 'streamlit.log').read_text()[-3000:]}")
            time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        log.close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots():
    if ARTIFACTS.exists():
        shutil.rmtree(ARTIFACTS)
    ARTIFACTS.mkdir(parents=True)
    print(f"\nscreenshots: {ARTIFACTS}")
    return ARTIFACTS


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


def replace_text(page, frame, text):
    frame.click(".ace_content")
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type(text, delay=30)


def test_complete_a_sample_table_run_it_and_cancel_a_long_query(app_url, browser, shots):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(120_000)
    page.goto(app_url)
    page.get_by_role("heading", name="SQL editor").wait_for(timeout=300_000)  # Spark and the metastore start
    frame = editor_frame(page)
    page.get_by_text("Write SQL above and run it").wait_for()
    assert "session=" in page.url  # the session handle sits in the URL
    page.screenshot(path=str(shots / "01-first-run.png"), full_page=True)

    # One click: the sample database, which becomes the current database.
    page.get_by_role("button", name="Create the sample database").click()
    page.get_by_text("spark_catalog.sample").first.wait_for(timeout=180_000)
    frame = editor_frame(page)
    page.screenshot(path=str(shots / "02-sample-database.png"), full_page=True)

    # The dictionary with the new tables reaches the browser with a rerun after the click (it is listed in
    # a thread); a popup opened before that shows the old one. Then type SELECT * FROM and see them offered.
    frame.wait_for_function("window.sqlEditorDictionary && window.sqlEditorDictionary() && "
                            "window.sqlEditorDictionary().relations.some(r => r.value === 'orders')", timeout=90_000)
    replace_text(page, frame, "SELECT * FROM ")
    popup = frame.locator(".ace_autocomplete")
    popup.get_by_text("orders", exact=True).wait_for(timeout=90_000)
    offered = popup.inner_text()
    assert "customers" in offered and "order_items" in offered and "table" in offered
    page.screenshot(path=str(shots / "03-completion-popup.png"), full_page=True)

    # Accept the first candidate and run the statement at the cursor (Ctrl+Enter).
    page.keyboard.press("Enter")
    assert frame.evaluate("window.sqlEditor.getValue()") == "SELECT * FROM customers"
    page.keyboard.press("Control+Enter")
    page.get_by_text("50 rows").first.wait_for(timeout=120_000)
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.wait_for()
    assert "FINISHED" in page.locator('[data-testid="stMarkdownContainer"]').all_inner_texts().__str__()
    page.screenshot(path=str(shots / "04-result-grid.png"), full_page=True)

    # Columns after an alias come from the referenced table.
    replace_text(page, frame, "SELECT c. FROM customers c")
    frame.evaluate("window.sqlEditor.gotoLine(1, 9)")
    frame.evaluate("window.sqlEditor.execCommand('startAutocomplete')")
    frame.locator(".ace_autocomplete").get_by_text("signup_date").wait_for(timeout=90_000)
    page.screenshot(path=str(shots / "05-columns-after-alias.png"), full_page=True)
    page.keyboard.press("Escape")

    # A long query shows live progress; Cancel really stops it.
    replace_text(page, frame, "SELECT count(*) FROM range(0, 400000000000, 1, 4) WHERE id % 7 = 3")
    page.keyboard.press("Control+Shift+Enter")
    cancel = page.get_by_role("button", name="Cancel")
    cancel.wait_for(timeout=60_000)
    page.get_by_text("job(s)").first.wait_for(timeout=60_000)
    page.screenshot(path=str(shots / "06-running-with-progress.png"), full_page=True)
    cancel.click()
    page.get_by_text("CANCELED").first.wait_for(timeout=60_000)
    page.get_by_text("the statement and its Spark jobs were stopped").wait_for()
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    page.screenshot(path=str(shots / "07-canceled.png"), full_page=True)

    # The session stays healthy: the next statement runs.
    replace_text(page, frame, "SELECT count(*) AS n FROM orders")
    page.keyboard.press("Control+Enter")
    page.get_by_text("1 row", exact=True).first.wait_for(timeout=120_000)
    page.screenshot(path=str(shots / "08-after-cancel.png"), full_page=True)
    page.close()
