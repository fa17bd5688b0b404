"""Directory moves for staging and publishing, through Hadoop's FileSystem when it is reachable.

Table locations are URIs (file:, hdfs:, s3a:); Hadoop's FileSystem of the root Spark session
handles all of them. That needs the JVM, so it sits behind this one adapter; without the JVM
(a Spark Connect client) local ``file:`` paths still work through ``os`` and ``shutil``.
"""
from __future__ import annotations

import os
import shutil
from urllib.parse import urlparse


class TableFiles:
    def __init__(self, spark) -> None:
        self._fs_of = _hadoop_adapter(spark)

    def exists(self, uri: str) -> bool:
        if self._fs_of is not None:
            fs, path = self._fs_of(uri)
            return bool(fs.exists(path))
        return os.path.exists(_local(uri))

    def rename(self, source: str, target: str) -> None:
        """Move a directory; raises OSError when the move did not happen."""
        if self._fs_of is not None:
            fs, src = self._fs_of(source)
            _, dst = self._fs_of(target)
            if fs.exists(dst):
                raise OSError(f"cannot move {source} to {target}: the target exists")
            parent = dst.getParent()
            if parent is not None and not fs.exists(parent):
                fs.mkdirs(parent)
            if not fs.rename(src, dst):
                raise OSError(f"the file system refused to move {source} to {target}")
            return
        if os.path.exists(_local(target)):
            raise OSError(f"cannot move {source} to {target}: the target exists")
        os.makedirs(os.path.dirname(_local(target)), exist_ok=True)
        os.rename(_local(source), _local(target))

    def delete(self, uri: str) -> None:
        if self._fs_of is not None:
            fs, path = self._fs_of(uri)
            if fs.exists(path):
                fs.delete(path, True)
            return
        shutil.rmtree(_local(uri), ignore_errors=True)

    def mkdirs(self, uri: str) -> None:
        if self._fs_of is not None:
            fs, path = self._fs_of(uri)
            fs.mkdirs(path)
            return
        os.makedirs(_local(uri), exist_ok=True)

    def sibling(self, uri: str, name: str) -> str:
        """A path next to ``uri`` (same directory, so a rename stays on one file system)."""
        return uri.rstrip("/").rsplit("/", 1)[0] + "/" + name


def _hadoop_adapter(spark):
    """``uri -> (FileSystem, Path)`` through the JVM, or None when there is no JVM to reach."""
    try:
        jvm = spark._jvm
        conf = spark._jsc.hadoopConfiguration() if hasattr(spark, "_jsc") else \
            spark.sparkContext._jsc.hadoopConfiguration()
        path_class = jvm.org.apache.hadoop.fs.Path
    except Exception:
        return None

    def fs_of(uri: str):
        path = path_class(uri)
        return path.getFileSystem(conf), path

    return fs_of


def _local(uri: str) -> str:
    parsed = urlparse(uri)
    if parsed.scheme not in ("", "file"):
        raise OSError(f"{uri} is not a local path and Hadoop's file system is not reachable")
    return parsed.path if parsed.scheme else uri
