"""Which Java the workbench launches, found one way everywhere: ``JAVA_HOME/bin/java`` when JAVA_HOME is set, else
the first ``java`` on PATH (the rule of Spark's own launcher scripts). Spark's driver, the metastore's schema tool,
the standalone driver client and the class archives' names all go through here, so they never disagree."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from gateway.errors import JavaNotFoundError

MIN_JAVA = 17
INSTALL_HINT = ("Install Java 17 or newer (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless) "
                "and make sure `java` is on PATH or JAVA_HOME points at it.")


def java_binary() -> str:
    """The path of the ``java`` to launch; raise a clear error (what to install) when there is none."""
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if not java or not Path(java).exists():
        where = f"JAVA_HOME={home} has no bin/java" if home else "no `java` on PATH"
        raise JavaNotFoundError(f"Java was not found ({where}). {INSTALL_HINT}")
    return java


def java_version() -> int:
    """Major version of the Java that Spark will launch; raise a clear error if it is missing or too old."""
    java = java_binary()
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise JavaNotFoundError(f"Running {java} -version failed ({exc}). {INSTALL_HINT}") from None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out.stderr + out.stdout)
    if not match:
        raise JavaNotFoundError(f"Could not read the version of {java}. {INSTALL_HINT}")
    major = int(match.group(1))
    if major == 1 and match.group(2):  # "1.8.0" style
        major = int(match.group(2))
    if major < MIN_JAVA:
        raise JavaNotFoundError(f"Java {major} was found at {java}, but Spark 4 needs Java {MIN_JAVA}+. "
                                f"{INSTALL_HINT}")
    return major
