"""Fault injection for the crash-recovery tests: die by SIGKILL at a named publishing step.

Only a process started with ``WORKBENCH_ATOMIC_CRASH_AT=<step>`` in its environment is
affected (the test's child process); every other process ignores the call. A process that
leads its own process group takes the group (its Spark JVM) down with it, like a machine crash.
"""
from __future__ import annotations

import os
import signal

CRASH_ENV = "WORKBENCH_ATOMIC_CRASH_AT"


def crash_point(step: str) -> None:
    if os.environ.get(CRASH_ENV) == step:
        if os.getpgrp() == os.getpid():
            os.killpg(os.getpgrp(), signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)
