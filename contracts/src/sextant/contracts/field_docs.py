"""Read the docstrings written under each Struct field, so the JSON Schema can describe every field."""

from __future__ import annotations

import ast
import inspect
import itertools
from functools import cache


@cache
def field_docstrings(cls: type) -> dict[str, str]:
    """Field name → the string literal that follows its annotation in the class body (MRO included).

    Args:
        cls: A class whose fields are documented with attribute docstrings.

    Returns:
        The documented fields of the class and its bases.
    """
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass is object or not klass.__module__.startswith("sextant."):
            continue
        tree = ast.parse(inspect.getsource(klass))
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for statement, following in itertools.pairwise(body):
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs
