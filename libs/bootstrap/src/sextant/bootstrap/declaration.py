"""How a service says what it is: one declaration per service package, read by every host.

The CLI's embedded runtime, ``python -m sextant.<service>``, the AsyncAPI document and the CLI's
table of which stage produces which result all read these declarations, so a service's name,
durable consumer and events are written once, in its own package.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar

from sextant.bus import Bus, EventHandler
from sextant.contracts import Event

if TYPE_CHECKING:
    from sextant.bootstrap.adapters import Adapters

E = TypeVar("E", bound=Event)
P = ParamSpec("P")

HandlerFactory = Callable[[Bus], EventHandler[E]]
"""Given the bus (acting as the service), the handler of one delivery: ``async (event) -> outputs``."""

HandlerBuilder = Callable[["Adapters", Mapping[str, str]], HandlerFactory[E]]
"""Builds a service's handler from the shared adapters and the environment (its settings)."""


def handler_calling(
    on_event: Callable[Concatenate[E, P], Awaitable[Sequence[Event]]], *args: P.args, **kwargs: P.kwargs
) -> HandlerFactory[E]:
    """The handler of a service that needs nothing from the bus: each event goes to ``on_event(event, *args)``.

    Args:
        on_event: The service's handler function.
        *args: What it takes after the event (settings, adapters), bound once per process.
        **kwargs: The same, by name.

    Returns:
        ``bus -> handler``, the same handler for every bus.
    """

    async def handle(event: E) -> Sequence[Event]:
        return await on_event(event, *args, **kwargs)

    return lambda bus: handle


ENTRY_POINT_GROUP = "sextant.services"
"""Packaging entry-point group under which each service package names its declaration."""


@dataclass(frozen=True)
class ServiceDeclaration(Generic[E]):
    """Everything a host needs to know about one service.

    A new service is a new declaration (and an entry point naming it in its ``pyproject.toml``):
    no host, list or table elsewhere changes.
    """

    name: str
    """Service name: ``service.name`` in traces, the compose service, ``python -m`` logs."""
    stage: str
    """Stage name reported in ``StageFailed`` and progress reports."""
    durable: str
    """Durable JetStream consumer; replicas of the service share it and split the work."""
    consumes: type[E]
    """The one event the service handles."""
    produces: tuple[type[Event], ...]
    """The events its handler may publish (besides the bus's own ``StageFailed``/``EventParked``)."""
    build: HandlerBuilder[E]
    """Builds the handler from adapters and settings, once per process."""
    summary: str = ""
    """One line for the AsyncAPI document and ``sextant services``."""
    embedded: bool = True
    """Whether the embedded runtime (``sextant up``, a CLI run) hosts it; an integration that needs
    credentials of its own to do anything may opt out and run only as its own process."""


AnyDeclaration = ServiceDeclaration[Any]
