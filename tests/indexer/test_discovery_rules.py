"""Discovery rules and settings: pure checks, no repository needed."""

from __future__ import annotations

import pytest

from sextant.chunkstore import FileEntry
from sextant.indexer import IndexerSettings
from sextant.indexer.discovery import DiscoveryRules, content_skip_reason, is_indexable_extension
from sextant.indexer.run_plan import plan_run


@pytest.mark.parametrize(
    ("path", "indexable"),
    [
        ("src/app.py", True),
        ("docs/guide.rst", True),
        ("docs/guide.adoc", True),
        ("NOTES.TXT", True),
        ("Dockerfile", True),
        ("logo.png", False),
        ("archive.tar.gz", False),
    ],
)
def test_indexable_extensions(path: str, indexable: bool) -> None:
    assert is_indexable_extension(path) is indexable


def test_default_excludes_cover_vendored_generated_and_lock_files() -> None:
    rules = DiscoveryRules()
    for path in [
        "node_modules/react/index.js",
        "web/node_modules/x/y.js",
        "vendor/github.com/pkg/errors/errors.go",
        "package-lock.json",
        "app/static/app.min.js",
        "api/service.pb.go",
        "proto/service_pb2.py",
        "Cargo.lock",
    ]:
        assert not rules.wants_path(path), path
    assert rules.wants_path("src/vendorize.py")
    assert rules.wants_path("package.json")


def test_user_globs_match_path_and_basename_and_root_limits() -> None:
    rules = DiscoveryRules(root="svc/", excludes=("*_test.go", "svc/legacy/*"))
    assert rules.wants_path("svc/main.go")
    assert not rules.wants_path("svc/main_test.go")  # basename match
    assert not rules.wants_path("svc/legacy/old.go")  # full-path match
    assert not rules.wants_path("other/main.go")  # outside the root


def test_settings_from_env() -> None:
    env = {
        "SEXTANT_HOME": "/tmp/sextant-home",
        "INDEX_EXCLUDE": "*.sql, migrations/*",
        "INDEX_ROOT": "src",
        "INDEX_MAX_FILE_BYTES": "1000",
    }
    settings = IndexerSettings.from_env(env)
    assert settings.mirrors_dir.name == "mirrors"
    assert settings.rules.root == "src"
    assert settings.rules.max_file_bytes == 1000
    assert settings.rules.excludes[-2:] == ("*.sql", "migrations/*")
    assert "package-lock.json" in settings.rules.excludes
    no_defaults = IndexerSettings.from_env({**env, "INDEX_DEFAULT_EXCLUDES": "false"})
    assert no_defaults.rules.excludes == ("*.sql", "migrations/*")
    assert no_defaults.rules.wants_path("src/node_modules/a.js")
    with pytest.raises(ValueError, match="INDEX_MAX_FILE_BYTES"):
        IndexerSettings.from_env({"INDEX_MAX_FILE_BYTES": "lots"})


def test_content_checks() -> None:
    assert content_skip_reason(b"print('hi')\n", 100) is None
    assert "binary" in (content_skip_reason(b"\x00\x01", 100) or "")
    assert "non-UTF-8" in (content_skip_reason("café".encode("latin-1"), 100) or "")
    assert "larger" in (content_skip_reason(None, 100) or "")


def test_plan_counts_and_incremental_scope() -> None:
    tree = {"a.py": "1" * 40, "b.py": "2" * 40, "new.py": "3" * 40}
    stored = {
        "a.py": FileEntry(blob_sha="1" * 40, point_ids=frozenset({"p1"})),
        "b.py": FileEntry(blob_sha="0" * 40, point_ids=frozenset({"p2"})),
        "gone.py": FileEntry(blob_sha="4" * 40, point_ids=frozenset({"p3"})),
    }
    plan = plan_run(tree, stored)
    assert (plan.files_seen, plan.unchanged, plan.stale_paths) == (3, 1, ["gone.py"])
    assert [(f.path, f.is_new) for f in plan.to_index] == [("b.py", False), ("new.py", True)]
    assert plan_run(tree, stored, force=True).unchanged == 0
    scoped = plan_run(tree, stored, scope=frozenset({"new.py", "gone.py"}))
    assert ([f.path for f in scoped.to_index], scoped.stale_paths, scoped.files_seen) == (
        ["new.py"],
        ["gone.py"],
        1,
    )
