"""A process that imported the gateway forks without gRPC's fork handlers.

The gateway forks to exec Spark's JVM and spark-submit while Spark Connect channels may be streaming. With gRPC's
fork handlers on (grpcio's core default), such a fork logs "skipping fork() handlers" / "Kick failed" and once
aborted the whole process. A real gRPC server and a streaming client run in a child Python process (so the
setting is read as a fresh process reads it), which forks and execs ``true`` thirty times with a
``preexec_fn`` (what pyspark's JVM launch does).
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

CHILD = textwrap.dedent("""
    import threading
    import gateway  # noqa: F401 - what the test is about: the gateway's import sets the process up
    import grpc
    from concurrent import futures

    def stream(request, context):
        for _ in range(100000):
            yield b"x"

    server = grpc.server(futures.ThreadPoolExecutor(2))
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(
        "t.S", {"M": grpc.unary_stream_rpc_method_handler(stream)})])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    call = channel.unary_stream("/t.S/M")
    streaming = threading.Event()
    done = threading.Event()

    def read():
        for _ in call(b""):
            streaming.set()
            if done.is_set():
                break

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert streaming.wait(30), "the stream never started"
    import subprocess
    for _ in range(30):
        subprocess.run(["true"], preexec_fn=lambda: None, check=True)
    done.set()
    reader.join(30)
    server.stop(None)
    print("forked")
""")


def test_forks_while_a_grpc_stream_runs_run_no_grpc_fork_handlers():
    env = {k: v for k, v in os.environ.items() if k != "GRPC_ENABLE_FORK_SUPPORT"}
    env["PYTHONPATH"] = str(ROOT)
    env["GRPC_VERBOSITY"] = "INFO"  # the handlers' "skipping fork() handlers" line is INFO
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "forked" in done.stdout
    handler_lines = [line for line in done.stderr.splitlines() if "fork" in line.lower() or "Kick failed" in line]
    assert handler_lines == [], handler_lines[:5]
