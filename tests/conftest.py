"""One root SparkSession per test run (through one GatewayService); a new session per test."""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The test plugin of this checkout (the shared venv installs it from the main checkout, in editable mode),
# here and in the Pythons tests start (a gateway in a new process, the Streamlit server).
_PLUGIN = str(ROOT / "tests" / "plugins" / "wb_test_module")
sys.path.insert(0, _PLUGIN)
os.environ["PYTHONPATH"] = os.pathsep.join([_PLUGIN, *filter(None, [os.environ.get("PYTHONPATH")])])

from gateway import GatewayService, load_config  # noqa: E402


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("workbench-data")


@pytest.fixture(scope="session")
def config(data_dir):
    cfg = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=str(data_dir),
        spark__master="local[2]",
        spark__conf={"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "2g"},
        session__idle_timeout_s=0,
        session__restore=False,  # gateways of one run share a store; tests/gateway/core/test_journal.py turns it on
        result__buffer_max_rows=20_000,
        result__buffer_max_bytes=8 * 1024 * 1024,
    )
    # The Streamlit app reads its configuration from the environment; point it at the same data.
    os.environ["WORKBENCH_DATA_DIR"] = str(data_dir)
    os.environ["WORKBENCH_SPARK_MASTER"] = "local[2]"
    os.environ["WORKBENCH_SESSION_RESTORE"] = "false"
    return cfg


@pytest.fixture(scope="session")
def postgres_server():
    """Debian's PostgreSQL on 127.0.0.1 and a free port, for the whole run (tests/postgres_server.py).

    Missing binaries fail the tests that need it, with the package to install: never a skip.
    """
    from postgres_server import PostgresServer

    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def as_local_user():
    """Tests call the gateway in process as the single local user of auth.mode none, by name: code that
    reaches past the API (``gateway.sessions.get``) needs a principal too, since a lookup without one is
    refused (fail closed). A test of that refusal steps out with ``acting_as(None)``."""
    from gateway.identity import LOCAL_PRINCIPAL, acting_as

    with acting_as(LOCAL_PRINCIPAL):
        yield


@pytest.fixture()
def fresh_tabs(gateway):
    """No tabs of the local user left by other tests (the UI tests open the editor on them)."""
    from gateway import LOCAL_USER

    for tab in gateway.list_tabs(LOCAL_USER):
        gateway.close_tab(LOCAL_USER, tab.tab_id)
    yield gateway
    for tab in gateway.list_tabs(LOCAL_USER):
        gateway.close_tab(LOCAL_USER, tab.tab_id)


@pytest.fixture(scope="session")
def gateway(config):
    service = GatewayService(config)
    yield service
    service.shutdown()


@pytest.fixture(scope="session")
def workbench_dialect():
    """``workbench://`` for SQLAlchemy. Its entry point (pyproject.toml) is seen only after the shared
    venv is reinstalled, so the tests register the same class by hand."""
    from sqlalchemy.dialects import registry

    registry.register("workbench", "workbench_client.dialect", "WorkbenchDialect")
    return "workbench"


@pytest.fixture
def session(gateway):
    handle = gateway.open_session(name="test")
    yield handle
    try:
        gateway.close_session(handle)
    except Exception:
        pass


def run_all(gateway, session, statement, max_rows=None, timeout_s=60, **kwargs):
    """Execute and fetch every page; returns (columns, rows, last ResultSet)."""
    op = gateway.execute_statement(session, statement, **kwargs)
    rows = []
    try:
        for page in gateway.iter_results(session, op, max_rows, timeout_s):
            rows.extend(page.rows)
    finally:
        gateway.close_operation(session, op)
    return page.columns, rows, page


def wait_for(predicate, timeout_s=10.0, interval=0.02):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


def open_app(query_params=None):
    """The workbench's app.py in Streamlit's AppTest (query parameters as a reload's URL carries them), run once."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def event(at, **fields):
    """One event of the editor component (what the browser sends: run_all, change, …), then the rerun it makes."""
    at.session_state["sql_editor"] = {"events": [{"id": f"t-{time.monotonic_ns()}", **fields}]}
    at.run()
    assert not at.exception, at.exception
    return at


def rerun_until_ended(at, state_key: str = "current_run", timeout_s: float = 90) -> None:
    """Rerun an AppTest page, as its own polling does, until the run in ``state_key`` is no longer RUNNING."""
    def ended() -> bool:
        if at.session_state[state_key].status != "RUNNING":
            return True
        at.run()
        return False

    wait_for(ended, timeout_s, interval=0.2)
    at.run()


# -- Spark Connect (tests/gateway/connect): one real server for the run, started only when a test asks.
# Here, not in a conftest of that folder: a second conftest.py would shadow this one for
# ``from conftest import …`` (rootdir import mode), and every other test file imports from it.
@pytest.fixture(scope="session")
def connect_server():
    from connect_server import ConnectServer

    running = os.environ.get("WORKBENCH_TEST_CONNECT_PORT")  # a server already up (while developing), else one of ours
    if running:
        yield ConnectServer(port=int(running))
        return
    server = ConnectServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def connect_gateway(connect_server, tmp_path_factory):
    from connect_support import connect_config
    from gateway import GatewayService

    service = GatewayService(connect_config(tmp_path_factory, connect_server.url))
    yield service
    service.shutdown()


@pytest.fixture
def connect_session(connect_gateway):
    handle = connect_gateway.open_session(name="connect-test")
    yield handle
    try:
        connect_gateway.close_session(handle)
    except Exception:  # noqa: BLE001 - a test may have closed it
        pass


# -- the order of files across processes ------------------------------------------------------------
# ``./run-tests`` gives whole files to two processes (xdist's loadfile), each taking the next file when it
# is free (a package sharing package-scoped fixtures goes as one unit: SHARED_FIXTURE_PACKAGES). Units run longest first, so that the last minutes are not one process alone on a slow browser
# file while the other idles. The seconds per file are recorded from a whole run
# (``WORKBENCH_RECORD_FILE_SECONDS=tests/file_seconds.json ./run-tests``); a file not recorded yet counts as
# NEW_FILE_SECONDS. Only the order of files changes: the tests of a file keep theirs.
FILE_SECONDS = Path(__file__).resolve().parent / "file_seconds.json"
NEW_FILE_SECONDS = 30.0


# Packages whose conftest has package-scoped fixtures: their files go to one process as one unit, so that the
# fixture starts once (tests/cluster: one standalone cluster for both files, not one per process).
SHARED_FIXTURE_PACKAGES = ("tests/cluster/",)


def _test_file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def schedule_unit(nodeid: str) -> str:
    """What a process takes at a time: the test's file, or its package when that shares package-scoped fixtures."""
    name = _test_file(nodeid)
    return next((package for package in SHARED_FIXTURE_PACKAGES if name.startswith(package)), name)


def pytest_xdist_make_scheduler(config, log):
    """xdist's loadfile scheduling by ``schedule_unit`` (a file, or a package sharing its fixtures)."""
    from xdist.scheduler import LoadFileScheduling

    class UnitScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return schedule_unit(nodeid)

    return UnitScheduling(config, log)


def pytest_collection_modifyitems(session, config, items):
    try:
        seconds = json.loads(FILE_SECONDS.read_text())
    except FileNotFoundError:
        return
    first_seen, unit_seconds = {}, {}
    for position, item in enumerate(items):
        name, unit = _test_file(item.nodeid), schedule_unit(item.nodeid)
        if name not in first_seen:
            first_seen[name] = position
            unit_seconds[unit] = unit_seconds.get(unit, 0.0) + seconds.get(name, NEW_FILE_SECONDS)
        first_seen.setdefault(unit, position)
    items.sort(key=lambda item: (-unit_seconds[schedule_unit(item.nodeid)], first_seen[schedule_unit(item.nodeid)],
                                 first_seen[_test_file(item.nodeid)]))


_recorded_seconds: dict = {}


def pytest_runtest_logreport(report):
    """Add each test phase's time to its file's, when a run records them (in the process that reports)."""
    if os.environ.get("WORKBENCH_RECORD_FILE_SECONDS"):
        name = _test_file(report.nodeid)
        _recorded_seconds[name] = _recorded_seconds.get(name, 0.0) + report.duration


def pytest_sessionfinish(session, exitstatus):
    target = os.environ.get("WORKBENCH_RECORD_FILE_SECONDS")
    if target and _recorded_seconds and not hasattr(session.config, "workerinput"):  # the controller only
        rounded = {name: round(value, 1) for name, value in sorted(_recorded_seconds.items(),
                                                                   key=lambda pair: -pair[1])}
        Path(target).write_text(json.dumps(rounded, indent=1) + "\n")


@pytest.fixture(scope="session")
def class_archive_dir(tmp_path_factory) -> Path:
    """engine.class_archive_dir for the Spark processes the tests start (child workbench processes, managed
    engines): one folder for the whole run (both xdist processes), so the first JVM of each kind writes its
    class archive (AppCDS) and every later one starts from it instead of one cold start per data directory."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "class-archives"
    folder.mkdir(exist_ok=True)
    return folder
