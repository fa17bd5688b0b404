"""Spark's built-in functions, loaded once per process: names, expression classes, usage text.

Built-ins do not change while a process runs, and completion (signatures), the catalog
(``list_functions``, ``get_function``), the modules' ``core`` module and compiled plans
(function versions) all need them, so this is the one cache of them:

* names come from ``SHOW SYSTEM FUNCTIONS`` on first use (public SQL, ~0.2 s);
* details (each name's expression class and usage text) load in the background: from the
  driver JVM's function registry (~1 s) where ``supports(spark, Capability.JVM)``, else from the
  catalog's function list (``spark.catalog.listFunctions()``, one call that carries each usage), without
  classes; a name the list lacks is read by ``DESCRIBE FUNCTION``.

``builtin_functions()`` is the process's cache; a test may swap ``BUILTINS`` for a fresh one.
"""
from __future__ import annotations

import logging
import threading
from typing import Callable, Iterable, Optional

from gateway.errors import GatewayError
from gateway.spark.backend import Capability, is_connect, supports
from gateway.spark.connect import command_rows
from gateway.spark.functions import RegisteredFunction, builtin_registry

log = logging.getLogger(__name__)


def show_system_functions(spark) -> list[str]:
    """Names of Spark's built-in functions (operators and table functions too), lower case."""
    return [row[0] for row in spark.sql("SHOW SYSTEM FUNCTIONS").collect()]


def described_usage(spark, name: str) -> str:
    """A function's usage text from ``DESCRIBE FUNCTION`` (the path without the JVM). On Spark Connect the rows
    are read from ``spark.sql``'s own answer: ``collect()`` sent them back to the server and ran them again, a
    second round trip for each of the ~600 built-ins loaded in the background."""
    df = spark.sql(f"DESCRIBE FUNCTION `{name.replace('`', '``')}`")
    table = command_rows(df) if is_connect(spark) else None
    lines = table.column(0).to_pylist() if table is not None and table.num_columns else [r[0] for r in df.collect()]
    return next((line[len("Usage:"):].strip() for line in lines if line.startswith("Usage:")), "")


def signature_of(usage: str, name: str) -> str:
    """``substr(str, pos[, len])`` from Spark's usage text ``substr(str, pos[, len]) - Returns …``."""
    for line in (usage or "").strip().splitlines():
        head = line.strip().split(" - ")[0].strip()
        if head.lower().startswith(name.lower()):
            return head
    return ""


def catalog_usages(spark) -> dict[str, str]:
    """Each listed function's usage text from ``spark.catalog.listFunctions()``: one call on Spark Connect where
    ``DESCRIBE FUNCTION`` took one ExecutePlan per built-in (~600 in the background of a process's first Connect
    session). The catalog reads the same ``ExpressionInfo`` usage as ``DESCRIBE FUNCTION``."""
    return {function.name.lower(): (function.description or "").strip() for function in spark.catalog.listFunctions()}


class BuiltinFunctions:
    """The built-in functions of the process's Spark; thread-safe, each part loaded once.

    Args:
        load_names: ``spark -> names``; ``SHOW SYSTEM FUNCTIONS`` unless a test counts calls.
        load_registry: ``spark -> [RegisteredFunction]`` through the JVM.
        describe: ``(spark, name) -> usage`` without the JVM, for a name ``load_usages`` lacks.
        load_usages: ``spark -> {name: usage}`` without the JVM, in one call.
    """

    def __init__(self, load_names: Callable[..., Iterable[str]] = show_system_functions,
                 load_registry: Callable[..., list[RegisteredFunction]] = builtin_registry,
                 describe: Callable[..., str] = described_usage,
                 load_usages: Callable[..., dict[str, str]] = catalog_usages) -> None:
        self._load_names, self._load_registry, self._describe = load_names, load_registry, describe
        self._load_usages = load_usages
        self._names_lock = threading.Lock()
        self._names: Optional[frozenset[str]] = None
        self._details_lock = threading.Lock()
        self._details_loader: Optional[threading.Thread] = None
        self._classes: dict[str, list[str]] = {}
        self._usages: dict[str, str] = {}
        self._signatures: dict[str, str] = {}
        self._details_error: Optional[Exception] = None
        self._details_have_classes = False  # the JVM registry was read, not only DESCRIBE FUNCTION

    # -- names: at once ------------------------------------------------------------------------------

    def names(self, spark) -> frozenset[str]:
        """Every built-in name, from ``SHOW SYSTEM FUNCTIONS`` the first time any session asks."""
        with self._names_lock:
            if self._names is None:
                self._names = frozenset(self._load_names(spark))
            return self._names

    @property
    def names_loaded(self) -> bool:
        return self._names is not None

    def load_names_in_background(self, spark) -> None:
        """Start loading the names unless loaded: a session opens without waiting for them (on a cold managed
        engine ``SHOW SYSTEM FUNCTIONS`` took seconds), and they are there by the time completion asks."""
        if self.names_loaded:
            return

        def load() -> None:
            try:
                self.names(spark)
            except Exception:  # noqa: BLE001 - the next caller of names() loads them and sees the error
                log.debug("loading the built-in function names in the background failed", exc_info=True)

        threading.Thread(target=load, daemon=True, name="builtin-function-names").start()

    # -- details: in the background --------------------------------------------------------------------

    def load_details_in_background(self, spark) -> threading.Thread:
        """Start loading classes and usage text unless loaded or loading; a failed load starts again.

        A process can hold sessions of both kinds (an embedded Spark and a Spark Connect engine): a load
        made without the JVM has no expression classes, so the first session with a JVM loads again
        rather than reading the JVM-less load's empty classes for the rest of the process.
        """
        with self._details_lock:
            loader = self._details_loader
            finished = loader is not None and not loader.is_alive()
            if loader is None or (finished and self._details_error is not None) or (
                    finished and not self._details_have_classes and supports(spark, Capability.JVM)):
                self._details_error = None
                loader = self._details_loader = threading.Thread(
                    target=self._load_details, args=(spark,), daemon=True, name="builtin-functions")
                loader.start()
            return loader

    def _load_details(self, spark) -> None:
        try:
            if supports(spark, Capability.JVM):
                classes: dict[str, list[str]] = {}
                for entry in self._load_registry(spark):
                    classes.setdefault(entry.class_name, []).append(entry.name)
                    self._record_usage(entry.name, entry.usage)
                self._classes = {cls: sorted(set(names)) for cls, names in classes.items()}
                self._details_have_classes = True
            else:  # Spark Connect and other clients without a JVM: no expression classes
                usages = self._load_usages(spark)
                for name in sorted(self.names(spark)):
                    self._record_usage(name, usages[name] if name in usages else self._describe(spark, name))
        except Exception as exc:  # kept for wait_details/classes to report; names still work
            self._details_error = exc
            log.warning("loading the built-in functions' usage text failed: %s", exc)

    def _record_usage(self, name: str, usage: str) -> None:
        self._usages[name] = usage
        signature = signature_of(usage, name)
        if signature:
            self._signatures[name] = signature

    def wait_details(self, timeout_s: float) -> bool:
        """Wait for a started detail load; True when it finished without an error."""
        loader = self._details_loader
        if loader is None:
            return False
        loader.join(timeout_s)
        return not loader.is_alive() and self._details_error is None

    def signature(self, name: str) -> str:
        """``upper(str)``, or "" while details load (or when Spark's usage text has none)."""
        return self._signatures.get(name, "")

    def usage(self, name: str) -> str:
        """Spark's usage text of a built-in, or "" while details load."""
        return self._usages.get(name, "")

    def classes(self, spark) -> dict[str, list[str]]:
        """Expression class → the names Spark's registry knows it by; {} without the JVM.

        Waits for the detail load (started here if need be): plans map analyzed-plan nodes to names.
        """
        if not supports(spark, Capability.JVM):
            return {}
        loader = self.load_details_in_background(spark)
        loader.join()
        if self._details_error is None and not self._details_have_classes:  # joined a JVM-less load
            self.load_details_in_background(spark).join()
        if self._details_error is not None:
            raise GatewayError(f"Spark's built-in function registry could not be read: {self._details_error}")
        return self._classes


BUILTINS = BuiltinFunctions()


def builtin_functions() -> BuiltinFunctions:
    """The process's built-in function cache."""
    return BUILTINS
