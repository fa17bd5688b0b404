"""One table listing and one built-in function cache, shared by the catalog, REST, completion and plans.

Staging tables of atomic writes are hidden wherever tables are listed; Spark's built-ins are
read once per process whichever session or feature asks first.
"""
from __future__ import annotations

import pytest

from gateway import FunctionKind, GatewayError
from gateway.core import functions as functions_module
from gateway.core.catalog import hidden_table_filters, is_hidden_table, list_relations
from gateway.core.functions import (BuiltinFunctions, catalog_usages, described_usage, show_system_functions,
                                    signature_of)
from gateway.features.atomic import is_staging_name
from gateway.features.atomic.staged import BACKUP_PREFIX, STAGING_PREFIX
from gateway.spark.functions import builtin_registry
from rest_support import http, server  # noqa: F401 - fixtures

DB = "listing_db"
STAGING = STAGING_PREFIX + "0123abcd"
BACKUP = BACKUP_PREFIX + "0123abcd"


@pytest.fixture(scope="module")
def staged_db(gateway):
    """A database holding a user table next to the staging and backup tables of a (pretend) running write."""
    handle = gateway.open_session(name="listing")
    for statement in [f"CREATE DATABASE IF NOT EXISTS {DB}",
                      f"CREATE TABLE IF NOT EXISTS {DB}.visible_orders (id BIGINT) USING parquet",
                      f"CREATE TABLE IF NOT EXISTS {DB}.`{STAGING}` (id BIGINT) USING parquet",
                      f"CREATE TABLE IF NOT EXISTS {DB}.`{BACKUP}` (id BIGINT) USING parquet",
                      f"USE {DB}"]:
        gateway.configure_session(handle, statement)
    yield handle
    gateway.close_session(handle)


def values(candidates):
    return [c.value for c in candidates]


# -- one listing, staging tables hidden everywhere -----------------------------------------------------

def test_the_atomic_feature_registers_its_staging_filter(gateway):  # registered when the feature starts
    assert is_staging_name in hidden_table_filters
    assert is_hidden_table(STAGING) and is_hidden_table(BACKUP.upper()) and not is_hidden_table("visible_orders")


def test_spark_itself_lists_the_staging_tables(gateway, staged_db):
    """The tables are really there: hiding them is the listing's doing, not a failed create."""
    spark = gateway.sessions.get(staged_db).spark
    shown = {r[1] for r in spark.sql(f"SHOW TABLES IN {DB}").collect()}
    assert {STAGING, BACKUP, "visible_orders"} <= shown


def test_list_tables_hides_staging_tables(gateway, staged_db):
    names = {t.name for t in gateway.list_tables(staged_db, "spark_catalog", DB)}
    assert "visible_orders" in names and STAGING not in names and BACKUP not in names
    relations = {r.name for r in list_relations(gateway.sessions.get(staged_db).spark, ["spark_catalog", DB])}
    assert relations == names


def test_completion_hides_staging_tables(gateway, staged_db):
    after_from = values(gateway.complete_candidates(staged_db, "SELECT * FROM ", 14))
    assert "visible_orders" in after_from and STAGING not in after_from and BACKUP not in after_from
    typed = values(gateway.complete_candidates(staged_db, "SELECT * FROM __wb", 18))
    assert typed == []
    qualified = f"SELECT * FROM {DB}."
    after_dot = values(gateway.complete_candidates(staged_db, qualified, len(qualified)))
    assert after_dot == ["visible_orders"]


def test_rest_tables_hide_staging_tables(http, staged_db):  # noqa: F811 - fixture
    answer = http("GET", f"/v2/sessions/{staged_db}/tables?catalog=spark_catalog&database={DB}")
    assert answer.status == 200, answer.body
    names = {t["name"] for t in answer.body["tables"]}
    assert "visible_orders" in names and STAGING not in names and BACKUP not in names


# -- one function cache ---------------------------------------------------------------------------------

class Counted:
    """A loader that counts its calls and then does the real work."""

    def __init__(self, loader, fail_first: bool = False) -> None:
        self.loader, self.calls, self.fail_first = loader, 0, fail_first

    def __call__(self, *args):
        self.calls += 1
        if self.fail_first and self.calls == 1:
            raise RuntimeError("registry unreadable on the first try")
        return self.loader(*args)


def test_builtins_load_once_per_process_whoever_asks(gateway, monkeypatch):
    names, registry = Counted(show_system_functions), Counted(builtin_registry)
    fresh = BuiltinFunctions(load_names=names, load_registry=registry)
    monkeypatch.setattr(functions_module, "BUILTINS", fresh)
    handles = [gateway.open_session(name=f"functions-{i}") for i in range(3)]
    try:
        for handle in handles:
            assert "upper" in values(gateway.complete_candidates(handle, "SELECT up", 9))
            builtins = {f.name for f in gateway.list_functions(handle, kind=FunctionKind.BUILTIN)}
            assert {"upper", "substr", "range"} <= builtins
            assert gateway.get_function(handle, "upper").kind == FunctionKind.BUILTIN
            plan = gateway.compile_plan(handle, "SELECT upper('a') AS u, length('bc') AS n")
            pinned = {f["name"]: f for f in plan["functions"]}
            assert pinned["upper"]["module"] == "core" and pinned["upper"]["implementation"] == "builtin"
            assert "length" in pinned
        assert fresh.wait_details(120)
        # completion still offers built-ins with their signatures, in a session opened after the load
        late = gateway.open_session(name="functions-late")
        handles.append(late)
        upper = [c for c in gateway.complete_candidates(late, "SELECT uppe", 11) if c.value == "upper"]
        assert upper and upper[0].kind == "function" and upper[0].detail.startswith("upper(str)")
    finally:
        for handle in handles:
            gateway.close_session(handle)
    assert (names.calls, registry.calls) == (1, 1)


def test_names_come_from_show_system_functions_and_usages_from_the_registry(gateway, session):
    spark = gateway.sessions.get(session).spark
    cache = BuiltinFunctions()
    names = cache.names(spark)
    assert {"upper", "substr", "||", "range"} <= names and all(n == n.lower() for n in names)
    classes = cache.classes(spark)  # waits for the registry
    assert classes["org.apache.spark.sql.catalyst.expressions.Upper"] == ["ucase", "upper"]
    assert "uppercase" in cache.usage("upper") and cache.signature("substr") == "substr(str, pos[, len])"


def test_the_public_path_describes_the_same_usage_as_the_registry(gateway, session):
    """Without a JVM usages come from DESCRIBE FUNCTION; they must read like the registry's."""
    spark = gateway.sessions.get(session).spark
    by_name = {f.name: f.usage for f in builtin_registry(spark)}
    for name in ("upper", "substr", "date_add", "coalesce"):
        described = described_usage(spark, name)
        assert signature_of(described, name) == signature_of(by_name[name], name) != ""


def test_the_catalogs_function_list_gives_every_builtin_the_registrys_usage(gateway, session):
    """The path without a JVM reads usages from ``listFunctions()``: every built-in name is there, and each
    usage is the registry's."""
    spark = gateway.sessions.get(session).spark
    by_name = {f.name: f.usage.strip() for f in builtin_registry(spark)}
    listed = catalog_usages(spark)
    assert set(show_system_functions(spark)) <= set(listed)
    assert {name: listed[name] for name in by_name} == by_name


def test_a_failed_registry_load_is_reported_then_retried(gateway, session):
    spark = gateway.sessions.get(session).spark
    registry = Counted(builtin_registry, fail_first=True)
    cache = BuiltinFunctions(load_registry=registry)
    with pytest.raises(GatewayError, match="registry could not be read: registry unreadable"):
        cache.classes(spark)
    assert not cache.wait_details(1) and cache.signature("upper") == ""
    assert "org.apache.spark.sql.catalyst.expressions.Upper" in cache.classes(spark)
    assert registry.calls == 2 and cache.signature("upper") == "upper(str)"
