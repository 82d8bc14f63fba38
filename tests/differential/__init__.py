"""Differential and invariant checks shared by the test folders."""
