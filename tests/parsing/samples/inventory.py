"""Inventory bookkeeping for the warehouse."""

from __future__ import annotations

import logging
from dataclasses import dataclass

logger = logging.getLogger(__name__)
DEFAULT_QUANTITY = 1


@dataclass(frozen=True)
class Item:
    """One stock-keeping unit."""

    sku: str
    quantity: int = DEFAULT_QUANTITY


class Inventory:
    """Holds items by SKU."""

    def __init__(self) -> None:
        self._items: dict[str, Item] = {}

    @property
    def size(self) -> int:
        """Number of distinct SKUs."""
        return len(self._items)

    def add(self, item: Item) -> None:
        # Replacing keeps the latest count.
        self._items[item.sku] = item


def restock(inventory: Inventory, sku: str, quantity: int) -> Item:
    """Put `quantity` units of `sku` back on the shelf."""
    item = Item(sku, quantity)
    inventory.add(item)
    logger.info("restocked %s", sku)
    return item
