"""JVM class-data archives (AppCDS) that shorten a Spark driver's cold start: the embedded root's
(``spark.class_archive``) and the managed engines' (``engine.class_archive``), in one folder
(``engine.class_archive_dir``) that several workbench processes of a host may share."""
from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
from pathlib import Path

from gateway.config import WorkbenchConfig
from gateway.spark.java import java_binary

log = logging.getLogger(__name__)
DUMP_TIMEOUT_S = 300


def class_archive_dir(config: WorkbenchConfig) -> Path:
    """engine.class_archive_dir, or <data_dir>/engines; made when missing (the JVM writes its archive there)."""
    named = str(config["engine.class_archive_dir"]).strip()
    folder = Path(os.path.expanduser(named)).resolve() if named else config.data_dir / "engines"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def archive_name(prefix: str, *decides) -> str:
    """``<prefix>-<hash>.jsa``, the hash of what decides the JVM's classes (pyspark, Spark's home, the Java
    binary, and ``decides``: class path settings) — a JVM never meets an archive made for other classes."""
    import pyspark

    identity = json.dumps([pyspark.__version__, str(Path(pyspark.__file__).resolve().parent),
                           str(Path(java_binary()).resolve()),
                           *decides])
    return f"{prefix}-{hashlib.sha256(identity.encode()).hexdigest()[:16]}.jsa"


def java_option(archive: Path) -> str:
    """Map the archive when it exists; else record what a later ``jcmd VM.cds dynamic_dump`` needs."""
    # -Xlog:cds*=error: not a warning line per class the dump skips (thousands) in the driver's output
    return f"-XX:SharedArchiveFile={archive}" if archive.exists() else "-XX:+RecordDynamicDumpInfo -Xlog:cds*=error"


def dump_class_archive(pid: int, archive: Path) -> bool:
    """``jcmd <pid> VM.cds dynamic_dump`` of a warmed JVM (started with -XX:+RecordDynamicDumpInfo) to a
    partial file, then renamed to ``archive`` at once: readers see a whole archive or none. True when written."""
    partial = archive.with_name(f"{archive.name}.{os.getpid()}-{pid}.partial")
    try:
        jcmd = Path(os.readlink(f"/proc/{pid}/exe")).with_name("jcmd")
        done = subprocess.run([str(jcmd), str(pid), "VM.cds", "dynamic_dump", str(partial)],
                              capture_output=True, text=True, timeout=DUMP_TIMEOUT_S)
        if done.returncode == 0 and partial.exists() and partial.stat().st_size > 0:
            os.replace(partial, archive)
            log.info("wrote the class archive %s (%d MB) from JVM %d", archive, archive.stat().st_size >> 20, pid)
            return True
        log.warning("the class archive %s was not written (jcmd exit %s): %s", archive, done.returncode,
                    (done.stdout + done.stderr).strip()[-500:])
    except Exception:  # noqa: BLE001 - the JVMs start without it, as before
        log.warning("the class archive %s was not written", archive, exc_info=True)
    finally:
        partial.unlink(missing_ok=True)
    return False
