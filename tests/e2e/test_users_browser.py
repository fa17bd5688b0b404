"""Users in a real headless Chromium: with auth.mode builtin, users A and B log in; B, given A's
session handle in the URL, gets a session of B's own and a notice, never A's session.

The app runs as ``streamlit run app.py`` on 127.0.0.1 in a subprocess with its own data directory;
the users are made in that directory's store before it starts. Screenshots: test-artifacts/e2e-users/.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from gateway.store import WorkbenchStore, default_url
from e2e.test_browser import CHROMIUM, CHROMIUM_ARGS, START_TIMEOUT_S, free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e-users"
PASSWORDS = {"anna": "anna-password", "bert": "bert-password"}


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium, or set WORKBENCH_CHROMIUM")
    data_dir = tmp_path_factory.mktemp("e2e-users")
    store = WorkbenchStore(default_url(data_dir))
    for name, password in PASSWORDS.items():
        store.add_user(name, password)
    store.close()
    port = free_port()
    env = dict(os.environ, WORKBENCH_DATA_DIR=str(data_dir), WORKBENCH_SPARK_MASTER="local[2]",
               WORKBENCH_AUTH_MODE="builtin", WORKBENCH_SESSION_RESTORE="false",
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
                pytest.fail(f"streamlit did not start: {(data_dir / 'streamlit.log').read_text()[-3000:]}")
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


def _log_in(browser, url: str, name: str):
    context = browser.new_context(viewport={"width": 1300, "height": 900})  # its own cookies: another browser
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(url)
    page.get_by_label("User name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORDS[name])
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("heading", name="SQL editor").wait_for(timeout=300_000)  # Spark starts on the first
    deadline = time.monotonic() + 60
    while "session=" not in page.url and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    return context, page


def _handle(page) -> str:
    match = re.search(r"session=([0-9a-f-]{36})", page.url)
    assert match, page.url
    return match.group(1)


def test_another_user_cannot_attach_to_a_session_by_its_url(app_url, browser):
    if ARTIFACTS.exists():
        shutil.rmtree(ARTIFACTS)
    ARTIFACTS.mkdir(parents=True)
    first = browser.new_page()
    first.goto(app_url)
    first.get_by_role("button", name="Log in").wait_for(timeout=300_000)
    assert "session=" not in first.url  # nothing opens before a login
    first.screenshot(path=str(ARTIFACTS / "01-login.png"), full_page=True)
    first.close()

    anna_context, anna = _log_in(browser, app_url, "anna")
    annas = _handle(anna)
    anna.get_by_text("anna").first.wait_for()
    anna.screenshot(path=str(ARTIFACTS / "02-anna.png"), full_page=True)

    bert_context, bert = _log_in(browser, f"{app_url}/?session={annas}", "bert")
    bert.get_by_text("not yours").wait_for(timeout=60_000)
    berts = _handle(bert)
    assert berts != annas
    bert.screenshot(path=str(ARTIFACTS / "03-bert-with-annas-url.png"), full_page=True)

    anna.reload()  # anna logs in again in a new browser session and gets her own session back
    anna.get_by_label("User name", exact=True).fill("anna")
    anna.get_by_label("Password", exact=True).fill(PASSWORDS["anna"])
    anna.get_by_role("button", name="Log in").click()
    anna.get_by_role("heading", name="SQL editor").wait_for()
    assert _handle(anna) == annas
    anna_context.close()
    bert_context.close()
