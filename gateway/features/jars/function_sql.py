"""CREATE FUNCTION … AS 'class' [LANGUAGE …] [USING JAR …] (FLIP-214): parsing, the record of
persistent functions' resources, and loading LANGUAGE PYTHON callables.

Spark keeps a persistent function's resource list in the metastore, but only as the URIs it
loads; the gateway hands Spark its local content-addressed copies and keeps the original URIs
in ``<data_dir>/jars/functions.json`` so that ``get_function`` can show where a jar came from.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from gateway.errors import InvalidStatementError, ResourceError
from gateway.spark.backend import Capability, supports

_SPARK = Dialect.get_or_raise("spark")
LANGUAGES = ("JAVA", "SCALA", "PYTHON")
RESOURCE_TYPES = ("JAR", "FILE", "ARCHIVE")
_NAME_TOKENS = (TokenType.VAR, TokenType.IDENTIFIER)


@dataclass
class CreateFunction:
    """A parsed ``CREATE … FUNCTION name AS 'class' …`` statement."""

    name_parts: list[str]
    class_name: str
    temporary: bool = False
    system: bool = False
    or_replace: bool = False
    if_not_exists: bool = False
    language: str = "JAVA"
    resources: list[tuple[str, str]] = field(default_factory=list)   # (JAR|FILE|ARCHIVE, uri)

    @property
    def name(self) -> str:
        return ".".join(self.name_parts)


def _is_word(token, word: str) -> bool:
    return token is not None and token.token_type != TokenType.STRING and token.text.upper() == word


def parse_create_function(text: str) -> Optional[CreateFunction]:
    """The class form of CREATE FUNCTION, or None for anything else (SQL UDFs go to Spark unchanged)."""
    try:
        tokens = [t for t in _SPARK.tokenize(text) if t.token_type != TokenType.SEMICOLON]
    except TokenError:
        return None
    pos = 0

    def peek(offset: int = 0):
        return tokens[pos + offset] if pos + offset < len(tokens) else None

    if not _is_word(peek(), "CREATE"):
        return None
    pos += 1
    result = CreateFunction([], "")
    if _is_word(peek(), "OR") and _is_word(peek(1), "REPLACE"):
        result.or_replace, pos = True, pos + 2
    if _is_word(peek(), "TEMPORARY") or _is_word(peek(), "TEMP"):
        result.temporary, pos = True, pos + 1
        if _is_word(peek(), "SYSTEM"):
            result.system, pos = True, pos + 1
    if not _is_word(peek(), "FUNCTION"):
        return None
    pos += 1
    if _is_word(peek(), "IF") and _is_word(peek(1), "NOT") and _is_word(peek(2), "EXISTS"):
        result.if_not_exists, pos = True, pos + 3
    while True:
        token = peek()
        if token is None or (token.token_type not in _NAME_TOKENS and not token.text.isidentifier()):
            return None
        result.name_parts.append(token.text)
        pos += 1
        if peek() is not None and peek().token_type == TokenType.DOT:
            pos += 1
            continue
        break
    if not _is_word(peek(), "AS") or peek(1) is None or peek(1).token_type != TokenType.STRING:
        return None  # CREATE FUNCTION f(x INT) RETURNS … is a SQL function: Spark's own
    pos += 1
    result.class_name = _strings(tokens, pos)
    pos += _count_strings(tokens, pos)
    if _is_word(peek(), "LANGUAGE"):
        language = peek(1)
        if language is None or language.text.upper() not in LANGUAGES:
            got = language.text if language is not None else "nothing"
            raise InvalidStatementError(f"LANGUAGE must be one of {', '.join(LANGUAGES)}, got {got}")
        result.language, pos = language.text.upper(), pos + 2
    if _is_word(peek(), "USING"):
        pos += 1
        while True:
            kind, uri_token = peek(), peek(1)
            if kind is None or kind.text.upper() not in RESOURCE_TYPES or uri_token is None \
                    or uri_token.token_type != TokenType.STRING:
                raise InvalidStatementError(
                    "USING expects JAR 'uri' [, JAR 'uri']* (FILE and ARCHIVE are accepted too), "
                    "e.g. USING JAR 'hdfs:///udfs/my-udfs.jar'")
            pos += 1
            result.resources.append((kind.text.upper(), _strings(tokens, pos)))
            pos += _count_strings(tokens, pos)
            if peek() is not None and peek().token_type == TokenType.COMMA:
                pos += 1
                continue
            break
    if peek() is not None:
        raise InvalidStatementError(
            f"unexpected {peek().text!r} after the function's class: the syntax is CREATE [TEMPORARY [SYSTEM]] "
            f"FUNCTION [IF NOT EXISTS] name AS 'class' [LANGUAGE JAVA|SCALA|PYTHON] [USING JAR 'uri' [, JAR 'uri']*]")
    return result


def _count_strings(tokens, pos: int) -> int:
    count = 0
    while pos + count < len(tokens) and tokens[pos + count].token_type == TokenType.STRING:
        count += 1
    return count


def _strings(tokens, pos: int) -> str:
    """Adjacent string literals, joined as Spark joins them ('a' 'b' is 'ab')."""
    return "".join(t.text for t in tokens[pos:pos + _count_strings(tokens, pos)])


def sql_string(value: str) -> str:
    """A Spark SQL string literal."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def sql_identifier(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def create_function_statement(name: str, class_name: str, temporary: bool = True,
                              jar_uris: tuple[str, ...] | list[str] = (), language: str = "JAVA",
                              if_not_exists: bool = False) -> str:
    """The CREATE FUNCTION statement for a class (what the jar page runs), properly quoted."""
    parts = [p for p in name.split(".") if p]
    if not parts or not class_name:
        raise InvalidStatementError("a function needs a name and a class")
    head = "CREATE TEMPORARY FUNCTION" if temporary else "CREATE FUNCTION"
    exists = " IF NOT EXISTS" if if_not_exists else ""
    using = ""
    if jar_uris:
        using = " USING " + ", ".join(f"JAR {sql_string(u)}" for u in jar_uris)
    return (f"{head}{exists} {'.'.join(sql_identifier(p) for p in parts)} AS {sql_string(class_name)} "
            f"LANGUAGE {language.upper()}{using}")


# -- the record of persistent functions -------------------------------------------------------

class FunctionRegistry:
    """Persistent functions created through the gateway: class, language and resources (original URIs
    and the local copies), in ``<data_dir>/jars/functions.json``. Re-read when another process wrote it."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._data: dict[str, dict] = {}
        self._mtime: Optional[float] = None

    def _load(self) -> None:
        try:
            mtime = self.path.stat().st_mtime
        except FileNotFoundError:
            self._data, self._mtime = {}, None
            return
        if mtime != self._mtime:
            try:
                self._data = json.loads(self.path.read_text())
            except (OSError, ValueError):
                self._data = {}
            self._mtime = mtime

    def _save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".functions-")
        with os.fdopen(fd, "w") as out:
            json.dump(self._data, out, indent=1, sort_keys=True)
        os.replace(tmp, self.path)
        self._mtime = self.path.stat().st_mtime

    def put(self, qualified: str, class_name: str, language: str, resources: list[dict]) -> None:
        with self._lock:
            self._load()
            self._data[qualified.lower()] = {"class_name": class_name, "language": language,
                                             "resources": resources, "created_at": time.time()}
            self._save()

    def get(self, qualified: str) -> Optional[dict]:
        with self._lock:
            self._load()
            entry = self._data.get(qualified.lower())
            return dict(entry) if entry else None

    def drop(self, qualified: str) -> None:
        with self._lock:
            self._load()
            if self._data.pop(qualified.lower(), None) is not None:
                self._save()

    def all(self) -> dict[str, dict]:
        with self._lock:
            self._load()
            return {k: dict(v) for k, v in self._data.items()}

    def simple_names(self) -> set[str]:
        return {key.rsplit(".", 1)[-1] for key in self.all()}


# -- LANGUAGE PYTHON --------------------------------------------------------------------------

def load_python_callable(dotted: str, resources: list[Path], spark):
    """The callable ``module.attr`` from an uploaded .py, zip or wheel (or any importable module).

    A single .py is loaded under a private module name and pickled by value, so Python workers
    need no copy of it; zips and wheels go on ``sys.path`` and to the workers with ``addPyFile``.
    """
    module_name, _, attribute = dotted.rpartition(".")
    if not module_name or not attribute:
        raise InvalidStatementError(f"LANGUAGE PYTHON needs AS 'module.function', got {dotted!r}")
    module = None
    for path in resources:
        if path.suffix.lower() == ".py" and path.stem == module_name.split(".")[0]:
            module = _load_single_file(path)
            break
    if module is None:
        for path in resources:
            if path.suffix.lower() in (".zip", ".whl", ".egg") and str(path) not in sys.path:
                sys.path.insert(0, str(path))
                if supports(spark, Capability.SESSION_ARTIFACTS):  # Spark Connect: into the session's artifacts
                    spark.addArtifacts(str(path), pyfile=True)
                else:
                    spark.sparkContext.addPyFile(str(path))
        importlib.invalidate_caches()
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            names = ", ".join(p.name for p in resources) or "no resources"
            raise ResourceError(f"the Python module {module_name!r} cannot be imported ({exc}); it was looked "
                                f"for in {names}. Give the .py/.zip/.whl with USING JAR 'uri'.") from None
    target = module
    for part in attribute.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise ResourceError(f"the module {module_name!r} has no {attribute!r}; check the dotted name")
    if not callable(target):
        raise ResourceError(f"{dotted!r} is not callable")
    return target


def _load_single_file(path: Path):
    from pyspark import cloudpickle

    private = f"_workbench_udf_{path.parent.name[:12]}_{path.stem}"
    if private in sys.modules:
        return sys.modules[private]
    spec = importlib.util.spec_from_file_location(private, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[private] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - the user's module failed to import
        sys.modules.pop(private, None)
        raise ResourceError(f"importing {path.name} failed: {type(exc).__name__}: {exc}") from None
    cloudpickle.register_pickle_by_value(module)
    return module
