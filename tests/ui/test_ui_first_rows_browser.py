"""Issue 31: a large, slow result shows its first rows while the gateway still spools it, in a real headless
Chromium against ``streamlit run app.py``; the caption says that sort, filter and search wait for the whole
result (the whole-result grid takes over at the end; here the run is canceled once the first rows showed).

The query streams partition by partition (60 of them, each hashing 50,000 long strings), so its first
partition is spooled long before its last: the first rows, the caption and the Cancel button of the
running statement must be on the page at one moment (one check of the DOM, no timing)."""
from __future__ import annotations

import pytest

from tests.e2e.workbench_app import chromium, editor_frame, replace_text, running_workbench

SLOW = ("SELECT id, length(sha2(repeat(CAST(id AS STRING), 400), 256)) AS digest_length "
        "FROM range(0, 3000000, 1, 60)")
SPOOLING = "while the result is spooling"


@pytest.fixture(scope="module")
def workbench(tmp_path_factory):
    with running_workbench(tmp_path_factory.mktemp("e2e-first-rows")) as bench:
        yield bench


@pytest.mark.timeout(1500)   # Spark's start and the run share 2 cores with everything else
def test_the_first_rows_show_before_the_spool_ends(workbench, tmp_path):
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.set_default_timeout(240_000)
        page.goto(workbench.url)
        frame = editor_frame(page, timeout_s=600)   # Spark starts with the first page
        replace_text(page, frame, SLOW, delay_ms=2)
        page.keyboard.press("Escape")
        frame.click("#run-all")
        page.get_by_role("button", name="Cancel").wait_for(timeout=300_000)   # it runs
        try:
            page.wait_for_function(
                """text => document.body.innerText.includes(text)
                      && document.querySelectorAll('[data-testid="stDataFrame"]').length > 0
                      && [...document.querySelectorAll('button')].some(b => b.innerText.trim().endsWith('Cancel'))""",
                arg=SPOOLING, timeout=600_000, polling=100)
        except Exception:
            page.screenshot(path=str(tmp_path / "first-rows.png"), full_page=True)
            raise
        caption = page.get_by_text(SPOOLING).first.inner_text()
        assert "rows so far" in caption and "once it is complete" in caption
        page.get_by_role("button", name="Cancel").click()   # no need to spool the rest
