"""Issue 25's measure: a new feature with one statement kind, one protocol call and one REST route touches
no file outside its own folder, and it runs for an ordinary user and for an admin under the same
restrictions as the built-ins.

The feature is the test plugin (``tests/plugins/wb_test_module``, ``EchoFeature``): ``ECHO 'text'``, the
call ``EchoApi.echo_count`` and the route ``GET /v2/sessions/{handle}/echo-count``, registered by the entry
point in its own ``pyproject.toml``. Users: auth.mode builtin over real HTTP on 127.0.0.1 (alice and bob
are not admins, root is).
"""
from __future__ import annotations

import dataclasses
import subprocess
import time
from importlib.metadata import entry_points

import pytest

from gateway.api import Access, Principal, protocol_calls
from gateway.api.plugins import ENTRY_POINT_GROUP
from gateway.core import statement_analysis
from gateway.errors import SessionNotFoundError
from tests.conftest import ROOT
from tests.security.security_support import users_server
from wb_test_module.feature import ECHO, EchoApi, EchoFeature

PLUGIN = ROOT / "tests" / "plugins" / "wb_test_module"


def _feature_names() -> set[str]:
    """Every name of the feature a file outside its folder would have to spell to wire it in."""
    names = {EchoFeature.name, EchoApi.__name__, EchoFeature.__name__, "wb_test_module"}
    names |= {spec.kind for spec in EchoFeature.statements}
    names |= set(protocol_calls(EchoApi))
    names |= {setting.key for setting in EchoFeature.settings}
    names |= {route.path.rsplit("/", 1)[-1] for router in EchoFeature().rest_routers() for route in router.routes}
    return names


def _files_naming(names: set[str]) -> list[str]:
    """Tracked source and configuration files outside tests/ (the gateway, front ends, packaging) that
    spell any of ``names``."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    touched = []
    for path in tracked.splitlines():
        if path.startswith(("tests/", "docs/")) or not path.endswith((".py", ".toml", ".json", ".cfg", ".txt", ".ini")):
            continue
        text = (ROOT / path).read_text(errors="replace")
        if any(name in text for name in names):
            touched.append(path)
    return touched


def test_a_new_feature_touches_no_file_outside_its_folder():
    names = _feature_names()
    assert {"wb_echo", "WB_ECHO", "echo_count", "echo-count"} <= names  # the three pieces are all looked for
    touched = _files_naming(names)
    # Installing its distribution is not wiring it in: the dev requirements install it as `pip install` would
    # install any plugin. That line is the only mention outside its folder.
    wiring = [path for path in touched if path != "requirements-dev.txt"]
    print(f"\nfiles outside the feature's folder that wire it in: {len(wiring)} {wiring}")
    assert wiring == [], f"wiring the feature in touched {wiring}"
    install = [line for line in (ROOT / "requirements-dev.txt").read_text().splitlines()
               if any(name in line for name in names)]
    assert install == ["-e ./tests/plugins/wb_test_module"], install
    # The self-check: the same search finds a name that the gateway does spell.
    assert "gateway/core/restrictions.py" in _files_naming({"auth.admin_only_code"})
    # Its one registration is the entry point in its own pyproject.toml, found as the built-ins are.
    assert 'wb_echo = "wb_test_module.feature:EchoFeature"' in (PLUGIN / "pyproject.toml").read_text()
    assert {p.name: p.value for p in entry_points(group=ENTRY_POINT_GROUP)}["wb_echo"] == \
        "wb_test_module.feature:EchoFeature"


@pytest.fixture(scope="module")
def bench(config, gateway, tmp_path_factory):
    with users_server(config, tmp_path_factory.mktemp("footprint-store")) as server:
        assert "wb_echo" in server.service.features
        yield server


def _run(bench, user: str, session: str, statement: str, timeout_s: float = 60.0):
    """Run ``statement`` as ``user`` over REST; the first result page (or the error) as (status, body)."""
    token = bench.tokens[user]
    answer = bench.http("POST", f"/v1/sessions/{session}/statements", {"statement": statement}, token=token)
    if answer.status != 200:
        return answer.status, answer.body
    operation = answer.body["operationHandle"]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        page = bench.http("GET", f"/v1/sessions/{session}/operations/{operation}/result/0", token=token)
        if page.status != 200 or page.body["resultType"] != "NOT_READY":
            return page.status, page.body
        time.sleep(0.02)
    raise AssertionError(f"{statement} did not end in {timeout_s} s")


def _open(bench, user: str) -> str:
    answer = bench.http("POST", "/v1/sessions", {}, token=bench.tokens[user])
    assert answer.status == 200, answer.body
    return answer.body["sessionHandle"]


@pytest.mark.parametrize("user, admin", [("alice", False), ("root", True)])
def test_its_statement_call_and_route_answer_a_user_and_an_admin(bench, user, admin):
    session = _open(bench, user)
    status, body = _run(bench, user, session, "ECHO 'hello'")
    assert status == 200, body
    assert [row["fields"] for row in body["results"]["data"]] == [["hello"]]
    # The call, through its protocol on the user-scoped gateway (never an attribute name on the gateway).
    echoes = bench.service.as_user(Principal(user, admin=admin)).api(EchoApi)
    assert echoes.echo_count(session) == 1
    # The route, over HTTP with the user's token.
    answer = bench.http("GET", f"/v2/sessions/{session}/echo-count", token=bench.tokens[user])
    assert (answer.status, answer.body) == (200, {"echoes": 1})
    # Another user's session does not exist for the call nor for the route (the boundary, for a plugin too).
    stranger = "bob"
    with pytest.raises(SessionNotFoundError):
        bench.service.as_user(Principal(stranger)).api(EchoApi).echo_count(session)
    assert bench.http("GET", f"/v2/sessions/{session}/echo-count", token=bench.tokens[stranger]).status == 404


def test_the_restrictions_apply_to_its_statement_as_it_declares_it(bench, monkeypatch):
    """``ECHO`` is open to users because its StatementSpec says so: without that declaration a non-admin's
    ECHO is refused, with a message saying what is missing, and an admin's still runs."""
    assert statement_analysis.spec_of(ECHO).access is Access.USERS
    specs = [dataclasses.replace(spec, access=Access.UNDECLARED) if spec.kind == ECHO else spec
             for spec in statement_analysis.feature_statements()]
    monkeypatch.setattr(statement_analysis, "_grammar",
                        statement_analysis.Grammar(statement_analysis.CORE_STATEMENTS + tuple(specs)))
    statement_analysis._analyse_cached.cache_clear()
    try:
        alice, root = _open(bench, "alice"), _open(bench, "root")
        status, body = _run(bench, "alice", alice, "ECHO 'quiet'")
        assert status >= 400 and body["error_class"] == "PermissionDeniedError", body
        assert "WB_ECHO does not declare who may run it" in body["root_cause"], body
        status, body = _run(bench, "root", root, "ECHO 'loud'")
        assert status == 200, body
        assert bench.http("GET", f"/v2/sessions/{alice}/echo-count", token=bench.tokens["alice"]).body == {"echoes": 0}
    finally:
        monkeypatch.undo()
        statement_analysis._analyse_cached.cache_clear()
