"""A prose flag after a shell block that only sets the shell up (`source`, `cd`, `export`) is no program's."""

from __future__ import annotations

from sextant.doc_claims.claims.extraction import extract_claims

_DOC = """# Completion

Build the program:

```sh
$ cp greet /usr/local/bin/
```

Then enable completion in each shell:

```sh-session
$ PROG=greet
$ source path/to/cli/autocomplete/bash_autocomplete
```

The default completion flag (`--generate-shell-completion`) can be renamed.

```sh
$ greet --verbose
```

It also takes `--quiet`.
"""


def test_a_flag_after_sourcing_a_script_is_not_sourced_nor_an_earlier_programs() -> None:
    claims = extract_claims("docs/completion.md", _DOC)
    flags = {claim.target: claim.command for claim in claims if claim.kind == "flag"}
    assert flags["--generate-shell-completion"] is None  # before: a flag of `source`
    assert flags["--quiet"] == "greet"  # a program the doc ran still owns the flags after it
