"""Users in a real headless Chromium, with auth.mode builtin:

- users A (anna) and B (bert) log in; B, given A's session handle in the URL, gets a session of B's
  own and a notice, never A's session;
- an admin (root) cancels B's running query from the Admin page, and B's page shows it CANCELED;
- after a restart of the workbench process (stopped by its PID, started again on the same data
  directory and port), A logs in again and A's tab reattaches to A's session with its temporary
  view, SET value and loaded module (geo) back.

That REST with A's token cannot touch B's session (404 on every route) is tested over real HTTP in
tests/gateway/rest/test_rest_users.py, not here.

The app runs as ``streamlit run app.py`` on 127.0.0.1 in a subprocess with its own data directory;
the users are made in that directory's store before it starts. ``auth.admin_only_code`` is off so
that A, not an admin, may LOAD MODULE. Screenshots: test-artifacts/e2e-users/.
"""
from __future__ import annotations

import re
import time

import pytest

from gateway.store import WorkbenchStore, default_url
from tests.e2e.workbench_app import ROOT, chromium, editor_frame, fresh_artifacts, replace_text, running_workbench

PASSWORDS = {"anna": "anna-password", "bert": "bert-password", "root": "root-password"}
ADMINS = {"root"}
LONG_QUERY = "SELECT count(*) FROM range(0, 400000000000, 1, 4) WHERE id % 7 = 3"


@pytest.fixture(scope="module")
def workbench(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("e2e-users")
    store = WorkbenchStore(default_url(data_dir))
    for name, password in PASSWORDS.items():
        store.add_user(name, password, name in ADMINS)
    store.close()
    env = {"WORKBENCH_AUTH_MODE": "builtin", "WORKBENCH_SESSION_RESTORE": "true",
           "WORKBENCH_AUTH_ADMIN_ONLY_CODE": "false"}
    with running_workbench(data_dir, env) as bench:
        yield bench


@pytest.fixture(scope="module")
def app_url(workbench):
    return workbench.url


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def shots():
    return fresh_artifacts(ROOT / "test-artifacts" / "e2e-users")


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


def _run(page, sql: str, expect: str) -> None:
    """Type ``sql`` into the editor, run all of it (Ctrl+Shift+Enter) and wait for ``expect`` on the page."""
    frame = editor_frame(page)
    replace_text(page, frame, sql)
    page.keyboard.press("Escape")  # the completion popup, if typing opened one
    page.keyboard.press("Control+Shift+Enter")
    page.get_by_text(expect, exact=True).first.wait_for(timeout=120_000)


def test_another_user_cannot_attach_to_a_session_by_its_url(app_url, browser, shots):
    first = browser.new_page()
    first.goto(app_url)
    first.get_by_role("button", name="Log in").wait_for(timeout=300_000)
    assert "session=" not in first.url  # nothing opens before a login
    first.screenshot(path=str(shots / "01-login.png"), full_page=True)
    first.close()

    anna_context, anna = _log_in(browser, app_url, "anna")
    annas = _handle(anna)
    anna.get_by_text("anna").first.wait_for()
    anna.screenshot(path=str(shots / "02-anna.png"), full_page=True)

    bert_context, bert = _log_in(browser, f"{app_url}/?session={annas}", "bert")
    bert.get_by_text("not yours").wait_for(timeout=60_000)
    berts = _handle(bert)
    assert berts != annas
    bert.screenshot(path=str(shots / "03-bert-with-annas-url.png"), full_page=True)

    anna.reload()  # a new browser session, still logged in (the login cookie) with her own session back
    anna.get_by_role("button", name="Log out").wait_for()
    anna.get_by_role("heading", name="SQL editor").wait_for()
    assert _handle(anna) == annas
    anna_context.close()
    bert_context.close()


def test_an_admin_cancels_another_users_running_query_from_the_admin_page(app_url, browser, shots):
    bert_context, bert = _log_in(browser, app_url, "bert")
    frame = editor_frame(bert)
    replace_text(bert, frame, LONG_QUERY)
    bert.keyboard.press("Control+Shift+Enter")
    bert.get_by_role("button", name="Cancel").wait_for(timeout=60_000)
    bert.get_by_text("job(s)").first.wait_for(timeout=60_000)  # its Spark job runs

    root_context, root = _log_in(browser, app_url, "root")
    root.get_by_role("link", name="Admin").click()
    root.get_by_role("heading", name="Running statements").wait_for()
    row = root.get_by_text("bert", exact=True).first
    row.wait_for(timeout=60_000)
    root.locator('[data-testid="stCode"]').filter(has_text="range(0, 400000000000").first.wait_for(timeout=30_000)  # its statement
    root.screenshot(path=str(shots / "04-admin-sees-berts-query.png"), full_page=True)
    cancel = root.get_by_role("button", name="Cancel")
    assert cancel.count() == 1  # only bert's statement runs
    cancel.click()
    root.get_by_text("No statement is running.").wait_for(timeout=60_000)
    root.screenshot(path=str(shots / "05-admin-after-cancel.png"), full_page=True)

    bert.get_by_text("CANCELED", exact=True).first.wait_for(timeout=60_000)
    bert.get_by_text("Canceled by an admin or another client: the statement and its Spark jobs were stopped").wait_for(
        timeout=30_000)
    assert bert.locator('[data-testid="stAlertContentError"]').count() == 0
    bert.screenshot(path=str(shots / "06-bert-sees-it-canceled.png"), full_page=True)
    _run(bert, "SELECT 1 AS one", "1 row")  # bert's session stays healthy
    root_context.close()
    bert_context.close()


def test_after_a_restart_a_users_tab_reattaches_with_its_view_setting_and_module(workbench, browser, shots):
    check = ("SELECT answer FROM anna_view WHERE answer = 42 AND current_timezone() = 'Asia/Tokyo' "
             "AND round(haversine_km(0, 0, 0, 1), 1) = 111.2")
    anna_context, anna = _log_in(browser, workbench.url, "anna")
    annas = _handle(anna)
    # One script: the view, a setting, a module, and the query that needs all three (its result is shown).
    _run(anna, "CREATE OR REPLACE TEMPORARY VIEW anna_view AS SELECT 42 AS answer; "
               "SET spark.sql.session.timeZone = Asia/Tokyo; LOAD MODULE geo; " + check, "1 row")
    anna.get_by_text("script of 4 statements", exact=False).first.wait_for()
    anna.screenshot(path=str(shots / "07-anna-before-restart.png"), full_page=True)
    anna_context.close()

    workbench.stop()
    workbench.start()

    anna_context, anna = _log_in(browser, f"{workbench.url}/?session={annas}", "anna")
    assert _handle(anna) == annas  # the tab's handle in its URL is anna's session again
    assert anna.get_by_text("not yours").count() == 0
    _run(anna, check, "1 row")  # the view, the time zone and geo's haversine_km are back
    assert anna.locator('[data-testid="stAlertContentError"]').count() == 0
    anna.screenshot(path=str(shots / "08-anna-after-restart.png"), full_page=True)
    anna_context.close()
