"""Managed engines on real Spark Connect servers the gateway starts itself (127.0.0.1, bounded waits, every
engine stopped by its PID at the end): one engine per user, shared by the user's sessions; a user's engine
killed mid-statement ends only that user's statements; a second gateway on the same store shares an engine
and its reaper stops it once idle; a third gateway adopts a running engine; a failed start says why.

Each engine costs a JVM (about 20 s to start on a quiet machine, 500 MB): the engines are shared by the
tests of this module, in order (alice's and bob's, the first ones started from the module's class archive, by all)."""
from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

from conftest import ROOT, run_all, wait_for
from connect_support import wait_terminal
from gateway.api.identity import Principal
from gateway.engines.manager import running
from gateway.identity import acting_as
from gateway.models import OperationStatus

ALICE, BOB, ERIN = (Principal(name, admin=True) for name in ("alice", "bob", "erin"))
START_S = 600  # several engines start at once on 2 shared cores


def managed_config(tmp_path_factory, store_url: str, archive_dir: Path, **overrides):
    from gateway import load_config

    settings = dict(engine__kind="managed", engine__share_level="user", engine__master="local[2]",
                    engine__idle_timeout_s=3600.0, engine__start_timeout_s=float(START_S),
                    engine__submit_args=["--driver-memory", "512m"],
                    engine__conf={"spark.sql.shuffle.partitions": "2"},
                    metastore__hive_support=False, store__url=store_url, session__idle_timeout_s=0,
                    session__restore=False, engine__class_archive=True, engine__class_archive_dir=str(archive_dir))
    settings.update(overrides)
    return load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=str(tmp_path_factory.mktemp("workbench-managed")), **settings)


@pytest.fixture(scope="module")
def store_url(tmp_path_factory):
    return f"sqlite:///{tmp_path_factory.mktemp('managed-store') / 'workbench.db'}"


@pytest.fixture(scope="module")
def archive_dir(class_archive_dir):
    """One class archive folder for the module's gateways (each its own data directory): the module's first
    engine writes the archive (the first test checks it), and every later engine starts from it."""
    folder = class_archive_dir / "managed-engines"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def gateways(tmp_path_factory, store_url, archive_dir):
    """Gateways made by the tests (on the one store); at the end each is shut down and every engine stopped."""
    from gateway import GatewayService

    made = []

    def make(**overrides):
        gateway = GatewayService(managed_config(tmp_path_factory, store_url, archive_dir, **overrides))
        made.append(gateway)
        return gateway

    yield make
    for gateway in made:
        with acting_as(Principal("admin", admin=True)):
            gateway.shutdown()
    if made:
        made[0].engines.stop_all()  # by PID, every engine of the store on this host


@pytest.fixture(scope="module")
def first(gateways):
    return gateways()


@pytest.fixture(scope="module")
def opened(first):
    """alice's two sessions and bob's one, alice's and bob's engines starting at the same time."""
    handles = {}

    def open_as(principal, name):
        with acting_as(principal):
            handles[name] = first.open_session(name=name)

    threads = [threading.Thread(target=open_as, args=(ALICE, "alice-1")),
               threading.Thread(target=open_as, args=(BOB, "bob-1"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * START_S + 60)
    assert set(handles) == {"alice-1", "bob-1"}, "an engine did not start"
    with acting_as(ALICE):
        handles["alice-2"] = first.open_session(name="alice-2")
    return handles


def _session(gateway, principal, handle):
    with acting_as(principal):
        return gateway.sessions.get(handle)


def _record(gateway, engine_id):
    return gateway.store.engine_get(engine_id)


def _cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()


# Runs until the test cancels it (hours on 2 cores): a statement that outlasts whatever the test does meanwhile.
UNTIL_CANCELED = "SELECT count(*) FROM range(0, 10000000000000)"


def cancel_running(gateway, principal, handle, operation) -> None:
    """``operation`` is still RUNNING; cancel it, and it ends CANCELED (its engine answered the cancel)."""
    with acting_as(principal):
        assert gateway.get_operation_info(handle, operation).status == OperationStatus.RUNNING
        gateway.cancel_operation(handle, operation)
        info = wait_terminal(gateway, handle, operation, timeout_s=300, finished_counts=False)
        assert info.status == OperationStatus.CANCELED, info.exception


def _value(gateway, principal, handle, statement):
    from gateway.models import ResultType

    with acting_as(principal):
        _, rows, last = run_all(gateway, handle, statement, timeout_s=300)
    assert last.result_type != ResultType.ERROR, last.exception
    return rows


def test_the_first_engine_writes_a_class_archive_and_the_next_engines_start_from_it(gateways, archive_dir, request):
    """First in the module: no engine has written the module's archive yet. The next engines are alice's and
    bob's, which the module's tests share (the ``opened`` fixture starts them once the archive is written)."""
    archiving = gateways()
    archive = archiving.engines.class_archive()
    assert archive.parent == archive_dir and not archive.exists()
    kim = Principal("kim", admin=True)
    with acting_as(kim):
        kims = archiving.open_session(name="kim-1")
    kims_engine = _record(archiving, _session(archiving, kim, kims).engine_id)
    assert "-XX:+RecordDynamicDumpInfo" in _cmdline(kims_engine.pid)  # no archive yet: this one may write it
    assert wait_for(archive.exists, timeout_s=START_S), "no class archive was written"
    assert not list(archive.parent.glob("*.partial"))
    with acting_as(kim):
        archiving.close_session(kims)
    archiving.engines.stop(kims_engine.engine_id)

    first, opened = request.getfixturevalue("first"), request.getfixturevalue("opened")
    assert first.engines.class_archive() == archive
    for principal, name in ((ALICE, "alice-1"), (BOB, "bob-1")):
        pid = _record(first, _session(first, principal, opened[name]).engine_id).pid
        assert f"-XX:SharedArchiveFile={archive}" in _cmdline(pid), name
        assert str(archive) in Path(f"/proc/{pid}/maps").read_text(), name  # the JVM mapped it: it is used
    assert _value(first, ALICE, opened["alice-1"], "SELECT 'archived'") == [["archived"]]


def test_each_user_gets_an_engine_of_their_own_shared_by_their_sessions(first, opened):
    from gateway.spark.backend import is_connect

    alice_1, alice_2 = (_session(first, ALICE, opened[n]) for n in ("alice-1", "alice-2"))
    bob = _session(first, BOB, opened["bob-1"])
    assert alice_1.engine_id == alice_2.engine_id != bob.engine_id
    for principal, session in ((ALICE, alice_1), (BOB, bob)):
        record = _record(first, session.engine_id)
        assert record.key == f"user:{principal.name}" and record.state == "RUNNING" and record.owner == principal.name
        assert f"--name workbench engine user:{principal.name}" in _cmdline(record.pid)  # the cluster UI's name
        assert "spark.connect.grpc.binding.address=127.0.0.1" in _cmdline(record.pid)
    assert _value(first, ALICE, opened["alice-1"], "SELECT 1 + 1") == [[2]]
    assert _value(first, BOB, opened["bob-1"], "SELECT 'b'") == [["b"]]
    # the web process holds no Spark driver: its root and every session are Spark Connect clients
    assert is_connect(first.root) and is_connect(alice_1.spark) and is_connect(bob.spark)
    listed = {row["engine_id"]: row for row in first.engines.list()}
    assert listed[alice_1.engine_id]["sessions"] == 2 and listed[bob.engine_id]["sessions"] == 1
    assert listed[bob.engine_id]["spark_ui"].startswith("http://127.0.0.1:")


def test_a_killed_engine_ends_only_its_users_statements_and_the_next_one_gets_a_fresh_engine(first, opened):
    alice, bob = _session(first, ALICE, opened["alice-1"]), _session(first, BOB, opened["bob-1"])
    old_engine, old_pid = alice.engine_id, _record(first, alice.engine_id).pid
    with acting_as(BOB):
        run_all(first, opened["bob-1"], "CREATE TEMPORARY VIEW bobs AS SELECT 7 AS v")
        bobs_scan = first.execute_statement(opened["bob-1"], UNTIL_CANCELED)
    with acting_as(ALICE):
        alices_scan = first.execute_statement(opened["alice-1"], "SELECT count(*) FROM range(0, 100000000000)")
        assert wait_for(lambda: first.get_operation_info(opened["alice-1"], alices_scan).status
                        == OperationStatus.RUNNING, timeout_s=120)
    with acting_as(BOB):
        assert wait_for(lambda: first.get_operation_info(opened["bob-1"], bobs_scan).status
                        == OperationStatus.RUNNING, timeout_s=120)
    os.killpg(old_pid, signal.SIGKILL)  # alice's engine dies mid-statement

    with acting_as(ALICE):
        info = wait_terminal(first, opened["alice-1"], alices_scan, timeout_s=120, finished_counts=False)
    assert info.status == OperationStatus.ERROR and info.exception["error_class"] == "ENGINE_DOWN"
    # bob's running statement, his temporary view and his session go on
    cancel_running(first, BOB, opened["bob-1"], bobs_scan)
    with acting_as(BOB):
        assert run_all(first, opened["bob-1"], "SELECT v FROM bobs")[1] == [[7]]
    assert first.get_health()["status"] == "UP"  # the web process is untouched

    assert _value(first, ALICE, opened["alice-1"], "SELECT 40 + 2") == [[42]]  # a fresh engine
    alice = _session(first, ALICE, opened["alice-1"])
    assert alice.engine_id != old_engine
    assert _record(first, old_engine).state == "FAILED"
    # alice's other session on the dead engine moves to the new one without an error of its own
    assert _value(first, ALICE, opened["alice-2"], "SELECT 'moved'") == [["moved"]]
    assert _session(first, ALICE, opened["alice-2"]).engine_id == alice.engine_id
    assert _record(first, alice.engine_id).key == "user:alice"


# 3 GB in one partition: far beyond the engines' 512 MB driver heap (a local master's tasks run in the driver),
# found to end a bare engine in about 6 s (java.lang.OutOfMemoryError, exit code 52)
HUGE_RESULT = "SELECT repeat('x', 1000000) AS s FROM range(0, 3000, 1, 1)"


def test_a_users_out_of_memory_result_ends_only_their_engine(first, opened):
    alice, bob = _session(first, ALICE, opened["alice-1"]), _session(first, BOB, opened["bob-1"])
    old_engine, old_pid, bobs_engine = alice.engine_id, _record(first, alice.engine_id).pid, bob.engine_id
    with acting_as(BOB):
        run_all(first, opened["bob-1"], "CREATE OR REPLACE TEMPORARY VIEW bobs_too AS SELECT 8 AS v")
        bobs_scan = first.execute_statement(opened["bob-1"], UNTIL_CANCELED)  # outlasts alice's engine
        assert wait_for(lambda: first.get_operation_info(opened["bob-1"], bobs_scan).status
                        == OperationStatus.RUNNING, timeout_s=120)
    with acting_as(ALICE):
        huge = first.execute_statement(opened["alice-1"], HUGE_RESULT)
        info = wait_terminal(first, opened["alice-1"], huge, timeout_s=300, finished_counts=False)
    assert info.status == OperationStatus.ERROR and info.exception["error_class"] == "ENGINE_DOWN", info.exception
    # Spark's own words reach alice when the driver answered before it stopped; else that its SparkContext stopped
    assert "driver stopped under this statement" in info.exception["root_cause"]
    assert "next statement starts a fresh one" in info.exception["root_cause"]
    assert wait_for(lambda: not running(old_pid), timeout_s=60)  # the JVM ended (Spark exits on OOM)
    assert "java.lang.OutOfMemoryError: Java heap space" in Path(_record(first, old_engine).log_path).read_text()
    assert first.get_health()["status"] == "UP"  # the web (test) process is untouched
    # bob's running statement, his temporary view and his session go on, on his engine
    cancel_running(first, BOB, opened["bob-1"], bobs_scan)
    with acting_as(BOB):
        assert run_all(first, opened["bob-1"], "SELECT v FROM bobs_too")[1] == [[8]]
    assert _session(first, BOB, opened["bob-1"]).engine_id == bobs_engine
    assert _record(first, bobs_engine).state == "RUNNING"

    assert _value(first, ALICE, opened["alice-1"], "SELECT 'after'") == [["after"]]  # at once: a fresh engine
    assert _session(first, ALICE, opened["alice-1"]).engine_id not in (old_engine, bobs_engine)
    assert _record(first, old_engine).state == "FAILED"


def test_jars_added_by_a_user_stay_in_that_users_engine(first, opened, tmp_path):
    jar = tmp_path / "alice-only.jar"
    import zipfile

    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    with acting_as(ALICE):
        added = first.execute_statement(opened["alice-2"], f"ADD JAR '{jar}'")
        info = wait_terminal(first, opened["alice-2"], added, timeout_s=120, finished_counts=False)
        assert info.status == OperationStatus.FINISHED, info.exception
    assert [row[0] for row in _value(first, ALICE, opened["alice-2"], "SHOW JARS")] == [str(jar)]
    assert _value(first, BOB, opened["bob-1"], "SHOW JARS") == []


def test_a_users_modules_live_in_that_users_engine(first, opened, tmp_path):
    path = tmp_path / "alices.sql"
    path.write_text("-- version: 1.0\nCREATE FUNCTION alices_double(x INT) RETURNS INT RETURN x * 2;\n")
    with acting_as(ALICE):
        info = first.load_module(opened["alice-2"], "alices", {"type": "sql", "path": str(path)})
        assert info.functions == ["alices_double"]
        assert "alices" in [m.name for m in first.list_modules(opened["alice-2"])]
    assert _value(first, ALICE, opened["alice-2"], "SELECT alices_double(21)") == [[42]]  # on alice's engine
    with acting_as(BOB):  # bob's engine has no such function, and his session lists no such module
        _, _, last = run_all(first, opened["bob-1"], "SELECT alices_double(21)", timeout_s=300)
        assert last.exception["error_class"] == "UNRESOLVED_ROUTINE", last.exception
        assert "alices" not in [m.name for m in first.list_modules(opened["bob-1"])]
        assert not [f for f in first.list_functions(opened["bob-1"]) if f.name == "alices_double"]
    alices_engine = _session(first, ALICE, opened["alice-2"]).engine_id
    assert alices_engine != _session(first, BOB, opened["bob-1"]).engine_id


def test_a_second_gateway_shares_an_engine_its_reaper_stops_it_idle_and_a_third_adopts_one(gateways, first, opened):
    with acting_as(ERIN):
        on_first = first.open_session(name="erin-1")
    second = gateways(engine__idle_timeout_s=3.0)
    with acting_as(ERIN):
        on_second = second.open_session(name="erin-2")
    erins = _session(first, ERIN, on_first).engine_id
    assert _session(second, ERIN, on_second).engine_id == erins  # found in the store, shared
    assert _value(second, ERIN, on_second, "SELECT 'shared'") == [["shared"]]
    pid = _record(first, erins).pid
    with acting_as(ERIN):
        first.close_session(on_first)
        second.close_session(on_second)
    # no session in either gateway: the second's reaper stops it after 3 s
    assert wait_for(lambda: _record(first, erins).state == "STOPPED", timeout_s=120)
    assert wait_for(lambda: not running(pid), timeout_s=60)

    alices = _session(first, ALICE, opened["alice-1"]).engine_id
    third = gateways()  # a restarted workbench: it adopts alice's running engine
    with acting_as(ALICE):
        handle = third.open_session(name="alice-3")
    assert _session(third, ALICE, handle).engine_id == alices
    assert _value(third, ALICE, handle, "SELECT 3") == [[3]]


def test_two_processes_starting_a_keys_engine_at_once_start_one(tmp_path_factory, store_url, archive_dir, first):
    """Two workbench processes' managers (their own data directories and store connections, one SQLite store)
    attach ivy's first sessions at the same instant: one claims the key and starts the engine, the other waits
    for it and shares it."""
    from gateway.engines import EngineManager
    from gateway.store import WorkbenchStore

    stores = [WorkbenchStore(store_url) for _ in range(2)]
    managers = [EngineManager(managed_config(tmp_path_factory, store_url, archive_dir), store) for store in stores]
    together, attached = threading.Barrier(2), {}

    def attach(n):
        together.wait(timeout=60)
        attached[n] = managers[n].attach("ivy", f"ivy-{n}")

    threads = [threading.Thread(target=attach, args=(n,)) for n in range(2)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=2 * START_S + 60)
        assert set(attached) == {0, 1}, "an attach did not return"
        assert attached[0][1] == attached[1][1]  # one engine, shared
        assert [r.engine_id for r in _all_records(first) if r.key == "user:ivy"] == [attached[0][1]]  # one started
        assert attached[1][0].sql("SELECT 'one'").collect()[0][0] == "one"
    finally:
        for n, manager in enumerate(managers):
            if n in attached:
                manager.detach(attached[n][1], f"ivy-{n}", attached[n][0])
            manager.shutdown()
        for store in stores:
            store.close()


def test_a_users_first_session_takes_a_pooled_engine_and_the_key_is_recorded(gateways, first):
    pooling = gateways(engine__pool_size=1)
    pooled = wait_for(lambda: [r for r in _all_records(first) if r.state == "POOLED"], timeout_s=START_S)
    assert pooled, "no engine was started ahead"
    gina = Principal("gina", admin=True)
    with acting_as(gina):
        handle = pooling.open_session(name="gina-1")
    session = _session(pooling, gina, handle)
    assert session.engine_id == pooled[0].engine_id
    record = _record(first, session.engine_id)
    # the Spark application keeps the name it started with; the store records whose it is now
    assert record.key == "user:gina" and record.owner == "gina" and record.app_name == "workbench engine pool"
    assert _value(pooling, gina, handle, "SELECT 'pooled'") == [["pooled"]]


def test_the_admin_engines_api_lists_and_stops_engines_for_admins_only(first, opened):
    from gateway.errors import PermissionDeniedError
    from rest_support import Http, start

    with acting_as(Principal("bob", admin=False)):
        with pytest.raises(PermissionDeniedError, match="for admins"):
            first.admin_list_engines()
        assert [e["key"] for e in first.list_my_engines()] == ["user:bob"]  # the session page's: his own only
    rest = start(first)
    try:
        http = Http(rest.url)
        answer = http("GET", "/v2/admin/engines")
        assert answer.status == 200, answer.body
        by_key = {e["key"]: e for e in answer.body["engines"]}
        bobs = by_key["user:bob"]
        assert bobs["state"] == "RUNNING" and bobs["sessions"] == 1 and bobs["uptimeS"] > 0
        assert bobs["address"].startswith("sc://127.0.0.1:") and bobs["sparkUi"].startswith("http://127.0.0.1:")
        assert bobs["heapUsedBytes"] or bobs["heapNote"]  # the heap, or why it is not known
        gina = by_key["user:gina"]
        assert http("DELETE", f"/v2/admin/engines/{gina['engineId']}").status == 200
        assert _record(first, gina["engineId"]).state == "STOPPED"
        assert not running(gina["pid"])
        assert http("DELETE", f"/v2/admin/engines/{gina['engineId']}").status == 404
    finally:
        rest.stop()


def _admin_engines_panel(gateway):
    from ui import admin_panel

    admin_panel.render_engines(gateway)


def test_the_admin_page_lists_the_engines_with_a_stop_button(first, opened):
    from streamlit.testing.v1 import AppTest

    page = AppTest.from_function(_admin_engines_panel, args=(first.as_user(Principal("root", admin=True)),),
                                 default_timeout=120).run()
    assert not page.exception, page.exception
    table = page.dataframe[0].value
    assert "user:bob" in set(table["key"]) and set(table["state"]) <= {"RUNNING", "POOLED", "STARTING"}
    assert [b.label for b in page.button] == ["Stop engine"]


def test_a_failed_start_says_why_and_is_tried_twice(gateways, first):
    from gateway.engines import EngineStartError

    broken = gateways(engine__master="nonsense://nowhere")
    with acting_as(Principal("frank", admin=True)), pytest.raises(EngineStartError) as failure:
        broken.open_session(name="never")
    assert "exited with code" in failure.value.message and "engine.log" in failure.value.message
    assert "Master must either be yarn or start with spark" in failure.value.message  # spark-submit's words, from its log
    tried = [r for r in _all_records(first) if r.key == "user:frank"]
    assert len(tried) == 2 and {r.state for r in tried} == {"FAILED"}


def _all_records(gateway):
    from sqlalchemy import select

    from gateway.store.engines import _record as as_record
    from gateway.store.schema import engines

    with gateway.store._transaction(write=False) as connection:
        return [as_record(row) for row in connection.execute(select(engines)).all()]
