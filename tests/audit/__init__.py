"""Audit tests: ``responses-oracle audit`` and ``responses_oracle.audit``."""
