"""A one-click sample database: customers, products, orders and order items, related by ids.

Built with plain SQL through the gateway (so it works on any master and metastore), small
enough to create in a few seconds, and deterministic so examples and tests can rely on it.
"""
from __future__ import annotations

import logging

from gateway.core.catalog import quote
from gateway.errors import OperationStateError, SqlExecutionError
from gateway.models import ResultType

log = logging.getLogger(__name__)

SAMPLE_DATABASE = "sample"

_TABLES = {
    "customers": (
        "id BIGINT COMMENT 'customer id', name STRING, country STRING, signup_date DATE",
        "SELECT id, concat('Customer ', id), element_at(array('DE', 'FR', 'US', 'JP', 'BR'), CAST(id % 5 + 1 AS INT)),"
        " date_add(DATE'2024-01-01', CAST(id * 3 AS INT)) FROM range(1, 51)"),
    "products": (
        "id BIGINT COMMENT 'product id', name STRING, category STRING, price DECIMAL(10,2)",
        "SELECT id, concat('Product ', id), element_at(array('books', 'games', 'garden', 'kitchen'),"
        " CAST(id % 4 + 1 AS INT)), CAST(5 + (id * 7) % 95 + 0.99 AS DECIMAL(10,2)) FROM range(1, 21)"),
    "orders": (
        "id BIGINT COMMENT 'order id', customer_id BIGINT COMMENT 'customers.id', order_date DATE, status STRING",
        "SELECT id, 1 + (id * 13) % 50, date_add(DATE'2024-03-01', CAST(id % 240 AS INT)),"
        " element_at(array('new', 'paid', 'shipped', 'returned'), CAST(id % 4 + 1 AS INT)) FROM range(1, 501)"),
    "order_items": (
        "order_id BIGINT COMMENT 'orders.id', product_id BIGINT COMMENT 'products.id', quantity INT",
        "SELECT o.id, 1 + (o.id * 7 + i * 3) % 20, CAST(1 + (o.id + i) % 4 AS INT)"
        " FROM range(1, 501) AS o(id) CROSS JOIN range(0, 3) AS items(i) WHERE (o.id + i) % 4 <> 3"),
}


def sample_script(database: str = SAMPLE_DATABASE) -> str:
    db = quote(database)
    parts = [f"CREATE DATABASE IF NOT EXISTS {db} COMMENT 'Sample data of Spark SQL Workbench'"]
    for table, (columns, rows) in _TABLES.items():
        name = f"{db}.{quote(table)}"
        parts += [f"DROP TABLE IF EXISTS {name}", f"CREATE TABLE {name} ({columns}) USING parquet",
                  f"INSERT INTO {name} {rows}"]
    parts.append(f"USE {db}")
    return ";\n".join(parts)


def create_sample_database(service, session, database: str = SAMPLE_DATABASE, timeout_s: float = 300) -> list[str]:
    """(Re)create the sample tables in ``database`` and make it the session's current database."""
    operation = service.execute_statement(session, sample_script(database))
    try:
        for page in service.iter_results(session, operation, timeout_s=timeout_s):
            if page.result_type is ResultType.ERROR:
                error = page.exception or {}
                raise SqlExecutionError(f"the sample database could not be created: {error.get('root_cause')}",
                                        error)
    except OperationStateError:
        service.cancel_operation(session, operation)
        raise
    finally:
        try:
            service.close_operation(session, operation)
        except Exception:
            log.debug("a sample statement's operation could not be closed", exc_info=True)
    return list(_TABLES)
