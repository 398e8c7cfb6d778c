"""PF501 plan-conflict: two inputs of the job disagree on a value the framework uses."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Iterable

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan import PRECISION_FAMILY
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples

if TYPE_CHECKING:
    from preflight.plan import Fact

# Fields the HF Trainer compares between TrainingArguments and a DeepSpeed config
# (integrations/deepspeed.py trainer_config_process: batch triple, fp16/bf16).
_HF_CHECKED = frozenset({"batch.micro", "batch.grad_accum", "batch.global", "precision.mode"})


# precision modes that agree on the 16-bit format (pure weights vs autocast are not a conflict)
_PRECISION_FAMILY = PRECISION_FAMILY


def _deepspeed_value(fact: Fact) -> bool:
    """A value of the DeepSpeed config the engine gets: the JSON's, or a field of the accelerate
    config's ``deepspeed_config`` block (accelerate's DeepSpeedPlugin builds the engine's config
    from those fields when no ``deepspeed_config_file`` is given)."""
    return fact.adapter == "deepspeed" or (
        fact.adapter == "accelerate" and (fact.source.key or "").startswith("deepspeed_config."))

_TRAINING_MODES = frozenset({"train", "finetune", "lora", "qlora"})
# settings each training script states for itself in code (a DataLoader's batch_size, a precision, the
# devices of its own Lightning `Trainer(devices=...)`: an 8-GPU training script and a 1-GPU test script run
# on their own, Lightning issue 12862)
_CODE_FIELDS = frozenset({"batch.micro", "batch.grad_accum", "precision.mode", "optimizer.lr", "task.mode",
                          "dist.devices_per_node", "dist.num_nodes"})


def _is_entry(text: str) -> bool:
    """A script run on its own: it has an ``if __name__ == "__main__":`` block."""
    return "__name__" in text and "__main__" in text


def _one_entry_script(facts: list[Fact], pctx: PlanContext) -> list[Fact]:
    """Facts read in the code of two or more scripts that are each run on their own (an
    ``if __name__ == "__main__":`` block, none importing another: ``train_tokenizer.py`` then
    ``train_dynamics.py`` of a two-stage pipeline) describe different jobs, not one job twice.
    Keep only those of one script when every code fact comes from such a script; facts of
    configs or the command line stay."""
    texts = {s.source.display: (s.text if s.text is not None else s.source.text) for s in pctx.scripts}
    code = [f for f in facts if f.source.kind == "code" and f.source.path is not None]
    paths = {f.source.path for f in code}
    if len(paths) < 2 or not all(p is not None and p in texts and _is_entry(texts[p] or "") for p in paths):
        return facts
    stems = {p: os.path.splitext(os.path.basename(p))[0] for p in paths if p is not None}
    for p in stems:
        text = texts[p] or ""
        if any(q != p and (f"import {stems[q]}" in text or f"from {stems[q]} " in text) for q in stems):
            return facts  # one script imports another: they can be one job
    first = code[0].source.path
    return [f for f in facts if not (f.source.kind == "code" and f.source.path != first)]


def _without_wrapper_classes(facts: list[Fact]) -> list[Fact]:
    """A local ``nn.Module``/``LightningModule`` class built in one file (the adapter's guess when that
    file names no catalogue model) and a network built in code of another file (``nets.py``'s
    ``torchvision.models.resnet18()``, called from the class's ``__init__``) are one model: the project
    class wraps the network. Its name states nothing about the architecture, so it is not a second value."""
    local = [f for f in facts if f.source.kind == "code" and (f.source.detail or "").endswith(_LOCAL_CLASS)]
    others = [f for f in facts if f not in local]
    if not local or not others:
        return facts
    if all(o.source.kind == "code" and o.source.path not in {f.source.path for f in local} for o in others):
        return others
    return facts


# the detail of the pytorch adapter's ``model.ref`` fact for a project class (adapters/pytorch.py local_module)
_LOCAL_CLASS = ": a local nn.Module"


def _origin(fact: Fact) -> tuple[str, str]:
    """The input a fact comes from: a file, or the command line / environment."""
    return (fact.source.kind if fact.source.path is None else "file", fact.source.path or "")


def _launch_overrides_file(winner: Fact, facts: list[Fact]) -> bool:
    """The launch command's own value wins over config files only (``accelerate launch --config_file
    8gpus.yaml --num_processes 1``): the launcher documents that its arguments override the file
    (accelerate ``commands/launch.py`` ``_validate_launch_command`` copies a config value only into an
    argument the command left unset), so the override is the normal way to reuse one config for
    another run, and preflight cannot tell a deliberate one from a slip."""
    return winner.source.kind == "cli" and all(
        f.source.kind == "config" for f in facts if f is not winner)


@register
class PlanConflict(PlanRule):
    code = "PF501"
    name = "plan-conflict"
    severity = Severity.WARNING
    category = Category.CONFIG
    frameworks = ("pytorch", "lightning", "accelerate", "transformers", "deepspeed")
    summary = "Two inputs of the job set the same setting to different values"
    explanation = """
## What it finds

A setting of the training plan (micro-batch, accumulation, precision, world
size, ZeRO stage, ...) that two inputs state differently: the script says
batch 8 and the DeepSpeed JSON says 4; the accelerate config says bf16 and the
`Accelerator(...)` call says fp16; the launch command says 8 processes and the
config 4. The finding names every source with its file and line, and which one
the framework actually uses (the plan's precedence: an explicit framework rule
first, then user > command line > environment > config file > code > defaults).

It also reports a DeepSpeed config with `fp16`/`bf16` `"enabled": true` run by an
HF Trainer whose TrainingArguments all come from the launch line
(`HfArgumentParser(...).parse_args_into_dataclasses()`, `--deepspeed ds.json`) when
that line leaves `--fp16`/`--bf16` out: the flag defaults to False, which the
Trainer's DeepSpeed check rejects (MedicalGPT issue 191: "ds fp16.enabled=True vs hf
fp16|fp16_full_eval+fp16_backend(amp)=False").

## Why it matters

Only one of the values is used; the other is a statement about the job that is
not true. Whoever reads the losing file (or tunes it) is changing nothing, and
memory or throughput estimates made from it are wrong.

Under the HF Trainer a DeepSpeed config value that is not `"auto"` and differs from
`TrainingArguments` (micro-batch, accumulation, global batch, fp16/bf16) is worse: the
Trainer stops with a ValueError listing the mismatches, so that case is reported as an
error. The same for the `deepspeed_config` block of an accelerate config without a
`deepspeed_config_file`: accelerate's `DeepSpeedPlugin` turns its fields
(`gradient_accumulation_steps: 4`) into the engine's config, and the Trainer checks that
config against `TrainingArguments` (`propagate_args_to_deepspeed` then
`trainer_config_process`; LlamaFactory issue 201: "ds gradient_accumulation_steps=4 vs hf
gradient_accumulation_steps=2").

## How to fix it

Set the value in one place, or make the other place say the same thing (use
`"auto"` in a DeepSpeed JSON that the HF Trainer or Accelerate fills in).

## When preflight stays silent

* fp16/bf16 enabled in the DeepSpeed config with `--fp16`/`--bf16` left off the launch line,
  under transformers pinned below 4.6: that Trainer has no "auto" values and no mismatch
  check (its `init_deepspeed` keeps the config's fp16 block), so nothing is refused
  (DeepSpeed issue 745's pins: transformers 4.3.3).
* The sources agree; one of them is a framework default that an explicit value
  overrides; a value preflight derived itself (those have dedicated rules, such
  as PF502 for the DeepSpeed batch triple).
* None of the sources has a file and line to point at (two command-line flags).
* The `accelerate launch` command's own argument overrides the config file's value
  (`accelerate launch --config_file dist_8gpus.yaml --num_processes 1`). The launcher documents
  that its arguments win and fills from the file only what the command leaves unset (accelerate
  `commands/launch.py`, `_validate_launch_command`), so the file's value is never used and the
  plan does not hold it. Another launcher's argument against a config file (where both reach the
  plan) is still reported only as a note: preflight cannot tell a deliberate override from a slip.
* The model: a project class (`LitClassifier`, a LightningModule) built in one file and a
  network built in another (`torchvision.models.resnet18()` in `nets.py`, which the class calls
  to build its layers) are one model, the class wrapping the network.
* A project module class assigned to an attribute of another object (`layer.self_attn.gate =
  AttnGate(...)`, `model.fc = Head(...)`) is a part attached to a model built elsewhere, not a
  second model; the kernels and configs of `deepspeed.ops.transformer`
  (`DeepSpeedTransformerLayer`, `DeepSpeedTransformerConfig`) are not optimizers.
* `task.mode` read as `finetune` in the file that loads pretrained weights and `train` in the
  file that calls `trainer.fit(model)` without seeing the load: both are full training.
* One side is only a guess (confidence low), such as full fine-tuning assumed under a
  `Trainer` whose model is built in an imported module that attaches a LoRA adapter.
"""
    bad_examples = examples("preflight.rules.plan._pf501_examples", "PF501_BAD")
    good_examples = examples("preflight.rules.plan._pf501_examples", "PF501_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        from preflight.audit import format_source, format_value

        plan = pctx.plan
        manual_boundary = any("set_gradient_accumulation_boundary" in (s.text if s.text is not None else s.source.text)
                              for s in pctx.scripts)
        for field, facts in plan.conflicts().items():
            facts = [f for f in facts if f.source.kind != "derived"]
            if any(f.confidence != "low" for f in facts):
                # a fact its adapter marks as a guess (confidence low: transformers' full fine-tune
                # when the job names LoRA in a module it imports) states nothing about the inputs;
                # it does not contradict a value that was read
                facts = [f for f in facts if f.confidence != "low"]
            engine = any(f.adapter == "deepspeed" for f in facts)
            if engine and field == "precision.mode":
                # fp32 weights loaded for a DeepSpeed engine: `initialize` casts the module's parameters
                # to the config's fp16/bf16 (runtime/engine.py `_configure_distributed_model`), so the load
                # dtype is a starting dtype, not a second precision setting
                facts = [f for f in facts if not (str(f.value) == "fp32" and f.adapter != "deepspeed"
                                                  and (f.source.detail or "").startswith("from_pretrained("))]
            if field == "precision.mode" and any(str(f.value).startswith("amp_") for f in facts):
                # fp32 weights loaded for a job that autocasts (Lightning "16-mixed", Accelerate or
                # TrainingArguments fp16/bf16): mixed precision keeps float32 parameters and runs the
                # forward in 16 bits, so the load dtype is the one the mode expects, not a second mode
                facts = [f for f in facts if not (str(f.value) == "fp32" and (f.source.detail or "")
                                                  .startswith("from_pretrained("))]
            if field == "task.mode" and any(f.value in _TRAINING_MODES for f in facts) \
                    and all(f.value in _TRAINING_MODES or f.value in ("generation", "inference") for f in facts):
                # a training job whose helper module generates (RL rollouts) or evaluates under no_grad:
                # the helper file has no backward of its own, the job still trains
                facts = [f for f in facts if f.value in _TRAINING_MODES]
            if field == "task.mode" and {f.value for f in facts} <= {"train", "finetune"}:
                # both full training: "finetune" where a file sees the pretrained load (a LightningModule
                # calling from_pretrained), "train" where the file that runs `trainer.fit(model)` does not
                # see how the model is built; one job, the same mode
                continue
            if field == "model.ref":
                facts = _without_wrapper_classes(facts)
            if field in _CODE_FIELDS:
                facts = _one_entry_script(facts, pctx)
            if engine and field == "batch.grad_accum" and manual_boundary:
                # the script accumulates over engine.backward calls itself and marks the last one with
                # `set_gradient_accumulation_boundary`: the config's accumulation of 1 is the design (PF523)
                continue
            if len({_origin(f) for f in facts}) < 2:
                continue  # one file contradicting itself has its own rules (PF503)
            if len({(type(f.value), f.json_value() if not isinstance(f.value, tuple) else f.value)
                    for f in facts}) < 2:
                continue
            if field == "precision.mode" and len({_PRECISION_FAMILY.get(str(f.value), str(f.value))
                                                  for f in facts}) < 2:
                # DeepSpeed `bf16.enabled` (bf16) and TrainingArguments(bf16=True) (amp_bf16), or a
                # bfloat16 load trained with bf16: the same 16-bit format, no disagreement to report
                continue
            winner = plan.resolve(field)
            if winner is None:
                continue
            anchor = winner if pctx.fact_evidence(winner, "") is not None else next(
                (f for f in facts if pctx.fact_evidence(f, "") is not None), None)
            if anchor is None:
                continue
            values = "; ".join(f"{format_value(f.value)} from {format_source(f.source)}" for f in facts)
            hf_check = field in _HF_CHECKED and any(f.adapter == "transformers" for f in facts) \
                and any(_deepspeed_value(f) for f in facts)
            plugin = hf_check and not any(f.adapter == "deepspeed" for f in facts)
            if hf_check:
                message = (f"`{field}` is set to different values: {values}. The HF Trainer fills only "
                           "\"auto\" DeepSpeed values and stops with a ValueError (\"Please correct the "
                           "following DeepSpeed config values that mismatch TrainingArguments values\") "
                           "when an explicit one differs. "
                           + ("The accelerate config's `deepspeed_config` fields are the engine's config "
                              "(accelerate's DeepSpeedPlugin builds it from them): make the two equal, or point "
                              "`deepspeed_config_file` at a JSON that says \"auto\""
                              if plugin else "Use \"auto\" in the DeepSpeed config"))
            elif _launch_overrides_file(winner, facts):
                message = (f"`{field}` is set to different values: {values}. The launch line's "
                           f"{format_value(winner.value)} overrides the config file's value (launch "
                           "arguments fill only what the command leaves unset): the file does not "
                           "describe this run. Fine if the override is deliberate; otherwise set it in one place")
            else:
                message = (f"`{field}` is set to different values: {values}. The framework uses "
                           f"{format_value(winner.value)} ({format_source(winner.source)}); the other "
                           "value is ignored. Set it in one place")
            evidence = []
            for f in facts:
                ev = pctx.fact_evidence(f, f"{field} = {format_value(f.value)}"
                                           + (" (used)" if f is winner else " (ignored)"))
                if ev is not None:
                    evidence.append(ev)
            finding = pctx.fact_finding(self, anchor, message, evidence=evidence)
            if finding is not None:
                if hf_check:
                    finding.severity = Severity.ERROR
                elif _launch_overrides_file(winner, facts):
                    finding.severity = Severity.NOTE
                yield finding
        yield from self._left_out_precision(pctx)

    def _left_out_precision(self, pctx: PlanContext) -> Iterable[Finding]:
        """A DeepSpeed config with ``fp16``/``bf16`` ``enabled: true`` run by an HF Trainer whose
        TrainingArguments come wholly from the launch line, which leaves ``--fp16``/``--bf16`` out
        (default False): the Trainer's DeepSpeed check raises the mismatch ValueError."""
        from preflight.rules.plan._pf508_support import launch_site

        site = launch_site(pctx)
        if site is None or not isinstance(site.values.get("deepspeed"), str):
            return
        version = pctx.version("transformers", site.script)
        if version is not None and version.how == "pinned" and not version.at_least(4, 6):
            # the Trainer's DeepSpeed integration before 4.6 (no "auto" values, no mismatch check:
            # `init_deepspeed` of 4.3-4.5 only sets `fp16` when the Trainer itself runs fp16 and
            # keeps the config's block otherwise), so a config that enables fp16 is not refused
            return
        named = os.path.basename(site.values["deepspeed"])
        for config, block, prefix in pctx.deepspeed_configs():
            if os.path.basename(str(config.path)) != named:
                continue
            for key in ("fp16", "bf16"):
                section = block.get(key)
                if not (isinstance(section, dict) and section.get("enabled") is True):
                    continue
                if site.values.get(key) is True or site.values.get(f"{key}_full_eval") is True:
                    continue
                said = "is given as false" if key in site.values else "is left out (default False)"
                finding = pctx.config_finding(
                    self, config, (*prefix, key, "enabled"),
                    f"`{key}.enabled: true` in the DeepSpeed config, but the TrainingArguments come from the launch "
                    f"line, where `--{key}` {said}: the HF Trainer fills only \"auto\" DeepSpeed values and stops "
                    "with a ValueError (\"Please correct the following DeepSpeed config values that mismatch "
                    f"TrainingArguments values\"). Use `\"enabled\": \"auto\"` or pass `--{key}`",
                    evidence=[pctx.code_evidence(site.script, site.anchor, "TrainingArguments parsed from the "
                                                 "launch line here")])
                finding.severity = Severity.ERROR
                yield finding
