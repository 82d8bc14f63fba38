"""The optional libraries of the package, and the install hint when one is missing.

The reducer needs none of them.  ``.zst`` inputs need ``zstandard`` (the ``zst``
extra, also in ``audit``); an audit needs ``pyarrow`` and ``fsspec`` (``audit``),
``--engine dask`` needs ``dask.distributed`` (``dask``) and ``s3://`` sources need
``s3fs`` (``s3``).  ``require`` imports one of them or raises ``MissingExtra`` naming
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
