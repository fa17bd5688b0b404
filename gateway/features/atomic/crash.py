"""Fault injection for the crash-recovery tests: die by SIGKILL at a named publishing step.

Only a process started with ``WORKBENCH_ATOMIC_CRASH_AT=<step>`` (or ``<step>@<table>``: only the write
of that table) in its environment is affected (the test's child process); every other process ignores
the call. A process that leads its own process group takes the group (its Spark JVM) down with it, like
a machine crash. ``WORKBENCH_ATOMIC_HOLD_AT=<step>@<table>,…`` stops those writes at those steps until
the process dies: one crash then finds several writes at several publishing steps, and one restart
repairs them all (each restart of the test's child is a Spark start).
"""
from __future__ import annotations

import os
import signal
import threading
from typing import Optional

CRASH_ENV = "WORKBENCH_ATOMIC_CRASH_AT"
HOLD_ENV = "WORKBENCH_ATOMIC_HOLD_AT"

held: set[str] = set()  # the ``step@table`` holds reached in this process
_never = threading.Event()


def crash_point(step: str, table: Optional[str] = None) -> None:
    where = f"{step}@{(table or '').lower()}"
    if os.environ.get(CRASH_ENV) in (step, where):
        if os.getpgrp() == os.getpid():
            os.killpg(os.getpgrp(), signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)
    if where in os.environ.get(HOLD_ENV, "").split(","):
        held.add(where)
        _never.wait()  # until the process is killed
