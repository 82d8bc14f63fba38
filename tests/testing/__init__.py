"""Tests of the testing toolkit: generators, profiles, harness, vectors, CLI."""
