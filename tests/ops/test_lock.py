"""Reproducible installs from a lock with hashes.

``requirements.txt`` (the runtime and the postgres extra: the Docker image) and
``requirements-test.txt`` (those and the test extra: ``.ci/run``) are pip-compile's output with
``--generate-hashes``. These tests fail when ``pyproject.toml`` names a package the lock does not
pin, pins it at a version outside the project's range, or lists a package without its hashes,
so a dependency change without a new lock cannot land.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.double.process import REPO_ROOT

LOCKS = {
    "requirements.txt": ("postgres",),
    "requirements-test.txt": ("postgres", "test"),
}
"""Each lock and the extras it covers besides the runtime dependencies."""
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)(?: ;[^\\]*)?\s*\\?$")


def locked(name: str) -> dict[str, tuple[str, int]]:
    """Package (canonical name) → (pinned version, number of hashes) in lock ``name``."""
    text = (REPO_ROOT / name).read_text()
    entries: dict[str, tuple[str, int]] = {}
    current: str | None = None
    for line in text.splitlines():
        pin = _PIN.match(line)
        if pin:
            current = canonicalize_name(pin.group(1))
            entries[current] = (pin.group(2), 0)
        elif current and line.strip().startswith("--hash=sha256:"):
            version, hashes = entries[current]
            entries[current] = (version, hashes + 1)
        elif line.strip() and not line.startswith((" ", "#")):
            pytest.fail(f"{name}: a line that is no pin: {line!r}")
    return entries


def wanted(extras: tuple[str, ...]) -> list[Requirement]:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    listed = list(project["dependencies"])
    for extra in extras:
        listed += project["optional-dependencies"][extra]
    return [Requirement(item) for item in listed]


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_dependency_of_the_project_is_locked_in_its_range(lock: str) -> None:
    entries = locked(lock)
    for req in wanted(LOCKS[lock]):
        if req.marker is not None and not req.marker.evaluate():
            continue
        name = canonicalize_name(req.name)
        assert name in entries, f"{lock}: {req.name} is not locked (run pip-compile, README)"
        version, _ = entries[name]
        assert req.specifier.contains(version, prereleases=True), (
            f"{lock}: {req.name}=={version} is outside {req.specifier}"
        )


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_locked_package_has_its_hashes(lock: str) -> None:
    entries = locked(lock)
    assert len(entries) > 20
    assert [name for name, (_, hashes) in entries.items() if hashes == 0] == []


def test_the_two_locks_agree_where_they_overlap() -> None:
    runtime, test = locked("requirements.txt"), locked("requirements-test.txt")
    assert {n: v for n, (v, _) in runtime.items()} == {
        n: v for n, (v, _) in test.items() if n in runtime
    }


def test_ci_installs_the_test_lock_with_hashes_before_the_project() -> None:
    run = (REPO_ROOT / ".ci" / "run").read_text()
    lock = run.index("--require-hashes -r requirements-test.txt")
    assert lock < run.index("pip install --quiet -e '.[test]'")


def test_the_readme_says_how_to_make_the_locks() -> None:
    readme = (REPO_ROOT / "README.md").read_text()
    for name, extras in LOCKS.items():
        flags = " ".join(f"--extra {e}" for e in extras)
        assert f"{flags} --output-file {name} pyproject.toml" in readme, name
    assert Path(REPO_ROOT / "requirements.txt").exists()
