"""PF514 fp16-on-bf16-pretrained-job: the launch command or a config asks fp16 for a T5-family model."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf414_support import BF16_PRETRAINED, FP16_PRECISIONS
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs, walk

_FILE_SUFFIXES = (".json", ".jsonl", ".yaml", ".yml", ".py", ".sh", ".txt", ".csv", ".toml")


def _model_id(text: Any) -> bool:
    """A checkpoint name of a bfloat16-pretrained family; a file path (a config named after the model,
    ``train_args/sft/full/bloom-1b1-sft-full.json``) is not one."""
    return isinstance(text, str) and len(text) < 120 and " " not in text \
        and not text.lower().endswith(_FILE_SUFFIXES) and bool(BF16_PRETRAINED.search(text))


def _argv_fp16(argv: list[str]) -> Optional[str]:
    for i, tok in enumerate(argv):
        nxt = argv[i + 1] if i + 1 < len(argv) else ""
        if tok in ("--fp16", "--fp16=true", "--fp16=True") and nxt.lower() not in ("false", "0"):
            return tok
        if tok in ("--precision", "--mixed_precision") and nxt in {str(p) for p in FP16_PRECISIONS}:
            return f"{tok} {nxt}"
        if tok.startswith(("--precision=", "--mixed_precision=")) and tok.split("=", 1)[1] in {
                str(p) for p in FP16_PRECISIONS}:
            return tok
    return None


@register
class Fp16OnBf16PretrainedJob(PlanRule):
    code = "PF514"
    name = "fp16-on-bf16-pretrained-job"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("transformers", "lightning", "hydra", "deepspeed")
    summary = "The launch command or a config trains a model pretrained in bfloat16 (T5, GPT-Neo, BLOOM) in fp16"
    explanation = """
## What it finds

A job whose model is a T5-family checkpoint (`t5-*`, `google/flan-t5-*`,
`google/t5-v1_1-*`, `mt5`, `byt5`, `ul2`), a GPT-Neo (`EleutherAI/gpt-neo-*`) or a
BLOOM/BLOOMZ checkpoint (`bigscience/bloom*`), named in a script, a config or the
launch command, and whose fp16 switch is in the launch command (`--fp16`,
`--mixed_precision fp16`, `--precision 16`) or a config (`precision: 16-mixed`,
`fp16: true`, `mixed_precision: fp16`, a DeepSpeed config's `"fp16": {"enabled": true}`, also in a dict a
helper returns:
DeepSpeed issue 643, T5-large under ZeRO-2 logging "OVERFLOW! Skipping step" with a NaN loss).
PF423 covers the same bug when both sit
in one script.

## Why it matters

These models were pretrained in bfloat16; float16 cannot hold some of their
activations, which overflow to inf and turn the loss into NaN (transformers
issues 14189 and 23918; dialogsum issue 14; GPT-Neo: transformers issue 11076 and
gpt-neo-fine-tuning-example issue 7, "OVERFLOW! Rank 0 Skipping step" on every step; BLOOMZ-560m:
DeepSpeedExamples issue 418, "Current loss scale already at minimum").

## How to fix it

Use bf16 (`--bf16`, `precision: bf16-mixed`) on Ampere or newer, or fp32.

## When preflight stays silent

* No T5-family name is found, or fp16 is only requested inside a script (PF423).
"""
    bad_examples = examples("preflight.rules.plan._pf514_examples", "PF514_BAD")
    good_examples = examples("preflight.rules.plan._pf514_examples", "PF514_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        argv = list(pctx.project.argv)
        model = self._model(pctx)
        unfound = getattr(pctx.project, "unfound_launch", None)
        if model is None and not argv and not pctx.scripts and unfound is not None:
            # the launched script is not in the job (transformers' run_translation.py, transformers issue
            # 14531): the model a model flag of the launch line names, reported on that line
            argv = list(unfound[2])
            named = _flag_model(argv)
            if named is not None:
                model = named, lambda m, a=unfound: pctx.location_finding(self, a[0], a[1], m)
        if model is None:
            return
        name, where = model
        flag = _argv_fp16(argv)
        message = (f"`{name}` belongs to a family pretrained in bfloat16, and the job trains it in fp16 ({{how}}): "
                   "its activations overflow float16 and the loss turns NaN. Use bf16 (`--bf16`, "
                   "`precision: bf16-mixed`) or fp32")
        if flag is not None:
            yield where(message.format(how=f"`{flag}` on the launch command"))
            return
        for config in hydra_yaml_configs(pctx) + [c for c in pctx.configs if c.kind != "yaml"]:
            for path, node in walk(config.data):
                for key in ("precision", "mixed_precision", "fp16"):
                    value = node.get(key)
                    if key == "fp16" and isinstance(value, dict) and value.get("enabled") is True:
                        # a DeepSpeed config's `"fp16": {"enabled": true}` (DeepSpeed issue 643: T5-large)
                        yield pctx.config_finding(self, config, (*path, key, "enabled"),
                                                  message.format(how=f"`fp16.enabled: true` in {config.path}"))
                        return
                    if (key == "fp16" and value is True) or (key != "fp16" and value in FP16_PRECISIONS):
                        yield pctx.config_finding(self, config, (*path, key),
                                                  message.format(how=f"`{key}: {value}` in {config.path}"))
                        return
        # a DeepSpeed config dict a helper builds in code (DeepSpeed-Chat's get_train_ds_config: "fp16":
        # {"enabled": True} for bigscience/bloomz-560m, DeepSpeedExamples issue 418): the plan's precision fact
        fact = pctx.plan.resolve("precision.mode")
        if fact is not None and fact.source.kind == "config" and fact.value in FP16_PRECISIONS:
            found = pctx.fact_finding(self, fact, message.format(how=f"`{fact.source.key or 'fp16'}` in "
                                                                     f"{fact.source.path}"))
            if found is not None:
                yield found

    def _model(self, pctx: PlanContext) -> Optional[tuple[str, Any]]:
        for script in pctx.scripts:
            for node in ast.walk(script.tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and _model_id(node.value) \
                        and ("/" in node.value or node.value.startswith("t5")):
                    return node.value, lambda m, s=script, n=node: pctx.code_finding(self, s, n, m)
        argv = list(pctx.project.argv)
        for tok in argv:
            if _model_id(tok) and not tok.startswith("-"):
                first = pctx.scripts[0] if pctx.scripts else None
                if first is None:
                    return None
                script, node = _load_site(pctx.scripts) or (first, first.tree.body[0] if first.tree.body else first.tree)
                return tok, lambda m, s=script, n=node: pctx.code_finding(self, s, n, m)
        hydra = hydra_yaml_configs(pctx)
        # other configs (an arguments JSON a launch option names: Firefly's train_args/*.json) count by a
        # model key only
        for config in hydra + [c for c in pctx.configs if all(c is not h for h in hydra)]:
            for path, mapping in walk(config.data):
                for key, value in mapping.items():
                    keyed = any(config is h for h in hydra) or "model" in str(key).lower()
                    if keyed and _model_id(value) and ("/" in value or value.startswith("t5")):
                        return value, lambda m, c=config, p=(*path, key): pctx.config_finding(self, c, p, m)
        return None


_MODEL_FLAGS = ("--model_name_or_path", "--model_name", "--model", "--model_id", "--base_model",
                "--pretrained_model_name_or_path")


def _flag_model(argv: list[str]) -> Optional[str]:
    """The bfloat16-pretrained checkpoint a model flag of the launch line names (``--model_name_or_path t5-11b``,
    ``--model_name_or_path=google/flan-t5-xl``), else None."""
    for i, tok in enumerate(argv):
        flag, eq, value = tok.partition("=")
        if flag not in _MODEL_FLAGS:
            continue
        if not eq:
            value = argv[i + 1] if i + 1 < len(argv) else ""
        if _model_id(value):
            return value
    return None


def _load_site(scripts: list) -> Optional[tuple[Any, ast.AST]]:
    """Where a script loads the model named on the launch line (``from_pretrained(model_name_or_path)``):
    the launch line has no file of its own, so the finding goes to the load it configures."""
    for script in scripts:
        for node in ast.walk(script.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "from_pretrained" and "Tokenizer" not in ast.unparse(node.func) \
                    and "Processor" not in ast.unparse(node.func):
                return script, node
    return None
