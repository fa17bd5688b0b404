"""The running tab's mark renders with Debian's default fonts (issue 31, item 5: ⏳ showed as an empty box
on a system without an emoji font). Every character of the mark outside a ``:material/…:`` icon (whose
font Streamlit serves) must be in a font installed here, as fontconfig answers."""
import re
import shutil
import subprocess
from types import SimpleNamespace

import pytest

from ui.tabs import _label

MATERIAL_ICON = re.compile(r":material/[a-z0-9_]+:")


def _installed_font_has(character: str) -> bool:
    found = subprocess.run(["fc-list", f":charset={ord(character):x}", "family"], capture_output=True, text=True,
                           timeout=30)
    return bool(found.stdout.strip())


def test_the_running_mark_needs_no_emoji_font():
    if shutil.which("fc-list") is None:
        pytest.fail("fc-list is missing: install fontconfig (apt-get install -y fontconfig)")
    tab = SimpleNamespace(tab_id="t1", title="Query")
    running, idle = _label(tab, {"t1"}), _label(tab, set())
    assert idle == "Query" and running != idle and running.endswith("Query")
    mark = MATERIAL_ICON.sub("", running[: -len("Query")])
    missing = [f"U+{ord(c):04X}" for c in mark if not c.isspace() and not _installed_font_has(c)]
    assert missing == [], f"no installed font draws {missing} of the running mark {running!r}"
