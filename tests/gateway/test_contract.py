"""One contract: the gateway implements every call of ``GatewayContract``, front ends call nothing
else, and every call is reachable over REST."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from gateway import FeatureNotInstalledError, GatewayContract, GatewayService

_CONTRACT_CALLS = GatewayService.boundary_calls  # every call of every protocol, as the boundary wraps them

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = sorted(_CONTRACT_CALLS)
# Calls with no REST route on purpose: a client pages with fetch_results itself, and pages are Streamlit's.
NOT_OVER_REST = {"iter_results": "a loop over fetch_results; HTTP clients page with the token themselves",
                 "list_feature_pages": "Streamlit pages are of no use to an HTTP client",
                 "authenticate_password": "REST authenticates with API tokens; a password logs in to the UI",
                 "authenticate_browser_login": "a browser login is the UI's HttpOnly cookie; REST takes API tokens",
                 "start_browser_login": "a browser login is the UI's HttpOnly cookie; REST takes API tokens",
                 "end_browser_login": "a browser login is the UI's HttpOnly cookie; REST takes API tokens",
                 "as_user": "REST routes get the user-scoped gateway from service_of, which calls it",
                 "api": "a feature's protocol, reached in process; its own REST routes call it",
                 "completion_credential": "the UI's SQL editor credential for REST complete-statement; an HTTP "
                                          "client already holds a token",
                 "complete_with_credential": "the UI's own completion route; over REST the same credential "
                                             "calls complete-statement"}


def _parameters(function) -> list[str]:
    return [p.name for p in inspect.signature(function).parameters.values() if p.name != "self"]


def test_the_contract_lists_the_calls_of_every_section():
    assert len(CONTRACT) >= 55, CONTRACT
    for name in ("open_session", "execute_statement", "fetch_results", "list_tables", "complete_candidates",
                 "load_module", "add_jar", "compile_plan", "preview_table", "get_operation_progress"):
        assert name in CONTRACT


@pytest.mark.parametrize("name", CONTRACT)
def test_the_gateway_implements_each_contract_call_with_its_parameters(gateway, name):
    implementation = getattr(gateway, name)
    assert callable(implementation), name
    assert _parameters(implementation) == _parameters(getattr(GatewayContract, name)), name
    assert isinstance(gateway, GatewayContract)


def _defaults(function) -> dict:
    return {p.name: p.default for p in inspect.signature(function).parameters.values()
            if p.default is not inspect.Parameter.empty}


@pytest.mark.parametrize("name", CONTRACT)
def test_each_contract_call_has_the_gateways_defaults(gateway, name):
    """A default the protocol documents is the one the gateway applies (the sample database's name once
    differed: the protocol said ``workbench_sample``, the gateway made ``sample``)."""
    assert _defaults(getattr(gateway, name)) == _defaults(getattr(GatewayContract, name)), name


def _calls_on(tree: ast.AST, receivers: set[str]) -> set[tuple[str, int]]:
    """``receiver.name`` attribute reads, where the receiver is a name in ``receivers`` or ``service_of(…)``."""
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        value = node.value
        if isinstance(value, ast.Name) and value.id in receivers:
            found.add((node.attr, node.lineno))
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "service_of":
            found.add((node.attr, node.lineno))
    return found


def _front_end_files(*folders: str) -> list[Path]:
    files = []
    for folder in folders:
        path = ROOT / folder
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def _rest_files() -> list[Path]:
    return _front_end_files("gateway/rest") + sorted((ROOT / "gateway" / "features").glob("*/rest.py"))


def test_front_ends_call_only_the_contract():
    """ui/, pages/, app.py (the gateway object is ``gateway``) and REST (``service``) use contract calls only."""
    outside = []
    for path in _front_end_files("ui", "pages", "app.py"):
        for name, line in _calls_on(ast.parse(path.read_text()), {"gateway"}):
            if name not in _CONTRACT_CALLS:
                outside.append(f"{path.relative_to(ROOT)}:{line} gateway.{name}")
    for path in _rest_files():
        for name, line in _calls_on(ast.parse(path.read_text()), {"service"}):
            if name not in _CONTRACT_CALLS:
                outside.append(f"{path.relative_to(ROOT)}:{line} service.{name}")
    assert not outside, "calls outside gateway.contract.GatewayContract:\n" + "\n".join(sorted(outside))


def test_the_front_end_check_sees_a_call_outside_the_contract():
    tree = ast.parse("gateway.execute_statement(h, 'x')\ngateway.runner.split('x')\nservice_of(r).config\n")
    names = {name for name, _ in _calls_on(tree, {"gateway"})}
    assert names == {"execute_statement", "runner", "config"}
    assert names - _CONTRACT_CALLS == {"runner", "config"}


def test_every_contract_call_is_reachable_over_rest():
    used = {name for path in _rest_files() for name, _ in _calls_on(ast.parse(path.read_text()), {"service"})}
    missing = sorted(set(CONTRACT) - used - set(NOT_OVER_REST))
    assert not missing, f"contract calls without a REST route: {missing}"


def test_a_call_of_a_feature_that_is_not_there_says_so(gateway):
    features, calls = gateway.features, gateway._feature_calls
    try:
        gateway.features = {k: v for k, v in features.items() if k != "plans"}
        gateway._feature_calls = {k: v for k, v in calls.items() if k not in features["plans"].calls()}
        with pytest.raises(FeatureNotInstalledError, match="list_plans is provided by a feature") as caught:
            gateway.list_plans()
        assert caught.value.http_status == 501
    finally:
        gateway.features, gateway._feature_calls = features, calls


def test_an_unknown_attribute_is_an_attribute_error(gateway):
    with pytest.raises(AttributeError, match="no attribute 'not_a_call'"):
        gateway.not_a_call  # noqa: B018
    assert "__getattr__" not in vars(GatewayService), "feature calls are generated from protocols, not looked up by name"


def test_a_bug_in_our_code_is_an_internal_error_never_a_sql_error(gateway, session, caplog):
    """A Python bug inside a call answers InternalError (HTTP 500) with a log line; Spark's failures stay SQL errors."""
    from gateway import SqlExecutionError
    from gateway.errors import InternalError

    completion = gateway.features["completion"]
    original = completion.completer.complete

    def broken(*args, **kwargs):
        raise KeyError("private detail 4711")

    completion.completer.complete = broken
    try:
        with caplog.at_level("ERROR", logger="gateway.core.boundary"):
            with pytest.raises(InternalError, match=r"complete_candidates failed: internal error [0-9a-f]{12}\.") as caught:
                gateway.complete_candidates(session, "SELECT ", 7)
        assert caught.value.http_status == 500 and not isinstance(caught.value, SqlExecutionError)
        assert "KeyError" not in str(caught.value) and "4711" not in str(caught.value), "the client sees only an id"
        error_id = str(caught.value).split("internal error ")[1][:12]
        assert any(error_id in r.getMessage() and r.exc_info for r in caplog.records), "the log has the id and the stack"
    finally:
        completion.completer.complete = original
    with pytest.raises(SqlExecutionError) as spark_failure:
        gateway.get_table(session, "no_such_db_here.no_such_table")
    assert spark_failure.value.error["error_class"] != "InternalError"
