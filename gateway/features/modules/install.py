"""Wire modules into a GatewayService: the type registry, a ModuleManager per session with the
configured modules (setting ``modules.load``), and the handlers of the module statements."""
from __future__ import annotations

from gateway.errors import ConfigurationError, GatewayError
from gateway.core.statements import StatementKind
from gateway.features.modules.core import CoreModuleFactory
from gateway.features.modules.jar_module import JarModuleFactory
from gateway.features.modules.manager import ModuleManager
from gateway.features.modules.python_module import GeoModuleFactory, PythonModuleFactory
from gateway.features.modules.registry import FactoryRegistry
from gateway.features.modules.sql_module import SqlModuleFactory
from gateway.features.modules.statements import handle

MODULE_KINDS = (StatementKind.SHOW_MODULES, StatementKind.LOAD_MODULE, StatementKind.UNLOAD_MODULE,
                StatementKind.USE_MODULES)


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


def install_modules(service) -> None:
    """Give every new session its ModuleManager and let the gateway handle the module statements."""
    registry = FactoryRegistry(builtin_factories())
    specs = module_settings(service.config["modules.load"], registry)
    service.module_registry = registry

    def open_modules(session) -> None:
        session.modules = ModuleManager(session.spark, registry)
        for name, props in specs:
            session.modules.load(name, props)

    def close_modules(session) -> None:
        if session.modules is not None:
            session.modules.close()

    service.session_openers.append(open_modules)
    service.session_closers.append(close_modules)
    for kind in MODULE_KINDS:
        service.runner.register(kind, handle)
