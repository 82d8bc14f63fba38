"""Reducer core tests: rules R1-R12, peer conformance cases, ids."""
