"""The value types of the protocols: handles, statuses, infos, result sets (defined in ``gateway.models``
and ``gateway.handles``, which import nothing but the standard library and ``gateway.errors``)."""
from __future__ import annotations

from gateway.handles import OperationHandle, SessionHandle
from gateway.models import (LOCAL_USER, MAX_TIMEOUT_MS, Candidate, Column, EditorTab, FunctionDetail, FunctionInfo,
                            FunctionKind, FunctionOrigin, HistoryEntry, HistoryStatus, JarInfo, JobProgress, ModuleInfo,
                            ModuleTypeInfo, OperationInfo, OperationProgress, OperationStatus, OperationType,
                            PropertySpec, ResultSet, ResultType, SavedQuery, StageProgress, StatementText, TableDetail,
                            TableInfo, TableKind, UdfClass)

__all__ = ["LOCAL_USER", "MAX_TIMEOUT_MS", "Candidate", "Column", "EditorTab", "FunctionDetail", "FunctionInfo",
           "FunctionKind", "FunctionOrigin", "HistoryEntry", "HistoryStatus", "JarInfo", "JobProgress", "ModuleInfo",
           "ModuleTypeInfo", "OperationHandle", "OperationInfo", "OperationProgress", "OperationStatus",
           "OperationType", "PropertySpec", "ResultSet", "ResultType", "SavedQuery", "SessionHandle", "StageProgress",
           "StatementText", "TableDetail", "TableInfo", "TableKind", "UdfClass"]
