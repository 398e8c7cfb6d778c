"""PF358 fsdp-prepare-rebuilds-optimizer: on accelerate 0.12-0.24 an optimizer prepared in one call with the
model under FSDP is rebuilt as ``type(opt)(model.parameters(), **opt.defaults)``; a bitsandbytes optimizer
loses the constructor arguments that are not in ``defaults`` (``optim_bits=8``, ``is_paged=True``...)."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.syntax import own_nodes
from preflight.diagnostics import Category, Evidence, Finding, Severity
from preflight.loaders import load_config_file
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import examples
from preflight.sources import ParsedPython

# bitsandbytes optimizer arguments kept in ``self.args`` / the class, never in ``defaults``
# (bitsandbytes/optim/optimizer.py: Optimizer1State/Optimizer2State build
# ``defaults = dict(lr=..., betas=..., eps=..., weight_decay=...)``)
_LOST = ("optim_bits", "is_paged", "min_8bit_size", "percentile_clipping", "block_wise", "max_unorm",
         "skip_zeros", "args")


def _fsdp_config(pctx: PlanContext) -> Optional[tuple[str, int]]:
    """(path, line) of the accelerate config that runs FSDP (given, or named by ``--config_file``), or of
    ``--use_fsdp`` on the launch line as ("launch line", 0)."""
    from pathlib import Path

    configs = list(pctx.configs)
    argv = list(pctx.project.argv)
    if "--use_fsdp" in argv:
        return "the launch line (`--use_fsdp`)", 0
    for i, tok in enumerate(argv[:-1]):
        if tok in ("--config_file", "--config-file"):
            path = Path(pctx.project.root) / argv[i + 1]
            if not any(Path(c.path).name == path.name for c in configs) and pctx.project.may_read(path):
                loaded = load_config_file(path, path.name)
                if loaded is not None:
                    configs.append(loaded)
    for config in configs:
        data = config.data if isinstance(config.data, dict) else {}
        if str(data.get("distributed_type", "")).upper() == "FSDP":
            return config.path, config.line_of(("distributed_type",), nearest=True) or 1
    return None


def _rebuilt(pctx: PlanContext, tree: ast.AST, script: ParsedPython) -> Iterable[tuple[ast.Call, str, list[str], ast.Call]]:
    """(optimizer call, name, lost arguments, the prepare call that takes it with the model)."""
    ctx = pctx.file_context(script)
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
            continue
        nodes = list(own_nodes(fn))
        prepares = [n for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                    and n.func.attr == "prepare" and "accelerator" in ast.unparse(n.func.value).lower()]
        for node in nodes:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and isinstance(node.value, ast.Call)):
                continue
            call = node.value
            if not qualify(ctx, call.func).startswith("bitsandbytes.optim."):
                continue
            lost = [k.arg for k in call.keywords if k.arg in _LOST
                    and not (isinstance(k.value, ast.Constant) and k.value.value in (None, False, 32))]
            if not lost or not call.args:
                continue
            owners = {c.func.value.id for c in ast.walk(call.args[0]) if isinstance(c, ast.Call)
                      and isinstance(c.func, ast.Attribute) and c.func.attr in ("parameters", "named_parameters")
                      and isinstance(c.func.value, ast.Name)}
            name = node.targets[0].id
            for prep in prepares:
                given = {a.id for a in prep.args if isinstance(a, ast.Name)}
                if prep.lineno > call.lineno and name in given and owners & given:
                    yield call, name, lost, prep
                    break


@register
class FsdpPrepareRebuildsOptimizer(PlanRule):
    code = "PF358"
    name = "fsdp-prepare-rebuilds-optimizer"
    severity = Severity.ERROR
    category = Category.MEMORY
    frameworks = ("accelerate",)
    summary = ("accelerate 0.12-0.24 under FSDP rebuilds an optimizer prepared with the model from its "
               "`defaults`: a bitsandbytes optimizer loses `optim_bits=8` / `is_paged=True` and runs 32-bit")
    explanation = """
## What it finds

A project that pins accelerate to a release from 0.12 to 0.24, runs FSDP (an accelerate
config with `distributed_type: FSDP`, or `--use_fsdp`), and passes a bitsandbytes optimizer
built with arguments such as `optim_bits=8`, `is_paged=True`, `min_8bit_size=...`,
`percentile_clipping=...` or `block_wise=...` to the same `accelerator.prepare(...)` call as
the model whose parameters it holds.

## Why it matters

On those releases `Accelerator.prepare` hands a call with one model and an optimizer under
FSDP to `_prepare_fsdp`, which replaces the optimizer by
`obj.optimizer.__class__(model.parameters(), **obj.optimizer.defaults)`
(accelerate/accelerator.py, v0.12.0 to v0.24.1; removed in 0.25 by PR 2177). bitsandbytes
keeps `optim_bits`, `is_paged` and the other quantisation settings outside `defaults` (its
`Optimizer2State` builds `defaults` from lr, betas, eps and weight decay only), so the rebuilt
`bnb.optim.AdamW` is a 32-bit, unpaged Adam: 8 bytes of state per parameter instead of 2, and
the job sized for 8-bit states runs out of memory or pages nothing (accelerate issue 1902:
"Accelerator#_prepare_fsdp turns AdamW 8-bit optimizer into AdamW 32-bit"; the maintainer:
prepare the model first, then build the optimizer).

## How to fix it

Prepare the model alone first (`model = accelerator.prepare(model)`), then build the
bitsandbytes optimizer on the prepared model's parameters and prepare it separately; or use a
class that fixes the setting itself (`bnb.optim.AdamW8bit`, `PagedAdamW8bit`); or upgrade
accelerate to 0.25 or later.

## When preflight stays silent

* accelerate is not pinned, or pinned outside 0.12-0.24; no FSDP.
* The optimizer is prepared in another call than the model, or built from the prepared model.
* The optimizer is a torch optimizer (its arguments are all in `defaults`), or a bitsandbytes
  class whose 8-bit / paged setting is fixed by the class (`AdamW8bit`, `PagedAdamW8bit`), with
  no such argument given.
"""
    bad_examples = examples("preflight.rules.plan._pf358_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.plan._pf358_examples", "GOOD_EXAMPLES")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        where = None
        for script in pctx.project.scripts:
            text = script.text if script.text is not None else script.source.text
            if "bitsandbytes" not in text or "prepare" not in text:
                continue
            version = pctx.version("accelerate", script)
            if version is None or version.how != "pinned" or not version.at_least(0, 12) or version.at_least(0, 25):
                continue
            found = list(_rebuilt(pctx, script.tree, script))
            if not found:
                continue
            if where is None:
                where = _fsdp_config(pctx)
                if where is None:
                    return
            path, line = where
            for call, name, lost, prep in found:
                evidence = [Evidence(line=prep.lineno, path=script.source.display,
                                     message=f"`{name}` is prepared with the model here")]
                if line:
                    evidence.append(Evidence(line=line, path=path, message="FSDP"))
                args = ", ".join(f"`{a}`" for a in lost)
                yield pctx.code_finding(
                    self, script, call,
                    f"`{name}` is prepared in one call with the model under FSDP, and the project pins "
                    f"{version.describe()}: that release's `_prepare_fsdp` rebuilds it as "
                    f"`{ast.unparse(call.func)}(model.parameters(), **{name}.defaults)`, and bitsandbytes keeps "
                    f"{args} out of `defaults`, so training runs with 32-bit, unpaged optimizer states (4x the "
                    f"optimizer-state memory the job was sized for). Prepare the model first and build `{name}` on the prepared "
                    "model's parameters, or upgrade accelerate to 0.25+", evidence=evidence)
