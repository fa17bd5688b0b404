"""Issue 31: a builtin login survives a reload and a new tab, in a real headless Chromium against
``streamlit run app.py`` (auth.mode builtin, its own data directory and store):

- log in, reload: still logged in; a new tab of the same browser: logged in too;
- the cookie is HttpOnly and SameSite=Strict, and holds no ticket of the page;
- log out, reload: the login form (the login ended in the store; the browser dropped the cookie);
- a tampered cookie, and the cookie of an ended login put back: the login form;
- the cookie route refuses a foreign Origin and a ticket it did not issue.
"""
from __future__ import annotations

import pytest

from gateway.store import WorkbenchStore, default_url
from tests.e2e.workbench_app import chromium, running_workbench
from ui.login_cookie import COOKIE, ROUTE

PASSWORD = "cookie-pass-word"
LOGGED_IN = 300_000   # Spark starts on the first login


@pytest.fixture(scope="module")
def workbench(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("e2e-login-cookie")
    store = WorkbenchStore(default_url(data_dir))
    store.add_user("carla", PASSWORD)
    store.close()
    with running_workbench(data_dir, {"WORKBENCH_AUTH_MODE": "builtin"}) as bench:
        yield bench


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def _logged_in(page) -> None:
    page.get_by_role("button", name="Log out").wait_for(timeout=LOGGED_IN)
    page.get_by_text("carla").first.wait_for()


def _login_form(page) -> None:
    page.get_by_role("button", name="Log in").wait_for(timeout=LOGGED_IN)
    assert page.get_by_role("button", name="Log out").count() == 0


def _login_cookie(context):
    return next((c for c in context.cookies() if c["name"] == COOKIE), None)


def _wait_for_cookie(page, context, present: bool = True) -> None:
    for _ in range(300):
        if (_login_cookie(context) is not None) == present:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the login cookie was {'never set' if present else 'never dropped'}")


def _logged_in_as_carla(workbench, browser, **context_options):
    """A new browser context logged in through the form, once its login cookie is set: (context, page, cookie)."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(workbench.url)
    page.get_by_label("User name", exact=True).fill("carla")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    _logged_in(page)
    _wait_for_cookie(page, context)
    return context, page, _login_cookie(context)


def test_a_login_survives_reloads_and_new_tabs_until_it_logs_out(workbench, browser):
    context, page, cookie = _logged_in_as_carla(workbench, browser, viewport={"width": 1300, "height": 900})
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
    assert cookie["value"].startswith("wbl_") and cookie["expires"] > 0
    assert page.evaluate("document.cookie").find(COOKIE) == -1     # no script of the page can read it

    page.reload()
    _logged_in(page)
    other = context.new_page()        # a new tab of the same browser
    other.goto(workbench.url)
    _logged_in(other)
    other.close()

    dead = cookie["value"]
    page.get_by_role("button", name="Log out").click()
    _login_form(page)
    _wait_for_cookie(page, context, present=False)
    page.reload()
    _login_form(page)

    context.add_cookies([{**cookie, "value": dead}])   # the ended login's cookie, put back
    page.reload()
    _login_form(page)
    context.close()


def test_a_tampered_cookie_gets_the_login_form(workbench, browser):
    context, page, cookie = _logged_in_as_carla(workbench, browser)
    tampered = cookie["value"][:-2] + ("AA" if not cookie["value"].endswith("AA") else "BB")
    context.clear_cookies()
    context.add_cookies([{**cookie, "value": tampered}])
    page.reload()
    _login_form(page)
    context.close()


def test_the_cookie_route_refuses_foreign_origins_and_unknown_tickets(workbench, browser):
    context = browser.new_context()
    page = context.new_page()
    page.goto(workbench.url)
    _login_form(page)   # the first run of the app adds the route
    request = context.request
    url = workbench.url + ROUTE
    foreign = request.post(url, data='{"action": "set", "ticket": "x"}',
                           headers={"Origin": "http://evil.example", "Content-Type": "application/json"})
    assert foreign.status == 403 and "Origin" in foreign.text()
    unknown = request.post(url, data='{"action": "set", "ticket": "not-issued"}',
                           headers={"Origin": workbench.url, "Content-Type": "application/json"})
    assert unknown.status == 403 and "set-cookie" not in unknown.headers
    assert _login_cookie(context) is None
    context.close()
