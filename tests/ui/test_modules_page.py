"""The Modules page in Streamlit's AppTest, bound to a real gateway session."""
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "modules.py")


@pytest.fixture
def page(gateway, session):
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["gateway"] = gateway
    at.session_state["session_handle"] = str(session)
    at.run()
    assert not at.exception
    return at


def order(gateway, session):
    return [(m.name, m.used) for m in gateway.list_modules(session, full=True)]


def test_load_reorder_stop_using_and_unload(gateway, session, page):
    assert any("**core**" in m.value and "#1" in m.value for m in page.markdown)
    page.selectbox(key="load_type").set_value("geo").run()
    page.button(key="FormSubmitter:load_module-Load").click().run()
    assert not page.exception
    assert order(gateway, session) == [("core", True), ("geo", True)]
    assert any("geo loaded" in s.value for s in page.success)
    assert any("haversine_km" in m.value for m in page.markdown)     # the module's functions are listed
    page.button(key="up_geo").click().run()
    assert order(gateway, session) == [("geo", True), ("core", True)]
    page.button(key="use_geo").click().run()                       # stop using
    assert order(gateway, session) == [("core", True), ("geo", False)]
    page.button(key="use_geo").click().run()                       # use again, last
    assert order(gateway, session) == [("core", True), ("geo", True)]
    page.button(key="unload_geo").click().run()
    assert order(gateway, session) == [("core", True)]
    assert not page.exception


def test_load_form_shows_the_types_properties_and_errors(gateway, session, page):
    page.selectbox(key="load_type").set_value("sql").run()
    labels = [t.label for t in page.text_input]
    assert "path (required)" in labels
    page.button(key="FormSubmitter:load_module-Load").click().run()
    assert any("needs the property path" in e.value for e in page.error)
    assert order(gateway, session) == [("core", True)]


def test_unloading_core_asks_first(gateway, session, page):
    page.button(key="unload_core").click().run()
    assert order(gateway, session) == [("core", True)]              # nothing happened yet
    assert any("Unload **core**?" in w.value for w in page.warning)
    page.button(key="unload_core_kept").click().run()
    assert order(gateway, session) == [("core", True)] and not page.warning
    page.button(key="unload_core").click().run()
    page.button(key="unload_core_confirmed").click().run()
    assert order(gateway, session) == []
    assert any("core unloaded" in s.value for s in page.success)
    gateway.load_module(session, "core")
    assert not page.exception
