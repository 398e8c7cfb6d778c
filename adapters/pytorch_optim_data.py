"""The optimizer and the data loaders of a raw-PyTorch script.

Part of the raw-PyTorch adapter (:mod:`preflight.adapters.pytorch`), split by concern."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.optimizer_local import optimizer_from_local_modules
from preflight.adapters.pytorch_models import _ModelPass
from preflight.adapters.pytorch_pass import (
    _EVAL_LOADER_HOOKS,
    _EVAL_NAME,
    _OPTIMIZER_CLASS,
    _one_arm,
)

from preflight.adapters_api import CallSite, Resolved
from preflight.analysis.syntax import dotted_name
from preflight.sources import read_text_limited


class _OptimDataPass(_ModelPass):
    def optimizers(self) -> None:
        from preflight.adapters.optimizer_classes import local_optimizer_classes

        known: list[tuple[CallSite, str]] = []
        named: list[tuple[CallSite, str]] = []
        aliased: set[int] = set()
        own = local_optimizer_classes(self.script.tree)
        for site in self.calls:
            q = site.qualified or ""
            alias = self._class_alias(site)
            if alias is not None:
                q = alias
                aliased.add(id(site))
            parts = q.split(".")
            last = parts[-1]
            if not last[:1].isupper() or last == "Optimizer":
                continue
            # torch.optim._multi_tensor.AdamW: the same class with foreach=True (torch/optim/_multi_tensor/
            # __init__.py); facebookresearch/mae_st main_pretrain.py:301, facebookresearch/SlowFast @ 058922e
            # slowfast/models/optimizer.py ("mt_adamw")
            if (parts[:2] == ["torch", "optim"] and (len(parts) == 3 or (len(parts) == 4 and parts[2] == "_multi_tensor"))) \
                    or (parts[0] in ("bitsandbytes", "torchao", "apex") and "optim" in q) \
                    or (parts[0] == "deepspeed" and "ops" in parts and _deepspeed_optimizer(parts)) \
                    or (parts[0] == "transformers" and last == "Adafactor"):
                known.append((site, last))
            elif len(parts) > 1 and q != site.name and parts[0] != "torch" and _OPTIMIZER_CLASS.search(last):
                # an optimizer class imported from another package (GaLore torchrun_main.py:29
                # ``from galore_torch import GaLoreAdamW``): its name says what it is
                named.append((site, last))
            elif q == site.name and q in own:
                named.append((site, last))  # the file's own ``class LARS(optim.Optimizer)``
        chosen = _one_arm(self.idx, known + named)
        for site, last in chosen:
            source = self.src(site.call, f"{site.label}(...)" if id(site) not in aliased else
                              f"{site.label}(...), {site.label} bound to {last} (the arm the job takes)")
            conf = self.conf(site) if (site, last) in known and id(site) not in aliased else "medium"
            if last == "CPUOffloadOptimizer" and (site.qualified or "").startswith("torchao."):
                last = self.cpu_offload_optimizer(site, conf)
            self.add("optimizer.name", last, source, conf)
            from preflight.adapters.optimizer_foreach import write_step_path

            write_step_path(self, site, self._class_alias(site) or site.qualified or last, conf)
            if site.target:
                self.optimizer_names.add(site.target)
            state = "int8" if "8bit" in last else "int4" if "4bit" in last else \
                "fp32" if "32bit" in last else None
            if state is not None:
                self.add("optimizer.state_dtype", state, source, conf)
        if not known and not named and not self.timm_optimizer():
            from preflight.adapters.optimizer_dispatch import dispatched_optimizer

            if not dispatched_optimizer(self):
                optimizer_from_local_modules(self)

    def cpu_offload_optimizer(self, site: CallSite, conf: str) -> str:
        """torchao's ``CPUOffloadOptimizer(params, optimizer_class=torch.optim.AdamW, *,
        offload_gradients=False, ...)`` (torchao/optim/cpu_offload.py): the optimizer states
        and step live on the CPU (``dist.offload_optimizer`` cpu); ``offload_gradients=True``
        frees each GPU gradient once copied to the host (``optimizer.offload_gradients``).
        Returns the wrapped optimizer's class name (AdamW by default)."""
        self.add("dist.offload_optimizer", "cpu",
                 self.src(site.call, f"{site.label}(...): states and step on the CPU"), conf)
        flag = site.kwarg("offload_gradients")
        if flag is None:
            self.add("optimizer.offload_gradients", False,
                     self.src(site.call, f"{site.label}(...): offload_gradients defaults to False", "default"), conf)
        else:
            resolved = self.value(flag)
            if resolved is not None and isinstance(resolved.value, bool):
                self.put("optimizer.offload_gradients", resolved, site,
                         f"{site.label}(offload_gradients=...)", conf)
        wrapped = site.arg(1, "optimizer_class")
        name = dotted_name(wrapped) if wrapped is not None else "AdamW"
        return (name or "AdamW").rsplit(".", 1)[-1]

    def _timm_copy(self, qualified: str) -> bool:
        """A project's own copy of timm's optimizer factory (facebookresearch/ConvNeXt-V2 @ 2553895
        ``main_finetune.py:24,333`` ``from optim_factory import create_optimizer``; ``optim_factory.py:140-165``
        ``def create_optimizer(args, model, ...)`` reading ``opt_lower = args.opt.lower()`` and keeping the
        last ``_``-separated part, as timm's does; BEiT and MAE forks carry the same file)."""
        from preflight.script_parsers import _module_file

        module = qualified.rpartition(".")[0]
        path = self.script.source.path
        if not module or path is None or not qualified.endswith(".create_optimizer"):
            return False
        found = _module_file(Path(str(path)).parent, module)
        if found is None:
            return False
        try:
            text = read_text_limited(found, errors="replace")
        except (OSError, ValueError):
            return False
        # timm >= 0.4's legacy wrapper, copied the same way (atomicarchitects/equiformer @ the benchmark's commit
        # ``optim_factory.py:45-71,101-115``: ``create_optimizer(args, model)`` returns ``create_optimizer_v2(model,
        # **optimizer_kwargs(cfg=args))``, ``optimizer_name=cfg.opt``, ``opt_lower = optimizer_name.lower()``)
        reads_opt = re.search(r"=\s*args\.opt\.lower\(\)", text) is not None or (
            re.search(r"\*\*optimizer_kwargs\(cfg=args\)", text) is not None
            and re.search(r"\boptimizer_name\s*=\s*cfg\.opt\b", text) is not None
            and re.search(r"=\s*optimizer_name\.lower\(\)", text) is not None)
        # the signature may wrap after ``args,`` (OpenGVLab/VideoMAEv2 @ the benchmark's commit ``optim_factory.py:103-108``)
        return re.search(r"^def create_optimizer\(\s*args\s*,\s*model\b", text, re.M) is not None and reads_opt \
            and re.search(r"\.split\(['\"]_['\"]\)", text) is not None

    def timm_optimizer(self) -> bool:
        """timm's optimizer factory: ``create_optimizer(args, model)`` (facebookresearch/deit @ 7e160fe
        ``main.py:352``, ``--opt`` default ``adamw`` at ``:56``) reads ``args.opt``;
        ``create_optimizer_v2(model, opt=...)`` or ``create_optimizer_v2(model, **optimizer_kwargs(cfg=args))``
        (huggingface/pytorch-image-models ``train.py:972-974``) reads ``opt`` (``args.opt``). timm keeps the
        last ``_``-separated part (``lookahead_adamw`` is adamw under a Lookahead wrapper): that name,
        timm's own spelling (``adamw``, ``rmsproptf``), medium. An ``opt`` not resolved: nothing."""
        for site in self.calls:
            q = site.qualified or ""
            if q.rsplit(".", 1)[-1] not in ("create_optimizer", "create_optimizer_v2"):
                continue
            if not q.startswith("timm.") and not self._timm_copy(q):
                continue
            expr: Optional[ast.expr] = None
            if q.endswith(".create_optimizer") and site.call.args and isinstance(site.call.args[0], ast.Name):
                expr = ast.Attribute(value=site.call.args[0], attr="opt", ctx=ast.Load())
            elif q.endswith("_v2"):
                expr = site.kwarg("opt")
                for kw in site.call.keywords:
                    inner = kw.value
                    if expr is None and kw.arg is None and isinstance(inner, ast.Call) \
                            and (dotted_name(inner.func) or "").endswith("optimizer_kwargs"):
                        cfg = next((k.value for k in inner.keywords if k.arg == "cfg"),
                                   inner.args[0] if inner.args else None)
                        if isinstance(cfg, ast.Name):
                            expr = ast.Attribute(value=cfg, attr="opt", ctx=ast.Load())
            if expr is None:
                continue
            ast.copy_location(expr, site.call)
            resolved = self.value(expr)
            if resolved is None or not isinstance(resolved.value, str) or not resolved.value:
                continue
            name = resolved.value.lower().split("_")[-1]
            self.put("optimizer.name", Resolved(name, resolved.kind, resolved.line, resolved.key, resolved.detail),
                     site, f"{site.label}(...): timm's optimizer factory, opt {resolved.value!r}", "medium")
            return True
        return False

    def _class_alias(self, site: CallSite) -> Optional[str]:
        """``optimizer_class(...)`` with ``optimizer_class`` a local bound to a class: once
        (``optimizer_class = torch.optim.AdamW``), or in each arm of a decided ``if/else`` (cloneofsimo/lora
        ``training_scripts/train_lora_dreambooth.py:641-651`` @ d84074b, the diffusers training scripts'
        ``if args.use_8bit_adam: optimizer_class = bnb.optim.AdamW8bit else: optimizer_class =
        torch.optim.AdamW``): the qualified class name of the arm taken; None otherwise."""
        if isinstance(site.call.func, ast.Subscript):
            return self._table_alias(site.call.func)
        if not isinstance(site.call.func, ast.Name) or site.call.func.id in self.idx.imports \
                or site.call.func.id in self.idx.classes or site.call.func.id in self.idx.functions:
            return None
        name = site.call.func.id
        bound = self.idx.assigns.get(name, [])
        if bound and None in bound:
            from preflight.adapters.optimizer_param_class import parameter_class

            return parameter_class(self.idx, site.call)  # a class handed in by parameter
        if not bound:
            return None
        if len(bound) == 1:
            value: Optional[ast.expr] = bound[0]
        else:
            from preflight.script_chain import chain_binding

            value = chain_binding(self.idx, name, len(bound))
        if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Dict):
            # ``opt_clz = {'adamw': partial(torch.optim.AdamW, ...), ...}[args.opt.lower().strip()]`` then
            # ``opt_clz(params=...)`` (FoundationVision/VAR @ 78b9539 ``train.py:117-125``)
            return self._table_alias(value)
        arm = isinstance(value, ast.IfExp)
        if isinstance(value, ast.IfExp):
            value = self._decided_arm(value)
        value = self._unpartial(value)
        dotted = dotted_name(value) if isinstance(value, (ast.Attribute, ast.Name)) else None
        if not dotted:
            return None
        if "." not in dotted:
            # a class imported by name (``from deepspeed.ops.adam import FusedAdam``), reached through an
            # arm of a conditional expression: its import says what it is
            qualified = self.idx.qualify(dotted) if arm else None
            return qualified if qualified and "." in qualified else None
        return self.idx.qualify(dotted)

    def _decided_arm(self, value: ast.IfExp) -> Optional[ast.expr]:
        """``AdamOptimizer = DeepSpeedCPUAdam if args.offload else FusedAdam`` (the DeepSpeed-Chat training
        scripts and their forks; Infini-AI-Lab/S2FT ``experiments/train/finetune.py:426``): the arm the
        test takes when the test is known (a launch-line flag, a default); None when it is not, or when
        either arm is itself another conditional."""
        test = self.idx.resolve(value.test)
        if test is None or not isinstance(test.value, (bool, int, type(None))) \
                or isinstance(value.body, ast.IfExp) or isinstance(value.orelse, ast.IfExp):
            return None
        return value.body if test.value else value.orelse

    def _table_alias(self, func: ast.Subscript) -> Optional[str]:
        """``opts[args.optimizer](...)`` with ``opts`` bound once to a dict literal of classes and the key an
        option's value (facebookresearch/dlrm @ 090956e ``dlrm_s_pytorch.py:1342-1369``: ``opts = {"sgd":
        torch.optim.SGD, "adagrad": torch.optim.Adagrad, ...}`` then ``opts[args.optimizer](parameters, ...)``
        with ``--optimizer`` defaulting to ``sgd``): the qualified class the key picks; None otherwise."""
        if isinstance(func.value, ast.Dict):
            bound: list[Any] = [func.value]  # the table written where it is indexed
        elif isinstance(func.value, ast.Name):
            bound = self.idx.assigns.get(func.value.id, [])
        else:
            return None
        if len(bound) != 1 or not isinstance(bound[0], ast.Dict):
            return None
        key = self.idx.resolve(func.slice)
        if key is None or not isinstance(key.value, str):
            return None
        for k, v in zip(bound[0].keys, bound[0].values):
            v = self._unpartial(v)
            if isinstance(k, ast.Constant) and k.value == key.value and isinstance(v, (ast.Attribute, ast.Name)):
                dotted = dotted_name(v)
                return self.idx.qualify(dotted) if dotted and "." in dotted else None
        return None

    def _unpartial(self, value: Any) -> Any:
        """``partial(torch.optim.AdamW, lr=...)`` -> ``torch.optim.AdamW`` (PrimeIntellect-ai/OpenDiloco @ a5b7236
        ``open_diloco/train_fsdp.py:250,328``: ``inner_optimizer = partial(torch.optim.AdamW, lr=config.lr, ...)``,
        then ``inner_optimizer(model.parameters())``); anything else as it is."""
        if isinstance(value, ast.Call) and self.idx.qualify(dotted_name(value.func)) == "functools.partial" \
                and value.args and not isinstance(value.args[0], ast.Starred):
            return value.args[0]
        return value

    def dataloaders(self) -> None:
        # torchdata's StatefulDataLoader subclasses DataLoader with its signature and defaults
        # (torchdata/stateful_dataloader/stateful_dataloader.py; volcengine/verl
        # verl/trainer/fsdp_sft_trainer.py:183-191 builds its train loader with it)
        # PyG's DataLoader subclasses torch's with its signature (torch_geometric/loader/dataloader.py); DGL's
        # GraphDataLoader(dataset, collate_fn=None, use_ddp=False, ddp_seed=0, **kwargs) hands the rest to
        # torch's (THUDM/GraphMAE graphmae/datasets/data_util.py, no num_workers): with its batch size by keyword
        sites = [s for s in self.calls if (s.last == "DataLoader" and (
                     s.qualified == "DataLoader" or (s.qualified or "").startswith(("torch.", "torch_geometric."))))
                 or (s.last == "StatefulDataLoader" and (s.qualified or "").startswith("torchdata."))
                 or (s.last == "GraphDataLoader" and (s.qualified or "").startswith("dgl.") and len(s.call.args) <= 1)]
        sites = [s for s in sites if s.function not in _EVAL_LOADER_HOOKS]
        train = [s for s in sites if s.target and "train" in s.target.lower()]
        chosen = train or [s for s in sites if not (s.target and _EVAL_NAME.search(s.target.lower()))]
        if not train:  # a helper returning its train and test loaders together: the dataset says which
            from preflight.adapters.eval_datasets import without_evaluation_datasets

            chosen = without_evaluation_datasets(self.idx, chosen)
        if not train:  # a prompt loader around a replay-buffer loader: the inner one trains
            from preflight.adapters.loader_loop import training_loaders

            chosen = training_loaders(chosen)
        if not chosen:  # a project's DataLoader subclass (picotron's MicroBatchDataLoader)
            from preflight.adapters.loader_subclass import subclass_loaders

            subclass_loaders(self, lambda s: s.function in _EVAL_LOADER_HOOKS)
            from preflight.adapters.timm_loader import timm_loaders  # timm's create_loader

            timm_loaders(self)
        from preflight.adapters.loader_arms import default_is_alternative

        for site in chosen:
            conf = self.conf(site)
            what = f"{site.label}(...)"
            # ``DataLoader(ds, **kwargs)`` (llama-cookbook's train_dl_kwargs): any keyword may be
            # in the dict, so no default is the job's value
            spread = any(k.arg is None for k in site.call.keywords)
            if site.kwarg("batch_sampler") is None:
                expr = site.arg(1, "batch_size")
                if expr is not None and self._split_into_rounds(site, expr, conf):
                    pass  # the loop runs the loader's batch in rounds: not the micro batch (loader_split.py)
                elif expr is None and spread:
                    pass
                elif expr is None and not default_is_alternative(self.idx, site, chosen):
                    self.add("batch.micro", 1, self.src(site.call, f"{what}: DataLoader default batch_size=1",
                                                        "default"), "medium")
                elif isinstance(expr, ast.Constant) and expr.value is None:
                    self.dataset_batches(site, conf)
                else:
                    resolved = self.value(expr)
                    if resolved is not None and resolved.value == 1 and self.dataset_batch_size(site) is not None:
                        self.dataset_batches(site, conf, one=True)  # a dataset of whole batches, one per step
                    elif resolved is not None:
                        self.put("batch.micro", resolved, site, f"{site.label}(batch_size=...)", conf)
                    else:
                        from preflight.adapters.pytorch_local import per_rank_batch

                        per_rank_batch(self, site, expr, conf)
            else:
                from preflight.adapters.pytorch_local import sampler_batch

                sampler_batch(self, site, conf)
            for kw, field, default in (("num_workers", "data.num_workers", 0), ("pin_memory", "data.pin_memory", False)):
                expr = site.kwarg(kw)
                if expr is None and spread:
                    continue
                if expr is None:
                    self.add(field, default, self.src(site.call, f"{what}: DataLoader default {kw}={default}",
                                                      "default"), conf)
                else:
                    resolved = self.value(expr)
                    if resolved is not None:
                        self.put(field, resolved, site, f"{site.label}({kw}=...)", conf)
            self.sampler(site, conf)

    def _split_into_rounds(self, site: CallSite, expr: ast.AST, conf: str) -> bool:
        from preflight.adapters.loader_split import split_parameter, split_rounds

        tree = getattr(self.script, "tree", None)
        if not isinstance(tree, ast.Module) or split_parameter(tree, site.function, expr) is None:
            return False
        resolved = self.value(expr)
        if resolved is not None:
            batch = resolved.value if isinstance(resolved.value, int) and not isinstance(resolved.value, bool) else None
        else:
            from preflight.adapters.pytorch_local import per_rank_batch

            batch = per_rank_batch(self, site, expr, conf, micro=False)
        return split_rounds(self, site, batch, expr)

    def dataset_batch_size(self, site: CallSite) -> Optional[ast.expr]:
        """The ``batch_size=`` keyword of the call that builds the loader's dataset, if any."""
        call = self.call_of(site.arg(0, "dataset"))
        if call is None:
            return None
        return next((k.value for k in call.keywords if k.arg == "batch_size"), None)

    def dataset_batches(self, site: CallSite, conf: str, one: bool = False) -> None:
        """``DataLoader(dataset, batch_size=None)``: no automatic batching, each item of the
        dataset is a batch; a dataset built with ``batch_size=`` batches itself (GaLore
        torchrun_main.py:195-196 @ 2cc66f88: ``PreprocessedIterableDataset(data, tokenizer,
        batch_size=args.batch_size, ...)``): that is the per-process batch (medium).

        ``one``: ``DataLoader(dataset, batch_size=1)`` over a dataset built with ``batch_size=``:
        each item is a group of that many samples and the loader takes one group a step
        (mmmmayi/Grad-W @ 1c0b31e ``IRM/train.py:58-68``: ``IRMDataset(..., batch_size=
        configs["batchsize"], ...)`` whose ``__getitem__`` stacks 32 utterances, then
        ``DataLoader(dataset=train_irm_dataset, batch_size=1, ...)``); the loader's 1 is not the
        sample count, and a size that cannot be read stays unknown."""
        size = self.dataset_batch_size(site)
        if size is None:
            return
        resolved = self.value(size)
        if resolved is not None and isinstance(resolved.value, int) and not isinstance(resolved.value, bool) \
                and resolved.value >= 1:
            how = "1" if one else "None"
            self.put("batch.micro", resolved, site,
                     f"{site.label}(batch_size={how}) over a dataset built with batch_size=", "medium")

    def sampler(self, site: CallSite, conf: str) -> None:
        expr = site.arg(3, "sampler")
        if expr is not None and not (isinstance(expr, ast.Constant) and expr.value is None):
            call = self.call_of(expr)
            name = dotted_name(call.func) if call is not None else None
            if name:
                self.add("data.sampler", name.rsplit(".", 1)[-1],
                         self.src(site.call, f"{site.label}(sampler={name}(...))"), conf)
            return
        shuffle = site.arg(2, "shuffle")
        if shuffle is None:
            self.add("data.sampler", "SequentialSampler",
                     self.src(site.call, f"{site.label}(...) without sampler or shuffle", "default"), conf)
            return
        resolved = self.value(shuffle)
        if resolved is not None:
            chosen = "RandomSampler" if resolved.value else "SequentialSampler"
            self.put("data.sampler", Resolved(chosen, resolved.kind, resolved.line, resolved.key, resolved.detail),
                     site, f"{site.label}(shuffle={resolved.value!r})", conf)


# the subpackages of ``deepspeed.ops`` that hold optimizers (deepspeed/ops/adam/fused_adam.py FusedAdam,
# ops/adam/cpu_adam.py DeepSpeedCPUAdam, ops/lamb FusedLamb, ops/adagrad, ops/lion); ``deepspeed.ops`` also
# holds kernels that are modules or configs (ops/transformer DeepSpeedTransformerLayer/-Config)
_DS_OPTIM_PACKAGES = frozenset(("adam", "lamb", "adagrad", "lion", "muon"))


def _deepspeed_optimizer(parts: list[str]) -> bool:
    return any(p in _DS_OPTIM_PACKAGES for p in parts[:-1]) or _OPTIMIZER_CLASS.search(parts[-1]) is not None
