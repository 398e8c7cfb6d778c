"""Launch commands: torchrun, ``python -m torch.distributed.{run,launch}``, ``accelerate launch``,
the ``deepspeed`` launcher and ``srun`` wrapping any of them (or a plain ``python``).

The command is what the user gives after ``--`` (``project.argv``), already split into
tokens. :func:`parse_launch` is a pure function (also for the scheduler gate) that returns a
:class:`LaunchInfo`; the adapter turns it into facts with kind ``cli`` (key = the flag,
detail = the launch line) and a ``derived`` world size whose detail holds the arithmetic.

Where each number comes from (frameworks.md §1.6, world size by launcher):
- torchrun: ``--nnodes`` (``N`` or ``MIN:MAX``, default ``"1:1"``) x ``--nproc-per-node``
  (int or ``auto/cpu/gpu/xpu``, default ``"1"``) [torch/distributed/run.py @010929fd].
- accelerate: ``--num_processes`` is the total over all machines, ``--num_machines``
  (frameworks.md §1.2).
- deepspeed: ``--num_nodes`` x ``--num_gpus``/``--num_accelerators`` (both default -1 =
  every node of the hostfile / every visible device; frameworks.md §1.4).
- srun: ``-N/--nodes`` x ``--ntasks-per-node`` or ``-n/--ntasks`` when srun starts the
  Python processes itself; when it wraps a launcher, each task is one launcher per node.
- mpiexec/mpirun (Open MPI, MPICH, Intel MPI): ``-n/-np/--np/-c N`` processes in all, each one
  Python process (``mpiexec -n $NUM_GPUS python scripts/image_train.py``, openai/improved-diffusion
  README.md:53); ``-npernode/--npernode/-ppn/--map-by ppr:N:node`` per node.

A launcher alone does not say the job uses DDP (it starts N processes; the script decides),
so no sharding is inferred, except what ``accelerate launch --use_deepspeed/--use_fsdp``
states explicitly. A launch line that runs a different script than the audited one adds a
note and no facts.
"""

from __future__ import annotations

import os
import re
import shlex
from typing import Any, Optional, Sequence

from preflight.adapters._cache import cache_stays_on
from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING
from preflight.adapters.launchers_fabric import fabric_facts, is_fabric, parse_fabric

from preflight._record import dataclass, field
from preflight.adapters_api import Adapter, Project
from preflight.plan import FIELDS, Source, TrainingPlan
from preflight.registry import register_adapter

_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_PY_FLAGS_WITH_VALUE = ("-W", "-X", "-Q")

# Launcher flags that take no value (everything else starting with "-" takes one, unless
# written --flag=value or followed by a .py file).
_TORCHRUN_BOOL = {"--standalone", "-m", "--module", "--no-python", "--no_python", "--run-path", "--run_path",
                  "--use-env", "--use_env"}
_ACCELERATE_BOOL = {"-q", "--quiet", "--cpu", "--multi_gpu", "--tpu", "--ipex", "--use_xpu", "--use_deepspeed",
                    "--use_fsdp", "--use_megatron_lm", "--use_parallelism_config", "--same_network", "-m",
                    "--module", "--no_python", "--downcast_bf16", "--debug", "--tpu_cluster", "--tpu_use_cluster",
                    "--no_tpu_cluster", "--tpu_use_sudo", "--enable_cpu_affinity", "--dynamo_use_fullgraph",
                    "--dynamo_use_dynamic", "--dynamo_use_regional_compilation", "-h", "--help"}
_DEEPSPEED_BOOL = {"--no_python", "--module", "--no_local_rank", "--no_ssh_check", "--force_multi",
                   "--save_pid", "--elastic_training", "--bind_cores_to_rank", "--no_ssh", "-h", "--help"}
_SRUN_BOOL = {"-l", "--label", "-u", "--unbuffered", "--pty", "--exclusive", "-K", "-Q", "--quiet", "-v",
              "--verbose", "-X", "--overlap", "--overcommit", "-O", "-E", "--preserve-env", "-Z", "--no-allocate",
              "--multi-prog", "-s", "--oversubscribe", "--disable-status"}
_MPI_BOOL = {"--allow-run-as-root", "--oversubscribe", "-oversubscribe", "--tag-output", "-tag-output",
             "--report-bindings", "-report-bindings", "-v", "--verbose", "--display-map", "-display-map", "--nolocal",
             "-nolocal", "--noprefix", "-q", "--quiet", "--use-hwthread-cpus", "--timestamp-output", "-l", "-prepend-rank",
             "--prepend-rank", "-h", "--help"}
_MPI_HEADS = ("mpiexec", "mpirun", "mpiexec.hydra", "orterun")
_DS_CONFIG_ARGS = ("--deepspeed_config", "--deepspeed", "--ds_config", "--deepspeed-config")
_ACCEL_PRECISION = {"no": "fp32", "fp16": "amp_fp16", "bf16": "amp_bf16", "fp8": "fp8"}
_ZERO = ZERO_STAGE_SHARDING  # preflight.adapters.deepspeed owns the stage semantics
_FSDP = {"FULL_SHARD": "fsdp_full", "1": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "2": "fsdp_grad_op",
         "NO_SHARD": "ddp", "3": "ddp", "HYBRID_SHARD": "fsdp_hybrid", "4": "fsdp_hybrid",
         "HYBRID_SHARD_ZERO2": "fsdp_hybrid", "5": "fsdp_hybrid"}
_DEVICES = ("none", "cpu", "nvme")
_COUNT_FLAGS = {"__nnodes", "__nproc_per_node", "__num_processes", "__num_machines", "__num_nodes", "__num_gpus",
                "__num_accelerators", "-N", "__nodes", "-n", "__ntasks", "__ntasks_per_node", "__gpus_per_node"}


@dataclass
class LaunchInfo:
    """What a launch command says. ``options`` holds the launcher's flags as written
    (``--nproc_per_node`` -> ``"8"``; a flag without value -> ``""``), ``wrapper_options``
    those of ``srun``. ``script`` is the script path, or the module of ``-m``."""

    launcher: Optional[str] = None  # torchrun, torch.distributed.launch, accelerate, deepspeed, python
    nodes: Optional[int] = None
    procs_per_node: Optional[int] = None
    total_procs: Optional[int] = None
    script: Optional[str] = None
    script_args: list[str] = field(default_factory=list)
    config_files: list[str] = field(default_factory=list)
    mixed_precision: Optional[str] = None  # accelerate's value as given: no, fp16, bf16, fp8
    notes: list[str] = field(default_factory=list)
    module: bool = False  # script is a module name (-m)
    wrapper: Optional[str] = None  # srun, mpiexec
    options: dict[str, str] = field(default_factory=dict)
    wrapper_options: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    line: str = ""
    nodes_from_wrapper: bool = False  # srun's node count spans torchrun's rendezvous (srun_torchrun.py)


def _int(text: Optional[str]) -> Optional[int]:
    if text is None:
        return None
    try:
        value = int(text.strip())
    except ValueError:
        return None
    return value


def _norm(flag: str) -> str:
    """``--nproc-per-node`` and ``--nproc_per_node`` are one flag."""
    return flag.replace("-", "_") if flag.startswith("--") else flag


def _take_env(tokens: list[str], i: int, info: LaunchInfo) -> int:
    while i < len(tokens):
        tok = tokens[i]
        if tok == "env" and i + 1 < len(tokens) and _ENV.match(tokens[i + 1]):
            i += 1
            continue
        if not _ENV.match(tok):
            break
        name, _, value = tok.partition("=")
        info.env[name] = value
        if name == "CUDA_VISIBLE_DEVICES" and "$" in value:
            # `CUDA_VISIBLE_DEVICES=$id` with `id=$CUDA_VISIBLE_DEVICES` (asteroid run.sh:25,97): set at launch
            info.notes.append(f"CUDA_VISIBLE_DEVICES={value}: the visible devices are set when the job starts, "
                              "not known statically")
        elif name == "CUDA_VISIBLE_DEVICES":
            ids = [x for x in value.split(",") if x.strip()]
            info.notes.append(f"CUDA_VISIBLE_DEVICES={value} makes {len(ids)} device(s) visible per node")
        elif name == "PYTORCH_CUDA_ALLOC_CONF":
            info.notes.append(f"environment {tok} set on the launch line: the caching allocator's "
                              "configuration (expandable_segments is read)")
        else:
            info.notes.append(f"environment {tok} set on the launch line (not read)")
        i += 1
    return i


def _options(tokens: list[str], i: int, bools: set[str], out: dict[str, str],
             short_attached: bool = False) -> int:
    """Read ``-x``/``--flag`` options from ``tokens[i:]`` into ``out`` (normalised names);
    return the index of the first token that is not an option (the script or command)."""
    while i < len(tokens):
        tok = tokens[i]
        if tok == "--":
            return i + 1
        if not tok.startswith("-") or tok == "-":
            return i
        if tok.startswith("--") and "=" in tok:
            name, _, value = tok.partition("=")
            out[_norm(name)] = value
            i += 1
            continue
        if short_attached and not tok.startswith("--") and len(tok) > 2 and tok[:2] not in bools:
            out[tok[:2]] = tok[2:]
            i += 1
            continue
        if tok in bools or _norm(tok) in {_norm(b) for b in bools}:
            out[_norm(tok)] = ""
            i += 1
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if nxt is None or nxt.endswith(".py") or nxt.startswith("--"):
            out[_norm(tok)] = ""  # an unknown switch: no value follows
            i += 1
            continue
        out[_norm(tok)] = nxt
        i += 2
    return i


def _python_target(tokens: list[str], i: int) -> tuple[Optional[str], bool, int]:
    """After ``python``: skip interpreter flags; return (script or module, is_module, index after it)."""
    while i < len(tokens):
        tok = tokens[i]
        if tok == "-m" and i + 1 < len(tokens):
            return tokens[i + 1], True, i + 2
        if tok.startswith("-m") and len(tok) > 2:
            return tok[2:], True, i + 1
        if tok in _PY_FLAGS_WITH_VALUE:
            i += 2
            continue
        if tok.startswith("-"):
            if tok == "-c":
                return None, False, len(tokens)
            i += 1
            continue
        return tok, False, i + 1
    return None, False, i


def _set_script(info: LaunchInfo, tokens: list[str], i: int, module: bool = False) -> None:
    if i < len(tokens):
        info.script = tokens[i]
        info.module = module
        info.script_args = list(tokens[i + 1:])


def parse_launch(argv: Sequence[str]) -> LaunchInfo:
    """Parse a launch command (tokens as the shell splits them). Never raises."""
    tokens = [str(t) for t in argv]
    info = LaunchInfo(line=shlex.join(tokens))
    i = _take_env(tokens, 0, info)
    if i < len(tokens) and os.path.basename(tokens[i]) == "srun":
        info.wrapper = "srun"
        i = _options(tokens, i + 1, _SRUN_BOOL, info.wrapper_options, short_attached=True)
        i = _take_env(tokens, i, info)
    elif i < len(tokens) and os.path.basename(tokens[i]) in _MPI_HEADS:
        info.wrapper = "mpiexec"
        i = _options(tokens, i + 1, _MPI_BOOL, info.wrapper_options)
        i = _take_env(tokens, i, info)
    if i >= len(tokens):
        return info
    head = os.path.basename(tokens[i])
    if is_fabric(tokens, i) >= 0:
        parse_fabric(info, tokens, is_fabric(tokens, i))
    elif head in ("torchrun", "torch.distributed.run"):
        info.launcher = "torchrun"
        _torchrun(info, tokens, i + 1)
    elif head == "accelerate" and i + 1 < len(tokens) and tokens[i + 1] == "launch":
        info.launcher = "accelerate"
        _accelerate(info, tokens, i + 2)
    elif head in ("accelerate-launch",):
        info.launcher = "accelerate"
        _accelerate(info, tokens, i + 1)
    elif head == "deepspeed":
        info.launcher = "deepspeed"
        _deepspeed(info, tokens, i + 1)
    elif head == "composer":
        info.launcher = "composer"
        _composer(info, tokens, i + 1)
    elif head == "colossalai" and i + 1 < len(tokens) and tokens[i + 1] == "run":
        from preflight.adapters.launch_colossalai import parse_colossalai_run

        parse_colossalai_run(info, tokens, i + 2)
    elif _PYTHON.match(head):
        target, module, j = _python_target(tokens, i + 1)
        if module and target in ("torch.distributed.run", "torch.distributed.launch"):
            info.launcher = "torchrun" if target.endswith("run") else "torch.distributed.launch"
            _torchrun(info, tokens, j)
        elif module and target == "accelerate.commands.launch":
            info.launcher = "accelerate"
            _accelerate(info, tokens, j)
        elif module and target in ("deepspeed", "deepspeed.launcher.runner"):
            info.launcher = "deepspeed"
            _deepspeed(info, tokens, j)
        elif target is not None:
            info.launcher = "python"
            info.script, info.module, info.script_args = target, module, list(tokens[j:])
    elif tokens[i].endswith(".py"):
        info.launcher = "python"  # ./train.py
        _set_script(info, tokens, i)
    else:
        info.script_args = list(tokens[i:])  # no launcher: the script's own arguments
    if info.wrapper == "srun":
        _srun(info)
    elif info.wrapper == "mpiexec":
        _mpiexec(info)
    _config_args(info)
    for opts in (info.wrapper_options, info.options):
        for name, value in opts.items():
            if name in _COUNT_FLAGS and "$" in value:
                flag = name.replace("__", "--", 1).replace("_", "-" if opts is info.wrapper_options else "_")
                info.notes.append(f"{flag} {value} is a shell variable, set when the job runs; not known statically")
    return info


def _torchrun(info: LaunchInfo, tokens: list[str], i: int) -> None:
    i = _options(tokens, i, _TORCHRUN_BOOL, info.options)
    opts = info.options
    _set_script(info, tokens, i, module="-m" in opts or "__module" in opts)
    nnodes = opts.get("__nnodes")
    if nnodes is not None:
        lo, _, hi = nnodes.partition(":")
        if hi and _int(lo) is not None and _int(lo) == _int(hi):
            info.nodes = _int(lo)
        elif hi and "$" not in nnodes:
            info.notes.append(f"--nnodes {nnodes} is elastic (min:max nodes); the node count is known at run time")
        else:
            info.nodes = _int(nnodes)
    elif "__standalone" in opts:
        info.nodes = 1
    nproc = opts.get("__nproc_per_node")
    if nproc is not None:
        info.procs_per_node = _int(nproc)
        if info.procs_per_node is None and "$" not in nproc:
            info.notes.append(f"--nproc_per_node {nproc} counts the devices at run time (one process each)")
    if "__use_env" in opts:
        info.notes.append("torch.distributed.launch --use_env: LOCAL_RANK comes from the environment")
    if info.launcher == "torch.distributed.launch":
        info.notes.append("torch.distributed.launch is deprecated in favour of torchrun")
    if info.nodes is not None and info.procs_per_node is not None:
        info.total_procs = info.nodes * info.procs_per_node
    elif nnodes is None and "__standalone" not in opts and info.procs_per_node is not None:
        info.total_procs = info.procs_per_node  # --nnodes defaults to 1:1


_COMPOSER_BOOL = {"-v", "--verbose", "-m", "--module_mode", "-c", "--command_mode"}


def _composer(info: LaunchInfo, tokens: list[str], i: int) -> None:
    """MosaicML's ``composer [-n N] [--world_size W] [--node_rank R] train.py args``
    (composer/cli/launcher.py): ``-n/--nproc`` processes on this node (default: every GPU of
    the node), ``--world_size`` processes over all nodes (default: ``--nproc``)."""
    i = _options(tokens, i, _COMPOSER_BOOL, info.options)
    opts = info.options
    _set_script(info, tokens, i, module="-m" in opts or "__module_mode" in opts)
    nproc = _int(opts.get("-n", opts.get("__nproc")))
    world = _int(opts.get("__world_size"))
    info.procs_per_node = nproc
    info.total_procs = world if world is not None else nproc
    if world is not None and nproc:
        info.nodes = world // nproc if world % nproc == 0 else None
    elif world is None and nproc is not None:
        info.nodes = 1
    if nproc is None and world is None:
        info.notes.append("composer without -n/--nproc starts one process per GPU of the node "
                          "(the count is known at run time)")


def _accelerate(info: LaunchInfo, tokens: list[str], i: int) -> None:
    i = _options(tokens, i, _ACCELERATE_BOOL, info.options)
    opts = info.options
    _set_script(info, tokens, i, module="-m" in opts or "__module" in opts)
    info.total_procs = _int(opts.get("__num_processes"))
    info.nodes = _int(opts.get("__num_machines"))
    if info.total_procs is not None and info.nodes:
        if info.total_procs % info.nodes == 0:
            info.procs_per_node = info.total_procs // info.nodes
        else:
            info.notes.append(f"--num_processes {info.total_procs} is not a multiple of --num_machines {info.nodes}")
    elif info.total_procs is not None and "__num_machines" not in opts and "__config_file" not in opts:
        info.nodes, info.procs_per_node = 1, info.total_procs  # --num_machines defaults to 1
    if "__mixed_precision" in opts:
        info.mixed_precision = opts["__mixed_precision"].lower()
    for flag in ("__config_file", "__deepspeed_config_file"):
        if opts.get(flag):
            info.config_files.append(opts[flag])
    if "__num_processes" not in opts:
        where = "--config_file " + opts["__config_file"] if opts.get("__config_file") else \
            "the accelerate config (default ~/.cache/huggingface/accelerate/default_config.yaml)"
        info.notes.append(f"accelerate launch without --num_processes: the process count comes from {where}")
    if opts.get("__gpu_ids"):
        info.notes.append(f"--gpu_ids {opts['__gpu_ids']} selects the devices used on each machine")


def _deepspeed(info: LaunchInfo, tokens: list[str], i: int) -> None:
    aliases = {"-H": "__hostfile", "-i": "__include", "-e": "__exclude"}
    raw: dict[str, str] = {}
    i = _options(tokens, i, _DEEPSPEED_BOOL, raw)
    info.options = {aliases.get(k, k): v for k, v in raw.items()}
    opts = info.options
    _set_script(info, tokens, i, module="__module" in opts)
    nodes = _int(opts.get("__num_nodes"))
    gpus = _int(opts.get("__num_gpus", opts.get("__num_accelerators")))
    info.nodes = nodes if nodes is not None and nodes > 0 else None
    info.procs_per_node = gpus if gpus is not None and gpus > 0 else None
    if info.nodes is not None and info.procs_per_node is not None:
        info.total_procs = info.nodes * info.procs_per_node
    included = _include_slots(opts.get("__include") or "")
    if included is not None:  # --include localhost:1 / host1:0,1@host2:0,1: exactly these devices
        info.nodes, per_host = len(included), set(included)
        info.procs_per_node = per_host.pop() if len(per_host) == 1 else None
        info.total_procs = sum(included)
        info.notes.append(f"deepspeed --include {opts['__include']}: {info.total_procs} device(s) on "
                          f"{info.nodes} host(s)")
    for flag in ("__include", "__exclude"):
        if opts.get(flag) and not (flag == "__include" and included is not None):
            info.notes.append(f"deepspeed {flag.replace('__', '--')} {opts[flag]} restricts the hosts/devices used")
    if opts.get("__hostfile"):
        info.notes.append(f"deepspeed --hostfile {opts['__hostfile']}: nodes and slots come from that file")
    elif info.nodes is None:
        info.notes.append("deepspeed without --num_nodes: every host of the hostfile (default /job/hostfile) "
                          "is used, or this machine alone when there is none")


def _include_slots(text: str) -> Optional[list[int]]:
    """Devices per host of a deepspeed ``--include`` (``localhost:1``, ``h1:0,1@h2:0,1``); None
    when a host names no slots (all of its devices) or the text is not of that form."""
    if not text:
        return None
    out: list[int] = []
    for part in text.split("@"):
        host, sep, slots = part.partition(":")
        if not host or not sep or not slots:
            return None
        ids = slots.split(",")
        if not all(i.strip().isdigit() for i in ids):
            return None
        out.append(len(set(i.strip() for i in ids)))
    return out


def _srun(info: LaunchInfo) -> None:
    w = info.wrapper_options
    nodes_text = w.get("-N", w.get("__nodes"))
    per_node = _int(w.get("__ntasks_per_node"))
    ntasks = _int(w.get("-n", w.get("__ntasks")))
    nodes = _int(nodes_text)
    if nodes_text is not None and nodes is None:
        info.notes.append(f"srun --nodes {nodes_text} is a range; the node count is chosen by SLURM")
    gpus = w.get("__gpus_per_node") or w.get("__gres")
    if gpus:
        info.notes.append(f"srun asks for GPUs per node: {gpus}")
    if info.launcher in (None, "python"):
        if nodes is not None:
            info.nodes = nodes
        if per_node is not None:
            info.procs_per_node = per_node
        if ntasks is not None:
            info.total_procs = ntasks
        elif nodes is not None and per_node is not None:
            info.total_procs = nodes * per_node
        if info.total_procs is not None and nodes is not None and per_node is None \
                and info.total_procs % nodes == 0:
            info.procs_per_node = info.total_procs // nodes
    else:
        info.notes.append(f"srun starts one {info.launcher} per task; the launcher's flags set the process count")
        if per_node is not None and per_node != 1:
            info.notes.append(f"srun --ntasks-per-node {per_node} starts {per_node} {info.launcher} launchers on each "
                              "node, each starting its own processes; with a launcher it is usually 1")
        if info.launcher in ("torchrun", "torch.distributed.launch") and "__nnodes" not in info.options \
                and "__standalone" not in info.options:
            from preflight.adapters.srun_torchrun import srun_torchrun_nodes

            srun_torchrun_nodes(info, nodes, ntasks, per_node)


def _mpi_counts(w: dict[str, str]) -> tuple[Optional[str], Optional[int], Optional[int]]:
    """(flag, processes in all, processes per node) of an mpiexec/mpirun command."""
    flag = next((f for f in ("-n", "-np", "__np", "__n", "-c") if f in w), None)
    total = _int(w.get(flag)) if flag else None
    per_node = _int(next((w[f] for f in ("-npernode", "__npernode", "-ppn", "__ppn", "-N") if f in w), None))
    ppr = re.fullmatch(r"ppr:(\d+):node\b.*", w.get("__map_by", w.get("-map-by", "")))
    if per_node is None and ppr:
        per_node = int(ppr.group(1))
    return flag, total, per_node


def _mpiexec(info: LaunchInfo) -> None:
    flag, total, per_node = _mpi_counts(info.wrapper_options)
    if info.launcher not in (None, "python"):
        info.notes.append(f"mpiexec starts one {info.launcher} per process; the launcher's flags set the process count")
        return
    if total is not None:
        info.total_procs = total
    if per_node is not None:
        info.procs_per_node = per_node
        if total is not None and total % per_node == 0:
            info.nodes = total // per_node
    if flag is None:
        info.notes.append("mpiexec without -n/-np: one process per slot of the hosts or allocation, "
                          "not known statically")


def _config_args(info: LaunchInfo) -> None:
    args = info.script_args
    for k, tok in enumerate(args):
        name, eq, value = tok.partition("=")
        if name in _DS_CONFIG_ARGS:
            if not eq:
                value = args[k + 1] if k + 1 < len(args) and not args[k + 1].startswith("-") else ""
            if value and value.endswith((".json", ".yaml", ".yml")):
                info.config_files.append(value)


def _same_file(a: str, b: str) -> bool:
    return os.path.normpath(a) == os.path.normpath(b) or os.path.basename(a) == os.path.basename(b)


@register_adapter
class LaunchersAdapter(Adapter):
    name = "launchers"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        if not project.argv:
            return False
        info = parse_launch(project.argv)
        return info.launcher is not None or info.wrapper is not None

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        info = parse_launch(project.argv)
        if not self._runs_audited_script(project, plan, info):
            return
        for text in info.notes:
            self.note(plan, text)
        self._config_notes(project, plan, info)
        line = info.line
        self._allocator_env(plan, info, line)
        if info.launcher in ("torchrun", "torch.distributed.launch"):
            self._torchrun(plan, info, line)
        elif info.launcher == "colossalai":
            from preflight.adapters.launch_colossalai import colossalai_facts

            colossalai_facts(self, plan, info, line)
        elif info.launcher == "accelerate":
            self._accelerate(project, plan, info, line)
        elif info.launcher == "deepspeed":
            self._deepspeed(plan, info, line)
        elif info.launcher == "fabric":
            fabric_facts(self, project, plan, info, line)
        elif info.launcher == "composer" and info.total_procs is not None:
            flag = "--world_size" if "__world_size" in info.options else "-n"
            self._world(plan, info.total_procs, f"composer {flag} {info.total_procs}", line, flag)
        if info.wrapper == "srun":
            self._srun(plan, info, line)
        elif info.wrapper == "mpiexec" and info.launcher in (None, "python"):
            self._mpiexec(plan, info, line, project)

    # -- helpers -------------------------------------------------------------
    def _allocator_env(self, plan: TrainingPlan, info: LaunchInfo, line: str) -> None:
        """``memory.expandable_segments`` from ``PYTORCH_CUDA_ALLOC_CONF=...`` on the launch line
        (the launched processes' environment; torch reads it when CUDA starts)."""
        conf = info.env.get("PYTORCH_CUDA_ALLOC_CONF", "").strip("'\"")
        options = dict(part.split(":", 1) for part in conf.replace(" ", "").split(",") if ":" in part)
        flag = options.get("expandable_segments", "").lower()
        if flag in ("true", "false") and "memory.expandable_segments" in FIELDS:
            self._put(plan, "memory.expandable_segments", flag == "true",
                      self._src("PYTORCH_CUDA_ALLOC_CONF", line, f"PYTORCH_CUDA_ALLOC_CONF={conf}"))

    def _runs_audited_script(self, project: Project, plan: TrainingPlan, info: LaunchInfo) -> bool:
        if info.script is None or not project.scripts:
            return True
        paths = [str(s.source.display) for s in project.scripts]
        if info.module:
            mod = info.script.replace(".", "/")
            stems = [p[:-3].replace(os.sep, "/") for p in paths if p.endswith(".py")]
            stems = [s[:-len("/__main__")] if s.endswith("/__main__") else s for s in stems]  # a package run with -m
            if any(s == mod or s.endswith("/" + mod) or s.rsplit("/", 1)[-1] == mod.rsplit("/", 1)[-1]
                   for s in stems):
                return True
        elif any(_same_file(info.script, p) for p in paths):
            return True
        what = f"module {info.script}" if info.module else info.script
        self.note(plan, f"the launch command runs {what}, not the audited script(s) {', '.join(paths)}; "
                        "its flags were not used")
        return False

    def _config_notes(self, project: Project, plan: TrainingPlan, info: LaunchInfo) -> None:
        given = [str(src.display) for src, _ in project.configs]
        for path in info.config_files:
            if any(_same_file(path, g) for g in given):
                self.note(plan, f"the launch command names {path}, which is audited (--config)")
            else:
                self.note(plan, f"the launch command names {path}; pass it with --config to audit it")

    def _src(self, flag: str, line: str, detail: str = "") -> Source:
        text = f"{detail} (launch line: {line})" if detail else f"launch line: {line}"
        return Source("cli", None, None, flag, text)

    def _flag(self, info: LaunchInfo, *names: str) -> str:
        """The flag as the user spelled it (for the source key)."""
        for tok in info.line.split():
            base = tok.split("=", 1)[0]
            if _norm(base) in names or base in names:
                return base
        return names[0].replace("__", "--", 1)

    def _put(self, plan: TrainingPlan, field: str, value: Any, source: Source, confidence: str = "high") -> None:
        self.add_checked(plan, field, value, source, confidence)

    def _world(self, plan: TrainingPlan, value: int, arithmetic: str, line: str, key: Optional[str],
               confidence: str = "high") -> None:
        self._put(plan, "dist.world_size", value,
                  Source("derived", None, None, key, f"{arithmetic} (launch line: {line})"), confidence)

    # -- launchers -------------------------------------------------------------
    def _torchrun(self, plan: TrainingPlan, info: LaunchInfo, line: str) -> None:
        opts = info.options
        nodes_flag = self._flag(info, "__nnodes") if "__nnodes" in opts else None
        if info.nodes is not None and nodes_flag is not None:
            self._put(plan, "dist.nodes", info.nodes, self._src(nodes_flag, line))
        elif info.nodes is not None and "__standalone" in opts:
            self._put(plan, "dist.nodes", 1, self._src("--standalone", line, "--standalone: a single node"))
        elif info.nodes_from_wrapper:
            pass  # srun's node count, put by _srun
        elif "__nnodes" not in opts:
            self._put(plan, "dist.nodes", 1, Source("default", None, None, "--nnodes",
                                                    f"{info.launcher} default --nnodes 1:1 (torch/distributed/run.py)"),
                      "medium")
        nproc_flag = self._flag(info, "__nproc_per_node")
        if info.procs_per_node is not None:
            self._put(plan, "dist.devices_per_node", info.procs_per_node, self._src(nproc_flag, line))
        elif "__nproc_per_node" not in opts:
            self._put(plan, "dist.devices_per_node", 1,
                      Source("default", None, None, "--nproc_per_node",
                             f"{info.launcher} default --nproc_per_node 1 (torch/distributed/run.py)"), "medium")
        if info.total_procs is not None and info.nodes_from_wrapper:
            self._world(plan, info.total_procs, f"srun: one {info.launcher} on each of {info.nodes} nodes x "
                                                f"{nproc_flag} {info.procs_per_node} = {info.total_procs} processes "
                                                "(torchrun's --nnodes not given)", line, nproc_flag, "medium")
        elif info.total_procs is not None:
            nodes = f"{nodes_flag} {info.nodes}" if nodes_flag else "--nnodes 1 (default)"
            self._world(plan, info.total_procs, f"{nodes} x {nproc_flag} {info.procs_per_node} = "
                                                f"{info.total_procs} processes", line, nproc_flag)
        if info.total_procs is not None and info.total_procs > 1:
            self.note(plan, f"{info.launcher} starts {info.total_procs} processes; whether they train data-parallel "
                            "(DDP/FSDP/...) is up to the script")

    def _accelerate(self, project: Project, plan: TrainingPlan, info: LaunchInfo, line: str) -> None:
        opts = info.options
        uses_accelerate = any(project.index(s).imports_any("accelerate") for s in project.scripts)
        conf = "high" if uses_accelerate else "medium"
        if info.total_procs is not None:
            flag = self._flag(info, "__num_processes")
            self._put(plan, "dist.world_size", info.total_procs,
                      self._src(flag, line, "accelerate --num_processes is the total over all machines"))
        if "__num_machines" in opts and info.nodes is not None:
            self._put(plan, "dist.nodes", info.nodes, self._src(self._flag(info, "__num_machines"), line))
        if info.procs_per_node is not None and info.total_procs is not None and info.nodes is not None:
            detail = (f"--num_processes {info.total_procs} / --num_machines {info.nodes} = {info.procs_per_node} "
                      if "__num_machines" in opts else
                      f"--num_processes {info.total_procs} on 1 machine (--num_machines defaults to 1) ")
            self._put(plan, "dist.devices_per_node", info.procs_per_node,
                      Source("derived", None, None, "--num_processes", f"{detail}(launch line: {line})"))
        if info.mixed_precision is not None:
            mode = _ACCEL_PRECISION.get(info.mixed_precision)
            if mode is None:
                self.note(plan, f"--mixed_precision {info.mixed_precision} is not an accelerate value "
                                "(no, fp16, bf16, fp8)")
            else:
                self._put(plan, "precision.mode", mode,
                          self._src(self._flag(info, "__mixed_precision"), line,
                                    f"--mixed_precision {info.mixed_precision}; an explicit "
                                    "Accelerator(mixed_precision=...) in the script wins"), conf)
        if "__use_deepspeed" in opts:
            self._accelerate_deepspeed(plan, info, line, conf)
        elif "__use_fsdp" in opts:
            self._accelerate_fsdp(plan, info, line, conf)
        elif "__gradient_accumulation_steps" in opts:
            self.note(plan, "--gradient_accumulation_steps is read by accelerate only with --use_deepspeed")
        if "__multi_gpu" in opts:
            self.note(plan, "accelerate --multi_gpu: prepared models are wrapped in DDP when more than one "
                            "process runs")

    def _accelerate_deepspeed(self, plan: TrainingPlan, info: LaunchInfo, line: str, conf: str) -> None:
        opts = info.options
        if opts.get("__deepspeed_config_file"):
            self.note(plan, "accelerate --deepspeed_config_file: ZeRO settings come from that file; "
                            "the --zero_stage/--offload_* flags are ignored by accelerate")
            return
        stage = _int(opts.get("__zero_stage"))
        if stage in _ZERO:
            self._put(plan, "dist.sharding", _ZERO[stage],
                      self._src(self._flag(info, "__zero_stage"), line, f"accelerate DeepSpeed ZeRO stage {stage}"),
                      conf)
        elif "__zero_stage" not in opts:
            self._put(plan, "dist.sharding", "zero2",
                      Source("default", None, None, "--zero_stage",
                             "accelerate --use_deepspeed default ZeRO stage 2 (ACCELERATE_DEEPSPEED_ZERO_STAGE, "
                             "frameworks.md §1.2)"), "medium")
        for flag, fld in (("__offload_optimizer_device", "dist.offload_optimizer"),
                          ("__offload_param_device", "dist.offload_params")):
            value = opts.get(flag, "").lower()
            if value in _DEVICES:
                self._put(plan, fld, value, self._src(self._flag(info, flag), line), conf)
        accum = _int(opts.get("__gradient_accumulation_steps"))
        if accum is not None:
            self._put(plan, "batch.grad_accum", accum,
                      self._src(self._flag(info, "__gradient_accumulation_steps"), line,
                                "accelerate DeepSpeed gradient accumulation"), conf)

    def _accelerate_fsdp(self, plan: TrainingPlan, info: LaunchInfo, line: str, conf: str) -> None:
        opts = info.options
        strategy = opts.get("__fsdp_sharding_strategy")
        if strategy is not None and strategy.upper() in _FSDP:
            self._put(plan, "dist.sharding", _FSDP[strategy.upper()],
                      self._src(self._flag(info, "__fsdp_sharding_strategy"), line), conf)
        elif strategy is None and "__fsdp_reshard_after_forward" not in opts:
            self._put(plan, "dist.sharding", "fsdp_full",
                      Source("default", None, None, "--fsdp_sharding_strategy",
                             "accelerate FSDP default FULL_SHARD (frameworks.md §1.2)"), "medium")
        offload = opts.get("__fsdp_offload_params", "").lower()
        if offload in ("true", "false"):
            self._put(plan, "dist.offload_params", "cpu" if offload == "true" else "none",
                      self._src(self._flag(info, "__fsdp_offload_params"), line), conf)
        ckpt = opts.get("__fsdp_activation_checkpointing", "").lower()
        if ckpt in ("true", "false"):
            self._put(plan, "memory.gradient_checkpointing", ckpt == "true",
                      self._src(self._flag(info, "__fsdp_activation_checkpointing"), line), conf)
            if ckpt == "true":
                self._put(plan, "model.use_cache", True, cache_stays_on(
                    self._src(self._flag(info, "__fsdp_activation_checkpointing"), line)), "medium")

    def _deepspeed(self, plan: TrainingPlan, info: LaunchInfo, line: str) -> None:
        opts = info.options
        if info.nodes is not None:
            self._put(plan, "dist.nodes", info.nodes, self._src(self._flag(info, "__num_nodes"), line))
        gpu_flag = self._flag(info, "__num_gpus", "__num_accelerators")
        if info.procs_per_node is not None:
            self._put(plan, "dist.devices_per_node", info.procs_per_node, self._src(gpu_flag, line))
        if opts.get("__include") and _include_slots(opts["__include"]) is not None and info.total_procs is not None:
            self._world(plan, info.total_procs, f"--include {opts['__include']}: {info.total_procs} processes",
                        line, "--include")
        elif info.total_procs is not None:
            self._world(plan, info.total_procs, f"--num_nodes {info.nodes} x {gpu_flag} {info.procs_per_node} = "
                                                f"{info.total_procs} processes", line, gpu_flag)
        elif info.procs_per_node is not None and not opts.get("__hostfile") and not opts.get("__include"):
            # no --num_nodes and no hostfile named: one machine unless /job/hostfile exists where
            # the job runs, which a static reading cannot see (a guess: low)
            self._put(plan, "dist.world_size", info.procs_per_node,
                      Source("derived", None, None, gpu_flag,
                             f"{gpu_flag} {info.procs_per_node} on one machine (assumed: no --num_nodes and no "
                             f"/job/hostfile; launch line: {line})"), "low")
        if info.nodes is None and not opts.get("__hostfile") and not opts.get("__include") \
                and not opts.get("__exclude") and info.wrapper is None:
            # deepspeed/launcher/runner.py: no hostfile at the default /job/hostfile means this machine
            # alone (every local GPU when --num_gpus is not given); a static reading cannot see that
            # file, so one node is a guess (low)
            self._put(plan, "dist.nodes", 1,
                      Source("derived", None, None, None,
                             f"deepspeed without --num_nodes, --hostfile or --include: this machine alone "
                             f"unless /job/hostfile exists where the job runs (launch line: {line})"), "low")
        if "__num_gpus" in opts and "__num_accelerators" in opts:
            self.note(plan, "both --num_gpus and --num_accelerators given; --num_gpus was read")

    def _srun(self, plan: TrainingPlan, info: LaunchInfo, line: str) -> None:
        w = info.wrapper_options
        node_flag = next((f for f in ("-N", "__nodes") if f in w), None)
        nodes = _int(w.get(node_flag)) if node_flag else None
        if nodes is not None and node_flag is not None:
            self._put(plan, "dist.nodes", nodes, self._src(node_flag.replace("__", "--", 1), line, "srun"))
        per_node = _int(w.get("__ntasks_per_node"))
        task_flag = next((f for f in ("-n", "__ntasks") if f in w), None)
        ntasks = _int(w.get(task_flag)) if task_flag else None
        if nodes is None and node_flag is None and ntasks and per_node and ntasks % per_node == 0:
            # `srun --ntasks=8 --ntasks-per-node=8` (open-mmlab/mmpretrain tools/slurm_train.sh:16-20):
            # no --nodes, so SLURM gives the tasks the nodes they need at that many per node
            self._put(plan, "dist.nodes", ntasks // per_node,
                      Source("derived", None, None, "--ntasks-per-node",
                             f"srun --ntasks {ntasks} / --ntasks-per-node {per_node} (no --nodes) "
                             f"(launch line: {line})"), "medium")
        if info.launcher not in (None, "python"):
            return
        if per_node is not None:
            self._put(plan, "dist.devices_per_node", per_node, self._src("--ntasks-per-node", line,
                                                                         "srun: one process per task"))
        if task_flag is not None and _int(w[task_flag]) is not None:
            self._put(plan, "dist.world_size", _int(w[task_flag]),
                      self._src(task_flag.replace("__", "--", 1), line, "srun: one process per task"))
        elif nodes is not None and per_node is not None and info.total_procs is not None:
            self._world(plan, info.total_procs, f"srun {node_flag.replace('__', '--', 1) if node_flag else '-N'} "
                                                f"{nodes} x --ntasks-per-node {per_node} = {info.total_procs} "
                                                "processes", line, "--ntasks-per-node")

    def _mpiexec(self, plan: TrainingPlan, info: LaunchInfo, line: str, project: Project) -> None:
        from preflight.adapters.launch_mpi_hosts import one_machine

        flag, total, per_node = _mpi_counts(info.wrapper_options)
        if flag is not None and total is not None:
            self._put(plan, "dist.world_size", total,
                      self._src(flag.replace("__", "--", 1), line, "mpiexec: one Python process per MPI rank"))
            single = one_machine(project, info)
            if single is not None:
                src = Source("derived", None, None, flag.replace("__", "--", 1), f"{single} (launch line: {line})")
                self._put(plan, "dist.nodes", 1, src, "medium")
                self._put(plan, "dist.devices_per_node", total, src, "medium")
        if per_node is not None:
            self._put(plan, "dist.devices_per_node", per_node,
                      self._src("-npernode", line, "mpiexec: processes per node"))
            if total is not None and total % per_node == 0:
                self._put(plan, "dist.nodes", total // per_node,
                          Source("derived", None, None, "-npernode",
                                 f"{total} processes / {per_node} per node (launch line: {line})"), "high")
