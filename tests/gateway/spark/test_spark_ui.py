"""Spark's web UI (issue 17 item 5): on by default, bound to 127.0.0.1, the port a setting, and each
statement's operation links to its jobs there, through the contract and REST. The run's own Spark."""
from __future__ import annotations

import re
import socket
import urllib.request
from urllib.parse import urlparse

from gateway import load_config
from gateway.spark.root import spark_conf
from rest_support import http, server  # noqa: F401 - fixtures


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode("utf-8", "replace")


def _other_local_address() -> str:
    """This host's address towards the network (not loopback), for checking what the UI listens on."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        return probe.getsockname()[0]


def test_the_ui_is_on_and_bound_to_loopback_only(gateway):
    url = gateway.get_gateway_info()["spark_ui"]
    parsed = urlparse(url)
    assert parsed.scheme == "http" and parsed.hostname == "127.0.0.1", url
    assert 4040 <= parsed.port <= 4040 + 16  # spark.ui.port's default, or Spark's retries past taken ports
    status, page = _get(url + "/jobs/")
    assert status == 200 and "Spark Jobs" in page
    other = _other_local_address()
    assert not other.startswith("127.")
    with socket.socket() as sock:  # the same port on the host's other address: nothing listens
        sock.settimeout(5)
        assert sock.connect_ex((other, parsed.port)) != 0



def test_operation_info_carries_job_pages_that_show_the_statement(gateway, session):
    statement = "SELECT count(*) AS n FROM range(0, 100000, 1, 2) WHERE id % 7 = 3"
    handle = gateway.execute_statement(session, statement)
    rows = [row for page in gateway.iter_results(session, handle, None, 60) for row in page.rows]
    assert rows
    info = gateway.get_operation_info(session, handle)
    assert info.job_group == f"workbench-op-{handle}" and info.job_ids
    base = gateway.get_gateway_info()["spark_ui"]
    assert info.job_urls == [f"{base}/jobs/job/?id={job}" for job in info.job_ids]
    assert info.spark_ui_url == (info.job_urls[0] if len(info.job_urls) == 1 else f"{base}/jobs/")
    status, page = _get(info.job_urls[-1])
    assert status == 200
    assert info.job_group in page  # Spark's job page names the group: the operation
    assert "WHERE id % 7 = 3" in page or "WHERE id %25 7 = 3" in page  # and the statement as description


def test_rest_operation_detail_has_the_links(http, gateway):
    session = http.open_session(sessionName="ui-links")
    op = http.execute(session, "SELECT sum(id) FROM range(0, 50000, 1, 2)")
    http.fetch_all(session, op)
    body = http("GET", f"/v2/sessions/{session}/operations/{op}").body
    assert body["jobGroup"] == f"workbench-op-{op}"
    assert body["jobUrls"] and all(re.fullmatch(r"http://127\.0\.0\.1:\d+/jobs/job/\?id=\d+", u) for u in body["jobUrls"])
    assert body["sparkUiUrl"] in body["jobUrls"] + [body["jobUrls"][0].split("/jobs/")[0] + "/jobs/"]
    assert http("GET", "/v2/info/details").body["spark_ui"].startswith("http://127.0.0.1:")


def test_the_port_and_the_switch_are_settings(tmp_path):
    cfg = load_config(None, environ={"WORKBENCH_DATA_DIR": str(tmp_path), "WORKBENCH_SPARK_UI_PORT": "4999"})
    assert spark_conf(cfg)["spark.ui.port"] == "4999" and spark_conf(cfg)["spark.ui.enabled"] == "true"
    off = load_config(None, environ={"WORKBENCH_DATA_DIR": str(tmp_path), "WORKBENCH_SPARK_UI_ENABLED": "false"})
    assert spark_conf(off)["spark.ui.enabled"] == "false"
    cluster = load_config(None, environ={"WORKBENCH_DATA_DIR": str(tmp_path),
                                         "WORKBENCH_SPARK_MASTER": "spark://127.0.0.1:7077"})
    assert spark_conf(cluster)["spark.driver.host"] == "127.0.0.1"  # named: SPARK_LOCAL_IP moves only the UI
