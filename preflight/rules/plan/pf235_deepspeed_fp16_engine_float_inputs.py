"""PF235 deepspeed-fp16-engine-float-inputs: an fp16 DeepSpeed engine (its module cast to half)
is fed float32 tensors from the data loader."""

from __future__ import annotations

import ast
from typing import Any, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules.base import examples
from preflight.rules.plan._deepspeed_engines import engine_names, engine_params
from preflight.sources import ParsedPython

# datasets whose samples are float tensors (images after ToTensor)
_IMAGE_DATASETS = frozenset({"ImageFolder", "DatasetFolder", "CIFAR10", "CIFAR100", "MNIST", "FashionMNIST",
                             "ImageNet", "STL10", "SVHN", "Food101"})
_FLOAT_MAKERS = frozenset({"torch.randn", "torch.rand", "torch.randn_like", "torch.rand_like", "torch.FloatTensor",
                           "torch.normal"})
_FLOAT_DTYPES = frozenset({"torch.float32", "torch.float", "torch.float64", "torch.double"})
_HALF_WORDS = ("half", "float16", "HalfTensor")
_MOVES = frozenset({"to", "cuda", "contiguous", "pin_memory"})


def _enabled(block: Any, key: str) -> bool:
    value = block.get(key) if isinstance(block, dict) else None
    return isinstance(value, dict) and value.get("enabled") is True


def _float_tensor(ctx: FileContext, node: ast.AST, scope: Optional[ast.AST], depth: int = 0) -> bool:
    """``node`` builds a float tensor: ``torch.randn(...)``, ``torch.arange(..., dtype=torch.float32)``,
    ``x.float()``, or a name bound once in the same function to one of those."""
    if isinstance(node, ast.Name) and depth < 3:
        values = [a.value for a in ctx.nodes(ast.Assign) if ctx.enclosing_function(a) is scope
                  and any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)]
        return len(values) == 1 and _float_tensor(ctx, values[0], scope, depth + 1)
    if not isinstance(node, ast.Call):
        return False
    if isinstance(node.func, ast.Attribute) and node.func.attr in {"view", "reshape", "unsqueeze", "float"}:
        return node.func.attr == "float" or _float_tensor(ctx, node.func.value, scope, depth)
    qual = qualify(ctx, node.func)
    if qual in _FLOAT_MAKERS:
        return True
    dtype = kwarg(node, "dtype")
    return qual.startswith("torch.") and dtype is not None and ast.unparse(dtype) in _FLOAT_DTYPES


def _float_dataset(ctx: FileContext) -> Optional[ast.Call]:
    """A dataset of float samples built in the file: a torchvision image dataset, or a
    ``TensorDataset`` whose first tensor is float."""
    for call in ctx.nodes(ast.Call):
        qual = qualify(ctx, call.func)
        last = qual.rsplit(".", 1)[-1] if qual else ""
        if qual.startswith("torchvision.datasets.") and last in _IMAGE_DATASETS:
            return call
        if last == "TensorDataset" and call.args \
                and _float_tensor(ctx, call.args[0], ctx.enclosing_function(call)):
            return call
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Name) and _job_float_dataset(ctx, call.func.id):
            return call
    return None


def _job_float_dataset(ctx: FileContext, name: str) -> bool:
    """``name`` is a ``Dataset`` class of the job (this file, or a project module it imports) whose
    ``__getitem__`` returns a float tensor first on every ``return`` (``return item["mel"].float(), label``:
    the reach across the dataset's method, det83), and whose module never casts to half."""
    cache: dict = ctx.cached("pf235.job-datasets", dict)
    if name in cache:
        return bool(cache[name])
    cache[name] = False
    found: Optional[tuple[FileContext, ast.ClassDef]] = None
    for node in ctx.tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            found = (ctx, node)
    if found is None:
        from preflight.analysis.project_imports import imported_class
        got = imported_class(ctx, name)
        if got is not None:
            found = (got[0], got[1])
    if found is None:
        return False
    other, cls = found
    if not any(ast.unparse(b).endswith("Dataset") for b in cls.bases):
        return False
    text = other.parsed.source.text or ""
    if any(w in text for w in _HALF_WORDS):
        return False
    getitem = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "__getitem__"), None)
    if getitem is None:
        return False
    returns = [r.value for r in ast.walk(getitem) if isinstance(r, ast.Return) and r.value is not None]
    if not returns:
        return False
    for value in returns:
        first = value.elts[0] if isinstance(value, ast.Tuple) and value.elts else value
        if not _float_tensor(other, first, getitem):
            return False
    cache[name] = True
    return True


def _strip_moves(value: ast.AST) -> ast.AST:
    """``x[0].to(device).cuda()`` -> ``x[0]`` (moves without a dtype only)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MOVES \
            and kwarg(value, "dtype") is None and len(value.args) <= 1 \
            and not any(w in ast.unparse(value) for w in _HALF_WORDS):
        value = value.func.value
    return value


def _loop_var(ctx: FileContext, fn: Optional[ast.AST], name: str, depth: int = 0) -> bool:
    """``name`` holds, in ``fn``, a batch of a ``for`` over a loader: a loop target, or bound only
    from one (``images, labels = data``, ``x = batch[0].to(device)``, ``x = x.to(device)``)."""
    if depth > 3:
        return False
    from_loop = False
    for node in ast.walk(fn) if fn is not None else ctx.nodes(ast.For, ast.Assign, ast.AugAssign, ast.AnnAssign):
        if isinstance(node, ast.For):
            # nested targets too: ``for i, (inputs, labels) in enumerate(loader)`` (DeepSpeed issue 904)
            loop_names = [t for t in ast.walk(node.target) if isinstance(t, ast.Name)]
            if any(t.id == name for t in loop_names):
                if isinstance(node.iter, ast.Call) and ast.unparse(node.iter.func) == "range":
                    return False
                from_loop = True
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            flat = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
            if not any(isinstance(t, ast.Name) and t.id == name for t in flat):
                continue
            if not isinstance(node, ast.Assign) or node.value is None:
                return False
            value: ast.AST = node.value
            for t in targets:
                if isinstance(t, ast.Tuple) and isinstance(value, ast.Tuple) and len(t.elts) == len(value.elts):
                    value = next(v for e, v in zip(t.elts, value.elts) if isinstance(e, ast.Name) and e.id == name) \
                        if any(isinstance(e, ast.Name) and e.id == name for e in t.elts) else value
            value = _strip_moves(value)
            if isinstance(value, ast.Subscript):
                value = value.value
            if not isinstance(value, ast.Name):
                return False
            if value.id != name and not _loop_var(ctx, fn, value.id, depth + 1):
                return False
            from_loop = from_loop or value.id != name
    return from_loop


def _moved_self(call: ast.Call, name: str) -> bool:
    """``name.to(device)`` / ``name.cuda()`` (no dtype)."""
    func = call.func
    while isinstance(func, ast.Attribute) and func.attr in _MOVES:
        if any(w in ast.unparse(call) for w in _HALF_WORDS) or kwarg(call, "dtype") is not None:
            return False
        inner = func.value
        if isinstance(inner, ast.Name):
            return inner.id == name
        if not isinstance(inner, ast.Call):
            return False
        call, func = inner, inner.func
    return False


def _cast_to_half(fn: Optional[ast.AST], ctx: FileContext, name: str) -> bool:
    """Somewhere in ``fn`` the name is cast: ``x.half()``, ``x.to(torch.float16)``, ``x.to(dtype=...)``,
    ``x.type(...)``, or a dtype read from the engine/model (``x.to(engine.dtype)``)."""
    nodes = ast.walk(fn) if fn is not None else iter(ctx.nodes(ast.Call))
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name:
            if node.func.attr in {"half", "type"}:
                return True
            if node.func.attr == "to" and (kwarg(node, "dtype") is not None or len(node.args) > 1
                                           or any("dtype" in ast.unparse(a) or "half" in ast.unparse(a)
                                                  or "float16" in ast.unparse(a) for a in node.args)):
                return True
    return False


@register
class DeepSpeedFp16EngineFloatInputs(PlanRule):
    code = "PF235"
    name = "deepspeed-fp16-engine-float-inputs"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("The DeepSpeed config enables fp16, so the engine casts the model to half, but the float32 "
               "batches of the data loader reach the engine's forward uncast")
    explanation = """
## What it finds

A job whose DeepSpeed config enables `"fp16": {"enabled": true}` (without
`"auto_cast": true`) and whose script calls the engine returned by
`deepspeed.initialize` on a batch taken straight from a loader over float data (a
torchvision image dataset such as `ImageFolder`/`CIFAR10`, a `TensorDataset` of
float tensors, or a `Dataset` class of the job, in the script or a project module it
imports, whose `__getitem__` returns a float tensor first, `return item["mel"].float(), label`),
moved to the device with `.to(engine.local_rank)` but never cast to half.

## Why it matters

With fp16 enabled, DeepSpeed converts the module itself to half precision when the
engine is built (deepspeed `runtime/engine.py`, `_configure_distributed_model`:
`self.module.half()`), and its `forward` casts the inputs only when the config asks
for it (`if self.fp16_auto_cast(): inputs = self._cast_inputs_half(inputs)`;
`fp16.auto_cast` defaults to false). There is no autocast: a float32 batch meets
float16 weights in the first convolution or linear layer and the first step fails
with "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type
(torch.cuda.HalfTensor) should be the same" or "expected scalar type Half but found
Float" (DeepSpeed issues 2019 and 550). DeepSpeed's own CIFAR example casts the
inputs with `.half()` for this reason.

## How to fix it

Cast the floating-point inputs (`images = images.to(engine.local_rank).half()`), or
set `"fp16": {"enabled": true, "auto_cast": true}` in the DeepSpeed config, or train
in bf16 with a model that casts its inputs.

## When preflight stays silent

* The config does not enable fp16 (or also enables bf16: another problem), or sets
  `auto_cast: true`.
* The batch is cast anywhere in the function (`.half()`, `.to(torch.float16)`,
  `.to(dtype=...)`, `.to(engine.dtype)`, `.type(...)`), or is rebound to anything but
  itself moved to a device.
* The job's `Dataset` class returns anything but a float tensor first on some `return`
  (token ids, a dict, a value preflight cannot type), or its module casts to half anywhere.
* The file has no float dataset preflight can see (token ids from a tokenizer are
  integers and pass unchanged), or the model comes from `from_pretrained` (many
  transformers vision models cast `pixel_values` to their weight dtype themselves).
"""
    bad_examples = examples("preflight.rules.plan._pf235_examples", "PF235_BAD")
    good_examples = examples("preflight.rules.plan._pf235_examples", "PF235_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        configs = pctx.deepspeed_configs()
        fp16 = [(cfg, prefix) for cfg, block, prefix in configs if _enabled(block, "fp16")
                and block["fp16"].get("auto_cast") is not True
                and not _enabled(block, "bf16") and not _enabled(block, "bfloat16")]
        if not fp16 or len(fp16) != len(configs):
            return
        cfg, prefix = fp16[0]
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or "deepspeed" not in text or "from_pretrained" in text:
                continue
            ctx = pctx.file_context(script)
            dataset = _float_dataset(ctx)
            if dataset is None:
                continue
            yield from self._check_script(pctx, script, ctx, dataset, cfg, prefix)

    def _check_script(self, pctx: PlanContext, script: ParsedPython, ctx: FileContext, dataset: ast.Call,
                      cfg: Any, prefix: tuple) -> Iterable[Finding]:
        engines = engine_names(ctx, script)
        if not engines:
            return
        seen: set[int] = set()
        for call in ctx.nodes(ast.Call):
            fn = ctx.enclosing_function(call)
            names = {n for n, scope in engines if scope is None or scope is fn} | engine_params(fn)
            if ast.unparse(call.func) not in names or not call.args:
                continue
            arg = call.args[0]
            while isinstance(arg, ast.Call) and _moved_self(arg, ast.unparse(arg.func.value)
                                                            if isinstance(arg.func, ast.Attribute) else ""):
                arg = arg.func.value  # type: ignore[attr-defined]
            if not isinstance(arg, ast.Name) or not _loop_var(ctx, fn, arg.id) or _cast_to_half(fn, ctx, arg.id):
                continue
            if call.lineno in seen:
                continue
            seen.add(call.lineno)
            yield pctx.code_finding(
                self, script, call,
                f"`{ast.unparse(call)}` feeds a float32 batch (`{arg.id}` comes from a loader over float data) to a "
                "DeepSpeed engine whose config enables fp16: DeepSpeed casts the model to half and casts inputs "
                "only with `fp16.auto_cast`, so the first layer fails with \"Input type (torch.cuda.FloatTensor) "
                f"and weight type (torch.cuda.HalfTensor) should be the same\". Cast it (`{arg.id}.half()`) or set "
                "`\"auto_cast\": true` in the fp16 section",
                evidence=[pctx.config_evidence(cfg, (*prefix, "fp16", "enabled"), "fp16 is enabled here"),
                          pctx.code_evidence(script, dataset, "the float dataset")])
