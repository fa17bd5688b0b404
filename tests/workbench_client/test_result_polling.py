"""The client's wait for a result's first rows, over real HTTP and Spark: a NOT_READY page the server held
for its wait (result.fetch_wait_ms) is followed by the next request at once, without a sleep of the
client's own on top (that sleep kept the first rows of a big fetch in the buffer for up to 100 ms)."""
from __future__ import annotations

import time
import types

import workbench_client as dbapi
import workbench_client.http as client_http
from rest_support import server  # noqa: F401 - fixture

# two rows after 1.2 s in one task: several of the server's 200 ms waits go by before the first rows
SLOW = "SELECT reflect('java.lang.Thread', 'sleep', CAST(600 AS BIGINT)) AS slept, id FROM range(0, 2, 1, 1)"


def test_a_not_ready_page_the_server_held_is_followed_at_once(server, monkeypatch, gateway):
    assert gateway.config["result.fetch_wait_ms"] >= 100  # the server holds a page request while no rows come
    sleeps, kinds = [], []
    clock = types.SimpleNamespace(monotonic=time.monotonic, sleep=lambda s: (sleeps.append(s), time.sleep(s)))
    monkeypatch.setattr(client_http, "time", clock)  # the client's module only: records its sleeps
    real_fetch = client_http.RemoteOperation._fetch_page

    def recorded(self, uri):
        page = real_fetch(self, uri)
        kinds.append(page["resultType"])
        return page

    monkeypatch.setattr(client_http.RemoteOperation, "_fetch_page", recorded)
    with dbapi.connect(server.url) as conn:
        rows = conn.cursor().execute(SLOW).fetchall()
    assert [row[1] for row in rows] == [0, 1]
    assert "NOT_READY" in kinds, kinds  # the first rows came after at least one held request
    assert sleeps == []
