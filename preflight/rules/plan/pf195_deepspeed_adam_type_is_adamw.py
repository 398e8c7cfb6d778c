"""PF195 deepspeed-adam-type-is-adamw: a DeepSpeed config's optimizer ``"type": "Adam"`` with a non-zero
``weight_decay`` and no ``adam_w_mode``: DeepSpeed builds AdamW (decoupled decay), not L2-regularised Adam."""

from __future__ import annotations

from typing import Any, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_runs import client_optimizer

_W_MODE_KEYS = ("adam_w_mode", "adamw_mode")


def _positive_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return False
    # the L2 scale of torch.optim.Adam ports (1e-5 .. <1e-2): a decay below 1e-5 (the DeepSpeed docs' own
    # example has 3e-7) barely acts in either form; 0.01 and above is the scale AdamW users pick (GPT-style
    # 0.1 with betas (0.9, 0.95)), where "Adam" builds just the AdamW that was meant
    return isinstance(value, (int, float)) and 1e-5 <= value < 1e-2


@register
class DeepSpeedAdamTypeIsAdamW(PlanRule):
    code = "PF195"
    name = "deepspeed-adam-type-is-adamw"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("deepspeed",)
    summary = ("A DeepSpeed config asks for optimizer `\"type\": \"Adam\"` with an L2-scale `weight_decay` and no "
               "`adam_w_mode`: DeepSpeed builds AdamW, so the decay is decoupled, not the L2 penalty of Adam")
    explanation = """
## What it finds

A DeepSpeed config whose `optimizer` block is `"type": "Adam"` (any case) with a numeric
`weight_decay` on the scale of an L2 penalty (1e-5 up to, not including, 0.01: the values
`torch.optim.Adam(weight_decay=...)` recipes use) in its `params`, and no `adam_w_mode` key
saying which Adam it is.

## Why it matters

DeepSpeed's `"Adam"` is AdamW unless told otherwise: `_configure_basic_optimizer` pops
`adam_w_mode` with a default of `True` and builds `FusedAdam(adam_w_mode=True)`,
`DeepSpeedCPUAdam(adamw_mode=True)` under offload, or `torch.optim.AdamW` with
`torch_adam` (deepspeed/runtime/engine.py, every release since 0.3.13; DeepSpeed PR 844
"set adamw_mode default true"). A config ported from `torch.optim.Adam(weight_decay=wd)`
therefore trains with decoupled decay `lr * wd` per step instead of the L2 term `wd * w`
added to the gradient: with Adam's usual `wd` (1e-4 .. 5e-4) and a small learning rate the
regularisation all but vanishes, and the run silently differs from the one it reproduces.
DeepSpeed issue 668 (stas00): "It's clear that AdamW is supported since this is actually
the default, unless I set adam_w_mode: false ... though the user has no idea it's the
case"; DeepSpeed issue 5214 reports the same naming trap.

## How to fix it

Say which optimizer is meant: `"type": "AdamW"` when decoupled decay is wanted (then pick
`weight_decay` on AdamW's scale, e.g. 0.01..0.1), or keep `"type": "Adam"` and add
`"adam_w_mode": false` to `params` for the L2-regularised Adam of `torch.optim.Adam`.

## When preflight stays silent

* `"type": "AdamW"`, or `adam_w_mode`/`adamw_mode` set either way in `params` (or, misplaced,
  beside `type`: the author has thought about the mode).
* `weight_decay` is absent, zero, below 1e-5 (the `3e-7` of DeepSpeed's documented example
  config barely acts as either penalty), 0.01 or more (AdamW's own scale: a GPT-style
  `"weight_decay": 0.1` under `"Adam"` gets the AdamW it was written for, as in
  Megatron-DeepSpeed configs), or `"auto"` (the HF Trainer fills it from `TrainingArguments`,
  whose own optimizer is AdamW).
* A script hands `deepspeed.initialize` its own optimizer: the config block is not built.
"""
    bad_examples = examples("preflight.rules.plan._pf195_examples", "BAD")
    good_examples = examples("preflight.rules.plan._pf195_examples", "GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        hits = []
        for config, block, prefix in pctx.deepspeed_configs():
            optimizer = block.get("optimizer")
            if not isinstance(optimizer, dict):
                continue
            kind = optimizer.get("type")
            params = optimizer.get("params")
            if not isinstance(kind, str) or kind.strip().lower() != "adam" or not isinstance(params, dict):
                continue
            if any(k in params or k in optimizer for k in _W_MODE_KEYS) or not _positive_number(params.get("weight_decay")):
                continue
            hits.append((config, prefix, kind, params["weight_decay"]))
        if not hits or client_optimizer(pctx):
            return
        for config, prefix, kind, decay in hits:
            yield pctx.config_finding(
                self, config, (*prefix, "optimizer", "params", "weight_decay"),
                f"`\"type\": \"{kind}\"` with `weight_decay: {decay}` and no `adam_w_mode`: DeepSpeed's Adam "
                "defaults to adam_w_mode=True, so it builds AdamW and applies the decay decoupled (lr * "
                f"{decay} per step) instead of the L2 penalty of torch.optim.Adam (DeepSpeed issue 668). Write "
                "`\"type\": \"AdamW\"` if that is meant, or add `\"adam_w_mode\": false` to `params` for L2 Adam")
