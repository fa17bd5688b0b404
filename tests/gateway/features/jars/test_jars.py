"""Jars and functions from jars (FLIP-214) on the real Spark, with real jars built by javac."""
from __future__ import annotations

import functools
import http.server
import io
import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import zipfile
from pathlib import Path

import pytest

from gateway import InvalidRequestError, InvalidStatementError, ResourceError, SqlExecutionError
from gateway.features.jars.function_sql import create_function_statement, parse_create_function
from gateway.features.jars.store import JarStore, UdfClass, hadoop_fetcher, read_class_header, udf_classes
from gateway.features.jars.resources import function_calls
from tests.conftest import ROOT, run_all
from tests.jarbuild import build_jar, hive_udf_source, javac_available
from tests.jvm_support import short_lived_jvm

pytestmark = pytest.mark.skipif(not javac_available(), reason="javac is needed to build the UDF jars")

GENERIC_UDF = """package {package};
import org.apache.hadoop.hive.ql.exec.UDFArgumentException;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDF;
import org.apache.hadoop.hive.serde2.objectinspector.ObjectInspector;
import org.apache.hadoop.hive.serde2.objectinspector.primitive.PrimitiveObjectInspectorFactory;
public class {name} extends GenericUDF {{
  public ObjectInspector initialize(ObjectInspector[] args) throws UDFArgumentException {{
    if (args.length != 1) throw new UDFArgumentException("takes one argument");
    return PrimitiveObjectInspectorFactory.javaStringObjectInspector;
  }}
  public Object evaluate(DeferredObject[] args) throws HiveException {{
    Object value = args[0].get();
    return value == null ? null : value.toString() + value.toString();
  }}
  public String getDisplayString(String[] children) {{ return "twice(" + children[0] + ")"; }}
}}
"""
ABSTRACT_BASE = """package jt.basic;
public abstract class BaseUdf extends org.apache.hadoop.hive.ql.exec.UDF {}
"""
SHOUT_THROUGH_BASE = """package jt.basic;
import org.apache.hadoop.io.Text;
public class Shout extends BaseUdf {
  public Text evaluate(Text s) { return s == null ? null : new Text(s.toString().toUpperCase() + "!"); }
}
"""
HELPER = "package jt.basic;\npublic class Helper { public static int one() { return 1; } }\n"
LEGACY_UDAF = "package jt.basic;\npublic class Legacy extends org.apache.hadoop.hive.ql.exec.UDAF {}\n"
SPARK_UDAF = """package jt.basic;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.MutableAggregationBuffer;
import org.apache.spark.sql.expressions.UserDefinedAggregateFunction;
import org.apache.spark.sql.types.*;
public class CountAll extends UserDefinedAggregateFunction {
  public StructType inputSchema() { return new StructType().add("x", DataTypes.StringType); }
  public StructType bufferSchema() { return new StructType().add("n", DataTypes.LongType); }
  public DataType dataType() { return DataTypes.LongType; }
  public boolean deterministic() { return true; }
  public void initialize(MutableAggregationBuffer b) { b.update(0, 0L); }
  public void update(MutableAggregationBuffer b, Row r) { b.update(0, b.getLong(0) + 1L); }
  public void merge(MutableAggregationBuffer b, Row r) { b.update(0, b.getLong(0) + r.getLong(0)); }
  public Object evaluate(Row r) { return r.getLong(0); }
}
"""
GENERIC_UDTF = """package jt.basic;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.UDFArgumentException;
import org.apache.hadoop.hive.ql.metadata.HiveException;
import org.apache.hadoop.hive.ql.udf.generic.GenericUDTF;
import org.apache.hadoop.hive.serde2.objectinspector.*;
import org.apache.hadoop.hive.serde2.objectinspector.primitive.PrimitiveObjectInspectorFactory;
public class SplitWords extends GenericUDTF {
  public StructObjectInspector initialize(StructObjectInspector args) throws UDFArgumentException {
    return ObjectInspectorFactory.getStandardStructObjectInspector(Arrays.asList("word"),
        Arrays.<ObjectInspector>asList(PrimitiveObjectInspectorFactory.javaStringObjectInspector));
  }
  public void process(Object[] args) throws HiveException {
    if (args[0] == null) return;
    for (String word : args[0].toString().split(" ")) forward(new Object[] {word});
  }
  public void close() {}
}
"""


def _reverse(package):
    return hive_udf_source(f"{package}.Reverse",
                           body="return s == null ? null : new Text(new StringBuilder(s.toString()).reverse().toString());")


@pytest.fixture(scope="module")
def jars(tmp_path_factory):
    """Real jars: Hive UDFs (one through an abstract base), a GenericUDF, and jars for USING, http,
    persistence. One javac run compiles them all; each package is packed into its own jar."""
    out = tmp_path_factory.mktemp("udf-jars")
    sources = {"jt.basic.BaseUdf": ABSTRACT_BASE, "jt.basic.Shout": SHOUT_THROUGH_BASE, "jt.basic.Helper": HELPER,
               "jt.basic.Twice": GENERIC_UDF.format(package="jt.basic", name="Twice"),
               "jt.basic.Legacy": LEGACY_UDAF, "jt.basic.CountAll": SPARK_UDAF, "jt.basic.SplitWords": GENERIC_UDTF,
               "jt.persist.Twice": GENERIC_UDF.format(package="jt.persist", name="Twice")}
    for package in ("using", "remote", "shared", "page"):
        sources[f"jt.{package}.Reverse"] = _reverse(f"jt.{package}")
    everything = build_jar(out / "all", "all-udfs", sources)
    return {package: _jar_of_package(everything, package, out / f"{package}-udfs.jar")
            for package in ("basic", "using", "remote", "persist", "shared", "page")}


def _jar_of_package(source: Path, package: str, target: Path) -> Path:
    with zipfile.ZipFile(source) as full, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as jar:
        for entry in full.infolist():
            if entry.filename.startswith(("META-INF/", f"jt/{package}/")):
                jar.writestr(entry.filename, full.read(entry))
    return target


def query(gateway, session, sql):
    return run_all(gateway, session, sql)[1]


def failure(gateway, session, sql) -> str:
    _, _, page = run_all(gateway, session, sql)
    assert page.exception is not None, f"{sql} should have failed"
    return page.exception["root_cause"]


# -- ADD JAR, CREATE TEMPORARY FUNCTION, SHOW JARS -----------------------------------------------

def test_add_jar_then_temporary_functions_from_a_hive_udf_and_a_generic_udf(gateway, session, jars):
    gateway.configure_session(session, f"ADD JAR '{jars['basic']}'")
    gateway.configure_session(session, "CREATE TEMPORARY FUNCTION shout AS 'jt.basic.Shout'")
    gateway.configure_session(session, "CREATE TEMPORARY FUNCTION twice AS 'jt.basic.Twice' LANGUAGE JAVA")
    assert query(gateway, session, "SELECT shout('hi'), twice('ab')") == [["HI!", "abab"]]

    [jar] = gateway.list_jars(session)
    assert jar.uri == str(jars["basic"]) and jar.functions == ["shout", "twice"]
    assert Path(jar.path).is_file() and jar.sha256 in jar.path  # a content-addressed copy
    assert Path(jar.path).read_bytes() == jars["basic"].read_bytes()
    columns, rows, _ = run_all(gateway, session, "SHOW JARS")
    assert [c.name for c in columns][:2] == ["jar", "path"]
    assert rows[0][0] == str(jars["basic"]) and rows[0][4] == ["shout", "twice"]
    assert query(gateway, session, "LIST JARS") == rows

    classes = gateway.list_udf_classes(session, str(jars["basic"]))
    assert classes == [UdfClass("jt.basic.CountAll", "Spark UDAF"), UdfClass("jt.basic.Legacy", "UDAF"),
                       UdfClass("jt.basic.Shout", "Hive UDF"), UdfClass("jt.basic.SplitWords", "GenericUDTF"),
                       UdfClass("jt.basic.Twice", "GenericUDF")]  # not the abstract BaseUdf, not Helper
    assert [c.suggested_name for c in classes] == ["count_all", "legacy", "shout", "split_words", "twice"]
    gateway.configure_session(session, "CREATE TEMPORARY FUNCTION count_all AS 'jt.basic.CountAll'")
    gateway.configure_session(session, "CREATE TEMPORARY FUNCTION split_words AS 'jt.basic.SplitWords'")
    assert query(gateway, session, "SELECT count_all(x) FROM VALUES ('a'), ('b'), ('c') AS t(x)") == [[3]]
    assert query(gateway, session, "SELECT split_words('to be or')") == [["to"], ["be"], ["or"]]
    detail = gateway.get_function(session, "shout")
    assert detail.is_temporary and detail.resources[0]["uri"] == str(jars["basic"])


def test_jars_and_their_classes_are_per_session(gateway, session, jars):
    other = gateway.open_session(name="other")
    try:
        gateway.add_jar(session, str(jars["shared"]))
        assert [j.uri for j in gateway.list_jars(session)] == [str(jars["shared"])]
        assert gateway.list_jars(other) == [] and query(gateway, other, "SHOW JARS") == []
        # The class is on the JVM's class path now, but this session never added its jar.
        with pytest.raises(SqlExecutionError, match="shared-udfs"):
            gateway.configure_session(other, "CREATE TEMPORARY FUNCTION rev AS 'jt.shared.Reverse'")
        assert query(gateway, other, "SELECT 1") == [[1]]
        gateway.configure_session(session, "CREATE TEMPORARY FUNCTION rev AS 'jt.shared.Reverse'")
        assert query(gateway, session, "SELECT rev('abc')") == [["cba"]]
        assert "UNRESOLVED_ROUTINE" in failure(gateway, other, "SELECT rev('abc')")
        assert "rev" in failure(gateway, other, "SELECT rev('abc')")
    finally:
        gateway.close_session(other)


# -- USING JAR, REMOVE JAR -------------------------------------------------------------------------

def test_using_jar_then_remove_jar_stops_the_function_in_that_session_only(gateway, session, jars):
    uri = jars["using"].as_uri()
    other = gateway.open_session(name="keeps-its-jar")
    try:
        for handle in (session, other):
            gateway.configure_session(
                handle, f"CREATE TEMPORARY FUNCTION rev_u AS 'jt.using.Reverse' USING JAR '{uri}'")
        assert query(gateway, session, "SELECT rev_u('abc')") == [["cba"]]
        gateway.configure_session(session, "CREATE TEMPORARY FUNCTION IF NOT EXISTS rev_u AS 'jt.nope.Never'")
        gateway.configure_session(session, "CREATE OR REPLACE TEMPORARY SYSTEM FUNCTION rev_u AS 'jt.using.Reverse'")
        assert gateway.get_function(session, "rev_u").resources[0]["uri"] == uri
        assert [j.functions for j in gateway.list_jars(session)] == [["rev_u"]]

        assert gateway.remove_jar(session, uri) == ["rev_u"]
        message = failure(gateway, session, "SELECT upper(rev_u('abc'))")
        assert "using-udfs.jar" in message and "REMOVE JAR" in message
        assert gateway.list_jars(session) == []
        assert query(gateway, other, "SELECT rev_u('xyz')") == [["zyx"]]  # the other session keeps it
        assert query(gateway, session, "SELECT 2") == [[2]]

        with pytest.raises(SqlExecutionError, match="not added to this session"):
            gateway.configure_session(session, f"REMOVE JAR '{uri}'")
        gateway.configure_session(session, f"ADD JAR '{uri}'")
        gateway.configure_session(session, "CREATE TEMPORARY FUNCTION rev_u AS 'jt.using.Reverse'")
        assert query(gateway, session, "SELECT rev_u('ab')") == [["ba"]]
        gateway.configure_session(session, f"REMOVE JAR '{jars['using']}'")  # by path works too
        assert "using-udfs.jar" in failure(gateway, session, "SELECT rev_u('ab')")
    finally:
        gateway.close_session(other)


def test_persistent_function_keeps_its_resources_and_follows_remove_jar(gateway, session, jars):
    uri = str(jars["persist"])
    gateway.configure_session(session, "CREATE DATABASE IF NOT EXISTS jar_db")
    gateway.configure_session(
        session, f"CREATE FUNCTION IF NOT EXISTS jar_db.twice_p AS 'jt.persist.Twice' USING JAR '{uri}'")
    detail = gateway.get_function(session, "jar_db.twice_p")
    assert not detail.is_temporary and detail.language == "JAVA"
    assert detail.resources[0]["uri"] == uri and Path(detail.resources[0]["path"]).is_file()

    reader = gateway.open_session(name="reader")
    try:
        # First use in another session adds the function's jar there, as if ADD JAR had been issued.
        assert query(gateway, reader, "SELECT jar_db.twice_p('xy')") == [["xyxy"]]
        assert [j.uri for j in gateway.list_jars(reader)] == [uri]
        assert gateway.list_jars(reader)[0].functions == ["spark_catalog.jar_db.twice_p"]
        assert gateway.remove_jar(reader, uri) == ["spark_catalog.jar_db.twice_p"]
        gateway.configure_session(reader, "USE jar_db")
        message = failure(gateway, reader, "SELECT twice_p('xy')")
        assert "persist-udfs.jar" in message and "spark_catalog.jar_db.twice_p" in message
        assert query(gateway, session, "SELECT jar_db.twice_p('q')") == [["qq"]]  # unaffected
        gateway.add_jar(reader, uri)
        assert query(gateway, reader, "SELECT twice_p('z')") == [["zz"]]
        # A function created with Spark directly (not through the gateway): the metastore's resources.
        gateway.sessions.get(reader).spark.sql(
            f"CREATE FUNCTION IF NOT EXISTS jar_db.twice_raw AS 'jt.persist.Twice' USING JAR '{uri}'")
        assert gateway.get_function(reader, "jar_db.twice_raw").resources == [{"type": "JAR", "uri": uri}]
    finally:
        gateway.close_session(reader)


def test_persistent_function_works_in_a_new_process(tmp_path, jars):
    """Create it in one workbench process, stop, start another on the same data directory and call it."""
    script = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {str(ROOT)!r})
        from gateway import GatewayService, load_config
        config = load_config(None, environ={{}}).with_overrides(
            data_dir={str(tmp_path / 'data')!r}, spark__master="local[1]", session__idle_timeout_s=0,
            spark__conf={{"spark.sql.shuffle.partitions": "1", "spark.driver.memory": "1g"}})
        gateway = GatewayService(config)
        session = gateway.open_session()
        if sys.argv[1] == "create":
            gateway.configure_session(session, "CREATE FUNCTION default.twice_np AS 'jt.persist.Twice' "
                                               "USING JAR '{jars['persist'].as_uri()}'")
        op = gateway.execute_statement(session, "SELECT twice_np('ab')")
        pages = list(gateway.iter_results(session, op))
        detail = gateway.get_function(session, "default.twice_np")
        error = pages[-1].exception and pages[-1].exception["root_cause"]
        print(json.dumps({{"rows": [row for page in pages for row in page.rows], "error": error,
                          "resources": detail.resources, "jars": [j.uri for j in gateway.list_jars(session)]}}))
        gateway.shutdown()
    """)
    env = short_lived_jvm({k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")})
    results = []
    for phase in ("create", "call"):
        done = subprocess.run([sys.executable, "-c", script, phase], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    created, called = results
    assert created["rows"] == [["abab"]], created
    assert called["error"] is None and called["rows"] == [["abab"]], called
    assert called["resources"][0]["uri"] == jars["persist"].as_uri()
    assert called["jars"] == [jars["persist"].as_uri()]


# -- remote jars ---------------------------------------------------------------------------------

@pytest.fixture
def http_server(jars):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(jars["remote"].parent))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(10)


def test_remote_jar_over_http_is_downloaded_into_the_store(gateway, session, jars, http_server, config):
    uri = f"{http_server}/remote-udfs.jar"
    gateway.configure_session(session, f"CREATE TEMPORARY FUNCTION rev_r AS 'jt.remote.Reverse' USING JAR '{uri}'")
    assert query(gateway, session, "SELECT rev_r('http')") == [["ptth"]]
    [jar] = gateway.list_jars(session)
    assert jar.uri == uri and jar.functions == ["rev_r"]
    assert Path(jar.path).is_relative_to(config.data_dir / "jars" / "store")
    with pytest.raises(SqlExecutionError, match="HTTP 404"):
        gateway.configure_session(session, f"ADD JAR '{http_server}/missing.jar'")
    assert query(gateway, session, "SELECT rev_r('ok')") == [["ko"]]


def test_download_limits_and_timeout(tmp_path, jars, http_server):
    store = JarStore(tmp_path, upload_max_bytes=10_000, download_max_bytes=100, download_timeout_s=0.5)
    with pytest.raises(ResourceError, match="jars.download_max_bytes"):
        store.resolve(f"{http_server}/remote-udfs.jar")
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepts the connection, never answers
    try:
        with pytest.raises(ResourceError, match="timed out|timeout"):
            store.resolve(f"http://127.0.0.1:{silent.getsockname()[1]}/slow.jar")
    finally:
        silent.close()
    assert store.stored_files() == []


def test_hadoop_schemes_go_through_sparks_hadoop_configuration(gateway, session, jars, tmp_path):
    with pytest.raises(ResourceError, match="Hadoop configuration failed.*nosuchfs"):
        gateway.add_jar(session, "nosuchfs://bucket/udfs.jar")
    assert gateway.list_jars(session) == []
    # The same adapter copies through Hadoop's FileSystem API (its local file system stands in for HDFS).
    copy = tmp_path / "copy.jar"
    hadoop_fetcher(gateway.root)(jars["using"].as_uri(), copy)
    assert copy.read_bytes() == jars["using"].read_bytes()


# -- uploads -------------------------------------------------------------------------------------

def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(zipfile.ZipInfo(name), data)
    return buffer.getvalue()


def test_upload_is_stored_by_hash_added_and_listed(gateway, session, jars, monkeypatch):
    data = jars["page"].read_bytes()
    info = gateway.upload_jar(session, "page-udfs.jar", data)
    assert Path(info.path).read_bytes() == data and info.sha256 in info.path
    assert gateway.list_udf_classes(session, info.uri) == [UdfClass("jt.page.Reverse", "Hive UDF")]
    gateway.configure_session(session, create_function_statement("rev_up", "jt.page.Reverse"))
    assert query(gateway, session, "SELECT rev_up('up')") == [["pu"]]
    assert gateway.upload_jar(session, "page-udfs.jar", data).path == info.path  # same content, same copy


@pytest.mark.parametrize("filename, data, message", [
    ("notes.jar", b"just some text", "not a jar"),
    ("empty.jar", b"", "empty"),
    ("evil.jar", _zip({"../../etc/cron.d/x": b"boom"}), "climbs out"),
    ("abs.jar", _zip({"/etc/passwd": b"x"}), "absolute"),
    ("../up.jar", _zip({"a.class": b"x"}), "not allowed"),
    ("udfs.exe", _zip({"a.class": b"x"}), "not a jar"),
    ("big.jar", _zip({"a.bin": b"x" * 5000}), "upload_max_bytes"),
])
def test_rejected_uploads_store_nothing(gateway, session, monkeypatch, filename, data, message):
    store = gateway.feature("jars").resources.store
    monkeypatch.setattr(store, "upload_max_bytes", 4000)
    before = store.stored_files()
    with pytest.raises(InvalidRequestError, match=message):
        gateway.upload_jar(session, filename, data)
    assert store.stored_files() == before and gateway.list_jars(session) == []
    assert query(gateway, session, "SELECT 3") == [[3]]


def test_damaged_jar_is_rejected(gateway, session, jars):
    data = bytearray(_zip({"jt/A.class": b"A" * 300}))
    data[40] ^= 0xFF  # inside the stored entry: the CRC no longer matches
    with pytest.raises(InvalidRequestError, match="damaged|not a readable jar"):
        gateway.upload_jar(session, "damaged.jar", bytes(data))


# -- LANGUAGE PYTHON -------------------------------------------------------------------------------

def test_python_function_from_an_uploaded_module(gateway, session):
    source = b"def shout(s):\n    return None if s is None else s.upper() + '?'\n"
    info = gateway.upload_jar(session, "pyudfs.py", source)
    assert [c.class_name for c in gateway.list_udf_classes(session, info.uri)] == ["pyudfs.shout"]
    gateway.configure_session(session, f"CREATE TEMPORARY FUNCTION py_shout AS 'pyudfs.shout' "
                                       f"LANGUAGE PYTHON USING JAR '{info.path}'")
    assert query(gateway, session, "SELECT py_shout('hey')") == [["HEY?"]]
    with pytest.raises(SqlExecutionError, match="temporary only"):
        gateway.configure_session(session, f"CREATE FUNCTION py_p AS 'pyudfs.shout' LANGUAGE PYTHON "
                                           f"USING JAR '{info.path}'")
    with pytest.raises(InvalidRequestError, match="not valid Python"):
        gateway.upload_jar(session, "broken.py", b"def (:\n")


# -- parsing and negative cases ------------------------------------------------------------------

def test_udf_kinds_found_in_hives_own_jar():
    """The class-file reader against a real third-party jar: Hive's built-in functions."""
    import pyspark
    [hive_exec] = (Path(pyspark.__file__).parent / "jars").glob("hive-exec-*.jar")
    kinds = {c.class_name: c.kind for c in udf_classes(hive_exec)}
    assert kinds["org.apache.hadoop.hive.ql.udf.UDFPI"] == "Hive UDF"
    assert kinds["org.apache.hadoop.hive.ql.udf.generic.GenericUDFUpper"] == "GenericUDF"
    assert kinds["org.apache.hadoop.hive.ql.udf.generic.GenericUDTFExplode"] == "GenericUDTF"
    assert kinds["org.apache.hadoop.hive.ql.udf.generic.GenericUDAFSum"] == "GenericUDAF resolver"
    assert "org.apache.hadoop.hive.ql.udf.generic.GenericUDF" not in kinds  # abstract


def test_parse_create_function_variants():
    parsed = parse_create_function(
        "CREATE TEMPORARY SYSTEM FUNCTION IF NOT EXISTS c.d.f AS 'a.B' LANGUAGE SCALA "
        "USING JAR 'hdfs:///x.jar', JAR 's3a://b/y.jar'")
    assert parsed.temporary and parsed.system and parsed.if_not_exists and parsed.name_parts == ["c", "d", "f"]
    assert parsed.class_name == "a.B" and parsed.language == "SCALA"
    assert parsed.resources == [("JAR", "hdfs:///x.jar"), ("JAR", "s3a://b/y.jar")]
    assert parse_create_function("CREATE FUNCTION f(x INT) RETURNS INT RETURN x + 1") is None
    assert parse_create_function("CREATE OR REPLACE FUNCTION `my f` AS 'x.Y'").or_replace
    with pytest.raises(InvalidStatementError, match="LANGUAGE"):
        parse_create_function("CREATE FUNCTION f AS 'x.Y' LANGUAGE COBOL")
    with pytest.raises(InvalidStatementError, match="USING expects JAR"):
        parse_create_function("CREATE FUNCTION f AS 'x.Y' USING 'a.jar'")
    assert function_calls("SELECT db.f(1), `g x`(2), upper('a(') FROM t") == [["db", "f"], ["g x"], ["upper"]]
    assert read_class_header(b"not a class") is None


def test_bad_jar_statements_keep_the_session_healthy(gateway, session, tmp_path, jars):
    with pytest.raises(SqlExecutionError, match="does not exist"):
        gateway.configure_session(session, f"ADD JAR '{tmp_path / 'nope.jar'}'")
    text_file = tmp_path / "fake.jar"
    text_file.write_text("not a zip")
    with pytest.raises(SqlExecutionError, match="not a jar"):
        gateway.configure_session(session, f"ADD JAR '{text_file}'")
    with pytest.raises(SqlExecutionError, match="ADD JAR needs a jar"):
        gateway.configure_session(session, "ADD JAR")
    with pytest.raises(SqlExecutionError, match="is not in"):
        gateway.configure_session(session, f"CREATE TEMPORARY FUNCTION nf AS 'jt.nope.Missing' "
                                           f"USING JAR '{jars['using']}'")
    with pytest.raises(SqlExecutionError, match="no catalog or database"):
        gateway.configure_session(session, f"CREATE TEMPORARY FUNCTION db.nf AS 'jt.using.Reverse' "
                                           f"USING JAR '{jars['using']}'")
    with pytest.raises(InvalidRequestError):
        gateway.list_udf_classes(session, "")
    assert gateway.list_jars(session) == [] and query(gateway, session, "SELECT 4") == [[4]]
