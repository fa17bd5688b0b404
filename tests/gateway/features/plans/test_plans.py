"""Compiled plans (FLIP-190): golden change detection, completeness, restore, bad input."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

import pytest
import sqlglot
from sqlglot.tokens import TokenType

from conftest import run_all
from gateway.features.plans import function_versions
from gateway.features.plans import plan_dot, plan_text, stable_plan
from gateway.features.plans.functions import preferred_name
from gateway.core.functions import builtin_functions
from gateway.features.plans.tree import parse_text_tree, stable_text
from plan_goldens import compare_or_update, golden_names, setup_statements


def sql(gateway, session, statement):
    """Rows of a statement; fails the test with the error if it failed."""
    _, rows, page = run_all(gateway, session, statement)
    assert page.exception is None, page.exception["root_cause"]
    return rows


def error_of(gateway, session, statement) -> dict:
    _, _, page = run_all(gateway, session, statement)
    assert page.exception is not None, f"{statement!r} should have failed"
    return page.exception


@pytest.fixture(scope="module")
def golden(gateway):
    """One session over the golden tables; each golden query compiled once."""
    handle = gateway.open_session(name="golden-plans")
    for statement in setup_statements():
        gateway.configure_session(handle, statement) if statement.split()[0].upper() != "SET" \
            else sql(gateway, handle, statement)
    plans = {name: gateway.compile_plan(handle, (_golden_sql(name))) for name in golden_names()}
    yield handle, plans
    gateway.close_session(handle)


def _golden_sql(name):
    from plan_goldens import GOLDEN_DIR
    return (GOLDEN_DIR / f"{name}.sql").read_text()


# -- change detection -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", golden_names())
def test_golden_plan_unchanged(golden, name):
    _, plans = golden
    problem = compare_or_update(name, plans[name])
    assert not problem, problem


def test_golden_plans_are_stable_between_compilations(gateway, golden):
    handle, plans = golden
    for name in ("window", "cte_subquery"):  # CTE ids grow with every analysis: they must not leak
        again = gateway.compile_plan(handle, _golden_sql(name))
        assert json.dumps(stable_plan(again), sort_keys=True) == json.dumps(stable_plan(plans[name]), sort_keys=True)
    text = json.dumps(plans["join_aggregate"])
    assert not re.search(r"#\d", text), "expression ids must be stripped"
    assert "jvmId" not in text and "createTime" not in text and "/tmp/" not in text


def test_golden_set_covers_joins_aggregates_windows_writes(golden):
    _, plans = golden
    optimized = " ".join(plan_text(p, "optimized") for p in plans.values())
    for node in ("Join", "Aggregate", "Window", "InsertIntoHadoopFsRelationCommand",
                 "CreateDataSourceTableAsSelectCommand"):
        assert node in optimized
    kinds = {p["statement"]["kind"] for p in plans.values()}
    assert kinds == {"QUERY", "INSERT", "CREATE_TABLE_AS"}


# -- completeness ---------------------------------------------------------------------------------

def test_every_function_of_the_golden_queries_has_a_version(gateway, golden):
    handle, plans = golden
    spark = gateway.sessions.get(handle).spark
    by_class = builtin_functions().classes(spark)
    aliases = {name: set(names) for names in by_class.values() for name in names}
    for name, plan in plans.items():
        recorded = {f["name"]: f for f in plan["functions"]}
        for entry in recorded.values():
            assert entry["module"] and entry["version"] and entry["implementation"], (name, entry)
        # every built-in expression in Spark's analyzed tree is pinned (found by class, independently)
        for cls in _classes(plan["plans"]["analyzed"]["tree"], by_class):
            assert preferred_name(cls, by_class[cls]) in recorded, (name, cls)
        # every function the statement names (read by sqlglot) is pinned, under some alias
        for called in _statement_functions(plan["statement"]["text"]):
            assert aliases.get(called, {called}) & set(recorded), (name, called, sorted(recorded))
    functions = {f["name"]: f for f in plans["functions"]["functions"]}
    assert functions["upper"] == {"name": "upper", "module": "core", "version": spark.version,
                                  "implementation": "builtin"}
    assert functions["net_amount"]["module"] == "session"
    assert functions["net_amount"]["implementation"].startswith("sql:sha256:")


def _classes(tree, by_class):
    short = {cls.rsplit(".", 1)[-1]: cls for cls in by_class}
    found, stack = set(), [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("node") in short:
                found.add(short[node["node"]])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


_SYNTAX = {"in", "exists", "over", "using", "values", "as", "and", "or", "not"}


def _statement_functions(text):
    """Names written as calls (``name(``) in the statement, read from sqlglot's tokens."""
    tokens = sqlglot.Dialect.get_or_raise("spark").tokenize(text)
    return {t.text.lower() for t, following in zip(tokens, tokens[1:])
            if following.token_type == TokenType.L_PAREN and t.text.lower() not in _SYNTAX
            and t.token_type not in (TokenType.L_PAREN, TokenType.R_PAREN, TokenType.COMMA)}


# -- statements: compile, explain, execute -----------------------------------------------------------

@pytest.fixture
def restore_table(gateway, session):
    sql(gateway, session, "CREATE DATABASE IF NOT EXISTS plans_restore")
    sql(gateway, session, "USE plans_restore")
    sql(gateway, session, "DROP TABLE IF EXISTS events")
    sql(gateway, session, "CREATE TABLE events (id BIGINT, kind STRING) USING parquet")
    sql(gateway, session, "INSERT INTO events VALUES (1, 'click'), (2, 'view'), (3, 'click')")
    return "plans_restore.events"


def test_restore_refuses_a_changed_table_and_runs_once_restored(gateway, session, restore_table):
    name = f"restore-{session}.json"
    rows = sql(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT kind, count(*) AS n FROM events GROUP BY kind")
    assert rows[0][1] == "compiled" and rows[0][2] == "QUERY"
    assert sorted(sql(gateway, session, f"EXECUTE PLAN '{name}'")) == [["click", 2], ["view", 1]]

    sql(gateway, session, "ALTER TABLE events ADD COLUMNS (source STRING)")
    error = error_of(gateway, session, f"EXECUTE PLAN '{name}'")
    assert "was not executed" in error["root_cause"]
    assert "table spark_catalog.plans_restore.events changed its schema" in error["root_cause"]
    assert "column source (string) was added" in error["root_cause"]
    assert error["differences"][0]["kind"] == "table"
    explained = sql(gateway, session, f"EXPLAIN PLAN '{name}'")
    assert any(row[0] == "check" and "source" in row[2] for row in explained)

    # restore: the table as it was compiled against
    sql(gateway, session, "DROP TABLE events")
    sql(gateway, session, "CREATE TABLE events (id BIGINT, kind STRING) USING parquet")
    sql(gateway, session, "INSERT INTO events VALUES (1, 'click'), (4, 'view')")
    assert sorted(sql(gateway, session, f"EXECUTE PLAN '{name}'")) == [["click", 1], ["view", 1]]
    assert ["check", "ok", "no differences: EXECUTE PLAN would run it"] in sql(gateway, session, f"EXPLAIN PLAN '{name}'")


def test_changed_and_missing_function_versions_are_refused(gateway, session, restore_table):
    sql(gateway, session, "CREATE OR REPLACE TEMPORARY FUNCTION tag(k STRING) RETURNS STRING RETURN concat('#', k)")
    name = f"fn-{session}.json"
    sql(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT tag(kind) AS t FROM events WHERE id = 1")
    assert sql(gateway, session, f"EXECUTE PLAN '{name}'") == [["#click"]]
    sql(gateway, session, "CREATE OR REPLACE TEMPORARY FUNCTION tag(k STRING) RETURNS STRING RETURN concat('@', k)")
    error = error_of(gateway, session, f"EXECUTE PLAN '{name}'")["root_cause"]
    assert re.search(r"function tag changed: compiled with module session version sha256:\w+ \(sql:sha256:\w+\), "
                     r"now module session version sha256:\w+", error), error
    sql(gateway, session, "DROP TEMPORARY FUNCTION tag")
    error = error_of(gateway, session, f"EXECUTE PLAN '{name}'")["root_cause"]
    assert "function tag is missing" in error


def test_spark_version_outside_the_plan_is_refused(gateway, session, restore_table, config):
    name = f"version-{session}.json"
    sql(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT id FROM events")
    path = config.data_dir / "plans" / name
    plan = json.loads(path.read_text())
    assert plan["accepts_spark"].startswith(">=4.3.0,<4.4.0")
    plan["accepts_spark"], plan["spark_version"] = ">=3.5.0,<3.6.0", "3.5.1"
    path.write_text(json.dumps(plan))
    error = error_of(gateway, session, f"EXECUTE PLAN '{name}'")
    spark_version = gateway.get_gateway_info()["spark_version"]
    assert f"Spark {spark_version} is outside what the plan accepts (>=3.5.0,<3.6.0; compiled on Spark 3.5.1)" \
        in error["root_cause"]


def test_insert_and_ctas_plans_write_only_when_executed(gateway, session, restore_table):
    sql(gateway, session, "DROP TABLE IF EXISTS copies")
    sql(gateway, session, "DROP TABLE IF EXISTS clicks")
    sql(gateway, session, "CREATE TABLE copies (id BIGINT, kind STRING) USING parquet")
    insert, ctas = f"insert-{session}.json", f"ctas-{session}.json"
    sql(gateway, session, f"COMPILE PLAN '{insert}' FOR INSERT INTO copies SELECT * FROM events")
    sql(gateway, session, f"COMPILE PLAN '{ctas}' FOR CREATE TABLE clicks USING parquet AS "
                          f"SELECT id FROM events WHERE kind = 'click'")
    assert sql(gateway, session, "SELECT count(*) FROM copies") == [[0]]
    assert not gateway.sessions.get(session).spark.catalog.tableExists("plans_restore.clicks")
    sql(gateway, session, f"EXECUTE PLAN '{insert}'")
    sql(gateway, session, f"EXECUTE PLAN '{ctas}'")
    assert sql(gateway, session, "SELECT count(*) FROM copies") == [[3]]
    assert sorted(sql(gateway, session, "SELECT id FROM clicks")) == [[1], [3]]
    roles = {t["name"]: t["role"] for t in gateway.load_plan(ctas)["tables"]}
    assert roles == {"spark_catalog.plans_restore.clicks": "create", "spark_catalog.plans_restore.events": "read"}


def test_compile_and_execute_compiles_once_then_reuses(gateway, session, restore_table, config):
    name = f"cae-{session}.json"
    statement = f"COMPILE AND EXECUTE PLAN '{name}' FOR SELECT count(*) FROM events"
    assert sql(gateway, session, statement) == [[3]]
    first = (config.data_dir / "plans" / name).read_text()
    assert sql(gateway, session, statement) == [[3]]
    assert (config.data_dir / "plans" / name).read_text() == first  # reused, not recompiled
    error = error_of(gateway, session, f"COMPILE AND EXECUTE PLAN '{name}' FOR SELECT 42")
    assert "holds another statement" in error["root_cause"]


def test_plan_runs_with_its_database_and_settings(gateway, session, restore_table):
    name = f"context-{session}.json"
    sql(gateway, session, "SET spark.sql.ansi.enabled = false")
    sql(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT CAST(kind AS INT) AS k FROM events WHERE id = 1")
    sql(gateway, session, "SET spark.sql.ansi.enabled = true")
    sql(gateway, session, "USE default")
    assert sql(gateway, session, f"EXECUTE PLAN '{name}'") == [[None]]  # non-ANSI cast, events in plans_restore
    spark = gateway.sessions.get(session).spark
    assert spark.catalog.currentDatabase() == "default" and spark.conf.get("spark.sql.ansi.enabled") == "true"


def test_if_not_exists_keeps_the_file_and_overwrite_needs_force(gateway, session, restore_table, config):
    name = f"exists-{session}.json"
    sql(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT id FROM events")
    assert sql(gateway, session, f"COMPILE PLAN '{name}' IF NOT EXISTS FOR SELECT kind FROM events")[0][1] \
        .startswith("kept")
    error = error_of(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT kind FROM events")
    assert "exists" in error["root_cause"] and "force_recompile" in error["root_cause"]
    assert gateway.load_plan(name)["statement"]["text"] == "SELECT id FROM events"
    sql(gateway, session, "SET workbench.plan.force_recompile = true")
    assert sql(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT kind FROM events")[0][1] == "recompiled"
    assert gateway.load_plan(name)["statement"]["text"] == "SELECT kind FROM events"


# -- bad input --------------------------------------------------------------------------------------

@pytest.mark.parametrize("statement, message", [
    ("COMPILE PLAN '../../escape.json' FOR SELECT 1", "leaves the plans directory"),
    ("COMPILE PLAN 'notes.txt' FOR SELECT 1", "plan files end in .json"),
    ("COMPILE PLAN '' FOR SELECT 1", "the plan file name is empty"),
    ("COMPILE PLAN plain.json FOR SELECT 1", "needs the plan file as a quoted string"),
    ("COMPILE PLAN 'x.json' FOR SHOW TABLES", "SHOW statements cannot be compiled"),
    ("COMPILE PLAN 'x.json' SELECT 1", "needs FOR and the statement"),
    ("COMPILE AND EXECUTE PLAN 'x.json' IF NOT EXISTS FOR SELECT 1", "IF NOT EXISTS belongs to COMPILE PLAN"),
    ("EXECUTE PLAN 'never-compiled.json'", "does not exist: compile it first"),
    ("EXPLAIN PLAN 'x.json' extra", "EXPLAIN PLAN takes only the file"),
    ("COMPILE PLAN 'bad.json' FOR SELECT * FROM no_such_table_here", "TABLE_OR_VIEW_NOT_FOUND"),
])
def test_bad_plan_statements_get_clear_errors(gateway, session, statement, message):
    error = error_of(gateway, session, statement)
    assert message in error["root_cause"] or message == error.get("error_class"), error["root_cause"]
    assert sql(gateway, session, "SELECT 1") == [[1]]  # the session is fine


def test_damaged_and_newer_plan_files_are_refused(gateway, session, config):
    plans = config.data_dir / "plans"
    plans.mkdir(parents=True, exist_ok=True)
    (plans / "garbage.json").write_text("{not json")
    (plans / "other.json").write_text(json.dumps({"hello": "world"}))
    sql(gateway, session, "COMPILE PLAN 'future.json' IF NOT EXISTS FOR SELECT 1 AS one")
    plan = json.loads((plans / "future.json").read_text())
    plan["format_version"] = 99
    (plans / "future.json").write_text(json.dumps(plan))
    assert "is not valid JSON" in error_of(gateway, session, "EXECUTE PLAN 'garbage.json'")["root_cause"]
    assert "is not a compiled plan" in error_of(gateway, session, "EXPLAIN PLAN 'other.json'")["root_cause"]
    assert "uses plan format 99, newer than" in error_of(gateway, session, "EXECUTE PLAN 'future.json'")["root_cause"]
    error = error_of(gateway, session, "SET workbench.plan.force_recompile = true; "
                                       "COMPILE PLAN 'other.json' FOR SELECT 1")
    assert "is not a compiled plan; it is not overwritten" in error["root_cause"]
    assert json.loads((plans / "other.json").read_text()) == {"hello": "world"}


# -- service calls, diff, graph ---------------------------------------------------------------------

def test_diff_plans_names_changes_and_marks_nodes(gateway, golden):
    handle, plans = golden
    left = plans["join_aggregate"]
    right = gateway.compile_plan(handle, _golden_sql("join_aggregate").replace("count(*)", "count(DISTINCT o.order_id)"))
    diff = gateway.diff_plans(left, right)
    assert not diff["same"]
    assert {"section": "statement", "item": "text", "left": left["statement"]["text"],
            "right": right["statement"]["text"]} in diff["changes"]
    assert any(line.startswith("+") and "count(distinct" in line for line in diff["optimized_diff"])
    assert diff["only_left"]["optimized"] and diff["only_right"]["optimized"]
    assert gateway.diff_plans(left, left)["same"]
    dot = plan_dot(plan_text(right, "optimized"), diff["only_right"]["optimized"])
    assert dot.startswith("digraph plan {") and dot.count("#ffd6d6") == len(diff["only_right"]["optimized"])
    assert dot.count(" -> ") == len(_nodes(plan_text(right, "optimized"))) - 1


def _nodes(text):
    from gateway.features.plans.tree import iter_nodes
    return list(iter_nodes(parse_text_tree(text)))


def test_text_tree_parsing_keeps_subqueries_as_children():
    text = stable_text("Project [a#1, scalar-subquery#4 [] AS m#5L]\n"
                       ":  +- Aggregate [max(id#8L) AS max(id)#11L]\n"
                       ":     +- Range (0, 3, step=1)\n"
                       "+- Filter (a#1 > 3)\n"
                       "   +- Relation t[a#1] parquet\n")
    root = parse_text_tree(text)
    assert root.name == "Project" and [c.name for c in root.children] == ["Aggregate", "Filter"]
    assert root.children[0].children[0].label == "Range (0, 3, step=1)"
    assert "#x" in root.label and "#1" not in root.label


@dataclass
class _Origin:
    module: str
    version: str
    implementation: str


class _Modules:
    """The interface of issue 5's ModuleManager that plans use (function_origin, get_function_definition)."""

    def __init__(self, versions):
        self.versions = versions

    def function_origin(self, name):
        found = self.versions.get(name)
        return _Origin(*found) if found else None

    def get_function_definition(self, name, version=None):
        return object() if version == "1.0" else None


def test_module_versions_are_pinned_and_checked(gateway, session):
    owner = gateway.sessions.get(session)
    previous = owner.extensions["modules"]
    owner.extensions["modules"] = _Modules({"upper": ("text", "1.0", "python:text.upper")})
    try:
        versions = function_versions(owner, ["upper", "lower"])
        assert versions["upper"] == {"module": "text", "version": "1.0", "implementation": "python:text.upper"}
        assert versions["lower"]["module"] == "core"  # no module provides it: Spark's built-in
        plan = gateway.compile_plan(session, "SELECT upper('a') AS u")
        assert {"name": "upper", "module": "text", "version": "1.0",
                "implementation": "python:text.upper"} in plan["functions"]
        owner.extensions["modules"] = _Modules({"upper": ("text", "2.0", "python:text.upper_v2")})
        differences = gateway.explain_plan(session, plan)["differences"]
        assert [d["subject"] for d in differences] == ["upper"]
        assert "now module text version 2.0" in differences[0]["message"]
        assert "module text still offers version 1.0" in differences[0]["message"]
    finally:
        owner.extensions["modules"] = previous


def test_a_changed_view_body_is_refused_even_with_the_same_schema(gateway, session, restore_table):
    sql(gateway, session, "CREATE OR REPLACE VIEW clicks_view AS SELECT id FROM events WHERE kind = 'click'")
    name = f"view-{session}.json"
    sql(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT count(*) FROM clicks_view")
    tables = {t["name"]: t["role"] for t in gateway.load_plan(name)["tables"]}
    assert tables == {"spark_catalog.plans_restore.clicks_view": "read",
                      "spark_catalog.plans_restore.events": "read"}  # the view's own table too
    sql(gateway, session, "CREATE OR REPLACE VIEW clicks_view AS SELECT id FROM events WHERE kind = 'view'")
    error = error_of(gateway, session, f"EXECUTE PLAN '{name}'")["root_cause"]
    assert "the statement now analyzes to a different plan" in error and "view" in error


def test_text_fallback_reads_explain_output_like_the_jvm_adapter(gateway, golden):
    from gateway.features.plans.functions import used_functions
    from gateway.features.plans.spark_planning import _from_explain, planned

    handle, plans = golden
    spark = gateway.sessions.get(handle).spark
    text = _golden_sql("join_aggregate")
    jvm, fallback = planned(spark, text), _from_explain(spark, text)
    assert fallback.source == "explain" and fallback.analyzed_json is None
    assert stable_text(fallback.analyzed_text).strip() == stable_text(jvm.analyzed_text).strip()
    assert stable_text(fallback.optimized_text).strip() == stable_text(jvm.optimized_text).strip()
    from_text = set(used_functions(spark, None, fallback.analyzed_text))
    assert {"count", "sum"} <= from_text


def test_a_plan_file_cannot_turn_the_sessions_own_settings_back_on(gateway, session, config, tmp_path):
    """Reading files through SQL (off for non-admins) and Spark's shared parser caches are the session's and the
    driver's, not a plan's: a plan file that sets them is run without them."""
    data = tmp_path / "secret.json"
    data.write_text('{"word": "hidden"}\n')
    name = f"files-{session}.json"
    sql(gateway, session, f"COMPILE PLAN '{name}' FOR SELECT word FROM json.`{data}`")
    path = config.data_dir / "plans" / name
    plan = json.loads(path.read_text())
    assert not any(k.startswith(("spark.sql.runSQLOnFiles", "spark.sql.parser.")) for k in plan["config"])
    plan["config"]["spark.sql.runSQLOnFiles"] = "true"
    plan["config"]["spark.sql.parser.manageParserCaches"] = "false"
    path.write_text(json.dumps(plan))
    sql(gateway, session, "SET spark.sql.runSQLOnFiles = false")
    try:
        error = error_of(gateway, session, f"EXECUTE PLAN '{name}'")
        assert "hidden" not in json.dumps(error)
        spark = gateway.sessions.get(session).spark
        assert spark.conf.get("spark.sql.parser.manageParserCaches") == "true"
    finally:
        sql(gateway, session, "SET spark.sql.runSQLOnFiles = true")
