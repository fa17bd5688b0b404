"""The ``workbench://`` SQLAlchemy dialect against a live REST server: pandas.read_sql, the inspector
(schemas, tables, views, columns), reflected tables in Core queries with bound parameters, a token."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pandas as pd
import pytest
import sqlalchemy as sa

from conftest import run_all
from rest_support import server, start  # noqa: F401 - fixtures

DB = "sa_dialect_db"


@pytest.fixture(scope="module")
def engine(server, gateway, workbench_dialect):
    host, port = server.url.rsplit(":", 1)
    engine = sa.create_engine(f"workbench://127.0.0.1:{port}/{DB}?spark.sql.session.timeZone=UTC")
    setup = gateway.open_session(name="sa-setup")
    try:
        for statement in (f"CREATE DATABASE IF NOT EXISTS {DB}",
                          f"DROP TABLE IF EXISTS {DB}.orders",
                          f"CREATE TABLE {DB}.orders (id BIGINT, customer STRING, "
                          f"amount DECIMAL(10, 2), day DATE, at TIMESTAMP_NTZ) USING parquet "
                          f"COMMENT 'orders for the dialect'",
                          f"INSERT INTO {DB}.orders VALUES (1, 'ann', 12.50, DATE'2024-01-01', "
                          f"TIMESTAMP_NTZ'2024-01-01 10:00:00'), (2, 'bob''s', 7.25, DATE'2024-01-02', NULL), "
                          f"(3, 'ann', 1.00, DATE'2024-01-03', TIMESTAMP_NTZ'2024-01-03 12:30:00')",
                          f"CREATE OR REPLACE VIEW {DB}.big_orders AS SELECT * FROM {DB}.orders WHERE amount > 5"):
            run_all(gateway, setup, statement)
    finally:
        gateway.close_session(setup)
    yield engine
    engine.dispose()
    cleanup = gateway.open_session(name="sa-cleanup")
    try:
        gateway.configure_session(cleanup, f"DROP DATABASE IF EXISTS {DB} CASCADE")
    finally:
        gateway.close_session(cleanup)


def test_pandas_read_sql(engine):
    frame = pd.read_sql("SELECT id, customer, amount, day, at FROM orders ORDER BY id", engine)
    assert list(frame.columns) == ["id", "customer", "amount", "day", "at"]
    assert frame["id"].tolist() == [1, 2, 3] and frame["customer"].tolist() == ["ann", "bob's", "ann"]
    assert frame["amount"].tolist() == [Decimal("12.50"), Decimal("7.25"), Decimal("1.00")]
    assert frame["day"].tolist() == [dt.date(2024, 1, 1), dt.date(2024, 1, 2), dt.date(2024, 1, 3)]
    assert frame["at"].iloc[0] == pd.Timestamp("2024-01-01 10:00:00") and pd.isna(frame["at"].iloc[1])
    like = pd.read_sql("SELECT count(*) AS n FROM orders WHERE customer LIKE 'a%'", engine)  # a bare %
    assert like["n"].tolist() == [2]


def test_inspector_schemas_tables_views_columns(engine):
    inspector = sa.inspect(engine)
    assert DB in inspector.get_schema_names() and "default" in inspector.get_schema_names()
    assert inspector.default_schema_name == DB  # the URL's database is the session's current one
    assert inspector.get_table_names(schema=DB) == ["orders"]
    assert inspector.get_view_names(schema=DB) == ["big_orders"]
    columns = {c["name"]: c for c in inspector.get_columns("orders", schema=DB)}
    assert list(columns) == ["id", "customer", "amount", "day", "at"]
    assert isinstance(columns["id"]["type"], sa.BigInteger) and columns["customer"]["nullable"] is True
    assert isinstance(columns["customer"]["type"], sa.String)
    assert isinstance(columns["amount"]["type"], sa.Numeric) and \
        (columns["amount"]["type"].precision, columns["amount"]["type"].scale) == (10, 2)
    assert isinstance(columns["day"]["type"], sa.Date) and isinstance(columns["at"]["type"], sa.DateTime)
    assert inspector.get_table_comment("orders", schema=DB)["text"] == "orders for the dialect"
    assert inspector.has_table("orders", schema=DB) and not inspector.has_table("nope", schema=DB)
    with pytest.raises(sa.exc.NoSuchTableError):
        inspector.get_columns("nope", schema=DB)
    assert inspector.get_pk_constraint("orders", schema=DB)["constrained_columns"] == []


def test_reflected_table_in_core_queries_with_parameters(engine):
    orders = sa.Table("orders", sa.MetaData(), schema=DB, autoload_with=engine)
    query = (sa.select(orders.c.customer, sa.func.sum(orders.c.amount).label("total"))
             .where(orders.c.day >= dt.date(2024, 1, 2)).where(orders.c.customer != "x'y")
             .group_by(orders.c.customer).order_by(orders.c.customer))
    with engine.connect() as conn:
        assert conn.execute(query).all() == [("ann", Decimal("1.00")), ("bob's", Decimal("7.25"))]
        found = conn.execute(sa.text("SELECT id FROM orders WHERE customer = :who AND at < :when ORDER BY id"),
                             {"who": "ann", "when": dt.datetime(2024, 1, 2)}).scalars().all()
        assert found == [1]
        view = sa.Table("big_orders", sa.MetaData(), schema=DB, autoload_with=engine)
        assert conn.execute(sa.select(sa.func.count()).select_from(view)).scalar() == 2


def test_token_and_tls_options(gateway, workbench_dialect):
    secured = start(gateway, token="sa-secret")
    try:
        port = secured.url.rsplit(":", 1)[1]
        with sa.create_engine(f"workbench://127.0.0.1:{port}?token=sa-secret").connect() as conn:
            assert conn.execute(sa.text("SELECT 1 + 1")).scalar() == 2
        with pytest.raises(sa.exc.DBAPIError, match="bearer token"):
            sa.create_engine(f"workbench://127.0.0.1:{port}").connect()
    finally:
        secured.stop()
    https = sa.create_engine("workbench://example.invalid:8443?tls=true&ssl_verify=false&token=t")
    args, kwargs = https.dialect.create_connect_args(https.url)
    assert kwargs["url"] == "https://example.invalid:8443" and kwargs["token"] == "t"
    assert kwargs["ssl_context"].check_hostname is False
    with pytest.raises(ValueError, match="unknown option"):
        bad = sa.create_engine("workbench://127.0.0.1:1?tsl=true")
        bad.dialect.create_connect_args(bad.url)
