"""Spark failures described once: error class, SQLSTATE, position and the real root cause.

A failure reaches Python in one of three shapes:

- pyspark's own exceptions (``AnalysisException``, ``ParseException``, ``PythonException`` …),
  which already carry Spark's condition and SQLSTATE;
- a raw ``py4j.protocol.Py4JJavaError`` ("An error occurred while calling o5291.getResult"),
  when pyspark does not know the Java exception, e.g. a streamed result whose job failed: the
  real error sits a few causes down, under ``Exception thrown in awaitResult`` wrappers;
- anything else (a bug of ours, an OSError).

``describe_failure`` turns each into the JSON every front end shows; ``is_engine_failure`` tells
a Spark failure (a SQL error to the user) from a bug in the gateway (an internal error).
"""
from __future__ import annotations

import logging
import re
import traceback
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from py4j.protocol import Py4JError, Py4JJavaError
from pyspark.errors import PySparkException

from gateway.spark.connect import connection_lost

log = logging.getLogger(__name__)

# What Spark, Py4J and pyspark raise: a failure of the engine, not of the gateway's own code.
ENGINE_ERRORS: tuple[type[BaseException], ...] = (Py4JError, PySparkException)

STACK_CHARS = 8000
_MAX_CAUSES = 20
_PYTHON_EXCEPTION_CLASS = "org.apache.spark.api.python.PythonException"
_PYTHON_EXCEPTION_CONDITION = "PYTHON_EXCEPTION"
# Exceptions that only say "something below failed": the root cause is their cause.
_WRAPPER_CLASSES = frozenset({
    "java.util.concurrent.ExecutionException", "java.util.concurrent.CompletionException",
    "java.lang.reflect.InvocationTargetException", "java.lang.reflect.UndeclaredThrowableException",
})
_WRAPPER_MESSAGES = ("Exception thrown in awaitResult", "Job aborted due to stage failure")

_LINE_POS = re.compile(r"\(line (\d+), pos (\d+)\)")
_LINE_POSITION = re.compile(r"== SQL \(line (\d+), position (\d+)\) ==")
_PYTHON_FRAME = re.compile(r'^\s+File "')
_PYTHON_ERROR_LINE = re.compile(r"^([A-Za-z_][\w.]*)(?::\s?(.*))?$")


TOO_DEEPLY_NESTED = "STATEMENT_TOO_DEEPLY_NESTED"
ENGINE_DOWN = "ENGINE_DOWN"  # the engine is gone (a dead driver JVM, an unreachable Spark Connect server)
_TOO_DEEP = frozenset({"StackOverflowError", "java.lang.StackOverflowError"})
_JAVA_CLASS = re.compile(r"(?:^|\s|: )((?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Throwable))\b")


def _java_class_in(message: str) -> str:
    """The simple name of the Java exception a Py4J message names (``java.lang.X: …`` → ``X``);
    a Py4J failure that names none is ``JavaError``, never Py4J's own wrapper class."""
    match = _JAVA_CLASS.search(message or "")
    return match.group(1).rsplit(".", 1)[-1] if match else "JavaError"


def is_engine_failure(exc: BaseException) -> bool:
    """True for a failure Spark reported (Py4J, pyspark, a Java exception); False for a bug of ours."""
    return isinstance(exc, ENGINE_ERRORS)


@dataclass
class _Root:
    """The exception that says what really went wrong, read once."""

    message: str
    error_class: Optional[str] = None
    sqlstate: Optional[str] = None
    message_parameters: Optional[dict] = None
    query_starts: list[int] = field(default_factory=list)   # where the SQL contexts start in the statement
    python_traceback: Optional[str] = None                  # a Python worker's traceback


def describe_failure(exc: BaseException, statement: Optional[str] = None, line_offset: int = 0,
                     statement_index: Optional[int] = None) -> dict:
    """``{"root_cause", "exception_stack", "error_class", "sqlstate", …}`` of a failure.

    Args:
        exc: what was raised (pyspark, Py4J, or any other exception).
        statement: the statement's text, to turn Spark's query context into a line/position.
        line_offset: lines before the statement in its script (``line`` counts in the script).
        statement_index: the statement's index in its script, copied into the result.

    Returns:
        ``root_cause`` (the real cause's message, without Spark's ``== SQL ==`` excerpt),
        ``exception_stack``, ``error_class`` (Spark's condition, else the exception's type),
        ``sqlstate``, and when known ``message_parameters``, ``line`` (1-based), ``position``
        (0-based), ``python_error`` (the type a Python worker raised) and ``statement_index``.
    """
    lost = connection_lost(exc)
    if lost is not None:  # Spark Connect's server is gone: not the statement's fault, and its session is lost
        return {"root_cause": f"the Spark Connect server is unreachable or has restarted ({lost}); this statement "
                              f"ended and the session's temporary views, settings and functions on the server are "
                              f"lost. The next statement starts a new Spark Connect session once the server answers "
                              f"again (docs/engines.md)",
                "exception_stack": str(exc)[-STACK_CHARS:], "error_class": ENGINE_DOWN, "sqlstate": "08006",
                **({"statement_index": statement_index} if statement_index is not None else {})}
    root = _root_of(exc)
    driver_stack = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    data: dict[str, Any] = {
        "root_cause": root.message.split("\n== SQL")[0].split("\n\n== SQL ==")[0].strip(),
        "exception_stack": driver_stack[-STACK_CHARS:],
        "error_class": root.error_class,
        "sqlstate": root.sqlstate,
    }
    if root.error_class is not None:
        data["message_parameters"] = root.message_parameters
    else:
        data["error_class"] = _java_class_in(str(exc)) if isinstance(exc, Py4JError) else type(exc).__name__
    if data["error_class"] in _TOO_DEEP:
        data["error_class"] = TOO_DEEPLY_NESTED
        data["root_cause"] = (f"the statement is too deeply nested for Spark ({root.message.strip() or data['error_class']}):"
                              f" flatten it with a WITH clause, a temporary view or several statements")
    if root.python_traceback:
        error_line = _python_error_line(root.python_traceback)
        if error_line:
            data["root_cause"] = error_line
            data["python_error"] = _PYTHON_ERROR_LINE.match(error_line).group(1)
        worker = "Python worker traceback:\n" + root.python_traceback.strip()[-STACK_CHARS // 2:] + "\n\n"
        data["exception_stack"] = worker + driver_stack[-(STACK_CHARS - len(worker)):]
    line, position = _line_and_position(root, statement)
    if line is not None:
        data["line"] = line + line_offset
        data["position"] = position
    if statement_index is not None:
        data["statement_index"] = statement_index
    return data


# -- finding the root cause ------------------------------------------------------------------

def _root_of(exc: BaseException) -> _Root:
    try:
        if isinstance(exc, Py4JJavaError):
            return _java_root(exc.java_exception, fallback=str(exc))
        if isinstance(exc, PySparkException):
            # A captured exception keeps its Java throwable (a pyspark internal): read the same chain,
            # so a Python worker's error under a Spark condition is still found.
            origin = getattr(exc, "_origin", None)
            return _java_root(origin, fallback=str(exc)) if origin is not None else _pyspark_root(exc)
    except Py4JError:  # the JVM went away while we asked it; describe what we hold
        log.debug("reading the Java cause of %s failed", type(exc).__name__, exc_info=True)
    return _Root(str(exc).strip())


def _pyspark_root(exc: PySparkException) -> _Root:
    """pyspark's own errors (and Spark Connect's) carry their condition in Python."""
    condition = exc.getCondition()
    parameters = exc.getMessageParameters()
    root = _Root(str(exc).strip(), condition, exc.getSqlState(), parameters)
    if condition == _PYTHON_EXCEPTION_CONDITION and parameters:
        root.python_traceback = parameters.get("traceback")
    root.query_starts = [start for start in (_start_of(c) for c in exc.getQueryContext()) if start is not None]
    return root


def _java_root(throwable, fallback: str) -> _Root:
    """The cause that explains a Java failure: a Python worker's error, else the first Spark
    error with a condition, else the first exception that is not a wrapper."""
    from pyspark import SparkContext
    from py4j.java_gateway import is_instance_of

    gateway, jvm = SparkContext._gateway, SparkContext._jvm
    if throwable is None or gateway is None or jvm is None:
        return _Root(fallback.strip())
    chain = list(_causes(throwable))
    names = [t.getClass().getName() for t in chain]
    spark_errors = [is_instance_of(gateway, t, "org.apache.spark.SparkThrowable") for t in chain]
    conditions = [jvm.PythonErrorUtils.getCondition(t) if spark else None for t, spark in zip(chain, spark_errors)]
    meaningful = [i for i, t in enumerate(chain) if not _is_wrapper(names[i], t)]
    chosen = next((i for i in meaningful if names[i] == _PYTHON_EXCEPTION_CLASS), None)
    if chosen is None:
        chosen = next((i for i in meaningful if conditions[i]), meaningful[0] if meaningful else len(chain) - 1)
    root, name = chain[chosen], names[chosen]
    # A job abort without a cause carries the task's stack in its message: keep the words.
    message = (root.getMessage() or "").split("\n\tat ")[0].strip()
    if not spark_errors[chosen]:
        return _Root(f"{name}: {message}" if message else name, name.rsplit(".", 1)[-1])
    utils = jvm.PythonErrorUtils
    parameters = dict(utils.getMessageParameters(root))
    described = _Root(message or name, conditions[chosen], utils.getSqlState(root), parameters)
    if name == _PYTHON_EXCEPTION_CLASS:
        described.python_traceback = parameters.get("traceback") or message
    for context in utils.getQueryContext(root):
        if context.contextType().toString() == "SQL":
            described.query_starts.append(context.startIndex())
    return described


def _causes(throwable) -> Iterator:
    seen = 0
    while throwable is not None and seen < _MAX_CAUSES:
        yield throwable
        throwable, seen = throwable.getCause(), seen + 1


def _is_wrapper(name: str, throwable) -> bool:
    if name in _WRAPPER_CLASSES:
        return throwable.getCause() is not None
    if name == "org.apache.spark.SparkException":
        message = throwable.getMessage() or ""
        return message.startswith(_WRAPPER_MESSAGES) and throwable.getCause() is not None
    return False


def _python_error_line(python_traceback: str) -> Optional[str]:
    """``ModuleNotFoundError: No module named 'x'``: the first line of the error a traceback ends with."""
    lines = python_traceback.strip("\n").splitlines()
    last_frame = max((i for i, line in enumerate(lines) if _PYTHON_FRAME.match(line)), default=-1)
    for line in lines[last_frame + 1:]:
        if line and not line[0].isspace() and _PYTHON_ERROR_LINE.match(line) \
                and not line.startswith("Traceback ("):
            return line.strip()
    return None


# -- where in the statement ------------------------------------------------------------------

def _start_of(context) -> Optional[int]:
    start = context.startIndex()
    return start if start is not None and start >= 0 else None


def _line_and_position(root: _Root, statement: Optional[str]) -> tuple[Optional[int], Optional[int]]:
    """1-based line and 0-based position: from the message's ``(line 2, pos 5)``, else from the
    first SQL query context Spark attached."""
    match = _LINE_POS.search(root.message) or _LINE_POSITION.search(root.message)
    if match:
        line, position = int(match.group(1)), int(match.group(2))
        if match.re is _LINE_POSITION:
            position -= 1  # "position" is 1-based in that header
        return line, position
    if statement is not None:
        for start in root.query_starts:
            if start is not None and start >= 0:
                before = statement[:start]
                return before.count("\n") + 1, start - (before.rfind("\n") + 1)
    return None, None
