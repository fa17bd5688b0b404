"""Build real UDF jars with ``javac`` during test setup (no checked-in binaries).

``build_jar(out_dir, "name", {"com.example.Upper": JAVA_SOURCE}, resources={"path": "text"})``
compiles the sources against Spark's and Hive's jars from the installed pyspark and packs
them, with any extra resource files, into ``out_dir/name.jar``.
"""
from __future__ import annotations

import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Optional

import pyspark

SPARK_JARS = Path(pyspark.__file__).resolve().parent / "jars"


def javac_available() -> bool:
    return shutil.which("javac") is not None


def build_jar(out_dir: Path, name: str, sources: dict[str, str],
              resources: Optional[dict[str, str]] = None) -> Path:
    """Compile ``{fully.qualified.ClassName: java source}`` into ``out_dir/name.jar``."""
    out_dir = Path(out_dir)
    src_dir = out_dir / f"{name}-src"
    classes_dir = out_dir / f"{name}-classes"
    for folder in (src_dir, classes_dir):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    files = []
    for class_name, source in sources.items():
        path = src_dir / (class_name.replace(".", "/") + ".java")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        files.append(str(path))
    classpath = str(SPARK_JARS / "*")
    result = subprocess.run(["javac", "-nowarn", "--release", "17", "-cp", classpath, "-d", str(classes_dir),
                             *files], capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"javac failed for {name}:\n{result.stderr}")
    jar_path = out_dir / f"{name}.jar"
    with zipfile.ZipFile(jar_path, "w", zipfile.ZIP_DEFLATED) as jar:
        jar.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nCreated-By: spark-sql-workbench tests\n\n")
        for path in sorted(classes_dir.rglob("*.class")):
            jar.write(path, path.relative_to(classes_dir).as_posix())
        for entry, text in (resources or {}).items():
            jar.writestr(entry, text)
    return jar_path


def hive_udf_source(class_name: str, body: str = 'return s == null ? null : new Text(s.toString().toUpperCase());',
                    arg_type: str = "Text", return_type: str = "Text") -> str:
    """A simple ``org.apache.hadoop.hive.ql.exec.UDF`` with one ``evaluate`` method."""
    package, _, simple = class_name.rpartition(".")
    header = f"package {package};\n" if package else ""
    return (f"{header}import org.apache.hadoop.hive.ql.exec.UDF;\nimport org.apache.hadoop.io.*;\n"
            f"public class {simple} extends UDF {{\n"
            f"  public {return_type} evaluate({arg_type} s) {{ {body} }}\n}}\n")
