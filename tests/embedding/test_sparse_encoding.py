"""Code-aware tokenisation and BM25 sparse vectors."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sextant.embedding import SparseEncoder, split_code_identifiers, term_index
from sextant.embedding.sparse_bm25 import BM25_K1


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("getUserName", ["getusername", "get", "user", "name"]),
        ("HTTPServer", ["httpserver", "http", "server"]),
        ("parseHTTPResponse", ["parsehttpresponse", "parse", "http", "response"]),
        ("user_id", ["user_id", "user", "id"]),
        ("MAX_RETRY_COUNT", ["max_retry_count", "max", "retry", "count"]),
        ("fetch-blob-content", ["fetch-blob-content", "fetch", "blob", "content"]),
        ("base64Encode", ["base64encode", "base", "64", "encode"]),
        ("utf8", ["utf8", "utf"]),
        ("__init__", ["init"]),
        ("_private", ["private"]),
        ("user", ["user"]),
        ("x = y + 1", []),
        ("größeWert", ["größewert", "größe", "wert"]),
        ("", []),
    ],
)
def test_identifiers_split_into_words(text: str, tokens: list[str]) -> None:
    assert split_code_identifiers(text) == tokens


def test_a_line_of_code_keeps_order_and_repeats() -> None:
    tokens = split_code_identifiers("def load_user(user_id): return self.userRepo.find(user_id)")
    assert tokens == [
        "def", "load_user", "load", "user", "user_id", "user", "id", "return", "self",
        "userrepo", "user", "repo", "find", "user_id", "user", "id",
    ]  # fmt: skip


def test_term_index_is_a_stable_32_bit_hash() -> None:
    # Pinned: the index must never change between processes or releases (stored vectors rely on it).
    assert term_index("user") == 460653212
    assert 0 <= term_index("anything at all") < 2**32


def test_documents_get_saturating_bm25_weights() -> None:
    encoder = SparseEncoder()
    once, thrice = encoder.encode_documents(["retry", "retry retry retry"])
    assert once.indices == thrice.indices == [term_index("retry")]
    assert 0 < once.values[0] < thrice.values[0] < BM25_K1 + 1


def test_longer_documents_weigh_a_term_less() -> None:
    encoder = SparseEncoder()
    short, long = encoder.encode_documents(["retry", "retry " + "filler " * 300])
    index = term_index("retry")
    assert short.values[short.indices.index(index)] > long.values[long.indices.index(index)]


def test_queries_weigh_each_distinct_term_once() -> None:
    vector = SparseEncoder().encode_query("retry retry fetchBlob")
    assert vector.indices == sorted({term_index(t) for t in ["retry", "fetchblob", "fetch", "blob"]})
    assert vector.values == [1.0] * 4


def test_empty_text_gives_an_empty_vector() -> None:
    encoder = SparseEncoder()
    assert encoder.encode_query("").indices == []
    assert encoder.encode_documents([""])[0].values == []


def test_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="BM25"):
        SparseEncoder(b=1.5)


@given(st.lists(st.text(max_size=300), max_size=5), st.text(max_size=200))
def test_indices_are_sorted_unique_and_weights_positive(documents: list[str], query: str) -> None:
    encoder = SparseEncoder()
    vectors = [*encoder.encode_documents(documents), encoder.encode_query(query)]
    assert len(vectors) == len(documents) + 1
    for vector in vectors:
        assert vector.indices == sorted(set(vector.indices))
        assert len(vector.values) == len(vector.indices)
        assert all(0 <= index < 2**32 for index in vector.indices)
        assert all(value > 0 and math.isfinite(value) for value in vector.values)


@given(st.text(alphabet=st.characters(categories=["Lu", "Ll", "Nd", "Pc", "Pd", "Zs"]), max_size=100))
def test_tokens_are_lowercase_and_at_least_two_characters(text: str) -> None:
    for token in split_code_identifiers(text):
        assert token == token.lower()
        assert len(token) >= 2


_PINNED_DOCUMENT = (
    "def fetchBlob(self, blob_id):\n"
    "    return self.HTTPClient.get(blob_id) or fetch_blob_v2(blob_id)  # base64 größeWert"
)


def test_a_document_vector_is_pinned_to_the_bit() -> None:
    # Stored vectors meet queries encoded later: the encoding of a document must never drift, not
    # even in the last bit of a weight (the tokens of each identifier are remembered, the weights
    # summed in one loop; both must give exactly these numbers).
    vector = SparseEncoder().encode_documents([_PINNED_DOCUMENT])[0]
    assert vector.indices == [
        660551976, 937239981, 1013185954, 1384902127, 1489565344, 1510616644, 1882811501, 1898611267,
        2326054622, 2503724062, 2574654989, 3187824194, 3200662798, 3212065678, 3445749139, 3568769609,
        3907951245, 3936681130, 4106543529, 4286524785,
    ]  # fmt: skip
    plain, twice, thrice, five = 1.565314063368538, 1.8291653134134462, 1.9380591878871303, 2.0349761526232113
    assert vector.values == [
        thrice, plain, plain, plain, plain, plain, plain, plain, plain, thrice, twice, plain, plain, twice,
        plain, plain, plain, plain, plain, five,
    ]  # fmt: skip


_CODE_TEXT = st.text(alphabet=st.characters(categories=["Lu", "Ll", "Nd", "Pc", "Pd"]), max_size=40)


@given(st.lists(_CODE_TEXT, max_size=8))
def test_tokens_of_a_text_are_the_tokens_of_its_words_in_order(words: list[str]) -> None:
    # Identifiers are split once and remembered: what a word gives cannot depend on what came before.
    expected = [token for word in words for token in split_code_identifiers(word)]
    assert split_code_identifiers(" ".join(words)) == expected
    assert split_code_identifiers(" ".join(reversed(words))) == [
        token for word in reversed(words) for token in split_code_identifiers(word)
    ]


@given(st.lists(st.text(max_size=200), min_size=1, max_size=5))
def test_a_document_encodes_the_same_alone_or_in_a_batch(documents: list[str]) -> None:
    encoder = SparseEncoder()
    assert encoder.encode_documents(documents) == [encoder.encode_documents([text])[0] for text in documents]
