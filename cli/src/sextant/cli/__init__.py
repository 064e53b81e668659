"""The sextant command and the embedded runtime."""
