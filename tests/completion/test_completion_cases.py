"""The completion case suite: tests/completion/cases/*.sql against a real gateway session.

Each case is a statement with ``|`` at the cursor after ``-- expect: a, b`` (every name must be among
the first five candidates) and optionally ``-- absent: x`` (must not be offered at all). The schema:
three tables (one with a struct column), a keyword-named table and a temporary view in database
``cmpl``. The run prints the hit rate and fails below 95 %.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rest_support import http, server  # noqa: F401  (fixtures: a real server on 127.0.0.1)

CASES = Path(__file__).with_name("cases")
SCHEMA = [
    "CREATE DATABASE IF NOT EXISTS cmpl",
    "USE cmpl",
    "DROP TABLE IF EXISTS customers", "DROP TABLE IF EXISTS orders", "DROP TABLE IF EXISTS order_items",
    "DROP TABLE IF EXISTS `order`",
    "CREATE TABLE customers (id BIGINT, name STRING, country STRING, signup_date DATE) USING parquet",
    "CREATE TABLE orders (id BIGINT, customer_id BIGINT, order_date DATE, status STRING, amount DECIMAL(10,2), "
    "shipping STRUCT<city: STRING, zip: STRING, geo: STRUCT<lat: DOUBLE, lon: DOUBLE>>) USING parquet",
    "CREATE TABLE order_items (order_id BIGINT, product_id BIGINT, quantity INT, price DOUBLE) USING parquet",
    "CREATE TABLE `order` (order_key STRING, note STRING) USING parquet",
    "CREATE OR REPLACE TEMPORARY VIEW recent_orders AS SELECT id, status, order_date FROM orders",
]


@dataclass
class Case:
    source: str
    text: str
    position: int
    expect: list[str]
    absent: list[str] = field(default_factory=list)


def _load_with_absent() -> list[Case]:
    """Cases with each ``-- absent:`` line attached to the case under it."""
    cases = []
    for path in sorted(CASES.glob("*.sql")):
        pending_absent: list[str] = []
        current = None
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.startswith("-- absent:"):
                if current is not None:
                    cases.append(current)
                    current = None
                pending_absent += [x.strip() for x in line.split(":", 1)[1].split(",")]
            elif line.startswith("-- expect:"):
                if current is not None:
                    cases.append(current)
                current = [f"{path.name}:{number}", [x.strip() for x in line.split(":", 1)[1].split(",")],
                           pending_absent, []]
                pending_absent = []
            elif current is not None:
                current[3].append(line)
        if current is not None:
            cases.append(current)
    out = []
    for source, expect, absent, body in cases:
        text = "\n".join(body).rstrip("\n")
        assert text.count("|") == 1, f"{source}: a case needs exactly one '|' cursor mark"
        out.append(Case(source, text.replace("|", ""), text.index("|"), expect, absent))
    return out


@pytest.fixture(scope="module")
def schema_session(gateway):
    handle = gateway.open_session(name="completion-cases")
    for statement in SCHEMA:
        gateway.configure_session(handle, statement)
    assert gateway.feature("completion").wait_fresh(60)
    yield handle
    gateway.close_session(handle)


def hit(gateway, session, case: Case) -> tuple[bool, list[str]]:
    found = [c.value for c in gateway.complete_candidates(session, case.text, case.position)]
    top = [v.lower() for v in found[:5]]
    ok = all(e.lower() in top for e in case.expect) and not any(a.lower() in (v.lower() for v in found)
                                                                 for a in case.absent)
    return ok, found


def test_the_case_suite_hits_in_the_first_five(gateway, schema_session, capsys):
    cases = _load_with_absent()
    assert len(cases) >= 200
    misses = []
    for case in cases:
        ok, found = hit(gateway, schema_session, case)
        if not ok:
            misses.append(f"{case.source}: expected {case.expect} (absent {case.absent}) got {found[:8]}")
    rate = 1 - len(misses) / len(cases)
    with capsys.disabled():
        print(f"\ncompletion cases: {len(cases) - len(misses)}/{len(cases)} in the first five "
              f"({rate:.1%})" + "".join("\n  miss " + m for m in misses))
    assert rate >= 0.95, "\n".join(misses)


def test_candidates_carry_kinds_types_and_descriptions(gateway, schema_session):
    from gateway.core.functions import builtin_functions
    found = {c.value: c for c in gateway.complete_candidates(schema_session, "SELECT  FROM orders o", 7)}
    assert found["amount"].kind == "column" and found["amount"].detail == "DECIMAL(10,2)"
    assert found["shipping"].detail.startswith("STRUCT<CITY:STRING")
    tables = {c.value: c.kind for c in gateway.complete_candidates(schema_session, "SELECT * FROM ", 14)}
    assert tables["recent_orders"] == "temporary view" and tables["orders"] == "table"
    assert builtin_functions().wait_details(120)
    upper = next(c for c in gateway.complete_candidates(schema_session, "SELECT uppe", 11) if c.value == "upper")
    assert upper.detail.startswith("upper(str) — Returns str with all characters changed to uppercase")
    fields = gateway.complete_candidates(schema_session, "SELECT o.shipping.geo. FROM orders o", 22)
    assert [(c.value, c.kind, c.detail) for c in fields] == [("lat", "field", "DOUBLE"), ("lon", "field", "DOUBLE")]


def test_ddl_in_one_session_is_offered_at_the_next_request_of_every_session(gateway, schema_session):
    """A table created, altered or dropped in one session is offered (or not) at the other session's next
    request, answered from what is known (no catalog round trip on the request); the background
    refresh after the statements agrees with those answers."""
    completion = gateway.feature("completion")
    other = gateway.open_session(name="completion-other")

    def offered(statement, position=None):
        position = len(statement) if position is None else position
        return [c.value for c in gateway.complete_candidates(other, statement, position)]

    try:
        gateway.configure_session(other, "USE cmpl")
        assert "fresh_tbl" not in offered("SELECT * FROM fr")
        assert "late_col" not in offered("SELECT la FROM orders", 9)  # orders' columns are known now
        cache = completion.completer.cache(gateway.session(other))
        loads = cache.request_loads
        gateway.configure_session(schema_session, "CREATE TABLE fresh_tbl (fresh_col INT) USING parquet")
        assert "fresh_tbl" in offered("SELECT * FROM fr")
        assert offered("SELECT fr FROM fresh_tbl", 9)[:1] == ["fresh_col"]
        gateway.configure_session(schema_session, "ALTER TABLE orders ADD COLUMNS (late_col INT)")
        assert "late_col" in offered("SELECT la FROM orders", 9)
        gateway.configure_session(schema_session, "CREATE OR REPLACE TEMPORARY VIEW only_mine AS SELECT 1 AS x")
        assert "only_mine" not in offered("SELECT * FROM only")  # another session's temporary view
        gateway.configure_session(schema_session, "DROP TABLE fresh_tbl")
        assert "fresh_tbl" not in offered("SELECT * FROM fr")
        assert cache.request_loads == loads  # every answer came from what was known
        assert completion.wait_fresh(60)
        assert "fresh_tbl" not in offered("SELECT * FROM fr") and "late_col" in offered("SELECT la FROM orders", 9)
        assert cache.request_loads == loads
    finally:
        gateway.close_session(other)


def test_rest_complete_statement_and_the_editor_call_give_the_same_candidates(gateway, schema_session, http):
    """Flink's complete-statement (REST, real HTTP, a GET with a body) and the editor's call
    (complete_candidates) are one engine: the same candidates for the same statement."""
    statement = "WITH t AS (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id) SELECT t. FROM t"
    position = statement.index("t. FROM") + 2
    answer = http("GET", f"/v2/sessions/{schema_session}/complete-statement",
                  {"statement": statement, "position": position})
    assert answer.status == 200, answer.body
    editor = [c.value for c in gateway.complete_candidates(schema_session, statement, position)]
    assert answer.body["candidates"] == editor == ["customer_id", "total"]
    detailed = http("GET", f"/v2/sessions/{schema_session}/complete-statement?details=true",
                    {"statement": "SELECT o.shipping.ci FROM orders o", "position": 20}).body
    assert detailed["candidateDetails"] == [{"value": "city", "kind": "field", "detail": "STRING"}]
