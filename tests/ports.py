"""Ports for servers the tests start in child processes.

A port the OS hands out for ``bind(0)`` is free only until someone else binds port 0: a child's
Spark (its accumulator server, block manager, web UI) binds ephemeral ports too and can be given
the very port chosen for our server, which then fails with "address already in use" while the test
talks to Spark's socket. So the ports are picked below the kernel's ephemeral range, where the OS
never assigns one by itself, and checked free.
"""
from __future__ import annotations

import random
import socket
from pathlib import Path

_FALLBACK_EPHEMERAL_LOW = 32768


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return _FALLBACK_EPHEMERAL_LOW


def free_port(host: str = "127.0.0.1") -> int:
    """A port that is free on ``host`` now and outside the range the OS assigns by itself."""
    high = _ephemeral_low() - 1
    low = max(1024, high - 12000)
    for _ in range(200):
        port = random.randint(low, high)
        with socket.socket() as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port on {host} between {low} and {high} after 200 tries")
