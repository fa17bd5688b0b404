"""The UI's login in Streamlit's AppTest, over the test run's Spark: the built-in login form, a
per-browser-session identity, sessions that another user cannot attach to by URL, the Account
page's tokens, and the proxy and OIDC modes as far as they go without a proxy or a provider."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from gateway import GatewayService, Principal
from gateway.identity import EVERY_USER, acting_as
from gateway.rest.server import process_gateway

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PASSWORD = "ui-pass-word"


@pytest.fixture(scope="module")
def app_gateway(gateway, config):
    """The process's gateway (the one app.py uses), switched to auth.mode builtin for this module."""
    service = process_gateway(lambda: GatewayService(config))
    original = service.config
    service.config = original.with_overrides(auth__mode="builtin")
    for name in ("uialice", "uibob"):
        service.store.add_user(name, PASSWORD)
    yield service
    service.config = original


def _texts(elements) -> str:
    return " ".join(str(e.value) for e in elements)


def _login(name: str, password: str = PASSWORD, session_in_url=None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    if session_in_url:
        at.query_params["session"] = session_in_url
    at.run()
    assert not at.exception, at.exception
    at.text_input(key="login_name").input(name)
    at.text_input(key="login_password").input(password)
    at.button[0].click().run()
    assert not at.exception, at.exception
    return at


def test_the_login_form_comes_first_and_opens_no_session(app_gateway):
    at = AppTest.from_file(APP, default_timeout=180).run()
    assert not at.exception, at.exception
    assert [t.label for t in at.text_input] == ["User name", "Password"]
    assert "session_handle" not in at.session_state and "session" not in at.query_params
    wrong = _login("uialice", "not-the-password")
    assert "user name or the password is wrong" in _texts(wrong.error)
    assert "session_handle" not in wrong.session_state


def _owner(gateway, handle) -> str:
    """Whose session this is, looked up as the gateway itself (any user's session)."""
    with acting_as(EVERY_USER):
        return gateway.sessions.get(handle).user


def test_a_user_logs_in_and_its_session_is_its_own(app_gateway):
    at = _login("uialice")
    handle = at.session_state["session_handle"]
    assert handle and at.query_params["session"] == handle
    assert at.session_state["principal"] == Principal("uialice")
    assert _owner(app_gateway, handle) == "uialice"
    assert "uialice" in _texts(at.sidebar.caption) and at.sidebar.button(key="logout").label == "Log out"


def test_another_user_cannot_attach_by_url_but_the_owner_can(app_gateway):
    owner = _login("uialice")
    handle = owner.session_state["session_handle"]
    intruder = _login("uibob", session_in_url=handle)
    assert intruder.session_state["session_handle"] != handle
    assert _owner(app_gateway, intruder.session_state["session_handle"]) == "uibob"
    assert "not yours" in _texts(intruder.warning)  # the editor page says so once
    app_gateway.as_user(Principal("uialice")).heartbeat(handle)  # alice's session is untouched
    again = _login("uialice", session_in_url=handle)  # a reload and a new login re-attach the owner
    assert again.session_state["session_handle"] == handle


def test_the_account_page_makes_a_token_that_rest_accepts(app_gateway):
    at = _login("uialice")
    at.switch_page("pages/account.py").run()
    assert not at.exception, at.exception
    at.text_input(key="token_label").input("from the ui")
    [b for b in at.button if b.label == "Make a token"][0].click().run()
    assert not at.exception, at.exception
    token = at.code[0].value
    assert token.startswith("wbt_") and app_gateway.authenticate_token(token) == Principal("uialice")
    assert "from the ui" in str(at.dataframe[0].value["label"].tolist())


def test_proxy_mode_without_the_proxy_serves_nothing(app_gateway):
    app_gateway.config = app_gateway.config.with_overrides(auth__mode="proxy", auth__trusted_proxies=["10.0.0.0/8"])
    try:
        at = AppTest.from_file(APP, default_timeout=180).run()
        assert "does not come from one of auth.trusted_proxies" in _texts(at.error)
        assert "session_handle" not in at.session_state
    finally:
        app_gateway.config = app_gateway.config.with_overrides(auth__mode="builtin")


def test_oidc_mode_says_what_it_needs(app_gateway):
    app_gateway.config = app_gateway.config.with_overrides(auth__mode="oidc")
    try:
        at = AppTest.from_file(APP, default_timeout=180).run()
        message = _texts(at.error)
        assert "Authlib" in message or ".streamlit/secrets.toml" in message
        assert "session_handle" not in at.session_state
    finally:
        app_gateway.config = app_gateway.config.with_overrides(auth__mode="builtin")


def test_the_admin_page_shows_every_users_session_and_adds_users(app_gateway):
    app_gateway.store.add_user("uiroot", PASSWORD, admin=True)
    user = _login("uialice")
    alices = user.session_state["session_handle"]
    admin = _login("uiroot")
    admin.switch_page("pages/admin.py").run()
    assert not admin.exception, admin.exception
    sessions = admin.dataframe[0].value
    assert alices in sessions["handle"].tolist()
    assert sessions.set_index("handle").loc[alices, "user"] == "uialice"
    admin.text_input(key="admin_user_name").input("uicarl")
    admin.text_input(key="admin_user_password").input("carl-password")
    [b for b in admin.button if b.label == "Save user"][0].click().run()
    assert not admin.exception, admin.exception
    assert app_gateway.authenticate_password("uicarl", "carl-password") == Principal("uicarl")
    refused = _login("uialice")
    with pytest.raises(ValueError, match="Could not find a navigation page"):
        refused.switch_page("pages/admin.py")  # not a page of a non-admin's app at all
    assert app_gateway.as_user(Principal("uialice")).whoami().admin is False
