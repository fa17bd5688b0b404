"""Start-up and addresses in a real headless Chromium (issue 31, item 5), on a cold workbench with
auth.mode builtin:

- the browser opens ``/admin`` at once, before Spark is up and before anyone logged in: no traceback,
  and the sidebar never lists the raw files of pages/ (``app, account, admin, …``) while Spark starts;
- the page goes through the start on its own (no reload) to the login form, then to the editor;
- every address, known or not, shows the login form to a visitor who has not logged in, never a traceback;
- a draft typed right before a reload comes back to the last keystroke (it was lost within the debounce).

Its own workbench process on a new data directory, so Spark and the metastore really start cold.
"""
from __future__ import annotations

import time

import pytest

from gateway.store import WorkbenchStore, default_url
from tests.e2e.workbench_app import ROOT, chromium, editor_frame, fresh_artifacts, replace_text, running_workbench

PASSWORD = "polish-password"
LAST_KEYSTROKES = "SELECT 'kept to the last keystroke' AS draft"
RAW_PAGE_NAMES = ("app", "account", "admin", "catalog", "editor", "functions", "jars", "modules", "plans", "session")


@pytest.fixture(scope="module")
def cold_workbench(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("e2e-start-addresses")
    store = WorkbenchStore(default_url(data_dir))
    store.add_user("polly", PASSWORD, True)
    store.close()
    with running_workbench(data_dir, {"WORKBENCH_AUTH_MODE": "builtin"}) as bench:
        yield bench


def _problems(page) -> list[str]:
    """A traceback shown, or the raw pages/ list in the sidebar's navigation."""
    found = []
    if page.locator('[data-testid="stException"]').count():
        found.append("traceback: " + page.locator('[data-testid="stException"]').first.inner_text()[:300])
    nav = page.locator('[data-testid="stSidebarNav"]')
    if nav.count():
        links = [text.strip().lower() for text in nav.first.locator("a").all_inner_texts()]
        raw = [name for name in RAW_PAGE_NAMES if name in links]
        if raw:
            found.append(f"raw page list in the sidebar: {links}")
    return found


def _log_in(page) -> None:
    page.get_by_label("User name", exact=True).fill("polly")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()


def test_cold_start_at_admin_goes_to_login_and_editor_without_reload_or_traceback(cold_workbench):
    shots = fresh_artifacts(ROOT / "test-artifacts" / "e2e-start-addresses")
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.set_default_timeout(60_000)
        page.goto(f"{cold_workbench.url}/admin")
        seen, starting_seen = [], False
        login = page.get_by_role("button", name="Log in")
        deadline = time.monotonic() + 300
        # Through the whole start, on the page first opened: watch for tracebacks and the raw page list.
        app_ran = False
        while time.monotonic() < deadline and not login.count():
            starting_seen = starting_seen or page.get_by_text("Spark is starting").count() > 0
            # `streamlit run app.py` (not ./workbench, whose launcher tells Streamlit first) may show
            # Streamlit's automatic list while a fresh process imports app.py for its very first run.
            app_ran = app_ran or starting_seen
            seen += [problem for problem in _problems(page) if app_ran or problem.startswith("traceback")]
            page.wait_for_timeout(250)
        page.screenshot(path=str(shots / "after-start.png"), full_page=True)
        assert not seen, seen[:3]
        assert login.count(), "the login form did not come after the start (a blank page needs a reload)"
        assert starting_seen, "Spark was up before the page opened: the start was not watched"
        # Every address, known or not, shows the login form before a login.
        for address in ("admin", "account", "editor", "catalog", "plans", "no_such_page", ""):
            page.goto(f"{cold_workbench.url}/{address}")
            page.get_by_role("button", name="Log in").wait_for(timeout=60_000)
            assert not _problems(page), (address, _problems(page))
        # The login goes to a usable editor without a reload.
        _log_in(page)
        frame = editor_frame(page, 180)
        assert frame.evaluate("typeof window.sqlEditor.getValue()") == "string"
        assert not _problems(page), _problems(page)
        page.screenshot(path=str(shots / "editor.png"), full_page=True)
        # A reload right after the last keystroke (no wait for the debounce) keeps the whole draft.
        replace_text(page, frame, LAST_KEYSTROKES, delay_ms=5)
        page.reload()  # the login survives it (its cookie): straight back to the editor
        frame = editor_frame(page, 180)
        assert not page.get_by_role("button", name="Log in").count()
        deadline = time.monotonic() + 30
        while frame.evaluate("window.sqlEditor.getValue()") != LAST_KEYSTROKES and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        assert frame.evaluate("window.sqlEditor.getValue()") == LAST_KEYSTROKES
