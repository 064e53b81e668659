"""Every declared service, found through packaging entry points and put in pipeline order."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib.metadata import entry_points

from sextant.bootstrap.declaration import ENTRY_POINT_GROUP, AnyDeclaration, ServiceDeclaration
from sextant.contracts import event_name


class NoServicesDeclaredError(RuntimeError):
    """No installed package declares a service (the environment was not synced)."""


@functools.cache
def declared_services() -> tuple[AnyDeclaration, ...]:
    """The services installed in this environment, upstream ones first.

    Returns:
        Declarations ordered so a service comes after the services whose events it consumes.

    Raises:
        NoServicesDeclaredError: when no installed package declares one.
        TypeError: when an entry point names something that is not a declaration.
    """
    found: list[AnyDeclaration] = []
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        declaration = entry.load()
        if not isinstance(declaration, ServiceDeclaration):
            raise TypeError(f"entry point {entry.name} ({entry.value}) is not a ServiceDeclaration")
        found.append(declaration)
    if not found:
        raise NoServicesDeclaredError(
            f"no package declares a service (entry points {ENTRY_POINT_GROUP!r}); run `make sync`"
        )
    return tuple(pipeline_order(found))


def pipeline_order(declarations: Sequence[AnyDeclaration]) -> list[AnyDeclaration]:
    """Sort services so each follows the producers of the event it consumes.

    Args:
        declarations: Services in any order.

    Returns:
        The same services, upstream first; a cycle keeps the remaining ones in name order.
    """
    remaining = sorted(declarations, key=lambda declaration: declaration.name)
    ordered: list[AnyDeclaration] = []
    while remaining:
        ready = [
            declaration
            for declaration in remaining
            if not any(declaration.consumes in other.produces for other in remaining if other is not declaration)
        ]
        # Among the ready ones, continue the chain already ordered before starting a new one.
        ready.sort(key=lambda d: (not any(d.consumes in done.produces for done in ordered), d.name))
        step = ready[0] if ready else remaining[0]
        ordered.append(step)
        remaining.remove(step)
    return ordered


def embedded_services() -> tuple[AnyDeclaration, ...]:
    """The services the embedded runtime hosts (all declared ones that do not opt out).

    Returns:
        Declarations in pipeline order.
    """
    return tuple(declaration for declaration in declared_services() if declaration.embedded)


@functools.cache
def result_stages() -> dict[str, str]:
    """Which stage produces each event, by event name (``chunks.indexed`` → ``indexer``).

    An event several services publish (``stage.failed``) names no single stage and is left out.

    Returns:
        Event name → stage of the one service that publishes it.
    """
    producers: dict[str, set[str]] = {}
    for declaration in declared_services():
        for produced in declaration.produces:
            producers.setdefault(event_name(produced), set()).add(declaration.stage)
    return {name: stages.pop() for name, stages in producers.items() if len(stages) == 1}
