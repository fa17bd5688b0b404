"""spark.class_archive: the embedded driver's JVM options name the class archive (engine.class_archive_dir)
when it exists, else record what a dump at the stop needs. That a driver started without it writes it when the
gateway stops, and that the next driver maps it: tests/gateway/core/test_journal_restart.py (its two processes)."""
from __future__ import annotations

from pathlib import Path

from conftest import ROOT
from gateway import load_config
from gateway.spark.root import embedded_class_archive, spark_conf


def _config(tmp_path: Path, **overrides):
    return load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=str(tmp_path / "data"), engine__class_archive_dir=str(tmp_path / "archives"), **overrides)


def test_the_driver_options_name_the_archive_once_it_exists_and_keep_the_others(tmp_path):
    config = _config(tmp_path, spark__class_archive=True)
    archive = embedded_class_archive(config, spark_conf(config))
    assert archive.parent == tmp_path / "archives" and archive.name.startswith("embedded-")
    options = spark_conf(config)["spark.driver.extraJavaOptions"]
    assert "-XX:+RecordDynamicDumpInfo" in options and "SharedArchiveFile" not in options
    assert "-Dderby.system.home=" in options  # the embedded metastore's own options stay
    archive.write_bytes(b"an archive")
    options = spark_conf(config)["spark.driver.extraJavaOptions"]
    assert f"-XX:SharedArchiveFile={archive}" in options and "RecordDynamicDumpInfo" not in options
    assert "-Dderby.system.home=" in options


def test_off_by_default_and_another_class_path_gets_another_archive(tmp_path):
    options = spark_conf(_config(tmp_path))["spark.driver.extraJavaOptions"]
    assert "SharedArchiveFile" not in options and "RecordDynamicDumpInfo" not in options
    plain = _config(tmp_path, spark__class_archive=True)
    jar = tmp_path / "extra.jar"
    with_jar = _config(tmp_path, spark__class_archive=True,
                       spark__conf={"spark.driver.extraClassPath": str(jar)})
    assert embedded_class_archive(plain, spark_conf(plain)) != embedded_class_archive(with_jar, spark_conf(with_jar))
