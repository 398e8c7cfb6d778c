"""Whether the training loop keeps the previous step's model output alive into the next forward
(plan ``memory.keeps_outputs``; the estimator's ``keeps_outputs``, ``estimate/held_outputs.py``).

A loop that binds the forward's result to a name in its own body (``outputs = model(**batch)``,
``logits = model(x)``, ``logits, loss = model(X, Y)``) and back-propagates a loss computed from it
keeps that object until the NEXT step's forward returns and the name is rebound: the previous
step's logits (and the KV cache a transformers decoder returns with ``use_cache`` on) are alive
while the next forward runs. Read from real code:

- kept: dlrover ``atorch/examples/llama2/fsdp_llama2.py`` at 70df7d5 (``outputs = model(**batch)``,
  ``loss = outputs["loss"]``, ``loss.backward()``; no ``del``: the est60 diagnosis of held-out-28),
  abacaj/fine-tune-mistral ``train.py:433-437`` at c8c8ec1 (``outputs = model(**inputs)``,
  ``loss = outputs.loss``, ``loss.backward()``), karpathy/nanoGPT ``train.py`` (``logits, loss =
  model(X, Y)`` in the micro-step loop), the accelerate ``*_no_trainer.py`` examples
  (``outputs = model(**batch)`` in ``with accelerator.accumulate(model):``);
- not kept: meta-llama/llama-cookbook ``src/llama_cookbook/utils/train_utils.py:152`` at 0e00335
  (``loss = model(**batch).loss``: only the loss is bound; llama-recipes PR #41 made that change
  and measured 4.98 GB less), a loop that ``del outputs`` or rebinds the name before the next
  forward, a forward inside a helper the loop calls (its locals die when it returns), and the
  transformers Trainer: ``Trainer.compute_loss`` binds ``outputs = model(**inputs)`` in its own
  frame and returns the loss alone, ``training_step`` returns ``loss.detach()`` (transformers 4.31.0
  ``trainer.py:2628-2699``, 4.40.1 ``trainer.py:3112-3186``): nothing of the output outlives the
  step.

The reading is the loop body's own statements (``with`` and ``try`` bodies inlined: they run every
pass); a forward under an ``if`` is not read. Every loop that back-propagates is read; the fact is
written when all the readings agree (medium: the model is recognised by its name or by the call
that built it). Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Optional, Union

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.analysis.training import backward_value
from preflight.local_trees import nodes_of, parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

FIELD = "memory.keeps_outputs"
_MAX_BYTES = 500_000
_Loop = Union[ast.For, ast.AsyncFor, ast.While]
_Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]
#: calls that build (or wrap) a model: a name bound to their result is a model
_MODEL_MAKERS = ("from_pretrained", "from_config", "DistributedDataParallel", "DDP", "FSDP",
                 "FullyShardedDataParallel", "compile", "get_peft_model", "PeftModel", "fully_shard",
                 "prepare_model", "wrap_model")
#: names that are not a model's forward, whatever they contain
_NOT_MODEL = ("loss", "criterion", "metric", "optim", "sched", "token", "collat", "scaler", "accelerator",
              "fabric", "loader", "dataset", "processor", "autocast", "context", "ctx")
#: a function named for what it does is a helper, not a model's forward
_VERBS = ("get_", "make_", "build_", "create_", "compute_", "prepare_", "load_", "init_", "setup_", "sample_",
          "apply_", "add_", "encode", "decode", "run_", "train_", "eval", "forward_")
#: what a projection of the output that keeps only the loss reads
_LOSS_ONLY = ("loss", "item", "tolist", "cpu", "numpy")


@dataclass(frozen=True)
class Reading:
    """One training loop's reading: ``kept`` with the names that hold the output, or not kept
    and why; ``line`` is the forward's statement."""

    kept: bool
    line: int
    names: tuple[str, ...]
    why: str


def _flat(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run on every pass: ``with`` and ``try`` bodies inlined."""
    for stmt in body:
        if isinstance(stmt, (ast.With, ast.AsyncWith, ast.Try)):
            yield from _flat(stmt.body)
        else:
            yield stmt


def _walk_local(node: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk`` that does not enter nested functions, classes or lambdas."""
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        for child in ast.iter_child_nodes(cur):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                stack.append(child)


def _model_names(tree: ast.AST) -> set[str]:
    """Names (and ``self.x`` attributes) bound to a model-making call's result."""
    out: set[str] = set()
    for node in nodes_of(tree):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        func = dotted_name(node.value.func) or ""
        last = func.rsplit(".", 1)[-1]
        if last not in _MODEL_MAKERS and not (last in ("to", "cuda") and "model" in func.lower()):
            continue
        for target in node.targets:
            elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            for elt in elts:
                name = dotted_name(elt)
                if name:
                    out.add(name)
    return out


def _model_call(expr: ast.expr, models: set[str]) -> bool:
    """Whether ``expr`` is a call of a model's forward: ``model(...)``, ``self.model(...)``,
    ``model.forward(...)``, ``engine(...)``, a name bound to a model-making call."""
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    if isinstance(func, ast.Attribute) and func.attr == "forward":
        func = func.value
    name = dotted_name(func)
    if not name:
        return False
    last = name.rsplit(".", 1)[-1].lower()
    if any(word in last for word in _NOT_MODEL) or last.startswith(_VERBS):
        return False  # (kohya ``flux_train_utils.get_noisy_model_input_and_timesteps(...)``: a helper)
    return name in models or "model" in last or last.endswith("net") or last in ("engine", "policy", "gpt", "llm")


def _forward(stmt: ast.stmt, models: set[str]) -> Optional[tuple[list[str], bool]]:
    """(target names, whether they hold the output) of ``NAME = model(...)`` (or a projection of
    it: ``.logits``, ``[0]``; ``.loss`` / ``.item()`` keep the loss only), None when ``stmt`` is
    no forward."""
    if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets: list[ast.expr] = [stmt.target]  # ``logits: torch.Tensor = model(...).logits`` (IDRIS FSDP_sAC.py:252)
        value: ast.expr = stmt.value
    elif isinstance(stmt, ast.Assign):
        targets, value = list(stmt.targets), stmt.value
    else:
        return None
    loss_only = False
    while not _model_call(value, models):
        if isinstance(value, ast.Attribute):
            loss_only = loss_only or value.attr in _LOSS_ONLY
            value = value.value
        elif isinstance(value, ast.Subscript):
            key = value.slice
            if isinstance(key, ast.Constant) and key.value == "loss":
                loss_only = True
            value = value.value
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            loss_only = loss_only or value.func.attr in _LOSS_ONLY
            value = value.func.value
        else:
            return None
    if isinstance(value, ast.Call) and any(k.arg and "logits" in k.arg and isinstance(k.value, ast.Constant)
                                           and k.value.value is False for k in value.keywords):
        loss_only = True  # karpathy/llm.c train_gpt2.py:810 ``_, loss = model(x, y, return_logits=False)``
    names: list[str] = []
    for target in targets:
        elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
        for elt in elts:
            if isinstance(elt, ast.Name):
                names.append(elt.id)
            else:
                return None  # stored in an attribute or a container: not read here
    return (names, not loss_only) if names else None


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _read_loop(loop: _Loop, models: set[str]) -> Optional[Reading]:
    backs = [n for n in _walk_local(loop) if isinstance(n, ast.Call) and backward_value(n) is not None
             and isinstance(n.func, ast.Attribute) and n.func.attr == "backward"]
    if not backs:
        return None
    body = list(_flat(loop.body))
    fwd = [(i, stmt, got) for i, stmt in enumerate(body) for got in [_forward(stmt, models)] if got is not None]
    if len(fwd) != 1:
        return None  # no forward at the loop's own level, or several (not read)
    index, stmt, (names, holds) = fwd[0]
    # the loss back-propagated is computed from the forward's names
    derived = set(names)
    for later in body[index + 1:]:
        if isinstance(later, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and later.value is not None \
                and _mentions(later.value, derived):
            targets = later.targets if isinstance(later, ast.Assign) else [later.target]
            derived.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
    back = [b for b in backs if _mentions(backward_value(b) or b, derived)]
    if not back:
        return None
    value = backward_value(back[0])
    if not holds:
        return Reading(False, stmt.lineno, tuple(names),
                       f"`{ast.unparse(stmt)[:80]}` binds the loss only: the output object is dropped")
    # the loss tensor is not the output: ``logits, loss = model(x, y)``; ``loss = model(data)`` then
    # ``(loss / K).backward()`` (lucidrains/x-transformers train_length_extrapolate.py:124)
    bare = {n.id for n in ast.walk(value or back[0]) if isinstance(n, ast.Name)
            and not isinstance(_parent_of(value or back[0], n), (ast.Attribute, ast.Subscript))}
    holders = {n for n in names if n not in bare and "loss" not in n.lower()}
    if not holders:
        return Reading(False, stmt.lineno, tuple(names),
                       f"{', '.join(f'`{n}`' for n in names)}: the loss the model returns, back-propagated: the "
                       "loop binds no output object")
    # aliases of the output: ``logits = outputs.logits``, ``outputs[1]``
    aliases: set[int] = set()
    for later in body[index + 1:]:
        if isinstance(later, ast.Assign) and len(later.targets) == 1 and isinstance(later.targets[0], ast.Name) \
                and isinstance(later.value, (ast.Attribute, ast.Subscript)):
            root: ast.expr = later.value
            projection_loss = False
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                if isinstance(root, ast.Attribute) and root.attr in _LOSS_ONLY:
                    projection_loss = True
                if isinstance(root, ast.Subscript) and isinstance(root.slice, ast.Constant) \
                        and root.slice.value == "loss":
                    projection_loss = True
                root = root.value
            if isinstance(root, ast.Name) and root.id in names and not projection_loss:
                holders.add(later.targets[0].id)
                aliases.add(id(later))
    # a holder deleted or bound again anywhere in the loop (before the next forward) is not kept
    killed: dict[str, int] = {}
    for node in _walk_local(loop):
        if node is stmt or id(node) in aliases or _keeps_alive(node, holders, models):
            continue
        for target in _stored(node):
            for n in ast.walk(target):
                if isinstance(n, ast.Name) and n.id in holders:
                    killed.setdefault(n.id, getattr(n, "lineno", 0))
    live = sorted(holders - set(killed))
    if not live:
        first = min(killed.items(), key=lambda kv: kv[1]) if killed else None
        why = (f"`{first[0]}` is deleted or bound again at line {first[1]} before the next forward"
               if first else "the forward's result is only the loss")
        return Reading(False, stmt.lineno, tuple(names), why)
    return Reading(True, stmt.lineno, tuple(live),
                   f"`{ast.unparse(stmt)[:80]}` in the training loop (line {loop.lineno}); "
                   f"{', '.join(f'`{n}`' for n in live)} is never deleted or bound again before the next "
                   "forward, so the previous step's output lives through it")


def _parent_of(root: ast.AST, node: ast.AST) -> Optional[ast.AST]:
    for parent in ast.walk(root):
        if any(child is node for child in ast.iter_child_nodes(parent)):
            return parent
    return None


def _keeps_alive(node: ast.AST, holders: set[str], models: set[str]) -> bool:
    """A store that keeps an output-sized tensor under the name: another forward (an ``except``
    arm's, benchmarking-gnns ``train_molecules_graph_regression.py:31-33``), or a value computed
    from the holder itself (diffusers ``model_pred = model_pred * -1``, ``model_pred,
    model_pred_prior = torch.chunk(model_pred, 2, dim=0)``), not a loss-only projection of it."""
    if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
        return False
    if _forward(node, models) is not None:
        return True
    if not _mentions(node.value, holders):
        return False
    projected = node.value
    while isinstance(projected, (ast.Attribute, ast.Subscript, ast.Call)):
        attr = (projected.attr if isinstance(projected, ast.Attribute)
                else projected.func.attr if isinstance(projected, ast.Call) and isinstance(projected.func, ast.Attribute)
                else "")
        if attr in _LOSS_ONLY:
            return False
        projected = (projected.value if isinstance(projected, (ast.Attribute, ast.Subscript))
                     else projected.func.value if isinstance(projected.func, ast.Attribute) else projected.func)
        if isinstance(projected, ast.Name):
            break
    return True


def _stored(node: ast.AST) -> list[ast.expr]:
    """The targets a statement stores to or deletes (a ``for`` target, ``with ... as``, ``:=``)."""
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
        return [node.target]
    if isinstance(node, ast.Delete):
        return list(node.targets)
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    return []


def _scopes(tree: ast.AST) -> Iterator[_Scope]:
    for node in nodes_of(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def read_tree(tree: ast.AST, main: bool = True) -> list[Reading]:
    """Every training loop's reading in one file (outermost loops first; a loop nested in another
    training loop is read on its own: nanoGPT's micro-step loop). ``main`` False: an imported
    module, whose ``if __name__ == "__main__":`` block does not run."""
    models = _model_names(tree)
    out: list[Reading] = []
    seen: set[int] = set()
    for scope in _scopes(tree):
        for node in _walk_local(scope) if not isinstance(scope, ast.Module) else _module_level(scope, main):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While)) and id(node) not in seen:
                seen.add(id(node))
                got = _read_loop(node, models)
                if got is not None:
                    out.append(got)
    return out


def _module_level(tree: ast.Module, main: bool = True) -> Iterator[ast.AST]:
    """The module's own code (not inside its functions or classes)."""
    for stmt in tree.body:
        if not main and isinstance(stmt, ast.If) and "__name__" in ast.unparse(stmt.test):
            continue
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from _walk_local(stmt)


def _trainer_site(project: Project) -> Optional[tuple[Any, ast.Call]]:
    """A transformers/TRL ``*Trainer(...)`` the scripts build and train (``.train()``), with no
    ``training_step``/``compute_loss`` of their own that could keep the outputs."""
    found = None
    for script in project.scripts:
        if script.tree is None:
            continue
        text = script.source.text
        if ".train(" not in text:
            continue
        for node in nodes_of(script.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ("training_step",):
                return None
        for site in project.index(script).calls:
            qualified = site.qualified or ""
            if (site.last or "").endswith("Trainer") and qualified.startswith(("transformers.", "trl.")):
                found = found or (script, site.call)
    return found


@register_adapter
class KeptOutputsAdapter(Adapter):
    name = "kept_outputs"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and ("backward" in s.source.text or "Trainer" in s.source.text)
                   for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        found: list[tuple[Reading, Source]] = []
        for script in project.scripts:
            if script.tree is None:
                continue
            for reading in read_tree(script.tree):
                found.append((reading, project.source(script, reading.line, "code", detail=reading.why)))
        if not found:
            found = self._local_modules(project)
        if found:
            if len({r.kept for r, _ in found}) != 1:
                return  # loops that disagree: not decided here
            reading, source = found[0]
            self.add_checked(plan, FIELD, reading.kept, source, "medium")
            return
        trainer = _trainer_site(project)
        if trainer is not None:
            script, call = trainer
            self.add_checked(plan, FIELD, False, project.source(
                script, call, "code", detail="the transformers Trainer's training_step drops the model's "
                "outputs: compute_loss binds them in its own frame and returns the loss only "
                "(transformers 4.31.0 trainer.py:2669-2699, 4.40.1 trainer.py:3151-3186)"), "medium")

    @staticmethod
    def _local_modules(project: Project) -> list[tuple[Reading, Source]]:
        """The loops of the local modules the scripts import, when the scripts hold none
        (llama-cookbook's ``finetuning.py`` -> ``utils/train_utils.py``)."""
        import os

        from preflight.adapters.pytorch_local import _imported_up

        from preflight.sources import read_text_limited

        root = Path(str(project.root)) if project.root else None
        out: list[tuple[Reading, Source]] = []
        for script in project.scripts:
            if script.tree is None or script.source.path is None:
                continue
            for path in _imported_up(script.tree, Path(str(script.source.path)).resolve().parent, root):
                try:
                    if path.stat().st_size > _MAX_BYTES:
                        continue
                    if "backward" not in read_text_limited(path, _MAX_BYTES, errors="replace"):
                        continue
                    tree = parse_file(path)
                except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
                shown = os.path.relpath(path, root) if root is not None else path.name
                for reading in read_tree(tree, main=False):
                    out.append((reading, Source("code", shown, reading.line, None, reading.why)))
        return out
