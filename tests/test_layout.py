"""The layout rules of the front end (STYLE.md, "The layout we aim for"):

- ui/, pages/ and app.py import nothing of the gateway but the top-level ``gateway`` package
  (the contract and its value types); app.py may also import ``gateway.rest`` to start the REST API.
- ui/ and pages/ build no SQL text: the gateway's calls (preview_statement, set_session_option, …)
  write it. An f-string, ``%``-format, ``.format()`` or ``+`` concatenation whose literal text starts
  with a SQL statement keyword counts as building SQL; constant example texts are fine.

Each check is a function over source text, tested on bad snippets first so that a pass means something.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GATEWAY_SUBMODULES = {p.stem for p in (ROOT / "gateway").iterdir()
                      if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and p.stem != "__init__")}
SQL_KEYWORDS = frozenset("""SELECT WITH SET RESET ANALYZE CREATE DROP ALTER INSERT USE SHOW DESCRIBE DESC EXPLAIN
    ADD REMOVE LOAD UNLOAD COMPILE EXECUTE REFRESH CACHE MERGE UPDATE DELETE TRUNCATE""".split())
# The first word of a text, after blanks and opening parentheses. SQL is written in upper or lower
# case; a Capitalized word ("Show", "Use", "Add") starts an English sentence, not a statement.
_FIRST_WORD = re.compile(r"^[\s(]*([A-Za-z]+)\b")


def front_end_files() -> list[Path]:
    return sorted([*(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"])


def _where(filename: str, node: ast.AST) -> str:
    return f"{filename}:{node.lineno}"


# -- (a) imports of the gateway ---------------------------------------------------------------------

def gateway_import_violations(source: str, filename: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """``file:line: …`` for every import of a gateway module other than ``gateway`` (and ``allowed``)."""
    problems = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
            if node.module == "gateway":  # `from gateway import core` reaches a submodule too
                modules += [f"gateway.{a.name}" for a in node.names if a.name in GATEWAY_SUBMODULES]
        else:
            continue
        for module in modules:
            if module.startswith("gateway.") and module not in allowed:
                problems.append(f"{_where(filename, node)}: imports {module}; import the contract and its "
                                f"value types from the top-level package instead (from gateway import …)")
    return problems


# -- (b) SQL text built in the front end ------------------------------------------------------------

def _sql_start(text: str):
    match = _FIRST_WORD.match(text)
    if not match:
        return None
    word = match.group(1)
    if word.upper() in SQL_KEYWORDS and (word.isupper() or word.islower()):
        return word
    return None


def _text(node: ast.AST):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _concatenated(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _concatenated(node.left) + _concatenated(node.right)
    return [node]


def sql_building_violations(source: str, filename: str) -> list[str]:
    """``file:line: …`` for every f-string, %-format, .format() or + whose literal text starts a statement."""
    problems, seen = [], set()
    for node in ast.walk(ast.parse(source, filename)):
        found = None
        if isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values):
            head = _text(node.values[0]) if node.values else None
            found = head and _sql_start(head) and ("f-string", _sql_start(head))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and _text(node.left):
            found = _sql_start(_text(node.left)) and ("%-format", _sql_start(_text(node.left)))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
              and _text(node.func.value)):
            found = _sql_start(_text(node.func.value)) and (".format()", _sql_start(_text(node.func.value)))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and id(node) not in seen:
            parts = _concatenated(node)
            seen.update(id(p) for p in ast.walk(node) if isinstance(p, ast.BinOp))
            if not all(_text(p) is not None for p in parts):  # all literals: a constant text
                words = [_sql_start(_text(p)) for p in parts if _text(p)]
                found = any(words) and ("+ concatenation", next(w for w in words if w))
        if found:
            kind, word = found
            problems.append(f"{_where(filename, node)}: builds SQL text with {kind} (starts with {word!r}); "
                            f"call the gateway (preview_statement, set_session_option, …) to write the statement")
    return problems


# -- the checkers catch what they are for ---------------------------------------------------------------

@pytest.mark.parametrize("source, line", [
    ("import os\nfrom gateway.core.catalog import quote_name\n", 2),
    ("import gateway.core.serialization\n", 1),
    ("from gateway import GatewayError, core\n", 1),
    ("def f():\n    from gateway.features.plans import plan_dot\n", 2),
    ("from gateway.rest import start_from_config\n", 1),   # only app.py may
])
def test_import_check_reports_file_and_line_of_a_gateway_internal(source, line):
    problems = gateway_import_violations(source, "ui/bad.py")
    assert len(problems) == 1 and problems[0].startswith(f"ui/bad.py:{line}: imports gateway.")


def test_import_check_lets_the_top_level_package_and_allowed_modules_through():
    source = ("import gateway\nfrom gateway import GatewayError, TableKind\nfrom . import state\n"
              "from ui.runs import Run\nfrom gateway.rest import start_from_config\n")
    assert gateway_import_violations(source, "app.py", allowed=("gateway.rest",)) == []


@pytest.mark.parametrize("source, kind, line", [
    ('name = "t"\nsql = f"SELECT * FROM {name} LIMIT 100"\n', "f-string", 2),
    ('sql = f"  select {cols} from t"\n', "f-string", 1),
    ('sql = "SET %s=%s" % (key, value)\n', "%-format", 1),
    ('x = 1\n\nsql = "ANALYZE TABLE {} COMPUTE STATISTICS".format(name)\n', ".format()", 3),
    ('sql = "DROP TABLE " + name\n', "+ concatenation", 1),
    ('sql = prefix + "RESET " + key\n', "+ concatenation", 1),
    ('sql = f"({inner}) UNION ALL" if x else f"WITH q AS ({inner}) SELECT * FROM q"\n', "f-string", 1),
])
def test_sql_check_reports_file_and_line_of_built_sql(source, kind, line):
    problems = sql_building_violations(source, "pages/bad.py")
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"pages/bad.py:{line}: builds SQL text with {kind}")


@pytest.mark.parametrize("source", [
    'DEFAULT_SQL = "SELECT * FROM range(10)"\n',                      # a constant example text
    'SAMPLE = ("SELECT c.country,\\n" "  count(*) AS n\\n" "FROM customers c")\n',
    'text = "SELECT 1 " + "AS answer"\n',                              # constant + constant is a constant
    'label = f"Show {n} rows"\nhint = f"Use {db} first"\n',           # English, not SQL
    'message = f"{count:,} rows" + " shown"\ncaption = "Open `SELECT … LIMIT 100` in the editor"\n',
    'total = a + b\nrate = x % 3\nline = "{} rows".format(n)\n',
])
def test_sql_check_lets_constants_and_prose_through(source):
    assert sql_building_violations(source, "ui/good.py") == []


# -- the rules hold in ui/, pages/ and app.py ------------------------------------------------------------

def test_front_end_imports_only_the_gateway_package():
    problems = []
    for path in front_end_files():
        allowed = ("gateway.rest",) if path.name == "app.py" and path.parent == ROOT else ()
        problems += gateway_import_violations(path.read_text(), str(path.relative_to(ROOT)), allowed)
    assert problems == [], "\n".join(problems)


def test_ui_and_pages_build_no_sql_text():
    problems = []
    for path in front_end_files():
        if path.parent != ROOT:  # ui/ and pages/
            problems += sql_building_violations(path.read_text(), str(path.relative_to(ROOT)))
    assert problems == [], "\n".join(problems)


# -- (c) what gateway/rest imports ---------------------------------------------------------------------

# REST is a front end: the API, the contract and their value types, the configuration, REST's own modules,
# and a feature's own ``api``; nothing of core, spark, store nor a feature's internals.
REST_ALLOWED = re.compile(r"^gateway(\.(api(\..+)?|contract|errors|models|handles|identity|config|version|rest(\..+)?"
                          r"|features\.\w+\.(api|schemas)))?$")


def rest_import_violations(source: str, filename: str) -> list[str]:
    problems = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
            if node.module == "gateway":
                modules += [f"gateway.{a.name}" for a in node.names if a.name in GATEWAY_SUBMODULES]
        else:
            continue
        problems += [f"{_where(filename, node)}: imports {m}; REST uses the gateway's API only (gateway.api, the "
                     f"contract, value types)" for m in modules if m.startswith("gateway") and not REST_ALLOWED.match(m)]
    return problems


@pytest.mark.parametrize("source, line", [
    ("from gateway.core.service import GatewayService\n", 1),
    ("import os\nfrom gateway.spark.root import get_or_create_root\n", 2),
    ("from gateway import core\n", 1),
    ("from gateway.features.jars.store import JarStore\n", 1),
    ("from gateway.store import WorkbenchStore\n", 1),
])
def test_rest_import_check_reports_an_internal(source, line):
    assert [p.split(": ")[0] for p in rest_import_violations(source, "route.py")] == [f"route.py:{line}"]


def test_rest_import_check_lets_the_api_through():
    source = ("from gateway import GatewayContract\nfrom gateway.api import Principal\nfrom gateway.rest.deps import "
              "service_of\nfrom gateway.features.jars.api import JarsApi\nfrom gateway.errors import GatewayError\n")
    assert rest_import_violations(source, "route.py") == []


def rest_files() -> list[Path]:
    return sorted([*(ROOT / "gateway" / "rest").rglob("*.py"), *(ROOT / "gateway" / "features").glob("*/rest.py")])


def test_rest_imports_only_the_api():
    problems = [p for path in rest_files()
                for p in rest_import_violations(path.read_text(), str(path.relative_to(ROOT)))]
    assert not problems, "\n".join(problems)


def test_one_conftest_in_the_tests_tree():
    """Test files import helpers with ``from conftest import …``; a second conftest.py in a folder that is
    not a package takes that module name for the whole run (rootdir import mode) and every such import
    fails (a package's conftest, such as tests/cluster's, is ``cluster.conftest`` and harmless)."""
    tests = Path(__file__).resolve().parent
    found = sorted(str(p.relative_to(tests)) for p in tests.rglob("conftest.py")
                   if "plugins" not in p.parts and not (p.parent / "__init__.py").exists())
    assert found == ["conftest.py"], found
