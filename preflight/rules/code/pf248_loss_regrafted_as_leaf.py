"""PF248 loss-regrafted-as-leaf: the loss is rebuilt as a fresh tensor that requires grad
(``torch.tensor(loss.item(), requires_grad=True)``, ``Variable(loss, requires_grad=True)``) or gets
``loss.requires_grad = True``, and then back-propagated: the backward reaches no parameter, nothing trains."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.analysis.syntax import own_nodes
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# constructors that copy their data into a new leaf tensor (no autograd history)
_LEAF_MAKERS = frozenset({"torch.tensor", "torch.Tensor", "torch.FloatTensor", "torch.as_tensor", "torch.from_numpy",
                          "torch.autograd.Variable", "Variable", "tensor", "FloatTensor"})
# methods that keep a tensor's (lack of) history: peeled off to find the root of a chain
_PASS_THROUGH = frozenset({"mean", "sum", "to", "cuda", "float", "double", "half", "squeeze", "unsqueeze", "view",
                           "reshape", "requires_grad_", "type", "contiguous", "clone"})
# callers that back-propagate the tensor given as first argument
_BACKWARD_FUNCS = frozenset({"backward", "manual_backward"})
_LOSS_HOOKS = frozenset({"training_step", "compute_loss"})


def _dotted(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every expression node
        return ""


def _literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_literal(elt) for elt in node.elts)
    if isinstance(node, ast.UnaryOp):
        return _literal(node.operand)
    return False


def _regrafted(value: ast.AST) -> Optional[ast.Call]:
    """The leaf-making call at the root of ``value`` when the chain makes it require grad and copies a
    computed (non-literal) value: ``torch.tensor(loss.item(), requires_grad=True)``,
    ``Variable(loss, requires_grad=True).cuda()``, ``torch.from_numpy(arr).requires_grad_()``."""
    forced = False
    node = value
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PASS_THROUGH:
        if node.func.attr == "requires_grad_" and (not node.args or _dotted(node.args[0]) == "True"):
            forced = True
        node = node.func.value
    if (forced and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "detach" and not node.args):
        return node  # `loss.detach().requires_grad_()`: cut from the graph, then made a leaf
    if not (isinstance(node, ast.Call) and _dotted(node.func) in _LEAF_MAKERS and node.args):
        return None
    for kw in node.keywords:
        if kw.arg == "requires_grad" and _dotted(kw.value) == "True":
            forced = True
    if not forced or _literal(node.args[0]):
        return None
    return node


def _backward_targets(call: ast.Call) -> set[str]:
    """The names a call may back-propagate: ``X.backward()``, ``X.mean().backward()``,
    ``scaler.scale(X).backward()``, ``accelerator.backward(X)``, ``self.manual_backward(X)``."""
    if not isinstance(call.func, ast.Attribute) or call.func.attr not in _BACKWARD_FUNCS:
        return set()
    out: set[str] = set()
    if call.args and _ref(call.args[0]) is not None:
        out.add(str(_ref(call.args[0])))
    node = call.func.value
    while True:
        if _ref(node) is not None:
            out.add(str(_ref(node)))
            break
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PASS_THROUGH:
            node = node.func.value
            continue
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "scale"
                and node.args and _ref(node.args[0]) is not None):
            out.add(str(_ref(node.args[0])))
        break
    return out


def _ref(node: ast.AST) -> Optional[str]:
    """``loss`` or ``self.d_loss``: a name, or one attribute of a name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


_DUMMY_FACTORIES = frozenset({"randn", "rand", "zeros", "ones", "full", "empty", "randn_like", "rand_like",
                              "zeros_like", "ones_like"})


def _dummy(value: ast.AST) -> bool:
    """A placeholder tensor from a factory (``torch.randn(1)``): a test's stand-in loss, not a training loss."""
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr in _DUMMY_FACTORIES and _dotted(value.func.value) == "torch")


def _returned(value: ast.expr) -> list[ast.expr]:
    """The loss a hook returns: ``loss``, ``{"loss": loss}``, ``(loss, outputs) if return_outputs else loss``."""
    if isinstance(value, ast.IfExp):
        return _returned(value.body) + _returned(value.orelse)
    if isinstance(value, ast.Tuple) and value.elts:
        return _returned(value.elts[0])
    if isinstance(value, ast.Dict):
        return [v for k, v in zip(value.keys, value.values) if isinstance(k, ast.Constant) and k.value == "loss"]
    return [value]


def _pos(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


@register
class LossRegraftedAsLeaf(Rule):
    code = "PF248"
    name = "loss-regrafted-as-leaf"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    needs_text = ("requires_grad",)
    summary = ("the loss is rebuilt as a new tensor that requires grad (or gets `requires_grad = True`) before "
               "`backward()`: the gradient reaches no parameter and the model never trains")
    explanation = """
## What it finds

A loss that is made to require gradients by hand right before it is back-propagated:

* `loss = torch.tensor(loss.item(), requires_grad=True)` (or `torch.tensor(values, ...)`,
  `Variable(loss, requires_grad=True)`, `torch.from_numpy(arr).requires_grad_()`,
  `loss.detach().requires_grad_()`), or
* `loss.requires_grad = True` / `loss.requires_grad_()`,

followed in the same function by `loss.backward()` (also `scaler.scale(loss).backward()`,
`accelerator.backward(loss)`, `self.manual_backward(loss)`) or by returning it from
`training_step` / `compute_loss`, with no new value bound to the name in between.

## Why it matters

When the loss was computed through a non-differentiable step (`.item()`, `.numpy()`,
`argmax`, a metric from scikit-learn, a `torch.no_grad()` block), `backward()` fails with
"element 0 of tensors does not require grad and does not have a grad_fn". The popular
"fix" is to make the loss require grad. That silences the error and breaks training:
`torch.tensor(...)` and `Variable(...)` copy the value into a new leaf with no history, and
setting `requires_grad` on a loss that has no history makes it a leaf too. `backward()` then
computes the gradient of the loss with respect to itself, no parameter receives a
gradient, `optimizer.step()` changes nothing (or only weight decay), and the loss stays
flat for the whole run. Reports: isayev/ReLeaSE issue 39 (loss built from
`.item()`/`.numpy()` values: "weights are not updating", grads `None`), the PyTorch forums
and Stack Overflow threads on "element 0 of tensors does not require grad" where the
accepted answers warn that `loss.requires_grad = True` / `torch.tensor(loss,
requires_grad=True)` only hide the detached graph (e.g. "Loss requires grad is False",
"Model does not train after setting requires_grad on the loss").

## How to fix it

Keep the loss in the graph: compute it with differentiable torch operations on the model
output (no `.item()`, `.numpy()`, `argmax`, `torch.no_grad()` in between), and remove the
`requires_grad` line. If the error persists, find where the graph is cut (a parameter
frozen by mistake, `with torch.no_grad()`, `.detach()`).

## When preflight stays silent

* The tensor made to require grad is not the one back-propagated (an input for a gradient
  penalty or a saliency map, `w = torch.tensor(init, requires_grad=True)` optimised
  directly).
* The loss is a placeholder from `torch.randn(...)` / `torch.zeros(...)`, or the code
  sits in a `test_*` function (a test's stand-in loss).
* The constructor copies a literal (`loss = torch.tensor(0.0, requires_grad=True)`) or the
  name is bound again (`loss = loss + criterion(...)`, `loss += ...`) before the backward.
"""
    bad_examples = examples("preflight.rules.code._pf248_examples", "BAD_EXAMPLES")
    good_examples = examples("preflight.rules.code._pf248_examples", "GOOD_EXAMPLES")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for scope in [ctx.tree, *ctx.nodes(ast.FunctionDef, ast.AsyncFunctionDef)]:
            yield from self._check_scope(ctx, scope)

    def _check_scope(self, ctx: FileContext, scope: ast.AST) -> Iterable[Finding]:
        nodes = list(own_nodes(scope))
        if any(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name.startswith("test")
               for f in [scope, *ctx.ancestors(scope)]):
            return  # a test builds a stand-in loss on purpose
        forced: list[tuple[str, ast.AST, str]] = []  # name, statement, how
        binds: dict[str, list[tuple[int, int]]] = {}
        values: dict[str, list[tuple[tuple[int, int], ast.AST]]] = {}
        for node in nodes:
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    ref = _ref(target)
                    if (isinstance(target, ast.Attribute) and target.attr == "requires_grad"
                            and _ref(target.value) is not None and isinstance(node, ast.Assign)
                            and _dotted(node.value) == "True"):
                        forced.append((str(_ref(target.value)), node, f"`{_dotted(target)} = True`"))
                    elif ref is not None:
                        binds.setdefault(ref, []).append(_pos(node))
                        if node.value is not None:
                            values.setdefault(ref, []).append((_pos(node), node.value))
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and _ref(node.targets[0]) is not None:
                    leaf = _regrafted(node.value)
                    if leaf is not None:
                        forced.append((str(_ref(node.targets[0])), node, f"`{_dotted(node.value)[:90]}`"))
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                for sub in ast.walk(node.target):
                    if isinstance(sub, ast.Name):
                        binds.setdefault(sub.id, []).append(_pos(node))
            elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                  and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "requires_grad_"
                  and _ref(node.value.func.value) is not None
                  and (not node.value.args or _dotted(node.value.args[0]) == "True")):
                forced.append((str(_ref(node.value.func.value)), node, f"`{_dotted(node.value)}`"))
        if not forced:
            return
        sinks: list[tuple[str, ast.AST]] = []
        for node in nodes:
            if isinstance(node, ast.Call):
                for name in sorted(_backward_targets(node)):
                    sinks.append((name, node))
            elif (isinstance(node, ast.Return) and node.value is not None
                  and getattr(scope, "name", "") in _LOSS_HOOKS):
                for value in _returned(node.value):
                    if _ref(value) is not None:
                        sinks.append((str(_ref(value)), node))
        seen: set[int] = set()
        for name, stmt, how in forced:
            start = (getattr(stmt, "end_lineno", None) or _pos(stmt)[0], getattr(stmt, "end_col_offset", None) or 0)
            earlier = [value for pos, value in values.get(name, []) if pos < _pos(stmt)]
            if earlier and _dummy(earlier[-1]):
                continue
            for sink_name, sink in sinks:
                if sink_name != name or _pos(sink) <= start or id(sink) in seen:
                    continue
                if any(start < pos < _pos(sink) for pos in binds.get(name, [])):
                    continue
                seen.add(id(sink))
                yield ctx.finding(
                    self, stmt,
                    f"{how} makes `{name}` a fresh leaf that requires grad, and it is back-propagated at line "
                    f"{_pos(sink)[0]}: the backward stops at `{name}` itself, no parameter gets a gradient and the "
                    "optimizer step changes nothing. Compute the loss with differentiable torch operations on "
                    "the model output and drop this line",
                    evidence=[ctx.evidence(sink, "the backward that reaches no parameter")])
                break
