"""The Dockerfile, checked without a container engine: what it copies exists, what it runs is declared.

The image is one `uv sync --locked` of the workspace; these checks catch the mistakes that would only
show at `docker build` or container start (a missing or ignored file, an undeclared command), and that
no secret or host environment is copied into the image.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from fnmatch import fnmatch
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
NEVER_IN_THE_IMAGE = (".env", ".venv", ".tools", ".sextant", ".git")
"""Secrets (.env) and host environments whose paths would be wrong inside the image."""


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def ignored_patterns() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip().rstrip("/") for line in lines if line.strip() and not line.startswith("#")]


def is_ignored(path: str) -> bool:
    """Whether the build context leaves ``path`` out (a pattern matches it or one of its folders)."""
    parts = Path(path).parts
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    return any(fnmatch(prefix, pattern) for pattern in ignored_patterns() for prefix in prefixes)


def workspace_members() -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    members: list[str] = data["tool"]["uv"]["workspace"]["members"]
    return members


def console_scripts() -> dict[str, str]:
    scripts: dict[str, str] = {}
    for member in workspace_members():
        project = tomllib.loads((ROOT / member / "pyproject.toml").read_text()).get("project", {})
        scripts.update(project.get("scripts", {}))
    return scripts


def test_every_path_it_copies_exists_and_reaches_the_build_context() -> None:
    copies = [rest for keyword, rest in instructions() if keyword in {"COPY", "ADD"}]
    assert copies, "the Dockerfile copies nothing"
    for rest in copies:
        words = [word for word in shlex.split(rest) if not word.startswith("--")]
        for source in words[:-1]:
            assert (ROOT / source).exists(), f"COPY {source}: no such path"
            assert source == "." or not is_ignored(source), f"COPY {source}: left out by .dockerignore"


def test_what_uv_sync_needs_is_in_the_context() -> None:
    needed = ["pyproject.toml", "uv.lock"] + [f"{member}/pyproject.toml" for member in workspace_members()]
    needed += [f"{member}/src" for member in workspace_members()]
    for path in needed:
        assert (ROOT / path).exists(), f"{path} is missing"
        assert not is_ignored(path), f"{path} is left out by .dockerignore"


def test_secrets_and_host_environments_stay_out_of_the_image() -> None:
    for path in NEVER_IN_THE_IMAGE:
        assert is_ignored(path), f".dockerignore must leave out {path}"


def test_the_default_command_is_a_declared_console_script_and_command() -> None:
    commands = [rest for keyword, rest in instructions() if keyword == "CMD"]
    assert len(commands) == 1
    script, *args = json.loads(commands[0])
    target = console_scripts().get(script)
    assert target is not None, f"CMD runs {script!r}, which no workspace member declares"
    module, _, function = target.partition(":")
    assert callable(getattr(import_module(module), function))
    from sextant.cli.main import app

    names = {command.name or command.callback.__name__ for command in app.registered_commands if command.callback}
    assert args[0] in names, f"`{script} {args[0]}` is not a command"


def test_every_compose_command_runs_a_module_or_script_of_the_image() -> None:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    for name, service in services.items():
        if service.get("image", "sextant:latest") != "sextant:latest" and "build" not in service:
            continue  # nats, qdrant, jaeger: their own images
        command = service.get("command") or json.loads(next(r for k, r in instructions() if k == "CMD"))
        if command[:2] == ["python", "-m"]:
            module = find_spec(command[2])
            assert module is not None, f"{name} runs python -m {command[2]}, which is not installed"
            assert module.submodule_search_locations is None or find_spec(f"{command[2]}.__main__") is not None
        else:
            assert command[0] in console_scripts(), f"{name} runs {command[0]!r}, which is not declared"


def test_the_image_pins_the_same_uv_as_the_makefile() -> None:
    pinned = re.search(r"uv==([\d.]+)", (ROOT / "Dockerfile").read_text())
    assert pinned is not None
    assert f"uv=={pinned.group(1)}" in (ROOT / "Makefile").read_text()
