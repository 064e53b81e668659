"""Every repo key and subject the README and the examples show is the one Sextant computes."""

from __future__ import annotations

import re
from pathlib import Path

from sextant.contracts import repo_key_for

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "examples").rglob("*")), *sorted((ROOT / "docs").rglob("*.md"))]
KEY = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+-[0-9a-f]{8}\b")
URL = re.compile(r"https://[\w.-]+/[\w./-]+?\.git\b")


def test_every_documented_repo_key_is_computed_from_a_documented_url() -> None:
    checked = 0
    for document in DOCUMENTS:
        if not document.is_file():
            continue
        text = document.read_text(errors="replace")
        computed = {repo_key_for(url) for url in URL.findall(text)}
        for key in KEY.findall(text):
            assert key in computed, f"{document.relative_to(ROOT)} names repo key {key}, which no URL there gives"
            checked += 1
    assert checked >= 1  # the README shows at least one key, so this test checks something
