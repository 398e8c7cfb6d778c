"""fairseq's ``fairseq-train`` console script (or ``python -m fairseq_cli.train``): the trainer is the library's,
the job is its flags on the launch line and the plug-in code of ``--user-dir``.

microsoft/Graphormer @ ac154fe ``examples/property_prediction/zinc.sh:5-27``: ``CUDA_VISIBLE_DEVICES=0
fairseq-train --user-dir ../../graphormer --num-workers 16 --ddp-backend=legacy_ddp ... --optimizer adam ...
--batch-size 64 --fp16 ...`` (fairseq a git submodule, absent from the snapshot). The same console script runs
the fairseq examples and the projects built on them (wav2vec, BART, mBART, the fairseq-based translation and
speech repositories). Read here, from fairseq's own option semantics (fairseq/dataclass/configs.py and
fairseq_cli/train.py of the 0.10-0.12 line), never by running anything:

- processes: ``--distributed-world-size N`` given, else one process per visible GPU
  (``distributed_world_size`` defaults to ``torch.cuda.device_count()``): known when the line sets
  ``CUDA_VISIBLE_DEVICES`` to a list of ids; then one node. Sharding ``none`` for one process, ``ddp`` for
  several (``--ddp-backend`` c10d/legacy_ddp/no_c10d/pytorch_ddp), unknown for ``fully_sharded``;
- ``--batch-size N`` / ``--max-sentences N`` (sentences per GPU): the micro batch, unless ``--max-tokens``
  also bounds it; ``--update-freq`` (first value) or 1: the accumulation;
- ``--fp16`` / ``--memory-efficient-fp16``: fp16 weights with an fp32 master copy (``FP16Optimizer``),
  ``--bf16``: bf16, ``--amp``: fp16 autocast; none of them: fp32;
- ``--optimizer NAME`` (fairseq's registry name: ``adam`` is its decoupled-decay Adam);
- ``--num-workers`` (default 1); ``--checkpoint-activations`` (default off) unless the ``--user-dir`` code
  calls a checkpoint itself; ``torch.compile`` and PEFT: fairseq has no option for either; False/none when the
  ``--user-dir`` code names neither.

Facts are medium: the meaning is fairseq's code, whose version is not pinned here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Optional, Sequence

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

_ENV = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
_BOOLS = {"--fp16", "--bf16", "--amp", "--memory-efficient-fp16", "--memory-efficient-bf16",
          "--checkpoint-activations", "--cpu", "--fp16-no-flatten-grads", "--reset-optimizer",
          "--no-epoch-checkpoints", "--no-last-checkpoints", "--no-save", "--fixed-validation-seed"}
_CKPT = re.compile(r"checkpoint_activations|\bcheckpoint\s*\(|checkpoint_wrapper|gradient_checkpointing")
_COMPILE = re.compile(r"torch\.compile|_dynamo|torch_compile")
_PEFT = re.compile(r"\bpeft\b|\blora\b|LoraConfig|adapter_dim", re.I)
_MAX_FILES = 400


def fairseq_args(argv: Sequence[str]) -> Optional[tuple[dict[str, str], dict[str, str]]]:
    """(environment words on the line, flags -> value as written, ``""`` for a switch) of a ``fairseq-train``
    line, or None when ``argv`` is no such line."""
    env: dict[str, str] = {}
    k = 0
    while k < len(argv) and _ENV.match(argv[k]):
        m = _ENV.match(argv[k])
        assert m is not None
        env[m.group(1)] = m.group(2)
        k += 1
    if k < len(argv) and os.path.basename(argv[k]) == "fairseq-train":
        k += 1
    elif k + 2 < len(argv) and os.path.basename(argv[k]).startswith("python") and argv[k + 1] == "-m" \
            and argv[k + 2] == "fairseq_cli.train":
        k += 3
    else:
        return None
    flags: dict[str, str] = {}
    rest = list(argv[k:])
    i = 0
    while i < len(rest):
        tok = rest[i]
        if not tok.startswith("--"):
            i += 1  # the data directory (positional)
            continue
        name, eq, value = tok.partition("=")
        if eq:
            flags[name] = value
        elif name in _BOOLS or i + 1 >= len(rest) or rest[i + 1].startswith("--"):
            flags[name] = ""
        else:
            flags[name] = rest[i + 1]
            i += 1
        i += 1
    return env, flags


def _int(text: Optional[str]) -> Optional[int]:
    if text is None or not re.fullmatch(r"\d+", text.strip()):
        return None
    return int(text)


def _user_code(project: Project, folder: Optional[str]) -> Optional[str]:
    """The text of the ``--user-dir`` plug-in's Python files, or None when it is not found here."""
    if not folder or "$" in folder:
        return None
    bases = []
    if project.launch_at is not None:
        bases.append((Path(str(project.root)) / project.launch_at[0]).parent)
    bases.append(Path(str(project.root)))
    for base in bases:
        target = (base / folder).resolve()
        if target.is_dir() and project.may_read(target):
            texts: list[str] = []
            for path in sorted(target.rglob("*.py"))[:_MAX_FILES]:
                try:
                    texts.append(read_text_limited(path, errors="replace"))
                except (OSError, ValueError):
                    return None
            return "\n".join(texts)
    return None


@register_adapter
class FairseqCliAdapter(Adapter):
    name = "fairseq_cli"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return fairseq_args(project.argv or []) is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found = fairseq_args(project.argv or [])
        if found is None:
            return
        env, flags = found
        at = project.launch_at

        def add(field: str, value: Any, flag: Optional[str], detail: str) -> None:
            source = Source("cli", at[0] if at else None, at[1] if at else None, flag, f"fairseq-train: {detail}")
            self.add_checked(plan, field, value, source, "medium")

        self._processes(env, flags, add)
        batch = flags.get("--batch-size", flags.get("--max-sentences"))
        flag = "--batch-size" if "--batch-size" in flags else "--max-sentences"
        if _int(batch) is not None and "--max-tokens" not in flags:
            add("batch.micro", _int(batch), flag, f"{flag} {batch}: sentences per GPU")
        update = flags.get("--update-freq")
        if update is None:
            add("batch.grad_accum", 1, None, "no --update-freq (fairseq's default 1)")
        elif _int(update.split(",")[0]) is not None:
            add("batch.grad_accum", _int(update.split(",")[0]), "--update-freq", f"--update-freq {update}")
        self._precision(flags, add)
        if flags.get("--optimizer"):
            add("optimizer.name", flags["--optimizer"], "--optimizer", f"--optimizer {flags['--optimizer']} "
                "(fairseq's registry name)")
        workers = flags.get("--num-workers")
        if workers is None:
            add("data.num_workers", 1, None, "no --num-workers (fairseq's default 1)")
        elif _int(workers) is not None:
            add("data.num_workers", _int(workers), "--num-workers", f"--num-workers {workers}")
        user = _user_code(project, flags.get("--user-dir")) if "--user-dir" in flags else ""
        if "--checkpoint-activations" in flags:
            add("memory.gradient_checkpointing", True, "--checkpoint-activations", "--checkpoint-activations")
        elif user is not None and _CKPT.search(user) is None:
            add("memory.gradient_checkpointing", False, None, "no --checkpoint-activations, and the --user-dir "
                "code calls no checkpoint")
        if user is not None and _COMPILE.search(user) is None:
            add("compile.enabled", False, None, "fairseq-train has no compile option and the --user-dir code "
                "names no torch.compile")
        if user is not None and _PEFT.search(user) is None:
            add("peft.method", "none", None, "fairseq-train has no PEFT option and the --user-dir code names "
                "no LoRA/PEFT")

    @staticmethod
    def _processes(env: dict[str, str], flags: dict[str, str], add: Any) -> None:
        world = _int(flags.get("--distributed-world-size"))
        flag: Optional[str] = "--distributed-world-size"
        visible = env.get("CUDA_VISIBLE_DEVICES")
        if world is None and visible is not None and re.fullmatch(r"\d+(,\d+)*", visible.strip()):
            world = len(visible.split(","))
            flag = None
            if not any(f.startswith("--distributed-") and f != "--distributed-world-size" for f in flags):
                add("dist.nodes", 1, None, f"CUDA_VISIBLE_DEVICES={visible}: one process per visible GPU of "
                    "this machine")
        if world is None:
            return
        add("dist.world_size", world, flag, f"{world} process(es)" + (
            "" if flag else f": one per GPU of CUDA_VISIBLE_DEVICES={visible}"))
        backend = flags.get("--ddp-backend", "pytorch_ddp")
        if world == 1:
            add("dist.sharding", "none", None, "one process: nothing replicated or sharded")
        elif backend in ("c10d", "legacy_ddp", "no_c10d", "pytorch_ddp", "slowmo"):
            add("dist.sharding", "ddp", "--ddp-backend", f"--ddp-backend {backend}: data parallel")

    @staticmethod
    def _precision(flags: dict[str, str], add: Any) -> None:
        if "--amp" in flags:
            add("precision.mode", "amp_fp16", "--amp", "--amp: fp16 autocast with a grad scaler")
        elif "--bf16" in flags or "--memory-efficient-bf16" in flags:
            add("precision.mode", "bf16", "--bf16", "--bf16: bf16 weights with an fp32 master copy")
        elif "--fp16" in flags or "--memory-efficient-fp16" in flags:
            flag = "--fp16" if "--fp16" in flags else "--memory-efficient-fp16"
            add("precision.mode", "fp16", flag, f"{flag}: fp16 weights with an fp32 master copy (FP16Optimizer) "
                "and dynamic loss scaling")
        elif "--cpu" not in flags:
            add("precision.mode", "fp32", None, "no --fp16/--bf16/--amp: fairseq trains in fp32")
