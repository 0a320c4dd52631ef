"""The lock file pins the whole tree that ``pyproject.toml`` asks for, each with its hashes.

``make run`` and ``make test`` install from ``requirements.lock`` only (``--require-hashes
--no-deps``), so a requirement added to ``pyproject.toml`` without ``make upgrade`` would be
missing on a fresh machine: this test says so first. The environment the suite runs in is
the one the lock describes.
"""

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)")


def _pins() -> dict[str, tuple[str, list[str]]]:
    """Each pinned name with its version and hashes, read from the lock file."""
    pins, current = {}, None
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        match = PIN.match(line)
        if match:
            current = canonicalize_name(match[1])
            pins[current] = (match[2], [])
        elif current and line.strip().startswith("--hash=sha256:"):
            pins[current][1].append(line.strip().split(":", 1)[1].rstrip(" \\"))
        elif line.strip() and not line.lstrip().startswith("#"):
            current = None
    return pins


def _requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted += extra
    return [Requirement(text) for text in wanted]


def test_every_requirement_of_pyproject_is_pinned_within_its_range():
    pins = _pins()
    for requirement in _requirements():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in requirements.lock: run make upgrade"
        version, _hashes = pins[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"requirements.lock pins {name}=={version}, outside {requirement}: run make upgrade"
        )


def test_every_pin_has_hashes():
    pins = _pins()
    assert len(pins) >= len(_requirements())
    for name, (_version, hashes) in pins.items():
        assert hashes and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), name


def test_the_suite_runs_on_the_locked_versions():
    for name, (version, _hashes) in _pins().items():
        assert metadata.version(name) == version, (
            f"{name} {metadata.version(name)} is installed, the lock says {version}"
        )
