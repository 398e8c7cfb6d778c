"""Options read by what they say: library optimizers, help texts (global batch, accumulation, nodes), trainer flags, computed values, side effects, single-process runs.

Part of :mod:`preflight.adapters.cliargs` (its ``_Pass``), split by concern."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Optional

from preflight.adapters.cliargs_options import (
    _literal,
    _name_of,
)
from preflight.adapters.cliargs_pass import (
    _ACCUM,
    _ACCUM_HELP,
    _FSDP_WORDS,
    _GLOBAL_HELP,
    _LAUNCHER_ENV,
    _NODES_HELP,
    _RAY,
    _TOKENS_HELP,
    _as_bool,
    _as_int,
    _data_workers_only,
    _PassCore,
)

from preflight.plan import Source


class _FlagsPass(_PassCore):
    def library_optim(self) -> None:
        """The ``optim`` default of a library TrainingArguments class the parser declares (TrlParser
        with SFTConfig), by the transformers and torch versions the project pins."""
        from preflight.adapters.transformers_version import default_optim, find_version

        path = self.script.source.path
        if path is None or self.opaque:
            return
        folder = Path(str(path)).resolve().parent
        tv = find_version("transformers", folder, self.project.root)
        torch = find_version("torch", folder, self.project.root)
        name, detail = default_optim(tv, torch)
        conf = "medium"
        if name is None:
            # the release's default not known: each candidate is an AdamW (transformers_version.py)
            from preflight.adapters.transformers_version import default_optim_algorithm

            name, detail = default_optim_algorithm(detail)
            conf = "low"
        self.add("optimizer.name", name, Source("default", None, None, "optim",
                                                f"{self.decl.options['optim'].library or 'TrainingArguments'} "
                                                f"default: {detail}"), conf)

    def global_batch_by_help(self) -> None:
        """An option the script documents as the global batch size (OpenRLHF
        ``--train.batch_size``, "Global training batch size"): ``batch.global``; only one such
        option, and not one documented per device/GPU."""
        # an option documented as accumulating gradients "for increasing the effective batch size" is the
        # accumulation count (facebookresearch/mae @ efb2a80 main_pretrain.py:43 ``--accum_iter``)
        names = [n for n, o in self.decl.options.items() if _GLOBAL_HELP.search(o.help or "")
                 and not re.search(r"per (gpu|device|rank|process)|accumulat", o.help or "", re.I)
                 and not _TOKENS_HELP.search(o.help or "")
                 and self.decl.dotted.get(n) is None]  # the short name of a grouped option: the same option
        if len(names) > 1:
            # several documented as global (VAR: `bs` the user's, `glb_batch_size` computed from it):
            # the one the launch line gives
            names = [n for n in names if n in self.cli]
        if len(names) != 1:
            return
        found = self.value(names[0])
        if found is None:
            return
        number = _as_int(found[1])
        if number is not None and number >= 1:
            help_text = self.decl.options[names[0]].help
            self.add("batch.global", number, Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                                    f"{found[2].detail}: documented as \"{help_text}\""),
                     "medium" if found[2].kind != "default" else "low")

    def accum_by_help(self) -> None:
        """An option not named like an accumulation count that the script documents as one
        (ConvNeXt ``--update_freq``, "gradient accumulation steps"): ``batch.grad_accum``; only
        when exactly one option is so documented."""
        names = [n for n, o in self.decl.options.items() if n not in _ACCUM and "." not in n
                 and _ACCUM_HELP.search(o.help or "")]
        if len(names) != 1:
            return
        found = self.value(names[0])
        number = _as_int(found[1]) if found is not None else None
        if found is None or number is None or number < 1:
            return
        help_text = self.decl.options[names[0]].help
        self.add("batch.grad_accum", number, Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                                    f"{found[2].detail}: documented as \"{help_text}\""),
                 "medium" if found[2].kind != "default" else "low")

    def nodes_by_help(self) -> None:
        """An option the script documents as the number of nodes (pytorch/examples ImageNet:
        ``--world-size``, "number of nodes for distributed training"): ``dist.nodes``."""
        for name, opt in self.decl.options.items():
            if not _NODES_HELP.search(opt.help or "") or "." in name:
                continue
            found = self.value(name)
            if found is not None and found[2].kind != "default":
                nodes = _as_int(found[1])
                if nodes is not None and nodes >= 1:
                    self.add("dist.nodes", nodes, Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                                         f"{found[2].detail}: documented as \"{opt.help}\""),
                             "medium")
                return

    def trainer_flags(self) -> None:
        """``--fsdp``/``--bf16``/``--fp16`` of a TrainingArguments subclass the script declares, on the
        line or in the parser's file (the transformers adapter reads TrainingArguments itself)."""
        from preflight.adapters.launchers import parse_launch

        if not any(o.library == "TrainingArguments" and o.origin == "library" and ":" in o.where
                   for o in self.decl.options.values()):
            return
        fsdp = self.cli.get("fsdp") or (self.file_values.get("fsdp") and (self.file_values["fsdp"][0], ""))
        found = self.value("fsdp")
        if fsdp and found is not None and isinstance(found[1], str) and found[1].strip():
            words = found[1].lower().split()
            mode = next((_FSDP_WORDS[w] for w in words if w in _FSDP_WORDS), "fsdp_full")
            self.add("dist.sharding", mode, found[2], found[3])
            if "offload" in words:
                self.add("dist.offload_params", "cpu", found[2], found[3])
            elif not (self.project.argv and parse_launch(self.project.argv).launcher == "accelerate"):
                # the Trainer offloads only for the ``offload`` word (adapters/transformers_args_apply.py)
                self.add("dist.offload_params", "none",
                         Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                f"{found[2].detail}: no `offload` word, so no CPU offload"), "medium")
        from preflight.adapters.training_args_bag import precision_flags_unused

        if precision_flags_unused(self.script.tree, self.project.index(self.script).calls) is not None:
            return  # the script's own Accelerator sets the precision (adapters/training_args_bag.py)
        for key, mode in (("bf16", "amp_bf16"), ("fp16", "amp_fp16")):
            if key in self.cli and _as_bool(self.cli[key][0]):
                given = self.value(key)
                if given is not None:
                    self.add("precision.mode", mode, given[2], given[3])
            elif key in self.file_values and key not in self.cli and _as_bool(self.file_values[key][0]):
                # ``bf16: true`` in the file the project's parser reads (martin-wey/CodeUltraFeedback @ 0525dde
                # src/dpo/recipes/config_qlora_dpo_codellama.yaml:26, parsed by alignment's H4ArgumentParser)
                given = self.value(key)
                if given is not None and given[2].kind != "default":
                    self.add("precision.mode", mode, given[2], given[3])

    def computed(self) -> None:
        """``gradient_accumulation_steps = batch_size // micro_batch_size`` at the top of a
        ``fire.Fire`` function, from the options' values (one process: not divided), when the
        function binds the name nowhere else."""
        from preflight.script_flow import rebound_later

        for fn in self.decl.fire_functions:
            for stmt in fn.body:
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                        and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in _ACCUM
                        and isinstance(stmt.value, ast.BinOp) and isinstance(stmt.value.op, ast.FloorDiv)
                        and isinstance(stmt.value.left, ast.Name) and isinstance(stmt.value.right, ast.Name)):
                    continue
                if rebound_later(fn, stmt):
                    continue  # ``if ddp: n = n // world_size``: the value where it is used (preflight.script_flow)
                left, right = self.value(stmt.value.left.id), self.value(stmt.value.right.id)
                a = _as_int(left[1]) if left else None
                b = _as_int(right[1]) if right else None
                if a and b:
                    self.add("batch.grad_accum", a // b,
                             Source("derived", str(self.script.source.display), stmt.lineno, stmt.targets[0].id,
                                    f"{stmt.value.left.id} {a} // {stmt.value.right.id} {b}"), "medium")

    def update_freq(self) -> None:
        """``--update_freq`` with no help text at all is the accumulation count (the BEiT/ConvNeXt/VideoMAE
        family's name, fairseq's too: MCG-NJU/VideoMAE run_class_finetuning.py:31,404), unless another
        option is documented as the accumulation; a help text that says otherwise is read as written
        (the help-based reading elsewhere decides it)."""
        opt = self.decl.options.get("update_freq")
        if opt is None or (opt.help or "").strip() or any(_ACCUM_HELP.search(o.help or "")
                                                            for o in self.decl.options.values()):
            return
        found = self.value("update_freq")
        count = _as_int(found[1]) if found is not None else None
        if found is not None and count is not None and count >= 1:
            self.add("batch.grad_accum", count, found[2], found[3])

    def side_effects(self) -> None:
        """``prepare_model_for_kbit_training``/``prepare_model_for_int8_training`` turn
        gradient checkpointing on unless ``use_gradient_checkpointing=False``."""
        from preflight.adapters.guarded import _device, _walk

        idx = None
        for node, guards in _walk(self.script.tree):
            if isinstance(node, ast.Call) and _name_of(node.func) in ("prepare_model_for_kbit_training",
                                                                        "prepare_model_for_int8_training"):
                # under `if cfg.use_quantization:` with the option false (openvla/openvla
                # vla-scripts/finetune.py:102,167-168) the call never runs: no checkpointing from it
                idx = idx or self.project.index(self.script)
                state: Optional[bool] = True
                for test, in_body in guards:
                    taken = _device(test)
                    taken = idx.truth(test) if taken is None else taken
                    if taken is None:
                        state = None
                    elif taken != in_body:
                        state = False
                        break
                if state is False:
                    continue
                kw = {k.arg: k.value for k in node.keywords}
                given = kw.get("use_gradient_checkpointing")
                ok, on = _literal(given)
                if given is not None and not (ok and isinstance(on, bool)):
                    # passed a name (AGI-Edgerunners/LLM-Adapters finetune.py:196
                    # `use_gradient_checkpointing=use_gradient_checkpointing`, a fire parameter whose
                    # default is False): the library's keyword default does not apply; its value, or nothing
                    idx = idx or self.project.index(self.script)
                    found = idx.resolve(given)
                    if found is None or not isinstance(found.value, bool):
                        continue
                    ok, on = True, found.value
                value = on if ok and isinstance(on, bool) else True
                detail = (f"{_name_of(node.func)}(...) enables gradient checkpointing by default "
                          "(use_gradient_checkpointing=True)")
                if state is None:
                    detail += "; it sits under an `if` this reading cannot decide, so it may not run"
                self.add("memory.gradient_checkpointing", value,
                         Source("code", str(self.script.source.display), node.lineno, _name_of(node.func), detail),
                         "high" if state else "low")

    def single_process(self) -> None:
        """``python script.py`` starts one process; unless the script spawns more itself."""
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(self.project.argv) if self.project.argv else None
        if info is None or info.launcher != "python":
            return
        srun = None
        if info.wrapper is not None:
            from preflight.adapters.srun_one_task import one_task

            # `srun python train.py` in a batch script that asks for one task (adapters/srun_one_task.py)
            srun = one_task(self.project, info) if info.wrapper == "srun" else None
            if srun is None:
                return
        texts = [self.script.source.text, *self.decl.texts]
        entry = self.project.delegates.get(id(self.script))
        if entry is not None:  # a module the entry hands its work to runs in the processes the entry starts
            texts.append(entry.source.text)
        # torch.multiprocessing.start_processes may be called through a variable and submitit starts
        # jobs itself (facebookresearch/sam2 training/train.py:55-60, :68): neither is one process
        if any(word in self.script.source.text for word in ("spawn(", "Process(", "launch(")):
            from preflight.adapters.spawned_processes import detectron2_launch, spawned_processes

            # a script with an option documented as the number of nodes (pytorch/examples ImageNet
            # ``--world-size``) spawns its processes on each node it is started on: one machine is
            # not known
            per_node = any(_NODES_HELP.search(o.help or "") for o in self.decl.options.values())
            if detectron2_launch(self.project, self.script, info.line, self.add) or per_node \
                    or spawned_processes(self.project, self.script, info.line, self.add):
                return
        if any(word in t for t in texts for word in ("spawn(", "lightning", "notebook_launcher",
                                                     "start_processes", "submitit")):
            return
        if any(_RAY.search(t) for t in texts):
            # a Ray driver places its workers on the cluster's GPUs itself (OpenRLHF's train_ppo_ray.py,
            # RUCAIBox/R1-Searcher @ 631167cb OpenRLHF-RAG/openrlhf/cli/train_ppo_ray.py:5,64 placement groups)
            from preflight.adapters.ray_actor_group import ray_actor_group

            ray_actor_group(self.project, self.script, info.line, self.add)
            return
        if any("Process(" in t and not _data_workers_only(t) for t in texts):
            return
        if any("hydra" in t for t in texts) and not self._hydra_single_run():
            return
        detail = f"one process: {info.line}; the script starts no others"
        if srun is not None:
            detail = f"{srun}: {info.line}; the script starts no others"
        if any("init_process_group" in t for t in texts):
            # a process group joins processes a launcher started; plain python sets none of its
            # variables, so a script that decides on DDP from them runs one process
            from preflight.adapters.local_rank_guard import never_joined

            if never_joined(self.script.tree, [t for t in self.decl.texts if t != self.script.source.text],
                            self.decl.options, self.project.script_args(self.script)):
                detail += ("; its init_process_group runs only when --local_rank is given (a launcher passes it), "
                           "and this line leaves it at its default -1")
            elif not any(_LAUNCHER_ENV.search(t) for t in texts):
                return
            else:
                detail += ("; its init_process_group runs only when a launcher sets RANK/WORLD_SIZE/LOCAL_RANK, "
                           "which plain python does not")
            from preflight.adapters.ddp_unreached import NO_PROCESS_GROUP

            self.project.cache[NO_PROCESS_GROUP] = True
        self.add("dist.world_size", 1, Source("derived", None, None, "python", detail), "medium")
        # one process runs on one machine
        self.add("dist.nodes", 1, Source("derived", None, None, "python", detail + "; one process is one node"),
                 "medium")

    def _hydra_single_run(self) -> bool:
        """A Hydra app run without ``-m``/``--multirun`` (on the line or ``hydra.mode: MULTIRUN`` in a
        config read) runs in the launching process: its launcher plugin (``submitit_local``,
        nicklashansen/tdmpc2 ``config.yaml``) only starts jobs for a multirun."""
        from preflight.adapters.pytorch_local import _hydra_config_texts

        argv = [str(a) for a in self.project.script_args(self.script)]
        if any(a in ("-m", "--multirun") or "hydra.mode" in a or "hydra/launcher" in a or "hydra.launcher" in a
               for a in argv):
            return False
        configs = [*(src.text for src, _cfg in self.project.configs), *_hydra_config_texts(self.project)]
        return not any("MULTIRUN" in t for t in configs)

    def _trl(self) -> bool:
        return any(o.library in ("SFTConfig", "DPOConfig") for o in self.decl.options.values())
