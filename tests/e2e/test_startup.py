"""Start-up in a real headless Chromium (issue 14, item 8): on a cold workbench the editor takes typing
while Spark starts, completes keywords, and a Run pressed then goes as soon as Spark is up.

Its own workbench process on a new data directory, so Spark and the metastore really start cold.
"""
from __future__ import annotations

import pytest

from tests.e2e.workbench_app import ROOT, chromium, editor_frame, replace_text, running_workbench

ARTIFACTS = ROOT / "test-artifacts" / "e2e-editor"

EARLY = "SELECT 'typed while Spark started' AS early"


@pytest.fixture(scope="module")
def cold_workbench(tmp_path_factory):
    """Returns when Streamlit answers; Spark starts with the first page."""
    with running_workbench(tmp_path_factory.mktemp("e2e-startup-data")) as bench:
        yield bench


def test_the_editor_takes_typing_while_spark_starts_and_runs_when_it_is_up(cold_workbench):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.set_default_timeout(60_000)
        page.goto(cold_workbench.url)
        starting = page.get_by_text("Spark is starting")
        starting.wait_for(timeout=30_000)
        frame = editor_frame(page, 30, while_starting=True)
        # Keywords complete from the browser's dictionary while there is no Spark yet.
        replace_text(page, frame, "SELEC")
        frame.evaluate("window.sqlEditor.execCommand('startAutocomplete')")
        popup = frame.locator(".ace_autocomplete")
        popup.wait_for(timeout=5_000)
        # Ace splits the typed prefix from the rest of the word: compare without the breaks.
        frame.wait_for_function("document.querySelector('.ace_autocomplete').innerText"
                                ".replace(/\\s+/g, '').includes('SELECTkeyword')", timeout=5_000)
        assert "keyword" in popup.inner_text()
        page.keyboard.press("Escape")
        replace_text(page, frame, EARLY)
        page.keyboard.press("Control+Enter")
        page.get_by_text("Your statement runs as soon as Spark is up").wait_for(timeout=10_000)
        page.screenshot(path=str(ARTIFACTS / "startup-typed.png"), full_page=True)
        assert starting.count() == 1, "Spark was up before the run was asked for: nothing was tested"
        # Spark comes up: the typed text is in the editor of the real page and its result shows.
        page.get_by_text("typed while Spark started").last.wait_for(timeout=240_000)
        page.get_by_text("1 row", exact=True).first.wait_for(timeout=120_000)
        frame = editor_frame(page, 60)
        assert frame.evaluate("window.sqlEditor.getValue()") == EARLY
        page.screenshot(path=str(ARTIFACTS / "startup-ran.png"), full_page=True)
