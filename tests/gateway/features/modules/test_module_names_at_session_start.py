"""A session's start reads no built-in function names (``SHOW SYSTEM FUNCTIONS`` took seconds on a cold managed
engine, issue 29): ``core`` alone registers nothing, so the names load in the background soon after, and the
session's modules, statements and completion work as before."""
from __future__ import annotations

import threading

from gateway.core import functions as functions_module
from gateway.core.functions import BuiltinFunctions, show_system_functions
from tests.conftest import run_all, wait_for

NAMES_WAIT_S = 30.0


def rows(gateway, session, sql):
    _, result, page = run_all(gateway, session, sql)
    assert page.exception is None, page.exception
    return result


def test_a_session_starts_while_the_builtin_names_load_and_its_modules_still_work(gateway, monkeypatch, tmp_path):
    asked, release = threading.Event(), threading.Event()

    def held_names(spark):  # the names' first load, held until the session has started and run a statement
        asked.set()
        if not release.wait(NAMES_WAIT_S):
            raise RuntimeError("the session's start waited for the built-in names")
        return show_system_functions(spark)

    fresh = BuiltinFunctions(load_names=held_names)
    monkeypatch.setattr(functions_module, "BUILTINS", fresh)
    handle = gateway.open_session(name="names-at-start")  # returns while the names are held
    try:
        assert asked.wait(NAMES_WAIT_S)  # their load began after the session's start, in the background
        assert rows(gateway, handle, "SELECT upper('a') AS u") == [["A"]]  # Spark answers built-ins itself
        assert not release.is_set()
        release.set()
        assert wait_for(lambda: "upper" in fresh.names(None), timeout_s=NAMES_WAIT_S)
        assert rows(gateway, handle, "SHOW FULL MODULES") == [["core", True, "core", gateway.root.version]]
        two = tmp_path / "two.sql"
        two.write_text("CREATE OR REPLACE FUNCTION upper(s STRING) RETURNS STRING RETURN concat('two:', s);")
        gateway.configure_session(handle, f"LOAD MODULE two WITH ('type'='sql', 'path'='{two}')")
        assert rows(gateway, handle, "SELECT upper('a')") == [["A"]]  # two stands after core
        gateway.configure_session(handle, "USE MODULES two, core")  # before core: it shadows the built-in
        assert rows(gateway, handle, "SELECT upper('a'), system.builtin.upper('a')") == [["two:a", "A"]]
        origin = gateway.feature("modules").manager(gateway.sessions.get(handle)).function_origin("upper")
        assert origin.module == "two"
    finally:
        release.set()
        gateway.close_session(handle)
