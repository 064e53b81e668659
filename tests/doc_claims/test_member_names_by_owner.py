"""A member read from a declaration's body is known through its owner only, never by its bare name.

A TypeScript shim interface with a `process` field must not make a doc's `process.argv` one of the
repository's names: the field is `PlatformShim.process`, nothing else.
"""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

README = "# acme-args\n\nPass `process.argv.slice(2)` to `parse`.\n`PlatformShim.process` is the shim.\n"


def test_a_field_of_an_interface_is_no_bare_name_of_the_repository(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Add the parser",
        {
            "package.json": '{"name": "acme-args", "main": "lib/index.js", "types": "index.d.ts"}\n',
            "index.d.ts": "export interface PlatformShim {\n  process: ProcessShim;\n  cwd: () => string;\n}\n",
            "lib/index.js": "function parse(args) {\n  return args;\n}\nmodule.exports = parse;\n",
            "README.md": README,
        },
    )

    found = {f.ref: f for f in check_repository(git_repo.root).findings if f.kind == "symbol"}

    argv = found["process.argv.slice(2)"]
    assert argv.status == "unverifiable", argv.evidence
    assert "process is not a package or symbol of this repository" in argv.evidence
    shim = found["PlatformShim.process"]
    assert shim.status == "verified", shim.evidence
    assert "index.d.ts:2 (field PlatformShim.process)" in shim.evidence
