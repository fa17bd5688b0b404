"""The embedded SQL gateway over PySpark (FLIP-91, translated to Spark). No Streamlit here."""
__version__ = "0.1.0"

from gateway.config import WorkbenchConfig, load_config  # noqa: E402
from gateway.errors import (ConfigurationError, GatewayError, InvalidRequestError, InvalidStatementError,  # noqa: E402
                     InvalidTokenError, JavaNotFoundError, ObjectNotFoundError, OperationNotFoundError,
                     OperationStateError, ResourceError, SessionLimitError, SessionNotFoundError,
                     SqlExecutionError)
from gateway.features.jars.function_sql import create_function_statement  # noqa: E402
from gateway.handles import OperationHandle, SessionHandle  # noqa: E402
from gateway.features.jars.store import UdfClass  # noqa: E402
from gateway.models import (Column, FunctionDetail, FunctionInfo, FunctionKind, JarInfo, OperationInfo,  # noqa: E402
                     OperationStatus, OperationType, ResultSet, ResultType, TableDetail, TableInfo,
                     TableKind)
from gateway.features.modules import FunctionOrigin, ModuleInfo, ModuleTypeInfo  # noqa: E402
from gateway.features.completion.completer import Candidate  # noqa: E402
from gateway.core.progress import JobProgress, OperationProgress, StageProgress  # noqa: E402
from gateway.core.service import GatewayService  # noqa: E402
from gateway.features.plans import (Difference, PlanExistsError, PlanFormatError, PlanMismatchError,  # noqa: E402
                    PlanPathError, function_versions)
from gateway.features.atomic import TwoPhaseCatalogTable, is_staging_name  # noqa: E402  (FLIP-305)

__all__ = [
    "GatewayService", "WorkbenchConfig", "load_config", "Candidate",
    "OperationProgress", "JobProgress", "StageProgress",
    "SessionHandle", "OperationHandle",
    "OperationStatus", "OperationType", "ResultType", "ResultSet", "OperationInfo", "Column",
    "TableKind", "TableInfo", "TableDetail", "FunctionKind", "FunctionInfo", "FunctionDetail",
    "GatewayError", "ConfigurationError", "JavaNotFoundError", "SessionNotFoundError",
    "OperationNotFoundError", "SessionLimitError", "InvalidStatementError", "InvalidTokenError",
    "InvalidRequestError", "ObjectNotFoundError", "OperationStateError", "SqlExecutionError",
    "ModuleInfo", "ModuleTypeInfo", "FunctionOrigin",
    "JarInfo", "UdfClass", "ResourceError", "create_function_statement",
    "Difference", "PlanExistsError", "PlanFormatError", "PlanMismatchError", "PlanPathError",
    "function_versions",
]
__all__ += ["TwoPhaseCatalogTable", "is_staging_name"]  # atomic writes (FLIP-305)
