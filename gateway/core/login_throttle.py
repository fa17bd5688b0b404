"""Wrong passwords and API tokens are rate-limited, per user name and per client address (issue 27).

After ``auth.login_max_failures`` wrong ones in a row for one key (``user:alice``, ``client:10.0.0.7``)
the key is locked for ``auth.login_lockout_s``; every further wrong one after a lock doubles the next
lock, up to ``auth.login_max_lockout_s``. While a key is locked every attempt is refused at once, the
right password too (no guessing during a lock); once the lock has run out the right password works,
and a success clears its keys. Locking a user name lets anyone lock that user out for a while: the
price of stopping a guesser who changes addresses. The state is per process and bounded.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Iterable

from gateway.errors import TooManyLoginsError

MAX_KEYS = 10_000  # a flood of made-up user names cannot grow the table past this


@dataclass
class _Record:
    failures: int = 0
    locked_until: float = 0.0


class LoginThrottle:
    def __init__(self, max_failures: int, lockout_s: float, max_lockout_s: float, clock=time.monotonic) -> None:
        self.max_failures = int(max_failures)
        self.lockout_s = float(lockout_s)
        self.max_lockout_s = max(float(max_lockout_s), self.lockout_s)
        self._clock = clock
        self._records: "OrderedDict[str, _Record]" = OrderedDict()
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.max_failures > 0 and self.lockout_s > 0

    def check(self, keys: Iterable[str]) -> None:
        """Raise TooManyLoginsError while any of ``keys`` is locked."""
        if not self.enabled:
            return
        now = self._clock()
        with self._lock:
            waits = [(record.locked_until - now, key) for key in keys
                     if (record := self._records.get(key)) is not None and record.locked_until > now]
        if waits:
            wait, key = max(waits)
            what = f"for the user {key[5:]!r}" if key.startswith("user:") else "from this address"
            raise TooManyLoginsError(
                f"too many wrong logins {what}: logins are locked for {wait:.0f} more second(s) "
                f"(auth.login_max_failures, auth.login_lockout_s). Wait, then try again with the right "
                f"password or token; an admin can set a new password (`python -m gateway users add NAME`)")

    def failed(self, keys: Iterable[str]) -> None:
        if not self.enabled:
            return
        now = self._clock()
        with self._lock:
            for key in keys:
                record = self._records.pop(key, None) or _Record()
                record.failures += 1
                beyond = record.failures - self.max_failures
                if beyond >= 0:
                    record.locked_until = now + min(self.lockout_s * 2 ** min(beyond, 30), self.max_lockout_s)
                self._records[key] = record  # newest last: the oldest are dropped first
            while len(self._records) > MAX_KEYS:
                self._records.popitem(last=False)

    def succeeded(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                self._records.pop(key, None)


def login_keys(name: str | None = None, client: str | None = None) -> list[str]:
    keys = []
    if name:
        keys.append("user:" + str(name).strip().lower())
    if client:
        keys.append("client:" + str(client))
    return keys
