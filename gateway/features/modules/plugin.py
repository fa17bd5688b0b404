"""The modules feature (FLIP-68): the module type registry, a ModuleManager per session with the
configured modules (setting ``modules.load``), the module statements, calls, REST routes and page."""
from __future__ import annotations

import threading
from typing import Optional

from gateway.config import Setting
from gateway.core.functions import builtin_functions
from gateway.errors import ConfigurationError, GatewayError
from gateway.api.plugins import Access, Feature, PageSpec, StatementSpec
from gateway.features.modules.api import ModulesApi
from gateway.features.modules.annotate import annotate_function, annotate_functions
from gateway.features.modules.core import CoreModuleFactory
from gateway.features.modules.jar_module import JarModuleFactory
from gateway.features.modules.manager import ModuleManager
from gateway.features.modules.geo_sql import GeoModuleFactory
from gateway.features.modules.python_module import PythonModuleFactory
from gateway.features.modules.registry import FactoryRegistry
from gateway.features.modules.sql_module import SqlModuleFactory
from gateway.features.modules.statements import handle
from gateway.models import FunctionOrigin, ModuleInfo, ModuleTypeInfo

SHOW_MODULES, LOAD_MODULE, UNLOAD_MODULE, USE_MODULES = "SHOW_MODULES", "LOAD_MODULE", "UNLOAD_MODULE", "USE_MODULES"


def builtin_factories() -> list:
    return [CoreModuleFactory(), PythonModuleFactory(), SqlModuleFactory(), JarModuleFactory(), GeoModuleFactory()]


def module_settings(entries, registry: FactoryRegistry) -> list[tuple[str, dict]]:
    """``modules.load`` as (name, properties) pairs, checked against the registry at start-up.

    Each entry is a name (its type is the name) or a table ``{name = "x", type = "sql", path = "…"}``.
    """
    specs: list[tuple[str, dict]] = []
    for entry in entries:
        if isinstance(entry, str):
            name, props = entry, {}
        elif isinstance(entry, dict) and isinstance(entry.get("name"), str):
            props = {str(k).lower(): str(v) for k, v in entry.items() if k != "name"}
            name = entry["name"]
        else:
            raise ConfigurationError(f"setting modules.load: {entry!r} is neither a module name nor a table "
                                     f"with a 'name' (e.g. {{name = \"geo\"}})")
        props = {k.lower(): v for k, v in props.items()}
        try:
            registry.validate(props.get("type", name), {k: v for k, v in props.items() if k != "type"})
        except GatewayError as exc:
            raise ConfigurationError(f"setting modules.load, module {name!r}: {exc.message}") from None
        if name.lower() in {n.lower() for n, _ in specs}:
            raise ConfigurationError(f"setting modules.load names the module {name!r} twice")
        specs.append((name, props))
    return specs



# A session's built-in function names load this long after it opens, once its running statement (if any) is done: on a
# cold managed engine the load and a first statement sent at once competed for its cores (SELECT 1 took 6.1 s beside
# the load, 5.7 s after it, 2.2 s alone; issue 29), while someone typing has them before completion asks.
NAMES_PREFETCH_DELAY_S = 2.0
NAMES_PREFETCH_WAIT_S = 60.0


def _prefetch_names(session) -> None:
    if session.run_lock.acquire(timeout=NAMES_PREFETCH_WAIT_S):
        session.run_lock.release()
    builtin_functions().load_names_in_background(session.spark)


class ModulesFeature(Feature):
    name = "modules"
    api = ModulesApi
    description = "Pluggable modules with a per-session function resolution order (FLIP-68)."
    settings = (
        Setting("modules.load", ["core"],
                "Modules every new session loads, in resolution order: names, or tables with name, type and "
                "properties (in the environment a JSON array). Without core, built-ins lose every name clash."),
    )
    statements = (
        StatementSpec(SHOW_MODULES, (("SHOW", "MODULES"), ("SHOW", "FULL", "MODULES")), returns_rows=True,
                      read_only=True, access=Access.USERS),
        StatementSpec(LOAD_MODULE, (("LOAD", "MODULE"),), configures=True, loads_code=True, access=Access.USERS, journaled=True),
        StatementSpec(UNLOAD_MODULE, (("UNLOAD", "MODULE"),), configures=True, access=Access.USERS, journaled=True),
        StatementSpec(USE_MODULES, (("USE", "MODULES"),), configures=True, access=Access.USERS, journaled=True),
    )
    pages = (PageSpec("pages/modules.py", "Modules", ":material/extension:", order=30),)

    def start(self, host) -> None:
        super().start(host)
        self.registry = FactoryRegistry(builtin_factories())
        self.specs = module_settings(host.config["modules.load"], self.registry)

    def handlers(self):
        return {kind: self._handle for kind in (SHOW_MODULES, LOAD_MODULE, UNLOAD_MODULE, USE_MODULES)}

    def _handle(self, session, statement):
        return handle(self.manager(session), statement)

    def manager(self, session) -> ModuleManager:
        """The session's ModuleManager: its loaded modules and their order. A session that moved to a new
        engine (its Spark Connect server or managed engine was lost) has a new Spark session: the manager
        follows it and registers the modules' functions there again."""
        manager = self.state(session)
        if manager is not None and manager.spark is not session.spark:
            manager.rebind(session.spark)
        return manager

    # -- sessions ------------------------------------------------------------------------------

    def open_session(self, session) -> None:
        manager = session.extensions[self.name] = ModuleManager(session.spark, self.registry)
        for name, props in self.specs:
            manager.load(name, props)
        # core alone reads no built-in names (lazy); they load soon after, for completion and the function browser
        # (once per process: later sessions start no timer)
        if not builtin_functions().names_loaded:
            prefetch = threading.Timer(NAMES_PREFETCH_DELAY_S, _prefetch_names, args=(session,))
            prefetch.daemon = True
            prefetch.start()

    def close_session(self, session) -> None:
        manager = session.extensions.pop(self.name, None)
        if manager is not None:
            manager.close()

    # -- catalog -------------------------------------------------------------------------------

    def describe_functions(self, session, infos):
        return annotate_functions(self.manager(session), infos)

    def describe_function(self, session, detail, name: str):
        return annotate_function(self.manager(session), detail, name)

    # -- contract calls ------------------------------------------------------------------------

    def calls(self):
        return {"list_modules": self.list_modules, "load_module": self.load_module,
                "unload_module": self.unload_module, "use_modules": self.use_modules,
                "list_module_types": self.list_module_types, "function_origin": self.function_origin}

    def list_modules(self, session, full: bool = False) -> list[ModuleInfo]:
        return self.manager(self.host.session(session)).list_modules(full)

    def load_module(self, session, name: str, properties: Optional[dict] = None) -> ModuleInfo:
        with self.host.between_statements(session) as owner:
            manager = self.manager(owner)
            module = manager.load(name, properties)
            self.host.schema_changed(owner)  # its functions complete at once
            return next(i for i in manager.list_modules(True) if i.name == module.name)

    def unload_module(self, session, name: str) -> None:
        with self.host.between_statements(session) as owner:
            self.manager(owner).unload(name)
            self.host.schema_changed(owner)

    def use_modules(self, session, names: list[str]) -> None:
        with self.host.between_statements(session) as owner:
            self.manager(owner).use(names)
            self.host.schema_changed(owner)

    def list_module_types(self) -> list[ModuleTypeInfo]:
        return self.registry.infos()

    def function_origin(self, session, name: str) -> Optional[FunctionOrigin]:
        return self.manager(self.host.session(session)).function_origin(name)

    def rest_routers(self):
        from gateway.features.modules.rest import router
        return [router]
