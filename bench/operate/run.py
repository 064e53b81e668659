"""What operating Sextant costs around the edges: installing the CI publisher, and a dead collector.

1. The CI publisher: its wheels are built with `uv build`, then installed into a fresh venv with pip,
   from those wheels plus PyPI for msgspec and nats-py (what a CI job does), and again with no index at
   all (dependencies repacked from this environment). Printed: seconds, and the installed size of the
   publisher and its dependencies, beside the size of the full workspace venv (what installing the
   `sextant` CLI in CI used to pull in).
2. Tracing with a collector that is down: the time `ServiceTracing.shutdown()` takes at exit with one
   span per service waiting for export, for no collector, a dead OTLP/HTTP one and a dead gRPC one.
   The budget is EXPORT_TIMEOUT_SECONDS; the ratio to it is printed.

    uv run --no-sync python bench/operate/run.py [--rounds 5] [--offline]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sextant.telemetry.exporters import EXPORT_TIMEOUT_SECONDS

ROOT = Path(__file__).resolve().parents[2]
PUBLISHER_PACKAGES = ("sextant-contracts", "sextant-config", "sextant-publish")
SHUTDOWN_SCRIPT = """
import time
from sextant.telemetry import ServiceTracing
tracing = ServiceTracing({env!r})
for service in ("recency-scanner", "indexer", "embedder", "selector", "analyzer", "reviewer", "sextant-cli"):
    with tracing.tracer_for(service, "bench").start_as_current_span("work"):
        pass
started = time.monotonic()
tracing.shutdown()
print(time.monotonic() - started)
"""


def _size(folder: Path, names: tuple[str, ...]) -> int:
    site = next(folder.glob("lib/python*/site-packages"))
    return sum(f.stat().st_size for name in names for path in site.glob(name) for f in path.rglob("*") if f.is_file())


def install_publisher(work: Path, *, offline: bool) -> tuple[float, int]:
    uv = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    dist = work / "dist"
    for package in PUBLISHER_PACKAGES:
        subprocess.run([uv, "build", "-q", "--wheel", "--package", package, "-o", str(dist)], cwd=ROOT, check=True)
    if offline:
        sys.path.insert(0, str(ROOT / "tests" / "deploy"))
        from installed_wheels import repack_installed  # the test's helper: wheels from installed files

        for dependency in ("msgspec", "nats-py"):
            repack_installed(dependency, dist)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    index = ["--no-index"] if offline else []
    started = time.monotonic()
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check", *index,
         "--find-links", str(dist), "sextant-publish"],
        check=True,
    )  # fmt: skip
    seconds = time.monotonic() - started
    return seconds, _size(venv, ("msgspec*", "nats*", "sextant*"))


def shutdown_seconds(env: dict[str, str]) -> float:
    done = subprocess.run(
        [sys.executable, "-c", SHUTDOWN_SCRIPT.format(env=env)], capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--offline", action="store_true", help="Only the no-index install (no network).")
    args = parser.parse_args()
    workspace = sum(f.stat().st_size for f in (ROOT / ".venv").rglob("*") if f.is_file())
    for offline in (True,) if args.offline else (False, True):
        with tempfile.TemporaryDirectory() as work:
            seconds, size = install_publisher(Path(work), offline=offline)
        how = "no index, local wheels" if offline else "PyPI for msgspec and nats-py"
        print(f"CI publisher install ({how}): {seconds:.2f} s, {size / 1e6:.2f} MB installed "
              f"({size / workspace:.2%} of the workspace venv's {workspace / 1e9:.2f} GB)")  # fmt: skip
    dead = "http://127.0.0.1:9"
    for label, env in (
        ("no collector", {}),
        ("dead OTLP/HTTP collector", {"OTEL_EXPORTER_OTLP_ENDPOINT": dead}),
        ("dead OTLP/gRPC collector", {"OTEL_EXPORTER_OTLP_ENDPOINT": dead, "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}),
    ):
        times = [shutdown_seconds(env) for _ in range(args.rounds)]
        median = statistics.median(times)
        print(f"exit flush, {label}: median {median:.3f} s, max {max(times):.3f} s "
              f"({max(times) / EXPORT_TIMEOUT_SECONDS:.2f}x the {EXPORT_TIMEOUT_SECONDS:.0f} s budget)")  # fmt: skip


if __name__ == "__main__":
    main()
