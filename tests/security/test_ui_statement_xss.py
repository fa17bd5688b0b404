"""Issue 27 item 10: a statement's text never reaches the page as HTML (Streamlit AppTest)."""
from __future__ import annotations

import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
ATTACK = "SELECT '<iframe srcdoc=\"<script>parent.document.title=1</script>\"></iframe>' AS x, '`<img src=x onerror=alert(1)>`' AS y"


def html_elements(at) -> list:
    """Every Markdown-like element (markdown, caption, ...) rendered with unsafe HTML allowed."""
    return [e for e in at.main.get("markdown") + at.main.get("caption") if getattr(e, "allow_html", False)]


def test_the_session_page_shows_a_statement_as_text_not_html(gateway):
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    app_gateway, handle = at.session_state["gateway"], at.session_state["session_handle"]
    operation = app_gateway.execute_statement(handle, ATTACK)   # holds its result: listed on the Session page
    deadline = time.monotonic() + 60
    while app_gateway.get_operation_info(handle, operation).status.value != "FINISHED":
        assert time.monotonic() < deadline, "the statement did not finish"
        time.sleep(0.05)
    at.switch_page("pages/session.py").run()
    assert not at.exception, at.exception
    for element in html_elements(at):
        assert "<iframe" not in element.value and "<img" not in element.value and "<script" not in element.value, \
            element.value
    for element in at.main.get("markdown") + at.main.get("caption"):
        assert "<iframe" not in element.value, element.value     # not in Markdown either
    shown = " ".join(str(e.value) for e in at.main.get("text"))
    assert "<iframe srcdoc=" in shown, "the statement's first line is not on the page"   # shown, as text
