"""The optional libraries an audit needs: ``responses_oracle.extras``, named here for
the audit's modules (``pyarrow`` and ``fsspec`` in the ``audit`` extra, ``dask`` and
``s3`` for the engine and the sources that need them)."""

from __future__ import annotations

from responses_oracle.extras import MissingExtra, require

__all__ = ["MissingExtra", "require"]
