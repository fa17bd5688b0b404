"""No import cycles in gateway/: every import counts (also inside functions; ``if TYPE_CHECKING`` does not).

The walker (scripts/api_surface.py, which also prints the figure) is tried on a package with a cycle first,
so that a pass means something.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _surface():
    spec = importlib.util.spec_from_file_location("api_surface", ROOT / "scripts" / "api_surface.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_walker_finds_a_cycle_also_through_a_function_level_import(tmp_path, monkeypatch):
    surface = _surface()
    package = tmp_path / "gateway"
    (package / "core").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("")
    (package / "core" / "a.py").write_text("from gateway.core.b import thing\n")
    (package / "core" / "b.py").write_text("def thing():\n    from gateway.core import a\n")
    (package / "core" / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                           "    from gateway.core import d\n")
    (package / "core" / "d.py").write_text("from gateway.core import c\n")
    monkeypatch.setattr(surface, "ROOT", tmp_path)
    assert surface.import_cycles(surface.import_graph(package)) == [["gateway.core.a", "gateway.core.b"]]


def test_gateway_has_no_import_cycle():
    surface = _surface()
    cycles = surface.import_cycles(surface.import_graph())
    assert not cycles, "import cycles in gateway/:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_gateway_init_needs_no_noqa_e402():
    assert "E402" not in (ROOT / "gateway" / "__init__.py").read_text()


# -- broad excepts that swallow a failure without a word ------------------------------------------------

def test_the_except_check_finds_a_silent_handler_and_lets_logged_ones_through():
    surface = _surface()
    source = ("try:\n    x()\nexcept Exception:\n    pass\n"                     # 3: silent
              "try:\n    x()\nexcept:\n    y = None\n"                          # 7: silent, bare
              "try:\n    x()\nexcept Exception:\n    log.debug('why', exc_info=True)\n"
              "try:\n    x()\nexcept Exception as exc:\n    self._fail(op, exc)\n"
              "try:\n    x()\nexcept (ValueError, Exception):\n    raise Other()\n"
              "try:\n    x()\nexcept ValueError:\n    pass\n")                   # narrow: fine
    assert surface.silent_broad_excepts(source, "f.py") == ["f.py:3", "f.py:7"]


def test_no_broad_except_in_gateway_swallows_a_failure_without_a_log():
    silent = _surface().all_silent_broad_excepts()
    assert not silent, "log (at least debug, with exc_info) or re-raise:\n" + "\n".join(silent)
