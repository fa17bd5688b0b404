import re
from pathlib import Path

import pytest

from gateway.config import SETTINGS, load_config
from gateway.features import feature_classes
from gateway.errors import ConfigurationError
from gateway.spark.root import spark_conf

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_file_and_environment_layer(tmp_path):
    file = tmp_path / "wb.toml"
    file.write_text('data_dir = "/tmp/x"\n[session]\nmax_sessions = 3\n[spark.conf]\n"spark.a" = "1"\n')
    cfg = load_config(file, environ={"WORKBENCH_SESSION_MAX_SESSIONS": "5", "WORKBENCH_SPARK_MASTER": "spark://h:7077"})
    assert cfg["session.max_sessions"] == 5
    assert cfg["spark.master"] == "spark://h:7077"
    assert cfg["spark.conf"] == {"spark.a": "1"}
    assert cfg.data_dir == Path("/tmp/x")
    assert cfg["result.page_rows"] == 1000  # default


def test_embedded_metastore_and_warehouse_live_under_the_data_dir(tmp_path):
    cfg = load_config(tmp_path / "none.toml" if False else None, environ={"WORKBENCH_DATA_DIR": str(tmp_path)})
    conf = spark_conf(cfg)
    assert conf["spark.sql.warehouse.dir"].startswith(str(tmp_path))
    assert str(tmp_path) in conf["spark.hadoop.javax.jdo.option.ConnectionURL"]
    assert conf["spark.sql.catalogImplementation"] == "hive"


def test_remote_metastore_and_cluster_master(tmp_path):
    cfg = load_config(None, environ={"WORKBENCH_METASTORE_URI": "thrift://ms:9083",
                                     "WORKBENCH_SPARK_MASTER": "yarn", "WORKBENCH_DATA_DIR": str(tmp_path)})
    conf = spark_conf(cfg)
    assert conf["spark.hadoop.hive.metastore.uris"] == "thrift://ms:9083"
    assert "spark.hadoop.javax.jdo.option.ConnectionURL" not in conf
    assert "spark.driver.bindAddress" not in conf  # executors elsewhere must reach the driver


def _workbench_settings():
    """Core's settings and the built-in features' (an outside plugin documents its own)."""
    return SETTINGS + tuple(s for cls in feature_classes() if cls.__module__.startswith("gateway.")
                            for s in cls.settings)


def _documented_settings() -> dict[str, list[str]]:
    """The rows of docs/configuration.md's settings table: setting -> [environment, default, meaning]."""
    rows: dict[str, list[str]] = {}
    for line in (ROOT / "docs" / "configuration.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 4:
            key = cells[0].strip("`")
            assert key not in rows, f"{key} is documented twice"
            rows[key] = cells[1:]
    return rows


def test_every_setting_is_documented_with_its_variable_and_default():
    rows = _documented_settings()
    for setting in _workbench_settings():
        assert setting.key in rows, f"{setting.key} is missing from docs/configuration.md"
        env, default, meaning = rows[setting.key]
        assert env == f"`{setting.env}`", setting.key
        assert default == f"`{setting.default!r}`", setting.key
        assert meaning, setting.key


def test_the_settings_table_documents_no_setting_that_does_not_exist():
    assert set(_documented_settings()) == {setting.key for setting in _workbench_settings()}


# -- negative cases ---------------------------------------------------------------------------

def test_unknown_setting_in_file(tmp_path):
    file = tmp_path / "wb.toml"
    file.write_text("[session]\nmax_session = 3\n")
    with pytest.raises(ConfigurationError, match="unknown setting 'session.max_session'"):
        load_config(file, environ={})


def test_bad_value_in_environment_names_the_variable():
    with pytest.raises(ConfigurationError, match=re.escape("WORKBENCH_SESSION_MAX_SESSIONS")):
        load_config(None, environ={"WORKBENCH_SESSION_MAX_SESSIONS": "many"})


def test_missing_file_given_explicitly(tmp_path):
    with pytest.raises(ConfigurationError, match="does not exist"):
        load_config(tmp_path / "missing.toml", environ={})


def test_invalid_toml(tmp_path):
    file = tmp_path / "wb.toml"
    file.write_text("[session\n")
    with pytest.raises(ConfigurationError, match="not valid TOML"):
        load_config(file, environ={})


def test_missing_java_says_what_to_install(monkeypatch, tmp_path):
    from gateway.errors import JavaNotFoundError
    from gateway.spark.java import java_version

    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "no-java"))
    with pytest.raises(JavaNotFoundError, match="Install Java 17 or newer"):
        java_version()


def test_old_java_is_refused_with_the_version(monkeypatch, tmp_path):
    from gateway.errors import JavaNotFoundError
    from gateway.spark.java import java_version

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "java"
    fake.write_text('#!/bin/sh\necho \'openjdk version "11.0.2" 2019-01-15\' >&2\n')
    fake.chmod(0o755)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    with pytest.raises(JavaNotFoundError, match="Java 11 was found.*needs Java 17"):
        java_version()


def test_every_java_launch_uses_the_same_binary(monkeypatch, tmp_path):
    """The driver client, the metastore's schema tool (via java_binary) and the class archives' names all take
    JAVA_HOME's java: a class archive made by one Java is never mapped by another."""
    import shutil

    from gateway.engines.cluster import launch_command
    from gateway.spark.class_archive import archive_name
    from gateway.spark.java import java_binary

    monkeypatch.delenv("JAVA_HOME", raising=False)
    system_java = java_binary()
    assert system_java == shutil.which("java")
    name_with_system_java = archive_name("engine")
    (tmp_path / "bin").mkdir()
    other_java = tmp_path / "bin" / "java"
    other_java.write_text("#!/bin/sh\nexit 0\n")
    other_java.chmod(0o755)
    monkeypatch.setenv("JAVA_HOME", str(tmp_path))
    assert java_binary() == str(other_java)
    spark_home = tmp_path / "spark"
    (spark_home / "jars").mkdir(parents=True)
    (spark_home / "jars" / "spark-connect_2.13-4.3.0.jar").write_bytes(b"")
    assert launch_command(spark_home, "spark://127.0.0.1:7077", {})[0] == str(other_java)
    assert archive_name("engine") != name_with_system_java


def test_no_java_on_path_says_where_it_looked(monkeypatch, tmp_path):
    from gateway.errors import JavaNotFoundError
    from gateway.spark.java import java_binary

    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(JavaNotFoundError, match="no `java` on PATH.*Install Java 17"):
        java_binary()
