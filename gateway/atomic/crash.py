"""Fault injection for the crash-recovery tests: die by SIGKILL at a named publishing step.

Only a process started with ``WORKBENCH_ATOMIC_CRASH_AT=<step>`` in its environment is
affected (the test's child process); every other process ignores the call.
"""
from __future__ import annotations

import os
import signal

CRASH_ENV = "WORKBENCH_ATOMIC_CRASH_AT"


def crash_point(step: str) -> None:
    if os.environ.get(CRASH_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)
