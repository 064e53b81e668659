"""A Go type's members are read whatever its header line carries besides the opening brace.

gofmt keeps a comment after the brace (`type Options struct { // nolint:maligned`), and a generic
type may constrain its parameters inline (`type Set[T interface{ ~int | ~string }] struct {`): the
body still starts on the next line, so its fields are the type's.
"""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

OPTIONS_GO = """\
package shop

// Options configure the shop.
type Options struct { // nolint:maligned
\tCurrency string
\tRetries  int
}

// Set holds distinct keys.
type Set[T interface{ ~int | ~string }] struct {
\titems map[T]struct{}
\tSize  int
}

// Listener hears about orders.
type Listener interface { // implemented by the shop's plugins
\tOnOrder(id int) error
}
"""
README = """\
# shop

Set `Options.Currency` and `Options.Retries`; read `Set.Size`.
A plugin has `Listener.OnOrder`.
`Options.Discount` is no option.
"""


def test_a_go_types_fields_are_read_after_a_header_comment_or_an_inline_constraint(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Add the shop", {"go.mod": "module example.com/shop\n", "options.go": OPTIONS_GO, "README.md": README}
    )

    found = {f.ref: f for f in check_repository(git_repo.root).findings if f.kind == "symbol"}

    for name, line in (("Options.Currency", 5), ("Options.Retries", 6), ("Set.Size", 12), ("Listener.OnOrder", 17)):
        assert name in found, sorted(found)
        assert found[name].status == "verified", (name, found[name].evidence)
        assert f"options.go:{line}" in found[name].evidence, (name, found[name].evidence)
    assert found["Options.Discount"].status == "contradicted", found["Options.Discount"].evidence
