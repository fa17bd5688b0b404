"""Catalog API, completion and gateway info against a real Hive-backed session catalog."""
import pytest

from gateway import FunctionKind, InvalidRequestError, SqlExecutionError, TableKind


@pytest.fixture
def catalog_session(gateway, session):
    for statement in [
        "CREATE DATABASE IF NOT EXISTS cat_db",
        "CREATE TABLE IF NOT EXISTS cat_db.orders (id BIGINT COMMENT 'order id', amount DECIMAL(10,2), "
        "day STRING) USING parquet PARTITIONED BY (day) COMMENT 'all orders' TBLPROPERTIES ('team'='sales')",
        "CREATE OR REPLACE VIEW cat_db.big_orders AS SELECT * FROM cat_db.orders WHERE amount > 100",
        "CREATE OR REPLACE TEMPORARY VIEW tmp_orders AS SELECT 1 AS id",
        "CREATE TEMPORARY FUNCTION my_pi AS 'org.apache.hadoop.hive.ql.udf.UDFPI'",
    ]:
        gateway.configure_session(session, statement)
    gateway.configure_session(session, "USE cat_db")
    return session


def test_catalogs_databases_current(gateway, catalog_session):
    assert gateway.list_catalogs(catalog_session) == ["spark_catalog"]
    assert {"default", "cat_db"} <= set(gateway.list_databases(catalog_session))
    assert gateway.get_current_catalog(catalog_session) == "spark_catalog"
    assert gateway.get_current_database(catalog_session) == "cat_db"


def test_list_tables_by_kind_with_temporary_flag(gateway, catalog_session):
    tables = {t.name: t for t in gateway.list_tables(catalog_session, "spark_catalog", "cat_db")}
    assert tables["orders"].kind == TableKind.TABLE and not tables["orders"].is_temporary
    assert tables["big_orders"].kind == TableKind.VIEW
    assert tables["tmp_orders"].is_temporary and tables["tmp_orders"].kind == TableKind.VIEW
    views = {t.name for t in gateway.list_tables(catalog_session, kind="VIEW")}
    assert views >= {"big_orders", "tmp_orders"} and "orders" not in views
    assert {t.name for t in gateway.list_tables(catalog_session, kind=TableKind.TABLE)} == {"orders"}


def test_get_table_detail(gateway, catalog_session):
    gateway.configure_session(catalog_session, "ALTER TABLE orders ADD IF NOT EXISTS PARTITION (day='d1')")
    detail = gateway.get_table(catalog_session, "cat_db.orders")
    assert [c.name for c in detail.columns] == ["id", "amount", "day"]
    assert detail.columns[0].comment == "order id"
    assert detail.columns[1].type == {"type": "DECIMAL", "nullable": True, "precision": 10, "scale": 2}
    assert detail.partition_columns == ["day"]
    assert detail.properties.get("team") == "sales"
    assert detail.provider == "parquet" and detail.comment == "all orders"
    assert detail.location.endswith("cat_db.db/orders")
    run = gateway.execute_statement(catalog_session, "ANALYZE TABLE orders COMPUTE STATISTICS")
    from tests.conftest import wait_for
    wait_for(lambda: gateway.get_operation_info(catalog_session, run).status.is_terminal, 60)
    assert "bytes" in gateway.get_table(catalog_session, "orders").statistics
    assert gateway.get_table(catalog_session, "tmp_orders").is_temporary


def test_functions_builtin_and_user(gateway, catalog_session):
    functions = gateway.list_functions(catalog_session)
    by_name = {f.name: f for f in functions}
    assert by_name["upper"].kind == FunctionKind.BUILTIN
    assert by_name["my_pi"].kind == FunctionKind.USER and by_name["my_pi"].is_temporary
    user = gateway.list_functions(catalog_session, kind="USER")
    assert [f.name for f in user] == ["my_pi"]
    upper = gateway.get_function(catalog_session, "upper")
    assert upper.class_name.endswith("Upper") and "uppercase" in upper.usage
    assert "SparkSql" in upper.extended_description and upper.kind == FunctionKind.BUILTIN
    mine = gateway.get_function(catalog_session, "my_pi")
    assert mine.class_name == "org.apache.hadoop.hive.ql.udf.UDFPI" and mine.is_temporary


def test_completion_offers_tables_columns_and_functions(gateway, catalog_session):
    assert "orders" in gateway.complete_statement(catalog_session, "SELECT * FROM ord", 17)
    text = "SELECT o. FROM orders o"
    assert sorted(gateway.complete_statement(catalog_session, text, 9)) == ["amount", "day", "id"]
    assert "upper" in gateway.complete_statement(catalog_session, "SELECT upp", 10)
    assert "SELECT" in gateway.complete_statement(catalog_session, "sel", 3)


def test_gateway_info(gateway):
    info = gateway.get_gateway_info()
    assert info["spark_version"].startswith("4.3") and info["master"].startswith("local")
    assert info["metastore"] == "embedded Derby"


# -- negative cases ---------------------------------------------------------------------------

def test_unknown_table_and_function(gateway, session):
    with pytest.raises(SqlExecutionError) as info:
        gateway.get_table(session, "no_such_table_x")
    assert "not found" in info.value.message.lower() or info.value.error["error_class"]
    with pytest.raises(SqlExecutionError):
        gateway.get_function(session, "no_such_function_x")


def test_bad_arguments(gateway, session):
    with pytest.raises(InvalidRequestError, match="ALL, TABLE, VIEW"):
        gateway.list_tables(session, kind="TABLES")
    with pytest.raises(InvalidRequestError, match="outside the statement"):
        gateway.complete_statement(session, "SELECT", 99)
