"""Restart the workbench process when its Spark driver died (exit code 75), for ``./workbench`` and
``python -m gateway serve`` alike.

    python -m gateway.supervisor -- COMMAND [ARGS …]

A process whose driver JVM died exits with ``ENGINE_DIED_EXIT`` (gateway/core/health.py); the
supervisor starts it again, at most ``health.max_restarts`` times in a row. A process that ran
``health.restart_reset_after_s`` or longer before its driver died counts as healthy: the count
starts again, so that a workbench that runs for weeks is not given up on after its fifth death
(issue 27: the old counter never reset, and the port stayed closed). Any other exit code ends the
supervisor with that code. SIGTERM and SIGINT go to the process, which then ends the supervisor.
"""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from typing import Callable, Optional, Sequence

ENGINE_DIED_EXIT = 75  # gateway.core.health.ENGINE_DIED_EXIT, without importing Spark's side


def supervise(command: Sequence[str], max_restarts: int, reset_after_s: float, pause_s: float = 2.0,
              say: Callable[[str], None] = lambda line: print(line, file=sys.stderr, flush=True)) -> int:
    restarts = 0
    stopping = False
    child: Optional[subprocess.Popen] = None

    def forward(signum, _frame):
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        while True:
            started = time.monotonic()
            child = subprocess.Popen(list(command))
            code = child.wait()
            ran_s = time.monotonic() - started
            if code != ENGINE_DIED_EXIT or stopping:
                return code
            if ran_s >= reset_after_s:
                restarts = 0  # it was healthy for a while: this death is not part of a crash loop
            if restarts >= max_restarts:
                say(f"workbench: the Spark driver died (exit code {code}) {restarts + 1} times in a row, each within "
                    f"{reset_after_s:g} s of its start (setting health.restart_reset_after_s); not restarting again "
                    f"(health.max_restarts = {max_restarts}). See the log for why the driver dies")
                return code
            restarts += 1
            say(f"workbench: the Spark driver died (exit code {code}) after {ran_s:.0f} s; restarting "
                f"({restarts} of {max_restarts} in a row)")
            time.sleep(pause_s)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def main(argv: Optional[list[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--"]:
        argv = argv[1:]
    if not argv:
        print("usage: python -m gateway.supervisor -- COMMAND [ARGS …]", file=sys.stderr)
        return 2
    from gateway.config import load_config
    from gateway.errors import ConfigurationError

    try:
        config = load_config()
    except ConfigurationError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return supervise(argv, int(config["health.max_restarts"]), float(config["health.restart_reset_after_s"]))


if __name__ == "__main__":
    sys.exit(main())
