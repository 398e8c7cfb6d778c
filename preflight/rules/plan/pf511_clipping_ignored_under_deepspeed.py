"""PF511 clipping-ignored-under-deepspeed: ``max_grad_norm`` that DeepSpeed never applies (or contradicts)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, FileError, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import args_sites, known


@register
class ClippingIgnoredUnderDeepspeed(PlanRule):
    code = "PF511"
    name = "clipping-ignored-under-deepspeed"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = "`max_grad_norm` is set in TrainingArguments but the DeepSpeed config drops or contradicts it"
    explanation = """
## What it finds

`TrainingArguments(max_grad_norm=x)` (x > 0, set explicitly) in a job trained
with a DeepSpeed config that has no `gradient_clipping` key, or one with a
different number.

## Why it matters

Under DeepSpeed the Trainer does not clip: the engine does, with the config's
`gradient_clipping`. The Trainer copies `max_grad_norm` into the config only
where it says `"auto"`; a missing key leaves DeepSpeed's default of 0 (no
clipping at all: axolotl issue 1381, "`max_grad_norm` is ignored when using
DeepSpeed"), and a different number stops the run with a mismatch error.

## How to fix it

`"gradient_clipping": "auto"` in the DeepSpeed config.

The same holds for `accelerator.clip_grad_norm_(params, x)` when an accelerate
config runs the job under DeepSpeed (`distributed_type: DEEPSPEED`) with a
`deepspeed_config_file` that sets no `gradient_clipping`: Accelerate's
`clip_grad_norm_` returns None under DeepSpeed and leaves the gradients alone
(accelerate issue 3807).

## When preflight stays silent

* `gradient_clipping` is `"auto"` or equals `max_grad_norm`; `max_grad_norm` is
  left at its default or not known statically.

The DeepSpeed config is the one given with `--config` or named by the launch command,
else the file `TrainingArguments(deepspeed="ds.json")` names (read beside the script);
`max_grad_norm` comes from the code, an arguments file or `--max_grad_norm` on the
launch command.
"""
    bad_examples = examples("preflight.rules.plan._pf511_examples", "PF511_BAD")
    good_examples = examples("preflight.rules.plan._pf511_examples", "PF511_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        yield from self._accelerate_clip(pctx)
        given = pctx.deepspeed_configs()
        flag = _argv_norm(list(pctx.project.argv))
        if flag is not None and given:
            for config, block, prefix in given:  # `--max_grad_norm 0.3` on the launch line
                clip = block.get("gradient_clipping")
                if clip == "auto" or (isinstance(clip, (int, float)) and float(clip) == flag):
                    continue
                msg = (f"`--max_grad_norm {flag:g}` on the launch command but `{config.path}` "
                       + ("has no `gradient_clipping`: under DeepSpeed the engine clips, with the config's value "
                          "(default 0), so no clipping happens. Add `\"gradient_clipping\": \"auto\"`" if clip is None
                          else f"says `gradient_clipping: {clip}`: the Trainer stops with a DeepSpeed/TrainingArguments "
                               "mismatch. Use `\"auto\"` or the same value"))
                yield pctx.config_finding(self, config, (*prefix, "gradient_clipping") if clip is not None
                                          else tuple(prefix), msg)
        for site in args_sites(pctx):
            norm = site.values.get("max_grad_norm")
            if norm is None or not known(norm) or isinstance(norm, bool) or not isinstance(norm, (int, float)) \
                    or norm <= 0:
                continue
            ds = given or _named_config(pctx, site)
            for config, block, prefix in ds:
                clip = block.get("gradient_clipping")
                if clip == "auto" or (isinstance(clip, (int, float)) and float(clip) == float(norm)):
                    continue
                if clip is None:
                    msg = (f"`max_grad_norm={norm}` but `{config.path}` has no `gradient_clipping`: under DeepSpeed "
                           "the engine clips, with the config's value (default 0), so no clipping happens. Add "
                           "`\"gradient_clipping\": \"auto\"`")
                else:
                    msg = (f"`max_grad_norm={norm}` but `{config.path}` says `gradient_clipping: {clip}`: the Trainer "
                           "stops with a DeepSpeed/TrainingArguments mismatch. Use `\"auto\"` or the same value")
                yield site.finding(pctx, self, "max_grad_norm", msg,
                                   evidence=[pctx.config_evidence(config, (*prefix,), "the DeepSpeed config")])


    def _accelerate_clip(self, pctx: PlanContext) -> Iterable[Finding]:
        """``accelerator.clip_grad_norm_(params, x)`` in a job that an accelerate config runs under
        DeepSpeed with a DeepSpeed JSON (``deepspeed_config_file``) that sets no ``gradient_clipping``."""
        named = _accelerate_deepspeed_files(pctx)
        if not named:
            return
        files = [(cfg, block, prefix) for cfg, block, prefix in pctx.deepspeed_configs()
                 if Path(cfg.path).name in named]
        if not files or any(block.get("gradient_clipping") not in (None, 0, 0.0) for _, block, _ in files):
            return
        config = files[0][0]
        for script in pctx.scripts:
            for node in ast.walk(script.tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr == "clip_grad_norm_" and "accelerator" in ast.unparse(node.func.value)):
                    continue
                norm_expr = node.args[1] if len(node.args) > 1 else next(
                    (kw.value for kw in node.keywords if kw.arg == "max_norm"), None)
                norm = pctx.index(script).resolve(norm_expr) if norm_expr is not None else None
                if norm is None or isinstance(norm.value, bool) or not isinstance(norm.value, (int, float)) \
                        or norm.value <= 0:
                    continue
                msg = (f"`accelerator.clip_grad_norm_(..., {norm.value:g})` does nothing under DeepSpeed (Accelerate "
                       f"returns None and leaves clipping to the engine), and `{config.path}` sets no "
                       "`gradient_clipping` (DeepSpeed's default 0): no gradient is clipped. Add "
                       f"`\"gradient_clipping\": {norm.value:g}` to the DeepSpeed config")
                yield pctx.code_finding(self, script, node, msg,
                                        evidence=[pctx.config_evidence(config, (), "the DeepSpeed config")])


def _accelerate_deepspeed_files(pctx: PlanContext) -> set[str]:
    """File names of the DeepSpeed JSONs that an accelerate config running DeepSpeed names
    (``distributed_type: DEEPSPEED``, ``deepspeed_config.deepspeed_config_file``)."""
    out: set[str] = set()
    for cfg in pctx.configs:
        data = cfg.data if isinstance(cfg.data, dict) else {}
        block = data.get("deepspeed_config")
        if str(data.get("distributed_type", "")).upper() != "DEEPSPEED" or not isinstance(block, dict):
            continue
        name = block.get("deepspeed_config_file")
        if isinstance(name, str) and name.endswith(".json"):
            out.add(Path(name).name)
    return out


def _argv_norm(argv: list[str]) -> Optional[float]:
    """``--max_grad_norm X`` / ``--max_grad_norm=X`` on the launch command, when positive."""
    for i, tok in enumerate(argv):
        value = None
        if tok == "--max_grad_norm" and i + 1 < len(argv):
            value = argv[i + 1]
        elif tok.startswith("--max_grad_norm="):
            value = tok.split("=", 1)[1]
        if value is not None:
            try:
                number = float(value)
            except ValueError:
                return None
            return number if number > 0 else None
    return None


def _named_config(pctx: PlanContext, site: Any) -> list[tuple[Any, dict[str, Any], tuple[str, ...]]]:
    """The DeepSpeed config a ``TrainingArguments(deepspeed="ds.json")`` call names, read from
    the script's folder (or the project root) when no config was given."""
    from preflight.adapters.deepspeed import deepspeed_block
    from preflight.loaders import LoadedConfig, load_config
    from preflight.sources import read_source

    name = site.values.get("deepspeed")
    if not isinstance(name, str) or not name.endswith(".json") or site.script is None:
        return []
    for folder in (Path(site.script.source.path).parent, Path(pctx.project.root)):
        path = folder / name
        if not path.is_file():
            continue
        source = read_source(path, name, "json")
        loaded = load_config(source) if not isinstance(source, FileError) else None
        if isinstance(loaded, LoadedConfig):
            found = deepspeed_block(loaded)
            if found is not None:
                return [(loaded, found[1], found[0])]
        return []
    return []
