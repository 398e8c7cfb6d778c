"""PF1232 deepspeed-prepare-without-dataloader: under an Accelerate DeepSpeed config whose micro-batch size
is left to Accelerate (``auto``), an ``accelerator.prepare(...)`` call passes no DataLoader."""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.loaders import LoadedConfig
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import InputRefused, read_text_limited

# words of an argument that is (or may be) a data loader: stay silent on those
_LOADER_WORDS = ("loader", "data", "dl", "batch", "iter", "ds", "set", "sampler")
# words of an argument that is certainly not a loader
_OBJECT_WORDS = ("model", "opt", "sched", "net", "encoder", "decoder", "unet", "vae", "disc", "critic", "actor",
                 "policy", "ema", "lora", "head", "transformer", "clip", "generator")


def _deepspeed_accelerate_config(pctx: PlanContext) -> Optional[tuple[LoadedConfig, str]]:
    """The project's Accelerate config selecting DeepSpeed with the micro-batch size left ``auto``,
    with a short reason."""
    for cfg in pctx.configs:
        data = cfg.data
        if not isinstance(data, dict) or str(data.get("distributed_type", "")).upper() != "DEEPSPEED":
            continue
        block = data.get("deepspeed_config")
        if not isinstance(block, dict):
            continue
        ds_file = block.get("deepspeed_config_file")
        if not ds_file or str(ds_file).lower() in ("none", "null"):
            return cfg, "the DeepSpeed section has no `deepspeed_config_file`: Accelerate sets " \
                        "`train_micro_batch_size_per_gpu: auto`"
        micro = _micro_of_file(pctx, cfg, str(ds_file))
        if micro == "auto":
            return cfg, f"`{ds_file}` sets `train_micro_batch_size_per_gpu` to `auto` (or leaves it out)"
    return None


def _micro_of_file(pctx: PlanContext, cfg: LoadedConfig, name: str) -> Optional[str]:
    """``"auto"`` when the project's DeepSpeed JSON ``name`` leaves the micro-batch size to Accelerate;
    None when it sets an integer or the file is not in the project."""
    for other in pctx.configs:
        if Path(other.path).name == Path(name).name and isinstance(other.data, dict):
            return _auto(other.data)
    root = getattr(pctx.project, "root", None)
    if root is None:
        return None
    path = Path(root) / name
    try:
        text = read_text_limited(path)
        data = json.loads(text)
    except (OSError, InputRefused, ValueError):
        return None
    return _auto(data) if isinstance(data, dict) else None


def _auto(data: dict[str, Any]) -> Optional[str]:
    value = data.get("train_micro_batch_size_per_gpu", "auto")
    return "auto" if value == "auto" else None


def _kind(arg: ast.expr) -> str:
    """``loader`` (a DataLoader, or maybe one), ``object`` (a model, optimizer or scheduler), ``unknown``."""
    if isinstance(arg, ast.Starred):
        return "loader"
    if isinstance(arg, ast.Call):
        name = ast.unparse(arg.func).rsplit(".", 1)[-1]
        return "loader" if "Loader" in name or "loader" in name.lower() else "unknown"
    text = ast.unparse(arg).rsplit(".", 1)[-1].lower()
    if any(w in text for w in _LOADER_WORDS):
        return "loader"
    if any(w in text for w in _OBJECT_WORDS):
        return "object"
    return "unknown"


@register
class DeepspeedPrepareWithoutDataloader(PlanRule):
    code = "PF1232"
    name = "deepspeed-prepare-without-dataloader"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("An Accelerate DeepSpeed config leaves the micro-batch size `auto` and an `accelerator.prepare(...)` "
               "call passes no DataLoader: `prepare` raises 'requires you to pass at least one of training or "
               "evaluation dataloaders'")
    explanation = textwrap.dedent("""
    ## What it finds

    The project's Accelerate config selects DeepSpeed (`distributed_type: DEEPSPEED`) and leaves
    `train_micro_batch_size_per_gpu` to Accelerate (a `deepspeed_config:` section without
    `deepspeed_config_file`, or a DeepSpeed JSON of the project that sets it to `"auto"` or leaves it
    out), and a script calls `accelerator.prepare(...)` with a model, optimizers or schedulers but no
    DataLoader (every argument is named like a model/optimizer/scheduler).

    ## Why it matters

    Under DeepSpeed every `prepare` call builds the DeepSpeed engine and fills the `auto` micro-batch
    size from the batch size of a DataLoader passed in the same call. With none there it raises
    `ValueError: When using DeepSpeed accelerate.prepare() requires you to pass at least one of
    training or evaluation dataloaders ... or alternatively set an integer value in
    train_micro_batch_size_per_gpu`: the job dies at start-up on every rank (GuHuangAI/ADM-Public
    issue 5, jquesnelle/yarn issue 35 with `model = accelerator.prepare(model)`,
    huggingface/peft issue 450, lucidrains/imagen-pytorch pull request 271).

    ## How to fix it

    Pass the training DataLoader in the same `prepare` call as the model, or set an integer
    `train_micro_batch_size_per_gpu` in the DeepSpeed config (or
    `AcceleratorState().deepspeed_plugin.deepspeed_config["train_micro_batch_size_per_gpu"] = n`),
    or launch without DeepSpeed when it is not needed.

    ## When preflight stays silent

    * No Accelerate config of the project selects DeepSpeed, or its DeepSpeed JSON sets an integer
      micro-batch size, or the JSON is not in the project.
    * The script builds its own `DeepSpeedPlugin`, or mentions `train_micro_batch_size_per_gpu` or
      `deepspeed_plugin` (it may set the value itself).
    * An argument of the call is or may be a loader (a name with loader/data/batch/iter/set, a
      starred argument, a call preflight cannot name), or is not named like a model, optimizer or
      scheduler.
    """)
    bad_examples = examples("preflight.rules.plan._pf1232_examples", "PF1232_BAD")
    good_examples = examples("preflight.rules.plan._pf1232_examples", "PF1232_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        if not any(".prepare(" in s.source.text for s in pctx.scripts):
            return
        found = _deepspeed_accelerate_config(pctx)
        if found is None:
            return
        cfg, why = found
        for script in pctx.scripts:
            text = script.source.text
            if ".prepare(" not in text or "Accelerator" not in text:
                continue
            if any(w in text for w in ("DeepSpeedPlugin", "train_micro_batch_size_per_gpu", "deepspeed_plugin")):
                continue
            ctx = pctx.file_context(script)
            for call in ctx.nodes(ast.Call):
                if not (isinstance(call.func, ast.Attribute) and call.func.attr == "prepare" and call.args
                        and "accelerator" in ast.unparse(call.func.value).lower() and not call.keywords):
                    continue
                kinds = [_kind(a) for a in call.args]
                if any(k != "object" for k in kinds):
                    continue
                yield pctx.code_finding(
                    self, script, call,
                    f"`{ast.unparse(call)[:80]}` passes no DataLoader while the Accelerate config "
                    f"({cfg.path}) runs DeepSpeed with the micro-batch size left to Accelerate ({why}): "
                    "`prepare` raises 'When using DeepSpeed accelerate.prepare() requires you to pass at least one "
                    "of training or evaluation dataloaders' and the job dies at start-up. Pass the training "
                    "DataLoader in this call, or set an integer `train_micro_batch_size_per_gpu`",
                    evidence=[pctx.config_evidence(cfg, ("distributed_type",), "DeepSpeed is selected here")])
                break
