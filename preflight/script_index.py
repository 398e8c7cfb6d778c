"""The per-script index every adapter shares (:class:`ScriptIndex`).

Built once per script on first use: every call with its import-resolved name, the ``if``
tests around it and the name it is assigned to; simple assignments for literal resolution;
and argparse arguments, so ``DataLoader(batch_size=args.batch_size)`` resolves to the
``add_argument`` default or to the value on the launch command (``--batch_size 64``).
Moved out of :mod:`preflight.adapters_api`, which re-exports its names.
"""

from __future__ import annotations

import ast
from typing import Optional

from preflight.script_argv import (
    ArgSpec,
    opaque_words,
)
from preflight.script_index_core import (
    _COMPARE,
    MAX_RESOLVE_DEPTH,
    CallSite,
    Guard,
    Resolved,
    _bool_op,
)
from preflight.script_resolve import _Resolver

__all__ = ["MAX_RESOLVE_DEPTH", "ArgSpec", "CallSite", "Guard", "Resolved", "ScriptIndex", "opaque_words"]


class ScriptIndex(_Resolver):
    """Calls, assignments, imports and argparse arguments of one script, found in one walk."""

    def truth(self, test: ast.expr) -> Optional[bool]:
        """Whether an ``if`` test is statically true, false, or unknown (None)."""
        return self._truth(test)[0]

    def _truth(self, test: ast.expr) -> tuple[Optional[bool], bool]:
        """:meth:`truth`, and whether the answer rests on a value capped below high (what the launcher
        sets in the environment, a reassigned option): such a guard is not known to run at high."""
        saved, self._capped_seen = self._capped_seen, False
        value = self._truth_of(test)
        capped = self._capped_seen
        self._capped_seen = saved or capped
        return value, capped

    def _capped(self, resolved: Optional[Resolved]) -> Optional[Resolved]:
        if resolved is not None and resolved.cap is not None:
            self._capped_seen = True
        return resolved

    def _truth_of(self, test: ast.expr) -> Optional[bool]:
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name) \
                and test.left.id == "__name__":
            return True  # if __name__ == "__main__":
        if isinstance(test, ast.BoolOp):
            values = [self._truth_of(v) for v in test.values]
            is_and = isinstance(test.op, ast.And)
            if is_and and False in values:
                return False
            if not is_and and True in values:
                return True
            return None if None in values else _bool_op(values, is_and)
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _COMPARE:
            left, right = self._capped(self.resolve(test.left)), self._capped(self.resolve(test.comparators[0]))
            if left is None or right is None:
                return None
            try:
                return bool(_COMPARE[type(test.ops[0])](left.value, right.value))
            except TypeError:
                return None
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) \
                and test.func.attr in ("startswith", "endswith") and len(test.args) == 1 and not test.keywords:
            # args.plugin.startswith("torch_ddp"): a str method of a known option value
            arg = test.args[0]
            parts = arg.elts if isinstance(arg, ast.Tuple) else [arg]
            if not all(isinstance(p, ast.Constant) and isinstance(p.value, str) for p in parts):
                return None
            owner = self._capped(self.resolve(test.func.value))
            if owner is None or not isinstance(owner.value, str):
                return None
            affixes = tuple(p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str))
            return owner.value.startswith(affixes) if test.func.attr == "startswith" else owner.value.endswith(affixes)
        resolved = self._capped(self.resolve(test))
        if resolved is None and isinstance(test, ast.Attribute):
            from preflight.script_self_options import self_option  # ``if self.args.enable_lora:``

            resolved = self._capped(self_option(self, test))
        return None if resolved is None else bool(resolved.value)

    def runs(self, site: CallSite) -> Optional[bool]:
        """True: every ``if`` around the call is statically taken; False: one is not; None: unknown."""
        state: Optional[bool] = True
        for test, in_body in site.guards:
            value, capped = self._truth(test)
            if capped:
                value = None  # decided only by a medium value: not known to run (nor not to)
            if value is None:
                state = None
            elif value != in_body:
                return False
        return state
