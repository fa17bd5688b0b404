"""The JVMs a test's child processes started, read from /proc (Linux): which one runs under a process, and
whether it mapped a class archive (the JVM uses an AppCDS archive it maps; one it rejects it does not map)."""
from __future__ import annotations

from pathlib import Path


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[1])


def jvms_under(ancestor: int) -> list[int]:
    """PIDs of the java processes descended from ``ancestor``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        pid = int(entry.name)
        try:
            if Path(f"/proc/{pid}/exe").resolve().name != "java":
                continue
            parent = pid
            while parent > 1:
                parent = _parent(parent)
                if parent == ancestor:
                    found.append(pid)
                    break
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


SHORT_LIVED_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def short_lived_jvm(env: dict) -> dict:
    """``env`` for a child process whose JVMs live a minute and run a few small statements: C1 only and one GC
    thread (JDK_JAVA_OPTIONS, read by every java launcher). The flags change how fast a start is, not what runs:
    the compiler and GC threads no longer compete for 2 loaded cores. Atomic SIGKILL children, alternated at
    load 6-10: median start-to-done 18.6 s with them, 33.4 s without (five each)."""
    return dict(env, JDK_JAVA_OPTIONS=f"{env.get('JDK_JAVA_OPTIONS', '')} {SHORT_LIVED_JVM}".strip())


def maps_file(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has ``path`` mapped into its memory."""
    return str(path) in Path(f"/proc/{pid}/maps").read_text()


WARMING = ("CREATE TABLE warm_p USING parquet AS SELECT id, id % 2 AS k FROM range(8)",
           "CREATE TABLE warm_c USING csv PARTITIONED BY (k) AS SELECT id, id % 2 AS k FROM range(8)",
           "CREATE OR REPLACE TABLE warm_o USING orc AS SELECT id, CAST(id AS STRING) AS s FROM range(8)",
           "INSERT OVERWRITE TABLE warm_c PARTITION (k=1) SELECT id FROM range(3)",
           "CREATE TABLE warm_j USING json AS SELECT * FROM warm_p",
           "SELECT k, count(*), max(s) FROM warm_p JOIN warm_o USING (id) GROUP BY k ORDER BY k")


def write_embedded_archive(data_dir: str, archive_dir: str) -> None:
    """A workbench process started without the embedded class archive (spark.class_archive): it runs writes
    and queries of the kinds the tests' child processes run, then stops, and so writes the archive."""
    import sys

    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from gateway import GatewayService, load_config
    from tests.conftest import run_all

    config = load_config(root / "workbench.toml", environ={}).with_overrides(
        data_dir=data_dir, spark__master="local[2]", spark__ui__enabled=False, session__restore=False,
        spark__conf={"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "512m"},
        spark__class_archive=True, engine__class_archive_dir=archive_dir)
    gateway = GatewayService(config)
    session = gateway.open_session(name="warming")
    for statement in WARMING:
        last = run_all(gateway, session, statement, timeout_s=600)[2]
        assert last.exception is None, (statement, last.exception)
    gateway.shutdown()


if __name__ == "__main__":  # python tests/jvm_support.py DATA_DIR ARCHIVE_DIR
    import sys

    write_embedded_archive(sys.argv[1], sys.argv[2])
