"""PyTorch Lightning: ``Trainer(...)`` and the ``LightningModule`` / ``LightningDataModule`` code.

Recognised only through real imports of ``lightning``, ``lightning.pytorch`` or
``pytorch_lightning`` (``import lightning as L; L.Trainer(...)``, ``from
pytorch_lightning import Trainer``...). Reads, without importing anything
(frameworks.md §1.1, Lightning <= 2.6.5):

- ``precision`` (strings, ints and aliases, normalised as Lightning does) -> precision.mode;
- ``devices`` / ``num_nodes`` -> dist.devices_per_node / dist.nodes, and their product
  -> dist.world_size (derived);
- ``strategy`` names and ``DDPStrategy`` / ``FSDPStrategy`` / ``DeepSpeedStrategy``
  objects -> dist.sharding and offloads (``"auto"`` resolved as Lightning does);
- ``accumulate_grad_batches`` -> batch.grad_accum;
- the DataLoader returned by ``train_dataloader()`` -> batch.micro;
- ``configure_optimizers()`` -> optimizer.name; gradient checkpointing in the module or
  ``FSDPStrategy(activation_checkpointing_policy=...)``;
- the same two of a module class defined in a local module the script imports and builds
  (:mod:`preflight.adapters.lightning_local`).

Values given through argparse (``Trainer(devices=args.devices)``) are resolved to the
``add_argument`` default or the launch-command value. ``"auto"``/``-1`` devices,
manual optimisation and ``use_distributed_sampler=False`` become notes.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters.lightning_pass import (
    _OPTIM_PREFIXES,
    _VERSION,
    _is_int,
)
from preflight.adapters.lightning_strategy import _StrategyPass

from preflight.adapters_api import Adapter, CallSite, Project, Resolved
from preflight.analysis.syntax import dotted_name
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter


@register_adapter
class LightningAdapter(Adapter):
    name = "lightning"
    frameworks = ("lightning",)

    def detect(self, project: Project) -> bool:
        return any(_ScriptPass(self, project, None, project.index(s)).relevant() for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            sp = _ScriptPass(self, project, plan, project.index(script))
            if sp.relevant():
                sp.run()



class _ScriptPass(_StrategyPass):
    # -- passes --------------------------------------------------------------
    def run(self) -> None:
        for site in self.trainers:
            self.trainer(site)
        for site in self.from_args:
            self.argparse_trainer(site)
        from preflight.adapters.lightning_cli import cli_trainer

        for site in self.clis:
            if cli_trainer(self, site):
                continue
            self.note(f"{self.where(site.call)}: LightningCLI: the Trainer's arguments come from its YAML config "
                      "and command line, which this adapter does not follow")
        self.module_code()

    def trainer(self, site: CallSite) -> None:
        conf = self.conf(site)
        spread = [kw.value for kw in site.call.keywords if kw.arg is None]
        if len(spread) == 1 and isinstance(spread[0], ast.Call) and isinstance(spread[0].func, ast.Name) \
                and spread[0].func.id == "vars" and len(spread[0].args) == 1 and self.idx.find("add_argparse_args"):
            # ``Trainer(**vars(args))`` over a parser ``Trainer.add_argparse_args`` filled: the
            # same as ``Trainer.from_argparse_args(args)``, the Trainer's flags from the launch line
            self.argparse_trainer(site)
            return
        if spread:
            mapped = self.unpacked(site)
            if mapped is None:
                self.note(f"{self.where(site.call)}: Trainer(**kwargs): arguments passed as a mapping are not "
                          "followed")
                self.explicit_only(site, conf)
                return
            if self.mapped_how == "guessed":
                conf = "medium"
                self.note(f"{self.where(site.call)}: Trainer(**...): the keys of {'; '.join(self.mapped_from)} are "
                          "read as its arguments, from a Hydra config folder found by a guess (medium)")
            elif self.mapped_how == "followed":
                conf = "medium"
                self.note(f"{self.where(site.call)}: Trainer(**...): the keys of {'; '.join(self.mapped_from)} are "
                          "read as its arguments, followed through the script's aliases and the keys it writes "
                          "before the call (medium)")
            else:
                self.note(f"{self.where(site.call)}: Trainer(**...): the keys of {', '.join(self.mapped_from)} are "
                          "read as its arguments")
            site = mapped
        self.precision(site, conf)
        devices = self.devices(site, conf)
        nodes = self.nodes(site, conf)
        if devices is not None and nodes is not None:
            world = devices[0] * nodes[0]
            detail = f"Lightning world size = devices x num_nodes = {devices[0]} x {nodes[0]} ({_VERSION})"
            self.add("dist.world_size", world, self.src(site.call, detail, "derived"), conf)
        self.strategy(site, conf, devices, nodes)
        self.accumulation(site, conf)
        for kw in ("use_distributed_sampler", "replace_sampler_ddp"):
            flag = self.resolve(site.kwarg(kw))
            if flag is not None and flag.value is False:
                self.note(f"{self.where(site.kwarg(kw))}: Trainer({kw}=False): Lightning does not inject a "
                          "DistributedSampler; each rank reads the loader's own sampler")

    def argparse_trainer(self, site: CallSite) -> None:
        """``Trainer.from_argparse_args(args, callbacks=...)`` (pytorch_lightning 1.x; removed in 2.0)
        with ``parser = Trainer.add_argparse_args(parser)``: every Trainer argument is a flag of the
        job's line (BlinkDL/RWKV-LM RWKV-v7/train_temp/train.py:60,242 with ``--precision bf16
        --strategy deepspeed_stage_2 --devices 1 --num_nodes 1`` from demo-training-run.sh). The call
        is read as ``Trainer(flag=value, ...)`` of the flags the line gives (keywords written in the
        call win); a flag the script assigns itself (``args.precision = ...``) is left unknown, and a
        flag the line does not give keeps Lightning 1.x's default only for ``num_nodes`` (1) and
        ``accumulate_grad_batches`` (1), as :meth:`explicit_only` reads a call with a mapping."""
        if not self.idx.find("add_argparse_args"):
            return
        args = list(self.idx.args)
        if any(a.startswith("$") for a in args):
            return  # arguments the launch reader could not expand: the flags are not known
        reassigned = {t.attr for node in ast.walk(self.script.tree)
                      if isinstance(node, (ast.Assign, ast.AugAssign))
                      for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                      if isinstance(t, ast.Attribute)}
        written = {kw.arg for kw in site.call.keywords if kw.arg}
        keywords = [kw for kw in site.call.keywords if kw.arg]
        given: list[str] = []
        section_set = self.section_constants()
        for flag in ("precision", "strategy", "devices", "gpus", "num_nodes", "accumulate_grad_batches",
                     "accelerator"):
            if flag in written or flag in reassigned:
                continue
            value: Optional[str] = None
            for k, tok in enumerate(args):
                name, eq, val = tok.partition("=")
                if name == f"--{flag}":
                    value = val if eq else (args[k + 1] if k + 1 < len(args) else None)
            if value is None:
                if flag in section_set:  # set in code on the section the Namespace is built from
                    keywords.append(section_set[flag])
                continue
            typed: Any = int(value) if value.lstrip("-").isdigit() and flag != "strategy" else value
            node = ast.copy_location(ast.Constant(value=typed), site.call)
            self.mapped[id(node)] = Resolved(typed, "cli", None, f"--{flag}",
                                             f"--{flag} {value} (Trainer.from_argparse_args)")
            keywords.append(ast.keyword(arg=flag, value=node))
            given.append(flag)
        call = ast.copy_location(ast.Call(func=site.call.func, args=[], keywords=keywords), site.call)
        self.mapped_calls.append(call)
        synthetic = CallSite(site.script, call, site.name, site.qualified, site.target, site.guards, site.function,
                             site.klass)
        conf = "medium" if self.idx.runs(site) is not True else "high"
        self.explicit_only(synthetic, conf)
        if "num_nodes" not in given and "num_nodes" not in written and "num_nodes" not in reassigned:
            self.add("dist.nodes", 1, self.src(site.call, "Trainer.from_argparse_args: --num_nodes not on the "
                                               "line, pytorch_lightning 1.x default 1", "default"), "medium")
        if not {"accumulate_grad_batches"} & (set(given) | written | reassigned):
            self.add("batch.grad_accum", 1, self.src(site.call, "Trainer.from_argparse_args: "
                                                     "--accumulate_grad_batches not on the line, "
                                                     "pytorch_lightning 1.x default 1", "default"), "medium")
        devices = self.resolve(synthetic.kwarg("devices")) if synthetic.kwarg("devices") is not None else None
        strategy = synthetic.kwarg("strategy") or self.legacy_strategy(synthetic)
        named = self.resolve(strategy) if strategy is not None else None
        per_node = self.plan.value("dist.devices_per_node") if self.plan is not None else None
        if devices is None and synthetic.kwarg("gpus") is not None and _is_int(per_node) and named is not None \
                and isinstance(named.value, str) and named.value.startswith(("ddp", "deepspeed", "fsdp")):
            devices = Resolved(per_node, "code")  # ``--gpus`` under a one-process-per-GPU strategy
        nodes = self.resolve(synthetic.kwarg("num_nodes")) if synthetic.kwarg("num_nodes") is not None \
            else Resolved(1, "code")
        if devices is not None and nodes is not None and _is_int(devices.value) and _is_int(nodes.value) \
                and devices.value >= 1 and nodes.value >= 1:
            detail = (f"Lightning world size = devices x num_nodes = {devices.value} x {nodes.value} "
                      "(Trainer.from_argparse_args)")
            self.add("dist.world_size", devices.value * nodes.value, self.src(site.call, detail, "derived"), "medium")

    def section_constants(self) -> dict[str, ast.keyword]:
        """``section["strategy"|"accelerator"] = "<literal>"`` written by the script on the ldm-style trainer
        section that ``argparse.Namespace(**section)`` hands to ``Trainer.from_argparse_args``
        (timothybrooks/instruct-pix2pix @ 0dffd1e ``main.py:585`` ``trainer_config["accelerator"] = "ddp"``,
        overwritten by the launch line's own flags after it, which the caller reads first)."""
        from preflight.adapters.ldm_lightning_section import trainer_section_name

        tree = self.script.tree
        name = trainer_section_name(tree) if tree is not None else None
        out: dict[str, ast.keyword] = {}
        for node in ast.walk(tree) if name is not None else ():
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(t := node.targets[0], ast.Subscript) \
                    and isinstance(t.value, ast.Name) and t.value.id == name \
                    and isinstance(t.slice, ast.Constant) and t.slice.value in ("strategy", "accelerator") \
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                key = str(t.slice.value)
                if key in out:
                    return {}  # written twice: which one holds is not read
                self.mapped[id(node.value)] = Resolved(node.value.value, "code", node.lineno, key,
                                                       f"{name}[{key!r}] = {node.value.value!r} "
                                                       "(Trainer.from_argparse_args)")
                out[key] = ast.keyword(arg=key, value=node.value)
        return out

    def explicit_only(self, site: CallSite, conf: str) -> None:
        """``Trainer(a=..., **kwargs)``: read the named arguments, assume no default (the mapping may set it)."""
        if site.kwarg("precision") is not None:
            self.precision(site, "medium")
        if site.kwarg("devices") is not None or site.kwarg("gpus") is not None:
            self.devices(site, "medium")
        if site.kwarg("num_nodes") is not None:
            self.nodes(site, "medium")
        strategy = site.kwarg("strategy") or self.legacy_strategy(site)  # 1.x ``accelerator="ddp"`` too
        if strategy is not None and not (isinstance(strategy, ast.Constant) and strategy.value == "auto"):
            self.strategy(site, "medium", None, None)
        if site.kwarg("accumulate_grad_batches") is not None:
            self.accumulation(site, "medium")

    def accumulation(self, site: CallSite, conf: str) -> None:
        expr = site.kwarg("accumulate_grad_batches")
        if expr is None:
            self.add("batch.grad_accum", 1,
                     self.src(site.call, f"Trainer(accumulate_grad_batches=1) default ({_VERSION})", "default"), conf)
            return
        resolved = self.resolve(expr)
        if resolved is not None and _is_int(resolved.value):
            self.put("batch.grad_accum", resolved.value, resolved, site,
                     f"Trainer(accumulate_grad_batches={resolved.value})", conf)

    # -- LightningModule / LightningDataModule -------------------------------
    def module_code(self) -> None:
        for site in self.calls:
            if site.klass not in self.modules:
                continue
            if site.function == "train_dataloader" and site.last == "DataLoader" \
                    and (site.qualified or "").startswith(("torch.", "DataLoader")):
                self.train_loader(site)
            elif site.function == "configure_optimizers":
                q = site.qualified or ""
                last = q.rsplit(".", 1)[-1]
                if q.startswith(_OPTIM_PREFIXES) and last[:1].isupper() and "Scheduler" not in q \
                        and "lr_scheduler" not in q and last != "Optimizer" and ("optim" in q or last == "Adafactor"):
                    self.add("optimizer.name", last,
                             self.src(site.call, f"{site.label}(...) in {site.klass}.configure_optimizers()"),
                             self.conf(site))
            elif isinstance(site.call.func, ast.Attribute) and site.call.func.attr == "gradient_checkpointing_enable":
                self.add("memory.gradient_checkpointing", True, self.src(site.call, f"{site.label}()"),
                         self.conf(site))
        for name in sorted(self.modules):
            for node in ast.walk(self.idx.classes[name]):
                if isinstance(node, ast.Assign) and any(dotted_name(t) == "self.automatic_optimization"
                                                        for t in node.targets):
                    value = self.resolve(node.value)
                    if value is not None and value.value is False:
                        self.note(f"{self.where(node)}: {name} sets automatic_optimization = False (manual "
                                  "optimization: Trainer(accumulate_grad_batches) and gradient_clip_val do not apply)")
        from preflight.adapters.lightning_local import imported_modules

        imported_modules(self)  # the module classes of local modules the script builds

    def train_loader(self, site: CallSite) -> None:
        if site.kwarg("batch_sampler") is not None:
            return
        expr = site.arg(1, "batch_size")
        what = f"{site.label}(batch_size=...) in {site.klass}.train_dataloader(), per process"
        if expr is None and any(k.arg is None for k in site.call.keywords):
            return  # DataLoader(ds, **kwargs): the batch size may be in the dict
        if expr is None:
            self.add("batch.micro", 1, self.src(site.call, f"{what}: DataLoader default batch_size=1", "default"),
                     "medium", priority=1)
            return
        resolved = self.resolve(expr) or self.attribute(site, expr)
        if resolved is not None and _is_int(resolved.value):
            self.put("batch.micro", resolved.value, resolved, site, what, self.conf(site), priority=1)

    def attribute(self, site: CallSite, expr: ast.expr) -> Optional[Resolved]:
        """``self.batch_size`` / ``self.hparams.batch_size`` set from an ``__init__`` parameter:
        the value passed where the class is built, else the parameter's default."""
        name = dotted_name(expr) or ""
        if not name.startswith("self.") or site.klass is None:
            return None
        attr = name.rsplit(".", 1)[-1]
        cls = self.idx.classes[site.klass]
        init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
        if init is None:
            return None
        param = attr
        if not name.startswith("self.hparams."):
            values = [n.value for n in ast.walk(init) if isinstance(n, ast.Assign)
                      and any(dotted_name(t) == name for t in n.targets)]
            if len(values) != 1:
                return None
            if not isinstance(values[0], ast.Name):
                return self.resolve(values[0])
            param = values[0].id
        args = init.args
        names = [a.arg for a in args.args]
        if param not in names:
            return None
        builds = [s for s in self.calls if s.name == site.klass]
        if len(builds) == 1:
            given = builds[0].arg(names.index(param) - 1, param)
            if given is not None:
                found = self.resolve(given)
                if found is None or found.kind == "cli":
                    return found
                detail = f"passed as {site.klass}({param}=...)" + (f"; {found.detail}" if found.detail else "")
                return Resolved(found.value, found.kind, found.line, found.key, detail)
        defaults = dict(zip(names[len(names) - len(args.defaults):], args.defaults))
        if not builds and self.handed_over(site.klass):
            return None  # LightningCLI(Model) / a builder given the class: it fills __init__ from its config
        if param in defaults and len(builds) <= 1:
            found = self.resolve(defaults[param])
            if found is not None:
                return Resolved(found.value, found.kind, found.line, None,
                                f"default of {site.klass}.__init__({param}=...)")
        return None

    def handed_over(self, klass: str) -> bool:
        """The class itself (not an instance) given to ``LightningCLI(SiameseModel, ...)`` /
        ``LightningCLI(model_class=...)`` while the launch line gives a config file or ``--model.*`` /
        ``--data.*`` flags: the CLI builds it from those, so the ``__init__`` default is not the value
        (davidguzmanr/siamese-neural-networks @ f5ab87c ``siamese/train_lightning.py:20,111,159``:
        ``batch_size: int = 16`` while ``config.yml`` gives 128); the LightningCLI reading
        (:func:`preflight.adapters.lightning_cli_data.cli_sections`) says what they give. With neither,
        the CLI keeps the ``__init__`` defaults."""
        argv = [str(a) for a in self.idx.args]
        if not any(a in ("--config", "-c") or a.startswith(("--config=", "--model", "--data")) for a in argv):
            return False
        for site in self.calls:
            if (dotted_name(site.call.func) or "").rsplit(".", 1)[-1] != "LightningCLI":
                continue
            given = [*site.call.args, *(k.value for k in site.call.keywords)]
            if any(isinstance(a, ast.Name) and a.id == klass for a in given):
                return True
        return False
