"""PF626 trainer-batch-limit-beyond-epoch: a Lightning trainer config whose batch limit does not fit the epoch
the job's data config describes (its sample count and batch size): ``limit_train_batches`` as a fraction that
comes to zero batches, or an integer ``val_check_interval`` longer than the epoch."""

from __future__ import annotations

import ast
import math
import os
import re
from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._pf508_support import hydra_yaml_configs, walk
from preflight.rules.plan._yaml_job_files import yaml_files

_WORDS = re.compile(r"limit_train_batches|val_check_interval|log_every_n_steps|batch_size")

# keys that state how many training samples an epoch reads (an integer beside the node's batch_size)
_SAMPLE_KEYS = ("train_samples", "max_train_samples", "num_train_samples", "n_train_samples", "num_train_examples",
                "max_train_examples", "train_size", "num_train_images", "n_train_images", "num_training_samples")


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _epoch(node: dict) -> Optional[tuple[str, int, int]]:
    """(sample key, samples, batch size) of a data node that states both as positive integers."""
    batch = _int(node.get("batch_size"))
    if batch is None or batch <= 0:
        return None
    for key in _SAMPLE_KEYS:
        samples = _int(node.get(key))
        if samples is not None and samples > 0:
            return key, samples, batch
    return None


def _trainer(path: tuple, node: dict, file: str) -> bool:
    """A trainer node: under a ``trainer`` key, a ``_target_`` ending in ``Trainer``, or the whole of a file
    named ``trainer.yaml`` (a script's ``Trainer(**load("configs/trainer.yaml"))``)."""
    words = [str(p).lower() for p in path]
    if not path and os.path.splitext(os.path.basename(file))[0].lower() == "trainer":
        return True
    return bool(words and words[-1] == "trainer") or str(node.get("_target_", "")).endswith("Trainer")


def _configs(pctx: PlanContext) -> list[Any]:
    """The Hydra YAML configs of the job, and the project's YAML files that name a batch limit or a batch size
    (a config a script opens itself), each once."""
    out: dict[str, Any] = {}
    for cfg in [*hydra_yaml_configs(pctx), *(c for _text, c in yaml_files(pctx, _WORDS)), *pctx.configs]:
        if isinstance(cfg.data, dict) and all(cfg is not c for c in out.values()):
            out.setdefault(os.path.normpath(str(cfg.path)), cfg)
    return list(out.values())


_PATIENCE = 3  # EarlyStopping's default patience


def _stops_early(pctx: PlanContext, texts: list[Any]) -> Optional[int]:
    """The smallest patience of an ``EarlyStopping`` of the job (a call in a script, or a ``_target_`` node of a
    config): the run may end after patience + 1 validation epochs. None when the job has none."""
    found: list[int] = []
    for script in pctx.scripts:
        for site in pctx.index(script).calls:
            if site.last == "EarlyStopping":
                kw = next((k for k in site.call.keywords if k.arg == "patience"), None)
                value = kw.value.value if kw is not None and isinstance(kw.value, ast.Constant) else \
                    _PATIENCE if kw is None else None
                found.append(value if isinstance(value, int) and not isinstance(value, bool) else 10 ** 6)
    for config in texts:
        for _path, node in walk(config.data):
            if str(node.get("_target_", "")).endswith("EarlyStopping"):
                value = node.get("patience", _PATIENCE)
                found.append(value if isinstance(value, int) and not isinstance(value, bool) else 10 ** 6)
    return min(found) if found else None


def _code_log_intervals(pctx: PlanContext) -> list[tuple[Any, ast.keyword, int, Optional[int]]]:
    """(script, keyword, interval, max_epochs) of each ``Trainer(log_every_n_steps=<int>)`` call of the scripts."""
    out = []
    for script in pctx.scripts:
        text = script.text if script.text is not None else script.source.text
        if not text or "log_every_n_steps" not in text:
            continue
        for site in pctx.index(script).calls:
            if site.last != "Trainer":
                continue
            kws = {k.arg: k for k in site.call.keywords if k.arg}
            kw = kws.get("log_every_n_steps")
            every = _int(kw.value.value) if kw is not None and isinstance(kw.value, ast.Constant) else None
            if kw is None or every is None:
                continue
            epochs = kws.get("max_epochs")
            max_epochs = _int(epochs.value.value) if epochs is not None and isinstance(epochs.value, ast.Constant) \
                else None
            out.append((script, kw, every, max_epochs))
    return out


def _log_message(interval: int, batches: int, key: str, samples: int, batch: int, patience: Optional[int],
                 max_epochs: Optional[int]) -> Optional[str]:
    """The finding's text when the run can end before Lightning first writes the step metrics, else None."""
    if interval <= batches:
        return None
    first = math.ceil(interval / batches)  # the epoch in which the first step log is written
    if max_epochs is not None and 0 < max_epochs < first:
        why = f"max_epochs={max_epochs} ends the run first"
    elif patience is not None and first > patience + 1:
        why = (f"EarlyStopping (patience {patience}) may end the run after {patience + 1} epochs, before the first "
               "step log")
    else:
        return None
    return (f"log_every_n_steps={interval}, but an epoch has at most {batches} training batches ({key}: {samples}, "
            f"batch_size: {batch}): Lightning writes the step metrics only every {interval} steps, i.e. first in "
            f"epoch {first}, and {why}: the run can finish without a single training-step point in the logger "
            "(Lightning warns \"The number of training batches is smaller than the logging interval\"). Set "
            "log_every_n_steps to at most the batches of an epoch")


def _literal_int(call: ast.Call, name: str) -> Optional[int]:
    kw = next((k for k in call.keywords if k.arg == name), None)
    return _int(kw.value.value) if kw is not None and isinstance(kw.value, ast.Constant) else None


def _epoch_intervals(pctx: PlanContext) -> Iterable[tuple[Any, ast.AST, str]]:
    """(script, node, message) for each epoch interval of a script that its ``Trainer(max_epochs=<int>)`` never
    reaches: ``check_val_every_n_epoch`` beside a monitoring callback (validation never runs), or a
    ``ModelCheckpoint(every_n_epochs=...)`` without ``save_last`` (it never saves)."""
    for script in pctx.scripts:
        text = script.text if script.text is not None else script.source.text
        if not text or "every_n_epoch" not in text:
            continue
        sites = pctx.index(script).calls
        trainers = [s.call for s in sites if s.last == "Trainer"]
        epochs = [_literal_int(t, "max_epochs") for t in trainers]
        if len(trainers) != 1 or epochs[0] is None or epochs[0] <= 0:
            continue
        max_epochs = epochs[0]
        if any(k.arg is None for k in trainers[0].keywords) or _literal_int(trainers[0], "max_steps") not in (None, -1):
            continue  # **kwargs or a step budget: the run's length is not max_epochs alone
        monitors = [s.call for s in sites if s.last in ("ModelCheckpoint", "EarlyStopping")
                    and any(k.arg == "monitor" for k in s.call.keywords)]
        every = _literal_int(trainers[0], "check_val_every_n_epoch")
        if every is not None and every > max_epochs and monitors:
            kw = next(k for k in trainers[0].keywords if k.arg == "check_val_every_n_epoch")
            yield script, kw, (
                f"check_val_every_n_epoch={every} with max_epochs={max_epochs}: Lightning validates after epochs "
                f"{every}, {2 * every}, ..., so this run never validates, and its monitoring callbacks never see "
                "their metric (no best checkpoint, no early stop; luxonis-train PR 46, DeepForest issue 859). Use an "
                "interval of at most max_epochs")
        for site in sites:
            if site.last != "ModelCheckpoint":
                continue
            n = _literal_int(site.call, "every_n_epochs")
            last = next((k for k in site.call.keywords if k.arg == "save_last"), None)
            if n is None or n <= max_epochs or (last is not None and not (
                    isinstance(last.value, ast.Constant) and last.value.value in (False, None))):
                continue
            kw = next(k for k in site.call.keywords if k.arg == "every_n_epochs")
            yield script, kw, (
                f"ModelCheckpoint(every_n_epochs={n}) in a run of max_epochs={max_epochs}: the callback saves after "
                f"epochs {n}, {2 * n}, ..., so the run ends without a checkpoint from it (and no save_last). Use "
                "an interval of at most max_epochs, or save_last=True")


@register
class TrainerBatchLimitBeyondEpoch(PlanRule):
    code = "PF626"
    name = "trainer-batch-limit-beyond-epoch"
    severity = Severity.ERROR
    category = Category.CONFIG
    frameworks = ("lightning",)
    summary = ("the trainer config's `limit_train_batches` fraction comes to zero batches, or its integer "
               "`val_check_interval` is longer than the epoch, for the sample count and batch size the data "
               "config states")
    explanation = """
## What it finds

A Lightning trainer node in a YAML config of the job (a `trainer:` key, a `_target_`
ending in `Trainer`, or a whole `trainer.yaml`; the Hydra configs and the project's YAML
files a script may open itself) and a data node that states the epoch (an integer sample count,
`train_samples` / `max_train_samples` / `num_train_samples` / `train_size` /
`num_train_images` (advimman/lama issue 159) ..., beside an
integer `batch_size`: at most ceil(samples / batch_size) batches per epoch), in the same
file, else the one such data node of the job's configs, where

* `limit_train_batches` is a fraction (0 < f < 1) with int(f * batches) = 0: Lightning
  runs no training batch (lightning-hydra-template issue 206: `limit_train_batches: 0.1`
  "turned out to be <1 batch" and the run went straight to testing; recent releases stop
  with "You requested to check 0.1 of the train dataloader but 0.1 * 7 < 1");
* `val_check_interval` is an integer larger than the epoch's batches while
  `check_val_every_n_epoch` is not set to null: Lightning stops at fit time with
  "`val_check_interval` (1000) must be less than or equal to the number of the training
  batches (391)" (MEDS_EIC_AR issue 62: a larger batch size shrank the epoch).

* `log_every_n_steps` (a trainer node's, or a literal of a `Trainer(...)` call of the scripts, with the
  epoch stated by a config the job reads, JSON included) is longer than the epoch, and the run can end
  before the first multiple of it: `max_epochs` ends it first, or an `EarlyStopping` may stop it after
  patience + 1 epochs (facebookresearch/neuroai PR 140: 3 batches per epoch, `log_every_n_steps=50`, early
  stopping: runs with no `train/loss_step` point in W&B; CAREamics issue 837). Reported as a warning.

* an epoch interval of a script that its `Trainer(max_epochs=<int>)` never reaches:
  `check_val_every_n_epoch` above max_epochs beside a `ModelCheckpoint`/`EarlyStopping` with a
  `monitor` (validation never runs: luxonis-train PR 46 bounds the interval by the epochs "which
  ensures that at least one checkpoint is generated"; DeepForest issue 859), or
  `ModelCheckpoint(every_n_epochs=...)` above max_epochs without `save_last` (it never saves).
  Reported as warnings.

## Why it matters

The first trains nothing and reports the untrained model's metrics; the second loses the
job's queue time at start-up. Both appear when the batch size or the data grows, far from
the trainer config that sets the limit.

## How to fix it

For the logging interval: `log_every_n_steps=max(1, min(50, len(train_loader)))`.

Give the limit as an integer number of batches (or remove it); set
`check_val_every_n_epoch: null` to validate every N global steps, or use a fraction.

## When preflight stays silent

* No config states both the sample count and the batch size as integers (the dataset's
  length is known only at run time), or several data nodes do and the trainer's file has
  none.
* For the epoch intervals: the script has several `Trainer(...)` calls, `**kwargs`, `max_steps`, or a
  `max_epochs` that is not a literal; the interval is at most max_epochs; `save_last` is set.
* `log_every_n_steps` is not a literal, is at most the epoch's batches, or its first multiple comes
  within max_epochs and, with an `EarlyStopping`, within its patience + 1 epochs.
* The limit is an integer or 1.0; `val_check_interval` is a fraction, at most the epoch's
  batches, or `check_val_every_n_epoch: null` is set beside it.
"""
    bad_examples = examples("preflight.rules.plan._pf626_examples", "PF626_BAD")
    good_examples = examples("preflight.rules.plan._pf626_examples", "PF626_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        texts = _configs(pctx)
        epochs = [(c, path, e) for c in texts for path, node in walk(c.data) if (e := _epoch(node)) is not None]
        for epoch_script, epoch_node, epoch_message in _epoch_intervals(pctx):
            finding = pctx.code_finding(self, epoch_script, epoch_node, epoch_message)
            finding.severity = Severity.WARNING
            yield finding
        logs = _code_log_intervals(pctx)
        if len(epochs) == 1 and logs:
            log_config, log_path, (log_key, log_samples, log_batch) = epochs[0]
            log_batches = math.ceil(log_samples / log_batch)
            patience = _stops_early(pctx, texts)
            for log_script, log_kw, log_every, log_epochs in logs:
                log_message = _log_message(log_every, log_batches, log_key, log_samples, log_batch, patience,
                                           log_epochs)
                if log_message is not None:
                    finding = pctx.code_finding(self, log_script, log_kw, log_message, evidence=[
                        pctx.config_evidence(log_config, (*log_path, log_key), f"{log_key}: {log_samples} at "
                                             f"batch_size {log_batch}: at most {log_batches} training batches per "
                                             "epoch")])
                    finding.severity = Severity.WARNING  # lost curves, not a failed run
                    yield finding
        for config in texts:
            for path, node in walk(config.data):
                if not _trainer(path, node, str(config.path)):
                    continue
                limit = node.get("limit_train_batches")
                interval = _int(node.get("val_check_interval"))
                every = _int(node.get("log_every_n_steps"))
                if every is not None and (len(epochs) == 1 or any(e[0] is config for e in epochs)):
                    data_config, data_path, (key, samples, batch) = next(
                        (e for e in epochs if e[0] is config), epochs[0])
                    message = _log_message(every, math.ceil(samples / batch), key, samples, batch,
                                           _stops_early(pctx, texts), _int(node.get("max_epochs")))
                    if message is not None:
                        finding = pctx.config_finding(self, config, (*path, "log_every_n_steps"), message)
                        finding.severity = Severity.WARNING  # lost curves, not a failed run
                        yield finding
                fraction = isinstance(limit, float) and 0 < limit < 1
                late = interval is not None and interval > 0 and not (
                    "check_val_every_n_epoch" in node and node["check_val_every_n_epoch"] is None)
                if not (fraction or late):
                    continue
                mine = [e for e in epochs if e[0] is config]
                found = mine if mine else epochs if len(epochs) == 1 else []
                if len(found) != 1:
                    continue
                data_config, data_path, (key, samples, batch) = found[0]
                batches = math.ceil(samples / batch)
                evidence = [pctx.config_evidence(data_config, (*data_path, key),
                                                 f"{key}: {samples} at batch_size {batch}: at most {batches} "
                                                 "training batches per epoch")]
                if fraction and isinstance(limit, float) and int(limit * batches) == 0:
                    yield pctx.config_finding(
                        self, config, (*path, "limit_train_batches"),
                        f"limit_train_batches: {limit} of an epoch of at most {batches} batches ({key}: {samples}, "
                        f"batch_size: {batch}) is int({limit} * {batches}) = 0 batches: Lightning runs no training "
                        "step (older releases go straight to validation and test with the untrained model, newer "
                        "ones stop). Give an integer number of batches, or remove the limit", evidence=evidence)
                if late and interval is not None and interval > batches:
                    yield pctx.config_finding(
                        self, config, (*path, "val_check_interval"),
                        f"val_check_interval: {interval} training batches, but an epoch has at most {batches} "
                        f"({key}: {samples}, batch_size: {batch}) and check_val_every_n_epoch is not null: "
                        f"Lightning stops at fit time with \"`val_check_interval` ({interval}) must be less than or "
                        "equal to the number of the training batches\". Set check_val_every_n_epoch: null to "
                        "validate every N steps, or use a fraction", evidence=evidence)
