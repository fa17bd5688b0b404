"""engine.kind = managed: its settings are checked with errors that say what to change; the share-level keys
and each engine's spark-submit command line (no engine is started here)."""
from __future__ import annotations

import pytest

from gateway import load_config
from gateway.config import engine_kind, share_level
from gateway.engines.manager import SERVER_CLASS
from gateway.errors import ConfigurationError


def _config(tmp_path, **environ):
    values = {"WORKBENCH_ENGINE_KIND": "managed", "WORKBENCH_DATA_DIR": str(tmp_path)}
    values.update({f"WORKBENCH_{k.upper()}": v for k, v in environ.items()})
    return load_config(None, environ=values)


@pytest.fixture
def manager_of(tmp_path):
    """An EngineManager over a fresh SQLite store; nothing is started until a session attaches."""
    from gateway.engines import EngineManager
    from gateway.store import WorkbenchStore, default_url

    made = []

    def make(**environ):
        config = _config(tmp_path, **environ)
        store = WorkbenchStore(default_url(config.data_dir))
        manager = EngineManager(config, store)
        made.append((manager, store))
        return manager

    yield make
    for manager, store in made:
        manager.shutdown()
        store.close()


def test_managed_is_an_engine_kind_and_share_level_follows_auth(tmp_path):
    assert engine_kind(_config(tmp_path)) == "managed"
    assert share_level(_config(tmp_path)) == "server"  # one user (auth.mode none): one engine
    assert share_level(_config(tmp_path, auth_mode="builtin")) == "user"
    assert share_level(_config(tmp_path, engine_share_level="GROUP")) == "group"


def test_keys_per_share_level(manager_of):
    assert manager_of(engine_share_level="user").key_for("ann", "h1") == ("user:ann", "ann")
    assert manager_of(engine_share_level="connection").key_for("ann", "h1") == ("connection:h1", "ann")
    assert manager_of(engine_share_level="server").key_for("ann", "h1") == ("server", "")
    grouped = manager_of(engine_share_level="group", engine_groups='{"ann": "analysts"}')
    assert grouped.key_for("ann", "h1") == ("group:analysts", "analysts")
    assert grouped.key_for("bob", "h2") == ("user:bob", "bob")  # in no group: an engine of their own


def test_the_command_line_names_the_key_binds_loopback_and_proxies_the_user(manager_of, tmp_path):
    manager = manager_of(engine_share_level="user", engine_proxy_user="true", engine_master="yarn",
                         engine_submit_args='["--driver-memory", "2g"]', engine_conf='{"spark.executor.cores": "2"}')
    command = manager.command("user:ann", "ann", 15123, 4099, tmp_path, "workbench engine user:ann")
    assert command[0].endswith("bin/spark-submit")
    joined = " ".join(command)
    assert "--class org.apache.spark.sql.connect.service.SparkConnectServer" in joined
    assert "--master yarn" in joined and "--proxy-user ann" in joined and "--driver-memory 2g" in joined
    assert command[command.index("--name") + 1] == "workbench engine user:ann"
    for conf in ("spark.connect.grpc.binding.address=127.0.0.1", "spark.connect.grpc.binding.port=15123",
                 "spark.ui.port=4099", "spark.executor.cores=2",
                 # its sessions share its parser caches: bounded (gateway/spark/parser_cache.py)
                 "spark.sql.parser.manageParserCaches=true", "spark.sql.parser.parserDfaCacheFlushRatio=2"):
        assert conf in command, conf
    assert "spark.driver.bindAddress=127.0.0.1" not in command  # a cluster's executors must reach the driver
    local = manager_of(engine_share_level="user").command("user:ann", "ann", 15123, 4099, tmp_path, "n")
    assert "--proxy-user" not in local and "spark.driver.bindAddress=127.0.0.1" in local


def test_each_key_keeps_its_own_derby_catalog(manager_of, tmp_path):
    manager = manager_of(engine_share_level="user")
    ann = " ".join(manager.command("user:ann", "ann", 1, 2, tmp_path, "n"))
    bob = " ".join(manager.command("user:bob", "bob", 1, 2, tmp_path, "n"))
    assert "catalogs/user_ann/metastore_db" in ann and "catalogs/user_bob/metastore_db" in bob


# -- negative cases ---------------------------------------------------------------------------

@pytest.mark.parametrize("environ, message", [
    ({"engine_share_level": "team"}, r"engine.share_level .*'team'.*connection, user, group, server"),
    ({"engine_share_level": "server", "engine_proxy_user": "true"}, "no one user to proxy"),
    ({"engine_share_level": "user", "engine_proxy_user": "true", "engine_pool_size": "1"},
     "pooled engine starts before its user is known"),
    ({"engine_submit_args": '["--master", "yarn"]'}, "has --master, which the workbench sets"),
    ({"engine_submit_args": '["--name=x"]'}, "has --name"),
    ({"engine_submit_args": '[1, 2]'}, "must be a list of strings"),
    ({"engine_master": " "}, "engine.master is empty"),
])
def test_bad_managed_settings_say_what_to_change(tmp_path, environ, message):
    with pytest.raises(ConfigurationError, match=message):
        engine_kind(_config(tmp_path, **environ))


def test_a_pool_on_the_embedded_derby_metastore_is_refused(manager_of):
    with pytest.raises(ConfigurationError, match="pool_size > 0 needs a metastore every engine can open"):
        manager_of(engine_pool_size="1")
    assert manager_of(engine_pool_size="0").pool_size == 0


def test_stopping_an_unknown_engine_says_where_to_look(manager_of):
    from gateway.engines.manager import EngineNotFoundError

    with pytest.raises(EngineNotFoundError, match="GET /v2/admin/engines lists them"):
        manager_of().stop("no-such-engine")


# -- engine.deploy_mode = cluster ---------------------------------------------------------------

_STANDALONE = {"engine_master": "spark://10.0.0.5:7077", "engine_deploy_mode": "cluster",
               "metastore_hive_support": "false"}


def test_client_is_the_default_deploy_mode_and_cluster_takes_a_standalone_master(tmp_path):
    from gateway.config import deploy_mode, master_ui_url

    assert deploy_mode(_config(tmp_path)) == "client"
    config = _config(tmp_path, **_STANDALONE)
    assert deploy_mode(config) == "cluster" and engine_kind(config) == "managed"
    assert master_ui_url(config) == "http://10.0.0.5:8080"  # the master's web UI, by default on its port 8080
    assert master_ui_url(_config(tmp_path, **_STANDALONE, engine_master_ui_url="http://m:18080/")) == "http://m:18080"


@pytest.mark.parametrize("master, message", [
    ("yarn", r"not supported on YARN .*ResourceManager's REST API.*engine.deploy_mode = client"),
    ("k8s://https://k8s.example:443", r"not supported on Kubernetes .*a Service in front of the driver pod"),
    ("local[*]", r"needs a standalone cluster's master .*a local master has no workers"),
])
def test_cluster_deploy_mode_on_yarn_kubernetes_or_local_is_refused_at_start(tmp_path, master, message):
    with pytest.raises(ConfigurationError, match=message):
        engine_kind(_config(tmp_path, engine_master=master, engine_deploy_mode="cluster"))


@pytest.mark.parametrize("environ, message", [
    ({"engine_deploy_mode": "remote"}, r"engine.deploy_mode .*'remote'; use client .* or cluster"),
    ({**_STANDALONE, "engine_master_ui_url": "m:8080"}, r"engine.master_ui_url is 'm:8080'; give .* http://host:port"),
])
def test_bad_deploy_mode_settings_say_what_to_change(tmp_path, environ, message):
    from gateway.config import master_ui_url

    with pytest.raises(ConfigurationError, match=message):
        master_ui_url(_config(tmp_path, **environ)) if "engine_master_ui_url" in environ else \
            engine_kind(_config(tmp_path, **environ))


@pytest.mark.parametrize("environ, message", [
    ({"metastore_hive_support": "true"}, "needs a metastore the cluster's workers can reach"),
    ({"engine_share_level": "user", "engine_proxy_user": "true"}, "standalone cluster .* has no proxy users"),
    ({"engine_submit_args": '["--num-executors", "2"]'}, r"has '--num-executors'.*cannot pass .*engine.conf"),
    ({"engine_submit_args": '["--driver-memory"]'}, "ends with --driver-memory and no value"),
    ({"engine_submit_args": '["--conf", "spark.x"]'}, "write it --conf name=value"),
])
def test_a_cluster_mode_manager_refuses_what_its_driver_cannot_have(manager_of, environ, message):
    with pytest.raises(ConfigurationError, match=message):
        manager_of(**{**_STANDALONE, **environ})


def test_the_cluster_command_submits_the_connect_jar_through_the_standalone_driver_client(manager_of, tmp_path):
    manager = manager_of(**_STANDALONE, engine_submit_args='["--driver-memory", "2g", "--conf", "spark.a=b"]',
                         engine_conf='{"spark.executor.cores": "2"}')
    command = manager.command("user:ann", "ann", 15123, 4099, tmp_path, "workbench engine user:ann")
    launch = command.index("launch")
    assert command[launch - 5:launch] == ["org.apache.spark.deploy.Client", "--cores", "1", "--memory", "2048m"]
    assert command[launch + 1] == "spark://10.0.0.5:7077" and command[-1] == SERVER_CLASS
    assert command[launch + 2].startswith("file://") and "/jars/spark-connect_" in command[launch + 2]
    for conf in ("-Dspark.connect.grpc.binding.port=15123", "-Dspark.ui.port=4099", "-Dspark.a=b",
                 "-Dspark.driver.memory=2g", "-Dspark.executor.cores=2", "-Dspark.submit.deployMode=cluster",
                 "-Dspark.app.name=workbench engine user:ann", "-Dspark.master=spark://10.0.0.5:7077"):
        assert conf in command
    joined = " ".join(command)  # listens beyond loopback (with a token), no class archive of this host
    assert "binding.address" not in joined and "SharedArchiveFile" not in joined and "token" not in joined


def test_the_driver_clients_environment_holds_the_token_and_nothing_of_the_workbench(monkeypatch):
    from gateway.engines.cluster import client_env

    monkeypatch.setenv("WORKBENCH_REST_TOKEN", "secret-of-the-workbench")
    monkeypatch.setenv("SPARK_LOCAL_IP", "127.0.0.1")
    env = client_env("engine-token")
    assert env["SPARK_CONNECT_AUTHENTICATE_TOKEN"] == "engine-token" and env["SPARK_LOCAL_IP"] == "127.0.0.1"
    assert not [name for name in env if name.startswith("WORKBENCH_")]


@pytest.mark.parametrize("size, mb", [("512m", 512), ("2g", 2048), ("1024k", 1), ("3G", 3072), ("700", 700)])
def test_driver_memory_in_megabytes(size, mb):
    from gateway.engines.cluster import memory_mb

    assert memory_mb(size) == mb
