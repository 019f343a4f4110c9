"""The README's two commands work as written on a fresh machine: each makes and enters a
virtual environment before pip installs, since Debian's and Ubuntu's own Python refuse
`pip install` outside one. (CI runs the same steps in `.ci/run` on a clean clone.)"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def quick_start() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "the quick start has no shell block"
    return [line.split("#", 1)[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_two_quick_start_commands_enter_a_virtualenv_before_pip_installs() -> None:
    commands = quick_start()
    assert len(commands) == 2
    for command in commands:
        steps = [step.strip() for step in command.split("&&")]
        assert steps[:3] == [
            "python3 -m venv .venv",
            ". .venv/bin/activate",
            'pip install -e ".[test]"',
        ]
    assert [c.split("&&")[-1].strip() for c in commands] == ["vocabgame", "pytest"]


def test_the_virtualenv_folder_is_not_committed() -> None:
    ignored = (README.parent / ".gitignore").read_text(encoding="utf-8").split()
    assert ".venv/" in ignored or ".venv" in ignored
