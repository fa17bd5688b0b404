"""Restrictions read what statement kinds and protocol calls declare (issue 25): core names no feature, a
feature's kind that declares nothing is refused for non-admins, and a call's marks (``@loads_code``,
``@admin_only``) decide for its callers."""
from __future__ import annotations

import ast
from typing import Protocol

import pytest

from gateway.api import Access, Principal, StatementSpec, admin_only, loads_code, protocol_calls
from gateway.api.plugins import feature_classes
from gateway.core import statement_analysis
from gateway.core.restrictions import Restrictions
from gateway.core.statements import split_script
from gateway.errors import ConfigurationError, PermissionDeniedError
from gateway.identity import acting_as
from tests.conftest import ROOT
from tests.gateway.core.test_statement_analysis import _UserSession, alice, restrictions  # noqa: F401 - fixtures


def _check(restrictions, session, text: str) -> None:
    [statement] = split_script(text)
    restrictions.check_statement(session, statement)


def _string_literals(path) -> set[str]:
    return {node.value for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def test_core_restrictions_name_no_feature_call_nor_kind():
    named = set()
    for cls in feature_classes():
        named |= {spec.kind for spec in cls.statements}
        named |= set(protocol_calls(cls.api)) if cls.api is not None else set()
    assert named, "no feature declares a kind or a call: the check would pass on nothing"
    for module in ("restrictions.py", "engine_guard.py", "session_journal.py", "statement_analysis.py"):
        literals = _string_literals(ROOT / "gateway" / "core" / module)
        assert not named & literals, f"gateway/core/{module} names {sorted(named & literals)}"


def test_every_built_in_feature_kind_declares_who_may_run_it():
    built_in = [cls for cls in feature_classes() if cls.__module__.startswith("gateway.features.")]
    undeclared = [spec.kind for cls in built_in for spec in cls.statements if spec.access is Access.UNDECLARED]
    assert not undeclared
    open_kinds = {spec.kind for cls in built_in for spec in cls.statements if spec.access is Access.USERS}
    assert open_kinds == {"SHOW_MODULES", "LOAD_MODULE", "UNLOAD_MODULE", "USE_MODULES", "REMOVE_JAR", "SHOW_JARS",
                          "COMPILE_PLAN", "EXECUTE_PLAN", "EXPLAIN_PLAN"}


def test_a_spec_with_an_unknown_access_is_refused_at_once():
    assert StatementSpec("X", access="users").access is Access.USERS
    with pytest.raises(ConfigurationError, match="access='everyone'.*'users'"):
        StatementSpec("X", access="everyone")


@pytest.fixture
def grammar_with(monkeypatch):
    """The process's grammar plus some kinds, as if an installed feature declared them (restored after)."""

    def extend(*specs: StatementSpec) -> None:
        grammar = statement_analysis.Grammar(statement_analysis.CORE_STATEMENTS
                                             + tuple(statement_analysis.feature_statements()) + specs)
        monkeypatch.setattr(statement_analysis, "_grammar", grammar)
        statement_analysis._analyse_cached.cache_clear()

    yield extend
    statement_analysis._analyse_cached.cache_clear()


def test_a_feature_kind_that_declares_nothing_is_refused_for_non_admins(restrictions, alice, grammar_with):
    grammar_with(StatementSpec("WB_SILENT", (("SILENT", "KIND"),)),
                 StatementSpec("WB_ADMINS", (("ADMINS", "KIND"),), access=Access.ADMINS),
                 StatementSpec("WB_OPEN", (("OPEN", "KIND"),), access=Access.USERS),
                 StatementSpec("WB_CODE", (("CODE", "KIND"),), access=Access.USERS, loads_code=True))
    with pytest.raises(PermissionDeniedError, match="WB_SILENT does not declare who may run it .* access=Access.USERS"):
        _check(restrictions, alice, "SILENT KIND 1")
    with pytest.raises(PermissionDeniedError, match="WB_ADMINS is declared for admins"):
        _check(restrictions, alice, "ADMINS KIND")
    with pytest.raises(PermissionDeniedError, match="CODE KIND is not allowed .*auth.admin_only_code"):
        _check(restrictions, alice, "CODE /* c */ KIND")
    _check(restrictions, alice, "OPEN KIND")  # declared open: allowed
    root = _UserSession(alice.spark, "root", admin=True)
    for text in ("SILENT KIND 1", "ADMINS KIND", "CODE KIND"):
        _check(restrictions, root, text)  # admins run every kind


class ToolsApi(Protocol):
    @loads_code(uri="uri")
    def fetch_code(self, session: str, uri: str) -> str: ...

    @loads_code
    def compile_code(self, session: str) -> str: ...

    @admin_only
    def purge(self, session: str) -> str: ...

    def count(self, session: str) -> str: ...


def _gated(restrictions):
    declared = protocol_calls(ToolsApi)
    return {name: restrictions.gate(name, lambda *a, _n=name, **k: _n, declared[name]) for name in declared}


def test_calls_are_checked_as_their_protocol_marks_them(restrictions, config):
    calls = _gated(restrictions)
    with acting_as(Principal("alice")):
        assert calls["count"]("s") == "count"
        with pytest.raises(PermissionDeniedError, match="FETCH CODE of the local path '/etc/x.jar'"):
            calls["fetch_code"]("s", uri="/etc/x.jar")
        with pytest.raises(PermissionDeniedError, match="FETCH CODE is not allowed .*auth.admin_only_code"):
            calls["fetch_code"]("s", "https://repo.example/x.jar")
        with pytest.raises(PermissionDeniedError, match="compile code is not allowed .*auth.admin_only_code"):
            calls["compile_code"]("s")
        with pytest.raises(PermissionDeniedError, match="purge is for admins .*@admin_only"):
            calls["purge"]("s")
    with acting_as(Principal("root", admin=True)):
        assert [calls[n]("s", "/etc/x.jar") if n == "fetch_code" else calls[n]("s") for n in calls] == list(calls)
    relaxed = _gated(Restrictions(config.with_overrides(auth__mode="builtin", auth__admin_only_code=False)))
    with acting_as(Principal("alice")):
        assert relaxed["fetch_code"]("s", "https://repo.example/x.jar") == "fetch_code"
        assert relaxed["compile_code"]("s") == "compile_code"
        with pytest.raises(PermissionDeniedError, match="local path"):
            relaxed["fetch_code"]("s", "file:///etc/x.jar")
        with pytest.raises(PermissionDeniedError, match="@admin_only"):
            relaxed["purge"]("s")
    open_gateway = _gated(Restrictions(config))  # auth.mode none: nothing is restricted
    with acting_as(Principal("alice")):
        assert open_gateway["purge"]("s") == "purge"


def test_the_built_in_code_calls_are_marked_in_their_protocols():
    from gateway.api.calls import code_loading
    from gateway.features.jars.api import JarsApi
    from gateway.features.modules.api import ModulesApi

    marked = {name: code_loading(call) for name, call in protocol_calls(JarsApi, ModulesApi).items()
              if code_loading(call) is not None}
    assert set(marked) == {"add_jar", "upload_jar", "create_function", "load_module"}
    assert marked["add_jar"].uri == "uri"
