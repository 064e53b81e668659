"""Every service declares itself once; hosts, the stage table and the AsyncAPI document read the declarations."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from sextant.bootstrap import (
    bootstrap,
    declared_services,
    embedded_services,
    pipeline_order,
    result_stages,
    run_declared_service,
)
from sextant.cli.asyncapi_doc import asyncapi_document
from sextant.contracts import AnyEvent, FileRecencyComputed, RepoUpdated, event_name
from sextant.recency_scanner import app as recency_scanner

PIPELINE = ["recency-scanner", "indexer", "embedder", "selector", "analyzer"]


def test_the_five_services_are_declared_in_pipeline_order() -> None:
    names = [declaration.name for declaration in declared_services()]
    assert [name for name in names if name in PIPELINE] == PIPELINE
    assert names.index("analysis-reviser") > names.index("indexer")  # it answers the indexer's HistoryHydrated
    assert "reviewer" in names
    assert len({d.durable for d in declared_services()}) == len(names)  # one durable consumer each
    assert {d.name for d in embedded_services()} >= {*PIPELINE, "reviewer"}


def test_declared_events_are_contract_events() -> None:
    known = set(AnyEvent.__args__)  # type: ignore[attr-defined]
    for declaration in declared_services():
        assert declaration.consumes in known
        assert set(declaration.produces) <= known


def test_the_stage_table_comes_from_the_declarations() -> None:
    stages = result_stages()
    assert stages[event_name(FileRecencyComputed)] == "recency_scanner"
    assert stages["chunks.indexed"] == "indexer"
    assert stages["analysis.completed"] == "analyzer"
    assert "stage.failed" not in stages  # several services publish it


def test_pipeline_order_follows_the_events_not_the_names() -> None:
    by_name = {d.name: d for d in declared_services()}
    shuffled = [by_name["analyzer"], by_name["selector"], by_name["indexer"], by_name["recency-scanner"]]
    assert [d.name for d in pipeline_order(shuffled)] == [name for name in PIPELINE if name != "embedder"]
    assert pipeline_order(shuffled)[0].consumes is RepoUpdated


def test_the_asyncapi_document_lists_what_each_service_consumes_and_publishes() -> None:
    channels = asyncapi_document()["channels"]
    assert channels["recency_scanner:RepoUpdated"]["address"] == "sextant.repo.updated.*"
    assert channels["recency-scanner:FileRecencyComputed"]["address"] == "sextant.recency.computed.*"
    assert "analyzer:AnalysisCompleted" in channels
    assert "reviewer:ReviewCompleted" in channels


@pytest.mark.process
def test_asyncapi_builds_no_adapter() -> None:
    # A broken embedder and an unreachable Qdrant would fail the command if it built any adapter.
    env = {"EMBEDDINGS_PROVIDER": "no-such-provider", "QDRANT_URL": "http://127.0.0.1:9", "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-m", "sextant.cli", "asyncapi"], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert '"asyncapi"' in done.stdout


def test_overrides_go_through_the_one_door_and_the_rest_is_built_lazily() -> None:
    adapters = bootstrap({"GITHUB_TOKEN": "t0ken", "EMBEDDINGS_PROVIDER": "no-such-provider"}, model=None)
    assert adapters.model is None  # None is a real override: "no language model"
    assert adapters.tokens("github") == "t0ken"
    assert adapters.tokens("gitlab") is None
    adapters.close()  # nothing was opened, nothing to close


def test_a_declared_service_without_nats_url_refuses_to_start_in_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = logging.getLogger()  # the entry point configures root logging first: restore it afterwards
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "level", root.level)
    with pytest.raises(SystemExit) as exited:
        run_declared_service(recency_scanner.SERVICE, {"SEXTANT_HOME": str(tmp_path)})
    assert exited.value.code == 2
    assert "NATS_URL is not set" in capsys.readouterr().err


@pytest.mark.process
def test_a_service_started_without_nats_url_says_so_and_exits_2(tmp_path: object) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sextant.recency_scanner"],
        env={"PATH": "", "SEXTANT_HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert "NATS_URL is not set" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.process
def test_any_declared_service_runs_by_name_through_the_composition_root(tmp_path: object) -> None:
    wrong = subprocess.run(
        [sys.executable, "-m", "sextant.bootstrap", "no-such-service"],
        env={"PATH": ""}, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert wrong.returncode == 2
    assert "embedder" in wrong.stderr  # the usage line lists every declared service
    unset = subprocess.run(
        [sys.executable, "-m", "sextant.bootstrap", "embedder"],
        env={"PATH": "", "SEXTANT_HOME": str(tmp_path)}, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert unset.returncode == 2
    assert "NATS_URL is not set" in unset.stderr
