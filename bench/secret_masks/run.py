"""How often the secret masks touch ordinary code: every tracked text file of real checkouts, masked.

Each file at the checkout's head goes through `redact_file_text` (the rules the analysis prompt and
the review diff use, chosen by the file's kind); every line that changed is written out for reading,
and the counts are printed per repository and per 10k lines. A changed line is either a true mask (a
credential-shaped literal, a test fixture's fake password) or a false one (code that holds no
secret): reading the written lines is the measure, the count only says how many there are to read.

    uv run --no-sync python bench/secret_masks/run.py CHECKOUT [CHECKOUT ...] [--out masked.txt]

A checkout: ``git clone -q /path/to/mirror checkout`` (its tracked files at the head are read).
Figures and what the reading found: docs/design.md, "Secrets".
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path

from sextant.secret_rules import redact_file_text

MAX_FILE_BYTES = 1 << 20


def tracked_files(checkout: Path) -> list[str]:
    """Paths git tracks at the checkout's head."""
    out = subprocess.run(["git", "-C", str(checkout), "ls-files", "-z"], capture_output=True, check=True).stdout
    return [path for path in out.decode("utf-8", "surrogateescape").split("\0") if path]


def text_of(path: Path) -> str | None:
    """The file as UTF-8 text, or None for binary, oversized or undecodable files."""
    if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
        return None
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=Path("masked-lines.txt"))
    args = parser.parse_args()
    total_lines = total_changed = 0
    with args.out.open("w", encoding="utf-8") as out:
        for checkout in args.checkouts:
            lines = changed = files = 0
            started = time.perf_counter()
            for relative in tracked_files(checkout):
                text = text_of(checkout / relative)
                if text is None:
                    continue
                files += 1
                masked = redact_file_text(relative, text)
                before, after = text.split("\n"), masked.split("\n")
                lines += len(before)
                if masked == text:
                    continue
                for number, (old, new) in enumerate(zip(before, after, strict=True), start=1):
                    if old != new:
                        changed += 1
                        out.write(
                            f"{checkout.name}/{relative}:{number}\n  - {old.strip()[:200]}\n  + {new.strip()[:200]}\n"
                        )
            seconds = time.perf_counter() - started
            print(
                f"{checkout.name}: {files} files, {lines} lines, {changed} lines masked"
                f" ({changed / max(lines, 1) * 10_000:.2f} per 10k lines), {lines / seconds / 1000:.0f}k lines/s"
            )
            total_lines += lines
            total_changed += changed
    print(
        f"all: {total_lines} lines, {total_changed} masked ({total_changed / max(total_lines, 1) * 10_000:.2f} per 10k)"
    )
    print(f"changed lines written to {args.out}")


if __name__ == "__main__":
    main()
