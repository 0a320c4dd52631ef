"""Benchmarks (not an app): ``make bench`` runs them; each may import any layer."""
