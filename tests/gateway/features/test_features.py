"""Features are plugins: the built-ins and an outside one (tests/plugins/wb_test_module) register through
the same entry point group, and each brings its grammar, handlers, settings, session state, calls and
REST routes without a line in core."""
from __future__ import annotations

import json
import urllib.request
from importlib.metadata import entry_points

import pytest

from gateway import load_config
from gateway.config import all_settings
from gateway.core.statements import classify, configure_kinds, spec_of
from gateway.features import ENTRY_POINT_GROUP, Feature, feature_classes
from tests.conftest import run_all

BUILT_IN = {"atomic", "completion", "jars", "modules", "plans"}


def test_built_in_features_register_as_entry_points_like_an_outside_plugin():
    points = {p.name: p.value for p in entry_points(group=ENTRY_POINT_GROUP)}
    assert BUILT_IN <= set(points)
    assert all(points[name].startswith("gateway.features.") for name in BUILT_IN)
    assert points["wb_echo"] == "wb_test_module.feature:EchoFeature"  # from another distribution
    classes = {cls.name: cls for cls in feature_classes()}
    assert set(classes) == set(points) and all(issubclass(c, Feature) for c in classes.values())


def test_the_grammar_holds_each_features_statements():
    assert classify("LOAD MODULE geo") == "LOAD_MODULE" and spec_of("LOAD_MODULE").configures
    assert classify("show full modules") == "SHOW_MODULES" and spec_of("SHOW_MODULES").returns_rows
    assert classify("EXPLAIN PLAN 'p.json'") == "EXPLAIN_PLAN" and classify("EXPLAIN SELECT 1") == "EXPLAIN"
    assert classify("USE MODULES core") == "USE_MODULES" and classify("USE db") == "USE"
    assert classify("ECHO 'hi'") == "WB_ECHO" and spec_of("WB_ECHO").read_only
    assert "REMOVE_JAR" in configure_kinds() and "QUERY" not in configure_kinds()


def test_features_declare_their_settings_once():
    keys = [s.key for s in all_settings()]
    assert len(keys) == len(set(keys))
    for key in ("modules.load", "jars.upload_max_bytes", "plans.dir", "atomic_writes.enabled", "wb_echo.prefix"):
        assert key in keys
    config = load_config(environ={"WORKBENCH_WB_ECHO_PREFIX": ">> "})
    assert config["wb_echo.prefix"] == ">> "


def test_an_outside_feature_runs_its_statement_keeps_session_state_and_offers_its_call(gateway, session):
    from wb_test_module.feature import EchoApi

    assert "wb_echo" in gateway.features and "wb_echo" in gateway.get_gateway_info()["features"]
    echoes = gateway.api(EchoApi)  # its protocol, behind the boundary: no call by attribute name on the gateway
    assert not hasattr(gateway, "echo_count")
    before = echoes.echo_count(session)
    _, rows, _ = run_all(gateway, session, "ECHO 'hello'")
    assert rows == [["hello"]]
    assert echoes.echo_count(session) == before + 1
    other = gateway.open_session()
    try:
        assert echoes.echo_count(other) == 0  # state is per session
    finally:
        gateway.close_session(other)


def test_an_outside_features_call_is_checked_for_its_user(gateway, session):
    """The plugin's call passes the same boundary: another user's session does not exist for it."""
    from gateway import Principal, SessionNotFoundError
    from wb_test_module.feature import EchoApi

    stranger = gateway.as_user(Principal("echo-stranger"))
    with pytest.raises(SessionNotFoundError):
        stranger.api(EchoApi).echo_count(session)
    assert gateway.api(EchoApi).echo_count(session) >= 0


def test_a_protocol_no_feature_answers_is_refused(gateway):
    from typing import Protocol

    from gateway import FeatureNotInstalledError

    class NobodysApi(Protocol):
        def nothing(self) -> None: ...

    with pytest.raises(FeatureNotInstalledError, match="no installed feature answers 'NobodysApi'"):
        gateway.api(NobodysApi)


def test_an_outside_features_rest_route_is_served(rest_server):
    base, gateway = rest_server
    request = urllib.request.Request(f"{base}/v2/sessions", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    handle = json.loads(urllib.request.urlopen(request, timeout=60).read())["sessionHandle"]
    try:
        run_all(gateway, handle, "ECHO 'x'")
        answer = json.loads(urllib.request.urlopen(f"{base}/v2/sessions/{handle}/echo-count", timeout=60).read())
        assert answer == {"echoes": 1}
    finally:
        gateway.close_session(handle)


@pytest.fixture(scope="module")
def rest_server(gateway):
    from gateway.rest import serve_in_background
    server = serve_in_background(gateway, "127.0.0.1", 0)
    try:
        yield server.url, gateway
    finally:
        server.stop()


def test_the_outside_feature_needs_nothing_of_the_gateway_but_its_api():
    """A new feature with a statement kind, a call and a REST route touches no file of the gateway: the test
    plugin's only imports of it are the plugin API and the REST helper, and it lives in its own package."""
    import ast

    from tests.conftest import ROOT

    source = ROOT / "tests" / "plugins" / "wb_test_module" / "wb_test_module" / "feature.py"
    imported = {node.module for node in ast.walk(ast.parse(source.read_text()))
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gateway")}
    assert imported - {"gateway.config", "gateway.features"} == {"gateway.api", "gateway.rest.deps"}, imported
