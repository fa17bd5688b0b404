"""A Hive metastore on a real database (PostgreSQL), shared by several workbench processes.

Spark's built-in Hive client (2.3) keeps the metastore in any JDBC database through DataNucleus.
Letting DataNucleus create its tables lazily (``datanucleus.schema.autoCreateAll``) deadlocks on
PostgreSQL when two connections create tables at once, so the schema is created once, on purpose,
before Spark starts: DataNucleus's own SchemaTool, in a short Java process, over Hive's mapping
(``package.jdo`` from Spark's hive-metastore jar). It creates the tables that are missing and leaves
existing ones alone; a marker under the data directory skips it on the next start. Spark then runs
with ``autoCreateAll`` off and Hive's schema verification off (the tables carry no Hive version row).
"""
from __future__ import annotations

import os
import subprocess
import zipfile
from pathlib import Path

from gateway.config import WorkbenchConfig
from gateway.errors import ConfigurationError

_DRIVERS = {"jdbc:postgresql:": "org.postgresql.Driver", "jdbc:mysql:": "com.mysql.cj.jdbc.Driver",
            "jdbc:mariadb:": "org.mariadb.jdbc.Driver", "jdbc:derby:": "org.apache.derby.jdbc.EmbeddedDriver"}
SCHEMA_TIMEOUT_S = 300


def _spark_jars() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent / "jars"


def driver_class(url: str) -> str:
    for prefix, name in _DRIVERS.items():
        if url.startswith(prefix):
            return name
    raise ConfigurationError(
        f"metastore.jdbc_url {url!r} is not a JDBC URL the workbench knows the driver of; use "
        f"jdbc:postgresql://host:5432/metastore (or MySQL, MariaDB)")


def jdbc_conf(config: WorkbenchConfig) -> dict[str, str]:
    """Spark settings for a metastore in the database at metastore.jdbc_url."""
    url = config["metastore.jdbc_url"]
    if config["metastore.uri"]:
        raise ConfigurationError("metastore.uri and metastore.jdbc_url are both set: use one (a Thrift metastore "
                                 "service, or the metastore's database directly)")
    jar = Path(os.path.expanduser(config["metastore.jdbc_driver_jar"]))
    if not jar.is_file():
        raise ConfigurationError(
            f"the JDBC driver jar {jar} (metastore.jdbc_driver_jar) does not exist: install it (Debian: "
            f"apt-get install libpostgresql-jdbc-java gives /usr/share/java/postgresql.jar) or point the setting at it")
    conf = {
        "spark.hadoop.javax.jdo.option.ConnectionURL": url,
        "spark.hadoop.javax.jdo.option.ConnectionDriverName": driver_class(url),
        "spark.hadoop.datanucleus.schema.autoCreateAll": "false",
        "spark.hadoop.hive.metastore.schema.verification": "false",
        "spark.driver.extraClassPath": str(jar),
    }
    if config["metastore.jdbc_user"]:
        conf["spark.hadoop.javax.jdo.option.ConnectionUserName"] = config["metastore.jdbc_user"]
    if config["metastore.jdbc_password"]:
        conf["spark.hadoop.javax.jdo.option.ConnectionPassword"] = config["metastore.jdbc_password"]
    return conf


def ensure_schema(config: WorkbenchConfig, java: str = "java") -> bool:
    """Create the metastore's tables once (those that are missing). True when SchemaTool ran."""
    url = config["metastore.jdbc_url"]
    marker = config.data_dir / "metastore" / "jdbc-schema-created"
    if marker.is_file() and marker.read_text().strip() == url:
        return False
    conf = jdbc_conf(config)
    work = config.data_dir / "metastore" / "schema-tool"
    work.mkdir(parents=True, exist_ok=True)
    jars = _spark_jars()
    metastore_jar = next(iter(sorted(jars.glob("hive-metastore-*.jar"))), None)
    if metastore_jar is None:
        raise ConfigurationError(f"pyspark's jars ({jars}) have no hive-metastore jar: a pyspark with Hive is needed")
    with zipfile.ZipFile(metastore_jar) as archive:
        (work / "package.jdo").write_bytes(archive.read("package.jdo"))
    properties = {
        "javax.jdo.option.ConnectionURL": url,
        "javax.jdo.option.ConnectionDriverName": conf["spark.hadoop.javax.jdo.option.ConnectionDriverName"],
        "javax.jdo.option.ConnectionUserName": config["metastore.jdbc_user"],
        "javax.jdo.option.ConnectionPassword": config["metastore.jdbc_password"],
        "datanucleus.identifierFactory": "datanucleus1",  # Hive's naming
        "datanucleus.rdbms.useLegacyNativeValueStrategy": "true",
        "datanucleus.schema.autoCreateAll": "true",
        "datanucleus.storeManagerType": "rdbms",
    }
    props = work / "datanucleus.properties"
    props.write_text("".join(f"{k}={v}\n" for k, v in properties.items()))
    props.chmod(0o600)  # it may hold the password
    classpath = f"{jars}/*{os.pathsep}{conf['spark.driver.extraClassPath']}"
    try:
        result = subprocess.run([java, "-cp", classpath, "org.datanucleus.store.schema.SchemaTool", "-create",
                                 "-api", "JDO", "-props", str(props), str(work / "package.jdo")],
                                capture_output=True, text=True, timeout=SCHEMA_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise ConfigurationError(f"creating the metastore's tables in {_safe(url)} took over {SCHEMA_TIMEOUT_S} s: "
                                 f"is the database reachable?") from None
    finally:
        props.unlink(missing_ok=True)
    output = result.stdout + result.stderr
    if result.returncode != 0 or "completed successfully" not in output:
        reason = next((line.strip() for line in output.splitlines() if "Exception" in line or "FATAL" in line),
                      output.strip()[-500:])
        raise ConfigurationError(f"creating the metastore's tables in {_safe(url)} (metastore.jdbc_url) failed: "
                                 f"{reason}. Check the URL, the user (metastore.jdbc_user) and that the database exists")
    marker.write_text(url + "\n")
    return True


def _safe(url: str) -> str:
    """The URL without a password parameter."""
    import re

    return re.sub(r"(?i)(password=)[^&;]*", r"\1***", url)
