"""`sextant index`, `select`, `analyze` and `show` on a real repository, as a user runs them."""

from __future__ import annotations

import json

import pytest

from ..conftest import GitRepo
from .conftest import SextantRunner


@pytest.fixture
def shop(git_repo: GitRepo) -> GitRepo:
    docs = {"docs/design.md": "# Design\n\nOrders go through `submit_order()` in `shop/orders.py`.\n"}
    # The code the doc describes, renamed below: the doc's name is one the code had.
    old_code = {"shop/orders.py": 'def submit_order(item: str) -> str:\n    """Submit it."""\n    return item\n'}
    git_repo.commit_files("design", docs | old_code, date="2024-02-01T09:00:00+00:00")
    orders = (
        'def place_order(item: str) -> str:\n    """Place an order."""\n    return item\n\n\n'
        'def cancel_order(order_id: str) -> None:\n    """Cancel it."""\n'
    )
    code = {
        "README.md": "# Shop\n\nCall `place_order()` from `shop/orders.py`.\n",
        "pyproject.toml": '[project]\nname = "shop"\nversion = "1.0"\ndependencies = ["httpx>=0.27"]\n',
        "shop/orders.py": orders,
        "shop/payments.py": 'def charge(amount: int) -> bool:\n    """Charge a card."""\n    return amount > 0\n',
    }
    git_repo.commit_files("code", code, date="2026-06-01T09:00:00+00:00")
    return git_repo


@pytest.mark.model
def test_index_select_analyze_show(sextant: SextantRunner, shop: GitRepo) -> None:
    repo = str(shop.root)
    indexed = json.loads(sextant("index", repo, "--json").stdout)
    assert (indexed["type"], indexed["files_added"], indexed["recency_status"]) == ("chunks.indexed", 5, "computed")

    selection = json.loads(sextant("select", repo, "--json").stdout)
    by_path = {chunk["path"]: chunk for chunk in selection["chunks"]}
    assert by_path["README.md"]["reason"] == "seed"
    assert by_path["pyproject.toml"]["reason"] == "seed"
    assert by_path["docs/design.md"]["last_modified_at"].startswith("2024-02-01")
    assert selection["median_code"].startswith("2026-06-01")
    assert {"path", "kind", "last_modified_at", "reason", "start_line", "end_line"} <= set(selection["chunks"][0])

    analysis = json.loads(sextant("analyze", repo, "--json").stdout)
    assert analysis["type"] == "analysis.completed"
    assert analysis["model"] == "none"
    contradicted = {(c["doc"], c["ref"]) for c in analysis["doc_claims"] if c["status"] == "contradicted"}
    assert ("docs/design.md", "submit_order()") in contradicted
    assert "Documentation Accuracy" in analysis["sections"]
    assert analysis["prompt"].index("// shop/") < analysis["prompt"].index("--- Documentation excerpts")

    shown = sextant("show", repo).stdout
    assert shown == analysis["markdown"] + "\n"
    assert "## Provenance" in shown

    # The summary was finished inside the analyze run, not left for the next start.
    summary = sextant("show", repo, "--summary").stdout
    assert summary.startswith("## Purpose")
    assert "## Provenance" in summary


def test_show_without_an_analysis_says_what_to_do(sextant: SextantRunner, git_repo: GitRepo) -> None:
    result = sextant("show", str(git_repo.root), check=False)
    assert result.returncode == 1
    assert "sextant analyze" in result.stderr
