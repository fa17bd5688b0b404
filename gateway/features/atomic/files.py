"""Directory moves for staging and publishing, through Hadoop's FileSystem when it is reachable.

Table locations are URIs (file:, hdfs:, s3a:); Hadoop's FileSystem of the root Spark session
handles all of them (``gateway.spark.files``). A backend without it (a Spark Connect client)
still moves local ``file:`` paths, through ``os`` and ``shutil``; other schemes fail clearly.
"""
from __future__ import annotations

import os
import shutil
from typing import Optional
from urllib.parse import urlparse

from gateway.spark.backend import Capability, supports
from gateway.spark.files import HadoopFileSystem


class TableFiles:
    def __init__(self, spark) -> None:
        self._hadoop: Optional[HadoopFileSystem] = \
            HadoopFileSystem(spark) if supports(spark, Capability.HADOOP_FILESYSTEM) else None

    def exists(self, uri: str) -> bool:
        if self._hadoop is not None:
            return self._hadoop.exists(uri)
        return os.path.exists(_local(uri))

    def rename(self, source: str, target: str) -> None:
        """Move a directory; raises OSError when the move did not happen."""
        if self._hadoop is not None:
            if self._hadoop.exists(target):
                raise OSError(f"cannot move {source} to {target}: the target exists")
            parent = self._hadoop.parent(target)
            if parent is not None and not self._hadoop.exists(parent):
                self._hadoop.mkdirs(parent)
            if not self._hadoop.rename(source, target):
                raise OSError(f"the file system refused to move {source} to {target}")
            return
        if os.path.exists(_local(target)):
            raise OSError(f"cannot move {source} to {target}: the target exists")
        os.makedirs(os.path.dirname(_local(target)), exist_ok=True)
        os.rename(_local(source), _local(target))

    def delete(self, uri: str) -> None:
        if self._hadoop is not None:
            self._hadoop.delete(uri)
            return
        shutil.rmtree(_local(uri), ignore_errors=True)

    def mkdirs(self, uri: str) -> None:
        if self._hadoop is not None:
            self._hadoop.mkdirs(uri)
            return
        os.makedirs(_local(uri), exist_ok=True)

    def sibling(self, uri: str, name: str) -> str:
        """A path next to ``uri`` (same directory, so a rename stays on one file system)."""
        return uri.rstrip("/").rsplit("/", 1)[0] + "/" + name


def _local(uri: str) -> str:
    parsed = urlparse(uri)
    if parsed.scheme not in ("", "file"):
        raise OSError(f"{uri} is not a local path, and this Spark backend offers no Hadoop FileSystem to reach it")
    return parsed.path if parsed.scheme else uri
