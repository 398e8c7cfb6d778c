"""What the code does with a project's configuration object (:mod:`preflight.adapters.config_object`),
followed across calls inside the project: an object (or a sub-tree of it) passed to a local
function or class becomes that parameter there (``Trainer(config.trainer, ...)`` then
``self.config = config`` and, in another method, ``model, config = self.model, self.config``;
``training_function(config, args)`` then ``config["batch_size"]``). Where a value reaches a
place that decides a plan field the fact is written, medium, with the line that set the value
(class default, constructor keyword, assignment, launch line):

* the plan readings of :mod:`preflight.adapters.hydra_reads` (``from_pretrained(E)``, a data
  loader's ``batch_size=E``, ``getattr(torch.optim, E)``, guards around checkpointing or LoRA,
  sequence and accumulation keys the code reads, ``B / (P * A)`` as the global batch);
* a data loader's ``num_workers=E``;
* ``FullyShardedDataParallel(..., sharding_strategy=E)`` with ``E`` an enum member default
  (``ShardingStrategy.FULL_SHARD``), under guards the values decide.

A value the code reassigns in a way not followed (two different assignments of a local) is not
used; a call whose callee is not one project function or class is not followed.
"""

from __future__ import annotations

import ast
from functools import partial
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.config_object import (
    Builder,
    Enum,
    Leaf,
    Modules,
    Namespace,
    Tree,
    lookup,
)
from preflight.adapters.config_object_argv import parser_trees, unset_or_list
from preflight.adapters.config_object_arms import ddp_arm, optimizer_arm, pads_to_model_max_length
from preflight.adapters.config_object_autocast import (
    autocast_switch,
    guarded_autocast,
    switched_context,
)
from preflight.adapters.config_object_chain_arm import chain_arm
from preflight.adapters.config_object_closure import closure_calls
from preflight.adapters.config_object_d2trainer import default_trainer
from preflight.adapters.config_object_flow import (
    _FSDP,
    _NOT_TRAIN,
    _PRIORITY,
    _Flow,
    _ObjReader,
)
from preflight.adapters.config_object_gen_help import generation_options
from preflight.adapters.config_object_guards import (
    _generation,
    _only_lora_off,
    _options,
    _plain_python,
    _runs,
    _skipped,
)
from preflight.adapters.config_object_hydra import hydra_roots
from preflight.adapters.config_object_loader_arms import agreeing_loaders
from preflight.adapters.config_object_mlc import mlc_roots
from preflight.adapters.config_object_model import model_count, model_name_key
from preflight.adapters.config_object_model_table import table_count
from preflight.adapters.config_object_name_builder import name_builder_count
from preflight.adapters.config_object_per_rank import per_rank_loader, split_loader
from preflight.adapters.config_object_registry import registry_count
from preflight.adapters.config_object_rewrites import raw_options as _raw_options
from preflight.adapters.config_object_roots import _roots
from preflight.adapters.config_object_sacred import sacred_roots
from preflight.adapters.config_object_spawn import spawn_counts
from preflight.adapters.config_object_split_arm import training_arm, training_ifexp
from preflight.adapters.config_object_whole import whole_count
from preflight.adapters.config_object_yacs_loop import (
    accumulation_guard,
    apex_level,
    total_batch_loader,
)
from preflight.adapters.hydra_reads import (
    _call,
    _division,
    _emit,
    _Found,
    _guard,
)
from preflight.adapters.model_spec_table import spec_repo
from preflight.adapters.peft_helper_guard import HelperGuards
from preflight.adapters.trlx_config import trlx_train

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_CKPT_KWARGS = ("use_checkpoint", "with_cp", "gradient_checkpointing", "use_gradient_checkpointing",
                "grad_checkpointing")


@register_adapter
class ConfigObjectAdapter(ScratchAdapter):
    name = "value_flow"  # runs after the framework readers (adapters run by name): its facts are fallbacks
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any(s.tree is not None and s.source.path is not None for s in project.scripts)

    def detect(self, project: Project) -> bool:
        """Facts found, or only a note of a config-system reader to pass on (nothing else follows from it: this
        adapter names no framework)."""
        found = super().detect(project)
        scratch = project.cache.get(f"{self.name}.scratch")
        return found or (isinstance(scratch, TrainingPlan) and bool(scratch.notes))

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        """The facts, and the notes the config-system readers leave (a sacred named config or an ml_collections
        file not read): the scratch plan's notes are otherwise dropped."""
        scratch = project.cache.get(f"{self.name}.scratch")
        super().contribute(project, plan)
        for text in scratch.notes if isinstance(scratch, TrainingPlan) else []:
            plan.note(text)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        for script in self.scripts(project):
            path = Path(str(script.source.path))
            modules = Modules(path, script.tree, script.source.display,
                              Path(str(project.root)) if project.root else None)
            builder = Builder(modules, project.script_args(script))
            applied: set[int] = set()
            namespace = Namespace(_options(project, script), script.source.display)
            namespace.raw = _raw_options(project, script)  # before the script's rewrites (config_object_rewrites)
            namespace.unset = unset_or_list(project, script, parser_trees(modules))
            combined, scopes = _roots(script.tree, script.source.display, builder, modules,
                                      project.script_args(script), namespace, applied, project)
            hydra_roots(project, script, combined, scopes)  # the composed config of @hydra.main
            sacred_roots(script, modules, project.script_args(script), combined, scopes,
                         lambda text: self.note(plan, text))  # a sacred Experiment's _config
            mlc_roots(project, script, modules, project.script_args(script), combined, scopes,
                      lambda text: self.note(plan, text))  # absl config files
            if not combined:
                continue
            self._read(project, plan, modules, combined, scopes, applied, generation_options(project, script))

    def _read(self, project: Project, plan: TrainingPlan, modules: Modules, combined: Tree,
              scopes: dict[int, dict[str, tuple]], applied: set[int],
              generating: frozenset = frozenset()) -> None:
        flow = _Flow(modules, combined)
        for key, names in scopes.items():
            flow.names[key] = dict(names)
            if key in flow.by_id:
                flow.rebound_of(flow.by_id[key]).difference_update(names)  # the roots are bound there
        module_level = scopes.get(id(modules.trees[0][2]), {})
        for shown, fn in flow.fns:  # module-level objects of the entry are seen by its functions
            if module_level and shown == modules.trees[0][0] and isinstance(fn, ast.FunctionDef):
                params = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
                for var, path in module_level.items():
                    if var not in params:
                        flow.names.setdefault(id(fn), {}).setdefault(var, path)
        flow.propagate()
        flow.invalidate(applied)

        def known(path: tuple) -> Any:
            got = lookup(combined, path)
            return got.value if isinstance(got, Leaf) else got

        def null(path: tuple) -> bool:
            got = lookup(combined, path)
            return isinstance(got, Leaf) and got.value is None

        sole_off = [False]  # every LoRA construct read is under a guard decided false (set below)

        def add(field: str, value: Any, path: tuple, detail: str, conf: str) -> None:
            if field == "peft.method" and value == "none" and not sole_off[0]:
                return  # one guard decided false around a LoRA construct: LoRA may be built elsewhere
            if field == "precision.mode" and detail.startswith("the model is loaded in"):
                return  # a 16-bit load says nothing of autocast when a Trainer or accelerate owns the loop
            got = lookup(combined, path)
            if not isinstance(got, Leaf) or isinstance(value, Enum):
                return
            if field == "data.seq_len" and path[-1] in generating \
                    and (got.how == "launch line" or got.how.startswith("declared default")):
                return  # an option documented as the generated text's length (config_object_gen_help.py)
            key = ".".join(path)
            if got.how == "launch line" and field == "model.ref" and isinstance(value, str) \
                    and value.startswith((".", "~", "/")):
                return  # a local folder on the launch line: the cliargs adapter notes it (no architecture)
            if got.how == "launch line":
                src = Source("cli", None, None, got.key or f"--{'.'.join(path[1:])}", f"{detail} (the launch line)")
            else:
                src = Source("code", got.file or None, got.line, key, f"{detail} ({got.how})")
            # the guard around the very torch.compile call (or every LoRA construct) a framework reading could
            # not decide
            self.add_checked(plan, field, value, src, conf,
                             1 if (field == "compile.enabled" and "guards torch.compile" in detail)
                             or (field == "peft.method" and value == "none") else _PRIORITY)

        found = _Found()
        helper_guards = HelperGuards(modules)  # peft_helper_guard.py
        models: list[tuple[tuple[int, str, str], Source]] = []
        specs: list[tuple[str, tuple, str]] = []
        model_names: list[tuple[str, tuple, str]] = []
        trees = {shown: tree for shown, _, tree in modules.trees}
        plain = _plain_python(project)
        from preflight.adapters.hydra_reads import ray_driver, rebound_parameters

        rebinds: dict[str, set[str]] = {}  # a switch handed to a callable that reassigns it is not read
        for tree in trees.values():
            for callee, params in rebound_parameters(tree).items():
                rebinds.setdefault(callee, set()).update(params)
        for shown, fn in flow.fns:
            reader = flow.reader(fn, known, add, shown, null)
            if not reader.names and not reader.selfs:
                continue
            reader.param_rebinds = rebinds
            reader.entry = shown == modules.trees[0][0]
            nodes = flow.own_of(fn)
            for node in nodes:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    reader.assigns.setdefault(node.targets[0].id, []).append(node.value)
            for name in [n for n, values in reader.assigns.items() if len(values) > 1]:
                arm = training_arm(fn, name, [t for _, _, t in modules.trees], id(fn) in flow.owner)
                if arm is not None:  # ``if flag == 'test': bs = ... else: bs = ...`` (config_object_split_arm.py)
                    reader.assigns[name] = [arm]
                    continue
                chained = chain_arm(fn, name, len(reader.assigns[name]), reader)
                if chained is not None:  # ``if dtype == 'bfloat16': amp = True else: ...`` (config_object_chain_arm.py)
                    reader.assigns[name] = [chained[0]]
                    reader.arm_keys[name] = chained[1]
            for node in nodes:  # ``bs = args.batch_size if is_train else args.valid_batch_size`` (the same module)
                taken = training_ifexp(fn, node, [t for _, _, t in modules.trees], id(fn) in flow.owner) \
                    if isinstance(node, ast.IfExp) else None
                if taken is not None:
                    reader.split_arms[id(node)] = taken
            parents = {id(child): node for node in [fn, *nodes] for child in ast.iter_child_nodes(node)}
            generated = {id(sub) for node in nodes if isinstance(node, ast.Call) and _generation(node)
                         for arg in [*node.args, *(k.value for k in node.keywords)] for sub in ast.walk(arg)}
            for got in agreeing_loaders(nodes, reader, shown, partial(_skipped, parents=parents, reader=reader),
                                        partial(_runs, parents=parents, reader=reader)):  # config_object_loader_arms
                self._leaf_fact(plan, combined, *got)
            for inner in closure_calls(fn, nodes, partial(_runs, reader=reader)):
                switch = autocast_switch(inner, reader, shown, trees.get(shown))  # config_object_closure.py
                if switch is not None:
                    self._leaf_fact(plan, combined, *switch)
            step_loop(self, plan, combined, fn, nodes, reader, parents, modules, shown)  # config_object_step_loop
            for node in nodes:
                if isinstance(node, ast.Call):
                    if not _skipped(node, parents, reader):
                        _call(node, reader, found)
                    guarded = guarded_autocast(node, parents, reader, shown, trees.get(shown), modules)
                    if guarded is not None:  # ``if cfg.use_amp: with autocast():`` (config_object_autocast.py)
                        self._leaf_fact(plan, combined, *guarded)
                    if _runs(node, parents, reader):
                        self._extra(node, reader, plan, combined, shown, modules)
                        per_rank = per_rank_loader(node, reader, shown, project.argv)  # config_object_per_rank.py
                        if per_rank is not None:
                            self._leaf_fact(plan, combined, *per_rank)
                        split_loader(node, reader, shown, trees.get(shown), project)  # divided in split_micro
                        counted = model_count(node, fn, nodes, parents, reader, modules,
                                              partial(_runs, parents=parents, reader=reader)) \
                            or whole_count(node, fn, modules, reader, nodes, parents,
                                           partial(_runs, parents=parents, reader=reader), flow.names) \
                            or table_count(node, fn, parents, reader, modules,  # config_object_model_table.py
                                           partial(_runs, parents=parents, reader=reader)) \
                            or name_builder_count(node, fn, modules, reader,  # config_object_name_builder.py
                                                  partial(_runs, parents=parents, reader=reader)) \
                            or registry_count(node, fn, parents, reader, modules, shown)  # config_object_registry
                        if counted is not None:
                            models.append((counted, Source("code", shown, node.lineno, None, counted[2])))
                            named = model_name_key(node, reader)
                            if named is not None:
                                model_names.append(named)
                        for read_arm in (ddp_arm, optimizer_arm):  # config_object_arms.py
                            arm_got = read_arm(node, parents, reader, shown)
                            if arm_got is not None:
                                self._leaf_fact(plan, combined, *arm_got)
                        for got in spawn_counts(node, reader, shown, trees.get(shown), plain):  # config_object_spawn
                            self._leaf_fact(plan, combined, *got)
                        for d_field, d_value, d_path, d_detail in default_trainer(node, reader, shown, modules,
                                                                                  project.argv):
                            if d_path is not None:  # config_object_d2trainer.py
                                self._leaf_fact(plan, combined, d_field, d_value, d_path, d_detail)
                            else:
                                self.add_checked(plan, d_field, d_value, Source("code", shown, node.lineno, None,
                                                                                d_detail), "medium", _PRIORITY)
                        switch = autocast_switch(node, reader, shown, trees.get(shown), modules)  # _autocast.py
                        if switch is not None:
                            self._leaf_fact(plan, combined, *switch)
                        for yacs_got in (total_batch_loader(node, reader, shown, modules),  # config_object_yacs_loop
                                         apex_level(node, reader, shown, trees.get(shown))):
                            if yacs_got is not None:
                                self._leaf_fact(plan, combined, *yacs_got)
                        for t_field, t_value, leaf, t_key, t_detail, t_conf in trlx_train(
                                node, nodes, reader, shown, flow.dropped, project):
                            if leaf.how == "launch line":  # trlx_config.py
                                src = Source("cli", None, None, leaf.key or t_key, f"{t_detail} (the launch line)")
                            else:
                                src = Source("code", leaf.file or None, leaf.line, t_key, f"{t_detail} ({leaf.how})")
                            self.add_checked(plan, t_field, t_value, src, t_conf, _PRIORITY)
                elif isinstance(node, ast.If):
                    _guard(node, reader, found)
                    accum = accumulation_guard(node, reader, shown) if _runs(node, parents, reader) else None
                    if accum is not None:  # ``if cfg.TRAIN.ACCUMULATION_STEPS > 1:`` (config_object_yacs_loop.py)
                        self._leaf_fact(plan, combined, *accum)
                    helper_guards.visit(node, reader)
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.BinOp):
                    _division(node.value, reader, found)
                elif isinstance(node, ast.IfExp) and _runs(node, parents, reader):
                    chosen = switched_context(node, reader, shown, trees.get(shown))  # config_object_autocast.py
                    if chosen is not None:
                        self._leaf_fact(plan, combined, *chosen)
                elif isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Store) \
                        and id(node) not in generated:  # a generation length is no training length
                    spec = spec_repo(node, fn, reader, trees.get(shown))  # model_spec_table.py
                    if spec is not None:
                        specs.append(spec)
                    reader.ev(node)
            found.read |= reader.read_paths
        if len({m[0][0] for m in models}) == 1:  # one model built from the configuration (config_object_model.py)
            (total, cls, _), src = models[0]
            self.add_checked(plan, "model.num_parameters", total, src, "medium", _PRIORITY)
            self.add_checked(plan, "model.class_name", cls, src, "medium", _PRIORITY)
            if len({n[0] for n in model_names}) == 1:  # the model section's NAME (config_object_model.py)
                add("model.ref", *model_names[0], "medium")
        if len({spec[0] for spec in specs}) == 1:  # a key selecting a model spec's repo_id (model_spec_table.py)
            add("model.ref", *specs[0], "medium")
        found.padded = pads_to_model_max_length(modules)
        found.ray_driver = any(ray_driver(tree) for tree in trees.values())  # hydra_reads.py
        sole_off[0] = _only_lora_off(found, modules)
        _emit(found, known, add, modules.trees[0][0])
        dead = helper_guards.dead() if not found.peft else None
        if dead is not None:
            self._no_lora(plan, combined, *dead)

    def _no_lora(self, plan: TrainingPlan, combined: Tree, path: tuple, line: int, helpers: str) -> None:
        """Every LoRA construct is in a helper called only under a guard the configuration decides
        false: no PEFT, above the construct's own reading that cannot see the guard."""
        got = lookup(combined, path)
        if not isinstance(got, Leaf):
            return
        detail = f"{'.'.join(path)} false guards the only calls of {helpers} (line {line}), where LoRA is built"
        src = Source("cli", None, None, got.key or f"--{'.'.join(path[1:])}", f"{detail} (the launch line)") \
            if got.how == "launch line" else Source("code", got.file or None, got.line, ".".join(path),
                                                     f"{detail} ({got.how})")
        self.add_checked(plan, "peft.method", "none", src, "medium", 1)

    def _extra(self, call: ast.Call, reader: _ObjReader, plan: TrainingPlan, combined: Tree, shown: str,
               modules: Optional[Modules] = None) -> None:
        f = call.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        if "loader" in name.lower() and modules is not None:
            self._loader_kwargs(call, reader, plan, modules, shown)
        if name == "DataLoader" and modules is not None:
            self._loader_defaults(call, reader, plan, modules, shown)
        elif modules is not None and name and modules.klass(name) is not None:
            from preflight.adapters.loader_subclass import config_subclass_loader

            config_subclass_loader(self, call, reader, plan, combined, shown, modules.klass(name))
        for kw in call.keywords:
            if kw.arg == "pin_memory" and "loader" in name.lower():
                got = reader.ev(kw.value)
                if got is not None and got.path is not None and isinstance(got.value, bool):
                    self._leaf_fact(plan, combined, "data.pin_memory", got.value, got.path,
                                    f"{'.'.join(got.path)} given to a data loader as pin_memory ({shown}:{call.lineno})")
                elif got is not None and got.path is None and isinstance(got.value, bool):
                    fed = [reader.ev(k.value) for k in call.keywords if k.arg in ("batch_size", "num_workers")]
                    path = next((g.path for g in fed if g is not None and g.path is not None), None)
                    if path is not None:  # a literal in the loader the config feeds (F5-TTS trainer.py:301-309)
                        self._leaf_fact(plan, combined, "data.pin_memory", got.value, path,
                                        f"pin_memory={got.value} in the data loader that {'.'.join(path)} feeds "
                                        f"({shown}:{call.lineno})")
            if kw.arg == "num_workers" and "loader" in name.lower():
                got = reader.ev(kw.value)
                if got is not None and got.path is not None and isinstance(got.value, int) \
                        and not isinstance(got.value, bool) and got.value >= 0:
                    self._leaf_fact(plan, combined, "data.num_workers", got.value, got.path,
                                    f"{'.'.join(got.path)} given to a data loader as num_workers ({shown}:{call.lineno})")
            elif kw.arg in _CKPT_KWARGS and "loader" not in name.lower() and name[:1].isupper() \
                    and kw.arg not in reader.param_rebinds.get(name, ()):  # a class that reassigns it: not its value
                # a model class built with its checkpointing switch from the config: Swin-style
                # ``SwinTransformer(use_checkpoint=config.TRAIN.USE_CHECKPOINT)`` (microsoft/Swin-Transformer
                # models/build.py), mmcv's ``with_cp`` (OpenGVLab/InternImage @ 31c962d
                # classification/models/build.py:24 ``InternImage(..., with_cp=config.TRAIN.USE_CHECKPOINT)``)
                got = reader.ev(kw.value)
                if got is not None and got.path is not None and isinstance(got.value, bool):
                    self._leaf_fact(plan, combined, "memory.gradient_checkpointing", got.value, got.path,
                                    f"{'.'.join(got.path)} given to {name}(...) as {kw.arg} ({shown}:{call.lineno})")
            elif kw.arg == "sharding_strategy" and name in ("FSDP", "FullyShardedDataParallel"):
                got = reader.ev(kw.value)
                if got is not None and got.path is not None and isinstance(got.value, Enum):
                    member = got.value.name.rsplit(".", 1)[-1]
                    if member in _FSDP and got.value.name.startswith("ShardingStrategy."):
                        self._leaf_fact(plan, combined, "dist.sharding", _FSDP[member], got.path,
                                        f"FullyShardedDataParallel(sharding_strategy={'.'.join(got.path)}) = "
                                        f"{got.value.name} ({shown}:{call.lineno})")

    def _loader_defaults(self, call: ast.Call, reader: _ObjReader, plan: TrainingPlan, modules: Modules,
                         shown: str) -> None:
        """torch's ``DataLoader(ds, batch_size=config["batch_size"], ...)`` in project code the config
        object reaches, written without ``num_workers``/``pin_memory``: torch's defaults, 0 and False
        (nomic-ai/gpt4all ``gpt4all-training/data.py:110-114`` at cd70db2). Only for the loader the
        config's batch size feeds (so it is the job's, not one of a helper never called), never with
        ``**kwargs`` (any keyword may be in the dict), a dataset named for evaluation, or a project
        class of that name."""
        if any(k.arg is None for k in call.keywords) or any(isinstance(a, ast.Starred) for a in call.args) \
                or modules.klass("DataLoader") is not None or not call.args:
            return
        first = call.args[0]
        if isinstance(first, ast.Name) and any(word in first.id.lower() for word in _NOT_TRAIN):
            return
        batch = next((k.value for k in call.keywords if k.arg == "batch_size"), None)
        if batch is None and len(call.args) > 1:
            batch = call.args[1]
        got = reader.ev(batch) if batch is not None else None
        if got is None or got.path is None or not isinstance(got.value, int) or isinstance(got.value, bool):
            return
        given = {k.arg for k in call.keywords}
        for kw, field, default, position in (("num_workers", "data.num_workers", 0, 5),
                                             ("pin_memory", "data.pin_memory", False, 7)):
            if kw in given or len(call.args) > position:
                continue
            self.add_checked(plan, field, default,
                             Source("code", shown, call.lineno, None,
                                    f"DataLoader(...) without {kw}: torch's default {kw}={default} (the loader "
                                    f"{'.'.join(got.path)} gives its batch size to, {shown}:{call.lineno})"),
                             "medium", _PRIORITY)

    def _loader_kwargs(self, call: ast.Call, reader: _ObjReader, plan: TrainingPlan, modules: Modules,
                       shown: str) -> None:
        """``DataLoader(ds, **kw)`` with ``kw`` the dict a project helper builds from the object."""
        from preflight.adapters.config_object_helpers import helper_dict

        given = {k.arg for k in call.keywords if k.arg}
        for kw in call.keywords:
            if kw.arg is not None or not isinstance(kw.value, ast.Name):
                continue
            bound = reader.assigns.get(kw.value.id, [])
            if len(bound) != 1 or not isinstance(bound[0], ast.Call):
                continue
            split = [a.value for a in bound[0].args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if any(word in str(v).lower() for v in split for word in _NOT_TRAIN) or \
                    any(word in kw.value.id.lower() for word in _NOT_TRAIN):
                continue  # the evaluation loader (llama-cookbook get_dataloader_kwargs(..., "val"))
            got = helper_dict(bound[0], modules, reader, reader.known)
            if got is None:
                continue
            values, lines, where, helper = got
            for key, field in (("batch_size", "batch.micro"), ("num_workers", "data.num_workers")):
                value = values.get(key)
                if key in given or not isinstance(value, int) or isinstance(value, bool) or value < 0 \
                        or (key == "batch_size" and value == 0):
                    continue
                self.add_checked(plan, field, value,
                                 Source("code", where, lines.get(key), key,
                                        f"{kw.value.id}[{key!r}] set by {helper}() from the config object it is "
                                        f"given ({shown}:{bound[0].lineno}), passed to {ast.unparse(call.func)}"
                                        f"(**{kw.value.id}) at line {call.lineno}"), "medium", _PRIORITY)

    def _leaf_fact(self, plan: TrainingPlan, combined: Tree, field: str, value: Any, path: tuple, detail: str) -> None:
        got = lookup(combined, path)
        if not isinstance(got, Leaf):
            return
        if got.how == "launch line":
            src = Source("cli", None, None, got.key or f"--{'.'.join(path[1:])}", f"{detail} (the launch line)")
        else:
            src = Source("code", got.file or None, got.line, ".".join(path), f"{detail} ({got.how})")
        self.add_checked(plan, field, value, src, "medium", _PRIORITY)


def step_loop(adapter: ConfigObjectAdapter, plan: TrainingPlan, combined: Tree, fn: ast.AST, nodes: list,
              reader: _ObjReader, parents: dict, modules: Modules, shown: str) -> None:
    """A hand-written loop's accumulation, positional loader batch and autocast dtype read from the object's
    keys (:mod:`preflight.adapters.config_object_step_loop`)."""
    from preflight.adapters.config_object_step_loop import (
        autocast_key_dtype,
        fit_module_optimizer,
        lightning_trainer,
        micro_step_count,
        optimizer_selector,
        positional_loader_batch,
    )

    def runs(node: ast.AST) -> bool:
        return _runs(node, parents, reader)

    chosen = optimizer_selector(fn, nodes, parents, reader, runs,
                                next((t for s, _, t in modules.trees if s == shown), None))
    if chosen is not None:
        cls, key_path, key_value, ret_line = chosen
        adapter._leaf_fact(plan, combined, "optimizer.name", cls, key_path,
                           f"{'.'.join(map(str, key_path))} = {key_value!r} takes the return of torch.optim.{cls} in "
                           f"{getattr(fn, 'name', '?')}() ({shown}:{ret_line}), which builds the optimizer")
    counted = micro_step_count(fn, reader, runs)
    if counted is not None:
        value, path, line = counted
        adapter._leaf_fact(plan, combined, "batch.grad_accum", value, path,
                           f"for _ in range({'.'.join(map(str, path))}): one backward per pass, the optimizer "
                           f"steps after the loop ({shown}:{line}): gradient accumulation")
    batches, dtypes = set(), set()
    for node in nodes:
        if not isinstance(node, ast.Call) or not runs(node):
            continue
        got = positional_loader_batch(node, reader, modules, shown)
        if got is not None:
            batches.add((got, node.lineno))
        mode = autocast_key_dtype(node, nodes, reader)
        if mode is not None:
            dtypes.add((mode, node.lineno))
        tree = next((t for s, _, t in modules.trees if s == shown), None)
        trainer_facts = lightning_trainer(node, reader, tree)
        if trainer_facts:
            opt = fit_module_optimizer(nodes, modules, shown)
            if opt is not None:
                adapter.add_checked(plan, "optimizer.name", opt[0],
                                    Source("code", opt[1], opt[2], None,
                                           f"{opt[0]}(...) in {opt[3]}.configure_optimizers(), the LightningModule "
                                           f"given to the Trainer's fit ({shown})"), "medium", _PRIORITY)
        for t_field, t_value, t_path, t_detail in trainer_facts:
            if t_path is not None:
                adapter._leaf_fact(plan, combined, t_field, t_value, t_path, f"{t_detail} ({shown})")
            else:
                adapter.add_checked(plan, t_field, t_value, Source("code", shown, node.lineno, None, t_detail),
                                    "medium", _PRIORITY)
    if len({b[0][0] for b in batches}) == 1:
        (micro, micro_path), micro_line = sorted(batches, key=lambda b: b[1])[0]
        adapter._leaf_fact(plan, combined, "batch.micro", micro, micro_path,
                           f"{'.'.join(map(str, micro_path))} given by position as the batch of a project loader "
                           f"class ({shown}:{micro_line}): per process")
    if len({d[0][0] for d in dtypes}) == 1:
        (amp_mode, path, text), line = sorted(dtypes, key=lambda d: d[1])[0]
        adapter._leaf_fact(plan, combined, "precision.mode", amp_mode, path,
                           f"{'.'.join(map(str, path))} = {text!r} is the dtype of autocast ({shown}:{line}): "
                           "mixed precision over the model's own weights")
