"""torchtitan-style dotted options (``--training.batch_size 32``, ``--training.compile``) and what
the trainer does with them, for torchtitan and the trainers built on its ``JobConfig``
(fla-org/flame ``flame/config_manager.py`` at its pinned commit, launched by ``train.sh``:
``torchrun ... -m flame.train --job.config_file flame/models/fla.toml --training.batch_size 32
--training.seq_len 2048 --training.num_workers 32 --training.compile --optimizer.name AdamW``).

A job is torchtitan-style when the options its parser declares (:func:`cliargs.option_resolver`)
include ``training.mixed_precision_param`` and ``training.data_parallel_shard_degree`` (or their
``parallelism.`` forms). Then, from the launch line only (a TOML named by ``--job.config_file`` may set
any key, so declared defaults are used only where that file does not name the key):

- ``training.batch_size`` (``training.local_batch_size`` in newer torchtitan): the per-rank batch,
  ``batch.micro`` (torchtitan ``train.py`` builds the data loader with ``batch_size=job_config.training.batch_size``
  on each data-parallel rank);
- ``training.compile``: ``compile.enabled``; ``optimizer.name``; ``training.num_workers``;
- with data-parallel sharding on (``data_parallel_shard_degree`` -1: all remaining ranks, or > 1) and
  more than one process: FSDP2 ``fully_shard`` (``dist.sharding`` fsdp_full) with
  ``MixedPrecisionPolicy(param_dtype=mixed_precision_param)`` over fp32 weights: ``precision.mode``
  amp_bf16 for the default ``bfloat16`` (torchtitan ``parallelize_llama``/``apply_fsdp``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

_HALF = {"bfloat16": "amp_bf16", "float16": "amp_fp16", "float32": "fp32"}


def _first(options: Any, *names: str) -> Optional[Any]:
    for name in names:
        got = options(name)
        if got is not None:
            return got
    return None


# keys of the TOML named by ``--job.config_file`` read where the launch line does not give them (torchtitan's
# ``ConfigManager`` loads the TOML, then the command line overrides it), each only when the project's parser
# declares the option (fla-org/flame @ e11e7be ``flame/models/fla.toml:24`` ``pin_memory = false`` read by
# ``flame/train.py:179`` ``pin_memory=job_config.training.pin_memory``; ``:66-67`` ``[activation_checkpoint]
# mode = "none"``)
_TOML_FIELDS = (
    ("batch.micro", ("training.local_batch_size", "training.batch_size"), "torchtitan's per-rank batch", int),
    ("data.seq_len", ("training.seq_len",), "the sequence length", int),
    ("data.num_workers", ("training.num_workers",), "the data loader's workers", int),
    ("data.pin_memory", ("training.pin_memory",), "the data loader's pin_memory", bool),
    ("compile.enabled", ("training.compile",), "the model compiled (torchtitan)", bool),
    ("optimizer.name", ("optimizer.name",), "torchtitan builds the named torch.optim class", str),
)
# torchtitan ``apply_ac``: "none" leaves the blocks alone; "full" and "selective" wrap them with checkpoint_wrapper
_AC_MODES = {"none": False, "full": True, "selective": True}


def _toml_table(text: str) -> Optional[dict]:
    from preflight.loaders_toml import _toml_module

    module = _toml_module()
    if module is None:
        return None
    try:
        data = module.loads(text)
    except Exception:  # a TOML that does not parse: nothing read from it (TOMLDecodeError and friends)
        return None
    return data if isinstance(data, dict) else None


def _toml_line(text: str, section: str, key: str) -> Optional[int]:
    """The line of ``key = ...`` inside ``[section]``."""
    current = ""
    for i, line in enumerate(text.splitlines(), 1):
        head = re.match(r"^\s*\[([^\]]+)\]", line)
        if head:
            current = head.group(1).strip()
        elif current == section and re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return i
    return None


def _toml_names(project: Project, options: Any) -> Optional[str]:
    """The text of the TOML the job names with ``--job.config_file`` ('' when none; None: unreadable)."""
    got = options("job.config_file")
    if got is None or got.kind != "cli" or not isinstance(got.value, str) or not got.value:
        return ""
    path = Path(str(project.root or ".")) / got.value
    if not path.is_file() or not project.may_read(path):
        return None
    try:
        return read_text_limited(path)
    except (OSError, ValueError):
        return None


@register_adapter
class TorchtitanOptionsAdapter(Adapter):
    name = "torchtitan_options"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        if not any(str(a).startswith(("--job.", "--training.", "--parallelism.")) for a in project.argv or ()):
            return False  # torchtitan jobs name their TOML or options with dotted flags (cheap test first)
        return any(self._options(project, s) is not None for s in project.scripts)

    @staticmethod
    def _options(project: Project, script: Any) -> Any:
        if script.tree is None or script.source.path is None:
            return None
        options = project.index(script).options
        if options is None:
            return None
        if _first(options, "training.mixed_precision_param", "parallelism.mixed_precision_param") is None or \
                _first(options, "training.data_parallel_shard_degree", "parallelism.data_parallel_shard_degree") is None:
            return None
        return options

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            options = self._options(project, script)
            if options is not None:
                self._read(project, plan, options, script.source.text)
                return

    def _from_toml(self, plan: TrainingPlan, options: Any, toml: str, code: str) -> None:
        """The TOML's values of the options the launch line does not give (medium): options the project's
        parser declares, or that the entry script reads by name (``job_config.training.pin_memory``, a key
        declared by the torchtitan JobConfig flame extends)."""
        named = options("job.config_file")
        table = _toml_table(toml) if toml and named is not None else None
        if table is None:
            return
        shown = str(named.value)

        def take(field: str, name: str, what: str, value: Any, written: Any) -> None:
            section, key = name.rsplit(".", 1)
            detail = f"{shown} [{section}] {key} = {written!r} (named by --job.config_file): {what}"
            self.add_checked(plan, field, value, Source("config", shown, _toml_line(toml, section, key), name,
                                                        detail), "medium")

        for field, names, what, kind in _TOML_FIELDS:
            if any(options(n) is not None and options(n).kind == "cli" for n in names):
                continue  # the launch line gives it
            declared = [n for n in names if options(n) is not None or re.search(rf"\.{re.escape(n)}\b", code)]
            for name in declared:
                section, key = name.rsplit(".", 1)
                value = table.get(section, {}).get(key) if isinstance(table.get(section), dict) else None
                if isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):
                    take(field, name, what, value, value)
                    break
        mode = options("activation_checkpoint.mode")
        ac = table.get("activation_checkpoint")
        if mode is not None and mode.kind != "cli" and isinstance(ac, dict) and str(ac.get("mode")).lower() in _AC_MODES:
            value = ac["mode"]
            take("memory.gradient_checkpointing", "activation_checkpoint.mode",
                 "torchtitan's activation checkpointing (none: off; full/selective: checkpoint_wrapper)",
                 _AC_MODES[str(value).lower()], value)

    def _read(self, project: Project, plan: TrainingPlan, options: Any, code: str = "") -> None:
        def cli(field: str, names: tuple[str, ...], what: str, convert: Any = None) -> None:
            got = _first(options, *names)
            if got is None or got.kind != "cli":
                return
            value = convert(got.value) if convert is not None else got.value
            if value is not None:
                self.add_checked(plan, field, value, Source("cli", None, None, got.key, f"{got.detail}: {what}"),
                                 "medium")

        cli("batch.micro", ("training.local_batch_size", "training.batch_size"), "torchtitan's per-rank batch")
        cli("compile.enabled", ("training.compile",), "the model compiled (torchtitan)",
            lambda v: v if isinstance(v, bool) else None)
        cli("optimizer.name", ("optimizer.name",), "torchtitan builds the named torch.optim class")
        cli("data.num_workers", ("training.num_workers",), "the data loader's workers")
        toml = _toml_names(project, options)
        if toml is None:
            return
        self._from_toml(plan, options, toml, code)

        def setting(*names: str) -> Optional[Any]:
            got = _first(options, *names)
            if got is None:
                return None
            if got.kind != "cli" and any(re.search(rf"^\s*{re.escape(n.split('.')[-1])}\s*=", toml, re.M)
                                         for n in names):
                return None  # the TOML sets it: its value is not read here
            return got

        shard = setting("training.data_parallel_shard_degree", "parallelism.data_parallel_shard_degree")
        param = setting("training.mixed_precision_param", "parallelism.mixed_precision_param")
        if shard is None or not isinstance(shard.value, int):
            shard_toml = re.search(r"^\s*data_parallel_shard_degree\s*=\s*(-?\d+)", toml, re.M)
            shard_value = int(shard_toml.group(1)) if shard_toml else None
        else:
            shard_value = shard.value
        from preflight.adapters.launchers import parse_launch

        procs = parse_launch(project.argv).total_procs if project.argv else None
        if shard_value is None or not (shard_value == -1 or shard_value > 1) or not procs or procs < 2:
            return
        detail = f"data_parallel_shard_degree {shard_value} over {procs} processes: FSDP2 fully_shard (torchtitan)"
        self.add_checked(plan, "dist.sharding", "fsdp_full", Source("derived", None, None,
                                                                     "training.data_parallel_shard_degree", detail),
                         "medium")
        if param is not None and str(param.value) in _HALF:
            self.add_checked(plan, "precision.mode", _HALF[str(param.value)],
                             Source("code" if param.kind != "cli" else "cli", None, None, param.key,
                                    f"{param.detail}: FSDP2 MixedPrecisionPolicy(param_dtype={param.value}) "
                                    "over fp32 weights"), "medium")
