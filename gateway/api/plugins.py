"""The plugin API: a ``Feature`` subclass named by an entry point is the one registration point of a feature.

The built-in features (modules, jars, atomic writes, plans, completion) register exactly as an
outside plugin does (Datasette's pattern): an entry point in the group ``spark_sql_workbench.features``
names the class, in this project's ``pyproject.toml`` or in the plugin's own. A feature declares, as
class attributes, what the gateway must know before it starts (settings, statement grammar, pages),
and implements hooks for the rest:

- ``settings``: its settings (``gateway.config.Setting``), read from the same file and environment;
- ``statements``: the statement kinds it adds to the grammar (``StatementSpec``), each saying who may run
  it (``access``: ``Access.USERS`` or ``Access.ADMINS``; a kind that says nothing is for admins) and
  whether it loads code (``loads_code``);
- ``pages``: its Streamlit pages (``PageSpec``: a file path, a title, an icon);
- ``start(host)`` once the root SparkSession is up, ``stop()`` at shutdown;
- ``handlers()``: the statement kinds it runs itself (its own or core ones, e.g. CTAS);
- ``open_session``/``close_session``: per-session state, kept in ``session.extensions[name]``;
- ``check_statement``: a guard run before every statement (it may refuse one by raising);
- ``preparers()``: slow work by statement kind (a download), run after the guards and before the
  session's statement lock;
- ``schema_changed``: told before and after a statement that may change the catalog;
- ``describe_functions``/``describe_function``: add what it knows to the catalog's function infos;
- ``api``: its protocol (a ``typing.Protocol`` in its own ``api.py``); ``calls()`` implements exactly its
  calls, by name, and front ends reach them through ``gateway.api(protocol)``; a call that loads code or is
  for admins says so in the protocol (``@loads_code``, ``@admin_only``, ``gateway.api.calls``);
- ``rest_routers()``: FastAPI routers over the contract, mounted under ``/v2`` (and ``/v1`` when
  ``rest_v1`` is true).

Adding a feature is its own folder under ``gateway/features/`` plus one entry point. This module depends
on nothing of the gateway but the error family: core and the features depend on it, not on each other.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from enum import Enum
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Mapping, Optional, Protocol

from gateway.errors import ConfigurationError, GatewayError

if TYPE_CHECKING:  # pragma: no cover
    from gateway.config import WorkbenchConfig

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "spark_sql_workbench.features"


@dataclass(frozen=True)
class Setting:
    """A setting declared once: its dotted key, its default, and the help text the docs repeat."""

    key: str  # dotted: section.name
    default: Any
    help: str

    @property
    def env(self) -> str:
        return "WORKBENCH_" + self.key.replace(".", "_").upper()


class Access(str, Enum):
    """Who may run a statement kind when authentication is on (admins run every kind).

    A kind that declares nothing is ``UNDECLARED`` and refused for non-admins: a feature opens its kinds to
    ordinary users by saying so, never by forgetting to (fail closed).
    """

    UNDECLARED = "undeclared"  # refused for non-admins, saying the kind declares no access
    USERS = "users"            # every signed-in user may run it (code it loads is still checked)
    ADMINS = "admins"          # admins only, whatever else is set


@dataclass(frozen=True)
class StatementSpec:
    """One statement kind of the grammar and how the gateway treats it.

    ``starts``: the leading words that make a statement of this kind (upper case); the longest
    matching start wins across features, and features win over core's rules.
    ``returns_rows``: the statement answers rows. ``configures``: ``configure_session`` accepts it.
    ``read_only``: it cannot change the catalog, so completion keeps its caches.
    ``access``: who may run it when authentication is on (``Access``; undeclared: admins only).
    ``loads_code``: it puts code into the driver (a module, a jar): for admins when
    ``auth.admin_only_code`` is on, and never from a local path for a non-admin.
    ``journaled``: it changes only the session's own state, so the session journal records it and a
    restored session replays it (docs/users.md).
    ``takes_resources``: its arguments are resource URIs (jars, files): the analysis lists them in
    ``resources`` for the guards and the jars bookkeeping.
    """

    kind: str
    starts: tuple[tuple[str, ...], ...] = ()
    returns_rows: bool = False
    configures: bool = False
    read_only: bool = False
    loads_code: bool = False
    access: Access = Access.UNDECLARED
    journaled: bool = False
    takes_resources: bool = False

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "access", Access(self.access))
        except ValueError:
            raise ConfigurationError(f"the statement kind {self.kind} declares access={self.access!r}; use one of "
                                     f"{', '.join(repr(a.value) for a in Access)} (gateway.api.Access)") from None


class FeatureNotInstalledError(GatewayError):
    """A contract call of a feature this gateway does not have (not installed, or switched off)."""

    http_status = 501


@dataclass(frozen=True)
class PageSpec:
    """A Streamlit page of a feature; ``path`` is relative to the project root or absolute."""

    path: str
    title: str
    icon: str = ""
    order: int = 50  # core pages: editor 0, catalog 10, functions 20; session last (100)


class FeatureHost(Protocol):
    """What a feature may use of the gateway it is plugged into."""

    config: "WorkbenchConfig"
    root: Any  # the root SparkSession

    def session(self, handle) -> Any:
        """The live Session of a handle (SessionNotFoundError otherwise)."""

    def between_statements(self, handle, busy_wait_s: float = 60.0):
        """A context manager: the Session, with its statement lock held."""

    def split(self, text: str) -> list:
        """Statements of a script (the gateway's own splitter and grammar)."""

    def configure(self, handle, statement: str) -> None:
        """Run one configuring statement in a session, as configure_session does."""

    def dataframe(self, session, statement) -> Any:
        """Run one statement as the gateway would (guards, handlers, then Spark)."""

    def feature(self, name: str) -> Optional["Feature"]:
        """Another started feature by name, or None."""

    def schema_changed(self, session) -> None:
        """Tell every feature that the session's catalog or functions may have changed."""

    def execute_statement(self, handle, statement: str, **options) -> Any:
        """Submit a statement as a client would (queued, run, fetched): the contract's call; its handle."""


StatementHandler = Callable[[Any, Any], Any]


class Feature:
    """Base of every feature; override what the feature needs."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    settings: ClassVar[tuple] = ()
    statements: ClassVar[tuple[StatementSpec, ...]] = ()
    pages: ClassVar[tuple[PageSpec, ...]] = ()
    api: ClassVar[Optional[type]] = None  # its protocol; ``calls()`` implements exactly its calls
    rest_v1: ClassVar[bool] = False

    def __init__(self) -> None:
        self.host: Optional[FeatureHost] = None

    # -- lifecycle -----------------------------------------------------------------------------

    def enabled(self, config: "WorkbenchConfig") -> bool:
        """Whether to start at all under this configuration (grammar and settings stay known)."""
        return True

    def start(self, host: FeatureHost) -> None:
        self.host = host

    def stop(self) -> None:
        pass

    # -- statements ----------------------------------------------------------------------------

    def handlers(self) -> Mapping[str, StatementHandler]:
        return {}

    def check_statement(self, session, statement) -> None:
        pass

    def preparers(self) -> Mapping[str, StatementHandler]:
        """Slow work a kind of statement needs before it touches its session (a jar's download): run in
        the worker after the guards but before the session's statement lock, so that the session's other
        statements go on meanwhile. The handler then finds the work done."""
        return {}

    def schema_changed(self, session) -> None:
        pass

    # -- sessions ------------------------------------------------------------------------------

    def open_session(self, session) -> None:
        pass

    def close_session(self, session) -> None:
        pass

    def state(self, session) -> Any:
        """This feature's per-session state (set by ``open_session``)."""
        return session.extensions.get(self.name)

    # -- catalog -------------------------------------------------------------------------------

    def describe_functions(self, session, infos: list) -> list:
        return infos

    def describe_function(self, session, detail, name: str):
        return detail

    # -- front ends ----------------------------------------------------------------------------

    def calls(self) -> Mapping[str, Callable]:
        """The calls of ``api``, by name (the gateway checks there is one for each, and no other)."""
        return {}

    def rest_routers(self) -> list:
        return []


# ---------------------------------------------------------------------------------------------
# Discovery
# ---------------------------------------------------------------------------------------------

_lock = threading.Lock()
_classes: Optional[list[type[Feature]]] = None


def feature_classes() -> list[type[Feature]]:
    """Every feature class named by an entry point, loaded once per process, in name order."""
    global _classes
    with _lock:
        if _classes is None:
            _classes = _load_entry_points()
        return list(_classes)


def _load_entry_points() -> list[type[Feature]]:
    points = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name)
    if not any(p.value.startswith("gateway.features.") for p in points):
        raise ConfigurationError(
            f"no built-in features are registered (entry point group {ENTRY_POINT_GROUP!r} has "
            f"{[p.name for p in points] or 'nothing'}): the workbench itself is not installed in this Python. "
            f"Start it with ./workbench or run ./run-tests, which install it, or run `pip install -e .` "
            f"in the project folder.")
    classes: list[type[Feature]] = []
    for point in points:
        try:
            cls = point.load()
        except Exception as exc:  # a broken plugin is named, not skipped
            raise ConfigurationError(f"feature {point.name!r} ({point.value}) cannot be loaded: "
                                     f"{type(exc).__name__}: {exc}. Reinstall it, or uninstall the plugin "
                                     f"that provides it.") from exc
        if not (isinstance(cls, type) and issubclass(cls, Feature)) or not cls.name:
            raise ConfigurationError(f"entry point {point.name!r} ({point.value}) is not a named "
                                     f"gateway.features.Feature subclass")
        if any(c.name == cls.name for c in classes):
            raise ConfigurationError(f"two features are named {cls.name!r}; uninstall one of them")
        classes.append(cls)
    return classes


def feature_settings() -> Iterator:
    for cls in feature_classes():
        yield from cls.settings


def feature_statements() -> Iterator[StatementSpec]:
    for cls in feature_classes():
        yield from cls.statements
