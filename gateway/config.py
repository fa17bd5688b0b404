"""Workbench configuration: one TOML file, every setting overridable from the environment.

Each setting is declared once, with its default and a help text (Datasette's pattern);
the table in docs/configuration.md is checked against this list (and the features' settings) by a test.
"""
from __future__ import annotations

import ipaddress
import json
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from gateway.api.plugins import Setting, feature_settings
from gateway.errors import ConfigurationError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG_FILE = PROJECT_ROOT / "workbench.toml"
CONFIG_ENV = "WORKBENCH_CONFIG"


# Core's settings; each feature declares its own (``Feature.settings``), see ``all_settings``.
SETTINGS: tuple[Setting, ...] = (
    Setting("data_dir", "~/.spark-sql-workbench",
            "Directory for the warehouse, the embedded metastore, uploads and logs."),
    Setting("spark.master", "local[*]",
            "Spark master URL: local[*], spark://host:7077, yarn, k8s://https://host:443."),
    Setting("spark.app_name", "spark-sql-workbench", "Spark application name."),
    Setting("spark.conf", {}, "Extra Spark configuration (a table; in the environment a JSON object)."),
    Setting("spark.log_level", "ERROR", "Log level of the Spark driver."),
    Setting("spark.ui.enabled", True,
            "Spark's own web UI (jobs, stages, SQL plans) in the driver; each statement's operation links to its jobs."),
    Setting("spark.ui.host", "127.0.0.1",
            "Address Spark's web UI binds (the driver's SPARK_LOCAL_IP); 0.0.0.0 opens it to the network."),
    Setting("spark.ui.port", 4040,
            "First port Spark's web UI tries; when it is taken Spark tries the next ones (spark.port.maxRetries, 16)."),
    Setting("spark.class_archive", False,
            "engine.kind = embedded: the workbench's own Spark driver starts from a JVM class-data archive (AppCDS) "
            "in engine.class_archive_dir: a shorter (re)start. A process that started without one writes it when it "
            "stops (the classes its statements loaded; a few seconds more of that stop, once)."),
    Setting("engine.kind", "embedded",
            "Where statements run: embedded (a Spark driver inside the workbench process, spark.* settings), "
            "connect (an existing Spark Connect server at engine.url; nothing of Spark runs in the workbench) or "
            "managed (Spark Connect servers the workbench starts itself, one per engine.share_level key; "
            "docs/engines.md)."),
    Setting("engine.url", "",
            "engine.kind = connect: the Spark Connect server, sc://host:port/;token=…;use_ssl=true (the token is "
            "Spark 4's static-token auth; set it in the environment, not the file)."),
    Setting("engine.share_level", "",
            "engine.kind = managed: who shares an engine: connection (each session its own), user, group "
            "(engine.groups) or server (one for all); empty: user when auth.mode is not none, else server."),
    Setting("engine.groups", {},
            "engine.share_level = group: each user's group (a table user = group; in the environment a JSON "
            "object); a user in no group gets an engine of their own."),
    Setting("engine.idle_timeout_s", 1800.0,
            "engine.kind = managed: an engine without sessions this long is stopped (0 = never)."),
    Setting("engine.pool_size", 0,
            "engine.kind = managed: engines started ahead, so that a key's first session takes one instead of "
            "waiting for a JVM."),
    Setting("engine.master", "local[*]",
            "engine.kind = managed: the Spark master of each engine (any master spark-submit takes: local[*], "
            "spark://host:7077, yarn, k8s://https://host:443)."),
    Setting("engine.deploy_mode", "client",
            "engine.kind = managed: where each engine's driver (its Spark Connect server) runs: client (a spark-submit "
            "child of the workbench on this host, bound to 127.0.0.1) or cluster (on a worker of a standalone "
            "cluster, engine.master spark://…, reached with a per-engine token; docs/engines.md)."),
    Setting("engine.master_ui_url", "",
            "engine.deploy_mode = cluster: the standalone master's web UI, whose /json/ says on which worker an "
            "engine's driver runs; empty: http://<engine.master's host>:8080."),
    Setting("engine.start_timeout_s", 120.0,
            "engine.kind = managed: longest wait for a starting engine to listen; then it is stopped and the start "
            "fails (retried once) with the end of its log."),
    Setting("engine.conf", {},
            "engine.kind = managed: extra Spark settings of each engine, passed as --conf key=value (a table; in "
            "the environment a JSON object)."),
    Setting("engine.submit_args", [],
            "engine.kind = managed: extra spark-submit arguments of each engine, e.g. [\"--driver-memory\", \"2g\"] "
            "(not --class, --master, --name, --proxy-user: the workbench sets those)."),
    Setting("engine.proxy_user", False,
            "engine.kind = managed, share level user or connection: start each engine with --proxy-user <its user> "
            "(YARN and HDFS, the workbench running as a Hadoop superuser)."),
    Setting("engine.class_archive", True,
            "engine.kind = managed: engines started by this host start from a JVM class-data archive (AppCDS) of "
            "a warmed engine's classes, kept under the data directory: a shorter start and first statement. The "
            "first engine writes it after its first statement; false starts every engine without one."),
    Setting("engine.class_archive_dir", "",
            "Folder of the JVM class-data archives (engine.class_archive, spark.class_archive); empty: "
            "<data_dir>/engines. Workbench processes of one host with data directories of their own (instances, "
            "a redeploy on a fresh directory) pointed at one folder share the archives: one writes, all start from it."),
    Setting("metastore.uri", "",
            "Remote Hive metastore (thrift://host:9083); empty for the embedded Derby metastore."),
    Setting("metastore.hive_support", True, "Use a Hive metastore; false uses Spark's in-memory catalog."),
    Setting("metastore.jdbc_url", "",
            "The Hive metastore in a database, shared by several workbench processes: "
            "jdbc:postgresql://host:5432/metastore (tables created at start); empty for the embedded Derby metastore."),
    Setting("metastore.jdbc_user", "", "User of the metastore database (metastore.jdbc_url)."),
    Setting("metastore.jdbc_password", "", "Password of the metastore database; set it in the environment, not the file."),
    Setting("metastore.jdbc_driver_jar", "/usr/share/java/postgresql.jar",
            "JDBC driver jar for metastore.jdbc_url (Debian's libpostgresql-jdbc-java installs this one)."),
    Setting("session.idle_timeout_s", 1800.0, "A session unused this long is closed (0 = never)."),
    Setting("session.check_interval_s", 60.0, "How often idle sessions are looked for."),
    Setting("session.max_sessions", 64, "Most sessions open at once; opening one more is an error."),
    Setting("session.restore", True,
            "Reopen the sessions that were open when the workbench stopped, with their handles, users and state "
            "(the session journal in the store: SET, USE, temporary views and functions, modules, jars)."),
    Setting("operation.pool_size", 64,
            "Threads that run statements, shared by all sessions: as many as sessions, so that one session's short "
            "statement never queues behind others' long ones (Spark's FAIR pools share the cores)."),
    Setting("operation.timeout_ms", 0, "Default statement timeout in milliseconds (0 = none)."),
    Setting("operation.max_running_per_session", 2,
            "Pool threads one session's statements may hold at once (0 = a quarter of operation.pool_size); "
            "its other statements wait in the session's own queue."),
    Setting("operation.max_queued_per_session", 16,
            "Statements one session may have waiting for a pool thread; one more is refused with HTTP 429."),
    Setting("operation.wait_timeout_s", 60.0,
            "Longest a call waits for a statement to end (configure_session); then the statement is canceled "
            "and the call answers HTTP 503."),
    Setting("operation.profiles_per_session", 20,
            "Query profiles (operator metrics, stages) kept per session after their operations end; the oldest go first."),
    Setting("operation.max_waiting_calls", 16,
            "Calls that may wait for a statement at once, across all sessions; one more answers HTTP 503 at once "
            "(keeps the REST API's workers free for other calls)."),
    Setting("health.check_interval_s", 0.5,
            "How often the driver JVM's life and heap are checked (0 = never: no memory guard, a dead JVM unseen)."),
    Setting("health.memory_guard_fraction", 0.85,
            "Above this share of the driver heap live after garbage collection, the newest statement still producing "
            "a result is stopped with DRIVER_MEMORY_EXHAUSTED (0 = no guard)."),
    Setting("health.exit_after_s", 3.0,
            "After the driver JVM died, every call answers 503 and the process exits with code 75 after this many "
            "seconds so that its supervisor restarts it (0 = do not exit)."),
    Setting("health.max_restarts", 5,
            "./workbench and python -m gateway serve start a new process when the driver died (exit code 75), at most "
            "this many times in a row."),
    Setting("health.restart_reset_after_s", 300.0,
            "A process that ran this long before its driver died was healthy: the count of restarts in a row starts "
            "again."),
    Setting("health.probe_timeout_s", 10.0,
            "The health call says DEGRADED (HTTP 503) when the driver has not answered the watchdog's probe for this "
            "long, or statements have waited this long for a thread while every thread is busy (0 = never)."),
    Setting("result.buffer_max_rows", 50_000, "Most rows an operation buffers before its producer waits."),
    Setting("result.buffer_max_bytes", 64 * 1024 * 1024,
            "Most Arrow bytes an operation buffers before its producer waits."),
    Setting("result.max_streams", 4,
            "Large results streamed at once across all sessions (each may hold two partitions in the driver heap); "
            "one more waits up to operation.wait_timeout_s, then fails saying so (0 = no bound)."),
    Setting("result.stream_memory_fraction", 0.5,
            "Share of the driver heap that streamed results may reserve together (Spark's estimate of their partitions, "
            "four times over: copies while they arrive); one that does not fit waits up to operation.wait_timeout_s, "
            "then fails saying so (0 = no budget)."),
    Setting("result.page_rows", 1000, "Rows in a fetched page when the client gives no max_rows."),
    Setting("result.fetch_wait_ms", 200, "How long a fetch waits for the first rows before NOT_READY."),
    Setting("result.spool_max_rows", 10_000_000,
            "Most rows of one operation's result spool (whole-result sort, filter, chart, export); a larger result "
            "is spooled up to it, its Spark jobs stopped, and the spool says so."),
    Setting("result.spool_max_bytes", 2 * 1024 * 1024 * 1024,
            "Most Parquet bytes of one operation's result spool on disk; a larger result stops there and says so."),
    Setting("statement.max_chars", 512 * 1024, "Longest statement text accepted."),
    Setting("statement.max_nesting", 256,
            "Deepest nesting of parentheses accepted in a statement; deeper is refused as too deeply nested."),
    Setting("statement.max_comment_nesting", 32,
            "Deepest nesting of /* */ block comments accepted in a statement (0 = no bound); Spark's lexer needs "
            "time and heap that grow much faster than that depth (depth 400: 15 s, 800: 94 s and 850 MiB)."),
    Setting("store.url", "",
            "Database of drafts, saved queries and history: empty for an SQLite file in the data directory "
            "(workbench.db), or a URL such as postgresql+psycopg://user:password@host/db for several processes."),
    Setting("store.max_text_chars", 1_000_000,
            "Longest tab draft or saved query text the store keeps, in characters."),
    Setting("rest.enabled", False, "Start the REST API (FLIP-91) beside the Streamlit app, over the same sessions."),
    Setting("rest.host", "127.0.0.1",
            "Address the REST API binds; a non-loopback address is refused unless rest.token is set or auth.mode "
            "is not none."),
    Setting("rest.port", 8083, "Port of the REST API."),
    Setting("rest.token", "", "Bearer token every REST request must carry (empty: no token, loopback only)."),
    Setting("rest.max_request_bytes", 4 * 1024 * 1024, "Largest REST request body (JSON) accepted."),
    Setting("rest.max_upload_bytes", 128 * 1024 * 1024, "Largest jar accepted by the REST upload."),
    Setting("rest.allowed_origins", [],
            "Origins (https://host:port) of other web pages that may send POST, PUT, PATCH and DELETE to the REST "
            "API from a browser; the API's own origin always may, every other origin gets 403 (docs/rest.md)."),
    Setting("auth.mode", "none",
            "Who may use the workbench: none (one user, loopback only), builtin (users and passwords in the "
            "store), proxy (a trusted reverse proxy's header names the user), oidc (Streamlit's st.login). "
            "With any mode but none, REST needs a per-user API token (docs/users.md)."),
    Setting("auth.proxy_header", "X-Forwarded-User",
            "auth.mode = proxy: the request header that carries the user's name."),
    Setting("auth.admin_only_code", True,
            "With auth on: jar uploads and statements that load code (ADD JAR/FILE/ARCHIVE, CREATE FUNCTION … "
            "AS 'class' with or without USING JAR, LOAD MODULE) are for admins only; false lets every user do "
            "them (a local path stays admin-only)."),
    Setting("auth.non_admin_allow", [],
            "With auth on: what Spark's plan of a non-admin's statement may reach on the server, from "
            "script_transform (TRANSFORM … USING 'program'), reflection (reflect, java_method), directory_writes "
            "(INSERT OVERWRITE DIRECTORY), local_files (LOAD DATA, a table at a LOCATION or path), code (ADD JAR/FILE/"
            "ARCHIVE, CREATE FUNCTION … AS 'class'), unchecked_execution (EXECUTE IMMEDIATE, BEGIN … END); "
            "empty (the default): none of them. Admins may do all."),
    Setting("auth.max_sessions_per_user", 0,
            "With auth on: most sessions one user may have open (0 = no limit beyond session.max_sessions)."),
    Setting("auth.max_running_per_user", 0,
            "With auth on: most statements one user may have running or waiting at once (0 = no limit)."),
    Setting("auth.login_max_failures", 5,
            "Wrong passwords (auth.mode builtin) in a row for one user name, or from one client address, before "
            "its logins are locked for auth.login_lockout_s (0 = no limit)."),
    Setting("auth.login_lockout_s", 30.0,
            "First lock after auth.login_max_failures wrong logins; each wrong one after a lock doubles the next "
            "lock, up to auth.login_max_lockout_s. A right login clears the count (0 = no lock)."),
    Setting("auth.login_max_lockout_s", 900.0, "Longest lock of a user name or client address after wrong logins."),
    Setting("auth.login_max_age_s", 604800.0,
            "auth.mode = builtin: how long a browser stays logged in (its HttpOnly login cookie and the store's "
            "record of it) across reloads and new tabs, unless it logs out first (default 7 days)."),
    Setting("auth.oidc_user_claim", "email",
            "auth.mode = oidc: the claim of the identity token that names the user (email, preferred_username, sub)."),
    Setting("auth.trusted_proxies", [],
            "auth.mode = proxy: the addresses (IPs or networks such as 10.0.0.0/8) whose header is believed; "
            "from any other address the header is ignored."),
)

AUTH_MODES = ("none", "builtin", "proxy", "oidc")


def is_loopback(host: str) -> bool:
    """Is ``host`` (a name or an address, IPv6 maybe in brackets) this machine only? Binds and Host headers."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def auth_mode(config: "WorkbenchConfig") -> str:
    """The configured auth.mode, checked (a typo must not leave the workbench open)."""
    mode = str(config["auth.mode"]).strip().lower()
    if mode not in AUTH_MODES:
        raise ConfigurationError(f"auth.mode (environment WORKBENCH_AUTH_MODE) is {config['auth.mode']!r}; "
                                 f"use one of {', '.join(AUTH_MODES)} (docs/users.md)")
    if mode == "proxy" and not config["auth.trusted_proxies"]:
        raise ConfigurationError("auth.mode = proxy needs auth.trusted_proxies (WORKBENCH_AUTH_TRUSTED_PROXIES, a "
                                 "JSON list such as [\"127.0.0.1\"]): the addresses of the proxy whose user header "
                                 "is believed")
    if mode == "proxy":
        import ipaddress
        for entry in config["auth.trusted_proxies"]:
            try:
                ipaddress.ip_network(str(entry), strict=False)
            except ValueError:
                raise ConfigurationError(f"auth.trusted_proxies has {entry!r}, which is not an IP address or "
                                         f"network; use e.g. 127.0.0.1 or 10.0.0.0/8") from None
    return mode


ENGINE_KINDS = ("embedded", "connect", "managed")
SHARE_LEVELS = ("connection", "user", "group", "server")
DEPLOY_MODES = ("client", "cluster")
# spark-submit options the workbench sets for a managed engine itself (engine.submit_args may not).
_MANAGED_SUBMIT_OPTIONS = ("--class", "--master", "--name", "--proxy-user", "--deploy-mode")
_CONNECT_URL_FORM = "sc://host:port/;token=…;use_ssl=true (port defaults to 15002; parameters optional)"


def engine_kind(config: "WorkbenchConfig") -> str:
    """The configured engine.kind, checked; with connect, engine.url is checked too (``connect_url``)."""
    kind = str(config["engine.kind"]).strip().lower()
    if kind not in ENGINE_KINDS:
        raise ConfigurationError(f"engine.kind (environment WORKBENCH_ENGINE_KIND) is {config['engine.kind']!r}; "
                                 f"use one of {', '.join(ENGINE_KINDS)} (docs/engines.md)")
    if kind == "connect":
        connect_url(config)
    if kind == "managed":
        share_level(config)
        managed_submit_args(config)
        deploy_mode(config)
    return kind


def share_level(config: "WorkbenchConfig") -> str:
    """engine.share_level checked; empty means user with authentication on, server without."""
    level = str(config["engine.share_level"]).strip().lower()
    if not level:
        level = "server" if auth_mode(config) == "none" else "user"
    if level not in SHARE_LEVELS:
        raise ConfigurationError(f"engine.share_level (environment WORKBENCH_ENGINE_SHARE_LEVEL) is "
                                 f"{config['engine.share_level']!r}; use one of {', '.join(SHARE_LEVELS)} "
                                 f"(docs/engines.md, Managed engines)")
    if config["engine.proxy_user"] and level in ("group", "server"):
        raise ConfigurationError(f"engine.proxy_user needs engine.share_level user or connection: an engine of "
                                 f"share level {level} runs for several users, so there is no one user to proxy")
    if config["engine.proxy_user"] and config["engine.pool_size"]:
        raise ConfigurationError("engine.proxy_user needs engine.pool_size = 0: a pooled engine starts before its "
                                 "user is known, so it cannot run as that user")
    return level


def deploy_mode(config: "WorkbenchConfig") -> str:
    """engine.deploy_mode checked against engine.master: cluster needs a standalone master (spark://), the one
    cluster manager whose driver the workbench can find, reach and stop (and that the suite tests)."""
    mode = str(config["engine.deploy_mode"]).strip().lower()
    if mode not in DEPLOY_MODES:
        raise ConfigurationError(f"engine.deploy_mode (environment WORKBENCH_ENGINE_DEPLOY_MODE) is "
                                 f"{config['engine.deploy_mode']!r}; use client (the engine's driver on this host) "
                                 f"or cluster (on a worker of a standalone cluster; docs/engines.md)")
    master = str(config["engine.master"]).strip()
    if mode == "cluster" and not master.startswith("spark://"):
        if master.startswith(("yarn", "k8s://")):
            manager, needs = ("YARN", "the ResourceManager's REST API for the application master's host") \
                if master.startswith("yarn") else ("Kubernetes", "a Service in front of the driver pod")
            raise ConfigurationError(
                f"engine.deploy_mode = cluster is not supported on {manager} (engine.master = {master!r}) yet: the "
                f"workbench would need {needs} to reach the engine's driver, and neither is implemented or tested; "
                f"use engine.deploy_mode = client (the driver on this host, executors on {manager}) or a standalone "
                f"master (spark://host:7077)")
        raise ConfigurationError(f"engine.deploy_mode = cluster needs a standalone cluster's master (engine.master = "
                                 f"spark://host:7077), not {master!r}: a local master has no workers to run a driver "
                                 f"on; use engine.deploy_mode = client")
    return mode


def master_ui_url(config: "WorkbenchConfig") -> str:
    """The standalone master's web UI (engine.master_ui_url, else port 8080 of engine.master's first host)."""
    url = str(config["engine.master_ui_url"]).strip().rstrip("/")
    if url:
        if not url.startswith(("http://", "https://")):
            raise ConfigurationError(f"engine.master_ui_url is {url!r}; give the standalone master's web UI as "
                                     f"http://host:port (its /json/ lists the drivers and workers)")
        return url
    first = str(config["engine.master"]).strip()[len("spark://"):].split(",")[0]
    return f"http://{first.rsplit(':', 1)[0]}:8080"


def managed_submit_args(config: "WorkbenchConfig") -> list[str]:
    """engine.submit_args checked: strings, none of the options the workbench sets itself."""
    args = config["engine.submit_args"]
    if not all(isinstance(a, str) for a in args):
        raise ConfigurationError(f"engine.submit_args must be a list of strings, e.g. [\"--driver-memory\", "
                                 f"\"2g\"]; it has {[a for a in args if not isinstance(a, str)][:3]!r}")
    for arg in args:
        option = arg.split("=", 1)[0]
        if option in _MANAGED_SUBMIT_OPTIONS:
            raise ConfigurationError(f"engine.submit_args has {option}, which the workbench sets for each managed "
                                     f"engine itself (engine.master, engine.proxy_user, the engine's name); "
                                     f"remove it")
    if not str(config["engine.master"]).strip():
        raise ConfigurationError("engine.master is empty; name the Spark master of managed engines, e.g. local[*]")
    return list(args)


def connect_url(config: "WorkbenchConfig") -> str:
    """engine.url checked against the form Spark Connect's client reads (pyspark's DefaultChannelBuilder), with
    an error that says what is wrong and the form expected; never the URL itself in the error (it may hold a token)."""
    from urllib.parse import urlparse

    url = str(config["engine.url"]).strip()

    def bad(what: str) -> ConfigurationError:
        return ConfigurationError(f"engine.url (environment WORKBENCH_ENGINE_URL) {what}; engine.kind = connect "
                                  f"expects {_CONNECT_URL_FORM}")

    if not url:
        raise bad("is empty")
    if not url.startswith("sc://"):
        raise bad(f"starts with {url.split('://')[0][:10]!r}://, not sc://" if "://" in url else "has no sc:// scheme")
    parsed = urlparse("http" + url[2:])
    if parsed.path not in ("", "/"):
        raise bad(f"has the path {parsed.path!r}; only parameters may follow the host and port, after '/;'")
    if parsed.query or parsed.fragment:
        raise bad("has a '?' query or '#' fragment; parameters follow '/;' separated by ';'")
    if not parsed.hostname:
        raise bad("names no host")
    try:
        port = parsed.port
    except ValueError:
        raise bad("has a port that is not a number from 1 to 65535") from None
    if port == 0:
        raise bad("has port 0")
    params: dict[str, str] = {}
    for part in filter(None, parsed.params.split(";")):
        key, sep, value = part.partition("=")
        if not sep or not key or "=" in value:
            raise bad(f"has the parameter {key or part[:20]!r} that is not one key=value pair")
        params[key] = value
    if params.get("use_ssl", "false").lower() not in ("true", "false"):
        raise bad("has use_ssl that is neither true nor false")
    if "token" in params and not params["token"]:
        raise bad("has an empty token")
    return url


def all_settings() -> tuple[Setting, ...]:
    """Core's settings and those of every installed feature, each declared once."""
    settings = SETTINGS + tuple(feature_settings())
    keys = [s.key for s in settings]
    duplicated = sorted({k for k in keys if keys.count(k) > 1})
    if duplicated:
        raise ConfigurationError(f"settings declared twice (by core and a feature, or two features): {duplicated}")
    return settings


def _by_key() -> dict[str, Setting]:
    return {s.key: s for s in all_settings()}


@dataclass
class WorkbenchConfig:
    """Resolved configuration: defaults, then the file, then the environment."""

    values: dict[str, Any] = field(default_factory=dict)
    source: Optional[Path] = None

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    @property
    def data_dir(self) -> Path:
        return Path(os.path.expanduser(str(self.values["data_dir"]))).resolve()

    def with_overrides(self, **overrides: Any) -> "WorkbenchConfig":
        """A copy with some settings changed; keys use ``__`` for dots (``session__max_sessions``)."""
        values = dict(self.values)
        for name, value in overrides.items():
            key = name.replace("__", ".")
            known = _by_key()
            if key not in known:
                raise ConfigurationError(f"unknown setting {key!r}; known: {', '.join(known)}")
            values[key] = _coerce(known[key], value)
        return WorkbenchConfig(values, self.source)


def _flatten(table: dict, known: dict[str, Setting], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict) and key not in known:
            flat.update(_flatten(value, known, key + "."))
        else:
            flat[key] = value
    return flat


def _coerce(setting: Setting, value: Any) -> Any:
    default = setting.default
    try:
        if isinstance(default, bool):
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(value)
                return value.lower() in ("true", "1", "yes")
            return bool(value)
        if isinstance(default, list):
            parsed = json.loads(value) if isinstance(value, str) else value
            if not isinstance(parsed, list):
                raise ValueError(value)
            return list(parsed)
        if isinstance(default, dict):
            parsed = json.loads(value) if isinstance(value, str) else value
            if not isinstance(parsed, dict):
                raise ValueError(value)
            return {str(k): str(v) for k, v in parsed.items()}
        if isinstance(default, (int, float)):
            number = type(default)(value)
            if number < 0:
                raise ValueError(value)
            return number
        return str(value)
    except (ValueError, TypeError):
        raise ConfigurationError(
            f"setting {setting.key} (environment {setting.env}) has the bad value {value!r}: "
            f"expected {type(default).__name__} like {default!r}. {setting.help}") from None


def load_config(path: Optional[str | os.PathLike] = None, environ: Optional[dict] = None) -> WorkbenchConfig:
    """Read defaults, then ``path`` (or $WORKBENCH_CONFIG, or the project's workbench.toml), then the environment."""
    environ = dict(os.environ if environ is None else environ)
    file = Path(path) if path else Path(environ[CONFIG_ENV]) if environ.get(CONFIG_ENV) else DEFAULT_CONFIG_FILE
    known = _by_key()
    values = {s.key: s.default for s in known.values()}
    source = None
    if file.exists():
        try:
            data = tomllib.loads(file.read_text())
        except tomllib.TOMLDecodeError as exc:
            raise ConfigurationError(f"configuration file {file} is not valid TOML: {exc}") from None
        for key, value in _flatten(data, known).items():
            if key not in known:
                raise ConfigurationError(
                    f"configuration file {file} has the unknown setting {key!r}; known: {', '.join(known)}")
            values[key] = _coerce(known[key], value)
        source = file
    elif path:
        raise ConfigurationError(f"configuration file {file} does not exist")
    for setting in known.values():
        if setting.env in environ:
            values[setting.key] = _coerce(setting, environ[setting.env])
    return WorkbenchConfig(values, source)
