"""Names that are never claims about this repository's code, and shapes that only look like code."""

from __future__ import annotations

import builtins


def _words(text: str) -> frozenset[str]:
    """A word list written as text, one space-separated word per entry."""
    return frozenset(text.split())


# Shell builtins, keywords and widely installed tools: a docs line running them says nothing about
# this repository's own commands (their file arguments may still name repository paths).
WELL_KNOWN_COMMANDS = _words(
    """
    . : [ alias ansible apk apt apt-get awk az bash bg black brew bun bundle bunx cargo cat cd chmod
    chown clang cmake cmd code composer conda cp crontab curl cut dart date deno diff dig dnf docker
    docker-compose dotnet du echo env eval exec exit export false fg find fish flake8 fly gcc gcloud gem
    gh git go gradle grep gunzip gzip hatch head helm heroku http hugo id ipython isort java javac
    jekyll jq jupyter kill kind kubectl less ln ls make man minikube mkdir mkdocs more mv mvn mypy mysql
    nano nats nats-server nc netlify nice node nohup nox npm npx nvm ollama open openssl patch pdm php
    ping pip pip3 pipenv pipx pnpm podman poetry powershell pre-commit printf ps psql pwd pwsh py pyenv
    pytest python python3 qdrant rails rake read redis-cli rm rmdir rsync ruby ruff rustc rustup sam scp
    sed service set sh sleep snap sort source sphinx-build sqlite3 ssh sudo swift systemctl tail tar tee
    terraform test time timeout top touch tox tr true twine type ulimit umask unalias uname uniq unset
    unzip uv uvx vagrant vercel vi vim virtualenv watch wc wget which whoami wsl xargs yarn yq yum zip
    zsh
    """
)

# Words that start a shell line but are control flow, not programs.
SHELL_KEYWORDS = _words(
    """
    case do done elif else esac fi for function if in return select then until while
    """
)

# Prefixes that run the real program given after them (options of the runner are skipped too).
COMMAND_RUNNERS: tuple[tuple[str, ...], ...] = (
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("pnpm", "exec"),
    ("yarn", "exec"),
    ("npm", "exec"),
    ("uvx",),
    ("pipx", "run"),
    ("npx",),
    ("bunx",),
    ("sudo",),
    ("env",),
    ("exec",),
    ("time",),
    ("nohup",),
)

# Shell built-ins that change the shell's own state (its folder, variables, functions) and run no
# program a doc would name flags of: `source bash_autocomplete`, `cd app`, `export PROG=greet`.
SHELL_STATE_BUILTINS = _words(
    """
    . alias cd export popd pushd set setopt shopt source unalias unset
    """
)

# Interpreters whose first argument is a script: the script is a path claim, the rest is its own.
SCRIPT_INTERPRETERS = _words(
    """
    . bash bun deno node perl py python python3 ruby sh source zsh
    """
)

# Commands whose file arguments are outputs or remote things, never repository files to check.
NO_PATH_ARGUMENTS = _words(
    """
    code curl echo export gh git ln mkdir nano open printf rm rmdir rsync scp ssh tee touch vi vim wget
    """
)

HTTP_METHODS = _words(
    """
    CONNECT DELETE GET HEAD OPTIONS PATCH POST PUT TRACE
    """
)

# Literals and everyday words people put in backticks (compared case-insensitively).
PLAIN_WORDS = _words(
    """
    cls ebpf false fixme inf infinity ios ipad ipados iphone it jquery macos n/a nan nil no none npm
    null off ok on pnpm self tbd this todo true tvos undefined void yes
    camelcase snake_case pascalcase kebab-case screaming_snake_case lowercase uppercase
    and/or async/await input/output read/write true/false client/server tcp/ip i/o on/off yes/no
    get/set either/or he/she his/her request/response
    """
)

# Call forms of language builtins: `print()` is not a claim that this repository defines print.
BUILTIN_CALLS = _words(
    """
    abs alert all any asyncio.run bool bytes callable console.log delattr dict dir enumerate eval exit
    fetch filter float format frozenset getattr hasattr hash help id import input int isinstance
    issubclass iter json.parse json.stringify len list map max min next object object.keys open
    parsefloat parseint print promise.all quit range repr require reversed round set setattr setinterval
    settimeout sorted str sum super tuple type vars zip
    """
)

# Segments that mark a name as a placeholder in an example, never a real file or symbol.
PLACEHOLDER_SEGMENTS = _words(
    """
    bar baz foo foobar fubar hoge quux qux xxx xyz
    """
)

PLACEHOLDER_FIRST_SEGMENTS: frozenset[str] = frozenset(
    {"example", "my", "path", "sample", "some", "username", "your", "yourname"}
)

# Build outputs and environments: paths under them are made by tools, never held by the repository.
GENERATED_FOLDERS = _words(
    """
    .cache .eggs .env .git .mypy_cache .next .nox .pytest_cache .ruff_cache .tox .venv __pycache__
    _build _site build dist htmlcov node_modules site-packages target venv
    """
)

# Extensions that mark a token as a file name.
CODE_EXTENSIONS = _words(
    """
    bash c cc cjs clj cpp cs dart erl ex exs go graphql h hpp hs java jl js jsx kt kts lua m mjs ml mm
    php proto ps1 py pyi r rb rs scala sh sql svelte swift tf ts tsx vue zsh
    """
)

DATA_EXTENSIONS = _words(
    """
    adoc cfg conf css csv dockerfile env example gradle htm html ini j2 jinja json less lock lockb md
    mdx mk properties rst sample sass scss template toml tpl tsv txt xml yaml yml
    """
)

# Files the index never holds (binary or generated): an absent one proves nothing.
UNINDEXED_EXTENSIONS = _words(
    """
    avi bin bmp db dll dylib eot exe gif gz ico jar jpeg jpg mov mp3 mp4 onnx otf parquet pdf pkl png pt
    so sqlite svg tar tgz ttf wav webp whl woff woff2 zip
    """
)

# Extensionless file names that everyone recognises as files.
WELL_KNOWN_FILES = _words(
    """
    AUTHORS Brewfile CODEOWNERS Caddyfile Containerfile Dockerfile Earthfile Gemfile Jenkinsfile
    Justfile LICENSE Makefile NOTICE Pipfile Procfile README Rakefile Taskfile Vagrantfile
    """
)

# Environment variables read by the platform or third-party tools rather than by the repository.
THIRD_PARTY_ENV_PREFIXES: tuple[str, ...] = (
    "AWS_",
    "AZURE_",
    "GOOGLE_",
    "GCP_",
    "GITHUB_",
    "GITLAB_",
    "CI_",
    "OTEL_",
    "PYTHON",
    "PIP_",
    "UV_",
    "NODE_",
    "NPM_",
    "YARN_",
    "DOCKER_",
    "COMPOSE_",
    "KUBE",
    "HOME",
    "PATH",
    "LANG",
    "LC_",
    "TERM",
    "SHELL",
    "USER",
    "TMPDIR",
    "XDG_",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "SSL_",
    "REQUESTS_",
    "CUDA_",
    "HF_",
    "TRANSFORMERS_",
    "VIRTUAL_ENV",
    "CONDA_",
    "JAVA_",
    "GO",
    "CARGO_",
    "RUST",
)

# Single environment variables that shells, terminals and common tools read.
THIRD_PARTY_ENV_NAMES = _words(
    """
    BROWSER CC CFLAGS CXX DEBUG DISPLAY EDITOR GOPATH GOROOT HOSTNAME LDFLAGS LOGNAME NODE_ENV PAGER PORT
    PWD SHLVL TZ VISUAL
    """
)

# Classes every JavaScript or Python program has: `Promise.all`, `Object.keys` are the language's.
LANGUAGE_CLASSES = _words(
    """
    Array ArrayBuffer BigInt Boolean Buffer DataView Date Error EventEmitter Function Intl JSON Map Math Number
    Object Promise Proxy Reflect RegExp Set String Symbol TypeError URL URLSearchParams WeakMap WeakSet
    """
)

# Words that, next to a literal, say it names a piece of code ("the `login` function").
CODE_NOUNS = _words(
    """
    attribute attributes callable class classes constant constructor coroutine decorator endpoint enum
    field fields fixture func function functions handler helper hook interface interfaces macro method
    methods property struct structs trait variable
    """
)

# Packaging and build tools whose keywords and options docs name: "setuptools `extras_require`" is
# setuptools' keyword, written with the tool's name before it as a reader says "Django `settings`".
BUILD_TOOLS = _words(
    """
    bazel cargo distutils docutils flit gradle hatch hatchling maven meson mkdocs npm pdm pip pipenv
    poetry pyinstaller rollup setuptools setuptools_scm sphinx tox twine vite webpack wheel yarn
    """
)

# Nouns for modules: a single-word module is as often the standard library's as this repository's.
MODULE_NOUNS: frozenset[str] = frozenset({"library", "module", "modules", "package", "packages"})

CODE_VERBS: frozenset[str] = frozenset({"call", "calls", "implements", "invoke", "invokes", "subclass"})

COMMAND_NOUNS: frozenset[str] = frozenset({"command", "commands", "subcommand", "subcommands"})

CONFIG_NOUNS: frozenset[str] = frozenset({"config", "key", "option", "parameter", "setting", "settings"})

# Python's builtin names (exceptions, types, functions): `ConnectionError` in a doc is the language's.
PYTHON_BUILTINS: frozenset[str] = frozenset(name for name in dir(builtins) if not name.startswith("_"))
