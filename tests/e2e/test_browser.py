"""End to end in a real headless Chromium (Debian's, driven by Playwright for Python).

The app runs as ``streamlit run app.py`` on 127.0.0.1 in a subprocess with its own data
directory (its own Spark); screenshots of each step go to test-artifacts/e2e/.
"""
from __future__ import annotations

import pytest

from tests.e2e.workbench_app import ROOT, chromium, editor_frame, fresh_artifacts, replace_text, running_workbench


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    with running_workbench(tmp_path_factory.mktemp("e2e-data")) as bench:
        yield bench.url


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def shots():
    directory = fresh_artifacts(ROOT / "test-artifacts" / "e2e")
    print(f"\nscreenshots: {directory}")
    return directory


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
