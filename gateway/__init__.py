"""The embedded SQL gateway over PySpark (FLIP-91, translated to Spark). No Streamlit here.

Front ends import only what this package exports: the contract (``GatewayContract``), its value
types and errors, the configuration, and ``GatewayService`` to start one.
"""
__version__ = "0.1.0"

from gateway.config import WorkbenchConfig, is_loopback, load_config  # noqa: E402
from gateway.contract import GatewayContract  # noqa: E402
from gateway.errors import (ConfigurationError, GatewayError, InvalidRequestError, InvalidStatementError,  # noqa: E402
                            InvalidTokenError, JavaNotFoundError, ObjectNotFoundError, OperationNotFoundError,
                            OperationStateError, ResourceError, SessionLimitError, SessionNotFoundError,
                            SqlExecutionError, StoreUnavailableError, AuthenticationError,
                            PermissionDeniedError, TooManyLoginsError)
from gateway.handles import OperationHandle, SessionHandle  # noqa: E402
from gateway.identity import AdminOperation, AdminSession, ApiToken, Principal, UserInfo  # noqa: E402
from gateway.models import (LOCAL_USER, Candidate, Column, EditorTab, FunctionDetail, FunctionInfo,  # noqa: E402
                            FunctionKind, FunctionOrigin, HistoryEntry, HistoryStatus, JarInfo, JobProgress,
                            ModuleInfo, ModuleTypeInfo, OperationInfo, OperationProgress, OperationStatus,
                            OperationType, PropertySpec, ResultSet, ResultType, SavedQuery, StageProgress,
                            StatementText, TableDetail, TableInfo, TableKind, UdfClass)
from gateway.features.base import FeatureNotInstalledError, PageSpec  # noqa: E402
from gateway.core.service import GatewayService  # noqa: E402
# Completion before a gateway exists: the editor takes typing while Spark starts.
from gateway.features.completion.completer import keyword_dictionary as startup_completion_dictionary  # noqa: E402

__all__ = [
    "GatewayContract", "GatewayService", "WorkbenchConfig", "load_config", "is_loopback",
    "SessionHandle", "OperationHandle",
    "OperationStatus", "OperationType", "ResultType", "ResultSet", "OperationInfo", "Column", "StatementText",
    "OperationProgress", "JobProgress", "StageProgress", "Candidate",
    "TableKind", "TableInfo", "TableDetail", "FunctionKind", "FunctionInfo", "FunctionDetail",
    "ModuleInfo", "ModuleTypeInfo", "PropertySpec", "FunctionOrigin", "JarInfo", "UdfClass",
    "LOCAL_USER", "EditorTab", "SavedQuery", "HistoryEntry", "HistoryStatus", "StoreUnavailableError",
    "GatewayError", "ConfigurationError", "JavaNotFoundError", "SessionNotFoundError",
    "OperationNotFoundError", "SessionLimitError", "InvalidStatementError", "InvalidTokenError",
    "InvalidRequestError", "ObjectNotFoundError", "OperationStateError", "SqlExecutionError", "ResourceError",
    "FeatureNotInstalledError", "PageSpec", "startup_completion_dictionary",
    "Principal", "UserInfo", "ApiToken", "AdminSession", "AdminOperation", "AuthenticationError", "PermissionDeniedError", "TooManyLoginsError",
]
