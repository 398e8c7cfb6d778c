"""PF696 softmax-over-the-batch-dimension: a module's ``forward`` flattens its activations to
``(batch, features)`` and then takes ``softmax`` / ``log_softmax`` over ``dim=0``, the batch."""

from __future__ import annotations

import ast
from typing import Iterable, Iterator, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

_SOFTMAX = {"softmax", "log_softmax"}
_SOFTMAX_LAYERS = {"Softmax", "LogSoftmax"}
# calls that keep dim 0 the batch when applied to x (first positional argument)
# nn layers that keep a (batch, features) tensor (batch, features') between an nn.Flatten and the softmax
_SEQ_KEEP = {"Linear", "ReLU", "LeakyReLU", "GELU", "Tanh", "Sigmoid", "ELU", "SELU", "SiLU", "Mish", "ReLU6",
             "Dropout", "AlphaDropout", "BatchNorm1d", "LayerNorm", "Identity", "PReLU", "Softplus", "Hardtanh"}
_ELEMENTWISE = {"relu", "relu_", "dropout", "gelu", "tanh", "sigmoid", "leaky_relu", "elu", "selu", "silu",
                "mish", "hardtanh", "relu6", "softplus", "alpha_dropout", "batch_norm", "layer_norm"}


def _is_zero(node: Optional[ast.AST]) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def _is_minus_one(node: ast.AST) -> bool:
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
        and node.operand.value == 1


def _dim_arg(call: ast.Call, pos: int) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == "dim":
            return kw.value
    return call.args[pos] if len(call.args) > pos else None


def _softmax_layers(cls: ast.ClassDef) -> set[str]:
    """``self.<name>`` attributes ``__init__`` binds to ``nn.Softmax(dim=0)`` / ``nn.LogSoftmax(dim=0)``."""
    return _init_layers(cls, _SOFTMAX_LAYERS, zero_dim=True)


def _last(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _softmax_subject(call: ast.Call, layers: set[str]) -> Optional[ast.expr]:
    """The tensor a softmax over dim 0 normalises, else None."""
    func = call.func
    name = _last(func)
    if name in _SOFTMAX and isinstance(func, ast.Attribute):
        owner = func.value
        if isinstance(owner, ast.Name) and owner.id in ("F", "torch", "functional", "nn") and call.args:
            return call.args[0] if _is_zero(_dim_arg(call, 1)) else None
        if isinstance(owner, ast.Attribute) and owner.attr == "functional" and call.args:
            return call.args[0] if _is_zero(_dim_arg(call, 1)) else None
        if not (isinstance(owner, ast.Name) and owner.id == "self"):
            return owner if _is_zero(_dim_arg(call, 0)) else None  # x.softmax(0)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
            and func.attr in layers and len(call.args) == 1:
        return call.args[0]
    if isinstance(func, ast.Call) and _last(func.func) in _SOFTMAX_LAYERS and _is_zero(_dim_arg(func, 0)) \
            and len(call.args) == 1:
        return call.args[0]  # nn.LogSoftmax(dim=0)(x)
    return None


def _int_dim(node: Optional[ast.AST]) -> Optional[int]:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and isinstance(node.operand.value, int) and not isinstance(node.operand.value, bool):
        return -node.operand.value
    return None


def _softmax_any_dim(call: ast.Call) -> Optional[tuple[ast.expr, int]]:
    """(tensor, dim) for ``F.softmax(t, dim=d)`` / ``torch.log_softmax(t, d)`` / ``t.softmax(dim=d)`` with a
    literal ``d`` other than 0."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in _SOFTMAX):
        return None
    owner = func.value
    if (isinstance(owner, ast.Name) and owner.id in ("F", "f", "torch", "functional")) or (
            isinstance(owner, ast.Attribute) and owner.attr == "functional"):
        subject: Optional[ast.expr] = call.args[0] if call.args else None
        dim = _int_dim(_dim_arg(call, 1))
    elif isinstance(owner, ast.Name) and owner.id != "self":
        subject, dim = owner, _int_dim(_dim_arg(call, 0))
    else:
        return None
    if subject is None or dim is None or dim == 0:
        return None
    return subject, dim


_BATCH_NAMES = ("bs", "b", "batch", "batch_size", "bsz", "n_batch", "nbatch")


def _batch_axis_view(value: ast.expr, dim: int) -> Optional[str]:
    """The batch-size expression at position ``dim`` of ``<t>.view(...)`` / ``.reshape(...)`` (``bs``,
    ``batch_size``, ...), else None."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr in ("view", "reshape") and len(value.args) >= 2 and not value.keywords):
        return None
    if any(isinstance(a, ast.Starred) for a in value.args) or not -len(value.args) <= dim < len(value.args):
        return None
    at = value.args[dim]
    text = ast.unparse(at)
    if isinstance(at, ast.Name) and (text.lower() in _BATCH_NAMES or "batch" in text.lower()):
        return text
    return None


def _flowing_name(expr: ast.expr) -> Optional[str]:
    """``x`` for ``x`` or for ``self.fc(x)`` (a layer applied to ``x``)."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and isinstance(expr.args[0], ast.Name) \
            and isinstance(expr.func, ast.Attribute) and isinstance(expr.func.value, ast.Name) \
            and expr.func.value.id == "self":
        return expr.args[0].id
    return None


def _flattens_keeping_batch(value: ast.expr, name: str) -> bool:
    """``name.view(-1, K)`` / ``.reshape(-1, K)`` / ``.view(name.size(0), -1)`` / ``.view(batch_size, -1)`` /
    ``torch.flatten(name, 1)`` / ``name.flatten(1)``: a 2-D ``(batch, features)`` result."""
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute):
        return False
    attr, owner = value.func.attr, value.func.value
    if attr in ("view", "reshape") and isinstance(owner, ast.Name) and owner.id == name and len(value.args) == 2 \
            and not value.keywords:
        first, second = value.args
        if _is_minus_one(first):
            return not _is_minus_one(second)
        if _is_minus_one(second):
            text = ast.unparse(first)
            return text in (f"{name}.size(0)", f"{name}.shape[0]") or "batch" in text.lower() \
                or text in ("b", "B", "bs", "n", "N")
        return False
    if attr == "flatten":
        if isinstance(owner, ast.Name) and owner.id == name:
            start = value.args[0] if value.args else next(
                (k.value for k in value.keywords if k.arg == "start_dim"), None)
            return isinstance(start, ast.Constant) and start.value == 1
        if isinstance(owner, ast.Name) and owner.id == "torch" and value.args \
                and isinstance(value.args[0], ast.Name) and value.args[0].id == name:
            start = value.args[1] if len(value.args) > 1 else next(
                (k.value for k in value.keywords if k.arg == "start_dim"), None)
            return isinstance(start, ast.Constant) and start.value == 1
    return False


def _ends_flattened(value: ast.expr, name: str, bn1d: frozenset[str] = frozenset()) -> bool:
    """A flatten keeping the batch, possibly wrapped in layers / elementwise functions:
    ``F.relu(self.fc1(x.view(x.size(0), -1)))``; or a chain through one of the module's ``nn.BatchNorm1d``
    layers (``F.relu(self.bn1(self.fc1(x)))``), which only takes ``(batch, features[, length])``."""
    if _flattens_keeping_batch(value, name):
        return True
    if isinstance(value, ast.Call) and value.args and _batch_preserving_func(value.func):
        func = value.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
                and func.attr in bn1d and _applies_to(value.args[0], name):
            return True
        return _ends_flattened(value.args[0], name, bn1d)
    return False


def _applies_to(value: ast.expr, name: str) -> bool:
    """``value`` is ``name`` or a batch-keeping chain of calls ending at ``name``."""
    if isinstance(value, ast.Name):
        return value.id == name
    return isinstance(value, ast.Call) and bool(value.args) and _batch_preserving_func(value.func) \
        and _applies_to(value.args[0], name)


def _init_layers(cls: ast.ClassDef, kinds: set[str], zero_dim: bool = False) -> set[str]:
    """``self.<name>`` attributes ``__init__`` binds to one of the ``nn`` layers ``kinds``."""
    names: set[str] = set()
    for fn in cls.body:
        if not (isinstance(fn, ast.FunctionDef) and fn.name == "__init__"):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Attribute) \
                    and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "self" \
                    and isinstance(node.value, ast.Call) and _last(node.value.func) in kinds \
                    and (not zero_dim or _is_zero(_dim_arg(node.value, 0))):
                names.add(node.targets[0].attr)
    return names


def _batch_preserving_func(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return True  # self.fc2(x), self.dropout(x)
    return _last(func) in _ELEMENTWISE


def _keeps_batch(value: ast.expr, name: str) -> bool:
    """A reassignment of ``name`` after the flatten that keeps dim 0 the batch: a layer of the module or an
    elementwise function applied to ``name``."""
    if not isinstance(value, ast.Call) or not value.args:
        return False
    inner = value.args[0]
    if not (isinstance(inner, ast.Name) and inner.id == name) and not (
            isinstance(inner, ast.Call) and _keeps_batch(inner, name)):
        return False
    return _batch_preserving_func(value.func)


def _assigns(stmt: ast.stmt, name: str) -> Optional[ast.expr]:
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
            and stmt.targets[0].id == name:
        return stmt.value
    return None


def _touches(stmt: ast.stmt, name: str) -> bool:
    """``stmt`` rebinds ``name`` some other way (augmented, tuple target, in a nested block)."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
    return False


def _shape_guard(forward: ast.FunctionDef) -> bool:
    """``forward`` branches on the input's rank (``if x.dim() == 1``, ``len(x.shape)``, ``x.ndim``)."""
    for node in ast.walk(forward):
        if isinstance(node, (ast.If, ast.IfExp)):
            text = ast.unparse(node.test)
            if any(k in text for k in (".dim()", ".ndim", "len(", ".shape", ".size(")):
                return True
    return False


@register
class SoftmaxOverTheBatchDimension(Rule):
    code = "PF696"
    name = "softmax-over-the-batch-dimension"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    needs_text = ("softmax", "Softmax")
    summary = ("`forward` flattens its activations to (batch, features) and then applies `softmax` / "
               "`log_softmax` over `dim=0`, the batch: each score is normalised across the samples, not the classes")
    explanation = """
## What it finds

In the `forward` of an `nn.Module` subclass, a `softmax` / `log_softmax` over `dim=0`
(`F.log_softmax(x, dim=0)`, `torch.softmax(x, 0)`, `x.softmax(dim=0)`,
`nn.LogSoftmax(dim=0)` built in `__init__` and called on `x`) of a tensor that the same
`forward` reshaped to `(batch, features)` earlier in its body (`x.view(-1, 320)`,
`x.view(x.size(0), -1)`, `torch.flatten(x, 1)`, `x.flatten(1)`) or passed through one of the
module's `nn.BatchNorm1d` layers (which only takes `(batch, features[, length])`), with only
layers of the module and elementwise functions (`F.relu`, `F.dropout`, ...) applied to it in
between. Also a softmax over another literal axis that the same `forward` just made the batch
axis with a `view`/`reshape` naming the batch size there (`pi = pi.view(seq_len, bs, k)` then
`log_softmax(pi, dim=-2)`, ctallec/world-models issue 10). Also an `nn.Sequential` whose `nn.LogSoftmax(dim=0)` / `nn.Softmax(dim=0)` follows an
`nn.Flatten()` with only `Linear` / activation / dropout / `BatchNorm1d` / `LayerNorm` layers
between them.

## Why it matters

After the flatten, dim 0 is the batch. A softmax over it normalises every class score
across the samples of the batch instead of across the classes: the "probabilities" of one
sample depend on the other samples in its batch, `F.nll_loss` on the `log_softmax` output
trains the wrong objective (the loss rewards a class for being more likely in this sample
than in the others), and predictions change with the batch size and composition. Nothing
fails; the accuracy is just poor. Public reports: fxia22/pointnet.pytorch issue 27
(`return F.log_softmax(x, dim=0), trans` over the batch, fixed upstream),
swarmapytorch/book_DeepLearning_in_PyTorch_Source issue 8 (a MNIST convnet with
`F.log_softmax(x, dim = 0)`), perone/euclidesdb issue 2 (example models softmaxing with
`dim=0`), MicrosoftDocs/pytorchfundamentals issue 4 and pull request 21 (`LogSoftmax(dim=0)`
in a dense network).

## How to fix it

Normalise over the class dimension: `F.log_softmax(x, dim=1)` (or `dim=-1`).

## When preflight stays silent

* No flatten to `(batch, features)` precedes the softmax in `forward` (a policy network that
  takes one unbatched state, `F.softmax(self.fc(x), dim=0)`, is correct).
* `forward` branches on the input's rank (`if x.dim() == 1:`), or reduces, indexes or
  reshapes the tensor again after the flatten (`torch.sum(x, dim=0)`, `x.view(T, B)`).
* The softmax is over another tensor (mixture weights `F.softmax(self.weights, dim=0)`), or
  the flatten and the softmax are not both at the top level of `forward`.
"""
    bad_examples = examples("preflight.rules.code._pf696_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf696_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for seq in ctx.nodes(ast.Call):
            if _last(seq.func) == "Sequential":
                yield from self._check_sequential(ctx, seq)
        for cls in ctx.nodes(ast.ClassDef):
            if not cls.bases:
                continue
            forward = next((f for f in cls.body if isinstance(f, ast.FunctionDef) and f.name == "forward"), None)
            if forward is None or _shape_guard(forward):
                continue
            yield from self._check_forward(ctx, forward, _softmax_layers(cls),
                                           frozenset(_init_layers(cls, {"BatchNorm1d"})))

    def _check_forward(self, ctx: FileContext, forward: ast.FunctionDef, layers: set[str],
                       bn1d: frozenset[str]) -> Iterator[Finding]:
        body = forward.body
        for i, stmt in enumerate(body):
            for call in (n for n in ast.walk(stmt) if isinstance(n, ast.Call)):
                subject = _softmax_subject(call, layers)
                if subject is None:
                    other = _softmax_any_dim(call)
                    if other is not None and isinstance(other[0], ast.Name):
                        found = self._batch_view_before(body[:i], other[0].id, other[1])
                        if found is not None:
                            view, axis = found
                            yield ctx.finding(
                                self, call,
                                f"`{ast.unparse(call)}` normalises over dim {other[1]}, which "
                                f"`{ast.unparse(view.value)}` at line {view.lineno} made the batch axis (`{axis}`): "
                                "every score is normalised across the samples of the batch instead of across its "
                                "own axis (the classes, the mixture components), so the loss trains the wrong "
                                "objective; normalise over the intended axis (usually `dim=-1`)",
                                evidence=[ctx.evidence(view, "the batch axis is placed here")])
                            return
                    continue
                name = _flowing_name(subject)
                if name is None:
                    continue
                flatten = self._flatten_before(body[:i], name, bn1d)
                if flatten is None:
                    continue
                yield ctx.finding(
                    self, call,
                    f"`{ast.unparse(call)}` normalises over dim 0, but `{name}` is (batch, features) here: "
                    f"`{ast.unparse(flatten.value)}` at line {flatten.lineno} leaves dim 0 the batch. Every class "
                    "score is normalised across the samples of the batch instead of across the classes, so the "
                    "loss trains the wrong objective and predictions depend on the other samples in the batch; "
                    "use `dim=1` (or `dim=-1`)",
                    evidence=[ctx.evidence(flatten, "(batch, features) from here")])
                return

    def _check_sequential(self, ctx: FileContext, seq: ast.Call) -> Iterator[Finding]:
        """``nn.Sequential(nn.Flatten(), nn.Linear(...), ..., nn.LogSoftmax(dim=0))``."""
        flatten: Optional[ast.Call] = None
        for item in seq.args:
            if not isinstance(item, ast.Call):
                flatten = None
                continue
            kind = _last(item.func)
            if kind == "Flatten":
                start = item.args[0] if item.args else next(
                    (k.value for k in item.keywords if k.arg == "start_dim"), None)
                flatten = item if start is None or (isinstance(start, ast.Constant) and start.value == 1) else None
            elif kind in _SOFTMAX_LAYERS and flatten is not None and _is_zero(_dim_arg(item, 0)):
                yield ctx.finding(
                    self, item,
                    f"`{ast.unparse(item)}` normalises over dim 0, but the `{ast.unparse(flatten)}` before it in "
                    "this `nn.Sequential` leaves dim 0 the batch. Every class score is normalised across the samples "
                    "of the batch instead of across the classes, so the loss trains the wrong objective and "
                    "predictions depend on the other samples in the batch; use `dim=1` (or `dim=-1`)",
                    evidence=[ctx.evidence(flatten, "(batch, features) from here")])
                return
            elif kind not in _SEQ_KEEP:
                flatten = None

    @staticmethod
    def _batch_view_before(stmts: list[ast.stmt], name: str, dim: int) -> Optional[tuple[ast.Assign, str]]:
        """The last top-level ``name = <t>.view(..., bs, ...)`` before the softmax whose position ``dim`` is the
        batch size, provided every later rebinding of ``name`` is elementwise."""
        for j in range(len(stmts) - 1, -1, -1):
            stmt = stmts[j]
            value = _assigns(stmt, name)
            if value is not None:
                axis = _batch_axis_view(value, dim)
                if axis is not None:
                    assert isinstance(stmt, ast.Assign)
                    return stmt, axis
                if isinstance(value, ast.Call) and value.args and _last(value.func) in _ELEMENTWISE \
                        and isinstance(value.args[0], ast.Name) and value.args[0].id == name:
                    continue
                return None
            if _touches(stmt, name):
                return None
        return None

    @staticmethod
    def _flatten_before(stmts: list[ast.stmt], name: str, bn1d: frozenset[str]) -> Optional[ast.Assign]:
        """The last top-level ``name = <flatten keeping the batch>`` before the softmax, provided every later
        rebinding of ``name`` keeps dim 0 the batch."""
        for j in range(len(stmts) - 1, -1, -1):
            stmt = stmts[j]
            value = _assigns(stmt, name)
            if value is not None:
                if _ends_flattened(value, name, bn1d):
                    assert isinstance(stmt, ast.Assign)
                    return stmt
                if _keeps_batch(value, name):
                    continue
                return None
            if _touches(stmt, name):
                return None
        return None
