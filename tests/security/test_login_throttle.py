"""Issue 27 item 12: wrong passwords are rate-limited per user name and per client address, in the
gateway (a real one over this run's Spark, its own store) and on the UI's login form (AppTest)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from conftest import wait_for
from gateway import AuthenticationError, GatewayService, TooManyLoginsError
from gateway.core.login_throttle import LoginThrottle
from gateway.rest.server import process_gateway
from security_support import PASSWORD, users_server

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LIMITS = dict(auth__login_max_failures=3, auth__login_lockout_s=1.0, auth__login_max_lockout_s=8.0)


@pytest.fixture(scope="module")
def service(config, gateway, tmp_path_factory):
    with users_server(config, tmp_path_factory.mktemp("throttle-store"), **LIMITS) as bench:
        yield bench.service


def _outcome(service, name, password, client):
    try:
        service.authenticate_password(name, password, client=client)
        return "ok"
    except TooManyLoginsError as exc:
        return f"locked: {exc.message}"
    except AuthenticationError:
        return "wrong"


def test_wrong_passwords_lock_the_user_then_the_right_one_works_after_the_lock(service):
    assert [_outcome(service, "alice", "guess", "10.0.0.1") for _ in range(3)] == ["wrong"] * 3
    locked = _outcome(service, "alice", PASSWORD, "10.0.0.2")     # the right password, another address
    assert locked.startswith("locked") and "'alice'" in locked and "auth.login_lockout_s" in locked
    assert _outcome(service, "bob", PASSWORD, "10.0.0.3") == "ok"  # other users are not locked
    assert wait_for(lambda: _outcome(service, "alice", PASSWORD, "10.0.0.2") == "ok", timeout_s=10)
    # A right login cleared the count: two wrong ones do not lock.
    assert [_outcome(service, "alice", "guess", "10.0.0.4") for _ in range(2)] == ["wrong"] * 2
    assert _outcome(service, "alice", PASSWORD, "10.0.0.4") == "ok"


def test_one_address_guessing_many_names_is_locked(service):
    outcomes = [_outcome(service, name, "guess", "10.9.9.9") for name in ("root", "bob", "nobody")]
    assert outcomes == ["wrong"] * 3
    locked = _outcome(service, "bob", PASSWORD, "10.9.9.9")
    assert locked.startswith("locked") and "from this address" in locked
    assert _outcome(service, "bob", PASSWORD, "10.8.8.8") == "ok"


def test_each_lock_after_the_first_doubles_up_to_the_most():
    now = [0.0]
    throttle = LoginThrottle(3, 10.0, 35.0, clock=lambda: now[0])
    keys = ["user:x"]
    for _ in range(3):
        throttle.check(keys)
        throttle.failed(keys)
    waits = []
    for _ in range(4):
        with pytest.raises(TooManyLoginsError) as locked:
            throttle.check(keys)
        waits.append(int(locked.value.message.split("locked for ")[1].split(" ")[0]))
        now[0] += waits[-1] + 0.5          # the lock runs out; the next guess is wrong again
        throttle.check(keys)
        throttle.failed(keys)
    assert waits == [10, 20, 35, 35]
    throttle.succeeded(keys)
    throttle.check(keys)


@pytest.fixture
def ui_gateway(gateway, config):
    """The process's gateway (the one app.py uses), with password logins and a short lock."""
    app_service = process_gateway(lambda: GatewayService(config))
    original = app_service.config
    app_service.config = original.with_overrides(auth__mode="builtin", **LIMITS)
    app_service.__dict__.pop("login_throttle", None)   # built again from these settings
    app_service.store.add_user("throttled", PASSWORD)
    yield app_service
    app_service.config = original
    app_service.__dict__.pop("login_throttle", None)


def _ui_login(password: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.text_input(key="login_name").input("throttled")
    at.text_input(key="login_password").input(password)
    at.button[0].click().run()
    assert not at.exception, at.exception
    return at


def test_the_login_form_says_how_long_to_wait_after_wrong_passwords(ui_gateway):
    for _ in range(3):
        assert "password is wrong" in " ".join(e.value for e in _ui_login("not-it").error)
    locked = _ui_login(PASSWORD)
    assert "too many wrong logins" in " ".join(e.value for e in locked.error)
    assert "session_handle" not in locked.session_state

    def logs_in():
        at = _ui_login(PASSWORD)
        return "session_handle" in at.session_state
    assert wait_for(logs_in, timeout_s=30, interval=0.3)
