"""The jar manager page in Streamlit's AppTest: upload, UDF classes, one-click functions, add by URI, remove."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT, run_all
from tests.jarbuild import build_jar, hive_udf_source, javac_available

pytestmark = pytest.mark.skipif(not javac_available(), reason="javac is needed to build the UDF jars")
PAGE = str(ROOT / "pages" / "jars.py")


@pytest.fixture(scope="module")
def page_jars(tmp_path_factory):
    out = tmp_path_factory.mktemp("page-jars")
    built = build_jar(out / "all", "all-ui-udfs", {
        "jt.ui.Exclaim": hive_udf_source("jt.ui.Exclaim", body="return s == null ? null : new Text(s + \"!\");"),
        "jt.ui2.Quote": hive_udf_source("jt.ui2.Quote", body="return s == null ? null : new Text(\"'\" + s + \"'\");"),
    })
    import zipfile
    jars = {}
    for package in ("ui", "ui2"):
        target = out / f"{package}-udfs.jar"
        with zipfile.ZipFile(built) as full, zipfile.ZipFile(target, "w") as jar:
            for entry in full.infolist():
                if entry.filename.startswith(("META-INF/", f"jt/{package}/")):
                    jar.writestr(entry.filename, full.read(entry))
        jars[package] = target
    return jars


def open_page(gateway, handle) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["gateway"] = gateway
    at.session_state["session_handle"] = str(handle)
    at.run()
    assert not at.exception, at.exception
    return at


def test_upload_create_functions_add_by_uri_and_remove(gateway, session, page_jars):
    at = open_page(gateway, session)
    assert "no jars yet" in at.info[0].value

    at.file_uploader(key="jar_upload").set_value(
        ("ui-udfs.jar", page_jars["ui"].read_bytes(), "application/java-archive"))
    at.run()
    assert not at.exception and "Uploaded ui-udfs" in at.success[0].value
    [jar] = gateway.list_jars(session)
    key = f"{jar.sha256[:12]}_0"
    assert at.text_input(key=f"fn_name_{key}").value == "exclaim"  # prefilled from the class name
    assert any("jt.ui.Exclaim" in m.value for m in at.markdown)

    at.button(key=f"create_{key}").click()
    at.run()
    assert "temporary function exclaim" in at.success[0].value
    assert run_all(gateway, session, "SELECT exclaim('hi')")[1] == [["hi!"]]
    assert "used by: exclaim" in " ".join(c.value for c in at.caption)

    at.text_input(key=f"fn_name_{key}").set_value("exclaim_p")
    at.selectbox(key=f"fn_scope_{key}").set_value("Persistent")
    at.button(key=f"create_{key}").click()
    at.run()
    assert "persistent function exclaim_p" in at.success[0].value
    assert gateway.get_function(session, "exclaim_p").resources[0]["path"] == jar.path

    at.text_input(key="jar_uri").set_value(page_jars["ui2"].as_uri())
    at.button(key="add_jar").click()
    at.run()
    assert "Added ui2-udfs" in at.success[0].value and len(gateway.list_jars(session)) == 2

    at.button(key=f"remove_{jar.sha256[:12]}").click()
    at.run()
    assert not at.exception and "exclaim" in at.success[0].value
    assert [j.uri for j in gateway.list_jars(session)] == [page_jars["ui2"].as_uri()]
    gateway.configure_session(session, "DROP FUNCTION IF EXISTS exclaim_p")


def test_bad_upload_and_bad_uri_show_errors(gateway, session):
    at = open_page(gateway, session)
    at.file_uploader(key="jar_upload").set_value(("notes.jar", b"plain text", "application/java-archive"))
    at.run()
    assert not at.exception and "not a jar" in at.error[0].value
    at.text_input(key="jar_uri").set_value("/no/such/dir/udfs.jar")
    at.button(key="add_jar").click()
    at.run()
    assert "does not exist" in at.error[0].value and gateway.list_jars(session) == []
