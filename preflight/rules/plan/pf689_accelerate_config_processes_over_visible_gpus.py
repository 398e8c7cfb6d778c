"""PF689 accelerate-config-processes-over-visible-gpus: an accelerate config file whose
``num_processes`` is larger than the GPUs the launch script makes visible."""

from __future__ import annotations

import os
import re
from typing import Any, Iterable, Iterator, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules.base import examples
from preflight.rules.plan._launch_hardware import comment_gpus, launch_scripts
from preflight.rules.plan._launch_support import launched_script, report_at
from preflight.rules.plan._visible_devices import visible_device_count
from preflight.sources import read_text_limited

_GPU_TYPES = ("MULTI_GPU", "DEEPSPEED", "FSDP", "MEGATRON_LM")


def _count(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _named_config(pctx: PlanContext, names: list[str]) -> Optional[Any]:
    """The loaded accelerate config the launch line names with ``--config_file``."""
    from preflight.adapters.accelerate import is_accelerate_config

    wanted = {os.path.normpath(n).replace("\\", "/") for n in names}
    for config in pctx.configs:
        display = os.path.normpath(str(config.path)).replace("\\", "/")
        if not isinstance(config.data, dict) or not is_accelerate_config(config.data):
            continue
        if any(display == w or display.endswith("/" + w.lstrip("./")) for w in wanted):
            return config
    return None


def _gpu_ids_count(value: Any) -> Optional[int]:
    """How many devices a literal ``gpu_ids`` list names (``0,1``, ``[0, 1]``, a single id); None for
    ``all``, empty or anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return 1 if value >= 0 else None
    if isinstance(value, (list, tuple)):
        return len(value) if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value) else None
    if not isinstance(value, str):
        return None
    ids = [x.strip() for x in value.strip().strip("[]").split(",") if x.strip()]
    return len(ids) if ids and all(x.isdigit() for x in ids) else None


def _commented_per_node(pctx: PlanContext) -> Optional[tuple[int, str]]:
    """(GPUs per node, where it is said) when the batch script's ``#SBATCH`` directives request a GPU count
    per node (``--gres=gpu:4``, ``--gpus-per-node=4``), else when the launch script's comments give one
    per-node GPU count (``# two nodes, 4 x A100 each``)."""
    from preflight.gate.slurm import parse_sbatch

    for display, path in launch_scripts(pctx):
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:  # InputRefused is an OSError
            continue
        if "#SBATCH" not in text:
            continue
        request = parse_sbatch(text, display).gpus()
        if request.per_node is not None and request.option is not None and request.option.origin == "directive":
            return request.per_node, request.how
    counts = {(m.count, m.text) for m in comment_gpus(pctx) if m.count is not None and m.per_node}
    if len({c for c, _ in counts}) != 1:
        return None
    count, text = sorted(counts)[0]
    return count, text


_OVERRIDES = ("--num_processes", "--num-processes", "--num_machines", "--num-machines", "--gpu_ids", "--gpu-ids")


def _launch_overrides(pctx: PlanContext) -> bool:
    """True when the launch line or a launch script passes the counts or the devices itself (the command
    line wins over the config file)."""
    if any(tok.split("=", 1)[0] in _OVERRIDES for tok in pctx.project.argv or ()):
        return True
    for _display, path in launch_scripts(pctx):
        try:
            text = read_text_limited(path, errors="replace")
        except OSError:  # InputRefused is an OSError
            continue
        if any(flag in text for flag in _OVERRIDES):
            return True
    return False


def _int(value: Any) -> Optional[int]:
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return _count(value)


def _mismatch(pctx: PlanContext, procs: int, machines: int, gpu_ids: Any,
              cache: dict[str, Any]) -> Optional[tuple[str, Severity]]:
    """The message and severity when ``procs // machines`` processes per node differ from the GPUs of a node
    (the literal ``gpu_ids`` list, else the per-node count of the launch script's comments)."""
    per = procs // machines
    head = (f"num_processes {procs} with num_machines {machines}: accelerate reads num_processes as the "
            f"total over all machines and starts {procs} // {machines} = {per} process(es) on each node, ")
    if per == 0:
        return (head + "so no node starts a training process and the launch fails. Set num_processes to "
                "num_machines x the GPUs of one node"), Severity.ERROR
    gpus = _gpu_ids_count(gpu_ids)
    where = f"gpu_ids {gpu_ids}"
    if gpus is None and str("all" if gpu_ids is None else gpu_ids).strip().lower() in ("all", ""):
        if "commented" not in cache:
            cache["commented"] = _commented_per_node(pctx)
        commented = cache["commented"]
        if commented is not None:
            gpus, where = commented[0], (commented[1] if commented[1].startswith("--")
                                         else f"`{commented[1]}` in the launch script")
    if gpus is None or per == gpus:
        if procs % machines == 0:
            return None
        return (head + f"{per * machines} in all, not {procs}: the world size, and the global batch and "
                f"learning-rate schedule sized from it, are not the ones written. Set num_processes to a "
                f"multiple of {machines} (num_machines x the GPUs of one node)"), Severity.WARNING
    if per > gpus:
        return (head + f"but a node has {gpus} GPU(s) ({where}): local ranks {gpus}..{per - 1} have no device "
                "and fail with \"CUDA error: invalid device ordinal\", so the job never starts. Accelerate "
                f"starts the same count on every node: set num_processes {gpus * machines}"), Severity.ERROR
    return (head + f"while a node has {gpus} GPU(s) ({where}): {gpus - per} GPU(s) of each node stay idle and "
            f"the global batch is {per * machines}/{gpus * machines} of the one the run was sized for. Set "
            f"num_processes {gpus * machines} (every GPU of every node)"), Severity.WARNING



# a single process that spreads one model over the visible GPUs itself (``device_map="auto"``, a layer moved
# to ``cuda:1``, ``.parallelize()``, a pipeline split): one process on two GPUs is then the design
_SPREADS = re.compile(r"device_map|max_memory|cuda:[1-9]|\.to\(\s*[1-9]|\.cuda\(\s*[1-9]|parallelize\(|"
                      r"Pipe\(|DataParallel\(|pipeline_parallel|tensor_parallel|torch\.cuda\.device_count|cuda:\{")


def _one_process(rule: Any, pctx: PlanContext, config: Any, data: Any, value: str, visible: int,
                 script: Any) -> Iterator[Finding]:
    """``num_processes: 1`` in the config the launch names while the launch makes two or more GPUs visible
    (community-events pull 6): accelerate starts one process on the first visible GPU and the others idle."""
    if str(data.get("distributed_type", "NO")).upper() not in ("NO", "MULTI_GPU"):
        return
    texts = [s.source.text for s in ([script] if script is not None else pctx.scripts)]
    if script is None and len(texts) != 1:
        return  # the launched script is not known: another file may spread the model
    if any(_SPREADS.search(t or "") for t in texts):
        return
    finding = pctx.config_finding(
        rule, config, ["num_processes"],
        f"num_processes: 1 (distributed_type: {data.get('distributed_type', 'NO')}) starts one training process, "
        f"but the launch makes {visible} GPUs visible (CUDA_VISIBLE_DEVICES={value}) and the script does not "
        f"spread the model over them itself: the run trains on the first GPU while {visible - 1} GPU(s) stay idle "
        f"for the whole run. Set distributed_type: MULTI_GPU and num_processes: {visible} (or make one GPU visible)")
    if finding is not None:
        finding.severity = Severity.WARNING
        yield finding


def _config_gpu_job(data: Any) -> bool:
    return (isinstance(data, dict) and data.get("use_cpu") is not True
            and str(data.get("distributed_type", "")).upper() in _GPU_TYPES)


def _per_node(rule: Any, pctx: PlanContext) -> Iterator[Finding]:
    """Multi-machine accelerate jobs whose processes per node (``num_processes // num_machines``) differ
    from the GPUs of a node: the launch line's flags over its config file, and each config file alone when
    no launch line or script passes the counts."""
    from preflight.adapters.accelerate import is_accelerate_config
    from preflight.adapters.launchers import parse_launch

    cache: dict[str, Any] = {}
    argv = pctx.project.argv
    info = parse_launch(argv) if argv else None
    if info is not None and info.launcher == "accelerate":
        opts = info.options
        if any(f"__{k}" in opts for k in ("num_processes", "num_machines", "gpu_ids")):
            if "__cpu" in opts or "__use_cpu" in opts:
                return
            named = _named_config(pctx, info.config_files) if info.config_files else None
            data = named.data if named is not None and isinstance(named.data, dict) else {}
            if named is not None and not _config_gpu_job(data):
                return
            procs = _int(opts.get("__num_processes", data.get("num_processes")))
            machines = _int(opts.get("__num_machines", data.get("num_machines", 1)))
            gpu_ids = opts.get("__gpu_ids", data.get("gpu_ids"))
            if procs is None or machines is None or machines < 2 or procs < 1:
                return
            found = _mismatch(pctx, procs, machines, gpu_ids, cache)
            if found is not None:
                finding = report_at(pctx, rule, launched_script(pctx, info.script), found[0])
                if finding is not None:
                    finding.severity = found[1]
                    yield finding
            return
    if _launch_overrides(pctx):
        return
    for config in pctx.configs:
        data = config.data
        if not isinstance(data, dict) or not is_accelerate_config(data) or not _config_gpu_job(data):
            continue
        procs, machines = _count(data.get("num_processes")), _count(data.get("num_machines"))
        if procs is None or machines is None or machines < 2 or procs < 1:
            continue
        found = _mismatch(pctx, procs, machines, data.get("gpu_ids"), cache)
        if found is not None:
            finding = pctx.config_finding(rule, config, ["num_processes"], found[0])
            if finding is not None:
                finding.severity = found[1]
                yield finding


@register
class AccelerateConfigProcessesOverVisibleGpus(PlanRule):
    code = "PF689"
    name = "accelerate-config-processes-over-visible-gpus"
    severity = Severity.ERROR
    category = Category.DISTRIBUTED
    frameworks = ("accelerate",)
    summary = ("the accelerate config file asks for more processes than the GPUs the launch makes visible "
               "(the extra ranks fail with \"invalid device ordinal\"), or, on several machines, starts a count "
               "per node that differs from the GPUs of a node")
    explanation = """
## What it finds

`accelerate launch --config_file cfg.yaml train.py` where the launch line (or an `export`
of the launch script) sets `CUDA_VISIBLE_DEVICES` to a literal list of K devices and the
config file says `num_processes: N` with N > K on one machine (`num_machines` 1 or
absent), and neither the line nor the file chooses the devices itself (`--gpu_ids`,
`gpu_ids:`).

On several machines (`num_machines: M` > 1) accelerate starts `num_processes // M`
processes on each node. A config whose per-node count differs from the GPUs of a node is
reported too: the node's GPUs are its literal `gpu_ids` list (`gpu_ids: 0,1`), or, with
`gpu_ids: all`, the per-node count the launch script's comments give (`# two nodes,
4 x A100 each`, `# 4x H100 per node`). More processes per node than GPUs is an error (the
"invalid device ordinal" above, on that node; accelerate issue 3894: `num_processes: 10,
num_machines: 2` meant as 8 + 2 GPUs starts 5 processes on the 2-GPU node); fewer is a
warning: `num_processes` written as the count of one node (accelerate issue 218, the
maintainer: "It should be the total number of GPUs you want to use") leaves GPUs of every
node idle and shrinks the global batch the run was sized for. Whatever the GPUs, a
`num_processes` below `num_machines` starts no process on any node (an error; accelerate
issue 2818: `num_processes: 1, num_machines: 2` from the questionnaire), and one that is
not a multiple of `num_machines` runs `(N // M) x M` processes, not N (a warning;
open-r1 issue 353: `--num_processes=7` over two machines). The launch line's
`--num_processes`/`--num_machines`/`--gpu_ids` win over the config file's values.


The opposite on one machine is a warning: `num_processes: 1` (with `distributed_type: NO` or
`MULTI_GPU`) while the launch line (or the launch script's `export`) makes two or more GPUs
visible starts one process on the first visible GPU, and the others idle for the whole run
(huggingface/community-events pull 6, the DCGAN config from the questionnaire on a two-GPU
machine: "num_processes: 1 -> so it's using only one GPU because that's what you asked for").
It stays silent when the launched script spreads the model over the GPUs itself
(`device_map`, `max_memory`, `cuda:1`, `.to(1)`, `.parallelize()`, `DataParallel(`, a pipeline
or tensor-parallel split, `torch.cuda.device_count`), when the launched script is not known
and the project has several scripts, when the config gives `gpu_ids`, or when one GPU is visible.

## Why it matters

`accelerate launch` starts `num_processes` processes and does not compare that count with
the visible devices. Each process selects the GPU numbered by its local rank
(`PartialState` -> `torch.cuda.set_device(local_rank)`), so ranks K..N-1 fail in
`Accelerator()` with "RuntimeError: CUDA error: invalid device ordinal" (ChatGLM-finetune-LoRA
issue 16: a config for four processes on a machine where two GPUs are visible). The
config file was usually written by `accelerate config` on another machine.

## How to fix it

Set `num_processes` to the number of visible GPUs (or pass `--num_processes K` on the
launch line), or make more devices visible. On several machines set `num_processes` to
the total, `num_machines` x the GPUs of one node; accelerate cannot start a different
count on each node, so nodes with different GPU counts run the smaller count on each.

## When preflight stays silent

* `--num_processes` is on the launch line (PF230 compares that with the devices), or the
  launch line names no `--config_file` (the default config lives outside the project).
* `CUDA_VISIBLE_DEVICES` is not a literal list, or the line/config gives `gpu_ids`.
* `num_processes` is at most the number of visible devices (one machine).
* Several machines, a total that is a multiple of `num_machines`, and `gpu_ids: all` (or
  absent) with no launch-script comment giving a per-node GPU count with "each"/"per node"
  (`# 4 x A100` alone may be the total); a count that is a shell variable; a config file
  while a launch script passes `--num_processes`, `--num_machines` or `--gpu_ids`;
  `use_cpu: true`; a `distributed_type` other than MULTI_GPU, DEEPSPEED, FSDP or
  MEGATRON_LM.
"""
    bad_examples = examples("preflight.rules.plan._pf689_examples", "PF689_BAD")
    good_examples = examples("preflight.rules.plan._pf689_examples", "PF689_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        yield from _per_node(self, pctx)
        argv = pctx.project.argv
        if not argv or not any("CUDA_VISIBLE_DEVICES" in tok for tok in argv):
            return
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(argv)
        if info.launcher != "accelerate" or "CUDA_VISIBLE_DEVICES" not in info.env:
            return
        opts = info.options
        if any(k in opts for k in ("__num_processes", "__gpu_ids", "__num_machines")) or not info.config_files:
            return
        visible = visible_device_count(info.env["CUDA_VISIBLE_DEVICES"])
        config = _named_config(pctx, info.config_files)
        if visible is None or config is None:
            return
        data = config.data
        procs = _count(data.get("num_processes"))
        machines = data.get("num_machines", 1)
        gpu_ids = data.get("gpu_ids")
        if procs is None or machines not in (1, None) or data.get("use_cpu") is True:
            return
        if gpu_ids is not None and str(gpu_ids).strip().lower() not in ("", "all"):
            return
        value = info.env["CUDA_VISIBLE_DEVICES"]
        if procs == 1 and visible >= 2:
            yield from _one_process(self, pctx, config, data, value, visible, launched_script(pctx, info.script))
            return
        if procs <= visible:
            return
        finding = pctx.config_finding(
            self, config, ["num_processes"],
            f"num_processes: {procs} starts {procs} processes on one machine, but the launch makes {visible} "
            f"GPU(s) visible (CUDA_VISIBLE_DEVICES={value}): each process selects the GPU of its local rank, so "
            f"ranks {visible}..{procs - 1} fail in Accelerator() with \"CUDA error: invalid device ordinal\". "
            f"Set num_processes: {visible} (or pass --num_processes {visible})")
        if finding is not None:
            yield finding
