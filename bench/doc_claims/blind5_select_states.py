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
import sys
from collections import defaultdict
from pathlib import Path

from doc_mining import git_run
from select_common import CORPORA, commit_date, earlier_dates, too_close

EARLIER = [stem for stem in CORPORA if stem != "blind5_states"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("candidates", type=Path)
    parser.add_argument("--mirrors", default="/work/.mirror")
    args = parser.parse_args()
    taken = earlier_dates(EARLIER)
    for path in sorted(args.candidates.glob("*.jsonl")):
        repo = path.stem.replace("+", "/", 1)
        git_dir = f"{args.mirrors}/{path.stem}/repo"
        rows = [json.loads(raw) for raw in path.read_text().splitlines() if raw.strip()]
        rows = [row for row in rows if git_run(git_dir, "cat-file", "-e", f"{row['fixed_by']}:{row['doc']}")[0] == 0]
        by_state: dict[str, list[dict[str, str]]] = defaultdict(list)
        for row in rows:
            by_state[row["state"]].append(row)
        for state, state_rows in sorted(by_state.items()):
            date = commit_date(git_dir, state)
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
