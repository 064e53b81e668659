"""Where a name was defined in the repository's past, and which commit removed it.

Used for names a doc writes that the head commit does not define. The look-up is bounded and runs
in a few git calls whatever the number of names, never one per name:

1. Sample trees: the head's first-parent history is sampled at geometric depths (8, 16, 32, …
   commits back, past 1,024 also halfway between: 1,536, 3,072, …, and the root), so recent history
   is dense and old history sparse.
2. One Perl-compatible `git grep` per language over a batch of sampled trees at once, newest batch
   first: every name in one alternation inside that language's defining forms (`def N(`,
   `class N`, `func N(`, `type N `, `N = …` at the top level, …), so a name the head's code still
   uses everywhere costs its few definitions, not its every use. Names the head's code does not
   use at all are also searched as words (the code once using one is evidence too). A sample whose
   tree differs from the newer sample's in few code files (one `diff-tree --stdin` for all pairs)
   is grepped in those files alone: its other files are the newer tree's blobs, already searched,
   and only a name's newest hit counts. Two greps run at once, taken in order.
3. For each name found, the removal lies between the newest sample that has it and the next newer
   one (or the head). One `git log -p -U0 -G` per such stretch, limited to the names and files it
   can hold, names the newest commit whose diff drops the definition (the stretches do not overlap:
   together they read history at most once); one `git show` of those commits lists what they added
   (a rename's new name).

Every limit is a work budget (`history_budget`): the source bytes the greps read, the git output
read, so a huge history costs at most the budget and the same repository gets the same answer on
any machine; the result says when a budget cut the search short. A generous wall-clock safety net
stops a machine that has all but stalled, and the note says when it fired. Names that live and
die between two samples are not found (the price of bounded cost). A partial (blob-less) clone is
not searched at all — its old blobs would have to be fetched, one round trip per missing object —
and the result says so; the findings carry that note (docs/doc-claims.md).
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache

from sextant.gitsource.errors import GitCommandError, GitSourceError, GitTimeoutError
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_budget import DEFAULT_BUDGET, HistoryBudget, SafetyClock, safety_note
from sextant.gitsource.history_patches import PATCH_LOG_OPTIONS

# Other judges read these from here, as before the patch reading moved to its own module.
from sextant.gitsource.history_patches import CommitRef as CommitRef  # noqa: PLC0414 - an explicit re-export
from sextant.gitsource.history_patches import commit_file_diffs as commit_file_diffs  # noqa: PLC0414 - likewise
from sextant.gitsource.history_trees import tree_paths
from sextant.gitsource.name_alternation import name_alternation

_FIXED_STRING_NAMES = 200
"""Names given to the `-F -w` fallback at most (one pattern each is slow in git)."""
_HALFWAY_DEPTHS = frozenset(3 * 2**k for k in range(9, 19))
_SAMPLE_DEPTHS = tuple(sorted({2**k for k in range(3, 20)} | _HALFWAY_DEPTHS))
"""First-parent depths sampled: 8, 16, 32, …, and past 1,024 (the newest commits the pass between the
samples reads) one more halfway between each pair (1,536, 3,072, 6,144, …): the old history that pass
never reaches is only seen through samples, and a gap of 2,048 commits there hides a class that lived
1,500 of them (aiohttp's `PlainRoute`). The halfway samples are taken while their trees' source fits
their own work budget (`HistoryBudget.halfway_source_bytes`, see `_within_halfway_budget`)."""
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")
_PYTHON_TEMPLATES = (
    r"^\s*(?:async\s+)?def\s+{n}\s*[\[(]",  # function or method
    r"^\s*class\s+{n}\b",
    r"^{n}\s*(?::[^=]*)?=[^=]",  # a module-level assignment (a constant, an alias)
    r"^\s+{n}\s+=\s",  # a class attribute (`name = value`, spaced as a statement, not a keyword argument)
    r"^\s+(?:self\.)?{n}\s*:\s*[\w\[\]., |\"']+(?:=.*)?$",  # an annotated field (`name: str`)
    r"^\s+self\.{n}\s*=[^=]",  # an instance attribute set in a method
    # An attribute the code reads off what it is given (`getattr(value, 'jinja_no_finalization', False)`):
    # a protocol the repository defines for its users' objects. Not off a standard module (`sys`, `os`).
    r"(?<![\w.])\w*(?:getattr|hasattr)\s*\(\s*(?!(?:sys|os|builtins|__builtins__|socket|signal|time|math)\s*,)"
    r"[\w.\[\]]+\s*,\s*['\"]{n}['\"]",
)
_GO_TOOLCHAIN_TAGS = (
    "(?:aix|android|darwin|dragonfly|freebsd|hurd|illumos|ios|js|linux|nacl|netbsd|openbsd|plan9|solaris|wasip1|"
    "windows|zos|unix|386|amd64|amd64p32|arm|arm64|arm64be|armbe|loong64|mips|mipsle|mips64|mips64le|ppc|ppc64|"
    "ppc64le|riscv|riscv64|s390|s390x|sparc|sparc64|wasm|cgo|gc|gccgo|ignore|go1\\.\\d+)"
)
_GO_TEMPLATES = (
    r"^func\s+(?:\([^)]*\)\s*)?{n}\s*[\[(]",
    r"^\s*type\s+{n}\b",
    r"^\s*(?:const|var)\s+{n}\b",
    r"^\s+{n}\s+(?:=|[A-Za-z*\[])",  # a const-block entry or a struct field
    r"^\s+{n}\s*\(",  # an interface method
    # A build tag the code's own files are built with or without (`//go:build viper_yaml3`, `// +build !x`);
    # the platforms and toolchain tags every Go program may name are not the repository's own.
    r"^//\s*(?:go:build|\+build)\s.*(?<![\w$])(?!" + _GO_TOOLCHAIN_TAGS + r"(?![\w$])){n}(?![\w$])",
)
_SCRIPT_TEMPLATES = (
    r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*{n}\s*\(",
    r"^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+{n}\b",
    r"^\s*(?:export\s+)?(?:const|let|var)\s+{n}\s*=",
    r"(?:exports|module\.exports|prototype)\.{n}\s*=",
    r"^\s+(?:static\s+)?(?:async\s+)?(?:get\s+|set\s+)?{n}\s*\([^)]*\)\s*\{{",  # a class method
    r"^\s+{n}\s*:\s*(?:async\s+)?function\b",
    r"^\s*(?:export\s+)?(?:interface|type|enum)\s+{n}\b",
)
_OTHER_TEMPLATES = (r"\b(?:def|class|func|function|fn|struct|interface|enum|trait|type|module)\s+{n}\b",)
_SYMBOL_TEMPLATES = {
    _PYTHON_TEMPLATES: _PYTHON_TEMPLATES[:2],
    _GO_TEMPLATES: _GO_TEMPLATES[:2],
    _SCRIPT_TEMPLATES: tuple(_SCRIPT_TEMPLATES[index] for index in (0, 1, 4, 6)),
    # A declaration at the start of its line, opening its body or parameters (`struct strbuf {`), not
    # every use of a C type (`struct strbuf *sb`), which would be most of git/git's lines.
    _OTHER_TEMPLATES: (
        r"^\s*(?:(?:pub|export|public|static|abstract)\s+)*"
        r"(?:def|class|func|function|fn|struct|interface|enum|trait|type|module)\s+{n}\s*(?:[({{<:]|$)",
    ),
}
"""A language's forms that define a symbol (a function, a class, a method, a type), not an attribute or
a variable: what the head's parsed symbols would hold, were it still there."""
_TEMPLATES_BY_SUFFIX = {
    **dict.fromkeys(("py", "pyi"), _PYTHON_TEMPLATES),
    "go": _GO_TEMPLATES,
    **dict.fromkeys(("js", "mjs", "cjs", "jsx", "ts", "tsx"), _SCRIPT_TEMPLATES),
}
CODE_PATHSPECS = tuple(
    f"*.{ext}"
    for ext in [
        "py",
        "pyi",
        "go",
        "js",
        "mjs",
        "cjs",
        "jsx",
        "ts",
        "tsx",
        "rs",
        "java",
        "kt",
        "rb",
        "php",
        "c",
        "h",
        "cc",
        "cpp",
        "hpp",
        "cs",
        "swift",
        "scala",
        "ex",
        "exs",
        "lua",
        "sh",
    ]
)
"""The source files the look-up reads (a blob-less mirror is hydrated with their past blobs: history_blobs)."""


def code_pathspecs_among(paths: Iterable[str]) -> tuple[str, ...]:
    """The `CODE_PATHSPECS` some of the paths could match: a log limited to these reads the same files.

    Each wildcard of a pathspec is matched against every entry of every tree a path-limited log or
    diff walks, so 26 of them made the tree diffs of git/git's 1,024 newest commits cost ~1.3 s of
    CPU instead of ~0.2 s. Given the paths a stretch of history changed (listed once, without a
    pathspec), the suffixes none of them ends with cannot select a file there. A suffix is kept when
    a path or one of its folders ends with it in any case (git may match case-insensitively, or a
    folder), so no file the whole list would select is left out.

    Args:
        paths: Paths changed in the history to be read.

    Returns:
        The pathspecs, in `CODE_PATHSPECS` order (empty when none can match).
    """
    lowered = [path.lower() + "/" for path in paths]
    return tuple(spec for spec in CODE_PATHSPECS if any(f"{spec.removeprefix('*')}/" in path for path in lowered))


_OWN_FORMS = {suffix: f"*.{suffix}" for suffix in _TEMPLATES_BY_SUFFIX}
_LANGUAGES = (
    *(
        (templates, tuple(_OWN_FORMS[s] for s, t in _TEMPLATES_BY_SUFFIX.items() if t is templates))
        for templates in dict.fromkeys(_TEMPLATES_BY_SUFFIX.values())
    ),
    (_OTHER_TEMPLATES, tuple(spec for spec in CODE_PATHSPECS if spec not in _OWN_FORMS.values())),
)
"""(defining forms, the files they apply to): a language's templates and its file patterns."""


@dataclass(frozen=True)
class PastDefinition:
    """A name's last known definition and what became of it."""

    name: str
    path: str
    """File that defined it in the newest sample that has it."""
    line: int
    text: str
    """The defining line, stripped."""
    seen_at: CommitRef
    """The newest sampled commit that still defines it."""
    removed_by: CommitRef | None = None
    """The commit whose diff drops the definition (None when the search could not tell)."""
    added_by_removal: tuple[str, ...] = ()
    """Names the removing commit defined (candidates for the replacement), in diff order."""
    defined: bool = True
    """False when the code only used the name (a parameter, a key, a build tag) without defining it."""
    imported_by_removal: tuple[str, ...] = ()
    """Top-level packages the removing commit began to import in the file the definition left (Flask's
    `get_json` went when `wrappers.py` took Werkzeug's `JSONMixin`): a base from there may supply it."""


@dataclass
class DefinitionSearch:
    """The outcome of one look-up: what was found, and what it cost."""

    found: dict[str, PastDefinition] = field(default_factory=dict)
    searched: frozenset[str] = frozenset()
    """Names looked for (found or not)."""
    note: str | None = None
    """Why the search was skipped or cut short (None when it ran to the end)."""
    trees: int = 0
    trees_whole: int = 0
    """Of the trees searched, those grepped whole (the others only in the files that differ from the newer sample's)."""
    bytes_read: int = 0
    seconds: float = 0.0
    samples: list[tuple[str, CommitRef]] | None = None
    """The sampled commits, newest first (None when the search never read history)."""
    depths: list[int] = field(default_factory=list)
    """Each sample's first-parent depth below the head (8, 16, …; the root's last)."""
    source_bytes: int = 0
    """Bytes of source the greps of the sampled trees read (the work the source budget counts)."""
    budget: HistoryBudget = DEFAULT_BUDGET
    clock: SafetyClock | None = None
    """The safety net's clock, shared with the pass between the samples."""
    between_note: str | None = None
    """How far back the pass between the samples read, when its budget cut it short (history_between)."""
    mentioned: frozenset[str] = frozenset()
    """Names the head's code only mentions, looked for as symbols (functions, classes, methods) file by file."""
    removed_symbols: dict[str, tuple[PastDefinition, ...]] = field(default_factory=dict)
    """Of `mentioned`, each name's symbol definitions that a commit removed from their file (moves followed),
    newest removal first: the head's mere mention of such a name is no definition of it. Names the head's
    own code calls or writes as a string are left out (still in use)."""
    file_words: dict[tuple[str, str], frozenset[str]] = field(default_factory=dict)
    """(mentioned name, file of a removed definition) → the name's doc qualifiers that file named."""


def definition_pattern(name: str, path: str) -> re.Pattern[str]:
    """The lines that define `name` in a file of this kind (a line-level reading, not a parse).

    Args:
        name: A simple identifier.
        path: The file (its extension picks the language's forms of definition).

    Returns:
        A compiled pattern matching a defining line.
    """
    return _pattern(name, path.rsplit(".", 1)[-1].lower() if "." in path else "")


@cache
def word_pattern(name: str) -> re.Pattern[str]:
    """Any use of a name as a whole word (`$` counts as a word character, as in JavaScript).

    Args:
        name: A simple identifier.

    Returns:
        The compiled pattern.
    """
    return re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")


@cache
def _pattern(name: str, suffix: str, *, symbols: bool = False) -> re.Pattern[str]:
    templates = _TEMPLATES_BY_SUFFIX.get(suffix, _OTHER_TEMPLATES)
    escaped = re.escape(name)
    forms = _SYMBOL_TEMPLATES[templates] if symbols else templates
    return re.compile("|".join(template.format(n=escaped) for template in forms))


def symbol_pattern(name: str, path: str) -> re.Pattern[str]:
    """The lines that define `name` as a symbol (a function, a class, a method, a type) in a file of this kind.

    Args:
        name: A simple identifier.
        path: The file (its extension picks the language's forms).

    Returns:
        A compiled pattern matching such a line.
    """
    return _pattern(name, path.rsplit(".", 1)[-1].lower() if "." in path else "", symbols=True)


def find_past_definitions(
    repo: HistoryRepository,
    names: Iterable[str],
    *,
    used: Collection[str] = frozenset(),
    mentioned: Collection[str] = frozenset(),
    qualifiers: Mapping[str, Collection[str]] | None = None,
    budget: HistoryBudget = DEFAULT_BUDGET,
) -> DefinitionSearch:
    """Look up, in sampled past trees, where each name was defined and which commit removed it.

    Args:
        repo: The opened repository (names are absent from its head).
        names: Simple identifiers to look for.
        used: Names the head's code still uses: a past use is no news for them, so only their
            definitions are looked for (their every use would be most of the output).
        mentioned: Names the head's code mentions without defining them as symbols: their past
            symbol definitions are looked for file by file, in the same greps (`removed_symbols`).
        qualifiers: Mentioned name → the qualifiers docs wrote right before it (`debug` of
            `debug.filters()`): which of them each removed definition's file named (`file_words`).
        budget: The work the look-up may do (and its wall-clock safety net).

    Returns:
        The definitions found, with their removal commit and what that commit added.
    """
    wanted = sorted({n for n in names if _NAME.match(n) and len(n) > 2})
    only_mentioned = frozenset(n for n in mentioned if _NAME.match(n) and len(n) > 2) - set(wanted)
    search = DefinitionSearch(searched=frozenset(wanted), budget=budget, mentioned=only_mentioned)
    if not wanted and not only_mentioned:
        return search
    if repo.partial:
        search.note = PARTIAL_CLONE_NOTE
        return search
    clock = search.clock = SafetyClock(budget.safety_seconds)
    try:
        sampled = sampled_depths(dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1)))
    except GitTimeoutError:
        search.note = safety_note(budget.safety_seconds, "listing the commits to sample")
        return search
    try:
        sampled = _within_halfway_budget(repo, sampled, budget.halfway_source_bytes, clock)
    except GitTimeoutError:
        search.note = safety_note(budget.safety_seconds, "listing the sampled trees")
        return search
    samples = [(sha, commit) for _, sha, commit in sampled]
    search.samples, search.depths = samples, [depth for depth, _, _ in sampled]
    used_now = set(used)
    hits = _search_samples(repo, sorted({*wanted, *only_mentioned}), used_now, samples, search)
    definitions: dict[str | tuple[str, str], tuple[PastDefinition, int]] = {
        name: value
        for name, value in _newest_definitions(hits, samples, wanted).items()
        if value[0].defined or name not in used_now  # the head still uses it: a past use is no news
    }
    definitions.update(_gone_from_head(repo, _newest_symbols_by_file(hits, samples, only_mentioned)))
    if definitions:
        try:
            timed = dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1))
            definitions = _removals(timed, definitions, samples, search, budget.output_bytes)
        except GitTimeoutError:
            search.note = safety_note(budget.safety_seconds, "naming removal commits")
    search.found = {name: found for name, (found, _) in definitions.items() if isinstance(name, str)}
    if removed := _removed_by_file(definitions):
        try:
            in_use = _in_use_at_head(repo, removed)
            removed = {name: pasts for name, pasts in removed.items() if name not in in_use}
            search.file_words = _words_of_files(repo, removed, qualifiers or {})
        except GitSourceError:
            removed = {}  # cannot tell: the mentions stand as they are
        search.removed_symbols = removed
    search.seconds = clock.elapsed()
    return search


def _removals(
    repo: HistoryRepository,
    definitions: dict[str | tuple[str, str], tuple[PastDefinition, int]],
    samples: list[tuple[str, CommitRef]],
    search: DefinitionSearch,
    max_bytes: int,
) -> dict[str | tuple[str, str], tuple[PastDefinition, int]]:
    """The definitions with their removing commits (history_removals, which reads the forms defined here)."""
    from sextant.gitsource.history_removals import attribute_removals  # it imports this module

    return attribute_removals(repo, definitions, samples, search, max_bytes)


def _in_use_at_head(repo: HistoryRepository, names: Collection[str]) -> set[str]:
    """The names the head's own code (not tests or samples) calls (`.expected_time(tokens)`: another
    library's method, once vendored) or writes as a whole string literal (`'loop'`: a template variable
    it serves, a registry key): a symbol of that name gone from history left them in use."""
    alternation = "|".join(re.escape(name) for name in sorted(names))
    pattern = rf"(['\"`])(?:{alternation})\1|(?<![\w$])(?:{alternation})\s*\("
    out = _grep(repo, ["-o", "-P", "-e", pattern], [repo.head], CODE_PATHSPECS)
    return {text.strip("'\"`( \t") for _, path, _, text in _parse_hits(out) if not is_test_or_sample(path)}


def _words_of_files(
    repo: HistoryRepository, removed: dict[str, tuple[PastDefinition, ...]], qualifiers: Mapping[str, Collection[str]]
) -> dict[tuple[str, str], frozenset[str]]:
    """(name, file) → the qualifiers the doc wrote before the name (`debug` of `debug.filters()`) that
    the file named as words in the newest sample holding the definition: one grep per such sample."""
    wanted: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for name, pasts in removed.items():
        for past in pasts:
            if words := {q for q in qualifiers.get(name, ()) if _NAME.match(q)}:
                wanted[past.seen_at.sha][past.path].update(words)
    named: dict[tuple[str, str], frozenset[str]] = {}
    for sha, paths in wanted.items():
        alternatives = sorted(set().union(*paths.values()))
        args = ["-o", "-w", "-F", *(arg for word in alternatives for arg in ("-e", word))]
        hits = _parse_hits(_grep(repo, args, [sha], tuple(f":(literal){path}" for path in sorted(paths))))
        in_file: dict[str, set[str]] = defaultdict(set)
        for _, path, _, text in hits:
            in_file[path].add(text)
        for name, pasts in removed.items():
            for past in pasts:
                if past.seen_at.sha == sha:
                    named[(name, past.path)] = frozenset(in_file.get(past.path, set()))
    return named


def _removed_by_file(
    definitions: dict[str | tuple[str, str], tuple[PastDefinition, int]],
) -> dict[str, tuple[PastDefinition, ...]]:
    """Per mentioned name, its per-file symbol definitions a commit removed, newest removal first."""
    removed: dict[str, list[PastDefinition]] = defaultdict(list)
    for key, (past, _) in definitions.items():
        if isinstance(key, tuple) and past.removed_by is not None and past.defined:
            removed[key[0]].append(past)
    return {
        name: tuple(sorted(pasts, key=lambda past: past.removed_by.day if past.removed_by else "", reverse=True))
        for name, pasts in removed.items()
    }


PARTIAL_CLONE_NOTE = "history not searched: a blob-less clone holds no old file contents"
_TREES_PER_GREP = 4
_PATTERN_CHARS = 24_000
"""Length of one pattern at most (names times forms): PCRE in git refused ~60,000 and took ~30,000."""


def _source_note(searched: int, sampled: int, source_bytes: int, budget: int) -> str:
    return (
        f"history search covered the newest {searched} of {sampled} sampled trees: the next would have "
        f"read more source than its work budget ({_size(source_bytes)} of {_size(budget)} read), so a name only "
        "older code defined is not found"
    )


def _size(count: int) -> str:
    return f"{count / 2**20:,.1f} MiB" if count >= 2**20 else f"{count / 1024:,.0f} KiB"


def _output_note(searched: int, sampled: int, budget: int) -> str:
    return (
        f"history search covered the newest {searched} of {sampled} sampled trees: their matches filled "
        f"its {budget / 2**20:,.0f} MiB output budget, so a name only older code defined is not found"
    )


def sample_commits(repo: HistoryRepository) -> list[tuple[str, CommitRef]]:
    """First-parent commits at geometric depths below the head (8, 16, 32, …), newest first, with the root last.

    Args:
        repo: The opened repository.

    Returns:
        (sha, commit) pairs.
    """
    return [(sha, commit) for _, sha, commit in sampled_depths(repo)]


def sampled_depths(repo: HistoryRepository) -> list[tuple[int, str, CommitRef]]:
    """The samples of `sample_commits` with their first-parent depth below the head.

    Args:
        repo: The opened repository.

    Returns:
        (depth, sha, commit), newest first.
    """
    out = repo.git(["log", "--first-parent", "--format=%H%x00%cI%x00%s", repo.head])
    rows = out.decode("utf-8", "replace").splitlines()
    picked = [depth for depth in _SAMPLE_DEPTHS if depth < len(rows)]
    if len(rows) > 1 and (len(rows) - 1) not in picked:
        picked.append(len(rows) - 1)
    samples = []
    for depth in picked:
        sha, day, subject = [*rows[depth].split("\0"), "", ""][:3]
        samples.append((depth, sha, CommitRef(sha, day, subject)))
    return samples


def _within_halfway_budget(
    repo: HistoryRepository, sampled: list[tuple[int, str, CommitRef]], budget: int, clock: SafetyClock
) -> list[tuple[int, str, CommitRef]]:
    """The samples with the halfway ones (1,536, 3,072, …) kept, newest first, while their trees' source fits `budget`.

    A halfway sample's cost is the size of its tree's code files (`ls-tree -l`, which reads no blob),
    as if grepped whole: that is what the old, sparse samples cost. A small repository keeps them all
    (aiohttp's 7,800 commits: 2 MB a tree); git/git's 21 MB trees only the newest that fit.
    """
    kept = []
    spent: int | None = 0  # None once a halfway sample did not fit: the older ones are left out too
    for depth, sha, commit in sampled:
        if depth in _HALFWAY_DEPTHS:
            cost = _tree_source_bytes(repo, sha, clock) if spent is not None else 0
            if spent is None or spent + cost > budget:
                spent = None
                continue
            spent += cost
        kept.append((depth, sha, commit))
    return kept


def _tree_source_bytes(repo: HistoryRepository, tree: str, clock: SafetyClock) -> int:
    """Bytes of the tree's code files, from `ls-tree -r -l` (sizes come from the object headers)."""
    try:
        out = dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1)).git(["ls-tree", "-r", "-l", "-z", tree])
    except GitTimeoutError:
        raise
    except GitSourceError:
        return 0
    total = 0
    for record in out.split(b"\0"):
        meta, _, raw_path = record.partition(b"\t")
        fields = meta.split()
        path = raw_path.decode("utf-8", "surrogateescape")
        if len(fields) == 4 and fields[1] == b"blob" and fields[3].isdigit() and path.endswith(_CODE_SUFFIXES):
            total += int(fields[3])
    return total


_Hit = tuple[str, str, int, str]
"""(tree, path, line, text): a line of a sampled tree that matched."""


@dataclass(frozen=True)
class _Unit:
    """Sampled trees searched by one set of greps: consecutive whole trees, or one tree's changed files."""

    first: int
    """Index of the first of them among the samples."""
    trees: tuple[str, ...]
    changed: frozenset[str] | None = None
    """For one tree: the files that differ from the newer sample's tree (the rest match as they did there)."""


def _search_samples(
    repo: HistoryRepository,
    names: list[str],
    used: set[str],
    samples: list[tuple[str, CommitRef]],
    search: DefinitionSearch,
) -> list[_Hit]:
    """The hits of the sampled trees, newest first, within the budgets (`search.trees` and `note` say how far).

    A tree that differs from the newer sample's in at most `_DELTA_FILES` code files is grepped in
    those files alone: its other files hold the blobs the newer tree has, whose lines matched there
    already, and the look-up keeps each name's newest hit only. So the dense recent samples cost
    their few changed files. Whole trees are grepped a batch at a time. Which units are searched is
    decided before any grep runs, from the source bytes each would read (`_within_source_budget`),
    so the cut never depends on how fast git was. Two units are searched at once (git works on one
    while the other's output is read), and their results are taken in order.
    """
    clock = search.clock or SafetyClock(search.budget.safety_seconds)
    budget = search.budget
    units = _units(samples, _changed_between(repo, samples, clock))
    planned, search.source_bytes = _within_source_budget(repo, units, budget.source_bytes, clock)
    hits: list[_Hit] = []
    with ThreadPoolExecutor(max_workers=_CONCURRENT_GREPS, thread_name_prefix="history-grep") as pool:
        running: dict[int, Future[list[bytes]]] = {}

        def start(index: int) -> None:
            if index < len(planned) and index not in running:
                unit = planned[index]
                timed = dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1))
                running[index] = pool.submit(
                    _grep_outputs, timed, names, used, unit.trees, unit.changed, symbols_only=search.mentioned
                )

        for index, unit in enumerate(planned):
            start(index)
            if search.bytes_read >= budget.output_bytes:
                search.note = _output_note(unit.first, len(samples), budget.output_bytes)
                break
            start(index + 1)  # the next unit's greps run while this one's output is read
            try:
                hits += _account(running.pop(index).result(), search, budget.output_bytes)
            except GitTimeoutError:
                search.note = safety_note(budget.safety_seconds, f"searching the sampled trees past {unit.first}")
                break
            search.trees = unit.first + len(unit.trees)
            search.trees_whole += len(unit.trees) if unit.changed is None else 0
        for future in running.values():
            future.cancel()
    if search.note is None and len(planned) < len(units):
        search.note = _source_note(search.trees, len(samples), search.source_bytes, budget.source_bytes)
    return hits


def _within_source_budget(
    repo: HistoryRepository, units: list[_Unit], budget: int, clock: SafetyClock
) -> tuple[list[_Unit], int]:
    """The newest units whose greps read at most `budget` bytes of source in all, and the bytes they read.

    A unit's cost is the size of the code files its greps read: every code file of a whole tree, or
    a tree's changed files. The trees are listed (`ls-tree`, which reads no blob, so a hydrated
    blob-less mirror lists them too) and the sizes of their code blobs read in one
    `cat-file --batch-check`; nothing depends on how fast git is.
    """
    try:
        blobs = [[_code_blobs(repo, tree, unit.changed, clock) for tree in unit.trees] for unit in units]
        sizes = _blob_sizes(repo, {blob for unit in blobs for tree in unit for blob in tree}, clock)
    except GitSourceError:
        return [], 0  # trees that cannot be listed cannot be grepped either
    planned: list[_Unit] = []
    spent = 0
    for unit, unit_blobs in zip(units, blobs, strict=True):
        cost = sum(sizes.get(blob, 0) for tree in unit_blobs for blob in tree)
        if planned and spent + cost > budget:
            break
        planned.append(unit)  # the newest unit always runs: a tree larger than the budget is still searched once
        spent += cost
    return planned, spent


_CODE_SUFFIXES = tuple(spec.removeprefix("*") for spec in CODE_PATHSPECS)


def _code_blobs(repo: HistoryRepository, tree: str, only: frozenset[str] | None, clock: SafetyClock) -> list[str]:
    """The blob ids of the tree's code files (only those in `only`, when given): what a grep of them reads."""
    out = dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1)).git(["ls-tree", "-r", "-z", tree])
    blobs = []
    for record in out.split(b"\0"):
        meta, _, raw_path = record.partition(b"\t")
        fields = meta.split()
        if len(fields) != 3 or fields[1] != b"blob":
            continue
        path = raw_path.decode("utf-8", "surrogateescape")
        if path.endswith(_CODE_SUFFIXES) and (only is None or path in only):
            blobs.append(fields[2].decode("ascii"))
    return blobs


def _blob_sizes(repo: HistoryRepository, blobs: set[str], clock: SafetyClock) -> dict[str, int]:
    """Blob id → size, in one `cat-file --batch-check` (a blob the store lacks counts nothing)."""
    if not blobs:
        return {}
    out = dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1)).git(
        ["cat-file", "--batch-check=%(objectname) %(objectsize)", "--buffer"],
        stdin="".join(f"{blob}\n" for blob in sorted(blobs)).encode(),
    )
    sizes = {}
    for line in out.decode("ascii", "replace").splitlines():
        blob, _, size = line.partition(" ")
        if size.isdigit():
            sizes[blob] = int(size)
    return sizes


_DELTA_FILES = 1000
"""A sampled tree is grepped in its changed files alone when at most this many code files differ from the
newer sample's tree (the argument list stays short); past that, it is grepped whole."""
_CONCURRENT_GREPS = 2


def _changed_between(
    repo: HistoryRepository, samples: list[tuple[str, CommitRef]], clock: SafetyClock
) -> dict[int, frozenset[str]]:
    """Sample index → the code files its tree and the newer sample's differ in (one `diff-tree --stdin`), when few.

    Samples whose difference is larger than `_DELTA_FILES`, or could not be read, are left out
    (they are grepped whole).
    """
    pairs = {samples[index - 1][0]: index for index in range(1, len(samples))}
    if not pairs:
        return {}
    try:
        out = dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1)).git(
            ["diff-tree", "--stdin", "-r", "--name-only", "--no-renames", "-z", "--", *CODE_PATHSPECS],
            stdin="".join(f"{newer} {samples[index][0]}\n" for newer, index in pairs.items()).encode(),
        )
    except GitSourceError:
        return {}
    # Each pair that differs is headed by its first commit's id; a pair that does not prints nothing.
    # Every other field is a path exactly as stored (a newline or a leading space is part of it).
    changed: dict[int, set[str]] = {index: set() for index in pairs.values()}
    current: set[str] | None = None
    for token in out.decode("utf-8", "surrogateescape").split("\0"):
        if (commit := token.strip("\n")) in pairs:
            current = changed[pairs[commit]]
        elif token and current is not None:
            current.add(token)
    return {index: frozenset(paths) for index, paths in changed.items() if len(paths) <= _DELTA_FILES}


def _units(samples: list[tuple[str, CommitRef]], changed: dict[int, frozenset[str]]) -> list[_Unit]:
    """The samples in order as units of search: each tree with few changes alone, the others in batches."""
    units: list[_Unit] = []
    batch: list[int] = []

    def close() -> None:
        if batch:
            units.append(_Unit(batch[0], tuple(samples[index][0] for index in batch)))
            batch.clear()

    for index, (sha, _) in enumerate(samples):
        if index in changed:
            close()
            units.append(_Unit(index, (sha,), changed[index]))
            continue
        batch.append(index)
        if len(batch) == _TREES_PER_GREP:
            close()
    close()
    return units


def _grep_outputs(
    repo: HistoryRepository,
    names: list[str],
    used: set[str],
    trees: tuple[str, ...],
    only: frozenset[str] | None,
    *,
    symbols_only: frozenset[str] = frozenset(),
) -> list[bytes]:
    """The grep output, per language, of the lines of the trees that define a name, or use a name the head does not.

    Definitions are searched with each language's defining forms (one Perl-compatible grep per
    language over all the trees, one pattern per form, however many names), so a name the head still uses
    everywhere costs its few definitions, not its every use; names the head does not use at all
    are searched as words too (a past use is evidence for them). Without PCRE in git, one
    `-F -w` grep of every name's uses. `only`: search these files alone (a language none of them
    is written in is not searched). `symbols_only`: names searched in their symbol forms alone.
    """
    greps = [
        (["-P", *_each_an_e(_language_patterns(templates, group, used, symbols_only))], specs)
        for templates, pathspecs in _LANGUAGES
        if (specs := _restricted(pathspecs, only))
        for group in _name_groups(names, _PATTERN_CHARS // len(templates))
    ]
    try:
        return [_grep(repo, args, trees, pathspecs) for args, pathspecs in greps]
    except GitTimeoutError:
        raise
    except GitSourceError:
        fixed = _each_an_e(names[:_FIXED_STRING_NAMES])
        specs = _restricted(CODE_PATHSPECS, only)
        return [_grep(repo, ["-F", "-w", *fixed], trees, specs)] if specs else []


def _each_an_e(patterns: Iterable[str]) -> list[str]:
    """Grep arguments giving each pattern its own `-e` (a line matching any of them is a hit)."""
    return [arg for pattern in patterns for arg in ("-e", pattern)]


def _restricted(pathspecs: tuple[str, ...], only: frozenset[str] | None) -> tuple[str, ...]:
    """The pathspecs, or (given files) those of the files they match, each taken literally."""
    if only is None:
        return pathspecs
    suffixes = tuple(spec.removeprefix("*") for spec in pathspecs)
    return tuple(f":(literal){path}" for path in sorted(only) if path.endswith(suffixes))


def _account(outputs: list[bytes], search: DefinitionSearch, max_bytes: int) -> list[_Hit]:
    """The hits of grep outputs, counted against the byte cap (output past it is not read)."""
    hits = []
    for out in outputs:
        if search.bytes_read + len(out) > max_bytes:
            search.note = (
                f"history search read only the first {max_bytes / 2**20:,.0f} MiB of matches (its output budget)"
            )
            out = out[: max(0, max_bytes - search.bytes_read)]  # noqa: PLW2901 - cut to the budget
        search.bytes_read += len(out)
        hits += _parse_hits(out)
    return hits


def _name_groups(names: list[str], chars: int) -> Iterable[list[str]]:
    """The names in groups of at most `chars` characters (PCRE refuses a compiled pattern past its size limit)."""
    group: list[str] = []
    length = 0
    for name in names:
        if group and length + len(name) > chars:
            yield group
            group, length = [], 0
        group.append(name)
        length += len(name) + 1
    if group:
        yield group


def _language_patterns(
    templates: tuple[str, ...], names: list[str], used: set[str], symbols_only: frozenset[str] = frozenset()
) -> list[str]:
    """A language's defining forms of the names the head uses, and any use of the names it does not: one pattern each.

    A name in `symbols_only` is searched in the language's symbol forms alone (`def N(`, `class N`).
    Each set of names is one alternation factored by common prefixes (name_alternation): the same
    lines match as with a flat list, at about half the grep's matching work on a large tree. Each
    form is its own `-e`: git matches a line against the patterns in turn, and PCRE then starts each
    form only where it can (a form anchored at `^` at line starts, a word where its names begin),
    which an alternation of all the forms could not; the same lines match. On git/git's C files:
    0.55 -> 0.43 s of CPU per tree.
    """
    defined = [name for name in names if name in used and name not in symbols_only]
    words = [name for name in names if name not in used and name not in symbols_only]
    symbols = [name for name in names if name in symbols_only]
    forms = [template.format(n=name_alternation(defined)) for template in templates] if defined else []
    if symbols:
        forms += [template.format(n=name_alternation(symbols)) for template in _SYMBOL_TEMPLATES[templates]]
    if words:
        forms.append(r"(?<![\w$])" + name_alternation(words) + r"(?![\w$])")  # every definition is a use too
    return forms


def _grep(repo: HistoryRepository, args: list[str], trees: Iterable[str], pathspecs: tuple[str, ...]) -> bytes:
    """One `git grep` over the trees; empty when nothing matched."""
    try:
        fixed = ["grep", "--null", "-n", "--no-column", "-I", "--no-color", "--no-textconv"]
        return repo.git([*fixed, *args, *trees, "--", *pathspecs])
    except GitTimeoutError:
        raise
    except GitCommandError as error:
        if error.returncode == 1:
            return b""  # grep found nothing
        raise


def _parse_hits(out: bytes) -> list[tuple[str, str, int, str]]:
    """The (tree, path, line, text) rows of `git grep --null -n` output.

    Each row is `tree:path NUL line NUL text LF`: the text ends at its newline, the path at its NUL,
    so a path holding a newline is read whole (splitting rows at newlines first would cut it).
    """
    hits = []
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    name = fields[0]
    for position in range(1, len(fields) - 1, 2):
        number, rest = fields[position], fields[position + 1]
        text, _, following = rest.partition("\n")
        if ":" in name:
            tree, path = name.split(":", 1)
            hits.append((tree, _readable(path), int(number) if number.isdigit() else 0, _readable(text)))
        name = following
    return hits


def _readable(text: str) -> str:
    """Text read with surrogate escapes, shown as git's UTF-8 with any undecodable byte replaced."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _gone_from_head(
    repo: HistoryRepository, by_file: dict[str | tuple[str, str], tuple[PastDefinition, int]]
) -> dict[str | tuple[str, str], tuple[PastDefinition, int]]:
    """The per-file definitions whose file the head no longer has (one `ls-tree` of the head).

    A file still there would show the symbol the doc means, or a binding of it, at the head; tracing
    the removals from living files would read a log per sample for little (git/git: 2.8 MB of diffs).
    """
    if not by_file:
        return by_file
    try:
        present = set(tree_paths(repo))
    except GitSourceError:
        return {}
    return {key: value for key, value in by_file.items() if value[0].path not in present}


def _newest_symbols_by_file(
    hits: list[tuple[str, str, int, str]], samples: list[tuple[str, CommitRef]], names: Collection[str]
) -> dict[str | tuple[str, str], tuple[PastDefinition, int]]:
    """For each (name, file), the name's symbol definition in the newest sample whose file has one."""
    if not names:
        return {}
    order = {sha: index for index, (sha, _) in enumerate(samples)}
    refs = dict(samples)
    best: dict[str | tuple[str, str], tuple[PastDefinition, int]] = {}
    for tree, path, line, text in hits:
        index = order.get(tree)
        if index is None or is_test_or_sample(path):
            continue
        for word in set(names).intersection(re.findall(r"[A-Za-z_$][\w$]*", text)):
            key = (word, path)
            if (key not in best or index < best[key][1]) and symbol_pattern(word, path).search(text):
                best[key] = (PastDefinition(word, path, line, text.strip()[:200], refs[tree]), index)
    return best


def _newest_definitions(
    hits: list[tuple[str, str, int, str]], samples: list[tuple[str, CommitRef]], names: list[str]
) -> dict[str, tuple[PastDefinition, int]]:
    """For each name, its definition in the newest sample that has one (with that sample's index)."""
    order = {sha: index for index, (sha, _) in enumerate(samples)}
    refs = dict(samples)
    wanted = set(names)
    best: dict[str, tuple[PastDefinition, int]] = {}
    named: dict[str, tuple[PastDefinition, int]] = {}
    for tree, path, line, text in hits:
        index = order.get(tree)
        if index is None or is_test_or_sample(path):
            continue
        for word in wanted.intersection(re.findall(r"[A-Za-z_$][\w$]*", text)):
            found = PastDefinition(word, path, line, text.strip()[:200], refs[tree])
            if definition_pattern(word, path).search(text):
                if word not in best or index < best[word][1]:
                    best[word] = (found, index)
            elif word not in named or index < named[word][1]:
                named[word] = (dataclasses.replace(found, defined=False), index)
    # A name the code used (a parameter, a build tag, a key) but never defined: weaker, still ours.
    return {**{word: value for word, value in named.items() if word not in best}, **best}


NOT_OWN_SOURCE_FOLDERS = frozenset(
    {"test", "tests", "testing", "testsuite", "testdata", "examples", "example", "docs", "doc", "fixtures"}
    | {"dist", "build", "vendor", "vendored", "vendored_packages", "_vendor", "node_modules", "third_party"}
    | {"bower_components", "site-packages"}
)
"""Folders whose code is not the repository's own source: tests and samples define names of their own,
build output and vendored trees repeat (or bundle) other code."""


def is_test_or_sample(path: str) -> bool:
    """Test code, examples, build output and vendored code: what they define is not the repository's API.

    Args:
        path: A repository path.

    Returns:
        True for files under test, example, docs, build-output and vendored folders, and test files.
    """
    parts = path.lower().split("/")
    name = parts[-1]
    folders = set(parts[:-1])
    return (
        bool(folders & NOT_OWN_SOURCE_FOLDERS)
        or name.endswith((".min.js", ".bundle.js"))
        or name.startswith("test_")
        or name.endswith(("_test.go", "_test.py", ".test.js", ".spec.js", ".test.ts", ".spec.ts"))
    )


def forwards(name: str, lines: Iterable[str]) -> bool:
    """Whether code lines pass a parameter on under its own name (`mix_stderr=mix_stderr`).

    A parameter our function only forwarded is the callee's API as well, and the callee may be
    another project's (a wrapper of a base class imported from elsewhere): dropping it from the
    wrapper is no evidence that the name is gone, so it counts as a use, not a definition.

    Args:
        name: A simple identifier.
        lines: Lines of code (a commit's removed lines).

    Returns:
        True when a line holds `name=name` (a keyword argument forwarded as is).
    """
    forwarded = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*=\s*{re.escape(name)}(?![\w$])")
    return any(forwarded.search(line) for line in lines)


def diffs_naming(
    repo: HistoryRepository, names: Collection[str], paths: Collection[str], commits: str, *, full_history: bool = False
) -> bytes:
    """The `-U0` diffs of a range's commits that add or remove a line naming one of the names, in the files.

    Args:
        repo: The opened repository.
        names: Identifiers (whole words) a changed line must hold.
        paths: Files to look at.
        commits: The revision range, such as `old..new`.
        full_history: Keep the side branches git would simplify away (a file a branch added and
            removed again changes nothing the merge shows, so a path-limited log prunes that branch).

    Returns:
        The log text, each commit headed `%x00%H%x00%cI%x00%s`, newest first.
    """
    regex = r"\b(" + "|".join(re.escape(name) for name in sorted(names)) + r")\b"
    return repo.git(
        [
            "log",
            "-p",
            *PATCH_LOG_OPTIONS,
            "--diff-merges=off",
            *(["--full-history"] if full_history else []),
            f"-G{regex}",
            commits,
            "--",
            *sorted(paths),
        ]
    )


_ANY_DEFINITION = re.compile(
    r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)|^\s*class\s+([A-Za-z_]\w*)|^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)"
    r"|^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)|^type\s+([A-Za-z_]\w*)"
    r"|^([A-Za-z_]\w*)\s*(?::[^=]*)?=[^=]"
)


def defined_names(lines: Iterable[str]) -> list[str]:
    """Names the lines define (`def`, `class`, `func`, `function`, `type`, a top-level assignment), in order.

    Args:
        lines: Lines of code (a diff's added lines).

    Returns:
        Each defined name once.
    """
    names: list[str] = []
    for line in lines:
        if (match := _ANY_DEFINITION.match(line)) is not None:
            name = next(group for group in match.groups() if group)
            if name not in names:
                names.append(name)
    return names
