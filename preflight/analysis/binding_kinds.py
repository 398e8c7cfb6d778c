"""The kinds of object a binding names, and the binding record itself (split out of
:mod:`preflight.analysis.bindings`, which re-exports them)."""

from __future__ import annotations

import ast
from typing import Optional

from preflight._record import dataclass
from preflight.analysis.binding_syntax import short_call
from preflight.analysis.scopes import ClassInfo

MODULE = "module"
OPTIMIZER = "optimizer"
CRITERION = "criterion"
INSTANCE = "instance"  # an object of a local, non-module class
MODULE_CONTAINER = "module-container"  # nn.ModuleList / ModuleDict / ParameterList
PARAMETER = "parameter"


OPTIMIZER_PARAM_NAMES = frozenset({"optimizer", "optim", "opt"})


def hydra_optimizer(call: ast.Call) -> bool:
    """``instantiate(cfg.optimizer, params=...)`` / ``instantiate(cfg.optim, model.parameters())``:
    an optimizer node built with the parameters (a scheduler node gets an optimizer instead)."""
    node = call.args[0]
    last = node.attr if isinstance(node, ast.Attribute) else (
        node.slice.value if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) else "")
    name = str(last).lower()
    with_params = any(k.arg == "params" for k in call.keywords) or len(call.args) > 1
    return with_params and "optim" in name and "sched" not in name


@dataclass(eq=False)
class Binding:
    kind: str
    node: ast.AST  # the expression that created the object
    label: Optional[str] = None  # how to name it; default: the creating expression
    cls: Optional[ClassInfo] = None
    tensor_out: bool = False  # its forward returns one tensor
    param_free: bool = False  # no parameters of its own
    frozen: bool = False  # ``requires_grad_(False)`` was called on it
    inner: Optional[Binding] = None  # the wrapped module (DDP, compile, prepare)
    steps: bool = False  # ``.step()`` is an optimizer step (DeepSpeed engine)

    @property
    def line(self) -> int:
        return getattr(self.node, "lineno", 0)

    @property
    def description(self) -> str:
        """How evidence names it, e.g. "`Net()`"."""
        if self.label is None:
            self.label = f"`{short_call(self.node)}`"
        return self.label

    def input_dependent(self) -> bool:
        """True when its forward carries a graph only if its inputs do."""
        b: Optional[Binding] = self
        while b is not None:
            if b.frozen or b.param_free:
                return True
            b = b.inner
        return False
