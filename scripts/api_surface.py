"""Print the figures of issue 25: the surface a front end meets and the health of the gateway's layout.

- calls a front end can reach: the protocol calls of ``gateway.api`` (and the features' protocols), and
  the public names answering on the service object (class attributes plus a feature call reached by name);
- import cycles among gateway/ modules (every import, also inside functions; ``if TYPE_CHECKING`` skipped);
- broad ``except`` clauses in gateway/ (bare, ``Exception``, ``BaseException``) whose body neither logs,
  raises nor hands the exception on: a failure that vanishes;
- files outside its own folder that a new feature touches (the test plugin under tests/plugins/).

Reads source only (ast): no Spark starts. Usage: ``python scripts/api_surface.py``.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GATEWAY = ROOT / "gateway"
BROAD = {"Exception", "BaseException"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The gateway modules ``path`` imports (``from a import b`` counts ``a.b`` when that is a module)."""
    tree = ast.parse(path.read_text(), str(path))
    skip = {id(n) for node in ast.walk(tree) if _type_checking(node) for n in ast.walk(node)}
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # ``from pkg import submodule`` depends on the submodule (the package loads first anyway);
            # ``from module import name`` on the module.
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != here:
                found.add(name)
    return found


def import_graph(root: Path = GATEWAY) -> dict[str, set[str]]:
    files = {module_name(p): p for p in root.rglob("*.py")}
    modules = set(files)
    return {name: imports_of(path, modules) for name, path in files.items()}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, result, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10_000)

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                component.append(item)
                if item == node:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return result


def _logs_or_raises(body: list[ast.stmt], name: str | None = None) -> bool:
    """The handler logs, raises, or hands the exception it bound on (``self._fail(op, exc)``)."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if name and isinstance(node, ast.Name) and node.id == name:
            return True
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in {
                "exception", "error", "warning", "info", "debug", "critical", "log"}:
            return True
    return False


def silent_broad_excepts(source: str, filename: str) -> list[str]:
    """``file:line`` of each bare/``Exception``/``BaseException`` handler that neither logs, raises nor passes
    the exception on."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.ExceptHandler):
            continue
        types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        broad = node.type is None or any(isinstance(t, ast.Name) and t.id in BROAD for t in types)
        if broad and not _logs_or_raises(node.body, node.name):
            found.append(f"{filename}:{node.lineno}")
    return found


def all_silent_broad_excepts(root: Path = GATEWAY) -> list[str]:
    return [hit for path in sorted(root.rglob("*.py"))
            for hit in silent_broad_excepts(path.read_text(), str(path.relative_to(ROOT)))]


def service_names() -> tuple[int, int, int | None]:
    """(protocol calls, names answering on the service, names on the user-scoped gateway REST and the UI
    get) without starting Spark."""
    sys.path.insert(0, str(ROOT))
    try:
        from gateway.api import protocol_calls, CORE_SECTIONS  # after issue 25
        from gateway.contract import GatewayContract
        protocol = len(protocol_calls(GatewayContract))
    except ImportError:  # before: one protocol
        from gateway.contract import GatewayContract
        protocol = len([n for n in vars(GatewayContract) if not n.startswith("_")])
    from gateway.core.service import GatewayService
    public = {n for n in dir(GatewayService) if not n.startswith("_")}
    if "__getattr__" in vars(GatewayService):  # feature calls answered by name
        from gateway.contract import GatewayContract
        public |= {n for n in vars(GatewayContract) if not n.startswith("_")}
    try:
        from gateway.core.boundary import facade_class
        scoped = len({n for n in dir(facade_class((GatewayContract,))) if not n.startswith("_")} - {"principal"})
    except ImportError:  # before: as_user's view forwarded every attribute of the service
        scoped = None
    return protocol, len(public), scoped


def main() -> None:
    cycles = import_cycles(import_graph())
    silent = all_silent_broad_excepts()
    protocol, answering, scoped = service_names()
    print(f"protocol calls (all sections and the built-in features' protocols): {protocol}")
    print(f"public names answering on GatewayService (in process):              {answering}")
    print(f"names on the user-scoped gateway (REST routes, the UI):             "
          f"{scoped if scoped is not None else 'every name of the service'}")
    print(f"import cycles in gateway/ (strongly connected groups):              {len(cycles)}")
    for cycle in cycles:
        print("   ", " <-> ".join(cycle[:8]) + (" …" if len(cycle) > 8 else ""), f"({len(cycle)} modules)")
    print(f"broad except clauses in gateway/ that neither log nor raise:        {len(silent)}")
    for hit in silent:
        print("   ", hit)


if __name__ == "__main__":
    main()
