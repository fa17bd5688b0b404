"""``gateway.api`` is what a plugin author or a client reads: it must import in a Python without pyspark,
and without the implementation (gateway.core, gateway.spark, gateway.features) or streamlit."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# A meta-path finder that makes these packages unimportable, then the import under test.
BLOCKER = """
import sys
BLOCKED = ("pyspark", "py4j", "streamlit", "gateway.core", "gateway.spark", "gateway.features", "gateway.rest")

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if any(name == b or name.startswith(b + ".") for b in BLOCKED):
            raise ImportError(f"{name} is blocked in this test")
        return None

sys.meta_path.insert(0, Blocker())
sys.path.insert(0, ROOT_PATH)
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCKER.replace("ROOT_PATH", repr(str(ROOT))) + code], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_the_blocker_blocks():
    """The check means something: with the blocker in place pyspark, and the implementation, do not import."""
    assert "ImportError" in _run("import pyspark").stderr
    assert "ImportError" in _run("import gateway.core.service").stderr


def test_gateway_api_imports_without_pyspark_or_the_implementation():
    done = _run("""
import gateway.api
from gateway.api import CORE_SECTIONS, Feature, StatementSpec, protocol_calls
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("pyspark", "py4j", "streamlit")
                or m.startswith(("gateway.core", "gateway.spark", "gateway.features", "gateway.rest")))
assert not loaded, loaded
print(len(CORE_SECTIONS), sum(len(protocol_calls(s)) for s in CORE_SECTIONS))
""")
    assert done.returncode == 0, done.stderr
    sections, calls = map(int, done.stdout.split())
    assert sections == 7 and calls >= 50


def test_each_section_is_small_enough_to_read_at_once():
    from gateway.api import CORE_SECTIONS, protocol_calls

    sizes = {section.__name__: len(protocol_calls(section)) for section in CORE_SECTIONS}
    assert all(0 < size <= 16 for size in sizes.values()), sizes
