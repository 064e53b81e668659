"""Claims found in Markdown: inline code, links, fenced shell blocks, and what is not a claim."""

from __future__ import annotations

from sextant.doc_claims import Claim, extract_claims


def found(text: str, doc: str = "docs/guide.md") -> list[tuple[int, str, str]]:
    return [(c.line, c.kind, c.target) for c in extract_claims(doc, text)]


def by_target(text: str, doc: str = "docs/guide.md") -> dict[str, Claim]:
    return {c.target: c for c in extract_claims(doc, text)}


def test_backtick_literals_become_claims_by_shape() -> None:
    text = (
        "# Guide\n"
        "\n"
        "`load_config()` reads `src/app/config.py` and `NATS_URL`.\n"
        "Pass `--force` to rebuild; `ChunkStore.upsert` writes; `auth.login` is the entry.\n"
        "The `tool.sextant.max-retries` key and `retry_limit: 3` tune retries.\n"
    )
    assert found(text) == [
        (3, "symbol", "load_config"),
        (3, "path", "src/app/config.py"),
        (3, "env", "NATS_URL"),
        (4, "flag", "--force"),
        (4, "symbol", "ChunkStore.upsert"),
        (4, "symbol", "auth.login"),
        (5, "config_key", "tool.sextant.max-retries"),
        (5, "config_key", "retry_limit"),
    ]


def test_double_backtick_spans_and_line_suffixes() -> None:
    claims = by_target("See ``src/a.py:12`` and `lib/b.py#L3-L9` and `$QDRANT_PATH`.\n")
    assert set(claims) == {"src/a.py", "lib/b.py", "QDRANT_PATH"}
    assert claims["QDRANT_PATH"].kind == "env"


def test_relative_links_are_path_claims_and_external_links_are_not() -> None:
    text = (
        "Read [setup](setup.md#install), [the root](/README.md) and ![diagram](img/arch.png).\n"
        "[`requests.get`](https://docs.python-requests.org) and [home](https://example.com/a.md)\n"
        "[mail](mailto:a@b.c) [anchor](#usage)\n"
        "\n"
        "[ref]: ../src/app.py\n"
    )
    claims = by_target(text)
    assert set(claims) == {"setup.md", "/README.md", "img/arch.png", "../src/app.py"}
    assert all(c.kind == "path" and c.explicit for c in claims.values())
    assert claims["../src/app.py"].line == 5


def test_fenced_shell_block_yields_command_flags_env_and_files() -> None:
    text = (
        "Run:\n"
        "\n"
        "```bash\n"
        "# index first\n"
        "NATS_URL=nats://127.0.0.1:4222 uv run --no-sync sextant index --force \\\n"
        "    --window 2y\n"
        "python scripts/bench.py --quick\n"
        "git clone https://github.com/acme/app && cd app\n"
        "pip install -r requirements.txt\n"
        "docker compose up -d\n"
        "make run\n"
        "```\n"
    )
    claims = extract_claims("README.md", text)
    seen = [(c.line, c.kind, c.target, c.command) for c in claims]
    assert seen == [
        (5, "env", "NATS_URL", None),
        (5, "cli", "sextant index", "sextant"),
        (5, "flag", "--force", "sextant"),
        (5, "flag", "--window", "sextant"),
        (7, "path", "scripts/bench.py", None),
        (7, "cli", "scripts/bench.py", "scripts/bench.py"),  # a script's flags are its own
        (7, "flag", "--quick", "scripts/bench.py"),
        (9, "path", "requirements.txt", None),
        (11, "cli", "make run", "make"),  # a task runner's task: the repository's Makefile may define it
    ]


def test_console_block_takes_prompted_lines_only() -> None:
    text = "```console\n$ sextant show acme/app --json\nanalysis of acme/app --not-a-flag\n```\n"
    claims = by_target(text)
    assert found(text) == [(2, "cli", "sextant show"), (2, "flag", "--json"), (2, "path", "acme/app")]
    assert not claims["acme/app"].explicit  # a slug argument may not be a folder: absent is unverifiable


def test_unlabelled_and_non_shell_blocks_are_examples() -> None:
    text = "```\nsextant index\n```\n```yaml\nserver:\n  port: 8080\n```\n```python\nresult = do_things(x)\n```\n"
    assert found(text) == []


def test_python_block_imports_and_env_block() -> None:
    text = (
        "```python\nfrom sextant.doc_claims import check_docs, extract_claims\nprint(check_docs)\n```\n"
        "```dotenv\nQDRANT_URL=http://localhost:6333\n# comment\n```\n"
    )
    assert found(text) == [
        (2, "symbol", "sextant.doc_claims.check_docs"),
        (2, "symbol", "sextant.doc_claims.extract_claims"),
        (3, "symbol", "sextant.doc_claims.check_docs"),  # the line that uses the imported name
        (6, "env", "QDRANT_URL"),
    ]


def test_well_known_commands_and_builtins_are_not_cli_claims() -> None:
    text = "```sh\ngit push --force\ncurl -X POST http://x\nnpm install\ncd services && ls -la\n```\n"
    assert found(text) == []
    assert found("Use `git rebase -i` or `docker ps -a`.\n") == []


def test_inline_command_is_a_cli_claim() -> None:
    assert found("Then `sextant review . --base main` prints it.\n") == [
        (1, "cli", "sextant review"),
        (1, "flag", "--base"),
    ]


def test_plain_words_numbers_http_and_placeholders_are_not_claims() -> None:
    text = (
        "Returns `true`, `null`, `None`, `42`, `v1.2.3`, `3.11` or `ok`.\n"
        "Send `GET` or `POST /api/items`; expect `404` or `200 OK`.\n"
        "Words like `index`, `Router` or `Python` are prose. `application/json` is a MIME type.\n"
        "Placeholders: `foo.py`, `path/to/file`, `<name>`, `my_app`, `{id}`, `/etc/hosts`, `~/.bashrc`.\n"
        "Call `print()` or `len()`.\n"
    )
    assert found(text) == []


def test_examples_in_prose_are_not_claims() -> None:
    text = "Name stages clearly (e.g. `load_chunks`, `embed_batch`), for example `run_all()`.\nBut `real_one` is.\n"
    assert found(text) == [(2, "symbol", "real_one")]


def test_a_file_the_reader_is_told_to_create_is_not_a_claim() -> None:
    text = (
        "Create a file `deploy/local.yml` with your settings.\n"
        "Copy `.env.example` to `.env` and edit `your.cfg`.\n"
        "The loader reads `deploy/base.yml`.\n"
    )
    assert found(text) == [(2, "path", ".env.example"), (3, "path", "deploy/base.yml")]


def test_nouns_make_single_words_code_and_camel_case_is_weak() -> None:
    claims = by_target(
        "The `login` function, class `Session`, the `analyze` command, the `timeout` setting, "
        "and `JetStream`, `getRepoChunks`.\n"
    )
    assert {t: (c.kind, c.explicit) for t, c in claims.items()} == {
        "login": ("symbol", True),
        "Session": ("symbol", True),
        "analyze": ("cli", True),
        "timeout": ("config_key", True),
        "JetStream": ("symbol", False),
        "getRepoChunks": ("symbol", True),
    }


def test_bare_file_names_are_weak_paths_unless_source_files() -> None:
    claims = by_target("Edit `settings.json` or `session.py` or `Makefile`.\n")
    assert {t: c.explicit for t, c in claims.items()} == {
        "settings.json": False,
        "session.py": True,
        "Makefile": True,
    }


def test_code_spans_inside_fences_and_comments_are_not_read_twice() -> None:
    text = "<!-- `hidden_name` -->\n```bash\necho `date`\n```\nVisible `real_name`.\n"
    assert found(text) == [(5, "symbol", "real_name")]


def test_first_line_offsets_every_claim() -> None:
    claims = extract_claims("docs/a.md", "intro\n`load_config()`\n", first_line=41)
    assert [c.line for c in claims] == [42]


def test_duplicates_on_one_line_collapse() -> None:
    claims = extract_claims("docs/a.md", "`load_config()` then `load_config` again\n")
    assert [(c.ref, c.target) for c in claims] == [("load_config()", "load_config")]


def test_indented_code_blocks_are_code_and_escaped_backticks_open_no_span() -> None:
    text = (
        "Write \\`not_a_span\\` literally, then call `acme_login()`.\n"
        "\n"
        "    class LocalExample:\n"
        "        local_helper = 1\n"
        "\n"
        "<!-- `hidden_name()` is a note to ourselves -->\n"
    )
    claims = by_target(text)
    assert set(claims) == {"acme_login"}


def test_a_variable_the_reader_s_shell_expands_is_not_a_firm_claim() -> None:
    text = (
        "When you pass an environment variable in the argument, it expands it:\n"
        "\n"
        "```console\n"
        '$ python foo.py "$M0/.viola/2025-01-25"\n'
        "$ NATS_URL=nats://x acme run\n"
        "```\n"
        "\n"
        "The `ACME_HOME` environment variable sets the folder.\n"
    )
    claims = by_target(text)
    assert not claims["M0"].explicit  # expanded by the reader's shell: the reader's variable
    assert claims["NATS_URL"].explicit  # set for our command: a claim that it reads it
    assert claims["ACME_HOME"].explicit


def test_a_sentence_about_what_is_kept_for_compatibility_is_a_present_claim() -> None:
    text = (
        "The `Undefined` object exists for backwards compatibility and is an alias for `SilentUndefined`.\n\n"
        "The `OldLoader` class was removed in 2.0.\n"
    )
    claims = by_target(text)
    assert not claims["SilentUndefined"].in_history_sentence  # the code is said to have it now
    assert claims["OldLoader"].in_history_sentence


def test_lines_are_counted_as_git_counts_them_past_a_form_feed_or_a_line_separator() -> None:
    # Only a newline ends a line: a page break (form feed) or U+2028 inside a line moves nothing.
    text = (
        "# Guide\n\nPage one.\x0cPage two.\n\nA line\u2028separated.\n\n"
        "Call `load_config()`.\n\n```python\nimport acme.tools\n```\n"
    )
    assert found(text) == [(7, "symbol", "load_config"), (10, "symbol", "acme.tools")]
