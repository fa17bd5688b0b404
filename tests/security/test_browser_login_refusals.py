"""Issue 31: the builtin login's cookie (ui/login_cookie.py) names a login the store keeps; anything
else logs nobody in (fail closed). Over a real gateway of this run's Spark with its own store, and its
REST API on 127.0.0.1: a forged, ended or expired token, one of a removed user, another user's logout,
and the cookie's token offered to REST as a bearer token are all refused."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import update

from gateway import AuthenticationError, Principal
from gateway.store.schema import browser_logins
from gateway.store.users import token_hash
from security_support import users_server


@pytest.fixture(scope="module")
def bench(config, gateway, tmp_path_factory):
    with users_server(config, tmp_path_factory.mktemp("browser-logins")) as bench:
        yield bench


def _login(service, name: str) -> str:
    return service.as_user(Principal(name, name == "root")).start_browser_login()


def _refused(service, token) -> bool:
    try:
        service.authenticate_browser_login(token)
        return False
    except AuthenticationError as exc:
        assert "log in again" in exc.message or "auth.mode" in exc.message
        return True


def test_a_live_login_names_its_user_and_only_its_token_does(bench):
    token = _login(bench.service, "alice")
    assert token.startswith("wbl_") and len(token) > 40
    assert bench.service.authenticate_browser_login(token) == Principal("alice")
    assert bench.service.authenticate_browser_login(_login(bench.service, "root")) == Principal("root", admin=True)
    forged = [token[:-1] + ("A" if token[-1] != "A" else "B"), "wbl_" + "x" * 43, token + "x", "", "wbl_",
              "x" * 5000, None, 42, token.replace("wbl_", "wbt_")]
    assert all(_refused(bench.service, bad) for bad in forged)


def test_logging_out_ends_the_login_and_another_user_cannot_end_it(bench):
    token = _login(bench.service, "alice")
    bench.service.as_user(Principal("bob")).end_browser_login(token)   # not bob's: nothing happens
    assert bench.service.authenticate_browser_login(token) == Principal("alice")
    bench.service.as_user(Principal("alice")).end_browser_login(token)
    assert _refused(bench.service, token)


def test_an_expired_login_is_refused(bench):
    token = _login(bench.service, "alice")
    with bench.service.store._transaction(write=True) as connection:
        connection.execute(update(browser_logins).where(browser_logins.c.login_hash == token_hash(token))
                           .values(expires_at=dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1)))
    assert _refused(bench.service, token)


def test_a_removed_users_login_is_refused(bench):
    bench.service.store.add_user("carol", "pass-word-carol")
    token = _login(bench.service, "carol")
    assert bench.service.authenticate_browser_login(token) == Principal("carol")
    bench.service.store.remove_user("carol")
    assert _refused(bench.service, token)


def test_the_login_token_is_no_rest_token(bench):
    token = _login(bench.service, "alice")
    assert bench.http("POST", "/v1/sessions", {}, token=token).status == 401
    assert bench.http("POST", "/v1/sessions", {}, token=bench.tokens["alice"]).status == 200  # a real token works


def test_browser_logins_are_off_unless_auth_mode_is_builtin(bench):
    token = _login(bench.service, "alice")
    original = bench.service.config
    bench.service.config = original.with_overrides(auth__mode="proxy", auth__trusted_proxies=["10.0.0.0/8"])
    try:
        assert _refused(bench.service, token)
    finally:
        bench.service.config = original
