"""Sessions that survive a restart: the session journal in the store, replayed by a new gateway over
the same store (new SparkSessions, as after a restart of the process), checked in process and over
real HTTP on 127.0.0.1."""
from __future__ import annotations

import pytest

from gateway import GatewayService, Principal, SessionNotFoundError
from gateway.core.session_journal import journaled
from gateway.core.statement_analysis import analyse
from gateway.rest import serve_in_background
from gateway.store import default_url
from rest_support import Http

ANA, BEN = Principal("ana", admin=True), Principal("ben")


def _rows(service, handle, sql):
    operation = service.execute_statement(handle, sql)
    return [list(row.fields if hasattr(row, "fields") else row) for page in service.iter_results(handle, operation)
            for row in page.rows]


@pytest.fixture
def journal_config(config, gateway, tmp_path):
    return config.with_overrides(auth__mode="builtin", store__url=default_url(tmp_path), session__restore=True)


def test_a_restarted_gateway_reopens_each_session_with_its_state(journal_config):
    first = GatewayService(journal_config)
    try:
        first.store.add_user("ana", "ana-password", admin=True)
        first.store.add_user("ben", "ben-password")
        token = first.store.create_token("ana", "")[0]
        ana, ben = first.as_user(ANA), first.as_user(BEN)
        tab = ana.open_session(name="tab 1")
        for statement in ("SET spark.sql.shuffle.partitions = 3", "SET spark.sql.ansi.enabled",  # the 2nd only shows
                          "CREATE TEMPORARY VIEW answer AS SELECT 42 AS x",
                          "CREATE TEMPORARY FUNCTION plus1(x INT) RETURNS INT RETURN x + 1"):
            ana.configure_session(tab, statement)
        ana.execute_statement(tab, "CREATE TEMP VIEW doubled AS SELECT x * 2 AS y FROM answer")  # a script too
        ana.configure_session(tab, "CREATE TEMPORARY VIEW dropped_later AS SELECT 1 AS one")
        ana.configure_session(tab, "DROP VIEW dropped_later")  # a temporary view's drop: replayed too
        ana.load_module(tab, "geo")  # a call, journaled as its statement
        ana.configure_session(tab, "USE MODULES geo, core")
        assert _rows(ana, tab, "SELECT y FROM doubled") == [[84]]
        closed = ana.open_session(name="closed")
        ana.configure_session(closed, "SET spark.sql.shuffle.partitions = 5")
        ana.close_session(closed)
        bens = ben.open_session(name="ben's")
        ben.configure_session(bens, "SET spark.sql.session.timeZone = Asia/Tokyo")
        ben.execute_statement(bens, "SELECT 1")  # not a configuring statement: not journaled
    finally:
        first.shutdown(stop_spark=False)  # the process stops: its sessions stay journaled

    second = GatewayService(journal_config)
    server = serve_in_background(second, "127.0.0.1", 0)
    try:
        ana, ben = second.as_user(ANA), second.as_user(BEN)
        assert ana.get_session_config(tab)["spark.sql.shuffle.partitions"] == "3"
        assert _rows(ana, tab, "SELECT x, plus1(x) FROM answer") == [[42, 43]]
        assert _rows(ana, tab, "SELECT y FROM doubled") == [[84]]
        assert "dropped_later" not in [t.name for t in ana.list_tables(tab)]
        assert [m.name for m in ana.list_modules(tab)] == ["geo", "core"]
        assert ana.session_name(tab) == "tab 1"
        with pytest.raises(SessionNotFoundError):
            ana.heartbeat(closed)  # closed before the stop: gone for good
        with pytest.raises(SessionNotFoundError):
            ana.heartbeat(bens)  # ben's, restored as ben's
        assert ben.get_session_config(bens)["spark.sql.session.timeZone"] == "Asia/Tokyo"
        # over REST, with the same handle and the user's token: the tab re-attaches
        answer = Http(server.url)("GET", f"/v1/sessions/{tab}", token=token)
        assert answer.status == 200 and answer.body["properties"]["spark.sql.shuffle.partitions"] == "3"
        ana.close_session(tab)
        ben.close_session(bens)
        assert second.store.journaled_sessions(second.journal.owner) == []  # closing forgets the journal
    finally:
        server.stop()
        second.shutdown(stop_spark=False)


@pytest.mark.parametrize("kind, text, expected", [
    ("SET", "SET a.b = 1", True), ("SET", "SET", False), ("SET", "SET -v", False), ("SET", "SET a.b", False),
    ("RESET", "RESET", True), ("USE", "USE db1", True), ("LOAD_MODULE", "LOAD MODULE geo", True),
    ("CREATE", "CREATE TEMPORARY VIEW v AS SELECT 1", True), ("CREATE", "CREATE TEMP VIEW v AS SELECT 1", True),
    ("CREATE", "CREATE OR REPLACE TEMPORARY VIEW v AS SELECT 1", True),
    ("CREATE", "CREATE TABLE t (a INT)", False), ("CREATE", "CREATE VIEW v AS SELECT 1", False),
    ("DROP", "DROP TEMPORARY FUNCTION f", True), ("DROP", "DROP TABLE t", False),
    ("DROP", "DROP VIEW v", True), ("DROP", "DROP VIEW IF EXISTS `v`", True), ("DROP", "DROP VIEW db.v", False),
    ("QUERY", "SELECT 1", False), ("INSERT", "INSERT INTO t VALUES (1)", False)])
def test_which_statements_are_journaled(kind, text, expected):
    analysis = analyse(text)
    assert analysis.kind == kind
    assert journaled(analysis, text) is expected


def test_a_replayed_drop_view_drops_only_the_temporary_view():
    from gateway.core.session_journal import dropped_view

    assert [dropped_view(t) for t in ("DROP VIEW v", "drop view if exists `v`;", "DROP VIEW db.v", "DROP TABLE v",
                                      "DROP VIEW `a.b`")] == ["v", "v", None, None, None]
    # Comments are not part of the name, and do not hide the statement.
    assert [dropped_view(t) for t in ("DROP VIEW v -- gone", "/* old */ DROP VIEW IF EXISTS `v`",
                                      "DROP VIEW spark_catalog.db.v", "SET view.mode = 1")] == ["v", "v", None, None]


def test_feature_calls_replay_as_the_statements_their_protocols_render():
    """The journal names no call: each protocol's ``@replayed_as`` mark renders the statement, quoted right,
    and each rendered statement is of a kind the journal records (so a replay journals it again)."""
    from types import SimpleNamespace

    from gateway.api.calls import replay_statement
    from gateway.features.jars.api import JarsApi
    from gateway.features.modules.api import ModulesApi

    cases = [
        (ModulesApi.load_module, {"name": "geo", "properties": {"type": "geo", "it's": "a\\b"}}, None,
         "LOAD MODULE geo WITH ('type'='geo', 'it\\'s'='a\\\\b')"),
        (ModulesApi.load_module, {"name": "geo", "properties": None}, None, "LOAD MODULE geo"),
        (ModulesApi.unload_module, {"name": "geo"}, None, "UNLOAD MODULE geo"),
        (ModulesApi.use_modules, {"names": ["geo", "core"]}, None, "USE MODULES geo, core"),
        (JarsApi.add_jar, {"uri": "file:///j/o'k.jar"}, None, "ADD JAR 'file:///j/o\\'k.jar'"),
        (JarsApi.remove_jar, {"uri": "/j/u.jar"}, None, "REMOVE JAR '/j/u.jar'"),
        (JarsApi.upload_jar, {"filename": "u.jar", "data": b""}, SimpleNamespace(path="/store/ab12/u.jar"),
         "ADD JAR '/store/ab12/u.jar'"),
    ]
    for call, arguments, result, statement in cases:
        assert replay_statement(call)({"session": "s", **arguments}, result) == statement
        assert journaled(analyse(statement), statement), statement
    assert replay_statement(JarsApi.list_jars) is None and replay_statement(ModulesApi.list_modules) is None
