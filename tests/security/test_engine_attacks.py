"""Issue 27, items 1, 2 and 4, as an attacker: a non-admin (alice) over REST on 127.0.0.1, auth.mode builtin.

Every attack must be refused from Spark's analyzed plan, whatever its spelling, and must leave no
trace: no program run (a marker file), no JVM call (a system property), no directory written, no
file loaded. The same statements stay open to the admin (root), and auth.non_admin_allow opens one
capability at a time. Real Spark, real HTTP, real processes; no mocks.
"""
from __future__ import annotations

import time
import pytest

from gateway import GatewayService
from gateway.errors import ConfigurationError
from gateway.rest import serve_in_background
from gateway.store import default_url
from rest_support import Http

PASSWORD = "pass-word-1"


@pytest.fixture(scope="module")
def users(config, gateway, tmp_path_factory):
    """auth.mode builtin; alice (not an admin) and root (an admin), each with a token and a session."""
    store_dir = tmp_path_factory.mktemp("engine-attacks-store")
    service = GatewayService(config.with_overrides(auth__mode="builtin", store__url=default_url(store_dir)))
    tokens = {}
    for name, admin in (("alice", False), ("root", True)):
        service.store.add_user(name, PASSWORD, admin)
        tokens[name] = service.store.create_token(name, "tests")[0]
    server = serve_in_background(service, "127.0.0.1", 0)
    api = Http(server.url)
    sessions = {name: api("POST", "/v1/sessions", {}, token=tokens[name]).body["sessionHandle"] for name in tokens}
    yield service, api, tokens, sessions
    server.stop()
    service.shutdown(stop_spark=False)


def run(users, name, statement, timeout_s=120.0):
    """Run ``statement`` as ``name``; the first result page (or the error) as (HTTP status, body)."""
    _, api, tokens, sessions = users
    answer = api("POST", f"/v1/sessions/{sessions[name]}/statements", {"statement": statement}, token=tokens[name])
    if answer.status != 200:
        return answer.status, answer.body
    handle = answer.body["operationHandle"]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        page = api("GET", f"/v1/sessions/{sessions[name]}/operations/{handle}/result/0", token=tokens[name])
        if page.status != 200 or page.body["resultType"] != "NOT_READY":
            return page.status, page.body
        time.sleep(0.02)
    raise AssertionError(f"{statement[:80]} did not end in {timeout_s} s")


def rows(body) -> list:
    return [row["fields"] for row in body["results"]["data"]]


def refused(users, statement, access: str):
    status, body = run(users, "alice", statement)
    assert status >= 400, (statement, body)
    assert body["error_class"] == "PermissionDeniedError", (statement, body)
    cause = body["root_cause"]
    by_plan = f"has {access} (" in cause and "auth.non_admin_allow" in cause
    # ADD FILE, EXECUTE IMMEDIATE …: the statement-kind allow-list (core/restrictions.py) refuses them first
    by_kind = access in ("code", "unchecked_execution") and "is not allowed for 'alice'" in cause
    assert by_plan or by_kind, body
    return body


def system_property(users, name: str):
    status, body = run(users, "root", f"SELECT reflect('java.lang.System', 'getProperty', '{name}')")
    assert status == 200, body
    value = rows(body)[0][0]
    return None if value == "null" else value  # reflect answers String.valueOf(null)


SET_PROPERTY = "reflect('java.lang.System', 'setProperty', '{p}', 'pwned')"
REFLECTION_ATTACKS = {
    "plain": "SELECT " + SET_PROPERTY,
    "case and comments": "sElEcT /* a */ ReFlEcT /* b */ ('java.lang.System', -- c\n 'setProperty', '{p}', 'x')",
    "java_method": "SELECT java_method('java.lang.System', 'setProperty', '{p}', 'x')",
    "try_reflect": "SELECT try_reflect('java.lang.System', 'setProperty', '{p}', 'x')",
    "subquery in FROM": "SELECT * FROM (SELECT " + SET_PROPERTY + ")",
    "scalar subquery": "SELECT 1 WHERE (SELECT " + SET_PROPERTY + ") IS NOT NULL",
    "CTE": "WITH c AS (SELECT " + SET_PROPERTY + " AS r) SELECT * FROM c",
    "lambda": "SELECT transform(array(1), x -> " + SET_PROPERTY + ")",
    "EXECUTE IMMEDIATE": "EXECUTE IMMEDIATE 'SELECT reflect(''java.lang.System'', ''setProperty'', ''{p}'', ''x'')'",
    "temporary view": "CREATE OR REPLACE TEMPORARY VIEW attack_view AS SELECT " + SET_PROPERTY,
    "CTAS": "CREATE TABLE attack_ctas AS SELECT " + SET_PROPERTY + " AS r",
}


@pytest.mark.parametrize("variant", sorted(REFLECTION_ATTACKS))
def test_reflection_is_refused_in_every_spelling_and_calls_nothing(users, variant):
    prop = f"wb.attack.{variant.replace(' ', '_')}"
    # EXECUTE IMMEDIATE is refused before analysis: Spark's analyzer runs a command's text when it meets it.
    access = "unchecked_execution" if variant == "EXECUTE IMMEDIATE" else "reflection"
    refused(users, REFLECTION_ATTACKS[variant].format(p=prop), access)
    assert system_property(users, prop) is None


def test_reflection_through_a_sql_function_body_is_refused_where_it_is_called(users):
    prop = "wb.attack.sql_udf"
    status, body = run(users, "alice", f"CREATE OR REPLACE TEMPORARY FUNCTION attack_f() RETURN "
                                       f"{SET_PROPERTY.format(p=prop)}")
    assert status == 200, body  # defining it runs nothing
    refused(users, "SELECT attack_f()", "reflection")
    refused(users, "SELECT * FROM range(2) WHERE attack_f() IS NOT NULL", "reflection")
    assert system_property(users, prop) is None


def test_a_view_that_calls_the_jvm_is_refused_to_a_non_admin_even_if_an_admin_made_it(users):
    status, body = run(users, "root", "CREATE OR REPLACE VIEW engine_attacks_uuid AS "
                                      "SELECT reflect('java.util.UUID', 'randomUUID') AS id")
    assert status == 200, body
    refused(users, "SELECT * FROM engine_attacks_uuid", "reflection")
    status, body = run(users, "root", "SELECT * FROM engine_attacks_uuid")
    assert status == 200 and len(rows(body)[0][0]) == 36, body


def test_the_driver_cannot_be_ended_by_a_non_admin(users):
    refused(users, "SELECT reflect('java.lang.System', 'exit', 0)", "reflection")
    refused(users, "SELECT java_method('java.lang.Runtime', 'getRuntime')", "reflection")
    status, body = run(users, "alice", "SELECT 41 + 1")
    assert status == 200 and rows(body) == [[42]]


def test_script_transformation_is_refused_and_runs_no_program(users, tmp_path):
    marker = tmp_path / "ran"
    for statement in (f"SELECT TRANSFORM('x') USING 'touch {marker}' AS (o)",
                      f"select /**/ transform ( 'x' ) /* USING */ using 'touch {marker}' as (o)",
                      f"FROM (SELECT 'x' AS a) t MAP a USING 'touch {marker}' AS b",
                      f"SELECT * FROM (SELECT TRANSFORM(id) USING 'touch {marker}' AS (o) FROM range(1))"):
        refused(users, statement, "script_transform")
    assert not marker.exists()
    status, body = run(users, "root", "SELECT TRANSFORM('x') USING 'cat' AS (o)")  # the admin may
    assert status == 200 and rows(body) == [["x"]], body


def test_directory_writes_are_refused_and_write_nothing(users, tmp_path):
    for target in ("DIRECTORY '{d}' USING parquet", "LOCAL DIRECTORY '{d}' STORED AS TEXTFILE",
                   "DIRECTORY '{d}' STORED AS TEXTFILE"):
        directory = tmp_path / f"out{len(list(tmp_path.iterdir()))}"
        refused(users, f"INSERT OVERWRITE {target.format(d=directory)} SELECT 1", "directory_writes")
        assert not directory.exists()


def test_loading_the_servers_files_is_refused(users, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("server secret\n")
    status, body = run(users, "alice", "CREATE TABLE IF NOT EXISTS engine_attacks_lines (s STRING) STORED AS TEXTFILE")
    assert status == 200, body
    refused(users, f"LOAD DATA LOCAL INPATH '{secret}' INTO TABLE engine_attacks_lines", "local_files")
    refused(users, f"LOAD DATA INPATH '{secret}' INTO TABLE engine_attacks_lines", "local_files")
    refused(users, f"CREATE TABLE engine_attacks_ext (s STRING) USING text LOCATION '{tmp_path}'", "local_files")
    refused(users, f"CREATE TABLE engine_attacks_opt (s STRING) USING text OPTIONS (path '{tmp_path}')",
            "local_files")
    assert secret.exists()
    status, body = run(users, "root", "SELECT count(*) FROM engine_attacks_lines")
    assert status == 200 and rows(body) == [[0]], body


def test_databases_at_a_path_of_the_users_choice_are_refused(users, tmp_path):
    """CREATE DATABASE … LOCATION hides its path in a map Catalyst's JSON writes as null; ALTER DATABASE
    … SET LOCATION is a command of its own: both would put a database's files anywhere the server writes."""
    directory = tmp_path / "attack_db"
    refused(users, f"CREATE DATABASE engine_attacks_db LOCATION '{directory}'", "local_files")
    refused(users, f"CREATE /* x */ SCHEMA IF NOT EXISTS engine_attacks_db COMMENT 'c' LOCATION '{directory}' "
                   "WITH DBPROPERTIES ('a' = 'b')", "local_files")
    assert not directory.exists()
    status, body = run(users, "alice", "CREATE DATABASE IF NOT EXISTS engine_attacks_plain_db")
    assert status == 200 and body["resultType"] != "ERROR", body
    refused(users, f"ALTER DATABASE engine_attacks_plain_db SET LOCATION '{directory}'", "local_files")
    status, body = run(users, "root", f"CREATE DATABASE IF NOT EXISTS engine_attacks_root_db LOCATION '{directory}'")
    assert status == 200 and body["resultType"] != "ERROR", body
    assert directory.exists()


def test_code_loading_is_refused(users):
    refused(users, "ADD FILE '/etc/hostname'", "code")
    refused(users, "ADD ARCHIVE '/tmp/engine-attacks.zip'", "code")
    refused(users, "CREATE TEMPORARY FUNCTION attack_r AS "
                   "'org.apache.hadoop.hive.ql.udf.generic.GenericUDFReflect'", "code")
    # EXECUTE IMMEDIATE runs a command's text while Spark analyses it: it must never be analysed for alice.
    refused(users, "EXECUTE IMMEDIATE 'ADD FILE ''/etc/hostname'''", "unchecked_execution")
    service = users[0]
    files = service.root.sparkContext._jsc.sc().listFiles()
    assert "hostname" not in str(files)


def test_ordinary_statements_with_those_words_still_run_for_a_non_admin(users):
    for statement, expected in (
            ("SELECT 1 AS reflect, 'USING' AS transform", [[1, "USING"]]),
            ("SELECT transform(array(1, 2), x -> x + 1) AS a", [[[2, 3]]]),
            ("WITH c AS (SELECT 2 AS v) SELECT v FROM c", [[2]]),
            ("SELECT 'INSERT OVERWRITE DIRECTORY' AS s /* LOAD DATA LOCAL INPATH */", [["INSERT OVERWRITE DIRECTORY"]]),
            ("SELECT count(*) FROM range(10) WHERE id IN (SELECT id FROM range(5))", [[5]])):
        status, body = run(users, "alice", statement)
        assert status == 200 and rows(body) == expected, (statement, body)
    status, body = run(users, "alice", "CREATE OR REPLACE TEMPORARY VIEW engine_attacks_ok AS SELECT 7 AS v")
    assert status == 200, body
    status, body = run(users, "alice", "SELECT v FROM engine_attacks_ok")
    assert status == 200 and rows(body) == [[7]], body


def test_the_admin_may_reflect(users):
    status, body = run(users, "root", "SELECT java_method('java.lang.Math', 'abs', -3)")
    assert status == 200 and rows(body) == [["3"]], body


# -- item 4: a statement that would wedge Spark's lexer --------------------------------------------

def test_deeply_nested_comments_are_refused_before_spark_for_everyone(users):
    # 200 KB: minutes of Spark's lexer and 3 GB. Inside the statement: the splitter leaves a trailing comment out
    attack = "SELECT " + "/*" * 50000 + "*/" * 50000 + " 1"
    for name in ("alice", "root"):  # refused by the gateway's own check (its error class), so Spark never lexed it
        status, body = run(users, name, attack, timeout_s=60)
        assert status == 400 and body["error_class"] == "COMMENTS_TOO_DEEPLY_NESTED", body
        assert "50,000 deep" in body["root_cause"] and "statement.max_comment_nesting" in body["root_cause"]
    status, body = run(users, "alice", "SELECT 1 " + "/*" * 32 + " fine " + "*/" * 32 + " + 1")
    assert status == 200 and rows(body) == [[2]], body
    # after the last token the comment is no part of the statement: Spark never reads it
    status, body = run(users, "alice", "SELECT 1 " + "/*" * 50000 + "*/" * 50000, timeout_s=60)
    assert status == 200 and rows(body) == [[1]], body


# -- the setting -------------------------------------------------------------------------------------

def test_non_admin_allow_opens_one_capability_at_a_time(config, gateway, tmp_path_factory):
    from gateway.identity import Principal, acting_as

    store = default_url(tmp_path_factory.mktemp("engine-allow-store"))
    service = GatewayService(config.with_overrides(auth__mode="builtin", store__url=store,
                                                   auth__non_admin_allow=["reflection"]))
    try:
        with acting_as(Principal("carol", False)):
            handle = service.open_session()
            allowed = list(service.iter_results(
                handle, service.execute_statement(handle, "SELECT reflect('java.util.UUID', 'randomUUID')"),
                None, 60))
            assert allowed[-1].result_type.value == "EOS" and len(allowed[-1].rows[0][0]) == 36, allowed[-1]
            still = list(service.iter_results(
                handle, service.execute_statement(handle, "SELECT TRANSFORM('x') USING 'cat' AS (o)"), None, 60))
            error = still[-1].exception
            assert still[-1].result_type.value == "ERROR" and error["error_class"] == "PermissionDeniedError", error
            assert "script_transform (ScriptTransformation)" in error["root_cause"], error
    finally:
        service.shutdown(stop_spark=False)


def test_a_misspelt_capability_stops_the_start(config):
    from gateway.core.engine_guard import allowed_accesses

    with pytest.raises(ConfigurationError, match="'reflect', which is not known; use some of script_transform"):
        allowed_accesses(config.with_overrides(auth__non_admin_allow=["reflect"]))
