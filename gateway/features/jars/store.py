"""Jar files: resolving URIs to local copies, validating uploads, finding UDF classes inside.

Every jar the gateway hands to Spark is a local, content-addressed copy under
``<data_dir>/jars/store/<sha256>/<file name>``: local paths and ``file://`` URIs are copied,
``http(s)://`` URIs are downloaded (size limit, timeout), Hadoop URIs (``hdfs://``, ``s3a://`` …)
are copied through Spark's Hadoop configuration. A copy never changes under a function that
uses it, and persistent functions keep working after a restart on the same data directory.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import socket
import struct
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable, Optional

from gateway.errors import InvalidRequestError, ResourceError
from gateway.models import UdfClass  # noqa: F401  (value types of the contract)
from gateway.spark.backend import Capability, supports
from gateway.spark.files import HadoopFileSystem

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}$")
_ZIP_SUFFIXES = (".jar", ".zip", ".whl")
UPLOAD_SUFFIXES = _ZIP_SUFFIXES + (".py",)
_ZIP_MAGIC = b"PK\x03\x04"
_MAX_ENTRIES = 100_000
_MAX_UNCOMPRESSED = 4 * 1024 * 1024 * 1024   # a zip bomb stops here, before anything is read
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class StoredJar:
    """A content-addressed local copy of a resource and where it came from."""

    uri: str          # what the user gave (path, file://, http://, hdfs://, or upload:<name>)
    path: Path        # the local copy Spark loads
    sha256: str
    size_bytes: int

    @property
    def name(self) -> str:
        return self.path.name


# -- names and zip validation -------------------------------------------------------------------

def safe_file_name(filename: str) -> str:
    """The file name itself if it is a plain, safe name with a known suffix; else a clear error."""
    if not isinstance(filename, str) or not filename.strip():
        raise InvalidRequestError("the uploaded file has no name: give a name like my-udfs.jar")
    name = filename.strip()
    if "/" in name or "\\" in name or name in (".", "..") or not _SAFE_NAME.match(name):
        raise InvalidRequestError(
            f"the file name {filename!r} is not allowed: use letters, digits, '.', '_', '-' and '+' only, "
            f"no folders (like my-udfs-1.0.jar)")
    if not name.lower().endswith(UPLOAD_SUFFIXES):
        raise InvalidRequestError(
            f"the file {name!r} is not a jar: upload a .jar (or, for LANGUAGE PYTHON, a .py, .zip or .whl)")
    return name


def validate_archive(data: bytes, what: str) -> None:
    """Check that ``data`` is a readable zip (jar, wheel) with safe entry names."""
    if len(data) == 0:
        raise InvalidRequestError(f"{what} is empty (0 bytes): choose the jar file itself")
    if not data.startswith(_ZIP_MAGIC):
        raise InvalidRequestError(
            f"{what} is not a jar: a jar is a zip file starting with 'PK', this one starts with "
            f"{data[:8]!r}. Upload the built .jar, not a source or text file.")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            entries = archive.infolist()
            if not entries:
                raise InvalidRequestError(f"{what} is an empty zip: it holds no classes")
            if len(entries) > _MAX_ENTRIES:
                raise InvalidRequestError(f"{what} has {len(entries):,} entries; at most {_MAX_ENTRIES:,} are allowed")
            for entry in entries:
                _check_entry_name(entry.filename, what)
            if sum(e.file_size for e in entries) > _MAX_UNCOMPRESSED:
                raise InvalidRequestError(f"{what} unpacks to more than {_MAX_UNCOMPRESSED:,} bytes; refused")
            broken = archive.testzip()
            if broken is not None:
                raise InvalidRequestError(f"{what} is damaged: its entry {broken!r} cannot be read (bad CRC)")
    except InvalidRequestError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, NotImplementedError) as exc:
        raise InvalidRequestError(f"{what} is not a readable jar: {exc}. Rebuild it and upload again.") from None


def _check_entry_name(name: str, what: str) -> None:
    posix = name.replace("\\", "/")
    if posix.startswith("/") or re.match(r"^[A-Za-z]:", posix):
        raise InvalidRequestError(f"{what} has the absolute entry name {name!r}; jars must hold relative paths only")
    if ".." in PurePosixPath(posix).parts:
        raise InvalidRequestError(f"{what} has the entry {name!r} that climbs out with '..'; refused")


def validate_python_source(data: bytes, what: str) -> None:
    if len(data) == 0:
        raise InvalidRequestError(f"{what} is empty (0 bytes): choose the .py file itself")
    try:
        compile(data.decode("utf-8"), what, "exec")
    except (UnicodeDecodeError, SyntaxError, ValueError) as exc:
        raise InvalidRequestError(f"{what} is not valid Python source: {exc}") from None


# -- UDF classes ------------------------------------------------------------------------------

_UDF_BASES = {
    "org/apache/hadoop/hive/ql/exec/UDF": "Hive UDF",
    "org/apache/hadoop/hive/ql/udf/generic/GenericUDF": "GenericUDF",
    "org/apache/hadoop/hive/ql/exec/UDAF": "UDAF",
    "org/apache/hadoop/hive/ql/udf/generic/AbstractGenericUDAFResolver": "GenericUDAF resolver",
    "org/apache/hadoop/hive/ql/udf/generic/GenericUDAFResolver": "GenericUDAF resolver",
    "org/apache/hadoop/hive/ql/udf/generic/GenericUDAFResolver2": "GenericUDAF resolver",
    "org/apache/hadoop/hive/ql/udf/generic/GenericUDTF": "GenericUDTF",
    "org/apache/spark/sql/expressions/UserDefinedAggregateFunction": "Spark UDAF",
}
_ACC_PUBLIC, _ACC_INTERFACE, _ACC_ABSTRACT = 0x0001, 0x0200, 0x0400


@dataclass(frozen=True)
class _ClassHeader:
    name: str
    flags: int
    super_name: Optional[str]
    interfaces: tuple[str, ...]


def read_class_header(data: bytes) -> Optional[_ClassHeader]:
    """Name, access flags, super class and interfaces from a class file's constant pool."""
    try:
        if data[:4] != b"\xca\xfe\xba\xbe":
            return None
        count = struct.unpack_from(">H", data, 8)[0]
        utf8: dict[int, str] = {}
        classes: dict[int, int] = {}
        pos, index = 10, 1
        while index < count:
            tag = data[pos]
            if tag == 1:
                length = struct.unpack_from(">H", data, pos + 1)[0]
                utf8[index] = data[pos + 3:pos + 3 + length].decode("utf-8", "replace")
                pos += 3 + length
            elif tag == 7:
                classes[index] = struct.unpack_from(">H", data, pos + 1)[0]
                pos += 3
            elif tag in (8, 16, 19, 20):
                pos += 3
            elif tag == 15:
                pos += 4
            elif tag in (3, 4, 9, 10, 11, 12, 17, 18):
                pos += 5
            elif tag in (5, 6):
                pos += 9
                index += 1  # longs and doubles take two slots
            else:
                return None
            index += 1
        flags, this_class, super_class, n_interfaces = struct.unpack_from(">HHHH", data, pos)
        interfaces = struct.unpack_from(f">{n_interfaces}H", data, pos + 8)

        def name_of(class_index: int) -> Optional[str]:
            return utf8.get(classes.get(class_index, -1)) if class_index else None

        return _ClassHeader(name_of(this_class) or "", flags, name_of(super_class),
                            tuple(n for n in map(name_of, interfaces) if n))
    except (IndexError, struct.error):
        return None


def udf_classes(jar_path: Path) -> list[UdfClass]:
    """Public, concrete classes in the jar that extend a UDF base, directly or through classes in the jar."""
    headers: dict[str, _ClassHeader] = {}
    with zipfile.ZipFile(jar_path) as archive:
        for entry in archive.infolist()[:_MAX_ENTRIES]:
            if entry.filename.endswith(".class") and entry.file_size < 16 * 1024 * 1024:
                header = read_class_header(archive.read(entry))
                if header is not None and header.name:
                    headers[header.name] = header

    def kind_of(name: str, depth: int = 0) -> Optional[str]:
        header = headers.get(name)
        if header is None or depth > 20:
            return None
        for parent in (header.super_name, *header.interfaces):
            if parent in _UDF_BASES:
                return _UDF_BASES[parent]
            found = kind_of(parent, depth + 1) if parent else None
            if found:
                return found
        return None

    found = []
    for name, header in headers.items():
        if header.flags & (_ACC_INTERFACE | _ACC_ABSTRACT) or not header.flags & _ACC_PUBLIC:
            continue
        kind = kind_of(name)
        if kind:
            found.append(UdfClass(name.replace("/", "."), kind))
    return sorted(found, key=lambda c: c.class_name)


def jar_has_class(jar_path: Path, class_name: str) -> bool:
    entry = class_name.replace(".", "/") + ".class"
    try:
        with zipfile.ZipFile(jar_path) as archive:
            archive.getinfo(entry)
        return True
    except (KeyError, zipfile.BadZipFile, OSError):
        return False


# -- the store ----------------------------------------------------------------------------------

class _DownloadWatchdog:
    """A total deadline and a cancel for one download.

    A socket timeout bounds each read, not the download: a server that sends a byte every two
    seconds never trips a five-second timeout. The watchdog shuts the connection down when the
    deadline passes or the statement is canceled, which wakes the blocked read at once.
    """

    def __init__(self, uri: str, timeout_s: float, stopped: Callable[[], bool]) -> None:
        self.uri = uri
        self.timeout_s = timeout_s
        self.deadline = time.monotonic() + timeout_s
        self.stopped = stopped
        self.reason: Optional[str] = None
        self._done = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def watch(self, response) -> None:
        sock = getattr(getattr(getattr(response, "fp", None), "raw", None), "_sock", None)
        self._thread = threading.Thread(target=self._run, args=(sock,), name="jar-download-watchdog", daemon=True)
        self._thread.start()

    def _run(self, sock) -> None:
        while not self._done.wait(0.05):
            if self._why() is None:
                continue
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            return

    def _why(self) -> Optional[str]:
        if self.reason is None:
            if self.stopped():
                self.reason = f"the download of {self.uri} was stopped: its statement was canceled"
            elif time.monotonic() > self.deadline:
                self.reason = (f"downloading {self.uri} did not finish within {self.timeout_s:g} s (setting "
                               f"jars.download_timeout_s, the whole download); the server is too slow or stalled. "
                               f"Copy the jar to the gateway's machine, or raise the setting")
        return self.reason

    def check(self) -> None:
        if self._why() is not None:
            raise ResourceError(self.reason)

    def stop(self) -> None:
        self._done.set()


class JarStore:
    """Process-wide, content-addressed copies of every resource under ``<data_dir>/jars/store``."""

    def __init__(self, data_dir: Path, upload_max_bytes: int, download_max_bytes: int,
                 download_timeout_s: float, hadoop_fetch=None) -> None:
        self.root = Path(data_dir) / "jars" / "store"
        self.root.mkdir(parents=True, exist_ok=True)
        self.upload_max_bytes = upload_max_bytes
        self.download_max_bytes = download_max_bytes
        self.download_timeout_s = download_timeout_s
        self.hadoop_fetch = hadoop_fetch   # (uri, local_path) -> None, through Spark's Hadoop config
        # Called in the thread that downloads; answers a check "was the statement canceled?".
        self.stop_probe: Callable[[], Callable[[], bool]] = lambda: (lambda: False)
        self._lock = threading.Lock()
        self._classes: dict[str, list[UdfClass]] = {}

    # uploads

    def upload(self, filename: str, data: bytes) -> StoredJar:
        """Validate an upload and store it; nothing is written when it is refused."""
        name = safe_file_name(filename)
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise InvalidRequestError(f"the upload must be bytes, got {type(data).__name__}")
        data = bytes(data)
        what = f"the upload {name!r}"
        if len(data) > self.upload_max_bytes:
            raise InvalidRequestError(
                f"{what} is {len(data):,} bytes; the limit is {self.upload_max_bytes:,} "
                f"(setting jars.upload_max_bytes). Put large jars on HDFS/S3/HTTP and ADD JAR their URI.")
        if name.lower().endswith(".py"):
            validate_python_source(data, what)
        else:
            validate_archive(data, what)
        return self._store_bytes(data, name, f"upload:{name}")

    # URIs

    def resolve(self, uri: str) -> StoredJar:
        """A local content-addressed copy of the resource at ``uri``."""
        if not isinstance(uri, str) or not uri.strip():
            raise InvalidRequestError("the jar URI is empty: give a path, file://, http(s)://, hdfs:// or s3a:// URI")
        uri = uri.strip()
        parsed = urllib.parse.urlparse(uri)
        scheme = parsed.scheme.lower()
        if scheme in ("", "file", "local") or re.match(r"^[A-Za-z]$", scheme):
            return self._from_local(uri, parsed)
        if scheme.startswith("upload"):
            raise InvalidRequestError(f"{uri!r} names an upload; use the stored path that list_jars shows")
        name = _name_from(parsed.path, uri)
        if scheme in ("http", "https"):
            return self._download(uri, name)
        return self._from_hadoop(uri, name)

    def _from_local(self, uri: str, parsed) -> StoredJar:
        path = Path(urllib.parse.unquote(parsed.path) if parsed.scheme.lower() in ("file", "local") else uri)
        path = path.expanduser()
        if not path.is_file():
            raise ResourceError(f"the jar {uri!r} does not exist or is not a file; check the path "
                                f"(it is read on the gateway's machine)")
        if _inside(path.resolve(), self.root):
            return self._describe_stored(path.resolve(), uri)
        name = _name_from(path.name, uri)
        size = path.stat().st_size  # before reading: a 2 GiB file is refused without being read
        if size > self.download_max_bytes:
            raise ResourceError(f"the jar {uri!r} is {size:,} bytes; the limit is {self.download_max_bytes:,} "
                                f"(setting jars.download_max_bytes). A UDF jar is rarely that big: check the path")
        data = path.read_bytes()
        self._validate_resource(data, name, f"the jar {uri!r}")
        return self._store_bytes(data, name, uri)

    def _download(self, uri: str, name: str) -> StoredJar:
        limit = self.download_max_bytes
        request = urllib.request.Request(uri, headers={"User-Agent": "spark-sql-workbench"})
        watchdog = _DownloadWatchdog(uri, self.download_timeout_s, self.stop_probe())
        try:
            with urllib.request.urlopen(request, timeout=max(0.001, watchdog.remaining())) as response:
                watchdog.watch(response)
                declared = response.headers.get("Content-Length")
                if declared and declared.isdigit() and int(declared) > limit:
                    raise ResourceError(f"the jar at {uri} is {int(declared):,} bytes; the download limit is "
                                        f"{limit:,} (setting jars.download_max_bytes)")
                buffer = io.BytesIO()
                read = getattr(response, "read1", response.read)  # what has come, not a full chunk
                while True:
                    watchdog.check()
                    chunk = read(_CHUNK)
                    watchdog.check()
                    if not chunk:
                        break
                    buffer.write(chunk)
                    if buffer.tell() > limit:
                        raise ResourceError(f"the jar at {uri} is larger than the download limit of {limit:,} "
                                            f"bytes (setting jars.download_max_bytes)")
        except ResourceError:
            raise
        except (urllib.error.URLError, OSError, ValueError) as exc:
            watchdog.check()  # the watchdog cut the connection: say why
            if isinstance(exc, urllib.error.HTTPError):
                raise ResourceError(f"downloading {uri} failed: HTTP {exc.code} {exc.reason}") from None
            reason = getattr(exc, "reason", exc)
            raise ResourceError(f"downloading {uri} failed: {reason} (timeout "
                                f"{self.download_timeout_s:g} s, setting jars.download_timeout_s)") from None
        finally:
            watchdog.stop()
        data = buffer.getvalue()
        self._validate_resource(data, name, f"the download {uri}")
        return self._store_bytes(data, name, uri)

    def _from_hadoop(self, uri: str, name: str) -> StoredJar:
        if self.hadoop_fetch is None:
            raise ResourceError(f"the scheme of {uri!r} needs Spark's Hadoop file systems, which are not available")
        with tempfile.TemporaryDirectory(dir=self.root.parent) as tmp:
            local = Path(tmp) / name
            self.hadoop_fetch(uri, local)
            size = local.stat().st_size
            if size > self.download_max_bytes:
                raise ResourceError(f"the jar at {uri} is {size:,} bytes; the download limit is "
                                    f"{self.download_max_bytes:,} (setting jars.download_max_bytes)")
            data = local.read_bytes()
        self._validate_resource(data, name, f"the jar {uri}")
        return self._store_bytes(data, name, uri)

    def _validate_resource(self, data: bytes, name: str, what: str) -> None:
        if name.lower().endswith(".py"):
            validate_python_source(data, what)
        else:
            validate_archive(data, what)

    def _store_bytes(self, data: bytes, name: str, uri: str) -> StoredJar:
        digest = hashlib.sha256(data).hexdigest()
        folder = self.root / digest
        if name.lower().endswith(".jar") and not name.endswith(f"-{digest[:12]}.jar"):
            # Spark ships jars to executors by file name: two contents must never share one.
            name = f"{name[:-4]}-{digest[:12]}.jar"
        target = folder / name
        with self._lock:
            if not target.exists():
                folder.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=folder, prefix=".part-")
                try:
                    with os.fdopen(fd, "wb") as out:
                        out.write(data)
                    os.replace(tmp, target)
                except BaseException:
                    Path(tmp).unlink(missing_ok=True)
                    raise
        return StoredJar(uri, target, digest, len(data))

    def _describe_stored(self, path: Path, uri: str) -> StoredJar:
        return StoredJar(uri, path, path.parent.name, path.stat().st_size)

    def stored_files(self) -> list[Path]:
        return sorted(p for p in self.root.rglob("*") if p.is_file())

    def classes(self, jar: StoredJar) -> list[UdfClass]:
        """UDF classes of a stored jar (cached by content hash)."""
        if jar.path.suffix.lower() == ".py":
            return []
        with self._lock:
            cached = self._classes.get(jar.sha256)
        if cached is None:
            cached = udf_classes(jar.path)
            with self._lock:
                self._classes[jar.sha256] = cached
        return list(cached)


def _name_from(path: str, uri: str) -> str:
    name = PurePosixPath(urllib.parse.unquote(path or "")).name
    if not name or not _SAFE_NAME.match(name):
        name = "resource.jar" if not name else re.sub(r"[^A-Za-z0-9._+-]", "_", name)[:200].lstrip("._-") or "resource.jar"
    return name


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def hadoop_fetcher(spark):
    """Copy a Hadoop-filesystem URI (hdfs://, s3a://, …) to a local file with Spark's Hadoop config.

    pyspark has no public Hadoop FileSystem API (``gateway.spark.files``); a backend without it
    (Spark Connect) gets a clear error instead.
    """

    def fetch(uri: str, local: Path) -> None:
        if not supports(spark, Capability.HADOOP_FILESYSTEM):
            raise ResourceError(f"{uri!r} needs Spark's Hadoop file systems, which this Spark connection "
                                f"does not expose; download the jar and upload it instead")
        try:
            HadoopFileSystem(spark).copy_to_local(uri, local)
        except OSError as exc:
            raise ResourceError(f"reading {uri} through Spark's Hadoop configuration failed: {exc}. "
                                f"Check the URI and the spark.hadoop.* settings (credentials, endpoints).") from None
        if not local.is_file():
            raise ResourceError(f"reading {uri} through Spark's Hadoop configuration gave no file")

    return fetch
