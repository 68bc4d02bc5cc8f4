"""Shared fixtures of the Python package's tests.

The package (`import skillrt`) is loaded from PYTHONPATH (BUILD/python); the
CLI it is compared with is $SKILLRT_CLI (both set by the ctest registration in
tests/python/CMakeLists.txt). Every test works on real files in a temporary
home; nothing is mocked.
"""
import json
import os
import subprocess
import textwrap
from pathlib import Path

import pytest

import skillrt

CLI = os.environ.get("SKILLRT_CLI", "")


def skill_md(name, description, body="Use this skill.\n", extra=""):
    return f"---\nname: {name}\ndescription: {description}\n{extra}---\n\n# {name}\n\n{body}"


class Home:
    """A skills home on disk, and the CLI run on it."""

    def __init__(self, root: Path):
        self.root = root
        self.skills = root / "skills"
        self.skills.mkdir(parents=True, exist_ok=True)
        # Tests keep their homes empty of skillrt's own bundled skills.
        (root / ".no-bundled-skills").touch()

    def add_skill(self, rel, name, description, body="Use this skill.\n", extra="", files=None):
        folder = self.skills / rel
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(skill_md(name, description, body, extra), encoding="utf-8")
        for path, text in (files or {}).items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        return folder

    def write_config(self, text):
        (self.root / "config.yaml").write_text(textwrap.dedent(text), encoding="utf-8")

    def cli(self, *args, check_json=True):
        """`skillrt --home HOME --json ARGS`: the parsed JSON and the raw stdout."""
        if not CLI:
            pytest.skip("SKILLRT_CLI is not set (run through ctest, or export it)")
        env = dict(os.environ)
        env["SKILLRT_NO_BUNDLED_SEED"] = "1"
        done = subprocess.run([CLI, "--home", str(self.root), "--json", *args], capture_output=True, text=True,
                              env=env, timeout=120)
        if check_json:
            assert done.stdout.strip(), f"no JSON from skillrt {args}: {done.stderr}"
            return json.loads(done.stdout), done.stdout
        return None, done.stdout


@pytest.fixture
def home(tmp_path):
    h = Home(tmp_path / "home")
    skillrt.configure(home=str(h.root))
    yield h
    skillrt.configure()


@pytest.fixture
def sample_home(home):
    """A small catalog: categories, a root-level skill, linked files, a slash command."""
    home.add_skill("devops/deploy", "deploy", "Deploy the service to staging or production",
                   body="Run scripts/deploy.sh with the target.\n",
                   files={"scripts/deploy.sh": "#!/bin/sh\necho deploying\n",
                          "references/api.md": "# API\n\nThe deploy API.\n"})
    home.add_skill("devops/rollback", "rollback", "Roll a deployment back")
    home.add_skill("writing/release-notes", "release-notes", "Write release notes from merged pull requests")
    home.add_skill("lint-fix", "lint-fix", "Fix lint findings in a change")
    return home
