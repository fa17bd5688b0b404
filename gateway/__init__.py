"""The embedded SQL gateway over PySpark (FLIP-91, translated to Spark). No Streamlit here."""
__version__ = "0.1.0"

from .config import WorkbenchConfig, load_config  # noqa: E402
from .errors import (ConfigurationError, GatewayError, InvalidRequestError, InvalidStatementError,  # noqa: E402
                     InvalidTokenError, JavaNotFoundError, ObjectNotFoundError, OperationNotFoundError,
                     OperationStateError, ResourceError, SessionLimitError, SessionNotFoundError,
                     SqlExecutionError)
from .functions import create_function_statement  # noqa: E402
from .handles import OperationHandle, SessionHandle  # noqa: E402
from .jars import UdfClass  # noqa: E402
from .models import (Column, FunctionDetail, FunctionInfo, FunctionKind, JarInfo, OperationInfo,  # noqa: E402
                     OperationStatus, OperationType, ResultSet, ResultType, TableDetail, TableInfo,
                     TableKind)
from .modules import FunctionOrigin, ModuleInfo, ModuleTypeInfo  # noqa: E402
from .completion import Candidate  # noqa: E402
from .progress import JobProgress, OperationProgress, StageProgress  # noqa: E402
from .service import GatewayService  # noqa: E402
from .plans import (Difference, PlanExistsError, PlanFormatError, PlanMismatchError,  # noqa: E402
                    PlanPathError, function_versions)
from .atomic import TwoPhaseCatalogTable, is_staging_name  # noqa: E402  (FLIP-305)

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
