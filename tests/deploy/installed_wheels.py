"""Wheels of installed third-party distributions, for installing with pip and no index at all."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import zipfile
from pathlib import Path


def repack_installed(name: str, out_dir: Path) -> Path:
    """A wheel of an installed third-party distribution, rebuilt from its installed files.

    The test may use no index and no network, and pip needs the dependencies as wheels too: the
    files this environment installed from those very wheels are packed back into one.
    """
    dist = importlib.metadata.distribution(name)
    tags = [
        line.split(":", 1)[1].strip()
        for line in (dist.read_text("WHEEL") or "").splitlines()
        if line.startswith("Tag:")
    ]
    stem = f"{dist.metadata['Name'].replace('-', '_')}-{dist.version}"
    wheel = out_dir / f"{stem}-{tags[0]}.whl"
    skipped = {"INSTALLER", "REQUESTED", "direct_url.json", "RECORD", "uv_cache.json"}
    records: list[str] = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        record_name = ""
        for file in dist.files or []:
            if file.name == "RECORD":
                record_name = str(file)
            path = Path(str(file.locate()))
            if file.name in skipped or "__pycache__" in file.parts or not path.is_file():
                continue
            data = path.read_bytes()
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            archive.writestr(str(file), data)
            records.append(f"{file},sha256={digest},{len(data)}")
        archive.writestr(record_name, "\n".join([*records, f"{record_name},,"]) + "\n")
    return wheel
