"""What authentication costs (no Spark): a password check (scrypt), an API token check (one store
read), and a REST request refused before its body. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/auth_costs.py [--rounds 200]
"""
from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway.store import WorkbenchStore, default_url  # noqa: E402


def _ms(samples: list[float]) -> str:
    samples = sorted(samples)
    return f"median {statistics.median(samples) * 1000:.2f} ms, p95 {samples[int(len(samples) * 0.95) - 1] * 1000:.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = WorkbenchStore(default_url(Path(folder)))
        store.add_user("bench", "bench-password")
        token = store.create_token("bench", "bench")[0]
        checks = []
        for _ in range(max(5, args.rounds // 20)):
            started = time.perf_counter()
            store.check_password("bench", "bench-password")
            checks.append(time.perf_counter() - started)
        print(f"password check (scrypt n=2^15, r=8, p=1), {len(checks)} rounds: {_ms(checks)}")
        tokens = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            store.authenticate_token(token)
            tokens.append(time.perf_counter() - started)
        print(f"API token check (SQLite store), {args.rounds} rounds: {_ms(tokens)}")
        store.close()

    # A REST app with users, over a gateway stand-in that only authenticates (no Spark): the time to
    # refuse an unauthenticated 100 MB upload announced by its headers.
    import uvicorn
    from fastapi import FastAPI
    from gateway.rest.authn import AuthMiddleware

    app = FastAPI()

    @app.post("/upload")
    async def upload(request):  # never reached without a token
        return {}

    wrapped = AuthMiddleware(app, service=None, legacy_token=None, bind_host="127.0.0.1", mode="builtin",
                             proxy_header="X-Forwarded-User", trusted_proxies=[])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(wrapped, host="127.0.0.1", port=port, log_level="error", lifespan="off"))
    import threading
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    refusals = []
    for _ in range(args.rounds // 4):
        started = time.perf_counter()
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(f"POST /upload HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 100000000\r\n\r\n".encode())
            head = sock.recv(4096)
        refusals.append(time.perf_counter() - started)
        assert head.split(b" ")[1] == b"401", head
    server.should_exit = True
    thread.join(10)
    print(f"unauthenticated 100 MB upload refused on its headers, {len(refusals)} rounds: {_ms(refusals)}, "
          f"0 body bytes sent or read")


if __name__ == "__main__":
    main()
