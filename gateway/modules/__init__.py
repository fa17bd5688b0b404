"""Pluggable modules with a per-session function resolution order (FLIP-68).

``core`` (Spark's built-ins), ``python``, ``sql``, ``jar`` and the shipped ``geo`` are ordinary
module types of one registry; other packages add types through the ``spark_sql_workbench.modules``
entry point group. Each session has a ModuleManager (``session.modules``).
"""
from .base import (FunctionDefinition, FunctionOrigin, Module, ModuleFactory, ModuleInfo, ModuleTypeInfo,
                   PropertySpec)
from .install import builtin_factories, install_modules, module_settings
from .manager import ModuleManager
from .python_module import module_function
from .registry import ENTRY_POINT_GROUP, FactoryRegistry

__all__ = [
    "Module", "ModuleFactory", "ModuleManager", "ModuleInfo", "ModuleTypeInfo", "PropertySpec",
    "FunctionDefinition", "FunctionOrigin", "FactoryRegistry", "ENTRY_POINT_GROUP", "module_function",
    "install_modules", "builtin_factories", "module_settings",
]
