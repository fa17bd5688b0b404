"""Per-session jars and function resources (FLIP-214) over Spark's JVM-wide class path.

In Spark 4.3 ``ADD JAR`` puts a jar on the class path of the whole JVM, ``LIST JARS`` shows every
session's jars and there is no ``REMOVE JAR``. The gateway keeps the books per session instead:
which jars a session added, which of its functions need which jar, and which jars it removed.
A function whose jar the session removed is dropped (temporary) or refused before Spark runs
the statement (persistent), with an error naming the jar; other sessions keep working.
"""
from __future__ import annotations

import logging
import ast
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import TokenError
from sqlglot.tokens import TokenType

from gateway.errors import InvalidRequestError, InvalidStatementError, ResourceError
from gateway.features.jars.function_sql import (CreateFunction, FunctionRegistry, load_python_callable, parse_create_function,
                        sql_identifier, sql_string)
from gateway.features.jars.store import JarStore, StoredJar, UdfClass, hadoop_fetcher, jar_has_class
from gateway.models import FunctionDetail, FunctionKind, JarInfo
from gateway.core.operations import current_operation
from gateway.core.sql_lexer import without_comments
from gateway.core.statements import Statement, StatementKind
from gateway.spark.backend import Capability, NotAvailableOnBackend, backend_name, supports
from gateway.spark.catalog import function_resources
from gateway.spark.classloader import use_added_jars_on_this_thread

log = logging.getLogger(__name__)

_SPARK = Dialect.get_or_raise("spark")
_JVM_SUFFIXES = (".jar",)
JARS = "jars"  # the feature's name: its per-session state is session.extensions["jars"]
REMOVE_JAR, SHOW_JARS = "REMOVE_JAR", "SHOW_JARS"
_SKIP_GUARD = {StatementKind.ADD_JAR, REMOVE_JAR, SHOW_JARS,
               StatementKind.CREATE_FUNCTION, StatementKind.SET, StatementKind.RESET, StatementKind.USE}


@dataclass
class _SessionJar:
    stored: StoredJar
    uris: list[str]
    added_at: float


@dataclass
class _TempFunction:
    class_name: str
    language: str
    jars: list[str] = field(default_factory=list)   # sha256 of the session jars it needs


@dataclass
class _Block:
    uri: str
    sha256: str
    temporary: bool


class JarResources:
    """Process-wide parts: the jar store, the record of persistent functions, every jar on the JVM."""

    def __init__(self, config, root_spark) -> None:
        self.store = JarStore(config.data_dir, config["jars.upload_max_bytes"], config["jars.download_max_bytes"],
                              config["jars.download_timeout_s"], hadoop_fetcher(root_spark))
        self.store.stop_probe = _operation_stopped  # a cancel stops a download at once
        self.registry = FunctionRegistry(config.data_dir / "jars" / "functions.json")
        self._on_jvm: dict[str, StoredJar] = {}
        self._lock = threading.Lock()

    def on_jvm(self, jar: StoredJar) -> None:
        with self._lock:
            self._on_jvm[jar.sha256] = jar

    def jvm_jars(self) -> list[StoredJar]:
        with self._lock:
            return list(self._on_jvm.values())

    # session lifecycle and statements (JarsFeature hooks)

    def open(self, session) -> None:
        session.extensions[JARS] = ResourceManager(session, self)

    def close(self, session) -> None:
        session.extensions.pop(JARS, None)

    def check_statement(self, session, statement: Statement) -> None:
        if self.jvm_jars():
            use_jar_class_loader(session.spark)
        manager = session.extensions.get(JARS)
        if manager is not None and statement.kind not in _SKIP_GUARD:
            manager.check_statement(statement.text)

    def add_jar(self, session, statement: Statement):
        for uri in _jar_arguments(statement, "ADD"):
            _manager(session).add_jar(uri)
        return None

    def prefetch(self, session, statement: Statement):
        """Before the session's lock: download the remote jars an ADD JAR or CREATE FUNCTION … USING JAR names."""
        if statement.kind == StatementKind.ADD_JAR:
            uris = _jar_arguments(statement, "ADD")
        else:
            parsed = _parsed_create_function(statement)
            uris = [uri for _, uri in parsed.resources] if parsed is not None else []
        for uri in uris:
            _manager(session).prefetch(uri)
        return None

    def remove_jar(self, session, statement: Statement):
        for uri in _jar_arguments(statement, "REMOVE"):
            _manager(session).remove_jar(uri)
        return None

    def show_jars(self, session, statement: Statement):
        rows = [(j.uri, j.path, j.sha256, j.size_bytes, j.functions) for j in _manager(session).list_jars()]
        return session.spark.createDataFrame(
            rows, "jar STRING, path STRING, sha256 STRING, size_bytes BIGINT, functions ARRAY<STRING>")

    def create_function(self, session, statement: Statement):
        parsed = _parsed_create_function(statement)
        if parsed is None:
            return session.spark.sql(statement.text)
        return _manager(session).create_function(parsed)


def _is_remote(uri: str) -> bool:
    """A URI the store downloads (http, https, hdfs, s3a, …), not a local path."""
    if not isinstance(uri, str):
        return False
    scheme = urllib.parse.urlparse(uri.strip()).scheme.lower()
    return len(scheme) > 1 and scheme not in ("file", "local") and not scheme.startswith("upload")


def _operation_stopped() -> Callable[[], bool]:
    """In a statement's worker: a check whether that statement was canceled, closed or timed out."""
    operation = current_operation()
    if operation is None:
        return lambda: False
    return lambda: operation.status.is_terminal


def use_jar_class_loader(spark) -> None:
    """Let this worker's JVM thread load classes from the jars ADD JAR put on the class path.

    Spark sets the context class loader only on the thread that ran ADD JAR, while statements
    run on pool threads. A backend without Spark's session state (Spark Connect) loads classes
    its own way, so there is nothing to do.
    """
    if supports(spark, Capability.SESSION_STATE):
        use_added_jars_on_this_thread(spark)


def metastore_function_resources(spark, database: Optional[str], name: str) -> list[dict]:
    """The resource list Spark stored for a persistent function ([] when the metastore does not
    know it, or the backend cannot read the metastore's function records)."""
    if not database or not supports(spark, Capability.SESSION_STATE):
        return []
    return function_resources(spark, database, name)


def _manager(session) -> "ResourceManager":
    manager = session.extensions.get(JARS)
    if manager is None:
        raise ResourceError("this session has no jar bookkeeping (it is closing); open a new session")
    return manager


def _parsed_create_function(statement: Statement):
    """CREATE FUNCTION … USING JAR as the jars feature reads it, for the download before the lock and the
    statement alike: comments (Spark's nested ones too) dropped, so none can hide a jar from either."""
    return parse_create_function(without_comments(statement.text))


def _jar_arguments(statement: Statement, verb: str) -> list[str]:
    """The URIs of ``ADD JAR 'a' 'b'`` / ``REMOVE JAR a``, as the statement's analysis read them."""
    if not statement.analysis.resources:
        raise InvalidStatementError(f"{verb} JAR needs a jar: {verb} JAR '/path/to/udfs.jar' "
                                    f"(a path, file://, http(s)://, hdfs:// or s3a:// URI)")
    return list(statement.analysis.resources)


class ResourceManager:
    """One session's jars, the functions that need them, and the jars it removed."""

    def __init__(self, session, feature: JarResources) -> None:
        self.session = session
        self.feature = feature
        self.store: JarStore = feature.store
        self.registry: FunctionRegistry = feature.registry
        self._jars: dict[str, _SessionJar] = {}
        self._temp: dict[str, _TempFunction] = {}
        self._blocked: dict[str, _Block] = {}
        self._prefetched: dict[str, StoredJar] = {}  # remote jars downloaded before the statement's lock
        self._lock = threading.RLock()

    @property
    def spark(self):
        return self.session.spark

    # -- jars -------------------------------------------------------------------------------

    def prefetch(self, uri: str) -> None:
        """Download a remote jar into the store now, outside the session's statement lock (issue 27 item 11);
        the ADD JAR under the lock then takes it from here. Local paths are quick and left to it."""
        if not _is_remote(uri):
            return
        stored = self.store.resolve(uri)
        with self._lock:
            self._prefetched[uri.strip()] = stored

    def _resolve(self, uri: str) -> StoredJar:
        with self._lock:
            stored = self._prefetched.pop(uri.strip(), None) if isinstance(uri, str) else None
        return stored if stored is not None and stored.path.is_file() else self.store.resolve(uri)

    def add_jar(self, uri: str) -> JarInfo:
        stored = self._resolve(uri)
        self._attach(stored, uri, jvm=not stored.path.suffix.lower() in (".py", ".whl"))
        return self._info(stored.sha256)

    def upload_jar(self, filename: str, data: bytes) -> JarInfo:
        stored = self.store.upload(filename, data)
        self._attach(stored, str(stored.path), jvm=stored.path.suffix.lower() in _JVM_SUFFIXES)
        return self._info(stored.sha256)

    def _attach(self, stored: StoredJar, uri: str, jvm: bool = True) -> None:
        with self._lock:
            entry = self._jars.get(stored.sha256)
            if entry is None and jvm and supports(self.spark, Capability.SESSION_ARTIFACTS):
                # Spark Connect: the jar is uploaded into this session's artifacts on the server (its class
                # loader); the gateway's path means nothing there (docs/engines.md: what Connect isolates)
                self.spark.addArtifacts(str(stored.path))
            elif entry is None and jvm:
                self.spark.sql(f"ADD JAR {sql_string(str(stored.path))}").collect()
                self.feature.on_jvm(stored)
            if entry is None:
                self._jars[stored.sha256] = _SessionJar(stored, [uri], time.time())
            elif uri not in entry.uris:
                entry.uris.append(uri)
            # Adding the jar back makes this session's persistent functions that need it resolve again.
            for key in [k for k, b in self._blocked.items() if b.sha256 == stored.sha256 and not b.temporary]:
                del self._blocked[key]

    def _find(self, jar: str) -> _SessionJar:
        if not isinstance(jar, str) or not jar.strip():
            raise InvalidRequestError("name the jar: its URI, path, file name or sha256 as SHOW JARS lists it")
        jar = jar.strip()
        bare = _local_form(jar)
        with self._lock:
            for entry in self._jars.values():
                if bare in {_local_form(u) for u in entry.uris} or bare == str(entry.stored.path) \
                        or jar == entry.stored.sha256:
                    return entry
            for entry in self._jars.values():
                if bare == entry.stored.name or any(Path(u).name == bare for u in entry.uris):
                    return entry
        raise ResourceError(f"the jar {jar!r} is not added to this session; SHOW JARS lists this session's jars")

    def remove_jar(self, jar: str) -> list[str]:
        """Forget the jar in this session; its functions stop resolving here. Returns those functions."""
        with self._lock:
            entry = self._find(jar)
            sha, uri = entry.stored.sha256, entry.uris[0]
            del self._jars[sha]
            affected = []
            for name, function in list(self._temp.items()):
                if sha in function.jars:
                    self.spark.sql(f"DROP TEMPORARY FUNCTION IF EXISTS {sql_identifier(name)}").collect()
                    del self._temp[name]
                    self._blocked[name] = _Block(uri, sha, True)
                    affected.append(name)
            for qualified, record in self.registry.all().items():
                if any(r.get("sha256") == sha for r in record.get("resources", [])):
                    self._blocked[qualified] = _Block(uri, sha, False)
                    affected.append(qualified)
            return affected

    def list_jars(self) -> list[JarInfo]:
        with self._lock:
            shas = list(self._jars)
        return [self._info(sha) for sha in shas]

    def _info(self, sha: str) -> JarInfo:
        with self._lock:
            entry = self._jars[sha]
            temp = [n for n, f in self._temp.items() if sha in f.jars]
        existing = self._existing_temp_functions() if temp else set()
        functions = [n for n in temp if n in existing]
        for qualified, record in self.registry.all().items():
            if any(r.get("sha256") == sha for r in record.get("resources", [])) and qualified not in self._blocked \
                    and self._persistent_exists(qualified):
                functions.append(qualified)
        return JarInfo(entry.uris[0], str(entry.stored.path), sha, entry.stored.size_bytes, entry.added_at,
                       sorted(functions), entry.uris[1:])

    def _persistent_exists(self, qualified: str) -> bool:
        """False once the function was dropped (DROP FUNCTION does not pass through the gateway)."""
        try:
            return bool(self.spark.catalog.functionExists(qualified))
        except Exception:  # noqa: BLE001 - an unreachable catalog: keep the gateway's record
            log.debug("the catalog could not be asked; the gateway's record stands", exc_info=True)
            return True

    def _existing_temp_functions(self) -> set[str]:
        rows = self.spark.sql("SHOW USER FUNCTIONS").collect()
        return {r[0].lower() for r in rows if "." not in r[0]}

    def udf_classes(self, jar: str) -> list[UdfClass]:
        entry = self._find(jar)
        if entry.stored.path.suffix.lower() == ".py":
            return _python_functions(entry.stored.path)
        return self.store.classes(entry.stored)

    # -- functions --------------------------------------------------------------------------

    def create_function(self, parsed: CreateFunction):
        if parsed.language == "PYTHON":
            return self._create_python(parsed)
        stored = [self._resolve(uri) for _, uri in parsed.resources]
        jars = [s for s in stored if s.path.suffix.lower() in (".jar", ".zip")]
        if stored and not any(jar_has_class(s.path, parsed.class_name) for s in jars):
            raise ResourceError(f"the class {parsed.class_name} is not in "
                                f"{', '.join(uri for _, uri in parsed.resources)}; check the class name "
                                f"(list_udf_classes shows the UDF classes of a jar)")
        if not stored:
            provider = self._session_jar_with(parsed.class_name)
            stored = [provider] if provider is not None else []
        if stored and supports(self.spark, Capability.SESSION_ARTIFACTS):
            # Measured on Spark 4.3: the class loads from the session's artifacts, and its first call fails
            # with NO_HANDLER_FOR_UDAF (Hive's function registry does not see the session's class loader).
            raise NotAvailableOnBackend(
                f"a function whose class ({parsed.class_name}) comes from a session's jar cannot run on "
                f"{backend_name(self.spark)}: the server's Hive function registry does not load classes from a "
                f"session's artifacts (SPARK-49249). Put the jar on the server's class path (spark.jars) and "
                f"CREATE FUNCTION without the jar, or write the function in Python or SQL (docs/engines.md)")
        if parsed.temporary:
            return self._create_temporary(parsed, stored)
        return self._create_persistent(parsed, stored)

    def _session_jar_with(self, class_name: str) -> Optional[StoredJar]:
        """The session jar holding the class; a clear error if only another session's jar holds it."""
        with self._lock:
            mine = [e.stored for e in self._jars.values()]
        for jar in mine:
            if jar.path.suffix.lower() in _JVM_SUFFIXES and jar_has_class(jar.path, class_name):
                return jar
        own = {j.sha256 for j in mine}
        for jar in self.feature.jvm_jars():
            if jar.sha256 not in own and jar_has_class(jar.path, class_name):
                raise ResourceError(
                    f"the class {class_name} comes from the jar {jar.uri}, which this session has not added "
                    f"(another session did; Spark shares the class path, the gateway keeps sessions apart). "
                    f"ADD JAR {sql_string(str(jar.path))} first, or add USING JAR to the statement.")
        return None

    def _create_temporary(self, parsed: CreateFunction, stored: list[StoredJar]):
        if len(parsed.name_parts) > 1:
            raise InvalidStatementError(
                f"a temporary function has no catalog or database in Spark (it lives in the session): "
                f"write CREATE TEMPORARY FUNCTION {sql_identifier(parsed.name_parts[-1])} …")
        name = parsed.name_parts[0]
        key = name.lower()
        if parsed.if_not_exists and key in self._existing_temp_functions():
            return None
        for jar in stored:
            self._attach(jar, jar.uri)
        replace = "OR REPLACE " if parsed.or_replace else ""
        self.spark.sql(f"CREATE {replace}TEMPORARY FUNCTION {sql_identifier(name)} "
                       f"AS {sql_string(parsed.class_name)}").collect()
        with self._lock:
            self._temp[key] = _TempFunction(parsed.class_name, parsed.language, [j.sha256 for j in stored])
            self._blocked.pop(key, None)
        return None

    def _qualify(self, parts: list[str]) -> tuple[str, str, str]:
        if len(parts) > 3:
            raise InvalidStatementError(f"the name {'.'.join(parts)} has too many parts; use [catalog.]db.name")
        if len(parts) == 3:
            return parts[0], parts[1], parts[2]
        catalog = self.spark.catalog.currentCatalog()
        if len(parts) == 2:
            return catalog, parts[0], parts[1]
        return catalog, self.spark.catalog.currentDatabase(), parts[0]

    def _create_persistent(self, parsed: CreateFunction, stored: list[StoredJar]):
        if parsed.system:
            raise InvalidStatementError("SYSTEM goes with TEMPORARY only: CREATE TEMPORARY SYSTEM FUNCTION …")
        catalog, database, name = self._qualify(parsed.name_parts)
        target = ".".join(sql_identifier(p) for p in ((database, name) if catalog == "spark_catalog"
                                                        else (catalog, database, name)))
        qualified = f"{catalog}.{database}.{name}".lower()
        if parsed.if_not_exists and self.spark.catalog.functionExists(f"{catalog}.{database}.{name}"):
            return None
        for jar in stored:
            self._attach(jar, jar.uri)
        using = ""
        if stored:
            using = " USING " + ", ".join(f"JAR {sql_string(str(j.path))}" for j in stored)
        head = "CREATE OR REPLACE FUNCTION" if parsed.or_replace else "CREATE FUNCTION"
        exists = " IF NOT EXISTS" if parsed.if_not_exists else ""
        self.spark.sql(f"{head}{exists} {target} AS {sql_string(parsed.class_name)}{using}").collect()
        self.registry.put(qualified, parsed.class_name, parsed.language,
                          [{"type": "JAR", "uri": j.uri, "path": str(j.path), "sha256": j.sha256} for j in stored])
        with self._lock:
            self._blocked.pop(qualified, None)
            block = self._blocked.get(name.lower())
            if block is not None and block.temporary:  # the name now means this function
                del self._blocked[name.lower()]
        return None

    def _create_python(self, parsed: CreateFunction):
        if not parsed.temporary:
            raise InvalidStatementError(
                "LANGUAGE PYTHON functions are temporary only: Spark's metastore cannot hold Python functions. "
                "Use CREATE TEMPORARY FUNCTION name AS 'module.function' LANGUAGE PYTHON USING JAR 'udfs.py'")
        if len(parsed.name_parts) > 1:
            raise InvalidStatementError("a temporary function has no catalog or database: give a plain name")
        name = parsed.name_parts[0]
        key = name.lower()
        if key in self._existing_temp_functions() and not parsed.or_replace:
            if parsed.if_not_exists:
                return None
            raise InvalidStatementError(f"the temporary function {name} exists; use CREATE OR REPLACE "
                                        f"TEMPORARY FUNCTION or drop it first")
        stored = [self.store.resolve(uri) for _, uri in parsed.resources]
        target = load_python_callable(parsed.class_name, [s.path for s in stored], self.spark)
        for jar in stored:
            self._attach(jar, jar.uri, jvm=False)
        if hasattr(target, "func") and hasattr(target, "returnType"):
            self.spark.udf.register(name, target)
        else:
            self.spark.udf.register(name, target, getattr(target, "return_type", "string"))
        with self._lock:
            self._temp[key] = _TempFunction(parsed.class_name, "PYTHON", [j.sha256 for j in stored])
            self._blocked.pop(key, None)
        return None

    def function_resources(self, detail: FunctionDetail) -> tuple[list[dict], Optional[str]]:
        """Resources and language of a function, for get_function."""
        if detail.kind != FunctionKind.USER:
            return [], None
        if detail.is_temporary:
            with self._lock:
                function = self._temp.get(detail.name.lower())
                if function is None:
                    return [], None
                resources = [{"type": "JAR", "uri": self._jars[s].uris[0], "path": str(self._jars[s].stored.path),
                              "sha256": s} for s in function.jars if s in self._jars]
            return resources, function.language
        qualified = f"{detail.catalog or 'spark_catalog'}.{detail.database}.{detail.name}"
        record = self.registry.get(qualified)
        if record is None:  # created outside the gateway: what the metastore holds
            return metastore_function_resources(self.spark, detail.database, detail.name), None
        return list(record.get("resources", [])), record.get("language")

    # -- the statement guard ----------------------------------------------------------------

    def check_statement(self, text: str) -> None:
        """Refuse calls of functions whose jar this session removed; add the jars of the persistent
        functions a statement calls (as if ADD JAR had been issued, FLIP-214)."""
        with self._lock:
            blocked = dict(self._blocked)
            temp = set(self._temp)
        persistent = self.registry.all()
        simple_persistent = {k.rsplit(".", 1)[-1] for k in persistent} | {
            k.rsplit(".", 1)[-1] for k, b in blocked.items() if not b.temporary}
        lowered = text.lower()
        if not any(name in lowered for name in simple_persistent | set(blocked)):
            return  # nothing this statement could call: no need to tokenize it
        calls = function_calls(text)
        for parts in calls:
            simple = parts[-1].lower()
            if len(parts) == 1 and simple in blocked and blocked[simple].temporary and simple not in temp:
                block = blocked[simple]
                raise ResourceError(
                    f"function {parts[-1]} needs the jar {block.uri}, which was removed from this session "
                    f"(REMOVE JAR) and the function with it; ADD JAR {sql_string(block.uri)} and create the "
                    f"function again to use it")
            if simple not in simple_persistent or (len(parts) == 1 and simple in temp):
                continue
            qualified = ".".join(self._qualify(parts)).lower()
            block = blocked.get(qualified)
            if block is not None:
                raise ResourceError(
                    f"function {qualified} needs the jar {block.uri}, which was removed from this session "
                    f"(REMOVE JAR); ADD JAR {sql_string(block.uri)} to use it again")
            record = persistent.get(qualified)
            if record is not None:
                self._attach_persistent(qualified, record)

    def _attach_persistent(self, qualified: str, record: dict) -> None:
        for resource in record.get("resources", []):
            if resource.get("sha256") in self._jars:
                continue
            path = Path(resource.get("path", ""))
            if path.is_file():
                stored = self.store.resolve(str(path))
            else:  # the local copy is gone (another data directory): fetch the original again
                stored = self.store.resolve(resource["uri"])
            self._attach(StoredJar(resource["uri"], stored.path, stored.sha256, stored.size_bytes), resource["uri"])


def _local_form(uri: str) -> str:
    """``file:///a%20b.jar`` and ``/a b.jar`` name the same jar."""
    if uri.startswith("file:"):
        return urllib.parse.unquote(urllib.parse.urlparse(uri).path)
    return uri


def function_calls(text: str) -> list[list[str]]:
    """Names called in a statement (``f(``, ``db.f(``, ``cat.db.f(``), as lists of parts."""
    try:
        tokens = _SPARK.tokenize(text)
    except TokenError:
        return []
    calls = []
    for index, token in enumerate(tokens):
        if token.token_type != TokenType.L_PAREN or index == 0:
            continue
        j = index - 1
        if not _name_like(tokens[j]):
            continue
        parts = [tokens[j].text]
        while j >= 2 and tokens[j - 1].token_type == TokenType.DOT and _name_like(tokens[j - 2]):
            parts.insert(0, tokens[j - 2].text)
            j -= 2
        calls.append(parts)
    return calls


def _name_like(token) -> bool:
    return token.token_type in (TokenType.VAR, TokenType.IDENTIFIER) or (
        token.token_type != TokenType.STRING and token.text.isidentifier())


def _python_functions(path: Path) -> list[UdfClass]:
    try:
        tree = ast.parse(path.read_text())
    except (SyntaxError, UnicodeDecodeError, OSError):
        return []
    return [UdfClass(f"{path.stem}.{node.name}", "Python function") for node in tree.body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")]
