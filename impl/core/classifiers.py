# GENERATED FILE — DO NOT EDIT.
# Traced from the classifiers of model/ by `python -m responses_oracle.model.codegen` (model/classgen.py).
# Change a classifier in model/ and rerun that command; a test fails when this file is stale.
"""Fast classifiers: the routing classifiers of ``model.routing``, unrolled.

Each function performs the operations of its classifier, in order, on plain values:
what ``ops.PYTHON`` would compute, without a method call per operation.
"""

from __future__ import annotations

from collections.abc import Sequence

from responses_oracle.model.vocabulary import IdView, RouteAction, SlotView

_IdView_ABSENT = IdView.ABSENT
_IdView_ONE_OF_SLOT = IdView.ONE_OF_SLOT
_IdView_ONE_OUTSIDE = IdView.ONE_OUTSIDE
_IdView_SEVERAL_OF_SLOT = IdView.SEVERAL_OF_SLOT
_IdView_SEVERAL_OUTSIDE = IdView.SEVERAL_OUTSIDE
_IdView_UNSEEN = IdView.UNSEEN
_RouteAction_BY_ID = RouteAction.BY_ID
_RouteAction_BY_SLOT = RouteAction.BY_SLOT
_SlotView_NONE = SlotView.NONE
_SlotView_ONE = SlotView.ONE
_SlotView_SHARED = SlotView.SHARED


def route_views(bound: Sequence[int], named: Sequence[int], shared: bool, has_id: bool) -> tuple[SlotView, IdView]:
    """``model.routing.route_views``: the routing cell of a payload event."""
    _v0 = [] if not named else ([named[0]] if named[0] in bound else []) if len(named) == 1 else [o for o in named if o in bound]
    _v1 = not bound
    _v2 = _SlotView_SHARED if shared else _SlotView_ONE
    _v3 = _SlotView_NONE if _v1 else _v2
    _v4 = not has_id
    _v5 = not named
    _v6 = not _v0
    _v7 = len(named) == 1
    _v8 = _IdView_ONE_OUTSIDE if _v7 else _IdView_SEVERAL_OUTSIDE
    _v9 = len(_v0) == 1
    _v10 = _IdView_ONE_OF_SLOT if _v9 else _IdView_SEVERAL_OF_SLOT
    _v11 = _v8 if _v6 else _v10
    _v12 = _IdView_UNSEEN if _v5 else _v11
    _v13 = _IdView_ABSENT if _v4 else _v12
    return _v3, _v13


def route_target(action: RouteAction, bound: Sequence[int], named: Sequence[int]) -> int | None:
    """``model.routing.route_target``: the entry a routed event goes to, or None."""
    _v0 = [] if not named else ([named[0]] if named[0] in bound else []) if len(named) == 1 else [o for o in named if o in bound]
    _v1 = not _v0
    _v2 = named if _v1 else _v0
    _v3 = _v2[0] if _v2 else None
    _v4 = action is _RouteAction_BY_SLOT
    _v5 = bound[0] if bound else None
    _v6 = action is _RouteAction_BY_ID
    _v7 = _v3 if _v6 else None
    _v8 = _v5 if _v4 else _v7
    return _v8
