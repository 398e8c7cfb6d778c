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
from typing import Any, Optional

from preflight.adapters._cache import cache_stays_on
from preflight.adapters.launch_line import (  # noqa: F401  (moved; re-exported)
    _ACCEL_PRECISION,
    _DEVICES,
    _FSDP,
    _SRUN_BOOL,
    _ZERO,
    LaunchInfo,
    _include_slots,
    _int,
    _mpi_counts,
    _norm,
    _options,
    _same_file,
    _set_script,
    parse_launch,
)
from preflight.adapters.launchers_fabric import fabric_facts

from preflight.adapters_api import Adapter, Project
from preflight.plan import FIELDS, Source, TrainingPlan
from preflight.registry import register_adapter


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
        self._loop: Any = None
        self._loop_kept = True
        if not self._runs_audited_script(project, plan, info):
            return
        loop = getattr(project, "launch_loop", None)
        if loop is not None and (loop.count is None or loop.count > 1):
            from preflight.adapters.launch_loop import loop_kept

            self._loop, self._loop_kept = loop, loop_kept(loop, info)
            self.note(plan, loop.describe())
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
        from preflight.adapters.visible_devices import visible_device_facts

        visible_device_facts(self, project, plan, info, line)
        if info.wrapper == "srun":
            self._srun(plan, info, line, project)
        elif info.wrapper == "mpiexec" and info.launcher in (None, "python"):
            self._mpiexec(plan, info, line, project)
        if self._loop is not None and not self._loop_kept:
            from preflight.adapters.launch_loop import srun_steps

            srun_steps(self, project, plan, info, line, self._loop)

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
            mod = mod[:-len("/__main__")] if mod.endswith("/__main__") else mod  # ``-m pkg.__main__`` (a console script)
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
        loop = getattr(self, "_loop", None)
        if loop is not None and field.startswith("dist."):
            from preflight.adapters.launch_loop import LOOP_FIELDS, capped

            if field in LOOP_FIELDS:
                if not self._loop_kept:
                    return  # one step of a job the loop starts several times: read by srun_steps
                source = capped(source, loop)
                confidence = "medium" if confidence == "high" else confidence
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
        elif info.total_procs is not None and info.nodes == 1 and "__config_file" not in opts:
            # Time-LLM ``accelerate launch --multi_gpu --num_processes 8 run_main.py``: one machine, as the
            # devices per node below already take it (a default config file could say otherwise)
            self._put(plan, "dist.nodes", 1, Source("default", None, None, "--num_machines",
                                                    f"accelerate --num_machines default 1 (launch line: {line})"),
                      "medium")
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
        from preflight.adapters.accelerate_noconfig import accelerate_defaults

        accelerate_defaults(self, plan, info, line)

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

    def _srun(self, plan: TrainingPlan, info: LaunchInfo, line: str, project: Optional[Project] = None) -> None:
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
        if project is not None and project.scripts:
            from preflight.adapters.launch_loop import srun_spawn

            if srun_spawn(self, project, plan, info, line) is not None:
                return  # each task spawns processes itself: srun's tasks are not the processes
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
