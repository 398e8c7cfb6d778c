"""Raw PyTorch (and the model-loading idioms of transformers/PEFT/bitsandbytes used from it).

Reads, without importing anything: the model (``from_pretrained("id")``, timm/torchvision
constructors, a local ``nn.Module``), the optimizer class, ``DataLoader`` arguments
(literals, names bound once to a literal, argparse defaults and launch-command
overrides), precision (autocast, GradScaler, ``.half()``/``.bfloat16()``, ``torch_dtype``),
quantized loading, DDP/FSDP wrapping, gradient checkpointing, ``torch.compile``, LoRA,
``generate()`` arguments and the task mode. A value it cannot determine is not added.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.loop_shapes import loralib
from preflight.adapters.optimizer_local import optimizer_from_local_modules

from preflight.adapters_api import Adapter, CallSite, Project, Resolved, ScriptIndex
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import read_text_limited

FRAMEWORK_MODULES = ("torch", "transformers", "peft", "timm", "torchvision", "bitsandbytes", "trl",
                     "accelerate", "lightning", "pytorch_lightning", "deepspeed")

_MODEL_CLASS = re.compile(r"^(Auto\w*Model\w*|\w*Model|\w+For[A-Z]\w*|\w*LMHeadModel)$")
_NOT_MODEL = re.compile(r"Tokenizer|Processor|Config|FeatureExtractor|^Peft|^AutoPeft")
_EVAL_NAME = re.compile(r"val|eval|test|dev(?!ice)")
#: torchvision's ViT builders (torchvision/models/vision_transformer.py: EncoderBlock's
#: ``nn.MultiheadAttention``)
_TV_VIT = re.compile(r"^vit_[bhl]_\d+$")
_DTYPES = {"bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "half": "fp16", "fp16": "fp16",
           "float32": "fp32", "float": "fp32", "fp32": "fp32"}
_DTYPE_BITS = {"bf16": 16, "fp16": 16, "fp32": 32}
_FSDP_STRATEGY = {"FULL_SHARD": "fsdp_full", "SHARD_GRAD_OP": "fsdp_grad_op", "HYBRID_SHARD": "fsdp_hybrid",
                  "_HYBRID_SHARD_ZERO2": "fsdp_hybrid", "HYBRID_SHARD_ZERO2": "fsdp_hybrid", "NO_SHARD": "ddp"}
_SEQ_NAMES = ("max_seq_length", "max_seq_len", "seq_len", "seq_length", "block_size", "context_length",
              "max_length", "sequence_length")
_CROP = ("RandomResizedCrop", "CenterCrop", "RandomCrop")
#: transformers' collators that pad each batch to its longest sample unless told otherwise
#: (``padding=True`` by default). DataCollatorForLanguageModeling is left out: it is mostly
#: used on texts already grouped into equal blocks, where nothing varies.
_PADDING_COLLATORS = ("DataCollatorWithPadding", "DataCollatorForSeq2Seq",
                      "DataCollatorForTokenClassification")
_AUTOCAST = ("torch.autocast", "torch.amp.autocast", "torch.cuda.amp.autocast", "torch.cpu.amp.autocast",
             "torch.amp.autocast_mode.autocast")
_HF_TRAINING_ARGS = frozenset({"TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig",
                                "GRPOConfig", "KTOConfig", "ORPOConfig", "PPOConfig", "RewardConfig"})
# Lightning hooks that build evaluation loaders: never the training batch
_EVAL_LOADER_HOOKS = frozenset({"val_dataloader", "test_dataloader", "predict_dataloader"})
_SCALER = ("torch.cuda.amp.GradScaler", "torch.amp.GradScaler", "torch.GradScaler", "torch.cpu.amp.GradScaler")


#: the suffixes of a file of weights (a checkpoint loaded into the model)
_WEIGHT_FILES = (".ckpt", ".pt", ".pth", ".bin", ".safetensors")


@register_adapter
class PyTorchAdapter(Adapter):
    name = "pytorch"
    frameworks = ("pytorch",)

    def detect(self, project: Project) -> bool:
        return any(project.index(s).imports_any(*FRAMEWORK_MODULES) for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            idx = project.index(script)
            if idx.imports_any(*FRAMEWORK_MODULES):
                _ScriptPass(self, project, plan, idx).run()
        if plan.value("dist.sharding") is None:
            self.local_ddp(project, plan)

    def local_ddp(self, project: Project, plan: TrainingPlan) -> None:
        """DDP or FSDP constructed in a local module the entry script imports (adapters/pytorch_local.py)."""
        from preflight.adapters.pytorch_local import ddp_in_local_modules

        for script in project.scripts:
            if script.tree is None or script.source.path is None:
                continue
            root = Path(str(project.root)) if project.root else None
            found = ddp_in_local_modules(Path(str(script.source.path)), script.tree, root)
            if found is not None:
                path, line, mode, what = found
                shown = os.path.relpath(path, project.root) if project.root else path.name
                self.add_checked(plan, "dist.sharding", mode,
                                 Source("code", shown, line, what.split("(", 1)[0],
                                        f"{what} in {shown}, a local module {script.source.display} imports"),
                                 "medium")
                return


def _on_cuda_device(test: ast.expr) -> Optional[bool]:
    """A test of the device the job runs on, decided for the CUDA GPU the plan targets:
    ``torch.cuda.is_available()``, ``device.type in ['cuda', 'cpu']`` / ``== "cuda"`` / ``!= "cuda"``
    (huggingface/nanoVLM train.py:394-397 ``dtype=torch.bfloat16 if device.type in ['cuda', 'cpu']
    else torch.float16``); None for anything else."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _on_cuda_device(test.operand)
        return None if inner is None else not inner
    if isinstance(test, ast.Call) and not test.args and (dotted_name(test.func) or "").endswith("cuda.is_available"):
        return True
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left = test.left
    what = left.attr if isinstance(left, ast.Attribute) else left.id if isinstance(left, ast.Name) else ""
    owner = left.value if isinstance(left, ast.Attribute) else None
    owner_name = (dotted_name(owner) or "") if owner is not None else ""
    if not (what in ("device_type",) or (what == "type" and "device" in owner_name.lower())
            or (isinstance(left, ast.Name) and left.id.lower() in ("device", "device_type"))):
        return None
    right, op = test.comparators[0], test.ops[0]
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.List, ast.Tuple, ast.Set)) \
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in right.elts):
        inside = "cuda" in [e.value for e in right.elts]  # type: ignore[attr-defined]
        return inside if isinstance(op, ast.In) else not inside
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, ast.Constant) and isinstance(right.value, str):
        same = right.value == "cuda"
        return same if isinstance(op, ast.Eq) else not same
    return None


# the constructors that take FSDP1 keywords (torch, Lightning, accelerate)
_FSDP_CTORS = ("FullyShardedDataParallel", "FSDP", "FSDPStrategy", "FullyShardedDataParallelPlugin")


def _method(site: CallSite) -> Optional[str]:
    """``backward`` for ``scaler.scale(loss).backward()``: the attribute called, whatever the receiver."""
    func = site.call.func
    return func.attr if isinstance(func, ast.Attribute) else None



_OPTIMIZER_CLASS = re.compile(r"(Adam[WP]?|AdamW?\d*bit|SGD|Adafactor|Lion|Lamb|LAMB|RMSprop\w*|Adagrad|Adadelta|"
                              r"Adamax|NAdam|RAdam|Sophia\w*|Muon|Shampoo|Prodigy|CAME|AdEMAMix)(8bit|32bit|4bit)?"
                              # a lower-case variant after an underscore: zyushun/Adam-mini
                              # examples/gpt2/train_gpt2.py:33,252 ``from adam_mini import Adam_mini``
                              r"(_[a-z][a-z0-9]*)?$")


def _one_arm(idx: ScriptIndex, found: list[tuple[CallSite, str]]) -> list[tuple[CallSite, str]]:
    """The optimizer constructions the job runs: those whose every guard is decided true;
    else, when none is, the undecided ones only if they all build the same class. Arms of an
    ``if``/``elif`` chain on an option nobody decided (``if args.optimizer == "adam": Adam(...)
    elif ...: GaLoreAdamW(...)``) are alternatives: taking the first would be a guess."""
    decided = [f for f in found if idx.runs(f[0]) is True]
    if decided:
        return decided
    return found if len({name for _, name in found}) <= 1 else []

_RANK = {"low": 0, "medium": 1, "high": 2}
# apex's data-parallel wrapper: a full replica per process, gradients all-reduced in buckets like torch's DDP
# (NVIDIA/apex apex/parallel/distributed.py; jaywalnut310/glow-tts @ 13e99768 train.py:12,73)
_APEX_DDP = "apex.parallel.DistributedDataParallel"


def _starts_cuda(name: str) -> bool:
    """A call that initialises CUDA (and with it the caching allocator's configuration)."""
    if name.startswith("torch.cuda."):
        # these three never initialise CUDA (empty_cache is a no-op before it is initialised)
        return name.rsplit(".", 1)[-1] not in ("is_available", "device_count", "empty_cache")
    return name.endswith(".cuda")


class _ScriptPass:
    def __init__(self, adapter: PyTorchAdapter, project: Project, plan: TrainingPlan, idx: ScriptIndex) -> None:
        self.adapter = adapter
        self.project = project
        self.plan = plan
        self.idx = idx
        self.script = idx.script
        self._amp_elsewhere = False
        self.calls = [s for s in idx.calls if idx.runs(s) is not False]
        self.model_names: set[str] = set()
        self.pretrained = False
        self.frozen: set[str] = set()  # loaded models the job does not train (:meth:`frozen_models`)
        self.weights_bits: Optional[int] = None
        self.optimizer_names: set[str] = set()

    # -- helpers -------------------------------------------------------------
    def conf(self, site: CallSite, base: str = "high") -> str:
        from preflight.adapters.caller_guards import callers_run  # the helper's callers' guards

        return base if self.idx.runs(site) and callers_run(self.idx, site) else "medium"

    def src(self, node: Any, detail: Optional[str] = None, kind: str = "code", key: Optional[str] = None) -> Source:
        return self.project.source(self.script, node, kind, key=key, detail=detail)

    def add(self, field: str, value: Any, source: Source, confidence: str = "high") -> None:
        self.adapter.add_checked(self.plan, field, value, source, confidence)

    def put(self, field: str, resolved: Resolved, site: Optional[CallSite], what: str, confidence: str) -> None:
        """Add a resolved value with its true origin: the literal, the argparse default or the CLI."""
        if resolved.kind == "cli":
            source = Source("cli", None, None, resolved.key, f"{what}: {resolved.detail}")
        else:
            detail = f"{what}; {resolved.detail}" if resolved.detail else what
            line = resolved.line or (site.line if site is not None else None)
            source = self.src(line, detail, key=resolved.key)
        if resolved.cap is not None and _RANK.get(resolved.cap, 2) < _RANK.get(confidence, 2):
            confidence = resolved.cap
        self.add(field, resolved.value, source, confidence)

    def value(self, expr: Optional[ast.AST]) -> Optional[Resolved]:
        return self.idx.resolve(expr)

    def call_of(self, expr: Optional[ast.AST]) -> Optional[ast.Call]:
        """The call an expression is, or that a name is bound to once."""
        if isinstance(expr, ast.Call):
            return expr
        if isinstance(expr, ast.Name):
            bound = self.idx.assigns.get(expr.id, [])
            if len(bound) == 1 and isinstance(bound[0], ast.Call):
                return bound[0]
        return None

    def dtype(self, expr: Optional[ast.AST], depth: int = 0) -> Optional[str]:
        """"bf16"/"fp16"/"fp32" for ``torch.bfloat16``, ``"bfloat16"``, a name bound to one, ..."""
        if expr is None or depth > 4:
            return None
        if isinstance(expr, ast.IfExp):
            taken = self.idx.truth(expr.test)
            if taken is None:
                taken = _on_cuda_device(expr.test)
            return None if taken is None else self.dtype(expr.body if taken else expr.orelse, depth + 1)
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Dict):
            # ``{'float32': torch.float32, 'bfloat16': torch.bfloat16, ...}[args.dtype]`` with the key
            # decided (karpathy/llm.c train_gpt2.py:629, ``--dtype bfloat16`` on the line)
            key = self.value(expr.slice)
            if key is None:
                return None
            for k, v in zip(expr.value.keys, expr.value.values):
                if isinstance(k, ast.Constant) and k.value == key.value:
                    return self.dtype(v, depth + 1)
            return None
        if isinstance(expr, ast.Attribute):
            name = self.idx.qualify(dotted_name(expr)) or ""
            return _DTYPES.get(name.rsplit(".", 1)[-1]) if name.startswith("torch.") else None
        if isinstance(expr, ast.Name):
            bound = self.idx.assigns.get(expr.id, [])
            if len(bound) == 1 and bound[0] is not None and not isinstance(bound[0], ast.Constant):
                return self.dtype(bound[0], depth + 1)
        resolved = self.value(expr)
        if resolved is not None and isinstance(resolved.value, str):
            return _DTYPES.get(resolved.value.replace("torch.", ""))
        return None

    def trainer_took_it_before(self, site: CallSite) -> Optional[str]:
        """``X = torch.compile(X)`` after ``trainer = SomeTrainer(model=X, ...)`` in the same function,
        with no later ``trainer.model = ...`` nor another trainer built: the trainer holds the
        uncompiled module, so the compiled one never trains (tloen/alpaca-lora finetune.py and its
        copies, AI4Finance-Foundation/FinGPT fingpt/FinGPT_Forecaster/train_lora.py:169,188)."""
        arg = site.call.args[0] if site.call.args else None
        if not isinstance(arg, ast.Name) or site.target != arg.id:
            return None
        same = [s for s in self.idx.calls if s.function == site.function and s.script is site.script]
        trainers = [s for s in same if (s.last or s.name or "").endswith("Trainer")]
        before = [t for t in trainers if t.line < site.line and any(
            kw.arg == "model" and isinstance(kw.value, ast.Name) and kw.value.id == arg.id for kw in t.call.keywords)]
        if not before or any(t.line > site.line for t in trainers):
            return None
        fn = self.idx.functions.get(site.function or "", [None])[0] if site.function else self.script.tree
        for node in ast.walk(fn) if fn is not None else ():
            if isinstance(node, ast.Assign) and getattr(node, "lineno", 0) > site.line and any(
                    isinstance(t, ast.Attribute) and t.attr == "model" for t in node.targets):
                return None  # trainer.model = model: the compiled module may be handed over
        return f"{before[-1].label}(model={arg.id}) at line {before[-1].line}"

    def is_model_receiver(self, site: CallSite) -> bool:
        func = site.call.func
        receiver = dotted_name(func.value) if isinstance(func, ast.Attribute) else None
        if receiver is None:
            return False
        last = receiver.rsplit(".", 1)[-1].lower()
        return receiver in self.model_names or "model" in last or last in ("net", "network")

    # -- passes --------------------------------------------------------------
    def run(self) -> None:
        from preflight.adapters.quant_load import untyped_quantized_load

        self.models()
        untyped_quantized_load(self)
        self.quantization()
        self.optimizers()
        self.dataloaders()
        self.precision()
        self.distributed()
        self.features()
        self.peft_and_task()
        self.shapes()
        self.allocator_config()

    def models(self) -> None:
        found = False
        self.frozen = self.frozen_models()
        for site in self.calls:
            name = site.name or ""
            if name.endswith(".from_pretrained"):
                cls = name.rsplit(".", 2)[-2]
                if not _MODEL_CLASS.match(cls) or _NOT_MODEL.search(cls) or self.in_local_constructor(site):
                    continue
                found = self.pretrained = True
                if site.target and site.target not in self.frozen:
                    self.model_names.add(site.target)
                self.from_pretrained(site, cls)
            elif site.matches("timm.create_model") or site.matches("torchvision.models.get_model"):
                ref = self.value(site.arg(0, "model_name" if "timm" in (site.qualified or "") else "name"))
                if ref is not None and isinstance(ref.value, str):
                    found = True
                    self.model_names.add(site.target or "model")
                    self.put("model.ref", ref, site, f"{name}(...)", self.conf(site))
                    if "torchvision" in (site.qualified or ""):
                        self.torchvision_mha(site, ref.value)
            elif (site.qualified or "").startswith("torchvision.models.") and site.last and site.last[0].islower() \
                    and site.last not in ("get_model", "get_weight", "list_models"):
                found = True
                self.model_names.add(site.target or "model")
                self.add("model.ref", site.last, self.src(site.call, f"{name}()"), self.conf(site))
                self.torchvision_mha(site, site.last)
        if not found:
            self.local_module()
        if not found and not any(f.adapter == self.adapter.name for f in self.plan.facts("model.ref")):
            self.checkpoint_weights()

    def in_local_constructor(self, site: CallSite) -> bool:
        """The call sits in a ``@classmethod`` of a local ``nn.Module`` class: an alternate constructor
        of that class, which copies the hub model's weights into its own layers (karpathy/llm.c @
        7ecd8906 ``train_gpt2.py:200-216``, ``GPT.from_pretrained`` loads ``GPT2LMHeadModel`` to fill a
        local ``GPT``): the hub class is not the model trained."""
        node = self.idx.classes.get(site.klass or "")
        if node is None or not any((self.idx.qualify(dotted_name(b)) or "").endswith("nn.Module") for b in node.bases):
            return False
        fn = next((f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == site.function), None)
        return fn is not None and any(dotted_name(d) == "classmethod" for d in fn.decorator_list)

    def checkpoint_weights(self) -> None:
        """The model built from code and then given a checkpoint's weights, the model trained
        (``trainer.fit(model)``) or already known as the model: the checkpoint is the model
        (lllyasviel/ControlNet@ed85cd1e25a5 ``tutorial_train.py:11,20-21,35``: ``model.load_state_dict(
        load_state_dict(resume_path, location='cpu'))`` then ``trainer.fit(model, dataloader)``; also
        ``torch.load(path)``, ``safetensors.torch.load_file(path)``, ``torch.load(path)["state_dict"]``).
        The path is a literal or a resolved value with a weights-file suffix; medium, and only when
        exactly one such load reaches the trained model."""
        fitted = {dotted_name(s.call.args[0]) for s in self.calls
                  if (s.name or "").endswith(".fit") and s.call.args} | self.model_names
        found = []
        for site in self.calls:
            func = site.call.func
            if not ((site.name or "").endswith(".load_state_dict") and isinstance(func, ast.Attribute)
                    and site.call.args and dotted_name(func.value) in fitted):
                continue
            inner = site.call.args[0]
            while isinstance(inner, ast.Subscript):
                inner = inner.value
            if not isinstance(inner, ast.Call) or not (inner.args or inner.keywords):
                continue
            first = inner.args[0] if inner.args else inner.keywords[0].value
            ref = self.value(first)
            if ref is not None and isinstance(ref.value, str) and ref.value.lower().endswith(_WEIGHT_FILES):
                found.append((site, ref))
        if len(found) == 1:
            site, ref = found[0]
            self.put("model.ref", ref, site, f"{dotted_name(site.call.func)}() of the trained model: the weights "
                     "it starts from", "medium")

    def torchvision_mha(self, site: Any, builder: str) -> None:
        """torchvision's ViT builders (``vit_b_16`` ... ``vit_h_14``) build ``EncoderBlock``s
        whose attention is ``torch.nn.MultiheadAttention`` (``model.torch_mha``: how its SDPA
        output is copied, ``estimate.terms.mha_output_copied``)."""
        if _TV_VIT.match(builder):
            self.add("model.torch_mha", True,
                     self.src(site.call, f"{site.label}(): torchvision's ViT runs nn.MultiheadAttention"),
                     self.conf(site))

    def frozen_models(self) -> set[str]:
        """Names of models loaded with ``from_pretrained`` that the job does not train, when it
        loads several: a distillation teacher or a reference model beside the one whose
        ``.parameters()``/``.named_parameters()`` the script reads (huggingface/distil-whisper
        ``run_distillation.py:986-995``: ``teacher_model`` then ``student_model``, the optimizer's
        parameter groups built from ``student_model.named_parameters()``). Empty unless exactly
        one of them has its parameters read, or all but one are frozen with ``requires_grad_(False)``."""
        loaded = {s.target for s in self.calls if s.target and (s.name or "").endswith(".from_pretrained")
                  and _MODEL_CLASS.match((s.name or "").rsplit(".", 2)[-2]) and not _NOT_MODEL.search(s.name or "")}
        if len(loaded) < 2:
            return set()
        # `next(model.parameters()).device` asks where the model is, it does not train it
        probes = {id(s.call.args[0]) for s in self.calls if s.name == "next" and s.call.args}
        read = {(s.name or "").rsplit(".", 1)[0] for s in self.calls
                if (s.name or "").endswith((".parameters", ".named_parameters")) and id(s.call) not in probes}
        trained = loaded & read
        if len(trained) == 1:
            return loaded - trained
        # else the models frozen in so many words (`teacher.requires_grad_(False)`), when one is left
        frozen = {(s.name or "").rsplit(".", 1)[0] for s in self.calls if (s.name or "").endswith(".requires_grad_")
                  and s.call.args and isinstance(s.call.args[0], ast.Constant) and s.call.args[0].value is False}
        return loaded & frozen if len(loaded - frozen) == 1 else set()

    def from_pretrained(self, site: CallSite, cls: str) -> None:
        conf = self.conf(site)
        if site.target in self.frozen:
            # another model is the one trained: this one's name is an alternative at most, and its
            # dtype, quantization and attention are not the trained model's
            ref = self.value(site.arg(0, "pretrained_model_name_or_path"))
            if ref is not None and isinstance(ref.value, str):
                self.put("model.ref", ref, site, f"{cls}.from_pretrained() of {site.target}, which the job does "
                                                 "not train (its parameters never reach an optimizer)", "low")
            return
        ref = self.value(site.arg(0, "pretrained_model_name_or_path"))
        if ref is not None and isinstance(ref.value, str):
            self.put("model.ref", ref, site, f"{cls}.from_pretrained()", conf)
        self.add("model.class_name", cls, self.src(site.call, f"{cls}.from_pretrained()"), conf)
        quantized = self.quantized_load(site)
        for kw in ("torch_dtype", "dtype"):
            dtype = self.dtype(site.kwarg(kw))
            if dtype is not None and not quantized:  # with 4/8-bit weights dtype is the compute dtype
                where = self.src(site.kwarg(kw), f"from_pretrained({kw}=...)")
                self.add("precision.weights_bits", _DTYPE_BITS[dtype], where, conf)
        attn = site.kwarg("attn_implementation")
        resolved = self.value(attn)
        if resolved is not None:
            self.put("model.attn_implementation", resolved, site, "from_pretrained(attn_implementation=...)", conf)
        flash = self.value(site.kwarg("use_flash_attention_2"))
        if flash is not None and flash.value is True:
            self.add("model.attn_implementation", "flash_attention_2",
                     self.src(site.call, "from_pretrained(use_flash_attention_2=True)"), conf)
        for kw, bits in (("load_in_4bit", 4), ("load_in_8bit", 8)):
            flag = self.value(site.kwarg(kw))
            if flag is not None and flag.value is True:
                self.weights_bits = bits
                self.add("precision.weights_bits", bits, self.src(site.kwarg(kw), f"from_pretrained({kw}=True)"), conf)

    def quantized_load(self, site: CallSite) -> bool:
        """from_pretrained(load_in_4bit/8bit=True) or quantization_config=<a quantization config>."""
        for kw in ("load_in_4bit", "load_in_8bit"):
            flag = self.value(site.kwarg(kw))
            if flag is not None and flag.value is True:
                return True
        qconf = site.kwarg("quantization_config")
        if qconf is None or (isinstance(qconf, ast.Constant) and qconf.value is None):
            return False
        call = self.call_of(qconf)
        if call is None or dotted_name(call.func) is None:
            return True  # some quantization config we cannot read: weights are not plain 16-bit
        if not (dotted_name(call.func) or "").endswith("BitsAndBytesConfig"):
            return True
        return any(k.arg in ("load_in_4bit", "load_in_8bit") and (self.value(k.value) or Resolved(False, "code")).value
                   is not False for k in call.keywords)

    def local_module(self) -> None:
        modules = {name for name, node in self.idx.classes.items()
                   if any((self.idx.qualify(dotted_name(b)) or "").endswith(("nn.Module", "LightningModule"))
                          for b in node.bases)}
        built = {s.name: s for s in self.calls if s.name in modules and s.klass not in modules}
        if len(built) == 1:
            cls, site = next(iter(built.items()))
            self.model_names.add(site.target or "model")
            detail = f"{cls}(...): a local nn.Module"
            self.add("model.ref", cls, self.src(site.call, detail), "medium")
            self.add("model.class_name", cls, self.src(site.call, detail), "medium")
            self.local_count(cls, site)
            self.local_attention(cls, modules)

    def local_attention(self, cls: str, modules: set[str]) -> None:
        """``model.attn_implementation`` sdpa for a local model whose classes (the built one and the
        local classes it names, transitively) call ``scaled_dot_product_attention`` with no guard
        around the call, and compute no softmax attention of their own (rasbt/LLMs-from-scratch
        ``ch05/10_llm-training-speed/02_opt_multi_gpu_ddp.py:138`` at 28c65cdf)."""
        reach, todo = set(), [cls]
        while todo:
            name = todo.pop()
            if name in reach or name not in self.idx.classes:
                continue
            reach.add(name)
            todo.extend(n.id for n in ast.walk(self.idx.classes[name]) if isinstance(n, ast.Name) and n.id in modules)
        sdpa = [s for s in self.idx.calls if s.klass in reach and (s.name or "").endswith("scaled_dot_product_attention")]
        manual = any(isinstance(n, (ast.Attribute, ast.Name)) and (getattr(n, "attr", None) or getattr(n, "id", ""))
                     in ("softmax", "Softmax") for name in reach for n in ast.walk(self.idx.classes[name]))
        if sdpa and not manual and all(not s.guards for s in sdpa):
            self.add("model.attn_implementation", "sdpa",
                     self.src(sdpa[0].call, f"{sdpa[0].label}() in {sdpa[0].klass}, a class of the local model "
                                            f"{cls}"), "medium")

    def local_count(self, cls: str, site: CallSite) -> None:
        """Its parameter count when its layers' sizes are known (module_params), with
        literal keyword arguments at the call."""
        from preflight.adapters.module_params import count_class

        counted = None
        if not site.call.args:
            kwargs: dict[str, Any] = {}
            for kw in site.call.keywords:
                value = self.value(kw.value)
                if kw.arg is None or value is None:
                    break
                kwargs[kw.arg] = value.value
            else:
                counted = count_class(self.script.tree, cls, kwargs)
        if counted is None:
            self.local_count_nested(cls, site)
            return
        total, layers = counted
        self.add("model.num_parameters", total,
                 self.src(site.call, f"{cls}(): {total:,} parameters of {len(layers)} layers, counted from "
                                     "their sizes"), "medium")

    def local_count_nested(self, cls: str, site: CallSite) -> None:
        """The count of a model of several local classes (blocks repeated, sizes from a config
        dict handed in): module_params_nested.count_module, with the arguments the call passes read as
        literals (a dict bound once, or passed into the function around the call)."""
        from preflight.adapters.module_params_nested import UNKNOWN, argument_value, count_module

        def arg(expr: ast.AST) -> Any:
            resolved = self.value(expr)
            if resolved is not None:
                return resolved.value
            picked = self.table_entry(expr, site)
            if picked is not None:
                return argument_value(self.script.tree, site.function, picked)
            return argument_value(self.script.tree, site.function, expr)

        if any(isinstance(a, ast.Starred) for a in site.call.args) or any(k.arg is None for k in site.call.keywords):
            return
        args = [arg(a) for a in site.call.args]
        kwargs = {k.arg: arg(k.value) for k in site.call.keywords if k.arg is not None}
        counted = count_module(self.script.tree, cls, args, kwargs)
        if counted is None:
            return
        total, layers = counted
        given = sum(1 for v in [*args, *kwargs.values()] if v is not UNKNOWN)
        self.add("model.num_parameters", total,
                 self.src(site.call, f"{cls}(): {total:,} parameters of {len(layers)} layers of its own and "
                                     f"nested local classes, counted from their sizes ({given} argument(s) read "
                                     "as literals)"), "medium")

    def table_entry(self, expr: ast.AST, site: CallSite) -> Optional[ast.expr]:
        """The entry a table literal indexed by a known key selects, the expression or the one value a
        name is bound to in the scope of the call (karpathy/llm.c @ 7ecd8906 ``train_gpt2.py:654-660``:
        ``model_config = {"d12": GPTConfig(...), "d24": ...}[args.model]`` with ``--model d12``); None
        otherwise."""
        node: Any = expr
        if isinstance(node, ast.Name):
            scope: list[ast.AST] = list(self.script.tree.body) if self.script.tree is not None else []
            if site.function is not None:
                fns = self.idx.functions.get(site.function, [])
                if len(fns) != 1 or not isinstance(fns[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
                    return None
                scope = list(fns[0].body)
            bound: list[ast.AST] = []
            stack = list(scope)
            while stack:
                sub = stack.pop()
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                    continue
                if isinstance(sub, ast.Name) and sub.id == node.id and isinstance(sub.ctx, ast.Store):
                    bound.append(sub)
                stack.extend(ast.iter_child_nodes(sub))
            binds = [n for n in ast.walk(ast.Module(body=[s for s in scope if isinstance(s, ast.stmt)], type_ignores=[]))
                     if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                     and n.targets[0].id == node.id]
            if len(bound) != 1 or len(binds) != 1:
                return None
            node = binds[0].value
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict)):
            return None
        keys = node.value.keys
        if not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys):
            return None
        key = self.value(node.slice)
        if key is None or not isinstance(key.value, str):
            return None
        hits = [v for k, v in zip(keys, node.value.values) if isinstance(k, ast.Constant) and k.value == key.value]
        return hits[-1] if hits else None

    def quantization(self) -> None:
        self.bnb_layers()
        for site in self.calls:
            if site.last != "BitsAndBytesConfig":
                continue
            for kw, bits in (("load_in_4bit", 4), ("load_in_8bit", 8)):
                flag = self.value(site.kwarg(kw))
                if flag is not None and flag.value is True:
                    self.weights_bits = bits
                    self.add("precision.weights_bits", bits,
                             self.src(site.call, f"BitsAndBytesConfig({kw}=True)"), self.conf(site))

    def bnb_layers(self) -> None:
        """bitsandbytes' ``Linear4bit`` built, or handed as the layer class to a call that swaps the model's
        linear layers (AnswerDotAI/fsdp_qlora @ 05ed9f2 train.py:615-616 ``replace_linear(model.model,
        Linear4bit, compute_dtype=..., quant_type='nf4', ...)``) where that call runs: 4-bit base weights;
        ``quant_type=`` given there is the 4-bit type, and ``compress_statistics`` (bitsandbytes' double
        quantization) is on unless given False (its default, bitsandbytes/nn/modules.py Linear4bit)."""
        if self.weights_bits is not None:
            return
        for site in self.calls:
            if self.idx.runs(site) is not True or site.name in ("isinstance", "issubclass", "type"):
                continue
            named = [site.qualified or ""] + [self.idx.qualify(dotted_name(a)) or "" for a in site.call.args
                                              if isinstance(a, (ast.Name, ast.Attribute))]
            if not any(q.startswith("bitsandbytes.") and q.rsplit(".", 1)[-1] == "Linear4bit" for q in named):
                continue
            conf = "medium"
            self.weights_bits = 4
            self.add("precision.weights_bits", 4, self.src(site.call, f"{site.label}(...) with bitsandbytes "
                                                                      "Linear4bit layers: 4-bit base weights"), conf)
            qt = self.value(site.kwarg("quant_type"))
            if qt is not None and qt.value in ("nf4", "fp4"):
                self.add("precision.quant_type", qt.value, self.src(site.kwarg("quant_type"),
                                                                    f"{site.label}(quant_type=...)"), conf)
            dq_expr = site.kwarg("compress_statistics")
            dq = self.value(dq_expr) if dq_expr is not None else None
            if dq_expr is None:
                self.add("precision.double_quant", True,
                         self.src(site.call, "Linear4bit without compress_statistics: bitsandbytes' default True "
                                             "(double quantization)", "default"), conf)
            elif dq is not None and isinstance(dq.value, bool):
                self.add("precision.double_quant", dq.value, self.src(dq_expr, f"{site.label}(compress_statistics"
                                                                               "=...)"), conf)
            return

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
            if (parts[:2] == ["torch", "optim"] and len(parts) == 3) \
                    or (parts[0] in ("bitsandbytes", "torchao", "apex") and "optim" in q) \
                    or (parts[0] == "deepspeed" and "ops" in parts) \
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
            if site.target:
                self.optimizer_names.add(site.target)
            state = "int8" if "8bit" in last else "int4" if "4bit" in last else \
                "fp32" if "32bit" in last else None
            if state is not None:
                self.add("optimizer.state_dtype", state, source, conf)
        if not known and not named and not self.timm_optimizer():
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
        return re.search(r"^def create_optimizer\(args, model\b", text, re.M) is not None \
            and re.search(r"=\s*args\.opt\.lower\(\)", text) is not None \
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
        if not bound or None in bound:
            return None
        if len(bound) == 1:
            value: Optional[ast.expr] = bound[0]
        else:
            from preflight.script_chain import chain_binding

            value = chain_binding(self.idx, name, len(bound))
        dotted = dotted_name(value) if isinstance(value, (ast.Attribute, ast.Name)) else None
        if not dotted or "." not in dotted:
            return None
        return self.idx.qualify(dotted)

    def _table_alias(self, func: ast.Subscript) -> Optional[str]:
        """``opts[args.optimizer](...)`` with ``opts`` bound once to a dict literal of classes and the key an
        option's value (facebookresearch/dlrm @ 090956e ``dlrm_s_pytorch.py:1342-1369``: ``opts = {"sgd":
        torch.optim.SGD, "adagrad": torch.optim.Adagrad, ...}`` then ``opts[args.optimizer](parameters, ...)``
        with ``--optimizer`` defaulting to ``sgd``): the qualified class the key picks; None otherwise."""
        if not isinstance(func.value, ast.Name):
            return None
        bound = self.idx.assigns.get(func.value.id, [])
        if len(bound) != 1 or not isinstance(bound[0], ast.Dict):
            return None
        key = self.idx.resolve(func.slice)
        if key is None or not isinstance(key.value, str):
            return None
        for k, v in zip(bound[0].keys, bound[0].values):
            if isinstance(k, ast.Constant) and k.value == key.value and isinstance(v, (ast.Attribute, ast.Name)):
                dotted = dotted_name(v)
                return self.idx.qualify(dotted) if dotted and "." in dotted else None
        return None

    def dataloaders(self) -> None:
        # torchdata's StatefulDataLoader subclasses DataLoader with its signature and defaults
        # (torchdata/stateful_dataloader/stateful_dataloader.py; volcengine/verl
        # verl/trainer/fsdp_sft_trainer.py:183-191 builds its train loader with it)
        sites = [s for s in self.calls if (s.last == "DataLoader" and (
                     s.qualified == "DataLoader" or (s.qualified or "").startswith("torch.")))
                 or (s.last == "StatefulDataLoader" and (s.qualified or "").startswith("torchdata."))]
        sites = [s for s in sites if s.function not in _EVAL_LOADER_HOOKS]
        train = [s for s in sites if s.target and "train" in s.target.lower()]
        chosen = train or [s for s in sites if not (s.target and _EVAL_NAME.search(s.target.lower()))]
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
                if expr is None and spread:
                    pass
                elif expr is None and not default_is_alternative(self.idx, site, chosen):
                    self.add("batch.micro", 1, self.src(site.call, f"{what}: DataLoader default batch_size=1",
                                                        "default"), "medium")
                elif isinstance(expr, ast.Constant) and expr.value is None:
                    self.dataset_batches(site, conf)
                else:
                    resolved = self.value(expr)
                    if resolved is not None:
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

    def dataset_batches(self, site: CallSite, conf: str) -> None:
        """``DataLoader(dataset, batch_size=None)``: no automatic batching, each item of the
        dataset is a batch; a dataset built with ``batch_size=`` batches itself (GaLore
        torchrun_main.py:195-196 @ 2cc66f88: ``PreprocessedIterableDataset(data, tokenizer,
        batch_size=args.batch_size, ...)``): that is the per-process batch (medium)."""
        call = self.call_of(site.arg(0, "dataset"))
        if call is None:
            return
        size = next((k.value for k in call.keywords if k.arg == "batch_size"), None)
        resolved = self.value(size)
        if resolved is not None and isinstance(resolved.value, int) and not isinstance(resolved.value, bool) \
                and resolved.value >= 1:
            self.put("batch.micro", resolved, site,
                     f"{site.label}(batch_size=None) over a dataset built with batch_size=", "medium")

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
        for site in self.calls:
            q = site.qualified or ""
            if q not in _AUTOCAST:
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
            if method in ("half", "bfloat16", "to") and self.is_model_receiver(site) and self.idx.runs(site) is None:
                # a cast in a branch the job's options do not decide (seed-vc train.py:213
                # ``self.wav2vec_model.half()`` under ``speech_tokenizer_type == 'xlsr'``, a value of the
                # YAML; the preset picks whisper): not a fact of this job, like the GradScaler above
                continue
            if method in ("half", "bfloat16", "to") and self.is_model_receiver(site):
                dtype = "fp16" if method == "half" else "bf16" if method == "bfloat16" else \
                    self.dtype(site.arg(0, "dtype"))
                if dtype in ("bf16", "fp16"):
                    found = True
                    self.add("precision.mode", dtype, self.src(site.call, f"{site.label}(): 16-bit weights"),
                             self.conf(site))
        if found:
            return
        if any(site.last in _HF_TRAINING_ARGS for site in self.calls):
            return  # the HF Trainer's own autocast sets the compute precision (transformers adapter)
        for site in self.calls:
            if (site.name or "").endswith(".from_pretrained"):
                for kw in ("torch_dtype", "dtype"):
                    dtype = self.dtype(site.kwarg(kw))
                    if dtype in ("bf16", "fp16", "fp32"):
                        self.add("precision.mode", dtype,
                                 self.src(site.kwarg(kw), f"from_pretrained({kw}=...) and no autocast"),
                                 self.conf(site))
                        return
        if not self.pretrained and self.model_names and self.constructor_cast():
            return
        if not self.pretrained and self.model_names:
            self.add("precision.mode", "fp32", self.src(None, "no autocast, GradScaler or 16-bit cast found; "
                                                        "PyTorch computes in fp32", "default"), "medium")

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
            elif q.endswith("FullyShardedDataParallel") and q.startswith("torch"):
                strategy = site.kwarg("sharding_strategy")
                conf = self.conf(site)
                self.add("dist.fsdp_version", 1, self.src(site.call, f"{site.label}(...) (FSDP1)"), conf)
                if strategy is None:
                    self.add("dist.sharding", "fsdp_full",
                             self.src(site.call, f"{site.label}(...): default FULL_SHARD"), conf)
                else:
                    from preflight.adapters.dict_pick import dict_pick

                    strategy = dict_pick(strategy, self.value) or self._chain_value(strategy, site)
                    last = (dotted_name(strategy) or "").rsplit(".", 1)[-1]
                    if last in _FSDP_STRATEGY:
                        self.add("dist.sharding", _FSDP_STRATEGY[last],
                                 self.src(strategy, f"{site.label}(sharding_strategy={last})"), conf)
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
                (site.name or "").endswith(".compile") and self.is_model_receiver(site))
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

    def features(self) -> None:
        self.implementation()
        self.load_placement()
        self.checkpointing_off()
        self.compile_off()
        for site in self.calls:
            name = site.name or ""
            q = site.qualified or ""
            if self.idx.runs(site) is False:
                # under an `if` decided false (openvla/openvla vla-scripts/finetune.py:167-168
                # `if cfg.use_quantization: prepare_model_for_kbit_training(vla)`, option false): never runs
                continue
            if _method(site) in ("gradient_checkpointing_enable", "_set_gradient_checkpointing"):
                # `_set_gradient_checkpointing()`: transformers' own switch, which
                # gradient_checkpointing_enable() calls (OpenGVLab/InternVL internvl_chat_finetune.py:979)
                self.add("memory.gradient_checkpointing", True,
                         self.src(site.call, f"{site.label}()"), self.conf(site))
            elif q in ("torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint_sequential") or (
                    q.startswith("torch.distributed.") and q.endswith("apply_activation_checkpointing")):
                self.add("memory.gradient_checkpointing", True, self.src(site.call, f"{q}(...)"), self.conf(site))
            elif q.endswith("prepare_model_for_kbit_training") and q.startswith("peft"):
                flag = self.value(site.kwarg("use_gradient_checkpointing"))
                if flag is None and site.kwarg("use_gradient_checkpointing") is not None:
                    continue
                if flag is None or flag.value is True:
                    self.add("memory.gradient_checkpointing", True,
                             self.src(site.call, "prepare_model_for_kbit_training(): use_gradient_checkpointing "
                                      "defaults to True"), self.conf(site))
            elif q == "torch.compile" or (name.endswith(".compile") and self.is_model_receiver(site)):
                taken = self.trainer_took_it_before(site) if q == "torch.compile" else None
                if taken is not None:
                    self.adapter.note(self.plan, f"{self.src(site.call).location()}: {site.label}(...) rebinds "
                                      f"{site.target} after {taken} took the module; the trainer runs it "
                                      "uncompiled (not read as compile)")
                    continue
                self.add("compile.enabled", True, self.src(site.call, f"{site.label}(...)"), self.conf(site))
                self.compile_scope(site)
            elif (q.split(".")[-1] or name.split(".")[-1]) in _FSDP_CTORS and site.kwarg("limit_all_gathers") is not None:
                # FSDP1's rate limiter, as the job passes it (torch's default was False before 2.1)
                flag = self.value(site.kwarg("limit_all_gathers"))
                if flag is not None and isinstance(flag.value, bool):
                    self.add("dist.fsdp_limit_all_gathers", flag.value,
                             self.src(site.call, f"{site.label}(limit_all_gathers={flag.value})"),
                             self.conf(site))
            elif _method(site) in ("no_sync", "no_backward_sync"):
                # gradient accumulation without the sync: under FSDP every unit keeps its
                # unsharded gradient until the sync step (Fabric: no_backward_sync(model,
                # enabled=...); an explicit enabled=False turns it off)
                enabled = self.value(site.kwarg("enabled"))
                if enabled is not None and enabled.value is False:
                    continue
                self.add("dist.fsdp_unsharded_grad_accum", True,
                         self.src(site.call, f"{site.label}(...): gradients accumulate without the sync"),
                         self.conf(site))

    def compile_scope(self, site: CallSite) -> None:
        """``compile.loss_inside``: whether the loss runs inside the compiled region. True when
        what ``torch.compile`` takes is a loss (``torch.compile(loss_fn)``,
        ``torch.compile(nn.CrossEntropyLoss())``, ``torch.compile(F.cross_entropy)``); False
        when a model is compiled and the script computes a cross-entropy itself outside any
        module's ``forward`` (``model = torch.compile(model)`` then ``F.cross_entropy(logits,
        targets)``: the loss runs eagerly on the logits the compiled model returns; medium, a
        loss on another output cannot be told apart). Nothing otherwise (a model that returns
        its own loss is :meth:`model_computes_loss`; when both are found: unknown)."""
        if "compile.loss_inside" in self.plan_fields():
            arg = site.arg(0, "model")
            target = arg.func if isinstance(arg, ast.Call) else arg
            text = (dotted_name(target) if target is not None else None) or ""
            if site.qualified == "torch.compile" and re.search(r"loss|cross_entropy", text, re.I):
                self.add("compile.loss_inside", True,
                         self.src(site.call, f"{site.label}({text}): the loss is compiled"), self.conf(site))
                return
            if site.qualified != "torch.compile" and not self.is_model_receiver(site):
                return
            if site.qualified == "torch.compile" and arg is not None and not self.is_model_arg(arg):
                return
            inside = self.model_computes_loss(site)
            for other in self.calls:
                q = other.qualified or ""
                if q not in ("torch.nn.functional.cross_entropy", "torch.nn.CrossEntropyLoss"):
                    continue
                if other.klass is not None and other.function == "forward":
                    continue   # the model's own loss, inside what is compiled
                if inside is not None:
                    self.adapter.note(self.plan, f"{self.src(site.call).location()}: the compiled model computes "
                                      f"its own loss and {other.label}(...) at line {other.line} computes one "
                                      "outside it: where the LM loss runs is not read")
                    return
                self.add("compile.loss_inside", False,
                         self.src(other.call, f"{other.label}(...) computes the loss outside the "
                                  f"compiled model ({site.label} at line {site.line}): eager"), "medium")
                return
            if inside is not None:
                call, why = inside
                self.add("compile.loss_inside", True, self.src(call.call, why), "medium")

    def model_computes_loss(self, site: CallSite) -> Optional[tuple[CallSite, str]]:
        """The compiled model is called with its targets and computes the loss in its own
        ``forward`` (nanoGPT: ``model = torch.compile(model)``, ``logits, loss = model(X, Y)``,
        ``GPT.forward`` ends in ``F.cross_entropy``; a transformers model called with
        ``labels=``): the call and why. adapters/compile_loss.py."""
        from preflight.adapters.compile_loss import called_with_targets, model_class_loss

        if site.qualified == "torch.compile":
            arg = site.arg(0, "model")
            built, called = dotted_name(arg) if arg is not None else None, site.target
        else:
            func = site.call.func
            built = called = dotted_name(func.value) if isinstance(func, ast.Attribute) else None
        if not built or not called:
            return None
        call = called_with_targets(self.calls, called)
        if call is None:
            return None
        root = Path(str(self.project.root)) if self.project.root else None
        found = model_class_loss(self.idx, self.calls, built, root)
        if found is None:
            return None
        what, where = found
        return call, (f"{call.label}(...) passes the targets to the compiled model ({site.label} at line "
                      f"{site.line}); {what} ({where}): the loss is compiled with it")

    def is_model_arg(self, arg: ast.expr) -> bool:
        """The expression ``torch.compile`` takes names a model (not a function or a loss)."""
        text = dotted_name(arg) or ""
        last = text.rsplit(".", 1)[-1].lower()
        return text in self.model_names or "model" in last or last in ("net", "network")

    @staticmethod
    def plan_fields() -> Any:
        from preflight.plan import FIELDS

        return FIELDS

    def peft_and_task(self) -> None:
        from preflight.adapters.caller_guards import callers_run

        peft_found = False
        for site in self.calls:
            if site.last != "LoraConfig" or "LoraConfig" in self.idx.classes:
                continue
            called = callers_run(self.idx, site)  # a helper called only under a guard (olmocr prepare_lora_model)
            if called is False:
                continue
            peft_found = peft_found or called is True
            conf = self.conf(site) if called else "low"  # built only if an option not read here says so
            dora = self.value(site.kwarg("use_dora"))
            method = "dora" if dora is not None and dora.value is True else "lora"
            self.add("peft.method", method, self.src(site.call, f"{site.label}(...)"), conf)
            rank = site.kwarg("r")
            splat = [k.value for k in site.call.keywords if k.arg is None]
            if rank is None and splat:
                # ``LoraConfig(**lora_config)`` (volcengine/verl fsdp_sft_trainer.py:276-284): the
                # dict literal bound once gives ``r``, or its default; any other mapping: unknown
                bound = [self.idx.assigns.get(s.id, []) if isinstance(s, ast.Name) else [] for s in splat]
                if len(splat) != 1 or len(bound[0]) != 1 or not isinstance(bound[0][0], ast.Dict) \
                        or None in bound[0][0].keys:
                    continue
                given = {k.value: v for k, v in zip(bound[0][0].keys, bound[0][0].values) if isinstance(k, ast.Constant)}
                rank = given.get("r")
                if rank is None and "r" not in given:
                    self.add("peft.rank", 8, self.src(site.call, "LoraConfig default r=8 (not in the dict given)",
                                                      "default"), conf)
                    continue
            if rank is None:
                self.add("peft.rank", 8, self.src(site.call, "LoraConfig default r=8", "default"), conf)
            else:
                resolved = self.value(rank)
                if resolved is not None:
                    self.put("peft.rank", resolved, site, "LoraConfig(r=...)", conf)
            targets = self.value(site.kwarg("target_modules"))
            if targets is not None and isinstance(targets.value, list):
                self.put("peft.target_modules", targets, site, "LoraConfig(target_modules=...)", conf)
        if any(s.last == "get_peft_model" and callers_run(self.idx, s) for s in self.calls):
            peft_found = True
        peft_found = loralib(self) or peft_found
        self.task(peft_found)

    def _hf_trainer_subclasses(self) -> set[str]:
        """Classes of this file that subclass a transformers/TRL ``*Trainer`` (directly or through
        another class of the file)."""
        found: set[str] = set()
        for _ in range(3):
            for name, node in self.idx.classes.items():
                for base in node.bases:
                    dotted = dotted_name(base) or ""
                    qualified = self.idx.qualify(dotted) or dotted
                    if dotted in found or (qualified.startswith(("transformers.", "trl."))
                                           and qualified.endswith("Trainer")):
                        found.add(name)
        return found

    def task(self, peft_found: bool) -> None:
        trainers = {s.target for s in self.calls if s.target and s.last and s.last.endswith("Trainer")}
        hf_trainers = {s.target for s in self.calls if s.target in trainers
                       and (s.qualified or "").startswith(("transformers.", "trl."))}
        train_site: Optional[CallSite] = None
        generate: list[CallSite] = []
        hf_subclasses = self._hf_trainer_subclasses()
        for site in self.calls:
            method = _method(site)
            if site.klass in hf_subclasses and method in ("backward", "step"):
                # a `training_step`/`compute_loss` override of a transformers/TRL Trainer subclass:
                # the Trainer owns the loop, the transformers adapter says what it trains
                continue
            receiver = dotted_name(site.call.func.value) if isinstance(site.call.func, ast.Attribute) else None
            if method == "backward" or (receiver in trainers and method in ("train", "fit")) \
                    or (receiver in self.optimizer_names and method == "step") \
                    or site.qualified == "torch.autograd.backward":
                train_site = train_site or site
            elif method == "generate":
                generate.append(site)
        for site in generate:
            conf = self.conf(site)
            for kw, field in (("max_new_tokens", "generation.max_new_tokens"), ("num_beams", "generation.num_beams"),
                              ("use_cache", "generation.use_cache")):
                resolved = self.value(site.kwarg(kw))
                if resolved is not None:
                    self.put(field, resolved, site, f"{site.label}({kw}=...)", conf)
        owner = dotted_name(train_site.call.func.value) if train_site is not None \
            and isinstance(train_site.call.func, ast.Attribute) else None
        if train_site is not None and owner in hf_trainers and not peft_found:
            pass  # a transformers/TRL Trainer's loop: the transformers adapter says what it trains
        elif train_site is not None:
            conf = self.conf(train_site)
            if peft_found:
                mode = "qlora" if self.weights_bits == 4 else "lora"
                # lora/qlora is no surer than the facts it rests on
                conf = self.plan.capped(conf, "peft.method", *(("precision.weights_bits",) if mode == "qlora" else ()))
            else:
                mode = "finetune" if self.pretrained else "train"
            detail = f"{train_site.label}(...): the script trains"
            if not peft_found and self.names_peft():
                # LoRA named here or in a local module, but not built where it can be read: it may train
                # adapters only, so the mode is not known (a full-training guess was wrong in every real job
                # of the benchmark that had this shape: mistral-finetune, moshi, sd-scripts, VideoChat2)
                self.adapter.note(self.plan, f"{detail}; LoRA/PEFT is named in the script or a local module it "
                                             "imports, not read: whether it trains adapters only is not known")
            else:
                self.add("task.mode", mode, self.src(train_site.call, detail), conf)
            if owner not in hf_trainers:  # LoRA found is named: only checkpointing can be absent
                from preflight.adapters.pytorch_local import absent_in_loop

                absent_in_loop(self.adapter, self.plan, self.project, self.script, train_site.call)
        elif generate:
            site = generate[0]
            self.add("task.mode", "generation", self.src(site.call, f"{site.label}(...) and no backward pass"),
                     self.conf(site))
        elif self.model_names and "training_step" not in self.idx.functions and any(
                self._inference_site(s) for s in self.calls):
            # a file that defines ``training_step`` is a module trained by a Trainer elsewhere; and
            # ``self.backbone.eval()`` freezes a submodule of a model being built, it does not make
            # the job an inference job
            site = next(s for s in self.calls if self._inference_site(s))
            self.add("task.mode", "inference", self.src(site.call, "no backward pass; model run under no_grad/eval"),
                     "medium")

    @staticmethod
    def _inference_site(site: CallSite) -> bool:
        if site.qualified in ("torch.no_grad", "torch.inference_mode"):
            return True
        return (site.name or "").endswith(".eval") and not (site.name or "").startswith("self.")

    def names_peft(self) -> bool:
        from preflight.adapters.pytorch_local import names_peft

        path = self.script.source.path
        root = Path(str(self.project.root)) if self.project.root else None
        # the root too: a package beside the script's folder (VideoChat2 tasks/train_it.py `from models
        # import *`, the LoRA in models/videochat_mistra/, OpenGVLab/Ask-Anything @ 4dd8210)
        return names_peft(self.script.source.text, self.script.tree, Path(str(path)) if path else None, root)

    def tokenizer_names(self) -> set[str]:
        """Names bound to a tokenizer by how it is built (``AutoTokenizer.from_pretrained``, a
        ``*Tokenizer*``/``*Processor`` class), whatever the variable is called."""
        names: set[str] = set()
        for name, values in self.idx.assigns.items():
            for value in values:
                call = value if isinstance(value, ast.Call) else None
                func = dotted_name(call.func) if call is not None else None
                if func and any(part.endswith(("Tokenizer", "TokenizerFast", "Processor"))
                                for part in func.split(".")):
                    names.add(name)
        return names

    def allocator_config(self) -> None:
        """``memory.expandable_segments`` from ``os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "..."``
        (or ``os.environ.setdefault(...)``) in the script: torch reads the variable when CUDA's
        allocator first initialises, so a script that sets it before any CUDA tensor decides it.
        Only a literal string is read; ``expandable_segments:True`` gives True, ``:False`` False.
        An assignment after a call that starts CUDA (any ``torch.cuda.*`` call but
        ``is_available``/``device_count``/``empty_cache``, or ``.cuda()``) is not read: the
        allocator may have read the variable by then."""
        tree = self.script.tree
        if tree is None:
            return
        started = [(n.lineno, n.col_offset) for n in ast.walk(tree) if isinstance(n, ast.Call)
                   and _starts_cuda(dotted_name(n.func) or "")]
        for node in ast.walk(tree):
            value: Optional[ast.AST] = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if (isinstance(target, ast.Subscript) and dotted_name(target.value) == "os.environ"
                        and isinstance(target.slice, ast.Constant)
                        and target.slice.value == "PYTORCH_CUDA_ALLOC_CONF"):
                    value = node.value
            elif (isinstance(node, ast.Call) and dotted_name(node.func) == "os.environ.setdefault"
                  and len(node.args) == 2 and isinstance(node.args[0], ast.Constant)
                  and node.args[0].value == "PYTORCH_CUDA_ALLOC_CONF"):
                value = node.args[1]
            if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                continue
            options = dict(part.split(":", 1) for part in value.value.replace(" ", "").split(",")
                           if ":" in part)
            flag = options.get("expandable_segments", "").lower()
            where = (value.lineno, value.col_offset)
            if flag in ("true", "false") and not any(at < where for at in started):
                self.put("memory.expandable_segments", Resolved(flag == "true", "code", value.lineno),
                         None, f"PYTORCH_CUDA_ALLOC_CONF={value.value!r}", "high")
                return

    def collator_padding(self) -> None:
        """``data.padding`` from a transformers padding collator: the batch's longest sample
        (``padding=True``, its default, or ``"longest"``) or ``"max_length"``."""
        for site in self.calls:
            if site.last not in _PADDING_COLLATORS:
                continue
            padding = self.value(site.kwarg("padding"))
            value = True if padding is None else padding.value
            if not isinstance(value, (bool, str)):
                continue
            how = {True: "dynamic", "longest": "dynamic", "max_length": "max_length"}.get(value)
            if how is None:
                continue
            resolved = (Resolved(how, "code", site.line) if padding is None
                        else Resolved(how, padding.kind, padding.line, padding.key, padding.detail))
            self.put("data.padding", resolved, site, f"{site.label}(padding={value!r})",
                     "medium" if padding is None else "high")
            return

    def shapes(self) -> None:
        seq_found = False
        padded = False
        tokenizers = self.tokenizer_names()
        split = next((s for s in self.calls if s.kwarg("text_target") is not None), None)
        if split is not None:
            # source and target truncated separately (THUDM/ChatGLM-6B ptuning/main.py:176-177,
            # max_source_length and max_target_length): no one tokenizer call bounds the sequence
            self.adapter.note(self.plan, f"{self.script.source.display}:{split.line}: {split.label}(text_target=...): "
                                         "source and target are truncated separately; no one tokenizer max_length "
                                         "is the sequence length")
            tokenizers = set()
        for site in self.calls:
            if split is not None:
                break
            name = site.name or ""
            owner, _, method = name.rpartition(".")
            built = name in tokenizers or (owner in tokenizers and method in (
                "encode", "encode_plus", "batch_encode_plus", "__call__", "apply_chat_template"))
            if (built or "tokenizer" in name.lower()) and not name.endswith("from_pretrained"):
                resolved = self.value(site.kwarg("max_length"))
                if resolved is None or not isinstance(resolved.value, int):
                    continue
                padding = self.value(site.kwarg("padding"))
                fixed = padding is not None and padding.value == "max_length"
                seq_found = True
                self.put("data.seq_len", resolved, site, f"{name}(max_length=...)"
                         + ("" if fixed else ": an upper bound"), "high" if fixed else "medium")
                if padding is not None and padding.value in ("max_length", True, "longest"):
                    how = "max_length" if fixed else "dynamic"
                    padded = True
                    self.put("data.padding", Resolved(how, padding.kind, padding.line, padding.key,
                                                      padding.detail),
                             site, f"{name}(padding={padding.value!r})", "high")
        if not padded:
            self.collator_padding()
        if not seq_found:
            for var in _SEQ_NAMES:
                resolved = self.idx.argument(var) or self.value(ast.Name(id=var, ctx=ast.Load()))
                if resolved is not None and isinstance(resolved.value, int) and not isinstance(resolved.value, bool):
                    self.put("data.seq_len", resolved, None, f"{var} = {resolved.value}", "low")
                    break
        crops = [s for s in self.calls if (s.qualified or "").startswith("torchvision.transforms") and s.last in _CROP]
        resizes = [s for s in self.calls if (s.qualified or "").startswith("torchvision.transforms") and s.last == "Resize"]
        for site in (crops or resizes)[:1]:
            resolved = self.value(site.arg(0, "size"))
            if resolved is None:
                continue
            size = resolved.value
            if isinstance(size, list) and len(size) == 2 and size[0] == size[1]:
                size = size[0]
            if isinstance(size, int) and not isinstance(size, bool):
                self.put("data.image_size", Resolved(size, resolved.kind, resolved.line, resolved.key, resolved.detail),
                         site, f"{site.label}({size})", "medium")
