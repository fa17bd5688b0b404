"""ModuleManager: one session's loaded modules, which are used, in which order, and what Spark sees.

How resolution order maps onto Spark 4.3 (measured, see docs/modules.md):
- For every function name, the first used module that provides it wins. The manager registers
  only winners, as session-temporary functions (``spark.udf.register`` for Python, ``CREATE
  TEMPORARY FUNCTION`` for SQL and jar functions), and drops a function when it stops winning.
- ``core`` is Spark's built-ins. When a module standing before ``core`` wins a built-in's name,
  the session's SQL path becomes ``system.session, system.builtin, current_schema`` (with
  ``spark.sql.path.enabled``) so that the temporary function shadows the built-in in this
  session only; otherwise the path is left at Spark's default.
- Every change is all or nothing: if Spark refuses a step, the previous state is put back.
"""
from __future__ import annotations

import logging
import re
import threading
from typing import Optional

from gateway.core.catalog import _builtin_names, split_name
from gateway.errors import InvalidRequestError, ObjectNotFoundError
from gateway.features.modules.base import FunctionDefinition, FunctionOrigin, Module, ModuleInfo
from gateway.features.modules.registry import FactoryRegistry

log = logging.getLogger(__name__)

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
_SESSION_FIRST = "SET PATH = system.session, system.builtin, current_schema"
_DEFAULT_PATH = "SET PATH = DEFAULT_PATH"
_PATH_ENABLED = "spark.sql.path.enabled"
_UNSET = object()


def _key(definition: FunctionDefinition) -> tuple:
    return (definition.module, definition.version, definition.implementation)


class ModuleManager:
    """Loaded modules of one session (FLIP-68). Thread-safe; names are case-insensitive."""

    def __init__(self, spark, registry: FactoryRegistry) -> None:
        self.spark = spark
        self.registry = registry
        self._modules: dict[str, Module] = {}       # load order
        self._used: list[str] = []                  # resolution order
        self._registered: dict[str, FunctionDefinition] = {}  # what Spark holds, by function name
        self._saved_path_enabled = _UNSET
        self._lock = threading.RLock()

    # -- reading -------------------------------------------------------------------------------

    def get(self, name: str) -> Module:
        module = self._modules.get(str(name).lower())
        if module is None:
            raise ObjectNotFoundError(f"module {name} is not loaded; loaded modules: {self._names_text()}")
        return module

    def used_names(self) -> list[str]:
        with self._lock:
            return list(self._used)

    def loaded_names(self) -> list[str]:
        """Used modules in order, then unused ones in load order."""
        with self._lock:
            return self._used + [n for n in self._modules if n not in self._used]

    def list_modules(self, full: bool = False) -> list[ModuleInfo]:
        with self._lock:
            names = self.loaded_names() if full else list(self._used)
            return [self._info(self._modules[n]) for n in names]

    def _info(self, module: Module) -> ModuleInfo:
        used = module.name in self._used
        return ModuleInfo(module.name, module.type, module.version, used,
                          self._used.index(module.name) if used else None, dict(module.properties),
                          module.list_functions())

    def providers(self, function: str) -> list[str]:
        """Used modules that provide ``function``, in resolution order (the first one wins)."""
        key = function.lower()
        with self._lock:
            return [n for n in self._used if self._modules[n].has_function(key)]

    def winner(self, function: str) -> Optional[FunctionDefinition]:
        providers = self.providers(function)
        return self._modules[providers[0]].get_function_definition(function) if providers else None

    def function_origin(self, name: str) -> Optional[FunctionOrigin]:
        """Which module answers ``name`` in this session, at which version, with which code.

        Built-ins answer as module ``core`` at Spark's version, also when ``core`` is not used
        (Spark always resolves them); a name no used module and no built-in provides is None.
        ``system.builtin.f`` is always the built-in; other qualified names are catalog functions.
        """
        try:
            parts = [p.lower() for p in split_name(name)]
        except InvalidRequestError:
            return None
        builtin = FunctionOrigin("core", self.spark.version, "builtin")
        if len(parts) == 3 and parts[:2] == ["system", "builtin"]:
            return builtin if parts[2] in _builtin_names(self.spark) else None
        if len(parts) == 3 and parts[:2] == ["system", "session"]:
            parts = parts[2:]
        if len(parts) != 1:
            return None
        with self._lock:
            definition = self.winner(parts[0])
        if definition is not None:
            return definition.origin
        return builtin if parts[0] in _builtin_names(self.spark) else None

    # -- changing ------------------------------------------------------------------------------

    def load(self, name: str, properties: Optional[dict] = None) -> Module:
        """Load a module and append it to the resolution order (LOAD MODULE)."""
        if not isinstance(name, str) or not _NAME.match(name):
            raise InvalidRequestError(f"the module name {name!r} is not valid: use letters, digits, _ or -, "
                                      f"starting with a letter")
        if properties is not None and not isinstance(properties, dict):
            raise InvalidRequestError(f"module properties must be a mapping of name to value, "
                                      f"got {type(properties).__name__}")
        key = name.lower()
        props = {str(k).lower(): str(v) for k, v in (properties or {}).items()}
        type_name = props.pop("type", key)
        with self._lock:
            if key in self._modules:
                raise InvalidRequestError(f"module {key} is already loaded; UNLOAD MODULE {key} first, "
                                          f"or load it under another name")
            factory, values = self.registry.validate(type_name, props)
            module = factory.create_module(key, values, self.spark)
            module.name, module.properties = key, {"type": factory.type, **values}
            self._change({**self._modules, key: module}, self._used + [key])
            return module

    def unload(self, name: str) -> None:
        """Unload a module; the others keep their relative order (UNLOAD MODULE)."""
        with self._lock:
            module = self.get(name)
            modules = {n: m for n, m in self._modules.items() if n != module.name}
            self._change(modules, [n for n in self._used if n != module.name])
            module.close()

    def use(self, names: list[str]) -> None:
        """Use exactly these loaded modules, in this order; the rest stay loaded, unused (USE MODULES)."""
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",") if n.strip()]
        if not names:
            raise InvalidRequestError("USE MODULES needs at least one module name, e.g. USE MODULES geo, core")
        keys = [str(n).lower() for n in names]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        if duplicates:
            raise InvalidRequestError(f"module {', '.join(duplicates)} is named more than once in USE MODULES")
        with self._lock:
            missing = [k for k in keys if k not in self._modules]
            if missing:
                raise ObjectNotFoundError(f"module {', '.join(missing)} is not loaded; LOAD MODULE it first "
                                          f"(loaded: {self._names_text()})")
            self._change(dict(self._modules), keys)

    def close(self) -> None:
        with self._lock:
            for module in self._modules.values():
                try:
                    module.close()
                except Exception:  # noqa: BLE001 - closing the session must go on
                    log.exception("closing module %s failed", module.name)

    def rebind(self, spark) -> None:
        """The session has a new Spark session (its engine was lost, and its temporary functions with it):
        register the used modules' functions in it. A module that no longer registers is unloaded, logged."""
        with self._lock:
            if spark is self.spark:
                return
            self.spark, self._registered, self._saved_path_enabled = spark, {}, _UNSET
            for module in self._modules.values():
                if getattr(module, "provides_builtins", False):
                    module.spark = spark
            try:
                self._apply(self._modules, self._used)
            except Exception:  # noqa: BLE001 - the session goes on with the built-ins; the log says why
                log.exception("the session's modules could not be registered in its new Spark session; "
                              "only core is used now")
                self._registered = {}
                self._modules = {k: m for k, m in self._modules.items() if getattr(m, "provides_builtins", False)}
                self._used = [k for k in self._used if k in self._modules]

    # -- applying to Spark ---------------------------------------------------------------------

    def _change(self, modules: dict[str, Module], used: list[str]) -> None:
        old_modules, old_used = self._modules, self._used
        try:
            self._apply(modules, used)
        except Exception:
            try:
                self._apply(old_modules, old_used)
            except Exception:  # noqa: BLE001 - report the first error, log this one
                log.exception("putting the modules of a session back failed")
            raise
        self._modules, self._used = modules, used

    def _winners(self, modules: dict[str, Module], used: list[str]) -> dict[str, FunctionDefinition]:
        """Function name -> definition to register (winners from modules that are not built-ins)."""
        if all(getattr(modules[name], "provides_builtins", False) for name in used):
            return {}  # core alone (every session's start): nothing to register, no built-in name to read
        taken: set[str] = set()
        wanted: dict[str, FunctionDefinition] = {}
        builtins = _builtin_names(self.spark)
        for name in used:
            module = modules[name]
            if getattr(module, "provides_builtins", False):
                taken.update(module.list_functions())  # Spark answers built-ins already
                continue
            for function in module.list_functions():
                if function in taken:
                    continue
                taken.add(function)
                definition = module.get_function_definition(function)
                if definition.register is None:
                    continue
                if function in builtins and not definition.can_shadow_builtin:
                    raise InvalidRequestError(
                        f"module {name} ({module.type}) would put its function {function} before the "
                        f"built-in {function}, and Spark cannot shadow a built-in with that kind of function; "
                        f"keep core before {name} (USE MODULES core, {name}) or rename the function")
                wanted[function] = definition
        return wanted

    def _apply(self, modules: dict[str, Module], used: list[str]) -> None:
        wanted = self._winners(modules, used)
        current = self._registered
        drop = [f for f in current if f not in wanted or _key(current[f]) != _key(wanted[f])]
        create = [f for f in wanted if f not in current or _key(current[f]) != _key(wanted[f])]
        if not (drop or create or current):  # nothing registered, before or now: no built-in names needed
            self._restore_path()
            return
        builtins = _builtin_names(self.spark)
        if any(f in builtins for f in drop):
            self._set_path(session_first=True)  # a shadowing function is found (and dropped) only so
        for function in drop:
            self.spark.sql(f"DROP TEMPORARY FUNCTION IF EXISTS `{function}`").collect()
            del current[function]
        if any(f in builtins for f in create):
            self._set_path(session_first=False)  # Spark refuses to create it while the built-in resolves first
        for function in create:
            wanted[function].register(self.spark)
            current[function] = wanted[function]
        if any(f in builtins for f in current):
            self._set_path(session_first=True)
        else:
            self._restore_path()

    def _set_path(self, session_first: bool) -> None:
        if self._saved_path_enabled is _UNSET:
            self._saved_path_enabled = self.spark.conf.get(_PATH_ENABLED, None)
        self.spark.conf.set(_PATH_ENABLED, "true")
        self.spark.sql(_SESSION_FIRST if session_first else _DEFAULT_PATH).collect()

    def _restore_path(self) -> None:
        if self._saved_path_enabled is _UNSET:
            return
        self.spark.sql(_DEFAULT_PATH).collect()
        if self._saved_path_enabled is None:
            self.spark.conf.unset(_PATH_ENABLED)
        else:
            self.spark.conf.set(_PATH_ENABLED, self._saved_path_enabled)
        self._saved_path_enabled = _UNSET

    def _names_text(self) -> str:
        return ", ".join(self.loaded_names()) or "none"
