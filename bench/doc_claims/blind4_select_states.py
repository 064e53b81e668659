"""The fourth blind set's state rule: states just before doc fixes that took out names the code had lost.

Usage:
    python bench/doc_claims/blind4_select_states.py CANDIDATES_DIR [--mirrors /work/.mirror]

CANDIDATES_DIR holds `<owner>+<name>.jsonl`, the rows `mine_candidates.py <mirror> --max-commits 4000`
printed for each allowed repository (a doc commit took a code-shaped name out of a non-changelog doc;
the name is absent from the code at the commit's parent and present in the code's earlier history).
A row's state is the fixing commit's parent. This script drops rows whose fixing commit deleted the
doc itself (a doc moved or dropped, not a fix); takes every row's state as a candidate state S, drops
those within 183 days of a state of the same repository in any earlier corpus file, and scores S by
the distinct (doc, name) rows fixed after S and within three years of it whose name the doc at S
still has (`git grep -F`) and whose leaf the code at S lacks (`git grep -w`): the stale claims the
miner saw that S still holds. It prints per repository its states by score (the rule in README.md
picks from this list).
It reads git history only, never the checker's output.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timedelta
from pathlib import Path

from doc_mining import git_run
from mine_candidates import CODE_SPECS
from select_common import CORPORA, commit_date, earlier_dates, too_close

EARLIER = [stem for stem in CORPORA if stem not in {"blind4_states", "blind5_states"}]
WINDOW = timedelta(days=3 * 365)


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
        scored = []
        for state in sorted({row["state"] for row in rows}):
            date = commit_date(git_dir, state)
            if too_close(repo, date, taken):
                continue
            names: set[tuple[str, str]] = set()
            fix: set[str] = set()
            for row in rows:
                fixed_at = datetime.fromisoformat(row["fixed_at"])
                if not date <= fixed_at <= date + WINDOW or (row["doc"], row["name"]) in names:
                    continue
                if git_run(git_dir, "grep", "-q", "-F", row["name"], state, "--", row["doc"])[0] != 0:
                    continue
                leaf = row["name"].lstrip("-").rsplit(".", 1)[-1]
                if git_run(git_dir, "grep", "-q", "-w", "-F", leaf, state, "--", *CODE_SPECS)[0] == 0:
                    continue
                names.add((row["doc"], row["name"]))
                fix.add(row["fixed_by"])
            scored.append((len(names), date, state, sorted(fix)))
        for score, date, state, fix in sorted(scored, key=lambda s: (-s[0], s[1]))[:5]:
            print(json.dumps({"repo": repo, "state": state, "date": date.isoformat(), "score": score, "fixed_by": fix}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
