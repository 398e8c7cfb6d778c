"""PF128 head-outside-the-optimizer: a training loop feeds the output of a module the optimizer trains into a
second module with weights of its own (a freshly built head), and the loss goes through it, but no optimizer
of the function receives that second module's parameters: the head gets gradients and is never updated."""

from __future__ import annotations

import ast
from typing import Callable, Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.scopes import scope_index
from preflight.analysis.syntax import own_nodes
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

#: torch.nn layers with randomly initialised weights
_WEIGHTED = frozenset({
    "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "Embedding", "EmbeddingBag", "LSTM", "GRU", "RNN", "MultiheadAttention", "TransformerEncoder",
    "TransformerDecoder", "Transformer", "LazyLinear", "Sequential",
})
#: a class named like one of these has no trainable weights of its own (or is not a module)
_NOT_HEADS = ("Loss", "Criterion", "Metric", "Tokenizer", "Processor", "Scaler", "Sampler", "Loader", "Dataset",
              "Scheduler", "Optimizer", "Accelerator", "Augment", "Transform", "Collator", "Meter", "Logger",
              "Writer", "Timer", "Profiler", "Function", "Pool", "Dropout", "ReLU", "GELU", "Softmax", "Identity",
              "Flatten", "Norm", "EMA", "Ema", "Evaluator", "Strategy",
              # networks that score a trained model's output frozen: perceptual losses, teachers, CLIP scorers
              "Extractor", "Perceptual", "VGG", "Vgg", "LPIPS", "Lpips", "Teacher", "Frozen", "Pretrained",
              "CLIP", "Clip", "Inception")
#: a class named with one of these endings is a loss (``MaskedBCE``, ``LabelSmoothingCE``, ``SoftDice``)
_LOSS_ENDINGS = ("BCE", "MSE", "NLL", "CE", "L1", "L2", "Dice", "Focal", "Triplet", "Contrastive", "KLDiv", "Huber",
                 "Hinge", "Tversky", "InfoNCE", "NTXent")
_OPTIMIZER_NAMES = ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "LBFGS",
                    "SparseAdam", "Lion", "Adafactor", "AdamW8bit", "PagedAdamW", "PagedAdamW8bit", "FusedAdam",
                    "Lamb", "LAMB")
_PARAM_METHODS = ("parameters", "named_parameters")


def _optimizer_call(call: ast.Call, qualify: Callable[[ast.AST], Optional[str]]) -> bool:
    qual = qualify(call.func) or ast.unparse(call.func)
    last = qual.rsplit(".", 1)[-1]
    return last in _OPTIMIZER_NAMES and (qual.startswith(("torch.optim.", "bitsandbytes.", "optim.", "apex."))
                                         or qual == last)


def _params_owners(expr: ast.AST) -> Optional[set[str]]:
    """The names whose ``.parameters()`` an optimizer argument holds: ``m.parameters()``, ``list(a.parameters())
    + list(b.parameters())``, ``itertools.chain(...)``, ``filter(lambda p: ..., m.parameters())``, groups
    ``[{"params": m.parameters()}, ...]``. None when the argument holds anything else (a prepared list)."""
    owners: set[str] = set()
    opaque = False
    for node in ast.walk(expr):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PARAM_METHODS:
            root = node.func.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name):
                owners.add(root.id)
            else:
                opaque = True
    names = {n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    helpers = {"list", "filter", "chain", "itertools", "p", "param", "params", "x", "n", "tuple", "set"}
    if opaque or not owners or (names - owners - helpers):
        return None
    return owners


def _constructed(value: ast.AST) -> Optional[ast.Call]:
    """The constructor call of ``Head(...)``, ``Head(...).to(device)``, ``Head(...).cuda()``."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in ("to", "cuda", "float", "half", "bfloat16", "train", "double"):
        value = value.func.value
    if isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute)):
        return value
    return None


def _head_class(call: ast.Call, qualify: Callable[[ast.AST], Optional[str]]) -> Optional[str]:
    qual = qualify(call.func) or ast.unparse(call.func)
    last = qual.rsplit(".", 1)[-1]
    if not last[:1].isupper() or any(s in last for s in _NOT_HEADS) or last.endswith(_LOSS_ENDINGS):
        return None
    if qual.startswith("torch."):
        return last if qual in (f"torch.nn.{last}", f"torch.nn.modules.{last}") and last in _WEIGHTED else None
    if "." in qual and qual.split(".", 1)[0] in ("transformers", "timm", "torchvision", "peft", "accelerate",
                                                  "lightning", "pytorch_lightning", "sklearn", "numpy", "tqdm"):
        return None
    return last


def _project_class(ctx: FileContext, call: ast.Call) -> Optional[ast.ClassDef]:
    """The head's class, in this file or imported from a project module beside it."""
    if not isinstance(call.func, ast.Name):
        return None
    name = call.func.id
    cls = next((n for n in getattr(ctx.tree, "body", []) if isinstance(n, ast.ClassDef) and n.name == name), None)
    if cls is None:
        from preflight.analysis.project_imports import imported_class

        got = imported_class(ctx, name)
        cls = got[1] if got is not None else None
    return cls


def _no_weights(cls: ast.ClassDef) -> bool:
    """A class read in the project whose ``__init__`` builds nothing that holds weights: no ``nn.Parameter``, no
    layer, no other class, no ``from_pretrained``/``create_model`` (a loss module such as the ``MaskedBCE`` of bugs
    held-out-42's ``h42-pt-masked-bce-after-mean-reduction-ignores-the-mask``, whose ``__init__`` keeps a
    ``BCEWithLogitsLoss``)."""
    init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    if init is None:
        return not any((isinstance(b, ast.Name) and b.id != "Module")
                       or (isinstance(b, ast.Attribute) and b.attr != "Module") for b in cls.bases)
    for node in ast.walk(init):
        if not isinstance(node, ast.Call) or node is init:
            continue
        last = (ast.unparse(node.func).rsplit(".", 1)[-1]) if isinstance(node.func, (ast.Name, ast.Attribute)) else ""
        if last == "__init__" or last == "super":
            continue
        if last in _WEIGHTED or last in ("Parameter", "ParameterList", "ModuleList", "ModuleDict", "from_pretrained",
                                         "create_model", "load_state_dict"):
            return False
        if last[:1].isupper() and not any(s in last for s in _NOT_HEADS) and not last.endswith(_LOSS_ENDINGS):
            return False
    return True


def _freezes_itself(cls: ast.ClassDef) -> bool:
    """The head's class turns its own gradients off or puts itself in eval mode:
    linyihaolyh/SRGAN-with-distributed-training ``utils.py:81-87`` @ c46e70f, ``FeatureExtractor`` (a VGG19
    perceptual loss) sets ``requires_grad = False`` on its parameters."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "requires_grad"
                                                for t in node.targets) \
                and isinstance(node.value, ast.Constant) and node.value.value is False:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and (node.func.attr == "eval" or (node.func.attr == "requires_grad_" and node.args
                                                  and isinstance(node.args[0], ast.Constant)
                                                  and node.args[0].value is False)):
            return True
    return False


def _backward_losses(loop: ast.AST) -> set[str]:
    """Names ``.backward()`` is taken of in the loop: ``loss.backward()``, ``scaler.scale(loss).backward()``,
    ``accelerator.backward(loss)``."""
    out: set[str] = set()
    for node in ast.walk(loop):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward"):
            continue
        for part in [node.func.value, *node.args]:
            out |= {n.id for n in ast.walk(part) if isinstance(n, ast.Name)}
    return out


def _assigned_from(loop: ast.AST) -> dict[str, list[ast.AST]]:
    out: dict[str, list[ast.AST]] = {}
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name):
                        out.setdefault(n.id, []).append(node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            out.setdefault(node.target.id, []).append(node.value)
    return out


def _reaches(name: str, target: set[str], assigned: dict[str, list[ast.AST]]) -> bool:
    """Whether a value of ``name`` flows into one of the names of ``target`` through the loop's assignments."""
    seen, todo = {name}, [name]
    while todo:
        cur = todo.pop()
        if cur in target:
            return True
        for var, values in assigned.items():
            if var not in seen and any(isinstance(n, ast.Name) and n.id == cur for v in values for n in ast.walk(v)):
                seen.add(var)
                todo.append(var)
    return False


def _frozen_or_handed_on(fn: ast.AST, name: str, bound_at: ast.AST) -> bool:
    """The head is frozen (``requires_grad``), put in eval mode, handed to any call (wrapped, registered,
    optimised elsewhere) or stored, other than being called itself or moved."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name \
                and node.attr in ("requires_grad_", "eval", "add_param_group", "register_parameter"):
            return True
        if isinstance(node, ast.Call):
            args = [*node.args, *(k.value for k in node.keywords)]
            if any(isinstance(a, ast.Name) and a.id == name for a in args):
                return True
            if any(isinstance(a, ast.Starred) for a in node.args):
                continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node is not bound_at and node.value is not None:
            value = node.value
            if isinstance(value, ast.Name) and value.id == name:
                return True  # aliased or stored: followed nowhere
            if isinstance(value, (ast.List, ast.Tuple, ast.Dict, ast.Set)) \
                    and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(value)):
                return True
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Call) \
                and isinstance(node.iter.func, ast.Attribute) and node.iter.func.attr in _PARAM_METHODS \
                and any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.iter)):
            return True  # ``for p in head.parameters(): p.requires_grad = False``
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                "no_grad" in ast.unparse(item.context_expr) or "inference_mode" in ast.unparse(item.context_expr)
                for item in node.items) and any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                                               and n.func.id == name for n in ast.walk(node)):
            return True
    return False


def _functions(tree: ast.AST) -> Iterable[ast.AST]:
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


@register
class HeadOutsideTheOptimizer(Rule):
    code = "PF128"
    name = "head-outside-the-optimizer"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("A second module with weights (a task head) takes the trained model's output and the loss goes "
               "through it, but no optimizer receives its parameters: it gets gradients and is never updated")
    needs_text = ("backward",)
    explanation = """
## What it finds

In one function (or the module's top level) with a training loop that takes `.backward()` of a
loss:

* every optimizer built there is given the `.parameters()` of named modules only (`model.parameters()`,
  `list(a.parameters()) + list(b.parameters())`, parameter groups of them);
* a module bound there to a freshly built object with weights (`head = ClfHead(...)`, `nn.Linear(...)`,
  optionally `.to(device)`) is called in the loop on the output of a module an optimizer receives,
  and its result flows into the loss that `.backward()` is taken of;
* none of those optimizers receives that module's parameters.

## Why it matters

The head gets gradients on every step, but `optimizer.step()` only updates the parameters it was
given: the freshly initialised head keeps its random weights for the whole run, and the backbone
is fine-tuned to fit a random projection. Nothing fails and the loss still falls a little
(huggingface/pytorch-openai-transformer-lm pull request 6, "fix the scope of optimizer": the
ROCStories multiple-choice head was never optimised; discuss.pytorch.org threads on a classifier
"not learning" because its layer was created outside the model).

## How to fix it

Give the optimizer both modules: `torch.optim.AdamW(list(model.parameters()) +
list(head.parameters()), ...)`, or make the head a submodule of the model.

## When preflight stays silent

* The head is given to any call other than its own call and moves (a wrapper, `add_module`,
  another optimizer, `nn.Sequential(model, head)`), stored in a container or on an object,
  frozen (`requires_grad_`, `for p in head.parameters(): p.requires_grad = False`), put in
  `eval()`, or called under `torch.no_grad()`.
* An optimizer is given anything but named modules' `.parameters()` (a prepared list, a
  comprehension over `named_parameters()` of something else): what it holds is not known.
* The head's class (in the file, or imported from a project module) freezes itself
  (`requires_grad = False`, `requires_grad_(False)`, `.eval()`): a VGG perceptual loss; or its
  `__init__` builds nothing that holds weights (no layer, `nn.Parameter`, other class or
  `from_pretrained`): a project loss module such as a masked BCE.
* Classes without trainable weights by name (`*Loss`, `*BCE`, `*CE`, `*Dice`, `*Norm`, `Dropout`, metrics, tokenizers,
  feature extractors, perceptual/VGG/LPIPS/CLIP scorers, teachers) and library models
  (`transformers`, `timm`, `torchvision`).
* The module's input is not the output of a trained module (a frozen feature extractor feeding the
  model, a tokenizer).
"""
    bad_examples = examples("preflight.rules.code._pf128_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf128_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        qualify = scope_index(ctx).imports.qualify
        for fn in _functions(ctx.tree):
            yield from self._check_function(ctx, fn, qualify)

    def _check_function(self, ctx: FileContext, fn: ast.AST,
                        qualify: Callable[[ast.AST], Optional[str]]) -> Iterable[Finding]:
        body = list(own_nodes(fn))
        optimizers = [n for n in body if isinstance(n, ast.Call) and _optimizer_call(n, qualify)]
        if not optimizers:
            return
        trained: set[str] = set()
        for call in optimizers:
            given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "params"), None)
            owners = _params_owners(given) if given is not None else None
            if owners is None:
                return
            trained |= owners
        loops = [n for n in body if isinstance(n, (ast.For, ast.While)) and _backward_losses(n)]
        if not loops:
            return
        bound: dict[str, tuple[ast.Assign, str]] = {}
        counts: dict[str, int] = {}
        for node in body:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            counts[n.id] = counts.get(n.id, 0) + 1
                if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    ctor = _constructed(node.value)
                    cls = _head_class(ctor, qualify) if ctor is not None else None
                    if cls is not None:
                        bound[node.targets[0].id] = (node, cls)
        loop = max(loops, key=lambda n: len(list(ast.walk(n))))
        losses = _backward_losses(loop)
        assigned = _assigned_from(loop)
        outputs = {var for var, values in assigned.items() for v in values
                   if any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in trained
                          for c in ast.walk(v))}
        for name, (stmt, cls) in sorted(bound.items(), key=lambda kv: kv[1][0].lineno):
            if name in trained or counts.get(name, 0) != 1 or name in losses:
                continue
            calls = [c for c in ast.walk(loop) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                     and c.func.id == name]
            fed = [c for c in calls if any(isinstance(n, ast.Name) and n.id in outputs
                                           for a in [*c.args, *(k.value for k in c.keywords)] for n in ast.walk(a))]
            if not fed or _frozen_or_handed_on(fn, name, stmt):
                continue
            built = _constructed(stmt.value)
            cls_def = _project_class(ctx, built) if built is not None else None
            if cls_def is not None and (_freezes_itself(cls_def) or _no_weights(cls_def)):
                continue
            results = [var for var, values in assigned.items() for v in values for c in fed
                       if any(n is c for n in ast.walk(v))]
            if not any(_reaches(r, losses, assigned) for r in results):
                continue
            shown = ", ".join(sorted(trained))
            yield ctx.finding(
                self, stmt,
                f"`{name}` ({cls}, built here) takes the output of {shown} in the training loop (line "
                f"{fed[0].lineno}) and the loss goes through it, but the optimizer is given only "
                f"{shown}'s parameters: `{name}` gets gradients and is never updated, so it keeps its random "
                f"initialisation for the whole run; pass `list({shown.split(', ')[0]}.parameters()) + "
                f"list({name}.parameters())` or make it a submodule")
