"""The embedded SQL gateway over PySpark (FLIP-91, translated to Spark). No Streamlit here."""
__version__ = "0.1.0"

from .config import WorkbenchConfig, load_config  # noqa: E402
from .errors import (ConfigurationError, GatewayError, InvalidRequestError, InvalidStatementError,  # noqa: E402
                     InvalidTokenError, JavaNotFoundError, ObjectNotFoundError, OperationNotFoundError,
                     OperationStateError, SessionLimitError, SessionNotFoundError, SqlExecutionError)
from .handles import OperationHandle, SessionHandle  # noqa: E402
from .models import (Column, FunctionDetail, FunctionInfo, FunctionKind, OperationInfo,  # noqa: E402
                     OperationStatus, OperationType, ResultSet, ResultType, TableDetail, TableInfo,
                     TableKind)
from .completion import Candidate  # noqa: E402
from .progress import JobProgress, OperationProgress, StageProgress  # noqa: E402
from .service import GatewayService  # noqa: E402

__all__ = [
    "GatewayService", "WorkbenchConfig", "load_config", "Candidate",
    "OperationProgress", "JobProgress", "StageProgress",
    "SessionHandle", "OperationHandle",
    "OperationStatus", "OperationType", "ResultType", "ResultSet", "OperationInfo", "Column",
    "TableKind", "TableInfo", "TableDetail", "FunctionKind", "FunctionInfo", "FunctionDetail",
    "GatewayError", "ConfigurationError", "JavaNotFoundError", "SessionNotFoundError",
    "OperationNotFoundError", "SessionLimitError", "InvalidStatementError", "InvalidTokenError",
    "InvalidRequestError", "ObjectNotFoundError", "OperationStateError", "SqlExecutionError",
]
