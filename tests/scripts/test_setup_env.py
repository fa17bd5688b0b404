"""scripts/setup_env.sh says what it installs and how far it is (issue 31, item 5: pip ran quietly for 36 s,
minutes on an empty cache). Run for real on a copy of the script in a new project folder whose requirements
are one local wheel, so that nothing is downloaded: its own venv, pip's own lines, then the stamp."""
from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _wheel(folder: Path) -> Path:
    """The smallest installable wheel, made here (no index, no build)."""
    path = folder / "polishdemo-0.1-py3-none-any.whl"
    info = "polishdemo-0.1.dist-info"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("polishdemo/__init__.py", "VALUE = 1\n")
        archive.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\nName: polishdemo\nVersion: 0.1\n")
        archive.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        archive.writestr(f"{info}/RECORD", f"polishdemo/__init__.py,,\n{info}/METADATA,,\n{info}/WHEEL,,\n{info}/RECORD,,\n")
    return path


_BACKEND = """
import zipfile

def _wheel(directory):
    name, info = "polishproject-0.1-py3-none-any.whl", "polishproject-0.1.dist-info"
    with zipfile.ZipFile(f"{directory}/{name}", "w") as archive:
        archive.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\\nName: polishproject\\nVersion: 0.1\\n")
        archive.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
        archive.writestr(f"{info}/RECORD", f"{info}/METADATA,,\\n{info}/WHEEL,,\\n{info}/RECORD,,\\n")
    return name

def get_requires_for_build_editable(config_settings=None):
    return []

def get_requires_for_build_wheel(config_settings=None):
    return []

def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory)

build_wheel = build_editable
"""


def test_setup_prints_each_step_the_packages_and_pip_progress(tmp_path):
    project = tmp_path / "project"
    (project / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup_env.sh", project / "scripts" / "setup_env.sh")
    wheel = _wheel(project)
    (project / "requirements.txt").write_text(f"# one local wheel\n./{wheel.name}  # the demo\n")
    (project / "tests" / "plugins" / "none").mkdir(parents=True)
    (project / "tests" / "plugins" / "none" / "pyproject.toml").write_text("")
    # The project itself, installed editable by the script: an in-tree build backend, so nothing is fetched.
    (project / "pyproject.toml").write_text('[build-system]\nrequires = []\nbuild-backend = "demo_backend"\n'
                                            'backend-path = ["."]\n')
    (project / "demo_backend.py").write_text(_BACKEND)
    env = dict(os.environ, PIP_NO_INDEX="1", PYTHON="python3")
    first = subprocess.run(["bash", str(project / "scripts" / "setup_env.sh")], capture_output=True, text=True,
                           env=env, timeout=600)
    assert first.returncode == 0, first.stderr[-3000:]
    said = first.stderr
    for step in ("[setup 1/4] Checking Java", "[setup 2/4] Checking Python", "[setup 3/4] Making the Python environment",
                 "[setup 4/4] Installing the 1 packages of requirements.txt"):
        assert step in said, said
    assert "wants ./polishdemo-0.1-py3-none-any.whl" in said, said      # what it installs, before pip runs
    assert "[1] Processing ./polishdemo-0.1-py3-none-any.whl" in said, said  # how far pip is
    assert "Successfully installed polishdemo-0.1" in said, said
    again = subprocess.run(["bash", str(project / "scripts" / "setup_env.sh")], capture_output=True, text=True,
                           env=env, timeout=600)
    assert again.returncode == 0 and "[setup 4/4] Packages already installed" in again.stderr, again.stderr
