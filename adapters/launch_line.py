"""Parsing a launcher command line (torchrun, accelerate launch, deepspeed, srun, mpirun, composer, python -m) into a :class:`LaunchInfo`: the process counts, the script and its arguments, the config files named."""

from __future__ import annotations

import os
import re
import shlex
from typing import Optional, Sequence

from preflight.adapters.deepspeed import ZERO_STAGE_SHARDING
from preflight.adapters.launch_container import container_end
from preflight.adapters.launch_wrappers import wrapper_end
from preflight.adapters.launchers_fabric import is_fabric, parse_fabric

from preflight._record import dataclass, field
from preflight.console_scripts import runner_end

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


def _unwrapped(tokens: list[str], i: int, info: LaunchInfo) -> int:
    """The index after any process wrappers at ``tokens[i]`` (``numactl ...``, ``timeout 2h``,
    ``nsys profile ...``), each named in a note, and the environment words after them."""
    for _ in range(4):
        end, name = wrapper_end(tokens, i)
        if end <= i:
            return i
        info.notes.append(f"{name}: runs the command after it in the same process tree (no training process "
                          "of its own); the command is read as if it were not there")
        i = _take_env(tokens, end, info)
    return i


def parse_launch(argv: Sequence[str]) -> LaunchInfo:
    """Parse a launch command (tokens as the shell splits them). Never raises."""
    tokens = [str(t) for t in argv]
    info = LaunchInfo(line=shlex.join(tokens))
    i = _unwrapped(tokens, _take_env(tokens, 0, info), info)
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
    i = _unwrapped(tokens, i, info)
    boxed, image = container_end(tokens, i)
    if boxed > i:  # ``srun ... shifter --image=IMG python train.py``: the command runs inside the image
        info.notes.append(f"{os.path.basename(tokens[i])}: the command runs inside the container image {image} "
                          "(no process of its own)")
        i = _unwrapped(tokens, _take_env(tokens, boxed, info), info)
        if i >= len(tokens):
            return info
    ran = runner_end(tokens, i)  # ``poetry run python train.py``: the runner starts no process of its own
    if ran > i:
        info.notes.append(f"{tokens[i]} run: the command runs in the project's environment (no process of its own)")
        i = _unwrapped(tokens, _take_env(tokens, ran, info), info)
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
    elif head == "fairseq-train":
        # fairseq's console script (fairseq_cli/train.py, the library's, not the job's): its flags are the job
        # (adapters/fairseq_cli.py); it starts one process per visible GPU itself
        info.launcher = "fairseq"
        info.script_args = list(tokens[i + 1:])
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
        elif module and target == "fairseq_cli.train":
            info.launcher = "fairseq"
            info.script_args = list(tokens[j:])
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


def accelerate_launch_flags(argv: Optional[Sequence[str]]) -> dict[str, str]:
    """The options of the ``accelerate launch`` command ``argv`` (empty for another launcher).
    ``accelerate launch`` copies a config file's value only onto a flag the command line left unset
    (accelerate/commands/launch.py ``_validate_launch_command``: ``getattr(args, name) is None``), so
    DiffuLLaMA's ``--config_file single_node.yaml ... --num_processes $((4*$NNODES)) --num_machines
    $NNODES`` runs what the flags say, whatever the file's ``num_processes: 4``, ``num_machines: 1``."""
    if not argv:
        return {}
    info = parse_launch(argv)
    return dict(info.options) if info.launcher == "accelerate" else {}


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
            "the accelerate config (default ~/.cache/huggingface/accelerate/default_config.yaml; " \
            "without one, the visible GPU count)"
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
