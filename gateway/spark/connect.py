"""The Spark Connect engine (``engine.kind = connect``): the gateway's sessions are sessions of a Spark
Connect server elsewhere; nothing of Spark (no JVM, no Py4J gateway) runs in the workbench process.

One root client per process (``connect_root``) holds the connection settings; each gateway session is
``root.newSession()``: its own server-side session (SQL conf, temporary views and functions, artifacts)
on its own gRPC channel. pyspark's client retries an unreachable server for about ten minutes by
default; the gateway bounds that (``_RETRY``) so that a dead server ends a statement with ENGINE_DOWN in
seconds, while a short drop of a long result is still bridged by Connect's reattachable execution.
"""
from __future__ import annotations

from typing import Iterator, Optional
from urllib.parse import urlparse

from gateway.config import WorkbenchConfig, connect_url

# 50 ms, 0.2 s, 0.8 s, 3.2 s, 4 s: about 8 s of retries before a call gives up on an unreachable server.
_RETRY = dict(max_retries=5, backoff_multiplier=4.0, initial_backoff=50, max_backoff=4000, jitter=100,
              min_jitter_threshold=2000)
# Each session's channel connects on its own (gRPC otherwise shares subchannels between channels to the same
# address: a new session after a server restart inherited the dead one's reconnect backoff, tens of seconds
# that outlast the retries above), and waits at most 2 s between connection attempts.
_CHANNEL_OPTIONS = [("grpc.use_local_subchannel_pool", 1), ("grpc.initial_reconnect_backoff_ms", 200),
                    ("grpc.min_reconnect_backoff_ms", 200), ("grpc.max_reconnect_backoff_ms", 2000)]
# gRPC's words for a server that is gone (killed, restarted, unreachable) and Connect's for a session the
# server no longer knows (it restarted: the session's state is lost).
_LOST_CODES = ("UNAVAILABLE",)
_LOST_CONDITIONS = ("RETRIES_EXCEEDED", "INVALID_HANDLE.SESSION_CHANGED", "INVALID_HANDLE.SESSION_NOT_FOUND", "INVALID_HANDLE.SESSION_CLOSED")


def endpoint(url: str) -> str:
    """``host:port`` of an sc:// URL, for messages: never its parameters (the token)."""
    parsed = urlparse("http" + url[2:])
    return f"{parsed.hostname}:{parsed.port or 15002}"


def _bounded(spark):
    from pyspark.sql.connect.client.retries import DefaultPolicy

    spark.client.set_retry_policies([DefaultPolicy(**_RETRY)])
    return spark


def connect_root(config: WorkbenchConfig):
    """The process's root Spark Connect client at ``engine.url`` (checked); no RPC is made yet."""
    return connect_root_at(connect_url(config))


def connect_root_at(url: str):
    """A root Spark Connect client at ``url`` (a managed engine's address, gateway/engines/); no RPC yet."""
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    from pyspark.sql.connect.client import DefaultChannelBuilder

    channel = DefaultChannelBuilder(url, channelOptions=_CHANNEL_OPTIONS)
    return _bounded(ConnectSession.builder.channelBuilder(channel).create())


def new_connect_session(root):
    """A fresh server-side session (empty state) on the root's connection settings, retries bounded."""
    return _bounded(root.newSession())


def connection_lost(exc: BaseException) -> Optional[str]:
    """What in this failure says the Spark Connect server is gone or restarted (its session lost); None
    for any other failure (a SQL error, an interrupted operation)."""
    from pyspark.errors import PySparkException

    if not isinstance(exc, PySparkException):
        return None
    import grpc

    cause = exc
    for _ in range(5):  # the gRPC error itself, or the one pyspark wrapped
        if isinstance(cause, grpc.RpcError) and hasattr(cause, "code"):
            if cause.code().name in _LOST_CODES:
                return f"gRPC {cause.code().name}"
        cause = cause.__cause__ or cause.__context__
        if cause is None:
            break
    condition = exc.getCondition() if hasattr(exc, "getCondition") else None
    if condition in _LOST_CONDITIONS:
        return condition
    text = str(exc)[:2000]
    if "StatusCode.UNAVAILABLE" in text or "failed to connect to all addresses" in text.lower():
        return "gRPC UNAVAILABLE"
    return None


def arrow_batches(df) -> Iterator:
    """``df``'s result as the Arrow record batches the server sends, read as the caller consumes them:
    never turned into rows (``toLocalIterator`` would), never collected whole (``toArrow`` would). The
    client's reattachable execution carries the stream over a dropped connection."""
    import pyarrow as pa

    client = df.sparkSession.client
    stream = client.to_table_as_iterator(df._plan.to_proto(client), df._plan.observations)
    try:
        for item in stream:
            if isinstance(item, pa.Table):
                yield from item.to_batches()
    finally:
        stream.close()
