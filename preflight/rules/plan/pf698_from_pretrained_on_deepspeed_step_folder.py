"""PF698 from-pretrained-on-deepspeed-step-folder: ``from_pretrained`` pointed at a DeepSpeed engine
checkpoint folder (``.../global_step2000``), which holds ZeRO shards and no model files."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.sources import read_text_limited

# the tag folder ``engine.save_checkpoint(dir)`` writes (``global_step{N}``, DeepSpeed's default tag)
_STEP_FOLDER = re.compile(r"(^|[/\\])global_step\d+[/\\]?$")
_SHELL_SUFFIXES = (".sh", ".slurm", ".sbatch", ".bash")
# the project turns the shards into model weights (or loads them itself): not followed, silent
_CONVERTS = ("zero_to_fp32", "get_fp32_state_dict_from_zero_checkpoint", "load_state_dict_from_zero_checkpoint",
             "convert_zero_checkpoint_to_fp32_state_dict")


def _given(tokens: list[str], option: str) -> Optional[str]:
    """The value of ``--option V`` / ``--option=V`` (dashes or underscores) on the launch line."""
    names = {f"--{option}", f"--{option.replace('_', '-')}"}
    for i, tok in enumerate(tokens):
        if tok in names:
            return tokens[i + 1] if i + 1 < len(tokens) else None
        name, eq, value = tok.partition("=")
        if eq and name in names:
            return value
    return None


def _text(script: Any) -> str:
    return (script.text if script.text is not None else script.source.text) or ""


def _launch_line(pctx: PlanContext, value: str) -> Optional[tuple[str, int]]:
    """(launch script, line) of the launch command's word ``value``: the line of the launch script (at or
    after the command's first line) that holds it; without a known launch script, the shell script at the
    project's top that holds it."""
    root = pctx.project.root
    at = pctx.project.launch_at
    if at is not None:
        candidates = [(at[0], Path(at[0]) if Path(at[0]).is_absolute() else root / at[0], at[1])]
    else:
        try:
            entries = sorted(os.listdir(root))
        except OSError:
            return None
        candidates = [(e, root / e, 1) for e in entries if e.endswith(_SHELL_SUFFIXES)
                      and os.path.isfile(root / e) and pctx.project.may_read(root / e)]
    for display, path, first in candidates:
        try:
            lines = read_text_limited(path, errors="replace").splitlines()
        except OSError:  # InputRefused is an OSError
            continue
        for number in range(max(first, 1), len(lines) + 1):
            if value in lines[number - 1]:
                return display, number
    return at


@register
class FromPretrainedOnDeepspeedStepFolder(PlanRule):
    code = "PF698"
    name = "from-pretrained-on-deepspeed-step-folder"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("deepspeed", "transformers")
    summary = ("`from_pretrained` is pointed at a DeepSpeed engine checkpoint folder (`global_stepN`), which "
               "holds ZeRO shards and optimizer states but no model files: loading fails before the first batch")
    explanation = """
## What it finds

A `from_pretrained(path)` call (a model, tokenizer or config class) whose path is a
folder named `global_step<N>`: the tag folder `engine.save_checkpoint(dir)` of DeepSpeed
writes (and that HF Trainer nests in `checkpoint-N/`). The path is either a literal in the
code or the launch line's value of the option the call reads (`--pretrain
./ckpt/checkpoints_rm/global_step2000` read as `args.pretrain`).

## Why it matters

A `global_stepN` folder holds the engine state: `mp_rank_00_model_states.pt` (without
its `config.json`) and, under ZeRO, one `zero_pp_rank_*_optim_states.pt` shard per rank
(under ZeRO-3 the model states file does not even hold the weights). There is no
`config.json`, `pytorch_model.bin` or `model.safetensors` for `from_pretrained` to load,
so the job stops at start-up ("does not appear to have a file named config.json", or a
loader that gets no model; OpenRLHF issue 157: batch inference pointed at the
`--ckpt_path` folder of reward-model training instead of its `--save_path`; DeepSpeed
issue 1196: the folder holds only `.pt` files and a model cannot be loaded from it).

## How to fix it

Point the loader at the model the training saved with `save_pretrained` / `--save_path`
/ the Trainer's `output_dir`, or turn the shards into weights first
(`python zero_to_fp32.py <checkpoint dir> <output>`, then load those with the model's
config).

## When preflight stays silent

* The path's last folder is not `global_step<N>` (`checkpoint-500`, `global_step_100/actor/huggingface`
  of frameworks that export a model there), or it is not a literal or a launch-line value.
* The project converts the shards itself (`zero_to_fp32`, `get_fp32_state_dict_from_zero_checkpoint`,
  `load_state_dict_from_zero_checkpoint`).
* The folder is given to DeepSpeed's own loader (`engine.load_checkpoint(dir, tag)`), which is
  where it belongs.
"""
    bad_examples = examples("preflight.rules.plan._pf698_examples", "PF698_BAD")
    good_examples = examples("preflight.rules.plan._pf698_examples", "PF698_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        texts = [_text(s) for s in pctx.scripts]
        if not any("from_pretrained" in t for t in texts) or any(c in t for c in _CONVERTS for t in texts):
            return
        for script in pctx.scripts:
            if "from_pretrained" not in _text(script):
                continue
            tokens = pctx.project.script_args(script)
            fctx = pctx.file_context(script)
            for call in fctx.nodes(ast.Call):
                func = call.func
                if not (isinstance(func, ast.Attribute) and func.attr == "from_pretrained"):
                    continue
                path_arg = call.args[0] if call.args else next(
                    (k.value for k in call.keywords if k.arg == "pretrained_model_name_or_path"), None)
                if path_arg is None:
                    continue
                loader = ast.unparse(func.value)
                if isinstance(path_arg, ast.Constant) and isinstance(path_arg.value, str):
                    if _STEP_FOLDER.search(path_arg.value):
                        yield pctx.code_finding(self, script, call, self._message(loader, path_arg.value, None))
                        return
                    continue
                if not (isinstance(path_arg, ast.Attribute) and isinstance(path_arg.value, ast.Name)) or not tokens:
                    continue
                value = _given(tokens, path_arg.attr)
                if value is None or not _STEP_FOLDER.search(value):
                    continue
                where = _launch_line(pctx, value)
                message = self._message(loader, value, ast.unparse(path_arg))
                evidence = [pctx.code_evidence(script, call, f"`{ast.unparse(path_arg)}` is loaded here")]
                if where is not None:
                    yield pctx.location_finding(self, where[0], where[1], message, evidence=evidence)
                else:
                    yield pctx.code_finding(self, script, call, message)
                return

    @staticmethod
    def _message(loader: str, value: str, through: Optional[str]) -> str:
        via = f" (the launch line's value of `{through}`)" if through else ""
        return (f"`{loader}.from_pretrained` loads `{value}`{via}, a DeepSpeed engine checkpoint folder "
                "(`engine.save_checkpoint` tag): it holds ZeRO shards and optimizer states, not the `config.json` "
                "and weight files `from_pretrained` needs, so loading fails before the first batch. Point it at the "
                "model saved with `save_pretrained` (the training's save path / output_dir), or convert the shards "
                "with `zero_to_fp32.py` first")
