"""What a Go package defines besides its functions: struct fields, interface methods, embedded types, vars, consts.

Each test builds a small Go repository shaped like urfave/cli's and judges it as `sextant docs-check`
does. A field of `type App struct { Version string }` is `App.Version`; an embedded type passes its
members on as a base class does; a package-level `var` is a definition of the package; a field the
history shows removed from the struct is contradicted with the commit that removed it.
"""

from __future__ import annotations

from sextant.doc_claims import ClaimFinding, check_repository

from ..conftest import GitRepo


def findings_by_ref(git_repo: GitRepo) -> dict[str, ClaimFinding]:
    return {f.ref: f for f in check_repository(git_repo.root).findings if f.kind == "symbol"}


APP_GO = """\
package cli

import (
\t"io"
\t"sync"
)

// App is the main structure of a cli application.
type App struct {
\t// The name of the program.
\tName string
\tHelpName, Usage string
\t// Version of the program
\tVersion string `json:"version"`
\tWriter  io.Writer
\t*Command
\tsync.Mutex
}

// Run is the entry point to the cli app.
func (a *App) Run(arguments []string) error {
\treturn nil
}
"""
COMMAND_GO = """\
package cli

// Command is a subcommand for a cli.App.
type Command struct {
\tAliases []string
}

// Names returns the names of the command.
func (c *Command) Names() []string {
\treturn c.Aliases
}
"""
FLAG_GO = """\
package cli

import "flag"

// Flag is a common interface related to parsing flags in cli.
type Flag interface {
\tApply(*flag.FlagSet) error
\tNames() []string
}

// HelpFlag prints the help for all commands and subcommands.
var HelpFlag Flag = &BoolFlag{
\tName: "help",
}

// BoolFlag is a flag with type bool.
type BoolFlag struct {
\tName string
}

const (
\tDefaultAppName = "cli"
\tdefaultUsage   = "A new cli application"
)
"""
GO_MOD = "module github.com/acme/cli\n\ngo 1.18\n"
MANUAL = """\
# Manual

Set `App.Version` to print a version, and `App.HelpName` for the help's program name. An app's
`App.Aliases` and `App.Names` come from its embedded `Command`; `App.TryLock` from `sync.Mutex`.
Every flag implements `Flag.Apply`; the help flag is `cli.HelpFlag`, and the default name is
`cli.DefaultAppName`. `App.Run` runs the app. `Command.Copyright` is not a field of a command.
"""


def test_go_struct_fields_interface_methods_and_package_vars_are_what_the_package_defines(
    git_repo: GitRepo,
) -> None:
    git_repo.commit_files(
        "Add the app",
        {"go.mod": GO_MOD, "app.go": APP_GO, "command.go": COMMAND_GO, "flag.go": FLAG_GO, "docs/manual.md": MANUAL},
    )

    found = findings_by_ref(git_repo)

    version = found["App.Version"]
    assert version.status == "verified", version.evidence
    assert "app.go:14 (field App.Version)" in version.evidence
    assert found["App.HelpName"].status == "verified", found["App.HelpName"].evidence
    # An embedded struct of ours passes on its fields and its methods.
    assert found["App.Aliases"].status == "verified", found["App.Aliases"].evidence
    assert found["App.Names"].status == "verified", found["App.Names"].evidence
    # Another package's embedded type may supply anything: not ours to contradict.
    assert found["App.TryLock"].status == "unverifiable", found["App.TryLock"].evidence
    assert "sync.Mutex" in found["App.TryLock"].evidence
    assert found["Flag.Apply"].status == "verified", found["Flag.Apply"].evidence
    assert found["cli.HelpFlag"].status == "verified"
    assert "flag.go:12 (variable HelpFlag)" in found["cli.HelpFlag"].evidence, found["cli.HelpFlag"].evidence
    assert "flag.go:22 (constant DefaultAppName)" in found["cli.DefaultAppName"].evidence, found["cli.DefaultAppName"]
    assert found["App.Run"].status == "verified"
    # A member our struct does not have is still a finding.
    assert found["Command.Copyright"].status == "contradicted", found["Command.Copyright"].evidence


STALE_MANUAL = """\
# Manual

Set `App.Author` to name the app's author, and `App.Version` to print a version.
"""


def test_a_field_removed_from_a_go_struct_is_contradicted_with_the_commit_that_removed_it(
    git_repo: GitRepo,
) -> None:
    app = APP_GO.replace("\tsync.Mutex\n", "").replace('\t"sync"\n', "")
    with_author = app.replace("\tName string\n", "\tName string\n\t// Author of the program\n\tAuthor string\n")
    git_repo.commit_files(
        "Add the app",
        {"go.mod": GO_MOD, "app.go": with_author, "command.go": COMMAND_GO, "docs/manual.md": STALE_MANUAL},
        date="2020-01-04T10:00:00+00:00",
    )
    git_repo.write("app.go", app)
    removing = git_repo.commit("Replace App.Author with App.Authors", date="2021-05-01T10:00:00+00:00")

    found = findings_by_ref(git_repo)

    author = found["App.Author"]
    assert author.status == "contradicted", author.evidence
    assert author.removed_by is not None, author
    assert removing.startswith(author.removed_by[:7]), author
    assert found["App.Version"].status == "verified", found["App.Version"].evidence


ALIASES_GO = """\
package cli

// BoolFlag is a flag with type bool.
type BoolFlag = FlagBase[bool]

// FlagBase is the base of every flag.
type FlagBase[T any] struct {
\tName string
}
"""
INTERNAL_JSON_GO = """\
package json

import "encoding/json"

var Marshal = json.Marshal
"""
QUALIFIED_MANUAL = """\
# Manual

Completion is on with `cli.EnableBashCompletion`; flags are `cli.BoolFlag` values and the help flag
is `cli.HelpFlag`. Apps start with `cli.Run`. Encode with `json.NewEncoder`.
"""


def test_a_name_through_a_go_package_must_be_declared_at_its_package_level(git_repo: GitRepo) -> None:
    app = APP_GO.replace("\tName string\n", "\tName string\n\tEnableBashCompletion bool\n")
    git_repo.commit_files(
        "Add the app",
        {
            "go.mod": GO_MOD,
            "app.go": app,
            "command.go": COMMAND_GO,
            "flag.go": FLAG_GO,
            "flag_bool.go": ALIASES_GO,
            "internal/json/json.go": INTERNAL_JSON_GO,
            "docs/manual.md": QUALIFIED_MANUAL,
        },
    )

    found = findings_by_ref(git_repo)

    # A field of one of the package's types, and a method, are not the package's own names.
    completion = found["cli.EnableBashCompletion"]
    assert completion.status == "contradicted", completion.evidence
    assert "EnableBashCompletion is a field of App (app.go:" in completion.evidence
    assert found["cli.Run"].status == "contradicted", found["cli.Run"].evidence
    # A type alias and a var are.
    assert found["cli.BoolFlag"].status == "verified", found["cli.BoolFlag"].evidence
    assert found["cli.HelpFlag"].status == "verified", found["cli.HelpFlag"].evidence
    # A package under internal/ named like a standard one is not what `json.NewEncoder` means.
    assert found["json.NewEncoder"].status != "contradicted", found["json.NewEncoder"].evidence


COMPLETION_MANUAL = """\
# Manual

You can enable completion commands by setting `EnableBashCompletion` on the app:

``` go
package main

func main() {
\tapp := cli.NewApp()
\tapp.EnableBashCompletion = true
\tapp.Run(os.Args)
}
```

The default shell completion flag (`--generate-bash-completion`) is defined as
`cli.EnableBashCompletion`, and may be redefined if desired, e.g.:

``` go
package main

func main() {
  app := &cli.App{
    EnableBashCompletion: true,
  }
  app.Run(os.Args)
}
```

The help template is the variable `cli.AppHelpTemplate`, which may be appended to:

``` go
package main

import (
  "fmt"

  "github.com/urfave/cli/v2"
)

func main() {
  cli.AppHelpTemplate = fmt.Sprintf(`%s

WEBSITE: http://example.com

`, cli.AppHelpTemplate)
  (&cli.App{}).Run(os.Args)
}
```
"""


def test_a_field_written_as_the_packages_own_name_is_contradicted_though_the_docs_sample_sets_it(
    git_repo: GitRepo,
) -> None:
    app = APP_GO.replace("\tName string\n", "\tName string\n\tEnableBashCompletion bool\n")
    git_repo.commit_files(
        "Add the app",
        {"go.mod": GO_MOD, "app.go": app, "command.go": COMMAND_GO, "flag.go": FLAG_GO},
        date="2019-01-04T10:00:00+00:00",
    )
    git_repo.commit_files(
        "Document completion", {"docs/manual.md": COMPLETION_MANUAL}, date="2019-09-15T10:00:00+00:00"
    )

    found = findings_by_ref(git_repo)

    # The samples set App's field (`app.EnableBashCompletion = true`) and assign through `cli`; the
    # package `cli` itself declares no EnableBashCompletion while its App has that field, so
    # `cli.EnableBashCompletion` does not compile: the code settles it, with whose field it is.
    completion = found["cli.EnableBashCompletion"]
    assert completion.status == "contradicted", completion.evidence
    assert "a field of App (app.go:" in completion.evidence, completion.evidence
    assert "cli.App.EnableBashCompletion" in completion.evidence, completion.evidence


LOOSE_MANUAL = """\
# Manual

Completion is switched on by `cli.EnableBashCompletion`, as in:

``` go
package main

var EnableBashCompletion = true
```
"""


def test_a_field_written_as_the_packages_own_name_stays_contradicted_when_the_docs_sample_defines_the_bare_name(
    git_repo: GitRepo,
) -> None:
    app = APP_GO.replace("\tName string\n", "\tName string\n\tEnableBashCompletion bool\n")
    git_repo.commit_files(
        "Add the app", {"go.mod": GO_MOD, "app.go": app, "command.go": COMMAND_GO, "docs/manual.md": LOOSE_MANUAL}
    )

    completion = findings_by_ref(git_repo)["cli.EnableBashCompletion"]

    # The sample's own `EnableBashCompletion` makes the doc's name a loose one, but `cli.` is our
    # package's qualifier: the package declares no such name, its App has the field.
    assert completion.status == "contradicted", completion.evidence
    assert "a field of App (app.go:" in completion.evidence, completion.evidence
