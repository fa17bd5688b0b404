"""Apache Spark's own SQL test scripts, through the workbench and through PySpark side by side.

The corpus (tests/corpus/spark_sql_tests, Apache License 2.0, see its README) holds 92 scripts of
Spark's ``SQLQueryTestSuite`` (functions, types, joins, subqueries, windows, DDL, comments) with
their ``.sql.out`` files, whose ``-- !query`` blocks are the statements as Spark's own harness
split the scripts: the reference for the statement count. For each script:

- the workbench splits it (``gateway.core.statements.split_script``), and the statements must be
  Spark's (same count, same text up to whitespace and ``--`` comment lines);
- the workbench runs them one by one on a fresh gateway session (and, for some scripts, over
  REST and through the DB-API client), then PySpark runs Spark's statements with ``spark.sql`` on
  a fresh ``newSession()`` of the same root, in the same order; between the two, whatever the
  script created (databases, tables in ``default``, global temporary views) is dropped, so both
  start from the same catalog (only for a script the workbench's statement analysis does not show
  read-only: 63 of the 92 are);
- each statement must agree: both fail with the same error class, or both answer with the same
  column names, types (the gateway's type JSON of Spark's schema) and values (each side's values
  as Spark's string cast, ``tests/spark_strings.py``; rows compared as sorted lists; statements
  with rand, now, uuid, current_… compare by type only).

Known disagreements are listed, with their reason, in ``expected_failures.json``
(``script``: {statement number (1-based) or ``"split"``: reason}); an entry that starts to agree fails
the test too, so the list stays true. By default a subset of scripts runs (``DEFAULT_SCRIPTS``, 30
scripts, 933 of the 3,595 statements, the cheapest per statement of each kind);
``WORKBENCH_CORPUS=all`` runs every script, and ``WORKBENCH_CORPUS=join*,window`` the scripts whose
names match (``fnmatch`` patterns, commas between).
``WORKBENCH_CORPUS_REPORT=file`` appends every disagreement found to ``file`` (one JSON line per
script and path) as it is found, so a long run can be read while it goes on.
"""
from __future__ import annotations

import fnmatch
import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import pytest

from conftest import run_all
from gateway.core.executor import result_columns
from gateway.core.statement_analysis import StatementKind, analyse
from gateway.core.statements import split_script
from rest_support import Http, server  # noqa: F401 - fixture
from spark_strings import spark_string
from workbench_client import connect

CORPUS = Path(__file__).resolve().parent / "spark_sql_tests"
INPUTS, RESULTS = CORPUS / "inputs", CORPUS / "results"
EXPECTED_FAILURES = json.loads((Path(__file__).resolve().parent / "expected_failures.json").read_text())
ALL_SCRIPTS = sorted(str(p.relative_to(INPUTS))[:-len(".sql")] for p in INPUTS.rglob("*.sql"))
DEFAULT_SCRIPTS = [  # chosen by statements per second (WORKBENCH_CORPUS_TIMES); the count is in the docstring
    # comments, windows, CTEs, subqueries
    "comments", "postgreSQL/comments", "window", "cte", "cte-nested", "subquery/in-subquery/in-joins",
    "subquery/exists-subquery/exists-basic",
    # joins
    "natural-join", "outer-join", "cross-join", "join-empty-relation",
    # types and literals
    "cast", "literals", "interval", "struct", "array", "inline-table", "typeCoercion/native/dateTimeOperations",
    # DDL and catalog commands
    "change-column", "show-tables",
    # functions
    "datetime", "datetime-formatting", "extract", "json-functions", "csv-functions", "higher-order-functions",
    "misc-functions",
    # grouping and limits
    "group-by", "having", "limit",
]


def _selected(choice: str) -> list[str]:
    if not choice:
        return DEFAULT_SCRIPTS
    if choice == "all":
        return ALL_SCRIPTS
    patterns = [p.strip() for p in choice.split(",") if p.strip()]
    return [s for s in ALL_SCRIPTS if any(fnmatch.fnmatchcase(s, p) for p in patterns)]


SCRIPTS = _selected(os.environ.get("WORKBENCH_CORPUS", ""))
# Scripts that also run over REST (JSON pages) and through the DB-API client (Arrow pages).
REMOTE_SCRIPTS = ["comments", "literals", "show-tables"]
NONDETERMINISTIC = re.compile(r"\b(rand|randn|random|uuid|now|current_\w+|localtimestamp|shuffle|"
                              r"unix_timestamp\s*\(\s*\))", re.IGNORECASE)
STATEMENT_TIMEOUT_S = 120


def spark_statements(script: str) -> list[str]:
    """The statements of a script as Spark's harness split it (the ``-- !query`` blocks)."""
    text = (RESULTS / f"{script}.sql.out").read_text(encoding="utf-8", errors="replace")
    blocks = re.split(r"^-- !query\n", text, flags=re.MULTILINE)[1:]
    return [re.split(r"^-- !query (?:schema|output)$", b, maxsplit=1, flags=re.MULTILINE)[0].strip()
            for b in blocks]


_INNERMOST_COMMENT = re.compile(r"/\*(?:(?!/\*|\*/).)*\*/", re.DOTALL)


def normalized(statement: str) -> str:
    """A statement as its tokens (sqlglot's Spark tokenizer: comments dropped, whitespace gone), no
    final semicolon: Spark's harness drops ``--`` lines, the workbench keeps or drops comments
    around a statement, neither changes what runs. Text that does not tokenize: whitespace collapsed."""
    from sqlglot.dialects.spark import Spark
    from sqlglot.errors import TokenError

    while True:  # bracketed comments, innermost first (Spark nests them; sqlglot's tokenizer does not)
        stripped = _INNERMOST_COMMENT.sub(" ", statement)
        if stripped == statement:
            break
        statement = stripped
    try:
        tokens = [t.text for t in Spark().tokenize(statement)]
    except TokenError:
        lines = [line for line in statement.splitlines() if not line.strip().startswith("--")]
        return " ".join(" ".join(lines).split()).rstrip(";").strip()
    while tokens and tokens[-1] == ";":
        tokens.pop()
    return " ".join(tokens)


@dataclass
class Answer:
    """One statement's outcome on one side: an error class, or columns, types and rows as Spark's strings."""

    error_class: Optional[str] = None
    names: list = field(default_factory=list)
    types: list = field(default_factory=list)
    rows: list = field(default_factory=list)

    def summary(self) -> str:
        if self.error_class is not None:
            return f"error {self.error_class}"
        return f"columns {self.names} types {[t.get('type') for t in self.types]} rows {self.rows[:3]}"


# the times a DDL statement stamps: DESCRIBE's rows, SHOW CREATE TABLE's ``'transient_lastDdlTime' = '…'``
_VOLATILE = re.compile(r"((?:Created Time|Last Access): )[^\n]*|(transient_lastDdlTime'?\s*=\s*'?)\d+")
# rows whose value is such a time: DESCRIBE … EXTENDED, SHOW TBLPROPERTIES
_VOLATILE_ROWS = ("Created Time", "Last Access", "transient_lastDdlTime")


def _stable(value):
    """A value without the times that differ between two runs of the same DDL (creation, access)."""
    return _VOLATILE.sub(lambda m: (m.group(1) or m.group(2)) + "…", value) if isinstance(value, str) else value


def _sorted_rows(rows) -> list:
    stable = []
    for row in rows:
        row = [_stable(v) for v in row]
        if len(row) > 1 and row[0] in _VOLATILE_ROWS:
            row[1] = "…"
        stable.append(tuple("\x00null" if v is None else v for v in row))
    return sorted(stable)


def _rendered(rows, types, zone) -> list:
    return _sorted_rows([[spark_string(v, t, zone) for v, t in zip(row, types)] for row in rows])


def _java_condition(java_exception) -> str:
    """The error class of a Java exception PySpark left unconverted: its ``SparkThrowable`` condition,
    else its class's simple name."""
    from py4j.protocol import Py4JError

    try:
        return java_exception.getCondition() or java_exception.getClass().getSimpleName()
    except Py4JError:  # not a SparkThrowable
        return java_exception.getClass().getSimpleName()


def _spark_answer(spark, statement: str) -> Answer:
    """PySpark's own answer: ``spark.sql``, values as ``CAST(c AS STRING)`` in the same plan."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException
    from pyspark.sql import functions as F

    try:
        df = spark.sql(statement)
        schema = df.schema
        names = [f.name for f in schema.fields]
        positional = [f"_c{i}" for i in range(len(names))]
        rows = [list(r) for r in df.toDF(*positional).select(*[F.col(p).cast("string") for p in positional]).collect()] \
            if names else []
    except PySparkException as exc:
        return Answer(error_class=exc.getCondition() or type(exc).__name__)
    except Py4JJavaError as exc:  # a Spark error PySpark does not convert (SparkClassNotFoundException, …)
        return Answer(error_class=_java_condition(exc.java_exception))
    return Answer(names=names, types=[c.type for c in result_columns(schema)], rows=_sorted_rows(rows))


def _catalog_state(spark) -> tuple[set, set, set]:
    """Databases, tables and views of ``default``, and global temporary views: what a script may create."""
    databases = {r[0] for r in spark.sql("SHOW DATABASES").collect()}
    tables = {r.tableName for r in spark.sql("SHOW TABLES IN default").collect() if not r.isTemporary}
    views = {r.tableName for r in spark.sql("SHOW TABLES IN global_temp").collect() if r.namespace == "global_temp"}
    return databases, tables, views


def _drop_created(spark, before: Optional[tuple[set, set, set]]) -> None:
    """Drop what a script created since ``before``, so that the other side starts from the same catalog
    (nothing to do for a script that cannot have created anything: ``before`` is None)."""
    if before is None:
        return
    databases, tables, views = _catalog_state(spark)
    for name in views - before[2]:
        spark.sql(f"DROP VIEW IF EXISTS global_temp.`{name}`")
    created = tables - before[1]
    if created:  # one SHOW VIEWS for all of them, not a DESCRIBE each
        permanent_views = {r.viewName for r in spark.sql("SHOW VIEWS IN default").collect() if not r.isTemporary}
        for name in created:
            spark.sql(f"DROP {'VIEW' if name in permanent_views else 'TABLE'} IF EXISTS default.`{name}`")
    for name in databases - before[0]:
        spark.sql(f"DROP DATABASE IF EXISTS `{name}` CASCADE")


def _may_change_catalog(statements) -> bool:
    """Whether a script may leave something in the shared catalog (a database, a table or view of
    ``default``, a global temporary view), by the workbench's own analysis of each statement; only a
    script of read-only statements and session-local temporary views is sure not to (no reset then)."""
    from gateway.core.statement_analysis import spec_of

    for statement in statements:
        analysis = analyse(statement)
        local_view = (analysis.kind == StatementKind.CREATE and analysis.temporary
                      and "GLOBAL" not in analysis.words[:4])
        if not (local_view or (spec_of(analysis.kind).read_only and not analysis.writes)):
            return True
    return False


def _gateway_answers(gateway, statements, zone) -> list[Answer]:
    session = gateway.open_session(name="corpus")
    answers = []
    try:
        for statement in statements:
            columns, rows, page = run_all(gateway, session, statement, timeout_s=STATEMENT_TIMEOUT_S)
            if page.exception is not None:
                answers.append(Answer(error_class=page.exception.get("error_class") or "ERROR"))
                continue
            types = [c.type for c in columns]
            answers.append(Answer(names=[c.name for c in columns], types=types, rows=_rendered(rows, types, zone)))
    finally:
        gateway.close_session(session)
    return answers


def _rest_answers(server_url, statements, zone) -> list[Answer]:  # noqa: F811
    http = Http(server_url)
    session = http.open_session(sessionName="corpus-rest")
    answers = []
    try:
        for statement in statements:
            answer = http("POST", f"/v1/sessions/{session}/statements", {"statement": statement})
            if answer.status != 200:
                answers.append(Answer(error_class=(answer.body or {}).get("error_class") or f"HTTP {answer.status}"))
                continue
            operation = answer.body["operationHandle"]
            uri = f"/v1/sessions/{session}/operations/{operation}/result/0?rowFormat=JSON"
            rows, columns, error = [], [], None
            while uri is not None:
                page = http("GET", uri)
                if page.status != 200:
                    error = (page.body or {}).get("error_class") or f"HTTP {page.status}"
                    break
                body = page.body
                if body["resultType"] == "ERROR":
                    error = (body.get("exception") or body.get("errors") or {})
                    error = error.get("error_class", "ERROR") if isinstance(error, dict) else "ERROR"
                    break
                columns = body["results"]["columns"] or columns
                rows.extend(r["fields"] for r in body["results"]["data"])
                uri = body["nextResultUri"]
            if error is not None:
                answers.append(Answer(error_class=error))
                continue
            types = [c["type"] for c in columns]
            answers.append(Answer(names=[c["name"] for c in columns], types=types, rows=_rendered(rows, types, zone)))
    finally:
        http("DELETE", f"/v1/sessions/{session}")
    return answers


def _dbapi_answers(server_url, statements, zone, types_of) -> list[Answer]:
    from workbench_client import Error

    answers = []
    with connect(server_url, session_name="corpus-dbapi") as conn:
        cursor = conn.cursor()
        for index, statement in enumerate(statements):
            try:
                cursor.execute(statement)
                names = [d[0] for d in cursor.description] if cursor.description else []
                rows = cursor.fetchall() if names else []
            except Error as exc:
                answers.append(Answer(error_class=exc.error_class or type(exc).__name__))
                continue
            types = types_of(index)
            answers.append(Answer(names=names, types=types, rows=_rendered(rows, types, zone)))
    return answers


def _float_values(answer: Answer) -> list:
    """Rows with each top-level FLOAT as its 32-bit value rather than its text. Java 17's
    ``Float.toString``, which Spark's cast uses here, does not always write the shortest digits
    (``4.5678899E15``, JDK-4511638, fixed in Java 19: ``4.56789E15``); the workbench carries the
    float itself (a JSON or Arrow number), so the two texts of one value are compared as that value."""
    import numpy as np

    floats = [i for i, t in enumerate(answer.types) if t.get("type") == "FLOAT"]
    if not floats:
        return answer.rows
    rows = [list(row) for row in answer.rows]
    for row in rows:
        for i in floats:
            if row[i] not in (None, "\x00null"):
                row[i] = repr(np.float32(float(row[i])))
    return sorted(map(tuple, rows))


_EXPRESSION_ID = re.compile(r"#\d+")


def _without_expression_ids(rows) -> list:
    """EXPLAIN's text with each attribute's expression id (``col_name#199``) as ``#x``, as Spark's own
    SQLQueryTestSuite compares plans: ids count up per JVM, so two sessions never print the same ones."""
    return [tuple(_EXPRESSION_ID.sub("#x", v) if isinstance(v, str) else v for v in row) for row in rows]


def _disagreements(script, workbench: list[Answer], spark: list[Answer], statements) -> dict:
    found = {}
    for number, (ours, theirs, statement) in enumerate(zip(workbench, spark, statements), start=1):
        if ours.error_class is not None or theirs.error_class is not None:
            same = ours.error_class == theirs.error_class
        elif NONDETERMINISTIC.search(statement):
            same = ours.names == theirs.names and ours.types == theirs.types
        elif analyse(statement).kind == StatementKind.EXPLAIN:
            same = (ours.names, ours.types, _without_expression_ids(ours.rows)) == \
                (theirs.names, theirs.types, _without_expression_ids(theirs.rows))
        else:
            same = (ours.names, ours.types, _float_values(ours)) == (theirs.names, theirs.types, _float_values(theirs))
        if not same:
            found[str(number)] = f"workbench: {ours.summary()[:400]} / spark: {theirs.summary()[:400]}"
    return found


def _record_time(script: str, statements: int, gateway_s: float, pyspark_s: float) -> None:
    """``WORKBENCH_CORPUS_TIMES=file``: one JSON line per script with its statements and the seconds
    of each side (what the default subset is chosen by)."""
    times_file = os.environ.get("WORKBENCH_CORPUS_TIMES")
    if times_file:
        with open(times_file, "a", encoding="utf-8") as out:
            out.write(json.dumps({"script": script, "statements": statements, "gateway_s": round(gateway_s, 2),
                                  "pyspark_s": round(pyspark_s, 2)}) + "\n")


def _check(script, found: dict, path: str) -> None:
    report_file = os.environ.get("WORKBENCH_CORPUS_REPORT")
    if report_file and found:
        with open(report_file, "a", encoding="utf-8") as out:
            out.write(json.dumps({"script": script, "path": path, "disagreements": found}) + "\n")
    expected = EXPECTED_FAILURES.get(script, {})
    unexpected = {k: v for k, v in found.items() if k not in expected}
    fixed = [k for k in expected if k not in found and k != "split"]
    report = "\n".join(f"  statement {k}: {v}" for k, v in unexpected.items())
    assert not unexpected, f"{script} ({path}): {len(unexpected)} disagreement(s) with PySpark:\n{report}"
    assert not fixed, f"{script} ({path}): listed in expected_failures.json but agree now: {fixed}"


@pytest.fixture(scope="module")
def root(gateway):
    """A SparkSession of the gateway's root, from which each script's PySpark side takes a fresh one."""
    from gateway.identity import LOCAL_PRINCIPAL, acting_as

    with acting_as(LOCAL_PRINCIPAL):  # a module fixture runs outside conftest's as_local_user
        session = gateway.open_session(name="corpus-root")
        spark = gateway.sessions.get(session).spark
    yield spark
    with acting_as(LOCAL_PRINCIPAL):
        gateway.close_session(session)


def _script_param(script: str):
    """A script as a test parameter, with a time limit for its size: pytest's default 600 s stops a
    long script (postgreSQL/join's 181 statements) on a loaded machine mid-call to the JVM, and the
    Py4J connection it leaves half-read fails every script after it in the process."""
    return pytest.param(script, marks=pytest.mark.timeout(600 + 10 * len(spark_statements(script))))


@pytest.mark.parametrize("script", [_script_param(s) for s in SCRIPTS])
def test_script_agrees_with_pyspark(gateway, root, server, script):  # noqa: F811
    text = (INPUTS / f"{script}.sql").read_text(encoding="utf-8")
    reference = spark_statements(script)
    ours = [s.text for s in split_script(text)]
    split_ok = [normalized(s) for s in ours] == [normalized(s) for s in reference]
    if "split" in EXPECTED_FAILURES.get(script, {}):
        assert not split_ok, f"{script}: listed as a split disagreement, but the splitter agrees with Spark now"
        return  # the statements differ: nothing to compare one by one
    if not split_ok and os.environ.get("WORKBENCH_CORPUS_REPORT"):
        _check(script, {"split": f"workbench {len(ours)} statements, Spark {len(reference)}"}, "split")
    assert split_ok, (f"{script}: the workbench splits {len(ours)} statements, Spark {len(reference)}; first "
                      f"difference: " + next((f"#{i + 1}: {a!r} / {b!r}" for i, (a, b) in
                                              enumerate(zip(map(normalized, ours), map(normalized, reference)))
                                              if a != b), "in the count"))
    zone = root.conf.get("spark.sql.session.timeZone")
    before = _catalog_state(root) if _may_change_catalog(ours) else None
    started = time.monotonic()
    try:
        workbench = _gateway_answers(gateway, ours, zone)
    finally:
        _drop_created(root, before)
    gateway_s = time.monotonic() - started
    spark = root.newSession()
    try:
        theirs = [_spark_answer(spark, statement) for statement in reference]
    finally:
        _drop_created(root, before)
    _record_time(script, len(reference), gateway_s, time.monotonic() - started - gateway_s)
    _check(script, _disagreements(script, workbench, theirs, reference), "gateway")
    if script in REMOTE_SCRIPTS:
        try:
            remote = _rest_answers(server.url, ours, zone)
        finally:
            _drop_created(root, before)
        _check(script, _disagreements(script, remote, theirs, reference), "REST JSON")
        try:
            dbapi = _dbapi_answers(server.url, ours, zone, lambda i: workbench[i].types)
        finally:
            _drop_created(root, before)
        _check(script, _disagreements(script, dbapi, theirs, reference), "DB-API")
