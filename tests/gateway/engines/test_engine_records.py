"""The engines table shared by workbench processes, on SQLite and on a real PostgreSQL: a pooled engine is
claimed by one process only; a second process's manager finds a running engine recorded by another and shares
it when it answers, and records it FAILED when it does not. The "engine" here is a listening socket on
127.0.0.1: finding and adopting needs only the record and an answer (the real engines:
test_managed_engines.py)."""
from __future__ import annotations

import socket
import uuid

import pytest

from gateway import load_config
from gateway.store.engines import EngineRecord
from gateway.store.workspace import now


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'workbench.db'}"
    server = request.getfixturevalue("postgres_server")
    name = f"engines_{uuid.uuid4().hex[:8]}"
    server.create_database(name)
    return server.url(name)


@pytest.fixture
def managers(store_url, tmp_path):
    """EngineManagers of two workbench processes (their own data directories) on one store."""
    from gateway.engines import EngineManager
    from gateway.store import WorkbenchStore

    made = []

    def make(name: str):
        config = load_config(None, environ={"WORKBENCH_ENGINE_KIND": "managed", "WORKBENCH_ENGINE_SHARE_LEVEL": "user",
                                            "WORKBENCH_DATA_DIR": str(tmp_path / name)})
        store = WorkbenchStore(store_url)
        manager = EngineManager(config, store)
        made.append((manager, store))
        return manager

    yield make
    for manager, store in made:
        manager.shutdown()
        store.close()


@pytest.fixture
def listener():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server


def _record(manager, key: str, state: str, port: int) -> EngineRecord:
    moment = now()
    record = EngineRecord(str(uuid.uuid4()), key, key.partition(":")[2], state, f"sc://127.0.0.1:{port}",
                          manager.host, None, None, f"workbench engine {key or 'pool'}", manager.process_name,
                          moment, moment, "/nowhere/engine.log")
    manager.store.engine_insert(record)
    return record


def test_a_pooled_engine_is_claimed_by_one_process_only(managers, listener):
    one, two = managers("one"), managers("two")
    pooled = _record(one, "", "POOLED", listener.getsockname()[1])
    assert one.store.engine_claim(pooled.engine_id, "user:ann", "ann") is True
    assert two.store.engine_claim(pooled.engine_id, "user:bob", "bob") is False
    record = two.store.engine_get(pooled.engine_id)
    assert (record.key, record.owner, record.state) == ("user:ann", "ann", "RUNNING")


def test_another_process_finds_a_running_engine_and_shares_it(managers, listener):
    one, two = managers("one"), managers("two")
    running = _record(one, "user:ann", "RUNNING", listener.getsockname()[1])
    spark, engine_id = two.attach("ann", "handle-1")  # no engine is started: the recorded one answers
    assert engine_id == running.engine_id
    assert [row["sessions"] for row in two.list() if row["engine_id"] == engine_id] == [1]
    two.detach(engine_id, "handle-1", spark)
    assert spark.client.is_closed
    assert two.store.engine_get(engine_id).last_used > running.last_used  # idle from now, for every reaper


def test_an_engine_that_no_longer_answers_is_recorded_failed_not_shared(managers, listener):
    one, two = managers("one"), managers("two")
    port = listener.getsockname()[1]
    listener.close()  # the engine died without a word
    dead = _record(one, "user:ann", "RUNNING", port)
    assert two._find("user:ann") is None
    assert two.store.engine_get(dead.engine_id).state == "FAILED"
    assert two.store.engines_live(key="user:ann") == []


def test_a_keys_starting_row_claims_it_and_a_second_claim_is_refused_until_it_ends(managers, listener):
    one, two = managers("one"), managers("two")
    port = listener.getsockname()[1]

    def starting(manager, key):
        moment = now()
        return EngineRecord(str(uuid.uuid4()), key, "ann", "STARTING", f"sc://127.0.0.1:{port}", manager.host, None,
                            None, "workbench engine", manager.process_name, moment, moment, "/nowhere/engine.log")

    first = starting(one, "user:ann")
    assert one.store.engine_claim_key(first) is True
    assert two.store.engine_claim_key(starting(two, "user:ann")) is False  # the same key at once: refused
    assert [r.engine_id for r in two.store.engines_live(key="user:ann")] == [first.engine_id]
    assert two.store.engine_claim_key(starting(two, "user:bob")) is True  # another key is free
    assert one.store.engine_claim_key(starting(one, "")) and two.store.engine_claim_key(starting(two, ""))  # pool
    pooled = two.store.engines_live(key="", state="STARTING")[0]
    two.store.engine_update(pooled.engine_id, state="POOLED")
    assert two.store.engine_claim(pooled.engine_id, "user:ann", "ann") is False  # ann has a live engine
    one.store.engine_update(first.engine_id, state="RUNNING")
    assert two.store.engine_claim_key(starting(two, "user:ann")) is False  # still live
    one.store.engine_update(first.engine_id, state="FAILED")
    assert two.store.engine_claim_key(starting(two, "user:ann")) is True  # it ended: the key is free again


def test_a_claim_whose_starter_never_finishes_lapses(managers, listener):
    one = managers("one")
    one.start_timeout_s = 0.5  # its engine is waited for twice this long
    stuck = _record(one, "user:ann", "STARTING", listener.getsockname()[1])
    two = managers("two")
    two.start_timeout_s = 0.5
    assert two._find("user:ann") is None  # waited for about 1 s, then the claim lapsed
    assert two.store.engine_get(stuck.engine_id).state == "FAILED"
