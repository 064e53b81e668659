"""Event vocabulary: msgspec Structs, subjects, codec."""
