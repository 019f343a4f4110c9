"""docs/reliability.md names a test for every promise: each name must exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "reliability.md"


def test_every_test_the_reliability_doc_names_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    named = re.findall(r"`((?:ui/)?test_\w+\.py)(?:::(\w+))?", text)
    assert len(named) >= 25
    missing = []
    for file, test in named:
        path = ROOT / "tests" / file
        if not path.is_file():
            missing.append(file)
            continue
        if test:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {
                n.name
                for n in ast.walk(tree)
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            } | {
                t.id
                for n in ast.walk(tree)
                if isinstance(n, ast.Assign)
                for t in n.targets
                if isinstance(t, ast.Name)
            }
            if test not in names:
                missing.append(f"{file}::{test}")
    assert missing == []


def test_every_promise_names_a_test() -> None:
    """Each promise is a bolded bullet, and the bullets under it name tests."""
    sections = re.split(r"\n- \*\*", DOC.read_text(encoding="utf-8"))[1:]
    assert len(sections) >= 12
    for section in sections:
        assert "test_" in section, section.splitlines()[0]
