"""The gateway's API: what a front end, a client or a plugin author needs, and nothing of the implementation.

Read it in one sitting, section by section (Flink's ``flink-sql-gateway-api``, Datasette's ``hookspecs``):

- ``sessions.SessionsApi``      open, configure, keep alive, close a session; every user's sessions (admins)
- ``operations.OperationsApi``  run statements, follow operations, page results
- ``results.ResultsApi``        whole results spooled: sort, filter, search, chart, export
- ``catalog.CatalogApi``        catalogs, databases, tables, functions, previews
- ``workspace.WorkspaceApi``    a user's tabs, saved queries, history
- ``identity.IdentityApi``      authenticate, ``as_user``, browser logins, tokens, users (admins)
- ``engine.EngineApi``          gateway info, engine health, settings, feature pages, managed engines
- ``values`` / ``errors``       the value types and the one error family
- ``plugins``                   the plugin API: ``Feature``, ``StatementSpec`` (with its ``Access``),
                                ``Setting``, ``PageSpec``
- ``calls``                     marks on protocol calls: ``@without_principal``, ``@without_engine``,
                                ``@loads_code``, ``@admin_only``, ``@replayed_as``

Each feature publishes its own protocol from its folder (``gateway/features/<name>/api.py``); a front end
reaches it with ``gateway.api(Protocol)``. Every call of every protocol passes one boundary
(``gateway/core/boundary.py``): a principal is required, the engine's health is checked, errors are mapped
once. This package imports nothing of ``gateway.core``, ``gateway.spark``, ``gateway.features`` nor pyspark
(``tests/gateway/api/test_api_package.py`` imports it in a Python without pyspark).
"""
from __future__ import annotations

from gateway.api.calls import (admin_only, loads_code, needs_engine, needs_principal, protocol_calls, replayed_as,
                               sql_string, without_engine, without_principal)
from gateway.api.catalog import CatalogApi
from gateway.api.engine import EngineApi
from gateway.api.errors import *  # noqa: F401,F403 - the error family
from gateway.api.errors import __all__ as _errors
from gateway.api.identity import (LOCAL_PRINCIPAL, AdminOperation, AdminSession, ApiToken, IdentityApi, Principal,
                                  UserInfo)
from gateway.api.operations import OperationsApi
from gateway.api.plugins import Access, Feature, FeatureHost, PageSpec, Setting, StatementSpec
from gateway.api.results import ResultsApi
from gateway.api.sessions import SessionsApi
from gateway.api.values import *  # noqa: F401,F403 - the value types
from gateway.api.values import __all__ as _values
from gateway.api.workspace import WorkspaceApi

# The core's sections, in the order a reader meets them; every one is implemented by the gateway itself.
CORE_SECTIONS: tuple[type, ...] = (SessionsApi, OperationsApi, ResultsApi, CatalogApi, WorkspaceApi, IdentityApi, EngineApi)

__all__ = ["CORE_SECTIONS", "SessionsApi", "OperationsApi", "ResultsApi", "CatalogApi", "WorkspaceApi", "IdentityApi", "EngineApi",
           "Principal", "LOCAL_PRINCIPAL", "UserInfo", "ApiToken", "AdminSession", "AdminOperation",
           "Access", "Feature", "FeatureHost", "PageSpec", "Setting", "StatementSpec",
           "protocol_calls", "needs_principal", "needs_engine", "without_principal", "without_engine",
           "loads_code", "admin_only", "replayed_as", "sql_string",
           *_errors, *_values]
