"""Tests of the wire front end (responses_oracle.wire)."""
