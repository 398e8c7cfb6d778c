"""PF307 lightning-pinned-release-defect: a job whose configuration triggers a documented defect of the
Lightning release the project pins (epoch schedulers stepped only on validation epochs before 1.4,
EarlyStopping checked before validation on 1.4.0-1.4.4, scheduler state lost by a DeepSpeed resume
before 1.5.9; the sampler, EarlyStopping, CombinedLoader, unseeded-shuffle and BatchNorm-freeze defects of
0.7.x to 2.0.2 are checked in ``_pf307_releases``)."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg
from preflight.rules._pf414_support import call_last
from preflight.rules.base import examples
from preflight.rules.plan import _pf307_releases as releases
from preflight.rules.plan._pinned_release import (
    deepspeed_strategy,
    defines,
    lightning_schedulers,
    pinned_lightning,
    released_between,
)
from preflight.sources import ParsedPython


def _int_value(pctx: PlanContext, script: ParsedPython, node: Optional[ast.AST]) -> Optional[int]:
    if node is None:
        return None
    found = pctx.index(script).resolve(node)
    value = found.value if found is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _given(node: Optional[ast.AST]) -> bool:
    return node is not None and not (isinstance(node, ast.Constant) and node.value is None)


@register
class LightningPinnedReleaseDefect(PlanRule):
    code = "PF307"
    name = "lightning-pinned-release-defect"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("lightning",)
    summary = ("the job triggers a known defect of the pinned Lightning release (custom sampler dropped and "
               "EarlyStopping counted twice on 0.7.x, CombinedLoader unsharded on 1.2.x, epoch schedulers before "
               "1.4, EarlyStopping on 1.4.0-1.4.4, DeepSpeed resume before 1.5.9, BatchNorm of a frozen module "
               "before 1.8.0.post1, unseeded DDP shuffle on 1.7.0-2.0.2, overridden optimizer_step with "
               "accumulation on 1.1-1.3, precision=16 without a GPU before 1.5, seed_everything() seeding 0 from "
               "2.2 in a relaunch loop)")
    explanation = """
## What it finds

A project that pins `pytorch-lightning` (or `lightning`) to a release with one of these
documented defects, and a job that triggers it:

* **Before 1.4** (1.2.x, 1.3.x): `Trainer(check_val_every_n_epoch=N)` with N > 1, a module
  with a validation loop and an epoch-interval LR scheduler (not `"interval": "step"`, not
  ReduceLROnPlateau). Epoch schedulers were stepped from the validation loop, so the scheduler
  advances once every N epochs: a StepLR(step_size=30) with N=10 decays at epoch 300, never in
  a 100-epoch run (Lightning issues 6616, 7538, 7737; fixed by PR 7357 in 1.4: "the lr
  scheduler now steps at the end of epoch unconditionally").
* **1.4.0 to 1.4.4**: `EarlyStopping(...)` without `check_on_train_epoch_end` while the Trainer
  validates every N > 1 epochs. 1.4 made the check run at the end of every training epoch by
  default (PR 8286), before any validation has logged the monitored metric, so the run stops
  with "Early stopping conditioned on metric ... which is not available" after epoch 0 (issue
  9151; PR 9156 turns the train-epoch-end check off when `check_val_every_n_epoch > 1`).
* **Before 1.5.9** (1.2 to 1.5.8): a DeepSpeed strategy (`strategy="deepspeed_stage_2"`,
  `plugins=DeepSpeedPlugin(...)`) resumed from a checkpoint (`fit(..., ckpt_path=...)`,
  `resume_from_checkpoint=`) with an LR scheduler in `configure_optimizers`. The strategy
  neither wrote the scheduler state into its checkpoint nor restored it (issue 11188; PRs 11307
  and 11322, released in 1.5.9), so each resumed run starts the warmup and decay again from
  step 0 while weights and optimizer state are restored.

* **0.7.0 to 0.7.6**: a ddp/ddp2 Trainer (`distributed_backend="ddp"`) without
  `replace_sampler_ddp=False` and a `DataLoader(..., sampler=S)` with a sampler other than the
  distributed, sequential or random ones (`WeightedRandomSampler`, `SubsetRandomSampler`, a
  project class). `auto_add_sampler` rebuilds the loader with a plain `DistributedSampler` and
  drops `S` without a word, so class-balanced or subset sampling disappears (issue 1995; 0.8.0
  raises `MisconfigurationException` instead).
* **0.7.4 to 0.7.6**: `Trainer(early_stop_callback=EarlyStopping(...))` (or `True`).
  `EarlyStopping.on_epoch_end` is called after the validation run and again at the end of the
  training epoch, so an epoch without improvement counts twice and patience runs out in about
  half the epochs (issue 1751; read in 0.7.5 `training_loop.py`; 0.8.0 checks once).
* **1.2.x**: `val_dataloader`/`test_dataloader` returns a `CombinedLoader` under a multi-GPU
  distributed Trainer, with no `DistributedSampler` in the function. 1.2 adds the sampler only
  to plain `DataLoader`s, so every GPU runs the whole evaluation sets (issue 7013; 1.3.0 shards
  the loaders inside a `CombinedLoader`).
* **1.7.0 to 2.0.2**: a multi-process Trainer (`devices`/`gpus` > 1, not `dp`), a
  `DataLoader(..., shuffle=True)` and no global seed (`seed_everything`, `PL_GLOBAL_SEED`)
  anywhere in the project. These releases shard a shuffled loader with
  `DistributedSamplerWrapper(RandomSampler)`, whose permutation comes from each process's own
  random state, so the shards overlap (PR 17713, released in 2.0.3).
* **1.1.0 to 1.3.8**: `Trainer(accumulate_grad_batches=N)` with N > 1 (or a `{epoch: N}`
  schedule) while a LightningModule overrides `optimizer_step` or `optimizer_zero_grad` and
  automatic optimization stays on. The configuration validator of 1.1.0-1.3.8 raises
  `MisconfigurationException` ("When overriding `LightningModule` optimizer_step or
  optimizer_zero_grad, `accumulate_grad_batches` in `Trainer` should be 1") in `trainer.fit`
  before the first batch; 1.0.8 trained this setup and PR 7980 lifted the check in 1.4.0
  (issue 5054; priya-dwivedi/Deep-Learning#150, a T5 fine-tuner; read in 1.1.0, 1.1.8, 1.2.0,
  1.3.8 and 1.4.0 `trainer/configuration_validator.py`).
* **Before 1.8.0.post1**: `self.freeze(module, train_bn=False)` in a `BaseFinetuning`
  callback, in a project with BatchNorm layers (the layer, or a ResNet/EfficientNet/... model),
  and no `.eval()` in a training hook. `freeze` only turns `requires_grad` off; the Trainer puts
  the model back in train mode, so the frozen BatchNorm layers keep updating their running
  statistics (issue 15062; PR 15063 sets `track_running_stats=False`).

* **0.7.0 to 1.4.x**: `Trainer(precision=16)` (or `"16"`) with no device argument (`gpus`,
  `devices`, `accelerator`, `tpu_cores`, `ipus`, `auto_select_gpus`, `num_processes`, a
  strategy/backend or plugins, `**kwargs`). These releases place the run on the CPU unless the
  Trainer is given GPUs (a model moved with `.cuda()` does not count) and refuse 16-bit AMP
  there: "amp + cpu is not supported. Please use a GPU option" (0.7.6 to 1.2), "You have asked
  for native AMP on CPU, but AMP is only available on GPU" (1.2 to 1.4); read at the tags 0.7.6,
  1.0.0, 1.2.0, 1.3.0, 1.4.0; 1.5.0 warns and switches to bf16 instead (Lightning issue 1844;
  ShannonAI/dice_loss_for_NLP issue 9). An error.
* **2.2.0 and later**: `seed_everything()` with no seed (and `PL_GLOBAL_SEED` set nowhere) in a
  script that a launch script runs in a shell loop whose text (or the two lines above it) says
  the passes repeat one training (`seed`, `ensemble`, `member`, `repeat`, `replica`, `trial`,
  `bootstrap`). From 2.2.0 `seed_everything()` seeds 0 when no seed is given (2.1 drew a random
  one; read in `fabric/utilities/seed.py` at 2.1.0 and 2.2.0), so every pass trains with the
  same initialisation, data order and dropout masks (python-chebai issue 12, an ensemble of
  identical members). A warning. Silent for a loop over datasets or settings.

## How to fix it

Upgrade the pin past the fix (0.8, 1.3, 1.4, 1.4.5, 1.5.9, 1.8.1, 2.0.3), or work around it on
the pinned release: validate every epoch; pass `EarlyStopping(..., check_on_train_epoch_end=False)`;
do not resume DeepSpeed runs that use a scheduler (or restore the scheduler's step yourself);
`replace_sampler_ddp=False` with a sampler sharded per rank; a `DistributedSampler` in each
evaluation loader; `seed_everything(...)`; the frozen module put in eval mode in
`on_train_epoch_start`.

## When preflight stays silent

* Lightning is not pinned (only a lower bound, or nothing), or the pin is outside the range.
* The validation interval is 1 or not known statically; the scheduler steps per step or is
  ReduceLROnPlateau; `check_on_train_epoch_end` is given; the resume path is a literal None;
  no scheduler is built.
* A sampler preflight cannot name (a parameter, an object built elsewhere); a single device or a
  device count it cannot read; a strategy given as an object; `dp`; `replace_sampler_ddp=False` /
  `use_distributed_sampler=False`; `early_stop_callback=False`.
* A project with no BatchNorm evidence, or one that calls `.eval()` in a training hook or sets
  `track_running_stats` itself.

Releases older than the ranges above were not read; the rule stays silent on them.
"""
    bad_examples = examples("preflight.rules.plan._pf307_examples", "PF307_BAD")
    good_examples = examples("preflight.rules.plan._pf307_examples", "PF307_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        seen: set[tuple[str, int]] = set()
        schedulers: Optional[list[tuple[ParsedPython, ast.FunctionDef, bool]]] = None
        yield from self._check_finetuning(pctx)
        for script in pctx.scripts:
            idx = pctx.index(script)
            trainers = [c for c in ast.walk(script.tree) if isinstance(c, ast.Call) and call_last(c) == "Trainer"
                        and (idx.qualify(ast.unparse(c.func)) or "").startswith(("pytorch_lightning", "lightning"))]
            if not trainers:
                continue
            version = pinned_lightning(pctx, script)
            if version is None:
                continue
            if schedulers is None:
                schedulers = lightning_schedulers(pctx)
            seeded = releases.unseeded_seed_everything(pctx, script, version)
            if seeded is not None and (str(script.source.path), seeded[0].lineno) not in seen:
                seen.add((str(script.source.path), seeded[0].lineno))
                finding = pctx.code_finding(self, script, seeded[0], seeded[1])
                finding.severity = Severity.WARNING  # wasted runs, not a failed one
                yield finding
            for trainer in trainers:
                yield from self._check(pctx, script, trainer, version, schedulers)
                yield from self._check_releases(pctx, script, trainer, version, seen)

    def _check(self, pctx: PlanContext, script: ParsedPython, trainer: ast.Call, version: Any,
               schedulers: list[tuple[ParsedPython, ast.FunctionDef, bool]]) -> Iterable[Finding]:
        every = kwarg(trainer, "check_val_every_n_epoch")
        n = _int_value(pctx, script, every)
        pin = version.describe()
        if n is not None and n > 1 and every is not None:
            epochwise = [fn for _, fn, per_epoch in schedulers if per_epoch]
            if released_between(version, (1, 2), (1, 4)) and epochwise and defines(pctx, "validation_step"):
                yield pctx.code_finding(self, script, every, (
                    f"`check_val_every_n_epoch={n}` on {pin}: before 1.4 Lightning steps epoch-interval LR "
                    f"schedulers from the validation loop, so the scheduler of `configure_optimizers` "
                    f"(line {epochwise[0].lineno}) advances once every {n} epochs and its schedule runs {n}x "
                    "slower than written (Lightning issue 7737, fixed in 1.4). Upgrade to >= 1.4 or validate "
                    "every epoch"))
            if released_between(version, (1, 4), (1, 4, 5)):
                for call in ast.walk(script.tree):
                    if isinstance(call, ast.Call) and call_last(call) == "EarlyStopping" \
                            and kwarg(call, "check_on_train_epoch_end") is None \
                            and not any(kw.arg is None for kw in call.keywords):
                        yield pctx.code_finding(self, script, call, (
                            f"`EarlyStopping` with `check_val_every_n_epoch={n}` on {pin}: 1.4.0-1.4.4 run the "
                            "check at the end of every training epoch, before any validation has logged the "
                            "monitored metric, so the run stops after epoch 0 (\"Early stopping conditioned on "
                            "metric ... which is not available\", Lightning issue 9151, fixed in 1.4.5). Pass "
                            "`check_on_train_epoch_end=False` or upgrade"),
                            evidence=[pctx.code_evidence(script, every, "validation every few epochs",
                                                         same_file=True)])
        if released_between(version, (1, 2), (1, 5, 9)) and deepspeed_strategy(trainer) and schedulers:
            resume = self._resume(script, trainer)
            if resume is not None:
                _, fn, _ = schedulers[0]
                yield pctx.code_finding(self, script, resume, (
                    f"a DeepSpeed strategy resumed from a checkpoint on {pin}: before 1.5.9 the strategy neither "
                    "saves nor restores the LR scheduler state (Lightning issue 11188, PRs 11307/11322), so the "
                    f"scheduler of `configure_optimizers` (line {fn.lineno}) restarts its warmup and decay from "
                    "step 0 at each resume while weights and optimizer are restored. Upgrade to >= 1.5.9"),
                    evidence=[pctx.code_evidence(script, trainer, "the DeepSpeed Trainer", same_file=True)])

    def _check_releases(self, pctx: PlanContext, script: ParsedPython, trainer: ast.Call,
                        version: Any, seen: set[tuple[str, int]]) -> Iterable[Finding]:
        """The defects of ``_pf307_releases``: 0.7.x samplers and EarlyStopping, 1.2.x CombinedLoader,
        1.7.0-2.0.2 unseeded shuffle."""
        for check in (releases.sampler_replaced, releases.unseeded_shuffle,
                      releases.overridden_step_with_accumulation, releases.amp_on_cpu):
            found = check(pctx, script, trainer, version)
            if found is not None:
                node, message, where = found
                yield pctx.code_finding(self, script, node, message, evidence=[
                    pctx.code_evidence(s, n, what) for s, n, what in where])
        stopped = releases.early_stop_twice(pctx, script, trainer, version)
        if stopped is not None:
            yield pctx.code_finding(self, script, stopped[0], stopped[1])
        combined = releases.combined_val_loader(pctx, trainer, script, version)
        if combined is not None and (str(combined[0].source.path), combined[1].lineno) not in seen:
            seen.add((str(combined[0].source.path), combined[1].lineno))
            yield pctx.code_finding(self, combined[0], combined[1], combined[2], evidence=[
                pctx.code_evidence(script, trainer, "the distributed Trainer")])

    def _check_finetuning(self, pctx: PlanContext) -> Iterable[Finding]:
        """The BatchNorm defect of ``BaseFinetuning.freeze``: a callback, not a Trainer argument, so it is
        read wherever the callback class is, against the pin nearest to it."""
        for script in pctx.scripts:
            if "train_bn" not in script.source.text:
                continue
            version = pinned_lightning(pctx, script)
            if version is None:
                continue
            for owner, call, message in releases.finetuning_bn_stats(pctx, version):
                if owner is script:
                    yield pctx.code_finding(self, owner, call, message)

    @staticmethod
    def _resume(script: ParsedPython, trainer: ast.Call) -> Optional[ast.AST]:
        if _given(kwarg(trainer, "resume_from_checkpoint")):
            return trainer
        for call in ast.walk(script.tree):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "fit" \
                    and _given(kwarg(call, "ckpt_path")):
                return call
        return None
