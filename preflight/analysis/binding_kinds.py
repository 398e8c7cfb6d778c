"""The kinds of object a binding names, and the binding record itself (split out of
:mod:`preflight.analysis.bindings`, which re-exports them)."""

from __future__ import annotations

import ast
import re
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
_OPTIMIZER_NAME = re.compile(r"^(?:optimizer|optim|opt)(?:_([A-Za-z0-9]{1,6})|([A-Z0-9][A-Za-z0-9]{0,5}))$|"
                             r"^([A-Za-z0-9]{1,6})_(?:optimizer|optim|opt)$")
# words that make the name a setting or a factory, not an optimizer object
_NOT_A_ROLE = frozenset({"cfg", "config", "conf", "level", "name", "type", "kwargs", "args", "params",
                         "state", "class", "cls", "fn", "func", "steps", "kw", "dict", "list", "spec",
                         "get", "build", "make", "create", "init", "use", "no", "with", "is", "has", "sched",
                         "lr",
                         "Config", "Cfg", "Level", "Name", "Type", "Kwargs", "Args", "Params", "State",
                         "Class", "Fn", "Func", "Steps", "Dict", "List", "Spec"})


def optimizer_param_name(name: str) -> bool:
    """A parameter named as an optimizer: ``optimizer``, ``optim``, ``opt``, or one of several
    (``optimizer_D``, ``optimizerG``, ``opt_g``, ``d_optimizer``, ``gen_opt``); not ``options``,
    ``opts``, ``optimize``, ``optimizer_cfg`` or ``opt_level``."""
    if name in OPTIMIZER_PARAM_NAMES:
        return True
    if "opt" not in name:  # every name the pattern matches holds it (most parameters do not)
        return False
    found = _OPTIMIZER_NAME.match(name)
    if found is None:
        return False
    role = next(g for g in found.groups() if g is not None)
    return role not in _NOT_A_ROLE and role.lower() not in _NOT_A_ROLE


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
