"""Every page runs without a Streamlit deprecation warning in the log (issue 31, item 5: the Plans page
printed dozens of ``use_container_width`` warnings). Each page is opened through app.py's navigation;
the Plans page compiles a statement so that its graph and tables are drawn too."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture()
def deprecations():
    """Warnings of Streamlit's deprecation logger (it logs every one, shown in the browser or not)."""
    handler = _Collect()
    logger = logging.getLogger("streamlit.deprecation_util")
    logger.addHandler(handler)
    yield handler.messages
    logger.removeHandler(handler)


def test_every_page_runs_without_a_deprecation_warning(gateway, deprecations):
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    paths = ["pages/editor.py", "pages/catalog.py", "pages/functions.py", "pages/session.py"] + [
        spec.path for spec in at.session_state["gateway"].list_feature_pages()]
    assert "pages/plans.py" in paths, paths
    for path in paths:
        at.switch_page(path).run()
        assert not at.exception, (path, at.exception)
        if path == "pages/plans.py":
            # The page's text area keeps what it first showed (the editor's current tab, which earlier tests
            # of the run may have left holding any statement): type the statement into it.
            at.text_area(key="plan_sql").input("SELECT id % 3 AS k, count(*) AS n FROM range(10) GROUP BY id % 3")
            at.run()
            at.button(key="plan_compile").click().run()
            assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
            assert at.get("graphviz_chart"), "the compiled plan's graph was not drawn"
    assert deprecations == [], deprecations[:5]
