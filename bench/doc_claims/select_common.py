"""What the blind sets' state selection shares: the earlier corpora's state dates and the 183-day rule.

A blind set's state must lie at least 183 days from every state of the same repository in every
earlier corpus, so that no rule tuned on an earlier state was tuned on nearly the same docs. Each
`blind<N>_select_states.py` names the corpora that were earlier for it and imports the rule from
here (run as `python bench/doc_claims/<script>.py`, so this folder is on `sys.path`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime, timedelta
from pathlib import Path

from doc_mining import git_run

HERE = Path(__file__).parent
MARGIN = timedelta(days=183)
# Every state list in the order the corpora were made; a blind set takes those before itself.
CORPORA = [
    "states",
    "heldout_states",
    "blind_states",
    "blind2_states",
    "blind3_states",
    "outdated_states",
    "blind4_states",
    "blind5_states",
]


def earlier_dates(stems: Iterable[str]) -> dict[str, list[datetime]]:
    """The commit dates of every state per repository in the named state lists.

    Args:
        stems: state list names without `.jsonl` (for example `blind4_states`).

    Returns:
        `owner/name` -> the dates of its states in those lists.
    """
    dates: dict[str, list[datetime]] = defaultdict(list)
    for stem in stems:
        for raw in (HERE / f"{stem}.jsonl").read_text().splitlines():
            if raw.strip():
                row = json.loads(raw)
                dates[row["repo"]].append(datetime.fromisoformat(row["date"]))
    return dates


def too_close(repo: str, date: datetime, taken: dict[str, list[datetime]]) -> bool:
    """Whether `date` is within 183 days of an earlier corpus's state of the same repository."""
    return any(abs(date - other) < MARGIN for other in taken.get(repo, []))


def commit_date(git_dir: str, commit: str) -> datetime:
    """The committer date of `commit` in the mirror at `git_dir`."""
    return datetime.fromisoformat(git_run(git_dir, "show", "-s", "--format=%cI", commit)[1].strip())
