"""A Python client for the workbench's REST API: sessions, statements, pages, and a DB-API 2.0 cursor.

It imports nothing of the server (``gateway``), so it installs and runs without Spark.
"""
from workbench_client.client import (API, Connection, Cursor, DataError, DatabaseError, Error,  # noqa: F401
                                     GatewayClient, GatewayHTTPError, IntegrityError, InterfaceError,
                                     InternalError, NotSupportedError, OperationalError, ProgrammingError,
                                     RemoteOperation, RemoteSession, Warning, apilevel, connect, paramstyle,
                                     threadsafety)

__all__ = ["API", "Connection", "Cursor", "DataError", "DatabaseError", "Error", "GatewayClient",
           "GatewayHTTPError", "IntegrityError", "InterfaceError", "InternalError", "NotSupportedError",
           "OperationalError", "ProgrammingError", "RemoteOperation", "RemoteSession", "Warning", "apilevel",
           "connect", "paramstyle", "threadsafety"]
