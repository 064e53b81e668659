"""The composition root: what each service declares, the adapters it is built from, and hosting it."""

from sextant.bootstrap.adapters import UNSET, Adapters, bootstrap, service_deps
from sextant.bootstrap.declaration import (
    ENTRY_POINT_GROUP,
    AnyDeclaration,
    HandlerBuilder,
    HandlerFactory,
    ServiceDeclaration,
    handler_calling,
)
from sextant.bootstrap.hosting import host, host_all, run_declared_service, service_spec
from sextant.bootstrap.registry import (
    NoServicesDeclaredError,
    declared_services,
    embedded_services,
    pipeline_order,
    result_stages,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "UNSET",
    "Adapters",
    "AnyDeclaration",
    "HandlerBuilder",
    "HandlerFactory",
    "NoServicesDeclaredError",
    "ServiceDeclaration",
    "bootstrap",
    "declared_services",
    "embedded_services",
    "handler_calling",
    "host",
    "host_all",
    "pipeline_order",
    "result_stages",
    "run_declared_service",
    "service_deps",
    "service_spec",
]
