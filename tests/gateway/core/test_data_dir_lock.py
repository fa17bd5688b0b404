"""One workbench process per data directory (issue 17 item 4, issue 18 item 6): a second process on a
data directory in use is refused at start, naming the directory, the holder's PID and what to set
instead; the lock of a process that died is taken over. Real processes, no mocks."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gateway.core import data_lock
from gateway.errors import DataDirectoryInUseError
from ports import free_port

ROOT = Path(__file__).resolve().parents[3]
HOLD = ("import sys, time; from pathlib import Path; from gateway.core import data_lock; "
        "data_lock.acquire(Path(sys.argv[1])); print('held', flush=True); time.sleep(120)")
TRY = ("import sys; from pathlib import Path; from gateway.core import data_lock; "
       "from gateway.errors import DataDirectoryInUseError\n"
       "try:\n    data_lock.acquire(Path(sys.argv[1])); print('acquired')\n"
       "except DataDirectoryInUseError as exc:\n    print('refused:', exc)")


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=_env(), capture_output=True,
                          text=True, timeout=120)


def test_the_running_gateway_holds_its_data_directory(gateway, config):
    lock = config.data_dir / data_lock.LOCK_FILE
    assert data_lock.held(config.data_dir)
    assert lock.read_text().splitlines()[0] == str(os.getpid())
    assert data_lock.acquire(config.data_dir) == lock  # the same process again: no error


def test_a_second_gateway_process_on_the_data_directory_is_refused_before_spark_starts(gateway, config):
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "gateway", "serve", "--port", str(free_port())], cwd=ROOT,
        env=_env(WORKBENCH_DATA_DIR=str(config.data_dir), WORKBENCH_SPARK_MASTER="local[1]"),
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr[-3000:]
    message = result.stderr
    assert f"The data directory {config.data_dir} is in use by another workbench process (PID {os.getpid()}" in message
    assert "WORKBENCH_DATA_DIR" in message and "metastore.jdbc_url" in message
    assert "Derby" in message and "Traceback" not in message and "SessionHiveMetaStoreClient" not in message
    assert time.monotonic() - started < 60  # refused at once, not after a Spark start


def test_the_lock_of_a_killed_process_is_taken_over(tmp_path):
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], cwd=ROOT, env=_env(),
                              stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = _python(TRY, str(tmp_path))
        assert refused.stdout.startswith("refused:"), refused.stderr
        assert f"The data directory {tmp_path} is in use" in refused.stdout and f"PID {holder.pid}" in refused.stdout
        with pytest.raises(DataDirectoryInUseError, match=f"PID {holder.pid}"):  # and from this process too
            data_lock.acquire(tmp_path)
    finally:
        os.killpg(holder.pid, signal.SIGKILL)  # dies holding the lock: no clean-up of its own
        holder.wait(30)
        holder.stdout.close()
    assert (tmp_path / data_lock.LOCK_FILE).read_text().splitlines()[0] == str(holder.pid)  # left behind
    taken = _python(TRY + "\nimport os; print(open(sys.argv[1] + '/workbench.lock').readline().strip() == "
                          "str(os.getpid()))", str(tmp_path))
    assert taken.stdout.split() == ["acquired", "True"], taken.stderr


def test_a_lock_file_naming_a_dead_process_is_taken_over(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (tmp_path / data_lock.LOCK_FILE).write_text(f"{dead.stdout.strip()}\nold workbench\n")
    assert data_lock.acquire(tmp_path) == tmp_path / data_lock.LOCK_FILE
    assert (tmp_path / data_lock.LOCK_FILE).read_text().splitlines()[0] == str(os.getpid())
