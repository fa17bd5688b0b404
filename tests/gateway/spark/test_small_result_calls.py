"""A ``SELECT 1`` through the gateway, counted in calls into the driver JVM (py4j commands), not timed: its
small-result path (``arrow_stream.small_result``) looks classes up once per JVM, not one package name at a time
on every statement (13 of a warm ``SELECT 1``'s 52 calls before; each a round trip to the JVM, slow on a loaded
machine)."""
import threading
import traceback

import pytest
from conftest import run_all

from gateway.spark import arrow_stream


def commands_from(monkeypatch, function: str, module) -> list:
    """Every py4j command sent from inside ``module.function`` from now on (a counter around py4j's own
    connection: the commands still go to the real JVM)."""
    from py4j.clientserver import ClientServerConnection

    sent, lock, original = [], threading.Lock(), ClientServerConnection.send_command

    def send_command(self, command, *args, **kwargs):
        if any(frame.name == function and frame.filename == module.__file__ for frame in traceback.extract_stack()):
            with lock:
                sent.append(command.split("\n")[:3])
        return original(self, command, *args, **kwargs)

    monkeypatch.setattr(ClientServerConnection, "send_command", send_command)
    return sent


@pytest.fixture
def small_result_commands(monkeypatch):
    return commands_from(monkeypatch, "small_result", arrow_stream)


def test_a_warm_select_1_looks_no_class_up_in_its_small_result_path(gateway, session, small_result_commands):
    assert run_all(gateway, session, "SELECT 1 AS one")[1] == [[1]]   # the first: the lookups of this JVM
    del small_result_commands[:]
    for _ in range(3):
        assert run_all(gateway, session, "SELECT 1 AS one")[1] == [[1]]
    per_statement = len(small_result_commands) / 3
    lookups = [c for c in small_result_commands if c[0] == "r"]   # py4j's reflection: a package, class or member
    assert lookups == [], lookups
    # The plan and its rows, the time zone, the converter's stream and its batch: 12 commands (25 before).
    assert per_statement <= 12, small_result_commands


def test_the_small_result_path_still_gives_spark_values_and_types(gateway, session):
    columns, rows, _ = run_all(gateway, session, "SELECT 1 AS one, 'a' AS s, DATE'2020-01-02' AS d, "
                                                 "CAST(NULL AS INT) AS n, array(1, 2) AS a")
    assert [c.name for c in columns] == ["one", "s", "d", "n", "a"]
    assert rows == [[1, "a", "2020-01-02", None, [1, 2]]]


def test_select_1_is_moved_into_the_driver_from_its_analyzed_plan_without_optimizing_it(gateway, session, monkeypatch):
    # The optimizer ran for SELECT 1's own plan only to find the Project over OneRowRelation the analyzed plan
    # already shows; that plan is never executed (its one-row LocalRelation twin is).
    from gateway.spark import plans

    spark = gateway.sessions.get(session).spark
    sent = commands_from(monkeypatch, "in_driver", plans)
    local = arrow_stream.constant_projection(spark.sql("SELECT 1 AS one, current_date() IS NOT NULL AS today"))
    assert local is not None and "LocalTableScan" in local._jdf.queryExecution().executedPlan().toString()
    assert [c for c in sent if c[-1] == "optimizedPlan"] == [], sent
    del sent[:]
    # A shape the optimizer makes into one still is found on the optimized plan.
    assert arrow_stream.constant_projection(spark.sql("SELECT * FROM (SELECT 1 AS one) AS t")) is not None
    assert [c for c in sent if c[-1] == "optimizedPlan"], sent
    assert arrow_stream.constant_projection(spark.sql("SELECT id FROM range(1)")) is None
