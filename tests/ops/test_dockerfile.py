"""The Dockerfile, read as Docker reads it (no Docker daemon here to build it): dependencies in
a layer before the source, the postgres extra, a health check this code answers, SIGTERM."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib

from tests.double.process import REPO_ROOT

from .helpers import clean_env


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with line continuations joined and comments dropped."""
    text = (REPO_ROOT / "Dockerfile").read_text()
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", "", "\n".join(lines))
    found = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def test_dependencies_are_a_layer_of_their_own_before_the_source() -> None:
    steps = instructions()
    copies = [i for i, (word, _) in enumerate(steps) if word == "COPY"]
    first_copy = steps[copies[0]][1].split()
    assert first_copy == ["pyproject.toml", "./"], first_copy
    install = next(i for i, (w, a) in enumerate(steps) if w == "RUN" and "pip install -r" in a)
    source = next(i for i, (w, a) in enumerate(steps) if w == "COPY" and "bot" in a.split()[0])
    assert copies[0] < install < source
    later = [a for w, a in steps[source:] if w == "RUN" and "pip install" in a]
    assert later and all("--no-deps" in a for a in later), later


def test_the_dependency_layer_lists_the_project_dependencies_and_postgres() -> None:
    run = next(a for w, a in instructions() if w == "RUN" and "tomllib" in a)
    command = run.split(" > ")[0]  # the python -c … that writes the requirements
    listed = subprocess.run(
        shlex.split(command), cwd=REPO_ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()  # one requirement a line (a marker holds spaces)
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    expected = project["dependencies"] + project["optional-dependencies"]["postgres"]
    assert listed == expected
    assert any(item.startswith("asyncpg") for item in listed)


def test_healthcheck_runs_the_bots_own_check_and_stop_is_sigterm() -> None:
    steps = dict(instructions())
    assert steps["STOPSIGNAL"] == "SIGTERM"
    assert steps["CMD"] == '["python", "-m", "bot"]'  # exec form: Python is PID 1
    health = steps["HEALTHCHECK"]
    exec_form = health[health.index("CMD") + 3 :].strip()
    argv = json.loads(exec_form)  # the exec form is a JSON array
    assert argv == ["python", "-m", "bot", "--healthcheck"]
    env = dict(re.findall(r"(HOKM_[A-Z_]+)=(\S+)", steps["ENV"]))
    result = subprocess.run(
        [sys.executable, *argv[1:]],
        cwd=REPO_ROOT,
        env=clean_env(env),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1  # the command runs; no bot is connected here
    assert result.stdout.startswith("unhealthy:") and env["HOKM_HEALTH_FILE"] in result.stdout
