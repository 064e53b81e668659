"""The fifth blind set's candidate list: states just before doc fixes that took out names the code had lost.

Usage:
    python bench/doc_claims/blind5_select_states.py CANDIDATES_DIR [--mirrors /work/.mirror]

CANDIDATES_DIR holds `<owner>+<name>.jsonl`, the rows `mine_candidates.py <mirror>` printed for a
repository. A row's state is the fixing commit's parent. This script drops rows whose fixing commit
deleted the doc (a move, not a fix), drops states within 183 days of a state of the same repository
in any earlier corpus file (blind 1-4 included), and prints per remaining state the rows it still
holds (the name still in the doc at the state, its leaf absent from the code there) with the fixing
commit and the removed doc line, so that a person can read each one. It ranks nothing: the states
are picked by reading these rows and the fixing diffs (README.md, "Fifth blind set").
It reads git history only, never the checker's output.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).parent
EARLIER = [
    "states",
    "heldout_states",
    "blind_states",
    "blind2_states",
    "blind3_states",
    "blind4_states",
    "outdated_states",
]
MARGIN = timedelta(days=183)
CODE_SPECS = ["*.py", "*.go", "*.js", "*.mjs", "*.cjs", "*.ts", "*.pyi"]


def git(git_dir: str, *args: str) -> tuple[int, str]:
    result = subprocess.run(["git", "--git-dir", git_dir, *args], capture_output=True, check=False)
    return result.returncode, result.stdout.decode("utf-8", "replace").strip()


def earlier_dates() -> dict[str, list[datetime]]:
    dates: dict[str, list[datetime]] = defaultdict(list)
    for stem in EARLIER:
        for raw in (HERE / f"{stem}.jsonl").read_text().splitlines():
            if raw.strip():
                row = json.loads(raw)
                dates[row["repo"]].append(datetime.fromisoformat(row["date"]))
    return dates


def too_close(repo: str, date: datetime, taken: dict[str, list[datetime]]) -> bool:
    """Whether `date` is within 183 days of an earlier corpus's state of the same repository."""
    return any(abs(date - other) < MARGIN for other in taken.get(repo, []))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("candidates", type=Path)
    parser.add_argument("--mirrors", default="/work/.mirror")
    args = parser.parse_args()
    taken = earlier_dates()
    for path in sorted(args.candidates.glob("*.jsonl")):
        repo = path.stem.replace("+", "/", 1)
        git_dir = f"{args.mirrors}/{path.stem}/repo"
        rows = [json.loads(raw) for raw in path.read_text().splitlines() if raw.strip()]
        rows = [row for row in rows if git(git_dir, "cat-file", "-e", f"{row['fixed_by']}:{row['doc']}")[0] == 0]
        by_state: dict[str, list[dict[str, str]]] = defaultdict(list)
        for row in rows:
            by_state[row["state"]].append(row)
        for state, state_rows in sorted(by_state.items()):
            date = datetime.fromisoformat(git(git_dir, "show", "-s", "--format=%cI", state)[1])
            if too_close(repo, date, taken):
                continue
            for row in state_rows:
                print(
                    json.dumps(
                        {
                            "repo": repo,
                            "state": state,
                            "date": date.isoformat(),
                            "doc": row["doc"],
                            "line": row["line"],
                            "name": row["name"],
                            "fixed_by": row["fixed_by"],
                            "fix_subject": row["fix_subject"],
                            "text": row["text"],
                        }
                    )
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
