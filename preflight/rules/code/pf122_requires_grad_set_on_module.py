"""PF122 requires-grad-set-on-module: ``module.requires_grad = False`` sets a plain Python attribute on
an ``nn.Module``; none of its parameters is frozen."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf414_support import call_last
from preflight.rules.base import Rule, examples

# attribute names that are (almost always) submodules of a network
_MODULE_ATTR = re.compile(
    r"^(model|module|net|network|backbone|encoder|decoder|bert|roberta|deberta|electra|albert|distilbert|gpt2?"
    r"|transformer|vit|clip|vision_model|text_model|visual|vision_tower|text_encoder|image_encoder|unet|vae"
    r"|embeddings|layers?|blocks?|stages?|head|heads|lm_head|classifier|cls_head|fc\d*|linear\d*|conv\w*|outc|inc"
    r"|features|pooler|neck|stem|mlp|attn|attention|resnet|lstm|rnn|gru|feature_extractor|base_model|bottleneck"
    r"|down\w*|up\w*|projector|adapter)$",
    re.IGNORECASE)
# attribute names that are usually tensors or parameters
_PARAM_ATTR = re.compile(r"(weight|bias|token|pos_emb|pos_embed|scale|temperature|alpha|beta|gamma|prompt|logit"
                         r"|param|data|grad|tensor|mask|query_embed|latent)", re.IGNORECASE)
# calls that build tensors, not modules (torch.zeros, nn.Parameter, jt.linspace, np.ones, ...)
_TENSOR_CALLS = frozenset({"Parameter", "tensor", "as_tensor", "from_numpy", "zeros", "ones", "empty", "full", "rand",
                           "randn", "randint", "arange", "linspace", "logspace", "eye", "zeros_like", "ones_like",
                           "empty_like", "full_like", "randn_like", "rand_like", "stack", "cat", "clone", "detach"})
# torch and the libraries built on it; a file that also imports another framework is left alone
_TORCH_ROOTS = frozenset({"torch", "torchvision", "transformers", "timm", "pytorch_lightning", "lightning", "diffusers",
                          "peft", "accelerate", "open_clip"})
_OTHER_ROOTS = frozenset({"jittor", "paddle", "mindspore", "tensorflow", "keras", "mlx", "oneflow", "megengine",
                          "flax", "jax", "tinygrad"})
_MODULE_ITERS = frozenset({"children", "modules", "named_children", "named_modules"})
_PARAM_ITERS = frozenset({"parameters", "named_parameters", "buffers", "named_buffers", "values", "items"})


def _torch_file(ctx: FileContext) -> bool:
    roots: set[str] = set()
    for node in ctx.nodes(ast.Import, ast.ImportFrom):
        if isinstance(node, ast.Import):
            roots.update(a.name.split(".")[0] for a in node.names)
        elif node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return bool(roots & _TORCH_ROOTS) and not roots & _OTHER_ROOTS


def _tensor_value(value: ast.AST) -> bool:
    """``nn.Parameter(...)``, ``torch.zeros(...)``, ``x.clone()`` (through ``.to``/``.cuda``), arithmetic."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in ("to", "cuda", "cpu", "half", "float", "requires_grad_"):
        value = value.func.value
    if isinstance(value, ast.BinOp):
        return True
    return isinstance(value, ast.Call) and call_last(value) in _TENSOR_CALLS


def _module_ctor(ctx: FileContext, value: ast.AST, module_classes: set[str]) -> bool:
    """``nn.Linear(...)``, ``X.from_pretrained(...)``, an in-file ``nn.Module`` subclass (through a
    trailing ``.to(...)``/``.cuda()``)."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr in ("to", "cuda", "cpu", "train", "eval", "half", "float"):
        value = value.func.value
    if not isinstance(value, ast.Call):
        return False
    text = ast.unparse(value.func)
    if call_last(value) == "from_pretrained" and "Tokenizer" not in text and "Config" not in text:
        return True
    if text.startswith(("nn.", "torch.nn.")) and text.rsplit(".", 1)[-1][:1].isupper() \
            and text.rsplit(".", 1)[-1] not in ("Parameter", "ParameterList", "ParameterDict"):
        return True
    return text in module_classes


def _module_classes(ctx: FileContext) -> set[str]:
    out = set()
    for cls in ctx.nodes(ast.ClassDef):
        if any(ast.unparse(b).rsplit(".", 1)[-1] in ("Module", "LightningModule", "PreTrainedModel")
               for b in cls.bases):
            out.add(cls.name)
    return out


def _bindings(ctx: FileContext) -> dict[str, list[ast.AST]]:
    """Every value bound to a name or ``self.x`` text in the file."""
    out: dict[str, list[ast.AST]] = {}
    for node in ctx.nodes(ast.Assign):
        for tgt in node.targets:
            if isinstance(tgt, (ast.Name, ast.Attribute)):
                out.setdefault(ast.unparse(tgt), []).append(node.value)
    return out


def _loop_iter(ctx: FileContext, name: str, node: ast.AST) -> Optional[ast.AST]:
    """The iterable of the ``for`` loop (or comprehension) around ``node`` that binds ``name``."""
    for anc in ctx.ancestors(node):
        if isinstance(anc, (ast.For, ast.AsyncFor)):
            targets = [t.id for t in ast.walk(anc.target) if isinstance(t, ast.Name)]
            if name in targets:
                return anc.iter
    return None


def _is_module(ctx: FileContext, expr: ast.AST, bindings: dict[str, list[ast.AST]], classes: set[str],
               tensor_attrs: set[str], node: ast.AST) -> Optional[str]:
    """Why ``expr`` is an ``nn.Module`` (a short reason), or None when it may be a tensor."""
    text = ast.unparse(expr)
    values = bindings.get(text, [])
    if any(_tensor_value(v) for v in values):
        return None
    if values and all(_module_ctor(ctx, v, classes) for v in values):
        return "it is bound to a module"
    if isinstance(expr, ast.Name):
        it = _loop_iter(ctx, expr.id, node)
        while isinstance(it, ast.Subscript) or (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
                                                and it.func.id in ("list", "enumerate", "reversed") and it.args):
            it = it.value if isinstance(it, ast.Subscript) else it.args[0]
        if it is not None:
            if isinstance(it, ast.Call) and call_last(it) in _PARAM_ITERS:
                return None
            if isinstance(it, ast.Call) and call_last(it) in _MODULE_ITERS:
                return f"it iterates `{ast.unparse(it)}`"
            if isinstance(it, ast.Attribute) and it.attr.lower() in (
                    "layers", "layer", "blocks", "block", "stages", "heads", "h"):
                return f"it iterates the submodules `{ast.unparse(it)}`"
        return None
    base = expr.value if isinstance(expr, ast.Subscript) else expr
    if isinstance(base, ast.Attribute):
        if base.attr in tensor_attrs or _PARAM_ATTR.search(base.attr) or not _MODULE_ATTR.match(base.attr):
            return None
        if isinstance(expr, ast.Subscript) and base.attr.lower() not in (
                "layers", "layer", "blocks", "block", "stages", "heads", "features"):
            return None
        return f"`{base.attr}` names a submodule"
    return None


@register
class RequiresGradSetOnModule(Rule):
    code = "PF122"
    name = "requires-grad-set-on-module"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("requires_grad",)
    summary = "`module.requires_grad = False` sets a plain attribute on an nn.Module: no parameter is frozen"
    explanation = """
## What it finds

An assignment `X.requires_grad = False` (or `True`) where `X` is an `nn.Module`, not a tensor:
a name bound to a module (`nn.Linear(...)`, `X.from_pretrained(...)`, a module class of the
file), a loop variable over `.children()`/`.modules()` or over a `layers`/`blocks` list, or an
attribute that names a submodule (`model.encoder`, `self.model.outc`, `model.bert`,
`model.layers[i]`).

## Why it matters

`requires_grad` is an attribute of tensors. `nn.Module` has no such property (PyTorch 2.x
`torch/nn/modules/module.py` defines the method `requires_grad_()` only), so the assignment
goes through `Module.__setattr__` and stores a new Python attribute on the module object.
Every parameter keeps `requires_grad=True`, an optimizer over `model.parameters()` keeps
updating the layer meant to be frozen, and nothing warns
(CSCYQJ/MICCAI23-ProtoContra-SFDA#18: "this does not freeze the last layer").

## How to fix it

`X.requires_grad_(False)`, or `for p in X.parameters(): p.requires_grad = False`.

## When preflight stays silent

* The receiver is a parameter or tensor: a loop variable over `.parameters()`/
  `.named_parameters()`, an attribute named like a parameter (`weight`, `bias`, `cls_token`,
  `pos_embed`, `logit_scale`, ...), a name or attribute the file binds to `nn.Parameter(...)` or
  a tensor (`self.proj = torch.linspace(...)`). `proj` is not taken for a submodule: CLIP's
  `visual.proj` is a parameter.
* The file does not import torch or a library built on it, or also imports another framework
  (Jittor, Paddle, MindSpore, JAX, ...), whose modules may take the attribute.
* A function or property named `requires_grad` is defined in the file (a class of its own that
  forwards the flag).
* The receiver cannot be told to be a module (an unknown name, an attribute not named like a
  submodule).
* The same module is also frozen with `requires_grad_(...)`.
"""
    bad_examples = examples("preflight.rules.code._pf122_examples", "PF122_BAD")
    good_examples = examples("preflight.rules.code._pf122_examples", "PF122_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        assigns = [n for n in ctx.nodes(ast.Assign)
                   if any(isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in n.targets)]
        if not assigns:
            return
        if not _torch_file(ctx) or any(f.name == "requires_grad" for f in ctx.nodes(ast.FunctionDef)):
            return  # another framework's modules, or a class of the file with its own requires_grad property
        bindings = _bindings(ctx)
        classes = _module_classes(ctx)
        # attribute names the file binds to a tensor or parameter (``self.proj = nn.Parameter(...)``)
        tensor_attrs = {text.rsplit(".", 1)[-1] for text, values in bindings.items()
                        if "." in text and any(_tensor_value(v) for v in values)}
        frozen_by_method = {ast.unparse(c.func.value) for c in ctx.nodes(ast.Call)
                            if isinstance(c.func, ast.Attribute) and c.func.attr == "requires_grad_"}
        for node in assigns:
            for tgt in node.targets:
                if not (isinstance(tgt, ast.Attribute) and tgt.attr == "requires_grad"):
                    continue
                if ast.unparse(tgt.value) in frozen_by_method:
                    continue
                why = _is_module(ctx, tgt.value, bindings, classes, tensor_attrs, node)
                if why is None:
                    continue
                text = ast.unparse(tgt.value)
                if isinstance(node.value, ast.Constant) and node.value.value is True:
                    # InternVL's `lm_head.requires_grad = True` after freezing the language model
                    effect, flag = ("its parameters keep the requires_grad they had: frozen ones stay frozen and "
                                    "the optimizer never updates them"), "True"
                else:
                    effect, flag = "its parameters keep requires_grad=True and the optimizer keeps updating them", "False"
                yield ctx.finding(
                    self, node,
                    f"`{text}.requires_grad = ...` sets a plain Python attribute on an nn.Module ({why}): "
                    f"{effect}. Use `{text}.requires_grad_({flag})` or set it on each of `{text}.parameters()`")
