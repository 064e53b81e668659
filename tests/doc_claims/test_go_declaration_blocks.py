"""A Go `var ( … )` or `const ( … )` block declares its names whatever comment follows its parenthesis."""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

DEFAULTS_GO = """\
package shop

var ( // the shop's defaults, changed by the options
\tDefaultCurrency = "EUR"
\tDefaultRetries  = 3
)

const ( /* order states */
\tOpen = iota
\tClosed
)

// Checkout places an order.
func Checkout() error {
\treturn nil
}
"""
README = """\
# shop

`shop.DefaultCurrency` and `shop.DefaultRetries` are the defaults; an order is `shop.Open` until
`shop.Checkout` makes it `shop.Closed`. There is no `shop.DefaultLocale`.
"""


def test_names_of_a_declaration_block_with_a_comment_are_the_packages(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Add the shop", {"go.mod": "module example.com/shop\n", "defaults.go": DEFAULTS_GO, "README.md": README}
    )

    found = {f.ref: f for f in check_repository(git_repo.root).findings if f.kind == "symbol"}

    for name, line in (("DefaultCurrency", 4), ("DefaultRetries", 5), ("Open", 9), ("Closed", 10)):
        finding = found[f"shop.{name}"]
        assert finding.status == "verified", (name, finding.evidence)
        assert f"defaults.go:{line}" in finding.evidence, (name, finding.evidence)
    assert found["shop.Checkout"].status == "verified"
    assert found["shop.DefaultLocale"].status == "contradicted", found["shop.DefaultLocale"].evidence
