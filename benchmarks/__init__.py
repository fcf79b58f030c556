"""Benchmarks: the figures behind the docs' performance pages (run as modules)."""
