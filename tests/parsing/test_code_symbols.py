"""Symbols of realistic files in each of the 11 parsed languages."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sextant.parsing import Symbol, parse_symbols

Row = tuple[str, str | None, str | None, int, int]
"""symbol_type, name, parent, start_line, end_line."""

EXPECTED: dict[str, list[Row]] = {
    "inventory.py": [
        ("module", "inventory.py", None, 1, 36),
        ("class", "Item", None, 12, 17),
        ("class", "Inventory", None, 20, 33),
        ("method", "__init__", "Inventory", 23, 24),
        ("method", "size", "Inventory", 26, 29),
        ("method", "add", "Inventory", 31, 33),
        ("function", "restock", None, 36, 41),
    ],
    "cart.js": [
        ("module", "cart.js", None, 1, 29),
        ("class", "Cart", None, 5, 21),
        ("method", "constructor", "Cart", 9, 11),
        ("method", "add", "Cart", 13, 16),
        ("method", "onChange", "Cart", 18, 20),
        ("function", "total", None, 23, 27),
        ("function", "describe", None, 29, 29),
    ],
    "api.ts": [
        ("module", "api.ts", None, 1, 26),
        ("interface", "User", None, 3, 7),
        ("type", "UserId", None, 9, 9),
        ("enum", "Role", None, 11, 14),
        ("class", "UserService", None, 16, 24),
        ("method", "find", "UserService", 20, 23),
        ("function", "isAdmin", None, 26, 28),
    ],
    "Button.tsx": [
        ("module", "Button.tsx", None, 1, 10),
        ("type", "Props", None, 3, 3),
        ("function", "Button", None, 5, 8),
        ("function", "Toolbar", None, 10, 16),
    ],
    "server.go": [
        ("module", "server.go", None, 1, 23),
        ("struct", "Server", None, 7, 10),
        ("interface", "Handler", None, 12, 15),
        ("function", "NewServer", None, 17, 20),
        ("method", "Start", "Server", 22, 25),
    ],
    "OrderController.java": [
        ("module", "OrderController.java", None, 1, 26),
        ("class", "OrderController", None, 5, 24),
        ("constructor", "OrderController", "OrderController", 13, 15),
        ("method", "list", "OrderController", 17, 21),
        ("enum", "Status", "OrderController", 23, 23),
        ("interface", "OrderRepository", None, 26, 28),
        ("method", "findAll", "OrderRepository", 27, 27),
    ],
    "shapes.rs": [
        ("module", "shapes.rs", None, 1, 32),
        ("struct", "Point", None, 3, 8),
        ("trait", "Area", None, 10, 12),
        ("method", "area", "Area", 11, 11),
        ("impl", "Point", None, 14, 19),
        ("method", "norm", "Point", 15, 18),
        ("impl", "Point", None, 21, 25),
        ("method", "fmt", "Point", 22, 24),
        ("enum", "Shape", None, 27, 30),
        ("module", "tests", None, 32, 34),
        ("function", "origin", "tests", 33, 33),
    ],
    "ring.c": [
        ("module", "ring.c", None, 1, 22),
        ("struct", "ring_t", None, 5, 9),
        ("struct", "node", None, 11, 13),
        ("function", "ring_push", None, 15, 20),
        ("function", "ring_new", None, 22, 24),
    ],
    "matrix.cpp": [
        ("module", "matrix.cpp", None, 1, 23),
        ("namespace", "linalg", None, 3, 21),
        ("class", "Matrix", None, 5, 14),
        ("method", "at", "Matrix", 9, 9),
        ("function", "square", None, 16, 19),
        ("method", "Matrix", "linalg::Matrix", 23, 23),
    ],
    "Accounts.cs": [
        ("module", "Accounts.cs", None, 1, 3),
        ("namespace", "Bank.Accounts", None, 3, 30),
        ("class", "Account", None, 5, 22),
        ("constructor", "Account", "Account", 11, 14),
        ("method", "Deposit", "Account", 16, 21),
        ("interface", "IAuditable", None, 24, 27),
        ("method", "Audit", "IAuditable", 26, 26),
        ("record", "Transfer", None, 29, 29),
    ],
    "greeter.rb": [
        ("module", "greeter.rb", None, 1, 24),
        ("module", "Greeting", None, 3, 22),
        ("class", "Greeter", "Greeting", 5, 21),
        ("method", "initialize", "Greeter", 9, 11),
        ("method", "greet", "Greeter", 13, 16),
        ("method", "default", "Greeter", 18, 20),
        ("function", "shout", None, 24, 26),
    ],
    "UserRepository.php": [
        ("module", "UserRepository.php", None, 1, 27),
        ("class", "UserRepository", None, 7, 20),
        ("method", "find", "UserRepository", 15, 19),
        ("interface", "Finder", None, 22, 25),
        ("method", "find", "Finder", 24, 24),
        ("function", "helper", None, 27, 30),
    ],
}


def _by_name(symbols: list[Symbol], name: str, symbol_type: str | None = None) -> Symbol:
    return next(s for s in symbols if s.name == name and symbol_type in (None, s.symbol_type))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_symbols_of_each_language(name: str, sample: Callable[[str], str]) -> None:
    symbols = parse_symbols(f"src/{name}", sample(name))
    rows = [(s.symbol_type, s.name, s.parent, s.start_line, s.end_line) for s in symbols]
    assert rows == EXPECTED[name]


def test_python_docstrings_decorators_package_and_outline(sample: Callable[[str], str]) -> None:
    symbols = parse_symbols("src/shop/inventory.py", sample("inventory.py"))
    module = symbols[0]
    assert module.package == "shop.inventory"
    assert module.docstring == "Inventory bookkeeping for the warehouse."
    assert "DEFAULT_QUANTITY = 1" in module.source
    assert "import logging" in module.source
    item = _by_name(symbols, "Item")
    assert item.annotations == ("@dataclass(frozen=True)",)
    assert item.docstring == "One stock-keeping unit."
    assert item.signature == "class Item:"
    inventory = _by_name(symbols, "Inventory")
    # The class outline keeps its own lines and member headers; member bodies live in their symbols.
    assert "def size(self) -> int:" in inventory.source
    assert "return len(self._items)" not in inventory.source
    size = _by_name(symbols, "size")
    assert size.annotations == ("@property",)
    assert size.docstring == "Number of distinct SKUs."
    assert "return len(self._items)" in size.source
    assert _by_name(symbols, "add").docstring is None
    restock = _by_name(symbols, "restock")
    assert restock.signature == "def restock(inventory: Inventory, sku: str, quantity: int) -> Item:"
    assert restock.docstring == "Put `quantity` units of `sku` back on the shelf."
    assert all(s.language == "python" for s in symbols)


def test_javascript_and_typescript_details(sample: Callable[[str], str]) -> None:
    cart = parse_symbols("cart.js", sample("cart.js"))
    assert _by_name(cart, "Cart").docstring == "A shopping cart that sums line items."
    assert _by_name(cart, "add").docstring == "Adds a product line."
    assert _by_name(cart, "describe").signature == "export const describe = (cart) =>"
    api = parse_symbols("api.ts", sample("api.ts"))
    service = _by_name(api, "UserService")
    assert service.annotations == ('@Injectable({ providedIn: "root" })',)
    assert service.signature == "export class UserService"
    assert _by_name(api, "find").docstring == "Look a user up by id."
    assert _by_name(api, "User").docstring == "A user of the system."
    tsx = parse_symbols("Button.tsx", sample("Button.tsx"))
    assert _by_name(tsx, "Button").docstring == "A clickable button."
    assert all(s.language == "typescript" for s in api + tsx)


def test_go_java_rust_details(sample: Callable[[str], str]) -> None:
    go = parse_symbols("server.go", sample("server.go"))
    assert {s.package for s in go} == {"httpapi"}
    assert _by_name(go, "Start").signature == "func (s *Server) Start() error"
    assert _by_name(go, "Server").signature == "type Server struct"
    assert _by_name(go, "NewServer").docstring == "NewServer builds a server listening on addr."
    java = parse_symbols("OrderController.java", sample("OrderController.java"))
    controller = _by_name(java, "OrderController", "class")
    assert controller.package == "com.example.orders"
    assert controller.annotations == ("@RestController", '@RequestMapping("/orders")')
    assert controller.docstring == "REST endpoints for orders."
    listing = _by_name(java, "list")
    assert listing.annotations == ("@GetMapping",)
    assert listing.docstring == "Lists all orders."
    rust = parse_symbols("shapes.rs", sample("shapes.rs"))
    point = _by_name(rust, "Point", "struct")
    assert point.annotations == ("#[derive(Debug, Clone)]",)
    assert point.docstring == "A point in the plane."
    assert _by_name(rust, "norm").docstring == "Distance from the origin."
    display = [s for s in rust if s.symbol_type == "impl"][1]
    assert display.signature == "impl fmt::Display for Point"


def test_c_family_details(sample: Callable[[str], str]) -> None:
    c = parse_symbols("ring.c", sample("ring.c"))
    assert _by_name(c, "ring_t").docstring == "A fixed-size ring buffer."
    assert _by_name(c, "ring_push").signature == "int ring_push(ring_t *ring, int value)"
    assert _by_name(c, "ring_push").docstring == "Push a value; returns 0 when full."
    module = c[0]
    assert "#define RING_CAPACITY 64" in module.source
    cpp = parse_symbols("matrix.cpp", sample("matrix.cpp"))
    assert _by_name(cpp, "Matrix", "class").package == "linalg"
    assert _by_name(cpp, "Matrix", "class").docstring == "A dense matrix of doubles."
    assert _by_name(cpp, "square").start_line == 16  # the template line belongs to the function
    cs = parse_symbols("Accounts.cs", sample("Accounts.cs"))
    account = _by_name(cs, "Account", "class")
    assert account.package == "Bank.Accounts"
    assert account.annotations == ("[Serializable]",)
    assert account.docstring == "<summary>A bank account.</summary>"
    assert "public decimal Balance { get; private set; }" in account.source
    deposit = _by_name(cs, "Deposit")
    assert deposit.annotations == ('[Obsolete("use Credit")]',)
    assert deposit.signature == '[Obsolete("use Credit")]\npublic void Deposit(decimal amount)'


def test_a_cpp_header_with_h_extension_is_parsed_as_cpp(sample: Callable[[str], str]) -> None:
    symbols = parse_symbols("include/vec.h", sample("vec.h"))
    rows = [(s.symbol_type, s.name, s.parent, s.package, s.start_line, s.end_line) for s in symbols]
    assert rows == [
        ("module", "vec.h", None, None, 1, 4),
        ("namespace", "geo", None, None, 4, 17),
        ("class", "Vec", None, "geo", 6, 15),
        ("method", "Vec", "Vec", "geo", 10, 10),
        ("method", "x", "Vec", "geo", 11, 11),
    ]
    assert {s.language for s in symbols} == {"cpp"}
    assert parse_symbols("ring.h", sample("ring.c"))[1].language == "c"


def test_ruby_and_php_details(sample: Callable[[str], str]) -> None:
    ruby = parse_symbols("greeter.rb", sample("greeter.rb"))
    assert _by_name(ruby, "Greeting").docstring == "Greets people politely."
    assert _by_name(ruby, "Greeter").docstring == "A greeter with a fixed salutation."
    assert _by_name(ruby, "greet").signature == "def greet(name)"
    assert "attr_reader :salutation" in _by_name(ruby, "Greeter").source
    php = parse_symbols("UserRepository.php", sample("UserRepository.php"))
    repository = _by_name(php, "UserRepository")
    assert repository.package == "App\\Repositories"
    assert repository.annotations == ("#[Repository]",)
    assert repository.docstring == "Loads users from the database."
    assert _by_name(php, "find").docstring == "Find a user by id."
    assert repository.signature == "#[Repository]\nfinal class UserRepository"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_non_blank_line_is_in_some_symbol_source(name: str, sample: Callable[[str], str]) -> None:
    text = sample(name)
    symbols = parse_symbols(name, text)
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            assert any(s.start_line <= number <= s.end_line and line in s.source for s in symbols), number


def test_parsing_is_deterministic(sample: Callable[[str], str]) -> None:
    text = sample("shapes.rs")
    assert parse_symbols("shapes.rs", text) == parse_symbols("shapes.rs", text)


def test_go_type_aliases_are_types_the_package_declares() -> None:
    source = (
        "package cli\n"
        "\n"
        "// BoolFlag is a flag with type bool.\n"
        "type BoolFlag = FlagBase[bool, BoolConfig, boolValue]\n"
        "\n"
        "type (\n"
        "\tStringFlag = FlagBase[string, StringConfig, stringValue]\n"
        "\tValue      struct{ raw string }\n"
        ")\n"
    )
    symbols = parse_symbols("flag_bool.go", source)
    alias = _by_name(symbols, "BoolFlag")
    assert (alias.symbol_type, alias.start_line, alias.end_line) == ("type", 3, 4)
    assert alias.signature == "type BoolFlag = FlagBase[bool, BoolConfig, boolValue]"
    assert alias.docstring == "BoolFlag is a flag with type bool."
    assert _by_name(symbols, "StringFlag").symbol_type == "type"
    assert _by_name(symbols, "Value").symbol_type == "struct"
