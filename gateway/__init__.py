"""The embedded SQL gateway over PySpark (FLIP-91, translated to Spark). No Streamlit here.

Front ends import only what this package exports: the API (``gateway.api``: sectioned protocols, value
types, the error family), the whole contract (``GatewayContract``), the configuration, and
``GatewayService`` to start one. The last three load on first use, so that ``import gateway.api`` needs
neither pyspark nor the implementation.
"""
import os

# The gateway forks only to exec (Spark's JVM through pyspark, spark-submit for managed engines). gRPC's fork
# handlers (grpcio's core runs them by default) act on a fork made while a Spark Connect channel's threads run:
# "Kick failed: Bad file descriptor", once a whole-process abort when an embedded Spark started after a Connect
# session. Set before anything imports grpc; a value the user set wins.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

from gateway.api import (LOCAL_PRINCIPAL, AdminOperation, AdminSession, ApiToken, AuthenticationError, Candidate,
                         Column, ConfigurationError, EditorTab, FeatureNotInstalledError, FunctionDetail,
                         FunctionInfo, FunctionKind, FunctionOrigin, GatewayError, HistoryEntry, HistoryStatus,
                         InvalidRequestError, InvalidStatementError, InvalidTokenError, JarInfo, JavaNotFoundError,
                         JobProgress, LOCAL_USER, ModuleInfo, ModuleTypeInfo, ObjectNotFoundError,
                         OperationHandle, OperationInfo, OperationNotFoundError, OperationProgress,
                         OperationStateError, OperationStatus, OperationType, PageSpec, PermissionDeniedError,
                         Principal, PropertySpec, ResourceError, ResultSet, ResultType, SavedQuery,
                         SessionHandle, SessionLimitError, SessionNotFoundError, SqlExecutionError, StageProgress,
                         StatementText, StoreUnavailableError, TableDetail, TooManyLoginsError, TableInfo, TableKind, UdfClass,
                         UserInfo)
from gateway.api.results import (CHART_AGGREGATES, DATE_BUCKETS, EXPORT_FORMATS, FILTER_OPS, ChartData, ChartSpec,
                                 ResultPage, RowFilter, SortKey, SpoolInfo)
from gateway.config import WorkbenchConfig, is_loopback, load_config
from gateway.version import __version__

_LAZY = {
    "GatewayService": ("gateway.core.service", "GatewayService"),
    "GatewayContract": ("gateway.contract", "GatewayContract"),
    # Completion before a gateway exists: the editor takes typing while Spark starts.
    "startup_completion_dictionary": ("gateway.features.completion.completer", "keyword_dictionary"),
    # The editor's route ends a superseded completion request's wait (``complete_with_credential``'s superseded).
    "CompletionSupersession": ("gateway.features.completion.completer", "Supersession"),
    # Whether statements of these kinds may change the catalog (each kind's ``read_only``, features' kinds too).
    "changes_schema": ("gateway.core.statements", "changes_schema"),
}


def __getattr__(name: str):
    """The implementation, the whole contract and the completer load when first asked for (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'gateway' has no attribute {name!r}")
    import importlib

    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


__all__ = [
    "__version__", "GatewayContract", "GatewayService", "WorkbenchConfig", "load_config", "is_loopback",
    "SessionHandle", "OperationHandle",
    "OperationStatus", "OperationType", "ResultType", "ResultSet", "OperationInfo", "Column", "StatementText",
    "OperationProgress", "JobProgress", "StageProgress", "Candidate",
    "TableKind", "TableInfo", "TableDetail", "FunctionKind", "FunctionInfo", "FunctionDetail",
    "ModuleInfo", "ModuleTypeInfo", "PropertySpec", "FunctionOrigin", "JarInfo", "UdfClass",
    "LOCAL_USER", "EditorTab", "SavedQuery", "HistoryEntry", "HistoryStatus", "StoreUnavailableError",
    "GatewayError", "ConfigurationError", "JavaNotFoundError", "SessionNotFoundError",
    "OperationNotFoundError", "SessionLimitError", "InvalidStatementError", "InvalidTokenError",
    "InvalidRequestError", "ObjectNotFoundError", "OperationStateError", "SqlExecutionError", "ResourceError",
    "FeatureNotInstalledError", "PageSpec", "startup_completion_dictionary", "CompletionSupersession", "changes_schema",
    "Principal", "LOCAL_PRINCIPAL", "UserInfo", "ApiToken", "AdminSession", "AdminOperation",
    "AuthenticationError", "PermissionDeniedError", "TooManyLoginsError",
    "SpoolInfo", "ResultPage", "SortKey", "RowFilter", "ChartSpec", "ChartData", "FILTER_OPS", "CHART_AGGREGATES",
    "DATE_BUCKETS", "EXPORT_FORMATS",
]
