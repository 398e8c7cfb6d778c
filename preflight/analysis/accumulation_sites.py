"""What the accumulation analysis reports: the scaling of a loss, the trace of a window, the owner of a step, the accumulation sites of raw loops and Lightning modules, and the result of one file."""

from __future__ import annotations

import ast
from typing import Optional

from preflight._record import dataclass, field
from preflight.analysis.scopes import FunctionInfo, LoopInfo, ScopeIndex


@dataclass(frozen=True)
class Scaling:
    node: ast.AST  # the expression or statement that scales
    kind: str  # "/" | "/=" | ".div()" | "* (1/N)" | "mean over a stacked window" | "grad"
    divisor: Optional[ast.expr]  # N (None: the window length, or unknown)
    inline: bool = False  # directly inside the backward argument
    removable: Optional[ast.expr] = None  # what the scaled expression becomes without it


@dataclass
class Trace:
    scalings: list[Scaling] = field(default_factory=list)
    opaque: Optional[ast.AST] = None  # a node that might scale without preflight seeing it
    helpers: list[ast.Call] = field(default_factory=list)  # calls of functions the file lacks
    # ``**batch`` keywords of helper calls that unpack the batch a loop draws (``model(**batch)``):
    # the loader's batch does not carry the window
    batch_unpacks: set[int] = field(default_factory=set)

    def hidden_scaling(self, window: ast.expr) -> Optional[ast.AST]:
        """Something that may scale by ``window`` unseen: an opaque factor, or an unseen
        helper handed the window, the object it is read from (``args`` of
        ``args.accum``), or ``*args`` / ``**kwargs``."""
        if self.opaque is not None:
            return self.opaque
        parts = {n.id for n in ast.walk(window) if isinstance(n, ast.Name)} | {
            n.attr for n in ast.walk(window) if isinstance(n, ast.Attribute)}
        for call in self.helpers:
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                if any((isinstance(n, ast.Name) and n.id in parts) or (
                        isinstance(n, ast.Attribute) and n.attr in parts) for n in ast.walk(arg)):
                    return call
            if any(isinstance(a, ast.Starred) for a in call.args) or any(
                    k.arg is None and id(k) not in self.batch_unpacks for k in call.keywords):
                return call  # ``*args`` / ``**kwargs`` may carry the window
        return None


@dataclass
class Owner:
    kind: str  # "plain" | "accelerate" | "fabric" | "deepspeed" | "unknown"
    constructor: Optional[ast.Call] = None  # Accelerator(...) / Fabric(...)
    ga: Optional[ast.expr] = None  # gradient_accumulation_steps=... of the Accelerator
    ga_known: bool = True  # False: a plugin or **kwargs may set it


@dataclass
class AccumSite:
    backward: ast.Call
    value: ast.expr
    function: FunctionInfo
    owner: Owner
    trace: Trace
    loop: Optional[LoopInfo] = None
    guard: Optional[ast.If] = None
    modulus: Optional[ast.expr] = None
    step: Optional[ast.Call] = None
    zeroed_every_micro_batch: bool = False
    optimizer: Optional[ast.AST] = None  # the optimizer constructor, when known
    # nanoGPT's shape: ``for micro_step in range(N):`` holds the backward and the step follows
    # it in the enclosing loop (then ``guard`` is None and ``modulus`` is N)
    window: Optional[ast.For] = None


@dataclass
class LightningSite:
    ret: ast.Return
    value: ast.expr
    function: FunctionInfo
    trace: Trace


@dataclass
class Accumulation:
    sites: list[AccumSite]
    lightning: list[LightningSite]
    trainer_accumulation: list[ast.expr]  # accumulate_grad_batches= of Lightning Trainers
    scopes: ScopeIndex
    assigned: dict[tuple[FunctionInfo, str], list[ast.AST]] = field(default_factory=dict)

    def resolve(self, node: ast.AST, fn: FunctionInfo) -> ast.AST:
        """Follow a Name bound exactly once in its scope to its value (``ga = args.ga``)."""
        for _ in range(3):
            if not isinstance(node, ast.Name):
                return node
            scope = self.scopes.scope_of_name(node.id, fn)
            bound = self.assigned.get((scope, node.id), [])
            if len(bound) != 1 or not isinstance(bound[0], ast.Assign):
                return node
            node, fn = bound[0].value, scope
        return node
