"""REST with users (auth.mode builtin, and proxy): per-user API tokens, 401 on every route without
one, authentication before the body, the Host check on a loopback bind, and ownership of sessions
and workspaces. Real HTTP on 127.0.0.1, over gateways of this run's Spark with their own stores."""
from __future__ import annotations

import json
import json
import re
import socket
import time

import pytest

from gateway import GatewayService
from gateway.rest import serve_in_background
from gateway.store import default_url
from rest_support import Http

PASSWORD = "pass-word-1"


class _Settings:
    """The gateway with some settings of its REST app changed (the proxy addresses it trusts)."""

    def __init__(self, service, **settings) -> None:
        self._service, self._settings = service, settings

    def get_setting(self, key):
        return self._settings[key] if key in self._settings else self._service.get_setting(key)

    def __getattr__(self, name):
        return getattr(self._service, name)


@pytest.fixture(scope="module")
def users_gateway(config, gateway, tmp_path_factory):
    """auth.mode builtin; users alice, bob and the admin root, each with a token."""
    store_dir = tmp_path_factory.mktemp("users-store")
    service = GatewayService(config.with_overrides(auth__mode="builtin", store__url=default_url(store_dir)))
    tokens = {}
    for name, admin in (("alice", False), ("bob", False), ("root", True)):
        service.store.add_user(name, PASSWORD, admin)
        tokens[name] = service.store.create_token(name, "tests")[0]
    server = serve_in_background(service, "127.0.0.1", 0)
    yield service, Http(server.url), tokens
    server.stop()
    service.shutdown(stop_spark=False)


@pytest.fixture(scope="module")
def api(users_gateway):
    return users_gateway[1]


@pytest.fixture(scope="module")
def tokens(users_gateway):
    return users_gateway[2]


def _routes(api) -> list[tuple[str, str]]:
    document = api("GET", "/openapi.json").body
    routes = []
    for path, item in document["paths"].items():
        concrete = re.sub(r"\{[^}]+\}", "x", path)
        routes += [(method.upper(), concrete) for method in item if method in ("get", "post", "put", "delete")]
    return routes


# -- 401 on every route --------------------------------------------------------------------------------

def test_every_api_route_answers_401_without_a_token_or_with_a_wrong_one(api, tokens):
    routes = _routes(api)
    assert len(routes) > 80
    refused = []
    for method, path in routes:
        for token, reason in ((None, "needs a user's API token"), ("wbt_not-a-token", "wrong, revoked"),
                              (tokens["alice"] + "x", "wrong, revoked")):
            answer = api(method, path, {} if method in ("POST", "PUT") else None, token=token or "")
            if answer.status != 401 or reason not in answer.body["root_cause"] \
                    or answer.headers.get("www-authenticate") != "Bearer":
                refused.append((method, path, token, answer.status))
    assert refused == [], refused[:10]
    # paths outside the document too (the /v3, /v4 and unprefixed copies, unknown ones)
    for path in ("/v3/sessions", "/sessions", "/v4/info", "/no/such/path"):
        assert api("GET", path).status == 401
    assert api("GET", "/openapi.json").status == 200  # the API's shape is no secret
    assert api("GET", "/v1/info", headers={"Authorization": "Basic YWxpY2U6cGFzcw=="}).status == 401


def test_a_token_identifies_its_user_and_records_its_last_use(users_gateway, api, tokens):
    service = users_gateway[0]
    assert api("GET", "/v2/me", token=tokens["alice"]).body == {"name": "alice", "admin": False}
    assert api("GET", "/v2/me", token=tokens["root"]).body == {"name": "root", "admin": True}
    assert service.store.list_tokens("alice")[0].last_used_at is not None
    assert api("GET", "/v1/info", token=tokens["bob"]).status == 200


def test_tokens_over_rest_are_made_listed_and_revoked_at_once(api, tokens):
    made = api("POST", "/v2/me/tokens", {"label": "notebook"}, token=tokens["bob"])
    assert made.status == 200 and made.body["token"].startswith("wbt_") and made.body["record"]["user"] == "bob"
    fresh, token_id = made.body["token"], made.body["record"]["tokenId"]
    assert api("GET", "/v2/me", token=fresh).body["name"] == "bob"
    listed = api("GET", "/v2/me/tokens", token=tokens["bob"]).body["tokens"]
    assert {t["label"] for t in listed} == {"tests", "notebook"} and all("token" not in t for t in listed)
    assert api("DELETE", f"/v2/me/tokens/{token_id}", token=tokens["alice"]).status == 404  # not alice's
    assert api("DELETE", f"/v2/me/tokens/{token_id}", token=tokens["bob"]).body["revokedAt"]
    gone = api("GET", "/v2/me", token=fresh)
    assert gone.status == 401 and "revoked" in gone.body["root_cause"]


def test_admin_routes_need_an_admin(api, tokens):
    refused = api("GET", "/v2/admin/users", token=tokens["alice"])
    assert refused.status == 403 and "for admins" in refused.body["root_cause"]
    assert [u["name"] for u in api("GET", "/v2/admin/users", token=tokens["root"]).body["users"]] == \
        ["alice", "bob", "root"]
    added = api("PUT", "/v2/admin/users/dora", {"password": "dora-pass-1"}, token=tokens["root"])
    assert added.status == 200 and added.body["hasPassword"] and not added.body["admin"]
    assert api("PUT", "/v2/admin/users/dora/admin", {"admin": True}, token=tokens["root"]).body["admin"]
    assert api("DELETE", "/v2/admin/users/dora", token=tokens["root"]).status == 200
    assert api("DELETE", "/v2/admin/users/root", token=tokens["root"]).status == 400  # not oneself


# -- before the body; the Host header -----------------------------------------------------------------

def _raw(api, request: bytes, timeout_s: float = 10.0) -> tuple[int, float]:
    started = time.monotonic()
    with socket.create_connection((api.host, api.port), timeout=timeout_s) as sock:
        sock.sendall(request)
        head = sock.recv(4096).decode("latin-1")
    return int(head.split(" ", 2)[1]), time.monotonic() - started


def test_an_unauthenticated_upload_is_refused_on_its_headers_before_its_body(api):
    # 100 MB announced (under the upload limit), not one byte sent: only a check before the body answers
    status, seconds = _raw(api, (f"POST /v2/sessions/x/jars/upload?filename=a.jar HTTP/1.1\r\n"
                                 f"Host: 127.0.0.1:{api.port}\r\nContent-Type: application/octet-stream\r\n"
                                 f"Content-Length: 100000000\r\n\r\n").encode())
    assert status == 401 and seconds < 5
    chunked = (f"POST /v2/sessions/x/jars/upload?filename=a.jar HTTP/1.1\r\nHost: localhost\r\n"
               f"Transfer-Encoding: chunked\r\n\r\n10000\r\n").encode() + b"x" * 65536
    assert _raw(api, chunked)[0] == 401


def test_the_host_header_must_name_the_loopback_on_a_loopback_bind(api, tokens):
    for host in ("evil.example", "evil.example:80", "192.0.2.1", "attacker.localhost.example"):
        answer = api("GET", "/v2/me", token=tokens["alice"], headers={"Host": host})
        assert answer.status == 400 and "DNS rebinding" in answer.body["root_cause"], host
    for host in ("localhost", f"localhost:{api.port}", f"127.0.0.1:{api.port}", "[::1]:1"):
        assert api("GET", "/v2/me", token=tokens["alice"], headers={"Host": host}).status == 200, host


# -- proxy mode -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def proxy_gateway(config, gateway, tmp_path_factory):
    store_dir = tmp_path_factory.mktemp("proxy-store")
    service = GatewayService(config.with_overrides(auth__mode="proxy", auth__trusted_proxies=["127.0.0.1"],
                                                   store__url=default_url(store_dir)))
    trusted = serve_in_background(service, "127.0.0.1", 0)
    untrusted = serve_in_background(_Settings(service, **{"auth.trusted_proxies": ["10.0.0.0/8"]}), "127.0.0.1", 0)
    yield service, Http(trusted.url), Http(untrusted.url)
    trusted.stop()
    untrusted.stop()
    service.shutdown(stop_spark=False)


def test_the_proxy_header_counts_only_from_a_trusted_address(proxy_gateway):
    service, trusted, untrusted = proxy_gateway
    me = trusted("GET", "/v2/me", headers={"X-Forwarded-User": "erin"})
    assert me.status == 200 and me.body == {"name": "erin", "admin": False}
    assert [u.name for u in service.store.list_users()] == ["erin"]  # made on first sight
    assert trusted("GET", "/v2/me").status == 401  # no header, no token
    ignored = untrusted("GET", "/v2/me", headers={"X-Forwarded-User": "erin"})
    assert ignored.status == 401
    token = service.store.create_token("erin", "")[0]
    assert untrusted("GET", "/v2/me", token=token).body["name"] == "erin"  # tokens work from anywhere


def test_rest_token_beside_users_is_refused_with_what_to_do(users_gateway):
    from gateway import ConfigurationError
    from gateway.rest import create_app
    with pytest.raises(ConfigurationError, match="Unset rest.token"):
        create_app(users_gateway[0], token="shared-secret")


# -- ownership ------------------------------------------------------------------------------------------

def test_another_users_session_answers_404_on_every_route(api, tokens):
    alice = lambda method, path, body=None: api(method, path, body, token=tokens["alice"])  # noqa: E731
    bob = lambda method, path, body=None: api(method, path, body, token=tokens["bob"])  # noqa: E731
    session = alice("POST", "/v1/sessions", {"sessionName": "alices"}).body["sessionHandle"]
    operation = alice("POST", f"/v1/sessions/{session}/statements", {"statement": "SELECT 42 AS answer"}
                      ).body["operationHandle"]
    s, o = f"/v1/sessions/{session}", f"/v1/sessions/{session}/operations/{operation}"
    foreign = [("GET", s), ("POST", s + "/heartbeat"), ("POST", s + "/statements", {"statement": "SELECT 1"}),
               ("GET", o + "/status"), ("GET", o + "/result/0"), ("POST", o + "/cancel"),
               ("GET", f"/v2/sessions/{session}/operations"), ("GET", f"/v2/sessions/{session}/tables"),
               ("GET", f"/v2/sessions/{session}/jars"), ("GET", f"/v2/sessions/{session}/modules"),
               ("PUT", f"/v2/sessions/{session}/config/spark.sql.ansi.enabled", {"value": "false"}),
               ("POST", f"/v2/sessions/{session}/configure-session", {"statement": "SET a.b = 1"}),
               ("DELETE", o + "/close"), ("DELETE", s)]
    for method, path, *body in foreign:
        answer = bob(method, path, body[0] if body else None)
        assert answer.status == 404, (method, path, answer.status, answer.body)
        assert "does not exist" in answer.body["root_cause"]
    # the same answer as a handle that never existed: nothing tells bob the session is there
    never = bob("GET", "/v1/sessions/00000000-0000-4000-8000-000000000000")
    assert never.status == 404 and never.body["error_class"] == "SessionNotFoundError"
    assert alice("GET", o + "/status").body["status"] in ("RUNNING", "FINISHED")  # untouched by bob
    rows = []
    deadline = time.monotonic() + 60
    while not rows and time.monotonic() < deadline:
        page = alice("GET", o + "/result/0").body
        rows = [r["fields"] for r in page["results"]["data"]] if page["resultType"] != "NOT_READY" else []
    assert rows == [[42]]
    assert alice("DELETE", s).status == 200


def test_the_workspace_and_history_are_per_user(api, tokens):
    alice = lambda method, path, body=None: api(method, path, body, token=tokens["alice"])  # noqa: E731
    bob = lambda method, path, body=None: api(method, path, body, token=tokens["bob"])  # noqa: E731
    tab = alice("POST", "/v2/users/alice/tabs", {"title": "mine", "text": "SELECT 'secret'"})
    assert tab.status == 200
    for method, path, body in (("GET", "/v2/users/alice/tabs", None), ("GET", "/v2/users/alice/queries", None),
                               ("GET", "/v2/users/alice/history", None),
                               ("POST", "/v2/users/alice/tabs", {"text": "x"}),
                               ("PUT", f"/v2/users/alice/tabs/{tab.body['tabId']}/text", {"text": "x"})):
        answer = bob(method, path, body)
        assert answer.status == 404 and "yours is 'bob'" in answer.body["root_cause"], (method, path)
    assert [t["title"] for t in alice("GET", "/v2/users/alice/tabs").body["tabs"]] == ["mine"]
    assert bob("GET", "/v2/users/bob/tabs").body["tabs"] == []
    # statements are filed under the user who ran them: the audit log
    session = bob("POST", "/v1/sessions", {}).body["sessionHandle"]
    operation = bob("POST", f"/v1/sessions/{session}/statements", {"statement": "SELECT 'bobs' AS who"}
                    ).body["operationHandle"]
    deadline = time.monotonic() + 60
    entries = []
    while time.monotonic() < deadline:
        entries = bob("GET", "/v2/users/bob/history").body["entries"]
        if entries and entries[0]["status"] != "RUNNING":
            break
        time.sleep(0.05)
    assert entries[0]["user"] == "bob" and entries[0]["operationHandle"] == operation
    assert all(e["user"] == "alice" for e in alice("GET", "/v2/users/alice/history").body["entries"])
    assert "SELECT 'bobs'" not in json.dumps(alice("GET", "/v2/users/alice/history").body)
    bob("DELETE", f"/v1/sessions/{session}")


def test_in_process_the_gateway_as_a_user_sees_only_its_sessions(users_gateway):
    from gateway import AuthenticationError, Principal, SessionNotFoundError
    from gateway.identity import acting_as

    service = users_gateway[0]
    as_alice, as_bob = service.as_user(Principal("alice")), service.as_user(Principal("bob"))
    handle = as_alice.open_session(name="in-process")
    assert as_alice.whoami() == Principal("alice")
    operation = as_alice.execute_statement(handle, "SELECT 1")
    with pytest.raises(SessionNotFoundError):
        as_bob.heartbeat(handle)
    with pytest.raises(SessionNotFoundError):
        list(as_bob.iter_results(handle, operation))  # a generator is checked at each step
    assert [page.rows for page in as_alice.iter_results(handle, operation) if page.rows][0]
    for unchecked in (lambda: service.heartbeat(handle), service.whoami, lambda: service.as_user(None).heartbeat(handle)):
        with acting_as(None), pytest.raises(AuthenticationError, match="needs a user: auth.mode is 'builtin'") as refused:
            unchecked()  # in process too, a call without a principal is refused (fail closed)
        assert refused.value.http_status == 401
    as_alice.heartbeat(handle)
    with pytest.raises(SessionNotFoundError):
        as_bob.close_session(handle)
    as_alice.close_session(handle)


# -- what non-admins may not do ---------------------------------------------------------------------

def _run(api, token, session, statement, timeout_s=60.0):
    operation = api("POST", f"/v1/sessions/{session}/statements", {"statement": statement}, token=token)
    assert operation.status == 200, operation.body
    handle = operation.body["operationHandle"]
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        page = api("GET", f"/v1/sessions/{session}/operations/{handle}/result/0", token=token)
        if page.status != 200 or page.body["resultType"] != "NOT_READY":
            return page
        time.sleep(0.02)
    raise AssertionError(f"{statement} did not end")


@pytest.fixture(scope="module")
def two_sessions(api, tokens):
    opened = {name: api("POST", "/v1/sessions", {}, token=tokens[name]).body["sessionHandle"]
              for name in ("alice", "root")}
    yield opened
    for name, handle in opened.items():
        api("DELETE", f"/v1/sessions/{handle}", token=tokens[name])


PASSWD = "SELECT value FROM text.`file:///etc/passwd`"


def test_a_non_admin_cannot_read_the_servers_files_through_sql(api, tokens, two_sessions):
    alice, root = two_sessions["alice"], two_sessions["root"]
    refused = _run(api, tokens["alice"], alice, PASSWD)
    assert refused.status == 400 and "root:" not in json.dumps(refused.body), refused.body
    read = _run(api, tokens["root"], root, PASSWD)  # an admin's session reads it
    assert read.status == 200 and any("root:" in str(r["fields"]) for r in read.body["results"]["data"])
    setting = _run(api, tokens["alice"], alice, "SET spark.sql.runSQLOnFiles = true")
    assert setting.status == 400 and "spark.sql.runSQLOnFiles is not allowed for 'alice'" in \
        setting.body["root_cause"], setting.body
    assert _run(api, tokens["alice"], alice, "RESET").status == 200  # back to Spark's default (true) …
    assert _run(api, tokens["alice"], alice, PASSWD).status == 400  # … yet off again for the next statement
    config = api("GET", f"/v1/sessions/{alice}", token=tokens["alice"]).body["properties"]
    assert config["spark.sql.runSQLOnFiles"] == "false"


def test_a_non_admin_cannot_add_local_jars_upload_jars_or_load_modules(api, tokens, two_sessions):
    alice = two_sessions["alice"]
    local = _run(api, tokens["alice"], alice, "ADD JAR '/etc/hostname'")
    assert local.status == 400 and "local path '/etc/hostname'" in local.body["root_cause"]
    remote = _run(api, tokens["alice"], alice, "ADD JAR 'https://repo.example/udfs.jar'")
    assert remote.status == 400 and "auth.admin_only_code" in remote.body["root_cause"]
    module = _run(api, tokens["alice"], alice, "LOAD MODULE geo")
    assert module.status == 400 and "LOAD MODULE is not allowed for 'alice'" in module.body["root_cause"]
    for method, path, body in (("POST", f"/v2/sessions/{alice}/jars", {"uri": "x.jar"}),
                               ("POST", f"/v2/sessions/{alice}/modules", {"name": "geo"}),
                               ("POST", f"/v2/sessions/{alice}/jars/upload?filename=a.jar", None)):
        answer = api(method, path, body, raw=b"PK\x03\x04" if body is None else None, token=tokens["alice"],
                     headers={"Content-Type": "application/octet-stream"} if body is None else None)
        assert answer.status == 403 and "not allowed for 'alice'" in answer.body["root_cause"], (path, answer.body)
    names = [m["name"] for m in api("GET", f"/v2/sessions/{alice}/modules", token=tokens["alice"]).body["modules"]]
    assert "geo" not in names


# -- the admin's view ---------------------------------------------------------------------------------

LONG_SCAN = "SELECT count(*) FROM range(0, 20000000000, 1, 2) WHERE id % 7 = 3"


def test_an_admin_sees_every_running_statement_and_cancels_another_users(api, tokens):
    bob = api("POST", "/v1/sessions", {"sessionName": "bobs-long"}, token=tokens["bob"]).body["sessionHandle"]
    operation = api("POST", f"/v1/sessions/{bob}/statements", {"statement": LONG_SCAN},
                    token=tokens["bob"]).body["operationHandle"]
    assert api("GET", "/v2/admin/sessions", token=tokens["alice"]).status == 403
    deadline, listed = time.monotonic() + 60, None
    while time.monotonic() < deadline:
        sessions = api("GET", "/v2/admin/sessions", token=tokens["root"]).body["sessions"]
        listed = next(s for s in sessions if s["sessionHandle"] == bob)
        if listed["operations"] and listed["operations"][0]["status"] == "RUNNING" \
                and listed["operations"][0]["progressSummary"] != "no Spark job yet":
            break
        time.sleep(0.2)
    assert listed["user"] == "bob" and listed["name"] == "bobs-long" and listed["ageS"] >= 0
    running = listed["operations"][0]
    assert running["operationHandle"] == operation and running["statement"] == LONG_SCAN
    assert running["status"] == "RUNNING" and "job" in running["progressSummary"]
    # alice cannot cancel it (it does not exist for her); the admin can
    assert api("POST", f"/v1/sessions/{bob}/operations/{operation}/cancel", token=tokens["alice"]).status == 404
    started = time.monotonic()
    assert api("POST", f"/v2/admin/sessions/{bob}/operations/{operation}/cancel", token=tokens["root"]).status == 200
    status = api("GET", f"/v1/sessions/{bob}/operations/{operation}/status", token=tokens["bob"]).body["status"]
    assert status == "CANCELED" and time.monotonic() - started < 10
    assert api("DELETE", f"/v2/admin/sessions/{bob}", token=tokens["alice"]).status == 403
    assert api("DELETE", f"/v2/admin/sessions/{bob}", token=tokens["root"]).status == 200
    assert api("GET", f"/v1/sessions/{bob}", token=tokens["bob"]).status == 404


def test_per_user_limits_on_sessions_and_running_statements(users_gateway, api, tokens):
    service = users_gateway[0]
    original = service.config
    service.config = original.with_overrides(auth__max_sessions_per_user=2, auth__max_running_per_user=1)
    opened = []
    try:
        for _ in range(2):
            opened.append(api("POST", "/v1/sessions", {}, token=tokens["bob"]).body["sessionHandle"])
        third = api("POST", "/v1/sessions", {}, token=tokens["bob"])
        assert third.status == 429 and "auth.max_sessions_per_user = 2" in third.body["root_cause"]
        assert api("POST", "/v1/sessions", {}, token=tokens["alice"]).status == 200  # per user, not for all
        first = api("POST", f"/v1/sessions/{opened[0]}/statements", {"statement": LONG_SCAN}, token=tokens["bob"])
        assert first.status == 200
        second = api("POST", f"/v1/sessions/{opened[1]}/statements", {"statement": "SELECT 1"}, token=tokens["bob"])
        assert second.status == 429 and "auth.max_running_per_user = 1" in second.body["root_cause"]
        api("POST", f"/v1/sessions/{opened[0]}/operations/{first.body['operationHandle']}/cancel", token=tokens["bob"])
        assert api("POST", f"/v1/sessions/{opened[1]}/statements", {"statement": "SELECT 1"},
                   token=tokens["bob"]).status == 200
    finally:
        service.config = original
        for handle in opened:
            api("DELETE", f"/v1/sessions/{handle}", token=tokens["bob"])


# -- who ran what, in Spark's UI ------------------------------------------------------------------------

def test_the_users_name_is_on_the_spark_job_description(users_gateway, api, tokens):
    """What Spark's UI shows as the job's description (read here from Spark's status store: the tests
    run with the UI off)."""
    service = users_gateway[0]
    session = api("POST", "/v1/sessions", {}, token=tokens["alice"]).body["sessionHandle"]
    operation = api("POST", f"/v1/sessions/{session}/statements",
                    {"statement": "SELECT count(*) AS n FROM range(0, 1000, 1, 2)"}, token=tokens["alice"]
                    ).body["operationHandle"]
    deadline, jobs = time.monotonic() + 60, []
    while not jobs and time.monotonic() < deadline:
        jobs = api("GET", f"/v2/sessions/{session}/operations/{operation}", token=tokens["alice"]).body["jobIds"]
        time.sleep(0.05)
    store = service.root.sparkContext._jsc.sc().statusStore()
    described = [store.job(job_id).description().get() for job_id in jobs]
    assert described and all(d.startswith("alice: SELECT count(*) AS n") for d in described), described
    api("DELETE", f"/v1/sessions/{session}", token=tokens["alice"])
