"""The package's own tests."""
