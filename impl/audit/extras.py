"""The optional libraries an audit needs, and the install hint when one is missing.

The reducer itself needs none of them; an audit needs ``pyarrow`` and ``fsspec`` (the
``audit`` extra), ``.zst`` inputs need ``zstandard`` (also ``audit``), ``--engine dask``
needs ``dask.distributed`` (the ``dask`` extra) and ``s3://`` sources need ``s3fs``
(the ``s3`` extra).  ``require`` imports one of them or raises ``MissingExtra`` naming
the extra to install; the command line turns that into exit status 2.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(Exception):
    """An optional library is not installed; the message says which extra brings it."""


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` or raise ``MissingExtra`` with the ``pip install`` line for ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(
            f"{purpose} needs {module.split('.')[0]}: install the {extra} extra "
            f"(pip install 'responses-oracle[{extra}]')"
        ) from None
