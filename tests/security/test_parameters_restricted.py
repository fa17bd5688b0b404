""":name parameters for a non-admin whose statements the engine guard checks (auth.mode builtin, real
REST on 127.0.0.1): the guard analyses the plan with a typed NULL per bound marker, so a parameterized
query runs, and a refused construct stays refused whatever the values say."""
import time

import pytest

from gateway import GatewayService
from gateway.rest import serve_in_background
from gateway.store import default_url
from rest_support import Http

PASSWORD = "pass-word-1"


@pytest.fixture(scope="module")
def alice(config, gateway, tmp_path_factory):
    store_dir = tmp_path_factory.mktemp("parameters-restricted-store")
    service = GatewayService(config.with_overrides(auth__mode="builtin", store__url=default_url(store_dir)))
    service.store.add_user("alice", PASSWORD, False)
    token = service.store.create_token("alice", "tests")[0]
    server = serve_in_background(service, "127.0.0.1", 0)
    api = Http(server.url, token)
    session = api("POST", "/v1/sessions", {}).body["sessionHandle"]
    yield api, session
    server.stop()
    service.shutdown(stop_spark=False)


def first_page(api, session, statement, parameters):
    answer = api("POST", f"/v1/sessions/{session}/statements", {"statement": statement, "parameters": parameters})
    if answer.status != 200:
        return answer.status, answer.body
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        page = api("GET", f"/v1/sessions/{session}/operations/{answer.body['operationHandle']}/result/0")
        if page.status != 200 or page.body["resultType"] != "NOT_READY":
            return page.status, page.body
        time.sleep(0.02)
    raise AssertionError("no result in time")


def test_a_non_admins_parameterized_query_runs(alice):
    api, session = alice
    status, body = first_page(api, session, "SELECT id FROM range(10) WHERE id = :id AND :s = 'x'",
                              {"id": 3, "s": "x"})
    assert status == 200, body
    assert [row["fields"] for row in body["results"]["data"]] == [[3]]


def test_a_refused_construct_stays_refused_with_parameters(alice):
    api, session = alice
    status, body = first_page(api, session, "SELECT reflect('java.lang.System', 'getProperty', :name)",
                              {"name": "user.home"})
    assert status >= 400 and body["error_class"] == "PermissionDeniedError", body
    # A value where the check can only see a NULL: refused (fail closed), never run unchecked.
    status, body = first_page(api, session, "SELECT reflect(:cls, 'getProperty', 'user.home')",
                              {"cls": "java.lang.System"})
    assert status >= 400, body
