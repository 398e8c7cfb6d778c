"""The state and helpers every pass of the raw-PyTorch adapter shares (values, sources, dtypes).

Part of the raw-PyTorch adapter (:mod:`preflight.adapters.pytorch`), split by concern."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any, Optional

from preflight.adapters.script_pass import ScriptPassState

from preflight.adapters_api import CallSite, Project, Resolved, ScriptIndex
from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan

if TYPE_CHECKING:
    from preflight.adapters.pytorch import PyTorchAdapter


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
    exits = _early_exit_arms(idx, found)
    found = [f for f in found if exits.get(id(f[0].call)) is not False]
    decided = [f for f in found if idx.runs(f[0]) is True and exits.get(id(f[0].call), True) is True]
    if decided:
        return decided
    return found if len({name for _, name in found}) <= 1 else []


def _exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise))


def _early_exit_arms(idx: ScriptIndex, found: list[tuple[CallSite, str]]) -> dict[int, Optional[bool]]:
    """Constructions after an ``if`` whose body builds another of them and returns: an implicit ``else``
    (RecBole ``trainer.py`` @ f8d87147^ ``_build_optimizer``: ``if self.learner.lower() == "adam": return
    optim.Adam(...)`` then ``return optim.SGD(...)``). call id -> whether that arm runs: False when the ``if``
    is decided true, None when it is undecided (the two are alternatives). Calls not after such an ``if``
    are left out."""
    calls = {id(site.call) for site, _ in found}
    out: dict[int, Optional[bool]] = {}
    for node in ast.walk(idx.script.tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, stmt in enumerate(block):
                if not (isinstance(stmt, ast.If) and not stmt.orelse and _exits(stmt.body)):
                    continue
                inside = {id(n) for s in stmt.body for n in ast.walk(s) if id(n) in calls}
                if not inside:
                    continue
                after = [id(n) for s in block[i + 1:] for n in ast.walk(s) if id(n) in calls]
                taken = idx.truth(stmt.test)
                for key in after:
                    arm = None if taken is None else not taken
                    out[key] = arm if out.get(key, True) is not False else False
    return out


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


class _PassCore(ScriptPassState):
    def __init__(self, adapter: PyTorchAdapter, project: Project, plan: TrainingPlan, idx: ScriptIndex) -> None:
        super().__init__(adapter, project, plan, idx)
        self._amp_elsewhere = False
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
