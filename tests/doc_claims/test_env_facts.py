"""Env vars that the repository's own init scripts, systemd units and settings files set or read."""

from __future__ import annotations

from sextant.doc_claims import check_repository
from sextant.doc_claims.judging.env_files import env_settings

from ..conftest import GitRepo

INIT_SCRIPT = """\
#!/bin/sh -e
# ============================================
#  worker - Starts the daemon.
# ============================================
DEFAULT_LOG_LEVEL="INFO"
if [ -z "$WORKERD_LOG_FILE" ]; then
    WORKERD_LOG_FILE="$DEFAULT_LOG_FILE"
fi
WORKERD_LOG_LEVEL=${WORKERD_LOG_LEVEL:-${WORKERD_LOGLEVEL:-$DEFAULT_LOG_LEVEL}}
export WORKER_LOADER
"""

UNIT = """\
[Service]
Type=forking
EnvironmentFile=-/etc/conf.d/worker
Environment="WORKER_HOME=/opt/worker" WORKER_QUIET=1
ExecStart=/bin/sh -c '${WORKER_BIN} start --pidfile=${WORKERD_PID_FILE} $WORKERD_OPTS'
# ExecStop=${COMMENTED_OUT}
"""

DOC = """\
# Running the worker

Set `WORKERD_LOG_FILE` to choose the log file and `${WORKERD_LOG_LEVEL}` for its level.
The unit reads `WORKERD_PID_FILE` and `WORKER_HOME`; the defaults file sets `WORKER_NODES`.
Set `WORKERD_TRACE_FILE` to choose the trace file.
"""


def test_variables_read_by_extension_less_scripts_and_units_are_defined(git_repo: GitRepo) -> None:
    git_repo.write("app/worker.py", "def run() -> None:\n    pass\n")
    git_repo.write("extra/init.d/worker", INIT_SCRIPT)
    git_repo.write("extra/systemd/worker.service", UNIT)
    git_repo.write("extra/systemd/worker.conf", 'WORKER_NODES="w1"\n# WORKERD_TRACE_FILE="x"\n')
    git_repo.write("README.md", DOC)
    head = git_repo.commit("init scripts")

    by_ref = {f.ref: f for f in check_repository(git_repo.root, commit=head, use_history=False).findings}

    assert by_ref["WORKERD_LOG_FILE"].status == "verified"
    assert "extra/init.d/worker:6" in by_ref["WORKERD_LOG_FILE"].evidence
    assert by_ref["${WORKERD_LOG_LEVEL}"].status == "verified"
    assert "extra/init.d/worker" in by_ref["${WORKERD_LOG_LEVEL}"].evidence
    assert "extra/systemd/worker.service" in by_ref["WORKERD_PID_FILE"].evidence
    assert "extra/systemd/worker.service" in by_ref["WORKER_HOME"].evidence
    assert "extra/systemd/worker.conf:1" in by_ref["WORKER_NODES"].evidence
    assert by_ref["WORKERD_TRACE_FILE"].status != "verified"  # a commented-out line sets nothing
    assert "worker.conf" not in by_ref["WORKERD_TRACE_FILE"].evidence


def test_an_extension_less_file_without_a_shell_shebang_names_no_variable() -> None:
    assert env_settings("LICENSE", "Copyright $HOLDER\nPERMISSION=granted\n") == []
    assert env_settings("bin/tool", "#!/usr/bin/env python3\nTOOL_HOME = '$TOOL_HOME'\n") == []
    assert env_settings("bin/tool", "#!/usr/bin/env bash\nexport TOOL_HOME TOOL_MODE\n") == [
        (1, "TOOL_HOME"),
        (1, "TOOL_MODE"),
    ]
