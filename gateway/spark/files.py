"""Hadoop's FileSystem under Spark's Hadoop configuration (file:, hdfs:, s3a: … URIs).

pyspark has no public FileSystem API, so this needs ``Capability.HADOOP_FILESYSTEM``. A Java
failure comes back as an ``OSError`` naming the Java exception, like any other file error.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from gateway.spark.backend import Capability, jcontext, jvm
from gateway.spark.errors import ENGINE_ERRORS, describe_failure


class HadoopFileSystem:
    def __init__(self, spark) -> None:
        what = "Hadoop's FileSystem with Spark's Hadoop configuration"
        self._path = jvm(spark, Capability.HADOOP_FILESYSTEM, what).org.apache.hadoop.fs.Path
        self._conf = jcontext(spark, Capability.HADOOP_FILESYSTEM, what).hadoopConfiguration()

    def _on(self, uri: str, action: str, call):
        """``call(fs, path)`` on the file system of ``uri``; a Java failure becomes an OSError."""
        try:
            path = self._path(uri)
            return call(path.getFileSystem(self._conf), path)
        except ENGINE_ERRORS as exc:
            raise OSError(f"{action} failed: {describe_failure(exc)['root_cause']}") from None

    def exists(self, uri: str) -> bool:
        return bool(self._on(uri, f"checking {uri}", lambda fs, path: fs.exists(path)))

    def mkdirs(self, uri: str) -> None:
        self._on(uri, f"creating {uri}", lambda fs, path: fs.mkdirs(path))

    def delete(self, uri: str) -> None:
        """Delete a file or a directory tree; nothing to do when it is not there."""
        self._on(uri, f"deleting {uri}", lambda fs, path: fs.exists(path) and fs.delete(path, True))

    def rename(self, source: str, target: str) -> bool:
        """Hadoop's rename: False when the file system refused the move."""
        return bool(self._on(source, f"moving {source} to {target}",
                             lambda fs, path: fs.rename(path, self._path(target))))

    def parent(self, uri: str) -> Optional[str]:
        """The directory holding ``uri`` (a URI), or None at the root."""
        parent = self._path(uri).getParent()
        return None if parent is None else str(parent.toUri())

    def copy_to_local(self, uri: str, local: Path) -> None:
        self._on(uri, f"copying {uri}",
                 lambda fs, path: fs.copyToLocalFile(False, path, self._path(str(local)), True))
