# GENERATED FILE — DO NOT EDIT.
# Traced from the classifiers of model/ by `python -m responses_oracle.model.codegen` (model/classgen.py).
# Change a classifier in model/ and rerun that command; a test fails when this file is stale.
"""Fast classifiers: the routing classifiers of ``model.routing``, unrolled.

Each function performs the operations of its classifier on plain values: what
``ops.PYTHON`` would compute, without a method call per operation, and each value
used once written where it is used (so a choice evaluates only the branch it takes).
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
    _v0 = () if not named else (named if named[0] in bound else ()) if len(named) == 1 else [o for o in named if o in bound]
    return ((_SlotView_SHARED if shared else _SlotView_ONE) if bound else _SlotView_NONE), ((((_IdView_ONE_OF_SLOT if (len(_v0) == 1) else _IdView_SEVERAL_OF_SLOT) if _v0 else (_IdView_ONE_OUTSIDE if (len(named) == 1) else _IdView_SEVERAL_OUTSIDE)) if named else _IdView_UNSEEN) if has_id else _IdView_ABSENT)


def route_target(action: RouteAction, bound: Sequence[int], named: Sequence[int]) -> int | None:
    """``model.routing.route_target``: the entry a routed event goes to, or None."""
    _v0 = () if not named else (named if named[0] in bound else ()) if len(named) == 1 else [o for o in named if o in bound]
    _v2 = _v0 if _v0 else named
    return ((bound[0] if bound else None) if (action is _RouteAction_BY_SLOT) else ((_v2[0] if _v2 else None) if (action is _RouteAction_BY_ID) else None))
