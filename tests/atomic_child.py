"""A workbench process for the SIGKILL tests: its own data directory and its own Spark.

    python tests/atomic_child.py PLAN_JSON

The plan: {"data_dir", "class_archive_dir", "setup": [sql], "companions": [sql], "held": [sql],
"hold_at": [step@table], "write": sql | null, "crash_at": step@table | null}.
Start-up runs the gateway (and so the journal recovery), then the child prints one JSON
line per event on stdout: "recovered" (the repair report), "state" (tables, rows, files,
journal), "writing" (the write is submitted), "done" (the write's outcome and state).
Companions are slow writes, each in a session of its own, that are in the middle of writing
(a task's output file exists for each) before the write is submitted: the crash then finds
several writes open at once, and one restart must repair them all. Then the ``held`` writes, each in a
session of its own, run until each stops at its ``hold_at`` publishing step (gateway/features/atomic/crash.py):
the crash finds writes at several publishing steps, so one restart repairs what took one restart each
(each restart is a Spark start, half a minute and more on a loaded machine). With ``crash_at`` set the
process kills itself at that publishing step; otherwise the write runs to its end ("done").
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TABLES = ("ct", "rt", "io", "rt2", "io2")


STARTED = time.monotonic()


def emit(event: str, **data) -> None:
    """One event line; ``at_s``, the seconds since this process started, shows where a cycle's time goes."""
    print(json.dumps({"event": event, "at_s": round(time.monotonic() - STARTED, 2), **data}, default=str), flush=True)


def state(gateway, session, data_dir: Path) -> dict:
    from tests.conftest import run_all

    tables = sorted(r[1] for r in run_all(gateway, session, "SHOW TABLES IN default")[1])
    rows = {t: sorted(run_all(gateway, session, f"SELECT id, k FROM default.{t}")[1]) for t in TABLES if t in tables}
    warehouse = data_dir / "warehouse"
    files = sorted(str(p.relative_to(warehouse)) for p in warehouse.rglob("*"))
    return {"tables": tables, "rows": rows, "files": files, "journal": sorted(os.listdir(data_dir / "atomic"))}


def writing_tasks(warehouse: Path) -> int:
    """How many staging directories hold a task's output file (under a _temporary directory)."""
    busy = set()
    try:
        for path in warehouse.rglob("_temporary/**/*"):
            if path.is_file():
                busy.add(path.relative_to(warehouse).parts[0])
    except FileNotFoundError:  # Spark removed a task directory while we walked it: count again
        return -1
    return len(busy)


def main() -> None:
    plan = json.loads(sys.argv[1])
    data_dir = Path(plan["data_dir"])
    if plan.get("crash_at"):
        os.environ["WORKBENCH_ATOMIC_CRASH_AT"] = plan["crash_at"]
    if plan.get("hold_at"):
        os.environ["WORKBENCH_ATOMIC_HOLD_AT"] = ",".join(plan["hold_at"])
    from gateway import GatewayService, OperationStatus, load_config
    from tests.conftest import run_all

    config = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        # local[4]: slow companions hold a task slot each while the write runs beside them
        data_dir=str(data_dir), spark__master="local[4]", spark__ui__enabled=False,
        spark__conf={"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "512m"},
        session__idle_timeout_s=0, session__restore=False,
        # the run's class archive (tests/conftest.py's class_archive_dir): a start from it, not a cold one
        spark__class_archive=bool(plan.get("class_archive_dir")),
        engine__class_archive_dir=plan.get("class_archive_dir", ""))
    gateway = GatewayService(config)
    emit("recovered", report=gateway.feature("atomic").recovered)
    session = gateway.open_session(name="atomic-child")
    emit("state", **state(gateway, session, data_dir))
    for sql in plan.get("setup", []):
        run_all(gateway, session, sql)
    if plan.get("setup"):
        emit("state", **state(gateway, session, data_dir))
    companions = plan.get("companions", [])
    for n, sql in enumerate(companions):
        gateway.execute_statement(gateway.open_session(name=f"atomic-companion-{n}"), sql)
    deadline = time.monotonic() + 120
    while companions and writing_tasks(data_dir / "warehouse") < len(companions) and time.monotonic() < deadline:
        time.sleep(0.05)
    companions_writing = writing_tasks(data_dir / "warehouse") if companions else 0
    from gateway.features.atomic import crash

    held = plan.get("held", [])
    for n, sql in enumerate(held):
        gateway.execute_statement(gateway.open_session(name=f"atomic-held-{n}"), sql)
    deadline = time.monotonic() + 180
    while len(crash.held) < len(held) and time.monotonic() < deadline:
        time.sleep(0.05)
    if plan.get("write"):
        op = gateway.execute_statement(session, plan["write"])
        emit("writing", companions_writing=companions_writing, held=sorted(crash.held))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            info = gateway.get_operation_info(session, op)
            if info.status in (OperationStatus.FINISHED, OperationStatus.ERROR) and info.ended_at:
                break
            time.sleep(0.05)
        info = gateway.get_operation_info(session, op)
        emit("done", status=info.status.value, committed=info.committed, error=info.exception,
             **state(gateway, session, data_dir))
    gateway.shutdown()


if __name__ == "__main__":
    main()
