"""Fakes and builders shared by the test folders; see tests/support/README.md for what lives where."""
