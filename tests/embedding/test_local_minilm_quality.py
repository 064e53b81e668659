"""The real local model: shape, determinism and retrieval quality on code written here."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from sextant.embedding import LocalMiniLM

pytestmark = pytest.mark.model

FUNCTIONS = {
    "parse_iso_date": "def parse_iso_date(text):\n    return datetime.strptime(text, '%Y-%m-%d').date()",
    "read_json_file": ("def read_json_file(path):\n    with open(path) as handle:\n        return json.load(handle)"),
    "send_email": (
        "def send_email(smtp, sender, recipient, subject, body):\n"
        "    message = EmailMessage()\n    message['From'] = sender\n    message['To'] = recipient\n"
        "    message['Subject'] = subject\n    message.set_content(body)\n    smtp.send_message(message)"
    ),
    "hash_password": (
        "def hash_password(password, salt):\n    return hashlib.pbkdf2_hmac('sha256', password.encode(), salt, 600_000)"
    ),
    "binary_search": (
        "def binary_search(items, target):\n    low, high = 0, len(items) - 1\n    while low <= high:\n"
        "        middle = (low + high) // 2\n        if items[middle] == target:\n            return middle\n"
        "        if items[middle] < target:\n            low = middle + 1\n        else:\n"
        "            high = middle - 1\n    return -1"
    ),
    "resize_image": (
        "def resize_image(path, width, height):\n    image = Image.open(path)\n"
        "    return image.resize((width, height), Image.LANCZOS)"
    ),
    "download_file": (
        "def download_file(url, destination):\n    response = requests.get(url, stream=True, timeout=30)\n"
        "    with open(destination, 'wb') as out:\n        for block in response.iter_content(8192):\n"
        "            out.write(block)"
    ),
    "count_words": "def count_words(text):\n    return Counter(text.lower().split())",
    "fibonacci": ("def fibonacci(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a"),
    "is_prime": (
        "def is_prime(number):\n    if number < 2:\n        return False\n"
        "    return all(number % divisor for divisor in range(2, int(number ** 0.5) + 1))"
    ),
    "connect_database": (
        "def connect_database(dsn):\n    connection = psycopg.connect(dsn)\n"
        "    connection.autocommit = True\n    return connection"
    ),
    "reverse_string": "def reverse_string(value):\n    return value[::-1]",
    "merge_dicts": (
        "def merge_dicts(first, second):\n    merged = dict(first)\n    merged.update(second)\n    return merged"
    ),
    "flatten_list": "def flatten_list(nested):\n    return [item for sublist in nested for item in sublist]",
    "validate_email": (
        "def validate_email(address):\n    return re.fullmatch(r'[^@\\s]+@[^@\\s]+\\.[a-z]{2,}', address) is not None"
    ),
    "compress_bytes": "def compress_bytes(data):\n    return gzip.compress(data, compresslevel=9)",
    "retry_with_backoff": (
        "def retry_with_backoff(operation, attempts=5):\n    for attempt in range(attempts):\n"
        "        try:\n            return operation()\n        except ConnectionError:\n"
        "            time.sleep(2 ** attempt)\n    raise RuntimeError('gave up')"
    ),
    "celsius_to_fahrenheit": "def celsius_to_fahrenheit(celsius):\n    return celsius * 9 / 5 + 32",
    "read_csv_rows": (
        "def read_csv_rows(path):\n    with open(path, newline='') as handle:\n"
        "        return list(csv.DictReader(handle))"
    ),
    "generate_uuid": "def generate_uuid():\n    return str(uuid.uuid4())",
    "sort_by_age": "def sort_by_age(people):\n    return sorted(people, key=lambda person: person.age)",
    "http_get_json": (
        "async def http_get_json(client, url):\n    response = await client.get(url)\n"
        "    response.raise_for_status()\n    return response.json()"
    ),
    "matrix_multiply": (
        "def matrix_multiply(a, b):\n"
        "    return [[sum(x * y for x, y in zip(row, column)) for column in zip(*b)] for row in a]"
    ),
    "slugify": (
        "def slugify(title):\n    text = re.sub(r'[^a-z0-9]+', '-', title.lower())\n    return text.strip('-')"
    ),
    "calculate_average": "def calculate_average(numbers):\n    return sum(numbers) / len(numbers)",
}

QUERIES = {
    "turn a date string into a date object": "parse_iso_date",
    "load configuration from a JSON file on disk": "read_json_file",
    "send an email message to a user": "send_email",
    "securely hash a user's password": "hash_password",
    "find the position of a value in a sorted list": "binary_search",
    "make a picture smaller": "resize_image",
    "save a file from the internet to disk": "download_file",
    "check whether a number is prime": "is_prime",
    "open a connection to the postgres database": "connect_database",
    "convert temperature from celsius to fahrenheit": "celsius_to_fahrenheit",
    "try the operation again after waiting longer each time": "retry_with_backoff",
    "make a URL-friendly version of a title": "slugify",
}


def _cosine(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    return matrix @ vector  # rows are unit-length


async def test_vectors_have_384_dimensions_and_unit_length(minilm: LocalMiniLM) -> None:
    vectors = np.array(await minilm.embed(["def f(): pass", "", "x" * 5000]))
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


async def test_embedding_is_deterministic_whatever_the_batch(minilm: LocalMiniLM) -> None:
    texts = list(FUNCTIONS.values())
    alone = [await minilm.embed_query(text) for text in texts[:5]]
    batched = await minilm.embed(texts)
    again = await minilm.embed(list(reversed(texts)))
    assert np.allclose(alone, batched[:5], atol=1e-5)
    assert np.allclose(batched, list(reversed(again)), atol=1e-5)


async def test_similar_code_scores_above_unrelated_code(minilm: LocalMiniLM) -> None:
    pairs = [
        (
            FUNCTIONS["read_json_file"],
            "def load_json(filename):\n    return json.loads(Path(filename).read_text())",
        ),
        (
            FUNCTIONS["fibonacci"],
            "def fib(k):\n    if k < 2:\n        return k\n    return fib(k - 1) + fib(k - 2)",
        ),
        (
            FUNCTIONS["validate_email"],
            "function isValidEmail(s) { return /^[^@]+@[^@]+\\.[a-z]+$/.test(s); }",
        ),
    ]
    unrelated = [FUNCTIONS["matrix_multiply"], FUNCTIONS["generate_uuid"], FUNCTIONS["send_email"]]
    for (left, right), other in zip(pairs, unrelated, strict=True):
        left_vector, right_vector, other_vector = np.array(await minilm.embed([left, right, other]))
        similar = float(left_vector @ right_vector)
        assert similar > float(left_vector @ other_vector) + 0.1
        assert similar > float(right_vector @ other_vector) + 0.1


async def test_plain_english_finds_the_right_function_among_many(minilm: LocalMiniLM) -> None:
    names = list(FUNCTIONS)
    corpus = np.array(await minilm.embed(list(FUNCTIONS.values())))
    top_one = 0
    for query, expected in QUERIES.items():
        scores = _cosine(corpus, np.array(await minilm.embed_query(query)))
        ranked = [names[index] for index in np.argsort(-scores)]
        assert expected in ranked[:3], (query, ranked[:3])
        top_one += ranked[0] == expected
    assert top_one >= len(QUERIES) - 1


async def test_order_is_kept_and_calls_are_counted(minilm: LocalMiniLM) -> None:
    embedder = LocalMiniLM(batch_size=3)
    texts = ["short", "a much longer text " * 10, "mid length text", "x", "another one"]
    vectors = await embedder.embed(texts)
    assert embedder.calls == 2
    assert await embedder.embed([]) == []
    assert embedder.calls == 2
    for text, vector in zip(texts, vectors, strict=True):
        assert np.allclose(vector, await minilm.embed_query(text), atol=1e-5)


async def test_concurrent_callers_share_one_model(minilm: LocalMiniLM) -> None:
    texts = list(FUNCTIONS.values())[:8]
    first, second = await asyncio.gather(minilm.embed(texts), LocalMiniLM(batch_size=2).embed(texts))
    assert np.allclose(first, second, atol=1e-5)
