"""engine.kind = managed: its settings are checked with errors that say what to change; the share-level keys
and each engine's spark-submit command line (no engine is started here)."""
from __future__ import annotations

import pytest

from gateway import load_config
from gateway.config import engine_kind, share_level
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
                 "spark.ui.port=4099", "spark.executor.cores=2"):
        assert conf in command
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
