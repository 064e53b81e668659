"""Security facts: call patterns on code only, literal secrets anywhere on the line, tests skipped."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sextant.analyzer.evidence.security_scan import SecurityCollector, code_part, is_secret_like_file

SOURCE = '''\
import os, pickle, subprocess, yaml


def run(cmd, blob, text):
    """Never call eval() on input."""  # documented, not done
    print("shell=True is dangerous")  # a message, not a call
    os.system(cmd)
    yaml.load(text)
    yaml.load(text, Loader=yaml.SafeLoader)
    api_key = "abcd1234efgh"
    requests.get(cmd, verify=False)
    return pickle.loads(blob)
'''


def scan(payloads: list[Any]) -> list[str]:
    collector = SecurityCollector()
    for payload in payloads:
        collector.add(payload)
    return [f"{hit.what} @ {hit.place}" for hit in collector.build().hits]


def test_calls_in_code_are_found_and_mentions_in_strings_or_comments_are_not(
    make_payloads: Callable[..., list[Any]],
) -> None:
    assert scan(make_payloads({"app/run.py": (SOURCE, None), "tests/test_run.py": (SOURCE, None)})) == [
        "os.system() call @ app/run.py:7",
        "yaml.load() without a safe loader @ app/run.py:8",
        "string literal assigned to a password-like name @ app/run.py:10",
        "TLS certificate verification turned off @ app/run.py:11",
        "pickle deserialisation @ app/run.py:12",
    ]


def test_code_part_blanks_strings_and_cuts_comments() -> None:
    assert code_part("x = eval(a)  # eval(b)") == "x = eval(a)  "
    assert code_part("el.innerHTML = `<b>${name}</b>`; // innerHTML") == 'el.innerHTML = ""; '
    assert code_part('s = "say \\"eval(x)\\" loud"') == 's = ""'


def test_secret_like_file_names() -> None:
    assert all(map(is_secret_like_file, [".env", "config/.env.local", "deploy/server.pem", "id_ed25519"]))
    assert not any(map(is_secret_like_file, [".env.example", "env.py", "keys.py", "README.md"]))
