"""The Dockerfile, read as Docker reads it (no Docker daemon here to build it): the locked
dependencies in a layer before the source, the base image by digest, a health check this code
answers, SIGTERM."""

from __future__ import annotations

import json
import re
import subprocess
import sys

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
    assert first_copy == ["requirements.txt", "./"], first_copy
    install = next(i for i, (w, a) in enumerate(steps) if w == "RUN" and "pip install" in a)
    source = next(i for i, (w, a) in enumerate(steps) if w == "COPY" and "bot" in a.split()[0])
    assert copies[0] < install < source
    later = [a for w, a in steps[source:] if w == "RUN" and "pip install" in a]
    assert later and all("--no-deps" in a for a in later), later


def test_the_dependency_layer_installs_the_lock_with_its_hashes() -> None:
    """The image gets exactly the locked versions, each checked by hash."""
    run = next(a for w, a in instructions() if w == "RUN" and "pip install" in a)
    assert "--require-hashes -r requirements.txt" in run, run


def test_the_base_image_is_pinned_by_digest() -> None:
    """A tag moves; a digest names one image."""
    base = next(a for w, a in instructions() if w == "FROM")
    assert re.fullmatch(r"python:3\.11-slim@sha256:[0-9a-f]{64}", base), base


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
