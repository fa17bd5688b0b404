"""Value types of the gateway contract (FLIP-91 names, Python spelling)."""
from __future__ import annotations

import datetime as dt
import enum
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Optional


class OperationStatus(enum.Enum):
    INITIALIZED = "INITIALIZED"
    PENDING = "PENDING"
    RUNNING = "RUNNING"
    FINISHED = "FINISHED"
    CANCELED = "CANCELED"
    CLOSED = "CLOSED"
    ERROR = "ERROR"
    TIMEOUT = "TIMEOUT"

    @property
    def is_terminal(self) -> bool:
        return self in _TERMINAL

    def can_move_to(self, target: "OperationStatus") -> bool:
        return target in _TRANSITIONS[self]


_TERMINAL = {OperationStatus.FINISHED, OperationStatus.CANCELED, OperationStatus.CLOSED,
             OperationStatus.ERROR, OperationStatus.TIMEOUT}

_S = OperationStatus
_TRANSITIONS = {
    _S.INITIALIZED: {_S.PENDING, _S.CANCELED, _S.CLOSED, _S.ERROR, _S.TIMEOUT},
    _S.PENDING: {_S.RUNNING, _S.CANCELED, _S.CLOSED, _S.ERROR, _S.TIMEOUT},
    _S.RUNNING: {_S.FINISHED, _S.CANCELED, _S.CLOSED, _S.ERROR, _S.TIMEOUT},
    # A finished operation may still be closed; the other terminal states only close.
    _S.FINISHED: {_S.CLOSED},
    _S.CANCELED: {_S.CLOSED},
    _S.ERROR: {_S.CLOSED},
    _S.TIMEOUT: {_S.CLOSED},
    _S.CLOSED: set(),
}


class OperationType(enum.Enum):
    EXECUTE_STATEMENT = "EXECUTE_STATEMENT"
    CONFIGURE_SESSION = "CONFIGURE_SESSION"


class ResultType(enum.Enum):
    NOT_READY = "NOT_READY"
    PAYLOAD = "PAYLOAD"
    EOS = "EOS"
    ERROR = "ERROR"


class TableKind(enum.Enum):
    ALL = "ALL"
    TABLE = "TABLE"
    VIEW = "VIEW"


class FunctionKind(enum.Enum):
    BUILTIN = "BUILTIN"
    USER = "USER"


@dataclass
class Column:
    """A result or table column: its name and the seed's type JSON."""

    name: str
    type: dict
    comment: Optional[str] = None

    @property
    def type_name(self) -> str:
        """Short SQL-ish label of the type (BIGINT, DECIMAL(10,2), ARRAY<INT>), for headers."""
        return type_name(self.type)

    def to_json(self) -> dict:
        data = {"name": self.name, "type": self.type}
        if self.comment is not None:
            data["comment"] = self.comment
        return data


@dataclass
class ResultSet:
    """One page of an operation's result.

    ``rows`` are lists of JSON-ready values; ``next_token`` is None at EOS. The last
    page of a result is EOS and may still carry rows, saving a round trip.
    ``arrow``: the same rows as a ``pyarrow.Table`` when they came from Spark (None otherwise);
    a page built from it turns into ``rows`` only when they are read, so an Arrow client never
    pays for Python values.
    """

    result_type: ResultType
    next_token: Optional[int]
    columns: list[Column] = field(default_factory=list)
    rows: list[list] = field(default_factory=list)
    exception: Optional[dict] = None
    arrow: Optional[Any] = field(default=None, repr=False, compare=False)

    def row_json(self) -> list[dict]:
        """Rows in the seed's row JSON: ``{"kind": "INSERT", "fields": [...]}``."""
        return [{"kind": "INSERT", "fields": row} for row in self.rows]


@dataclass
class StatementSummary:
    """What happened to one statement of a script."""

    index: int
    statement: str
    kind: str
    status: str
    rows: Optional[int] = None
    line: int = 1
    # One result per statement (issue 31): whether it has rows to fetch (``fetch_results(statement=i)``),
    # whether only the first rows were kept (``result.buffer_max_rows``), its run time, its own error.
    has_result: bool = False
    truncated: bool = False
    elapsed_ms: Optional[int] = None
    error: Optional[dict] = None


@dataclass
class OperationInfo:
    status: OperationStatus
    type: OperationType
    has_result: bool
    statement: str = ""
    submitted_at: float = 0.0
    started_at: Optional[float] = None
    ended_at: Optional[float] = None
    rows_fetched: int = 0
    exception: Optional[dict] = None
    job_ids: list[int] = field(default_factory=list)
    statements: list[StatementSummary] = field(default_factory=list)
    # Tables an atomic write published (FLIP-305): {"table", "action", "rows", "location", "atomic"}.
    committed: list[dict] = field(default_factory=list)
    # Spark's web UI: the operation's job group (Spark's "Job Group" column), the page of its jobs
    # (its one job's page, else the Jobs list) and each job's page; empty with spark.ui.enabled false.
    job_group: str = ""
    spark_ui_url: Optional[str] = None
    job_urls: list[str] = field(default_factory=list)

    @property
    def duration_s(self) -> Optional[float]:
        if self.started_at is None:
            return None
        import time
        return (self.ended_at or time.time()) - self.started_at


@dataclass
class TableInfo:
    """Light entry for lists: identifier, kind and temporary flag only."""

    catalog: Optional[str]
    database: Optional[str]
    name: str
    kind: TableKind
    is_temporary: bool

    @property
    def identifier(self) -> str:
        return ".".join(p for p in (self.catalog, self.database, self.name) if p)


@dataclass
class TableDetail:
    catalog: Optional[str]
    database: Optional[str]
    name: str
    kind: TableKind
    is_temporary: bool
    columns: list[Column]
    partition_columns: list[str]
    properties: dict[str, str]
    provider: Optional[str]
    location: Optional[str]
    statistics: Optional[str]
    comment: Optional[str]
    table_type: Optional[str]
    extended: dict[str, str]

    def to_json(self) -> dict:
        data = asdict(self)
        data["kind"] = self.kind.value
        data["columns"] = [c.to_json() for c in self.columns]
        return data


@dataclass
class FunctionInfo:
    catalog: Optional[str]
    database: Optional[str]
    name: str
    kind: FunctionKind
    is_temporary: bool
    module: Optional[str] = None   # the module this function comes from (FLIP-68); None: not from a module
    winner: Optional[str] = None   # the module that answers this name unqualified in the session

    @property
    def identifier(self) -> str:
        return ".".join(p for p in (self.catalog, self.database, self.name) if p)


@dataclass
class FunctionDetail:
    name: str
    kind: FunctionKind
    is_temporary: bool
    class_name: Optional[str]
    usage: Optional[str]
    extended_description: Optional[str]
    catalog: Optional[str] = None
    database: Optional[str] = None
    module: Optional[str] = None            # the module that answers this name (FLIP-68)
    module_version: Optional[str] = None
    implementation: Optional[str] = None    # builtin, python:…, jar:…@sha256:…, sql:sha256:…
    providers: list[str] = field(default_factory=list)  # used modules with this name; the first wins
    # FLIP-214: the resources the function needs, e.g. [{"type": "JAR", "uri": "hdfs:///u.jar",
    # "path": "<data_dir>/jars/store/<sha256>/u.jar"}]; empty for built-ins and resource-less ones.
    resources: list[dict] = field(default_factory=list)
    language: Optional[str] = None

    def to_json(self) -> dict:
        data = asdict(self)
        data["kind"] = self.kind.value
        return data


@dataclass
class JarInfo:
    """A jar (or Python resource) this session has added, and the functions that use it."""

    uri: str                  # as the session gave it (path, URI, or upload:<file name>)
    path: str                 # the local content-addressed copy Spark loads
    sha256: str
    size_bytes: int
    added_at: float
    functions: list[str] = field(default_factory=list)
    other_uris: list[str] = field(default_factory=list)   # the same content added under other URIs

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    def to_json(self) -> dict:
        return asdict(self)


def enum_json(value: Any) -> Any:
    """JSON-friendly form of dataclasses holding enums (used by front ends)."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {k: enum_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [enum_json(v) for v in value]
    return value


@dataclass(frozen=True)
class FunctionOrigin:
    """Where a function name comes from in a session: the winning module, its version and the code."""

    module: str
    version: str
    implementation: str  # "builtin", "python:pkg.mod.fn", "jar:com.x.Cls@sha256:…", "sql:sha256:…"



@dataclass(frozen=True)
class PropertySpec:
    """A documented property of a module type (shown in the page's load form)."""

    name: str
    help: str
    required: bool = False
    default: Optional[str] = None



@dataclass
class ModuleInfo:
    """A loaded module as the service lists it."""

    name: str
    type: str
    version: str
    used: bool
    position: Optional[int]          # 0-based place in the resolution order; None when unused
    properties: dict[str, str]
    functions: list[str]



@dataclass
class ModuleTypeInfo:
    """A module type that LOAD MODULE can use, with its documented properties."""

    type: str
    description: str
    properties: list[PropertySpec]


@dataclass(frozen=True)
class Candidate:
    """One completion: the text to insert, what it is, and a detail (type, signature)."""

    value: str
    kind: str
    detail: str = ""

    def to_json(self) -> dict:
        return {"value": self.value, "kind": self.kind, "detail": self.detail}


@dataclass(frozen=True)
class UdfClass:
    """A class inside a jar that CREATE FUNCTION can use."""

    class_name: str
    kind: str         # Hive UDF, GenericUDF, UDAF, GenericUDAF resolver, GenericUDTF, Spark UDAF

    @property
    def suggested_name(self) -> str:
        """A function name from the simple class name: ``com.x.ShoutUDF`` -> ``shout``."""
        simple = self.class_name.rsplit(".", 1)[-1]
        simple = re.sub(r"(?i)(generic)?(udf|udaf|udtf|function)$", "", simple) or simple
        return re.sub(r"(?<!^)(?=[A-Z][a-z])", "_", simple).lower()


@dataclass
class StageProgress:
    stage_id: int
    name: str
    tasks: int
    completed: int
    active: int
    failed: int



@dataclass
class JobProgress:
    job_id: int
    status: str
    stages: list[StageProgress] = field(default_factory=list)



@dataclass
class OperationProgress:
    """Jobs of the operation's job group and their stages; ``fraction`` of tasks done (0..1)."""

    jobs: list[JobProgress] = field(default_factory=list)

    @property
    def tasks(self) -> int:
        return sum(s.tasks for j in self.jobs for s in j.stages)

    @property
    def completed(self) -> int:
        return sum(s.completed for j in self.jobs for s in j.stages)

    @property
    def active_stages(self) -> list[StageProgress]:
        """Stages of running jobs with tasks still to do."""
        return [s for j in self.jobs if j.status == "RUNNING" for s in j.stages if s.completed < s.tasks]

    @property
    def running_tasks(self) -> int:
        return sum(s.active for j in self.jobs for s in j.stages)

    @property
    def fraction(self) -> Optional[float]:
        return self.completed / self.tasks if self.tasks else None

    def summary(self) -> str:
        if not self.jobs:
            return "no Spark job yet"
        running = sum(1 for j in self.jobs if j.status == "RUNNING")
        stages = self.active_stages
        text = (f"{len(self.jobs)} job(s), {running} running · tasks {self.completed}/{self.tasks} done, "
                f"{self.running_tasks} running")
        if stages:
            text += " · stage " + ", ".join(f"{s.stage_id} ({s.completed}/{s.tasks})" for s in stages[:3])
        return text


@dataclass(frozen=True)
class StatementText:
    """One statement of a script: its text, kind, 0-based index, 1-based line and character offset."""

    text: str
    kind: str
    index: int
    line: int
    offset: int


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class LoneSurrogate:
    """Where a text holds a lone UTF-16 surrogate (JSON's "\\ud800" escape): not text, since it cannot be
    encoded as UTF-8 for Spark, the store or a file. Line (1-based) and position within it, as the editor
    marks them; the statement check and REST's body check say it in the same words."""

    code_point: int
    line: int
    position: int

    def __str__(self) -> str:
        return f"a lone UTF-16 surrogate (U+{self.code_point:04X}) at line {self.line}, position {self.position}"


def lone_surrogate(text: str) -> Optional[LoneSurrogate]:
    """The first lone surrogate of ``text``, or None."""
    found = _LONE_SURROGATE.search(text)
    if found is None:
        return None
    before = text[:found.start()]
    return LoneSurrogate(ord(found.group()), before.count("\n") + 1, found.start() - (before.rfind("\n") + 1))


def type_name(type_json_: dict) -> str:
    """Short SQL-ish label for a type JSON, for headers: BIGINT, DECIMAL(10,2), ARRAY<INT>."""
    kind = type_json_["type"]
    if kind == "DECIMAL":
        return f"DECIMAL({type_json_['precision']},{type_json_['scale']})"
    if kind in ("CHAR",) or (kind == "VARCHAR" and type_json_["length"] < 2147483647):
        return f"{kind}({type_json_['length']})"
    if kind == "VARCHAR":
        return "STRING"
    if kind == "ARRAY":
        return f"ARRAY<{type_name(type_json_['elementType'])}>"
    if kind == "MAP":
        return f"MAP<{type_name(type_json_['keyType'])}, {type_name(type_json_['valueType'])}>"
    if kind == "ROW":
        return "ROW<" + ", ".join(f"{f['name']} {type_name(f['fieldType'])}" for f in type_json_["fields"]) + ">"
    return kind


# -- the workspace: the workbench store's values (gateway/store/) ---------------------------------

LOCAL_USER = "local"  # the one user while there is no authentication
MAX_TIMEOUT_MS = 30 * 24 * 3600 * 1000  # the longest statement timeout accepted: 30 days


@dataclass(frozen=True)
class EditorTab:
    """One editor tab of a user: its draft text, saved as the user types, in tab order."""

    tab_id: str
    title: str
    text: str
    position: int
    updated_at: dt.datetime
    parameter_values: Optional[dict] = None  # the tab's last :name values (JSON values; dates as ISO text)


@dataclass(frozen=True)
class SavedQuery:
    """A query a user saved under a name, to find (search) and open again."""

    query_id: str
    name: str
    description: str
    text: str
    created_at: dt.datetime
    updated_at: dt.datetime


class HistoryStatus(enum.Enum):
    """A history entry's status: RUNNING until the operation ends, then how it ended."""

    RUNNING = "RUNNING"
    FINISHED = "FINISHED"
    ERROR = "ERROR"
    CANCELED = "CANCELED"


@dataclass(frozen=True)
class HistoryEntry:
    """One statement (or script) run through execute_statement, recorded by the gateway itself."""

    entry_id: int
    user: str
    session_handle: str
    operation_handle: Optional[str]
    statement: str
    status: str
    started_at: dt.datetime
    duration_ms: Optional[int]
    rows: Optional[int]
    error_class: Optional[str]
    kinds: tuple[str, ...] = ()  # each statement's kind as the gateway's analysis read it, in order
    parameters: Optional[dict] = None  # the :name values the run bound (JSON values; dates as ISO text)
