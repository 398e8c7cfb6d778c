"""Precision, distribution, checkpointing, compile and load placement of a raw-PyTorch script.

Part of the raw-PyTorch adapter (:mod:`preflight.adapters.pytorch`), split by concern."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Optional

from preflight.adapters.compile_helpers import module_compile_args
from preflight.adapters.pytorch_optim_data import _OptimDataPass
from preflight.adapters.pytorch_pass import (
    _APEX_DDP,
    _AUTOCAST,
    _FSDP_STRATEGY,
    _HF_TRAINING_ARGS,
    _MODEL_CLASS,
    _NOT_MODEL,
    _SCALER,
    _method,
    _on_cuda_device,
)

from preflight.adapters_api import CallSite, Resolved
from preflight.analysis.syntax import dotted_name

# methods that cast a model's weights (``model.half()``, ``model.to(torch.bfloat16)``,
# guided-diffusion's ``model.convert_to_fp16()``)
_CASTS = ("half", "bfloat16", "to", "convert_to_fp16")


def _no_grad_calls(tree: Optional[ast.AST]) -> set[int]:
    """The ids of the calls that run under ``torch.no_grad()`` / ``inference_mode()``: in the body of
    such a ``with`` (or beside it in the same ``with``), or of a function decorated with it. An
    autocast there wraps sampling or validation, not the training forward (yisol/IDM-VTON
    ``train_xl.py:491-495`` @ 0d5f3ec: ``with torch.no_grad(): with torch.cuda.amp.autocast():``
    around the validation pipeline, while the training step runs under ``Accelerator()`` with no
    mixed precision)."""

    def no_grad(expr: ast.expr) -> bool:
        func = expr.func if isinstance(expr, ast.Call) else expr
        return (dotted_name(func) or "").rsplit(".", 1)[-1] in ("no_grad", "inference_mode")

    out: set[int] = set()
    if tree is None:
        return out
    for node in ast.walk(tree):
        parts: list[ast.AST] = []
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(no_grad(i.context_expr) for i in node.items):
            parts = [*node.body, *(i.context_expr for i in node.items)]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(no_grad(d) for d in node.decorator_list):
            parts = list(node.body)
        out.update(id(n) for part in parts for n in ast.walk(part) if isinstance(n, ast.Call))
    return out


class _PrecisionPass(_OptimDataPass):
    def _enabled(self, expr: Optional[ast.AST]) -> Optional[Resolved]:
        """An ``enabled=`` value: resolved, or a test of the device decided for the CUDA GPU the plan
        targets, directly or through a name bound once (WongKinYiu/yolov7 train.py:61,299,360
        ``cuda = device.type != 'cpu'`` then ``amp.autocast(enabled=cuda)``)."""
        found = self.value(expr)
        if found is not None or expr is None:
            return found
        test = expr
        if isinstance(expr, ast.Name):
            bound = self.idx.assigns.get(expr.id, [])
            test = bound[0] if len(bound) == 1 and bound[0] is not None else expr
        on = _on_cuda_device(test) if isinstance(test, ast.expr) else None
        if on is None:
            return None
        return Resolved(on, "code", getattr(test, "lineno", None), None, "a test of the device, for the CUDA GPU")

    def precision(self) -> None:
        found = False
        undecided = False  # an autocast whose ``enabled=`` is not resolved: no precision is a fact
        quiet = _no_grad_calls(self.script.tree)
        for site in self.calls:
            q = site.qualified or ""
            if q not in _AUTOCAST or id(site.call) in quiet:
                continue
            generic = q in ("torch.autocast", "torch.amp.autocast", "torch.amp.autocast_mode.autocast")
            # torch.autocast(device_type, dtype, enabled); torch.cuda.amp.autocast(enabled, dtype)
            enabled_expr = site.arg(2, "enabled") if generic else site.arg(0, "enabled")
            enabled = self._enabled(enabled_expr)
            if enabled is not None and not enabled.value:
                continue
            if enabled is None and enabled_expr is not None:
                # ``autocast(enabled=hps.train.fp16_run)`` (myshell-ai/MeloTTS melo/train.py:342, the
                # flag in a JSON hparams file that is false there): on or off is not known here
                undecided = True
                continue
            dtype = self.dtype(site.arg(1, "dtype") if generic else site.kwarg("dtype"))
            device = self.value(site.arg(0, "device_type")) if generic else None
            conf = self.conf(site)
            if dtype is None and (site.arg(1, "dtype") if generic else site.kwarg("dtype")) is not None:
                continue
            if dtype is None:
                if "cpu" in q or (device is not None and device.value == "cpu"):
                    dtype = "bf16"
                else:
                    dtype = "fp16"  # CUDA autocast's default dtype
                    if device is None and "cuda" not in q:
                        conf = "medium"
            mode = {"bf16": "amp_bf16", "fp16": "amp_fp16"}.get(dtype)
            if mode is not None:
                found = True
                self.add("precision.mode", mode, self.src(site.call, f"{site.label}(...)"), conf)
        scalers = [s for s in self.calls if s.qualified in _SCALER]
        for site in scalers:
            enabled = self._enabled(site.kwarg("enabled"))
            if self.idx.runs(site) is None:
                # a scaler under a guard nobody decided (open_clip main.py:488-493: ``need_scaler =
                # (args.precision == "amp")`` rebound under ``if args.fsdp``) says fp16 only for
                # some values of the job's options: not a fact of this job
                continue
            if enabled is None and site.kwarg("enabled") is not None:
                undecided = True  # GradScaler(enabled=hps.train.fp16_run): fp16 or not is unknown
                continue
            if not found and not undecided and (enabled is None or enabled.value) and self._autocast_elsewhere():
                undecided = True  # the job's autocast is in a project module, with a dtype chosen there
                continue
            if not found and not undecided and (enabled is None or enabled.value):
                found = True
                self.add("precision.mode", "amp_fp16", self.src(site.call, f"{site.label}() implies fp16 autocast"),
                         "medium")
        if found:
            return
        if undecided:
            if not self._amp_elsewhere:
                self.adapter.note(self.plan, "an autocast or GradScaler takes enabled= from a value not read "
                                  "statically: the compute precision is left unknown")
            return
        for site in self.calls:
            name = site.name or ""
            method = name.rsplit(".", 1)[-1]
            if method in _CASTS and self.is_model_receiver(site) and self.idx.runs(site) is None:
                # a cast in a branch the job's options do not decide (seed-vc train.py:213
                # ``self.wav2vec_model.half()`` under ``speech_tokenizer_type == 'xlsr'``, a value of the
                # YAML; the preset picks whisper): not a fact of this job, like the GradScaler above
                continue
            if method in _CASTS and self.is_model_receiver(site):
                # `convert_to_fp16()`: the fp16 cast of OpenAI's guided-diffusion/GLIDE models (held-out-28)
                dtype = "fp16" if method in ("half", "convert_to_fp16") else "bf16" if method == "bfloat16" else \
                    self.dtype(site.arg(0, "dtype"))
                if dtype in ("bf16", "fp16"):
                    found = True
                    self.add("precision.mode", dtype, self.src(site.call, f"{site.label}(): 16-bit weights"),
                             self.conf(site))
        fsdp_unread = False
        if not found:
            found = self.data_cast()
        if not found:
            from preflight.adapters.fsdp_mixed_precision import fsdp_precision

            fsdp = fsdp_precision(self)  # FSDP(mixed_precision=MixedPrecision(param_dtype=...))
            # (None: a policy not read; its dtype is unknown, and so is PyTorch's fp32 default below)
            fsdp_unread = fsdp is None
            found = bool(fsdp)
        if found:
            return
        if any(site.last in _HF_TRAINING_ARGS for site in self.calls):
            return  # the HF Trainer's own autocast sets the compute precision (transformers adapter)
        from preflight.adapters.trained_model import not_trained

        for site in self.calls:
            if (site.name or "").endswith(".from_pretrained") and not_trained(self.idx, self._loaded_into(site)) is None \
                    and id(site.call) not in quiet:  # (a pipeline built for sampling under no_grad: not trained)
                # (a frozen helper loaded in fp16, IDM-VTON train_xl.py:322 ``vae = AutoencoderKL.from_pretrained(
                # ..., torch_dtype=torch.float16)`` beside the trained UNet, says nothing of the training precision)
                for kw in ("torch_dtype", "dtype"):
                    dtype = self.dtype(site.kwarg(kw))
                    if dtype in ("bf16", "fp16", "fp32"):
                        self.add("precision.mode", dtype,
                                 self.src(site.kwarg(kw), f"from_pretrained({kw}=...) and no autocast"),
                                 self.conf(site))
                        return
        if not self.pretrained and self.model_names and self.constructor_cast():
            return
        if not self.pretrained and self.model_names and not fsdp_unread:
            self.add("precision.mode", "fp32", self.src(None, "no autocast, GradScaler or 16-bit cast found; "
                                                        "PyTorch computes in fp32", "default"), "medium")

    def data_cast(self) -> bool:
        """Weights cast in place, ``m.weight.data = m.weight.data.bfloat16()`` (adapters/weight_data_cast.py)."""
        from preflight.adapters.weight_data_cast import data_cast

        got = data_cast(self.script.tree, self.model_names)
        if got is None:
            return False
        node, dtype = got
        self.add("precision.mode", dtype, self.src(node, f"weights cast to {dtype} in place through .data, "
                                                   "no autocast: 16-bit weights"), "medium")
        return True

    def constructor_cast(self) -> bool:
        """The model's own ``__init__`` casts it to 16 bits (adapters/model_cast_init.py): 16-bit weights."""
        from preflight.adapters.model_cast_init import built_model_cast

        found = built_model_cast(self.idx, self.calls, self.model_names)
        if found is None:
            return False
        dtype, site, cls, line = found
        self.add("precision.mode", dtype, self.src(site.call, f"{cls}(...): its __init__ casts the module to "
                                                   f"{dtype} ({self.script.source.display}:{line}), no autocast: "
                                                   "16-bit weights"), "medium")
        return True

    def _loaded_into(self, site: CallSite) -> Optional[str]:
        """The name a loaded model is bound to, through a chained ``.to(...)``/``.cuda()``/``.eval()``
        (PixArt-sigma ``train_scripts/train.py:353`` @ 1ce521a: ``vae = AutoencoderKL.from_pretrained(...,
        torch_dtype=torch.float16).to(accelerator.device)``)."""
        call: ast.AST = site.call
        target = site.target
        while target is None:
            outer = next((s for s in self.calls if isinstance(s.call.func, ast.Attribute) and s.call.func.value is call
                          and s.call.func.attr in ("to", "cuda", "eval", "train", "requires_grad_")), None)
            if outer is None:
                return None
            call, target = outer.call, outer.target
        return target

    def _autocast_elsewhere(self) -> bool:
        """An autocast with a dtype chosen in a project module the script imports (no autocast
        here): a GradScaler here then says only that AMP is on (adapters/pytorch_local.py)."""
        from preflight.adapters.pytorch_local import autocast_dtype_elsewhere

        if any((s.qualified or "") in _AUTOCAST for s in self.calls) or self.script.source.path is None:
            return False
        found = autocast_dtype_elsewhere(Path(str(self.script.source.path)), self.script.tree)
        self._amp_elsewhere = found is not None
        if found is not None:
            path, line, dtype = found
            self.adapter.note(self.plan, f"{os.path.relpath(path, self.project.root)}:{line}: autocast(dtype={dtype}) "
                              "in a module the script imports: the GradScaler alone does not say fp16")
        return found is not None

    def _wrap_value(self, site: CallSite) -> Optional[str]:
        """The sharding a DDP/FSDP/fully_shard call gives ("?" when its strategy is not read), or None."""
        q = site.qualified or ""
        if q == _APEX_DDP:
            return "ddp"
        if not q.startswith("torch"):
            return None
        if q.endswith("DistributedDataParallel"):
            return "ddp"
        if q.endswith("FullyShardedDataParallel"):
            strategy = site.kwarg("sharding_strategy")
            if strategy is None and any(kw.arg is None for kw in site.call.keywords):
                return "?"  # ``FSDP(m, **defaults)``: the strategy may be in the mapping
            last = (dotted_name(strategy) or "").rsplit(".", 1)[-1] if strategy is not None else "FULL_SHARD"
            return _FSDP_STRATEGY.get(last, "?")
        if q.endswith("fsdp.fully_shard"):
            reshard = self.value(site.kwarg("reshard_after_forward"))
            return "fsdp_grad_op" if reshard is not None and reshard.value is False else "fsdp_full"
        return None

    def distributed(self) -> None:
        fully_shard_done = False
        # arms of an undecided ``if/elif`` that wrap the model differently (OLMo scripts/train.py:163-225:
        # DDP under ``cfg.distributed_strategy == ddp``, FSDP under ``== fsdp``): no arm is taken
        wraps = {self._wrap_value(site) for site in self.calls if self.idx.runs(site) is not False} - {None}
        undecided = len(wraps) > 1
        for site in self.calls:
            q = site.qualified or ""
            if undecided and self._wrap_value(site) is not None and self.idx.runs(site) is None:
                continue
            if (q.endswith("DistributedDataParallel") and q.startswith("torch")) or q == _APEX_DDP:
                self.add("dist.sharding", "ddp", self.src(site.call, f"{site.label}(...)"), self.conf(site))
            elif site.target and len(site.call.args) == 1 and isinstance(site.call.args[0], ast.Name) \
                    and site.call.args[0].id == site.target and "." in q and not q.startswith("torch."):
                self._hand_ddp(site, q)  # ``model = apply_gradient_allreduce(model)`` (grad_allreduce.py)
            elif q.endswith("FullyShardedDataParallel") and q.startswith("torch"):
                strategy = site.kwarg("sharding_strategy")
                conf = self.conf(site)
                self.add("dist.fsdp_version", 1, self.src(site.call, f"{site.label}(...) (FSDP1)"), conf)
                if strategy is None and any(kw.arg is None for kw in site.call.keywords):
                    pass  # ``FSDP(lora, **self.fsdp_defaults, ...)`` (StableCascade): the mapping may set the strategy
                elif strategy is None:
                    self.add("dist.sharding", "fsdp_full",
                             self.src(site.call, f"{site.label}(...): default FULL_SHARD"), conf)
                else:
                    from preflight.adapters.dict_pick import dict_pick
                    from preflight.adapters.param_passed import through_parameter

                    strategy = through_parameter(self.idx, site.call, strategy) or strategy
                    picked = dict_pick(strategy, self.value) or self._chain_value(strategy, site)
                    last = (dotted_name(picked) or "").rsplit(".", 1)[-1]
                    if last in _FSDP_STRATEGY:
                        self.add("dist.sharding", _FSDP_STRATEGY[last],
                                 self.src(picked, f"{site.label}(sharding_strategy={last})"), conf)
                offload = self.call_of(self._taken_arm(site.kwarg("cpu_offload")))
                if offload is not None:
                    flag = self.idx.resolve(next((k.value for k in offload.keywords if k.arg == "offload_params"),
                                                 offload.args[0] if offload.args else None))
                    if flag is not None and flag.value is True:
                        self.offload(site, "CPUOffload(offload_params=True)")
            elif q.endswith("fsdp.fully_shard") and q.startswith("torch") and not fully_shard_done:
                fully_shard_done = True
                reshard = self.value(site.kwarg("reshard_after_forward"))
                mode = "fsdp_grad_op" if reshard is not None and reshard.value is False else "fsdp_full"
                self.add("dist.sharding", mode, self.src(site.call, f"{site.label}(...) (FSDP2)"), self.conf(site))
                self.add("dist.fsdp_version", 2, self.src(site.call, f"{site.label}(...) (FSDP2)"), self.conf(site))
                policy = self.call_of(site.kwarg("offload_policy"))
                if policy is not None and (dotted_name(policy.func) or "").endswith("CPUOffloadPolicy"):
                    self.offload(site, "CPUOffloadPolicy()")

    def _hand_ddp(self, site: CallSite, qualified: str) -> None:
        from preflight.adapters.grad_allreduce import hand_ddp

        runs = self.idx.runs(site)
        world = self.plan.value("dist.world_size")
        if runs is False or (runs is None and not (isinstance(world, int) and world > 1)):
            return  # a guard not known to pass (``if n_gpus > 1:``) in a job not known to start several processes
        found = hand_ddp(self.script.source.path, qualified)
        if found is not None:
            self.add("dist.sharding", "ddp", self.src(
                site.call, f"{site.label}(...): a project function ({found[0].name}:{found[1]}) that all-reduces "
                "every parameter's gradient through hooks; each process keeps the whole model (data parallel)"),
                "medium")

    def _chain_value(self, expr: ast.expr, site: CallSite) -> ast.expr:
        """A local set in each arm of a decided ``if/elif`` chain (AnswerDotAI/fsdp_qlora train.py:740-751
        ``if args["sharding_strategy"] == "full_shard": sharding_strategy = ShardingStrategy.FULL_SHARD
        elif ...``): the value of the arm taken, when the function around the use does not take the name
        as a parameter; else ``expr`` itself."""
        if not isinstance(expr, ast.Name):
            return expr
        around = [f for fs in self.idx.functions.values() for f in fs
                  if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and f.lineno <= site.line <= (getattr(f, "end_lineno", None) or f.lineno)]
        fn = max(around, key=lambda f: f.lineno) if around else None
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                a.arg == expr.id for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)):
            return expr
        from preflight.script_chain import chain_binding

        bound = self.idx.assigns.get(expr.id, [])
        if len(bound) == 1 and isinstance(bound[0], ast.Attribute):
            # one binding in the script (apple/ml-4m run_training_4m_fsdp.py:524 ``sharding_strategy:
            # ShardingStrategy = ShardingStrategy.SHARD_GRAD_OP`` then ``FSDP(..., sharding_strategy=...)``)
            return bound[0]
        count = sum(1 for b in bound if b is not None)
        taken = chain_binding(self.idx, expr.id, count) if count > 1 else None
        return taken if taken is not None else expr

    def _taken_arm(self, expr: Optional[ast.expr]) -> Optional[ast.expr]:
        """``CPUOffload(offload_params=True) if args["use_cpu_offload"] else None``: the arm a decided test
        takes (fsdp_qlora train.py:759); the expression itself otherwise."""
        if isinstance(expr, ast.IfExp):
            test = self.idx.resolve(expr.test)
            if test is not None:
                return expr.body if test.value else expr.orelse
        return expr

    def offload(self, site: CallSite, what: str) -> None:
        source = self.src(site.call, f"{site.label}(...{what}): parameters, gradients and optimizer step on CPU")
        self.add("dist.offload_params", "cpu", source, self.conf(site))
        self.add("dist.offload_optimizer", "cpu", source, self.conf(site))

    def checkpointing_off(self) -> None:
        """Every checkpointing switch of the script sits under a guard the job decides false
        (GaLore torchrun_main.py:47,204-205 @ 2cc66f88: ``if args.activation_checkpointing:
        model.gradient_checkpointing_enable()``, a store_true flag not given): off, medium
        (a construct elsewhere could still turn it on)."""
        def switch(site: CallSite) -> bool:
            return _method(site) in ("gradient_checkpointing_enable", "_set_gradient_checkpointing") \
                or (site.qualified or "") in ("torch.utils.checkpoint.checkpoint",
                                              "torch.utils.checkpoint.checkpoint_sequential")
        if any(switch(s) for s in self.calls):
            return
        dead = [s for s in self.idx.calls if switch(s) and self.idx.runs(s) is False]
        if dead:
            self.add("memory.gradient_checkpointing", False,
                     self.src(dead[0].call, f"{dead[0].label}() runs only under a guard this job decides false"),
                     "medium")

    def compile_off(self) -> None:
        """Every ``torch.compile``/``model.compile`` of the script sits under a guard the job decides
        false (karpathy/build-nanogpt train_gpt2.py:342-344 @ 6104ab1: ``use_compile = False`` then
        ``if use_compile: model = torch.compile(model)``): off, medium (a local module could still
        compile)."""
        def switch(site: CallSite) -> bool:
            return (site.qualified or "") == "torch.compile" or (
                (site.name or "").endswith(".compile") and self.is_model_receiver(site)
                and module_compile_args(site.call))
        if any(switch(s) for s in self.calls):
            return
        dead = [s for s in self.idx.calls if switch(s) and self.idx.runs(s) is False]
        if dead:
            self.add("compile.enabled", False,
                     self.src(dead[0].call, f"{dead[0].label}(...) runs only under a guard this job decides false"),
                     "medium")

    def load_placement(self) -> None:
        """``model.load_placement`` from the order of load, move and wrap calls
        (:mod:`adapters._placement`); the first decisive shape wins."""
        from preflight.adapters._placement import placements

        if self.script.tree is None:
            return
        loads = [s for s in self.calls if (s.name or "").endswith(".from_pretrained")
                 and _MODEL_CLASS.match((s.name or "").rsplit(".", 2)[-2])
                 and not _NOT_MODEL.search((s.name or "").rsplit(".", 2)[-2])]
        for value, site, why in placements(self.script.tree, self.calls, self.is_model_receiver, loads):
            self.add("model.load_placement", value, self.src(site.call, why), self.conf(site, "medium"))
            return

    def implementation(self) -> None:
        """litgpt's own GPT class runs the model when the script imports it (``lit_gpt`` /
        ``litgpt``): its modeling code, not transformers', decides what is saved."""
        tree = self.script.tree
        if tree is None:
            return
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.split(".")[0] in ("lit_gpt", "litgpt") for n in names):
                self.add("model.implementation", "litgpt",
                         self.src(node, "imports litgpt: its GPT class runs the model"), "medium")
                return
