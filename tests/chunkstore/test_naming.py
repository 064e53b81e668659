"""Collection names and point ids: deterministic, distinct, safe."""

from __future__ import annotations

import re
import uuid

import pytest

from sextant.chunkstore import collection_name, point_id


def test_collection_name_carries_model_and_dimension() -> None:
    assert collection_name("minilm-L6-v2 (int8)", 384) == "sextant_chunks__minilm_l6_v2_int8__384"
    assert collection_name("sentence-transformers/all-MiniLM-L6-v2", 384) == (
        "sextant_chunks__sentence_transformers_all_minilm_l6_v2__384"
    )
    assert collection_name("m", 64) != collection_name("m", 384)


def test_collection_name_is_bounded_and_plain() -> None:
    name = collection_name("x" * 1000 + "/../ünïcode", 1024)

    assert len(name) <= 200
    assert name.endswith("__1024")
    assert re.fullmatch(r"[a-z0-9_]+", name)


@pytest.mark.parametrize(("model_id", "dimension"), [("", 384), ("///", 384), ("m", 0)])
def test_collection_name_refuses_nonsense(model_id: str, dimension: int) -> None:
    with pytest.raises(ValueError):
        collection_name(model_id, dimension)


def test_point_id_is_a_stable_uuid5() -> None:
    first = point_id("repo", "src/a.py", "Foo.bar", 10, 0)

    assert first == point_id("repo", "src/a.py", "Foo.bar", 10, 0)
    assert uuid.UUID(first).version == 5


def test_point_id_differs_in_every_part() -> None:
    ids = {
        point_id("repo", "src/a.py", "f", 10, 0),
        point_id("repo2", "src/a.py", "f", 10, 0),
        point_id("repo", "src/b.py", "f", 10, 0),
        point_id("repo", "src/a.py", "g", 10, 0),
        point_id("repo", "src/a.py", None, 10, 0),
        point_id("repo", "src/a.py", "f", 11, 0),
        point_id("repo", "src/a.py", "f", 10, 1),
        # parts that would collide if they were simply joined with a separator
        point_id("repo", "src/a.py:f", "", 10, 0),
        point_id("repo", "src/a.py", ":f", 10, 0),
    }
    assert len(ids) == 9
