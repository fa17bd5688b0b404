"""Beyond Flink: catalog, module and jar endpoints under /v2/sessions/{session}/…"""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from jarbuild import build_jar, hive_udf_source, javac_available
from rest_support import http, rest_session, server  # noqa: F401 - fixtures

needs_jars = pytest.mark.skipif(not javac_available(), reason="javac is needed to build the UDF jars")


@pytest.fixture
def filled(http, rest_session):
    script = ("CREATE TABLE rest_orders (id BIGINT COMMENT 'key', amount DECIMAL(10,2)) USING parquet "
              "TBLPROPERTIES ('team'='sales');"
              "CREATE OR REPLACE TEMPORARY VIEW rest_big AS SELECT * FROM rest_orders WHERE amount > 10;"
              "CREATE TEMPORARY FUNCTION rest_pi AS 'org.apache.hadoop.hive.ql.udf.UDFPI'")
    http.fetch_all(rest_session, http.execute(rest_session, script))
    yield rest_session
    http.fetch_all(rest_session, http.execute(rest_session, "DROP TABLE IF EXISTS rest_orders"))


def test_catalogs_and_databases(http, filled):
    base = f"/v2/sessions/{filled}"
    catalogs = http("GET", f"{base}/catalogs").body
    assert catalogs["currentCatalog"] == "spark_catalog" and "spark_catalog" in catalogs["catalogs"]
    databases = http("GET", f"{base}/databases?catalog=spark_catalog").body
    assert "default" in databases["databases"] and databases["currentDatabase"] == "default"


def test_tables_with_kind_filter_and_detail(http, filled):
    base = f"/v2/sessions/{filled}"
    everything = {t["name"]: t for t in http("GET", f"{base}/tables").body["tables"]}
    assert everything["rest_orders"]["kind"] == "TABLE" and not everything["rest_orders"]["isTemporary"]
    assert everything["rest_orders"]["identifier"].endswith("default.rest_orders")
    assert everything["rest_big"]["kind"] == "VIEW" and everything["rest_big"]["isTemporary"]
    views = [t["name"] for t in http("GET", f"{base}/tables?kind=VIEW").body["tables"]]
    tables = [t["name"] for t in http("GET", f"{base}/tables?kind=table").body["tables"]]
    assert "rest_big" in views and "rest_orders" not in views
    assert "rest_orders" in tables and "rest_big" not in tables
    detail = http("GET", f"{base}/tables/default.rest_orders").body
    assert [c["name"] for c in detail["columns"]] == ["id", "amount"]
    assert detail["columns"][0]["comment"] == "key"
    assert detail["columns"][1]["type"] == {"type": "DECIMAL", "nullable": True, "precision": 10, "scale": 2}
    assert detail["properties"]["team"] == "sales" and detail["provider"] == "parquet"
    missing = http("GET", f"{base}/tables/no_such_table_rest")
    assert missing.status == 404 and missing.body["error_class"] == "TABLE_OR_VIEW_NOT_FOUND"


def test_functions_and_function_detail(http, filled):
    base = f"/v2/sessions/{filled}"
    user = http("GET", f"{base}/functions?kind=USER").body["functions"]
    assert [f["name"] for f in user] == ["rest_pi"] and user[0]["isTemporary"] and user[0]["kind"] == "USER"
    builtin = {f["name"] for f in http("GET", f"{base}/functions?kind=BUILTIN").body["functions"]}
    assert "upper" in builtin and "rest_pi" not in builtin
    detail = http("GET", f"{base}/functions/rest_pi").body
    assert detail["className"] == "org.apache.hadoop.hive.ql.udf.UDFPI" and detail["isTemporary"]
    assert http("GET", f"{base}/functions/no_such_fn_rest").status == 404
    assert http("GET", f"{base}/functions?kind=SOME").status == 400


def test_catalog_of_an_unknown_session_is_404(http):
    assert http("GET", "/v2/sessions/00000000-0000-4000-8000-000000000000/catalogs").status == 404


# -- modules (FLIP-68) --------------------------------------------------------------------------------

def _names(items) -> list[str]:
    return [str(i if isinstance(i, str) else i.get("name")).lower() for i in items]


def test_modules_list_load_use_unload(http, rest_session):
    base = f"/v2/sessions/{rest_session}/modules"
    assert "core" in _names(http("GET", base).body["modules"])
    loaded = http("POST", base, {"name": "geo"})
    assert loaded.status == 200, loaded.body
    assert "geo" in _names(loaded.body["modules"])
    _, rows, _ = http.fetch_all(rest_session, http.execute(
        rest_session, "SELECT round(haversine_km(48.8566, 2.3522, 51.5074, -0.1278), 0)"))
    assert 340 <= float(rows[0][0]) <= 347  # Paris to London
    used = http("POST", f"{base}/use", {"names": ["geo", "core"]})
    assert used.status == 200 and _names(used.body["modules"])[:2] == ["geo", "core"]
    assert "geo" in _names(http("GET", f"{base}?full=true").body["modules"])
    unloaded = http("DELETE", f"{base}/geo")
    assert unloaded.status == 200 and "geo" not in _names(unloaded.body["modules"])


def test_module_errors_are_client_errors(http, rest_session):
    base = f"/v2/sessions/{rest_session}/modules"
    for answer in (http("POST", base, {"name": "no_such_module_type_xyz"}),
                   http("DELETE", f"{base}/not_loaded_xyz"),
                   http("POST", f"{base}/use", {"names": ["not_loaded_xyz"]})):
        assert 400 <= answer.status < 500 and answer.body["root_cause"], answer.body
    assert "core" in _names(http("GET", base).body["modules"])  # nothing changed


# -- jars (FLIP-214) -----------------------------------------------------------------------------------

def _jar_ref(entry) -> str:
    if isinstance(entry, str):
        return entry
    for key in ("uri", "path", "location", "name"):
        if isinstance(entry, dict) and entry.get(key):
            return entry[key]
    raise AssertionError(f"cannot tell the jar from {entry!r}")


@needs_jars
def test_jar_upload_classes_add_remove(http, rest_session, data_dir, tmp_path):
    jar = build_jar(tmp_path, "rest-udfs", {"com.example.rest.RestUpper": hive_udf_source("com.example.rest.RestUpper")})
    base = f"/v2/sessions/{rest_session}/jars"
    uploaded = http("POST", f"{base}/upload?filename=rest-udfs.jar", raw=jar.read_bytes(),
                    headers={"Content-Type": "application/java-archive"})
    assert uploaded.status == 200, uploaded.body
    ref = _jar_ref(uploaded.body["jar"])
    classes = http("GET", f"{base}/udf-classes?jar={quote(ref, safe='')}")
    assert classes.status == 200 and "com.example.rest.RestUpper" in json.dumps(classes.body)
    stored = Path(data_dir) / "rest-added.jar"
    stored.write_bytes(jar.read_bytes())
    added = http("POST", base, {"uri": str(stored)})
    assert added.status == 200 and "rest-added.jar" in json.dumps(added.body["jars"]), added.body
    listed_ref = next(_jar_ref(j) for j in added.body["jars"] if "rest-added.jar" in json.dumps(j))
    removed = http("DELETE", f"{base}?uri={quote(listed_ref, safe='')}")
    assert removed.status == 200 and "rest-added.jar" not in json.dumps(removed.body["jars"])


@needs_jars
def test_bad_upload_is_a_client_error(http, rest_session):
    answer = http("POST", f"/v2/sessions/{rest_session}/jars/upload?filename=broken.jar", raw=b"not a zip",
                  headers={"Content-Type": "application/java-archive"})
    assert 400 <= answer.status < 500 and answer.body["root_cause"]
