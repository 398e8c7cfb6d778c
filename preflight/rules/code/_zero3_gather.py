"""Shared by the rules on ZeRO-3 partitioned parameters (PF236, PF298): code under GatheredParameters,
branches that ask about ZeRO-3."""

from __future__ import annotations

import ast

from preflight.analysis.context import FileContext


def under_gathered_parameters(ctx: FileContext, node: ast.AST) -> bool:
    """``node`` runs inside ``with deepspeed.zero.GatheredParameters(...)`` (or any ``with`` naming it)."""
    for anc in ctx.ancestors(node):
        if isinstance(anc, ast.With) and any("GatheredParameters" in ast.unparse(i.context_expr) for i in anc.items):
            return True
    return False


_ZERO_WORDS = ("zero", "stage", "ds_config", "deepspeed")


def branches_on_zero(ctx: FileContext, node: ast.AST, config_names: set[str]) -> bool:
    """``node`` lies in either branch of an ``if`` that asks about ZeRO-3 (``if dschf is not None:``
    where ``dschf = HfDeepSpeedConfig(...)``, ``if args.zero_stage == 3:``): the code handles the
    partitioned case on its own (OpenRLHF's value-head initialisation)."""
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.If, ast.IfExp)):
            test = ast.unparse(anc.test)
            if any(w in test.lower() for w in _ZERO_WORDS) or any(
                    isinstance(n, ast.Name) and n.id in config_names for n in ast.walk(anc.test)):
                return True
    return False
