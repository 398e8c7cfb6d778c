"""PF460 zero3-rank-file-loaded-as-weights: the ``module`` entry of a ZeRO-3 rank file loaded as a model."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls
from preflight.rules.base import Rule, examples


def _names_rank_file(expr: Optional[ast.AST]) -> bool:
    """The expression spells a ZeRO-3 model-states file: ``zero_pp_rank_<r>_mp_rank_<m>_model_states.pt``
    (a literal, an f-string, an ``os.path.join`` of parts). Stages 0-2 name theirs
    ``mp_rank_<m>_model_states.pt``; the ``zero_pp_rank`` prefix on model states is stage 3 only."""
    if expr is None:
        return False
    text = ast.unparse(expr)
    return "zero_pp_rank" in text and "model_states" in text


def _assigned(fn: ast.AST, name: str, before: int) -> Optional[ast.AST]:
    """The value last assigned to ``name`` in ``fn`` above line ``before``."""
    found = None
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and node.lineno < before \
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets) \
                and (found is None or node.lineno >= found.lineno):
            found = node
    return found.value if found is not None else None


@register
class Zero3RankFileLoadedAsWeights(Rule):
    code = "PF460"
    needs_text = ("zero_pp_rank",)
    name = "zero3-rank-file-loaded-as-weights"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "pytorch")
    summary = "The `module` entry of a ZeRO-3 rank file holds empty placeholders, not the model's weights"
    explanation = """
## What it finds

`model.load_state_dict(state["module"])` where `state = torch.load(...)` of a
DeepSpeed checkpoint file named `zero_pp_rank_<r>_mp_rank_<m>_model_states.pt`
(directly, through a name bound to the path, or a name bound to `state["module"]`).

## Why it matters

DeepSpeed names a checkpoint's model-states file `zero_pp_rank_...` only under ZeRO
stage 3 (stages 0-2 write `mp_rank_00_model_states.pt`). At stage 3 every parameter
is partitioned across the ranks and the `module` entry of that file holds the
placeholders: `tensor([], dtype=torch.float16)` for every weight (DeepSpeed issue
2413, Baichuan-7B issue 132, chatglm_finetuning issue 212: "weights of size 0").
Loading it fails with shape mismatches, or, with `strict=False`, leaves a model of
random weights that serves predictions.

## How to fix it

Consolidate the shards first: `get_fp32_state_dict_from_zero_checkpoint(ckpt_dir, tag)`
(`deepspeed.utils.zero_to_fp32`), `python zero_to_fp32.py ckpt_dir out.bin`, or save a
16-bit model at the end of training (`engine.save_16bit_model(...)` with
`stage3_gather_16bit_weights_on_model_save: true`).

## When preflight stays silent

* The file is `mp_rank_00_model_states.pt` (ZeRO 0-2: the `module` entry is the model).
* Other entries of the rank file are read (`param_shapes`, `buffer_names`, `ds_config`:
  what `zero_to_fp32.py` itself reads), or the optimizer-states files.
"""
    bad_examples = examples("preflight.rules.code._pf460_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf460_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        loads: list[ast.Call] = []
        for call, qual in calls(ctx):
            if qual not in ("torch.load",) and not (qual == "" and ast.unparse(call.func) == "torch.load"):
                continue
            path: Optional[ast.AST] = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "f"), None)
            if path is None:
                continue
            fn = ctx.enclosing_function(call) or ctx.tree
            if isinstance(path, ast.Name):
                path = _assigned(fn, path.id, call.lineno) or path
            if _names_rank_file(path):
                loads.append(call)
        for load in loads:
            fn = ctx.enclosing_function(load) or ctx.tree
            parent = ctx.parent(load)
            states: set[str] = set()
            direct: set[int] = {id(load)}
            if isinstance(parent, ast.Assign):
                states = {t.id for t in parent.targets if isinstance(t, ast.Name)}
            modules: set[str] = set()  # names bound to state["module"]
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and self._entry(node.value, states, direct):
                    modules |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            for node in ast.walk(fn):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "load_state_dict" and node.args):
                    continue
                given = node.args[0]
                if self._entry(given, states, direct) or (isinstance(given, ast.Name) and given.id in modules):
                    yield ctx.finding(
                        self, node,
                        "this loads the `module` entry of a `zero_pp_rank_*_model_states.pt` file, which "
                        "DeepSpeed writes only under ZeRO stage 3, where every parameter in it is an empty "
                        "partition placeholder (`tensor([])`): the model gets no weights (shape errors, or "
                        "random weights with strict=False). Consolidate the shards first with "
                        "`get_fp32_state_dict_from_zero_checkpoint(ckpt_dir, tag)` or `zero_to_fp32.py`",
                        evidence=[ctx.evidence(load, "the ZeRO-3 rank file is loaded here")])

    @staticmethod
    def _entry(expr: ast.AST, states: set[str], direct: set[int]) -> bool:
        """``state["module"]`` / ``state.get("module")`` of the loaded file (a name, or the load call)."""
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and expr.slice.value == "module":
            base = expr.value
        elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "get" \
                and expr.args and isinstance(expr.args[0], ast.Constant) and expr.args[0].value == "module":
            base = expr.func.value
        else:
            return False
        return (isinstance(base, ast.Name) and base.id in states) or id(base) in direct
