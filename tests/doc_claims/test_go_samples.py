"""A Go sample's `pkg.Name` through a package it imports is a claim; history says when it was removed."""

from __future__ import annotations

from sextant.doc_claims import check_repository
from sextant.doc_claims.syntax.go_samples import go_sample_names

from ..conftest import GitRepo

_SAMPLE = """package main

import (
\t"fmt"
\t"os"

\t"github.com/acme/cli/v3"
)

func main() {
\t// cli.CommentedOut is never read
\tcli.AppHelpTemplate = fmt.Sprintf(`%s

WEBSITE: cli.InsideRawString
`, cli.AppHelpTemplate)
\t(&cli.Command{}).Run(os.Args)
}
"""


def _doc() -> str:
    return f"# Help text\n\nOverride the template:\n\n```go\n{_SAMPLE}```\n"


def test_a_go_samples_removed_package_variable_is_contradicted_with_its_removing_commit(git_repo: GitRepo) -> None:
    git_repo.write("go.mod", "module github.com/acme/cli/v3\n\ngo 1.21\n")
    git_repo.write(
        "command.go",
        "package cli\n\ntype Command struct {\n\tName string\n}\n\n"
        "func (c *Command) Run(a []string) error {\n\treturn nil\n}\n",
    )
    git_repo.write("template.go", 'package cli\n\nvar AppHelpTemplate = "{{.Name}}"\n')
    git_repo.write("docs/help.md", _doc())
    git_repo.commit("Start", date="2023-01-04T10:00:00+00:00")
    git_repo.write("template.go", 'package cli\n\nvar RootCommandHelpTemplate = "{{.Name}}"\n')
    git_repo.commit("Rename the root help template", date="2023-06-08T10:00:00+00:00")

    findings = [f for f in check_repository(git_repo.root).findings if f.doc == "docs/help.md"]
    template = [f for f in findings if f.ref == "cli.AppHelpTemplate"]
    assert template, "before: a Go sample made no claim"
    assert {f.status for f in template} == {"contradicted"}
    assert all("Rename the root help template" in f.evidence for f in template)
    assert [f.status for f in findings if f.ref == "cli.Command"] == ["verified"]


def test_only_code_through_imported_packages_is_read() -> None:
    lines = []
    offset = 0
    for line in _SAMPLE.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    names = [mention.text for mention in go_sample_names(lines)]
    assert names == ["cli.AppHelpTemplate", "cli.AppHelpTemplate", "cli.Command"]  # no fmt, os, comment or string
    assert go_sample_names([(0, "http.HandleFunc(acme.Route, nil)")])[0].text == "acme.Route"  # no imports: no std
