"""STSA benchmarks: `make bench` (python -m bench) prints a table and writes build/bench.json."""
