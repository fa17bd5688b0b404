"""The editor's frame is never replaced by a run (issue 31, the everyday loop), in a real headless Chromium.

A replaced frame loses the user's focus, cursor and undo history, and a script driving the page dies on
"Frame was detached". A mark set in the editor frame's window must still be there after runs of every kind:
the page's first run, a script, an error, a parameterised query (its form appears above the editor) and a
CREATE (the completion dictionary reloads); and the page's focus must still be in that frame. Every wait is
on a condition, never a sleep.
"""
from __future__ import annotations

import pytest

from tests.e2e.workbench_app import chromium, editor_frame, replace_text, running_workbench

IDLE = "!document.querySelector('[data-testid=\"stStatusWidget\"]')"
RUNS = [  # (what, statement, a text the finished run shows)
    ("the page's first run", "SELECT 1 AS first_run", "FINISHED"),
    ("a script", "SELECT 1 AS a;\nSELECT 2 AS b", "Statement 2 · line 2"),
    ("an error", "SELECT no_such_column FROM range(1)", "UNRESOLVED_COLUMN"),
    ("a parameterised query", "SELECT :kept_n AS x", None),
    ("a CREATE", "CREATE TABLE frame_kept_t (a INT) USING parquet", "returns no rows"),
    ("a query after the CREATE", "SELECT * FROM frame_kept_t", "0 rows"),
]


@pytest.fixture(scope="module")
def workbench(tmp_path_factory):
    with running_workbench(tmp_path_factory.mktemp("e2e-frame-kept"), {"WORKBENCH_REST_ENABLED": "false"}) as bench:
        yield bench


@pytest.fixture(scope="module")
def page(workbench):
    with chromium() as browser:
        tab = browser.new_page(viewport={"width": 1400, "height": 1000})
        tab.set_default_timeout(120_000)
        yield tab


def settled_editor(page, url: str):
    """The editor of a tab once Spark is up and the page has stopped running (the start-up editor, drawn
    while Spark starts, is replaced by design when Spark is up: not what this test is about)."""
    page.goto(url)
    page.get_by_role("heading", name="SQL editor").wait_for(timeout=900_000)
    # the start-up page has that heading and an editor too: wait until its notice is gone (Spark is up; in a
    # loaded whole run the hand-over came during the first run and failed this test as "frame replaced")
    page.get_by_text("Spark is starting").wait_for(state="detached", timeout=900_000)
    editor_frame(page, timeout_s=900)
    page.wait_for_function(IDLE, timeout=120_000)
    return editor_frame(page)


def run(page, frame, what: str, sql: str, shows) -> None:
    """Type ``sql``, click Run all, and wait until the run has ended and the page is idle."""
    try:
        replace_text(page, frame, sql)
        typed = frame.evaluate("window.sqlEditor.getValue()")
        assert typed == sql, f"{what}: the editor holds {typed!r} after typing {sql!r} (a completion took a key?)"
        if what == "a parameterised query":
            field = page.get_by_label(":kept_n")
            field.wait_for()                       # the form above the editor
            field.fill("42")
            field.press("Enter")
            page.wait_for_function(IDLE)
        frame.click("#run-all")
        frame.wait_for_function("document.getElementById('status').style.display !== 'none'", timeout=10_000)
        frame.wait_for_function("document.getElementById('status').style.display === 'none'", timeout=180_000)
    except AssertionError:
        raise
    except Exception as exc:  # noqa: BLE001 - playwright's own error says "detached" when the frame went
        raise AssertionError(f"{what}: the editor's frame was replaced or did not answer: {exc}") from exc
    page.get_by_role("button", name="Cancel").wait_for(state="detached", timeout=180_000)
    if shows:
        try:
            page.get_by_text(shows).first.wait_for(timeout=60_000)
        except Exception as exc:  # noqa: BLE001 - say what the page showed instead (a whole run's flake)
            raise AssertionError(f"{what}: {shows!r} never showed; {seen(page, frame)}") from exc
    page.wait_for_function(IDLE, timeout=120_000)


def seen(page, frame) -> str:
    """What the run showed: the editor's text (a late completion popup can take a typed Enter), the script's
    statement lines and the page's alerts."""
    try:
        text = frame.evaluate("window.sqlEditor.getValue()")
    except Exception as exc:  # noqa: BLE001 - the frame itself may be the problem
        text = f"<unreadable: {exc}>"
    lines = page.locator(".st-key-script-results").all_inner_texts()
    alerts = page.locator("[data-testid='stAlert']").all_inner_texts()
    return f"the editor held {text!r}; the script's list: {lines or 'none'}; alerts: {alerts or 'none'}"


def test_runs_of_every_kind_keep_the_editors_frame_and_focus(workbench, page):
    frame = settled_editor(page, workbench.url)
    frame.evaluate("window.__frameMark = 'kept'")
    for what, sql, shows in RUNS:
        run(page, frame, what, sql, shows)
        assert not frame.is_detached(), f"{what} replaced the editor's frame"
        assert frame.evaluate("window.__frameMark") == "kept", f"{what} reloaded the editor's frame"
        assert editor_frame(page) == frame, f"{what}: another editor frame is on the page"
        assert page.evaluate("document.activeElement && document.activeElement.tagName") == "IFRAME", \
            f"{what}: the focus left the editor's frame"
        assert frame.evaluate("window.sqlEditor.getValue()") == sql, f"{what}: the editor lost its text"


def test_the_expired_session_notice_going_away_keeps_the_editors_frame(workbench, page):
    """An address whose session is gone shows a notice above the editor in the page's first run only; the
    next run of the whole page (here: the current database changed) draws the page without it."""
    frame = settled_editor(page, workbench.url + "/?session=gone-session")
    page.get_by_text("The session in the address expired").wait_for()
    frame.evaluate("window.__frameMark = 'kept'")
    sql = "CREATE DATABASE IF NOT EXISTS frame_kept_db;\nUSE frame_kept_db"
    run(page, frame, "a USE after the notice", sql, "frame_kept_db")
    page.get_by_text("The session in the address expired").wait_for(state="detached")
    assert not frame.is_detached(), "the notice's going replaced the editor's frame"
    assert frame.evaluate("window.__frameMark") == "kept" and editor_frame(page) == frame
