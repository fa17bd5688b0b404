"""Say, in the function browser's answers, which module a function comes from and which one wins."""
from __future__ import annotations



from gateway.models import FunctionDetail, FunctionInfo, FunctionKind


def annotate_functions(manager, infos: list[FunctionInfo]) -> list[FunctionInfo]:
    if manager is None:
        return infos
    for info in infos:
        if info.kind == FunctionKind.BUILTIN:
            info.module = "core"
            origin = manager.function_origin(info.name)
            info.winner = origin.module if origin else None
        elif info.is_temporary:
            origin = manager.function_origin(info.name)
            if origin is not None and origin.implementation != "builtin":
                info.module = info.winner = origin.module
    return infos


def annotate_function(manager, detail: FunctionDetail, name: str) -> FunctionDetail:
    if manager is None:
        return detail
    origin = manager.function_origin(name)
    if origin is not None:
        detail.module, detail.module_version, detail.implementation = (origin.module, origin.version,
                                                                        origin.implementation)
    base = name.split(".")[-1].strip("`")
    providers = manager.providers(base)
    if origin is not None and origin.implementation == "builtin" and "core" not in providers:
        providers.append("core")  # built-ins answer even when core is not used
    detail.providers = providers
    return detail
