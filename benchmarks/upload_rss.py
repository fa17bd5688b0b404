"""What a non-admin's refused jar uploads cost the server's memory (issue 27 item 7): N chunked uploads of
M MB at once by a logged-in non-admin (auth.mode builtin), against a REST server in this process on
127.0.0.1. Prints the process's RSS before, at its peak and after, the answers and how long they took.
Asserts nothing.

    .venv/bin/python benchmarks/upload_rss.py [--uploads 6] [--mb 120] [--root DIR]

``--root``: a checkout to import the gateway from (e.g. an older commit unpacked with ``git archive``),
to measure before and after a change with the same script.
"""
from __future__ import annotations

import argparse
import gc
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

CHUNK = 64 * 1024


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def upload(host: str, port: int, token: str, session: str, megabytes: int, results: list) -> None:
    started = time.monotonic()
    head = (f"POST /v2/sessions/{session}/jars/upload?filename=big.jar HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/java-archive\r\n"
            f"Transfer-Encoding: chunked\r\n\r\n").encode()
    piece = b"%x\r\n" % CHUNK + b"x" * CHUNK + b"\r\n"
    with socket.create_connection((host, port), timeout=300) as sock:
        try:
            sock.sendall(head)
            for _ in range(megabytes * 1024 * 1024 // CHUNK):
                sock.sendall(piece)
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server answered early and closed
        try:
            answer = sock.recv(4096)
            status = answer.split(b" ", 2)[1].decode() if answer else "closed"
        except OSError as exc:
            status = type(exc).__name__
    results.append((status, time.monotonic() - started))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--uploads", type=int, default=6)
    parser.add_argument("--mb", type=int, default=120)
    parser.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    args = parser.parse_args()
    sys.path.insert(0, args.root)
    from gateway import GatewayService, load_config
    from gateway.rest import serve_in_background
    from gateway.store import default_url

    with tempfile.TemporaryDirectory() as folder:
        config = load_config(Path(args.root) / "workbench.toml", environ={}).with_overrides(
            data_dir=folder, spark__master="local[1]", auth__mode="builtin", store__url=default_url(Path(folder)),
            session__restore=False, spark__ui__enabled=False)
        service = GatewayService(config)
        service.store.add_user("alice", "pass-word-1", False)
        token = service.store.create_token("alice", "bench")[0]
        server = serve_in_background(service, "127.0.0.1", 0)
        host, port = "127.0.0.1", int(server.url.rsplit(":", 1)[1])
        import http.client
        import json
        conn = http.client.HTTPConnection(host, port, timeout=60)
        conn.request("POST", "/v1/sessions", body=b"{}", headers={"Authorization": f"Bearer {token}",
                                                                  "Content-Type": "application/json"})
        session = json.loads(conn.getresponse().read())["sessionHandle"]
        conn.close()
        gc.collect()
        before, peak, done = rss_mb(), [0.0], threading.Event()

        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], rss_mb())
                time.sleep(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        results: list = []
        started = time.monotonic()
        threads = [threading.Thread(target=upload, args=(host, port, token, session, args.mb, results))
                   for _ in range(args.uploads)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        done.set()
        sampler.join()
        gc.collect()
        time.sleep(1.0)  # let the allocator settle before the last reading (a measurement, not a test)
        after = rss_mb()
        print(f"gateway from {args.root}")
        print(f"{args.uploads} x {args.mb} MB chunked uploads by a non-admin: answers "
              f"{sorted(status for status, _ in results)}, slowest {max(s for _, s in results):.1f} s, "
              f"all in {elapsed:.1f} s")
        print(f"process RSS: before {before:.0f} MB, peak {peak[0]:.0f} MB (+{peak[0] - before:.0f}), "
              f"after {after:.0f} MB (+{after - before:.0f})")
        server.stop()
        service.shutdown()


if __name__ == "__main__":
    main()
