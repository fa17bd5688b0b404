"""Modules (FLIP-68): order semantics, isolation, module types, entry points, geo, bad input."""
import hashlib
import math

import pytest

from gateway import GatewayService, InvalidRequestError, ObjectNotFoundError, SqlExecutionError
from gateway.errors import ConfigurationError, InvalidStatementError
from gateway.features.modules import ENTRY_POINT_GROUP, FactoryRegistry
from gateway.features.modules.plugin import builtin_factories, module_settings
from tests.conftest import run_all
from tests.jarbuild import build_jar, hive_udf_source, javac_available


def rows(gateway, session, sql):
    _, result, page = run_all(gateway, session, sql)
    if page.exception is not None:
        raise AssertionError(page.exception["root_cause"])
    return result


def error_of(gateway, session, sql) -> str:
    _, _, page = run_all(gateway, session, sql)
    assert page.exception is not None, f"{sql} should have failed"
    return page.exception["root_cause"]


def sql_module(tmp_path, name, text):
    path = tmp_path / f"{name}.sql"
    path.write_text(text)
    return str(path)


def full_modules(gateway, session):
    return rows(gateway, session, "SHOW FULL MODULES")


@pytest.fixture
def clash(gateway, session, tmp_path):
    """Two SQL modules that both define pick(); the second also defines upper() like the built-in."""
    one = sql_module(tmp_path, "one", "-- version: 1.0\nCREATE FUNCTION pick(x INT) RETURNS STRING RETURN 'one';")
    two = sql_module(tmp_path, "two", "CREATE FUNCTION pick(x INT) RETURNS STRING RETURN 'two';\n"
                                      "CREATE OR REPLACE FUNCTION upper(s STRING) RETURNS STRING "
                                      "RETURN concat('two:', s);")
    gateway.configure_session(session, f"LOAD MODULE one WITH ('type'='sql', 'path'='{one}')")
    gateway.configure_session(session, f"LOAD MODULE two WITH ('type'='sql', 'path'='{two}')")
    return session


# -- order ------------------------------------------------------------------------------------

def test_core_is_loaded_by_default(gateway, session):
    assert rows(gateway, session, "SHOW MODULES") == [["core"]]
    assert full_modules(gateway, session) == [["core", True, "core", gateway.root.version]]
    origin = gateway.feature("modules").manager(gateway.sessions.get(session)).function_origin("upper")
    assert (origin.module, origin.version, origin.implementation) == ("core", gateway.root.version, "builtin")


def test_name_clash_resolves_in_order_both_ways(gateway, clash):
    assert rows(gateway, clash, "SHOW MODULES") == [["core"], ["one"], ["two"]]
    assert rows(gateway, clash, "SELECT pick(1)") == [["one"]]
    modules = gateway.feature("modules").manager(gateway.sessions.get(clash))
    assert modules.function_origin("pick").module == "one" and modules.providers("PICK") == ["one", "two"]
    gateway.configure_session(clash, "USE MODULES two, one, core")
    assert rows(gateway, clash, "SELECT pick(1)") == [["two"]]
    origin = modules.function_origin("pick")
    assert origin.module == "two" and origin.implementation.startswith("sql:sha256:")
    gateway.configure_session(clash, "USE MODULES one, two, core")
    assert rows(gateway, clash, "SELECT pick(1)") == [["one"]]
    assert modules.function_origin("pick").version == "1.0"


def test_a_module_before_core_shadows_a_builtin_and_after_it_does_not(gateway, clash):
    assert rows(gateway, clash, "SELECT upper('a')") == [["A"]]  # two stands after core
    gateway.configure_session(clash, "USE MODULES two, core, one")
    assert rows(gateway, clash, "SELECT upper('a'), system.builtin.upper('a'), pick(1)") == [["two:a", "A", "two"]]
    assert rows(gateway, clash, "SELECT current_path()")[0][0].startswith("system.session,system.builtin")
    modules = gateway.feature("modules").manager(gateway.sessions.get(clash))
    assert modules.function_origin("upper").module == "two"
    assert modules.function_origin("system.builtin.upper").module == "core"
    detail = gateway.get_function(clash, "upper")
    assert detail.module == "two" and detail.providers == ["two", "core"]
    gateway.configure_session(clash, "USE MODULES core, two, one")
    assert rows(gateway, clash, "SELECT upper('a'), pick(1)") == [["A", "two"]]
    assert gateway.get_function(clash, "upper").module == "core"
    # nothing shadows a built-in any more: Spark's default path and setting are back
    assert rows(gateway, clash, "SELECT current_path()")[0][0].startswith("system.builtin,system.session")
    assert rows(gateway, clash, "SET spark.sql.path.enabled") == [["spark.sql.path.enabled", "false"]]


def test_unload_brings_back_the_next_and_reorder_keeps_the_rest(gateway, clash):
    gateway.configure_session(clash, "USE MODULES two, one, core")
    gateway.configure_session(clash, "UNLOAD MODULE two")
    assert rows(gateway, clash, "SELECT pick(1), upper('a')") == [["one", "A"]]
    assert rows(gateway, clash, "SHOW MODULES") == [["one"], ["core"]]
    gateway.configure_session(clash, "USE MODULES core")  # one stays loaded, unused
    assert full_modules(gateway, clash) == [["core", True, "core", gateway.root.version],
                                            ["one", False, "sql", "1.0"]]
    assert "pick" in error_of(gateway, clash, "SELECT pick(1)")
    gateway.configure_session(clash, "USE MODULES one, core")
    assert rows(gateway, clash, "SELECT pick(1)") == [["one"]]


def test_without_core_builtins_still_answer_but_lose_every_clash(gateway, clash):
    gateway.configure_session(clash, "UNLOAD MODULE core")
    assert rows(gateway, clash, "SHOW MODULES") == [["one"], ["two"]]
    assert rows(gateway, clash, "SELECT upper('a'), lower('B'), system.builtin.upper('a')") == [["two:a", "b", "A"]]
    modules = gateway.feature("modules").manager(gateway.sessions.get(clash))
    assert modules.function_origin("lower").module == "core"  # Spark answers built-ins regardless
    gateway.configure_session(clash, "LOAD MODULE core")      # appended: still after two
    assert rows(gateway, clash, "SELECT upper('a')") == [["two:a"]]
    gateway.configure_session(clash, "USE MODULES core, one, two")
    assert rows(gateway, clash, "SELECT upper('a')") == [["A"]]


def test_sessions_are_isolated(gateway, clash):
    gateway.configure_session(clash, "USE MODULES two, core")
    other = gateway.open_session(name="other")
    try:
        assert rows(gateway, other, "SHOW FULL MODULES") == [["core", True, "core", gateway.root.version]]
        assert rows(gateway, other, "SELECT upper('a')") == [["A"]]
        assert "pick" in error_of(gateway, other, "SELECT pick(1)")
        gateway.configure_session(other, "LOAD MODULE geo")
        assert rows(gateway, clash, "SHOW MODULES") == [["two"], ["core"]]
        assert rows(gateway, clash, "SELECT upper('a'), pick(1)") == [["two:a", "two"]]
    finally:
        gateway.close_session(other)


def test_python_module_clashes_with_sql_module_and_shadows_builtin(gateway, clash):
    gateway.configure_session(clash, "LOAD MODULE py WITH ('type'='python', 'module'='tests.module_data.clash_udfs')")
    gateway.configure_session(clash, "USE MODULES py, core, one, two")
    assert rows(gateway, clash, "SELECT pick(1), lower('X'), upper('a')") == [["python", "py-lower:X", "A"]]
    origin = gateway.feature("modules").manager(gateway.sessions.get(clash)).function_origin("lower")
    assert origin.version == "3.0" and origin.implementation == "python:tests.module_data.clash_udfs.lower"
    gateway.configure_session(clash, "UNLOAD MODULE py")
    assert rows(gateway, clash, "SELECT pick(1), lower('X')") == [["one", "x"]]


# -- the geo module ---------------------------------------------------------------------------

def test_geo_distances_bearings_and_bboxes(gateway, session):
    (row,) = rows(gateway, session, """
        LOAD MODULE geo;
        SELECT haversine_km(48.8566, 2.3522, 51.5074, -0.1278),
               haversine_km(40.7128, -74.0060, 34.0522, -118.2437),
               haversine_km(0, 0, 0, 0),
               initial_bearing(48.8566, 2.3522, 51.5074, -0.1278),
               initial_bearing(0, 0, 10, 0), initial_bearing(0, 0, 0, 10), initial_bearing(0, 0, -10, 0),
               in_bbox(48.8566, 2.3522, 48, 2, 49, 3), in_bbox(51.5074, -0.1278, 48, 2, 49, 3),
               in_bbox(0, 179, -1, 170, 1, -170), in_bbox(0, -175, -1, 170, 1, -170), in_bbox(0, 0, -1, 170, 1, -170),
               haversine_km(NULL, 0, 0, 0), haversine_km(95, 0, 0, 0), in_bbox(NULL, 0, 0, 0, 1, 1)""")
    assert abs(row[0] - 343.5) < 0.5                # Paris - London
    assert abs(row[1] - 3935.7) < 2                 # New York - Los Angeles
    assert row[2] == 0.0
    assert abs(row[3] - 330.0) < 0.5
    assert [round(b, 6) for b in row[4:7]] == [0.0, 90.0, 180.0]
    assert row[7:12] == [True, False, True, True, False]
    assert row[12:] == [None, None, None]


def test_geohash_known_values_and_round_trips(gateway, session):
    gateway.configure_session(session, "LOAD MODULE geo")
    (row,) = rows(gateway, session, """
        SELECT geohash_encode(57.64911, 10.40744, 11), geohash_decode('u4pruydqqvj'),
               geohash_encode(0, 0, 0), geohash_encode(0, 0, 13), geohash_encode(91, 0, 5), geohash_decode('ab!')""")
    assert row[0] == "u4pruydqqvj"
    assert abs(row[1]["lat"] - 57.64911) < 1e-5 and abs(row[1]["lon"] - 10.40744) < 1e-5
    assert row[2:5] == [None, None, None] and row[5] == {"lat": None, "lon": None}
    trips = rows(gateway, session, """
        SELECT lat, lon, h, geohash_decode(h) AS back, geohash_encode(geohash_decode(h).lat, geohash_decode(h).lon, 7)
        FROM (SELECT lat, lon, geohash_encode(lat, lon, 12) AS h
              FROM VALUES (48.8566, 2.3522), (-33.8688, 151.2093), (0.0, 0.0), (89.9, -179.9), (-45.5, 179.99)
              AS t(lat, lon))""")
    assert len(trips) == 5
    for lat, lon, h, back, short in trips:
        assert len(h) == 12 and abs(back["lat"] - lat) < 1e-6 and abs(back["lon"] - lon) < 1e-6
        assert short == h[:7]


def test_geo_runs_vectorized_over_many_rows(gateway, session):
    gateway.configure_session(session, "LOAD MODULE geo")
    (row,) = rows(gateway, session, "SELECT count(*), sum(haversine_km(0, 0, 0, id / 1000.0)) FROM range(20000)")
    # along the equator distance is linear in longitude: sum of (id/1000 degrees) in km
    expected = sum(i / 1000.0 for i in range(20000)) * math.pi / 180 * 6371.0088
    assert row[0] == 20000 and abs(row[1] - expected) / expected < 1e-9


# -- jar and plugin types ---------------------------------------------------------------------

@pytest.mark.skipif(not javac_available(), reason="javac is needed to build the test jar")
def test_jar_module_from_a_properties_file_inside_the_jar(gateway, session, tmp_path):
    jar = build_jar(tmp_path, "wbfuncs", {"com.wb.Shout": hive_udf_source("com.wb.Shout"),
                                          "com.wb.Lower": hive_udf_source("com.wb.Lower")},
                    resources={"META-INF/workbench-functions.properties":
                               "# test jar\nmodule.version=2.1\njar_shout=com.wb.Shout\nlower=com.wb.Lower\n"})
    gateway.configure_session(session, f"LOAD MODULE j WITH ('type'='jar', 'path'='{jar}')")
    assert rows(gateway, session, "SELECT jar_shout('hi'), lower('HI')") == [["HI", "hi"]]
    modules = gateway.feature("modules").manager(gateway.sessions.get(session))
    digest = hashlib.sha256(jar.read_bytes()).hexdigest()
    origin = modules.function_origin("jar_shout")
    assert origin.module == "j" and origin.version == "2.1"
    assert origin.implementation == f"jar:com.wb.Shout@sha256:{digest}"
    module = modules.get("J")
    assert module.get_function_definition("JAR_SHOUT", version="2.1").kind == "jar"
    with pytest.raises(InvalidRequestError, match="version 2.1, not 9"):
        module.get_function_definition("jar_shout", version="9")
    # Spark cannot shadow a built-in with a Hive UDF: refused, nothing changed
    with pytest.raises(SqlExecutionError, match="cannot shadow a built-in"):
        gateway.configure_session(session, "USE MODULES j, core")
    assert rows(gateway, session, "SHOW MODULES") == [["core"], ["j"]]
    assert rows(gateway, session, "SELECT jar_shout('x'), lower('X')") == [["X", "x"]]


def test_entry_point_plugin_is_discovered_and_loaded(gateway, session):
    registry = FactoryRegistry(builtin_factories())
    assert "shout" in registry.types()
    shout = next(t for t in gateway.list_module_types() if t.type == "shout")
    assert [p.name for p in shout.properties] == ["suffix"]
    gateway.configure_session(session, "LOAD MODULE shout WITH ('suffix'='?!')")
    assert rows(gateway, session, "SELECT shout('hi')") == [["HI?!"]]
    assert full_modules(gateway, session)[1] == ["shout", True, "shout", "0.1.0"]
    assert ENTRY_POINT_GROUP == "spark_sql_workbench.modules"


# -- service calls, function browser, configuration -------------------------------------------

def test_service_calls_and_function_browser(gateway, session, tmp_path):
    info = gateway.load_module(session, "geo")
    assert (info.name, info.type, info.version, info.used, info.position) == ("geo", "geo", "2.0.0", True, 1)
    assert "haversine_km" in info.functions
    path = sql_module(tmp_path, "lw", "CREATE FUNCTION lower(s STRING) RETURNS STRING RETURN 'lw';")
    gateway.load_module(session, "LW", {"type": "sql", "path": path})
    gateway.use_modules(session, ["lw", "core"])
    listed = gateway.list_modules(session, full=True)
    assert [(m.name, m.used, m.position) for m in listed] == [("lw", True, 0), ("core", True, 1), ("geo", False, None)]
    assert [m.name for m in gateway.list_modules(session)] == ["lw", "core"]
    functions = gateway.list_functions(session)
    builtin_lower = next(f for f in functions if f.name == "lower" and f.kind.value == "BUILTIN")
    assert (builtin_lower.module, builtin_lower.winner) == ("core", "lw")
    mine = next(f for f in functions if f.name == "lower" and f.is_temporary)
    assert (mine.module, mine.winner) == ("lw", "lw")
    assert not any(f.name == "haversine_km" for f in functions)  # geo is unused
    assert gateway.function_origin(session, "haversine_km") is None
    assert gateway.function_origin(session, "system.builtin.lower").implementation == "builtin"
    gateway.use_modules(session, "core, geo")  # a comma-separated text works too
    detail = gateway.get_function(session, "haversine_km")
    assert (detail.module, detail.module_version, detail.providers) == ("geo", "2.0.0", ["geo"])
    assert detail.implementation.startswith("sql:sha256:")  # a Spark SQL function since 2.0.0, no Python
    gateway.unload_module(session, "lw")
    assert gateway.get_function(session, "lower").module == "core"
    assert gateway.function_origin(session, "no_such_function_anywhere") is None


def test_modules_load_setting_gives_every_new_session_its_modules(gateway, config):
    service = GatewayService(config.with_overrides(modules__load=["geo", {"name": "core"}]))
    try:
        handle = service.open_session()
        assert rows(service, handle, "SHOW MODULES") == [["geo"], ["core"]]
    finally:
        service.shutdown(stop_spark=False)
    registry = FactoryRegistry(builtin_factories())
    with pytest.raises(ConfigurationError, match="unknown module type 'nope'"):
        module_settings(["core", {"name": "x", "type": "nope"}], registry)
    with pytest.raises(ConfigurationError, match="needs the property path"):
        module_settings([{"name": "s", "type": "sql"}], registry)
    with pytest.raises(ConfigurationError, match="twice"):
        module_settings(["core", "CORE"], registry)


# -- negative cases ---------------------------------------------------------------------------

BAD_STATEMENTS = [
    ("LOAD MODULE core", "already loaded"),
    ("LOAD MODULE x WITH ('type'='bogus')", "unknown module type 'bogus'"),
    ("LOAD MODULE s WITH ('type'='sql')", "needs the property path"),
    ("LOAD MODULE geo WITH ('colour'='red')", "does not know the property colour"),
    ("LOAD MODULE s WITH ('type'='sql', 'path'='/no/such/file.sql')", "does not exist"),
    ("LOAD MODULE p WITH ('type'='python', 'module'='no_such_python_module_x')", "cannot be imported"),
    ("LOAD MODULE j WITH ('type'='jar', 'path'='/no/such.jar')", "does not exist"),
    ("UNLOAD MODULE geo", "not loaded"),
    ("USE MODULES core, geo", "not loaded"),
    ("USE MODULES core, CORE", "more than once"),
    ("LOAD MODULE", "expected a module name"),
    ("USE MODULES", "expected a module name"),
    ("LOAD MODULE a WITH ('type'='sql', 'type'='sql')", "given twice"),
]


@pytest.mark.parametrize("statement, message", BAD_STATEMENTS)
def test_bad_statements_give_clear_errors_and_change_nothing(gateway, session, statement, message):
    before = full_modules(gateway, session)
    with pytest.raises(SqlExecutionError, match=message):
        gateway.configure_session(session, statement)
    assert full_modules(gateway, session) == before
    assert rows(gateway, session, "SELECT upper('ok')") == [["OK"]]


def test_bad_files_and_service_arguments(gateway, session, tmp_path):
    bad = sql_module(tmp_path, "bad", "SELECT 1;")
    with pytest.raises(InvalidRequestError, match="holds only 'CREATE FUNCTION"):
        gateway.load_module(session, "bad", {"type": "sql", "path": bad})
    twice = sql_module(tmp_path, "twice", "CREATE FUNCTION f() RETURNS INT RETURN 1;"
                                          "CREATE FUNCTION F() RETURNS INT RETURN 2;")
    with pytest.raises(InvalidRequestError, match="defined twice"):
        gateway.load_module(session, "twice", {"type": "sql", "path": twice})
    with pytest.raises(InvalidRequestError, match="not valid"):
        gateway.load_module(session, "bad name!")
    with pytest.raises(ObjectNotFoundError, match="not loaded"):
        gateway.unload_module(session, "nope")
    with pytest.raises(InvalidRequestError, match="at least one"):
        gateway.use_modules(session, [])
    with pytest.raises(InvalidRequestError, match="mapping"):
        gateway.load_module(session, "geo", ["type", "geo"])
    # Spark itself refuses a function body: the whole load is undone
    broken = sql_module(tmp_path, "broken", "CREATE FUNCTION ok1() RETURNS INT RETURN 1;"
                                            "CREATE FUNCTION zz_broken() RETURNS INT RETURN no_such_column;")
    with pytest.raises(SqlExecutionError):
        gateway.load_module(session, "broken", {"type": "sql", "path": broken})
    assert [m.name for m in gateway.list_modules(session, full=True)] == ["core"]
    assert "ok1" in error_of(gateway, session, "SELECT ok1()")
    with pytest.raises(InvalidStatementError, match="SHOW"):
        from gateway.features.modules.statements import parse
        parse("SHOW MODULES now")
