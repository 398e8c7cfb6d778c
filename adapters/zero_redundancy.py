"""PyTorch's ZeroRedundancyOptimizer under DDP: ZeRO stage 1 (optimizer states sharded).

``torch.distributed.optim.ZeroRedundancyOptimizer`` wraps a local optimizer so that each rank keeps the
states of its own partition of the parameters only, while DDP keeps full weights and gradients on every
rank (PyTorch docs, "ZeroRedundancyOptimizer": "shards optimizer states across distributed data-parallel
processes to reduce per-process memory footprint"). That is ZeRO stage 1: ``dist.sharding`` ``zero1``.

The optimizer is often built in a model method behind a flag (karpathy/llm.c @ the benchmark's commit
``train_gpt2.py:241,262-270``: ``def configure_optimizers(self, ..., zero_stage)`` with ``if zero_stage == 1:
optimizer = ZeroRedundancyOptimizer(...)`` else ``torch.optim.AdamW``, called once at ``:711-713`` with
``zero_stage=zero_stage``, from ``--zero_stage 1`` on the launch line). Read, never imported: the call
where it runs (every ``if`` around it decided by the index, or a test ``p == C`` / ``p`` on a parameter
``p`` of the function around it, that function called once in the script with ``p`` resolved at the
call), in a script that wraps the model in DDP: ``zero1`` at medium, over the DDP wrapper's ``ddp``.
Anything not decided states nothing.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter

_ZERO = ("torch.distributed.optim.ZeroRedundancyOptimizer",
         "torch.distributed.optim.zero_redundancy_optimizer.ZeroRedundancyOptimizer")
_DDP = ("torch.nn.parallel.DistributedDataParallel", "torch.nn.parallel.distributed.DistributedDataParallel")
_NOT_KNOWN = object()


def _enclosing(tree: ast.Module, line: int) -> Optional[ast.FunctionDef]:
    best: Optional[ast.FunctionDef] = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= (node.end_lineno or node.lineno) \
                and (best is None or node.lineno > best.lineno):
            best = node
    return best


def _argument(idx: Any, tree: ast.Module, fn: ast.FunctionDef, param: str, method: bool) -> Any:
    """The value ``param`` of ``fn`` takes at its one call in the script, else _NOT_KNOWN."""
    calls = [c for c in ast.walk(tree) if isinstance(c, ast.Call)
             and ((isinstance(c.func, ast.Name) and c.func.id == fn.name and not method)
                  or (isinstance(c.func, ast.Attribute) and c.func.attr == fn.name and method))]
    if len(calls) != 1:
        return _NOT_KNOWN
    call = calls[0]
    names = [a.arg for a in fn.args.args][1 if method else 0:]
    given: Optional[ast.expr] = next((k.value for k in call.keywords if k.arg == param), None)
    if given is None and param in names and names.index(param) < len(call.args):
        given = call.args[names.index(param)]
    if given is None or any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return _NOT_KNOWN
    got = idx.resolve(given)
    if got is not None:
        return got.value
    return _branch_value(idx, tree, given) if isinstance(given, ast.Name) else _NOT_KNOWN


def _branch_value(idx: Any, tree: ast.Module, name: ast.Name) -> Any:
    """``if T: name = A`` / ``else: name = B`` with ``T`` decided (llm.c ``train_gpt2.py:588-603``: ``if ddp:
    ... zero_stage = args.zero_stage`` else ``zero_stage = 0``, ``ddp`` true under torchrun): the value
    of the branch taken, else _NOT_KNOWN."""
    def binds(stmts: list[ast.stmt]) -> list[ast.expr]:
        return [s.value for s in stmts if isinstance(s, ast.Assign) and len(s.targets) == 1
                and isinstance(s.targets[0], ast.Name) and s.targets[0].id == name.id]

    found = [n for n in ast.walk(tree) if isinstance(n, ast.If) and n.lineno < name.lineno
             and len(binds(n.body)) == 1 and len(binds(n.orelse)) == 1]
    if len(found) != 1:
        return _NOT_KNOWN
    taken = idx.truth(found[0].test)
    if taken is None:
        return _NOT_KNOWN
    got = idx.resolve(binds(found[0].body if taken else found[0].orelse)[0])
    return got.value if got is not None else _NOT_KNOWN


def _decided(idx: Any, tree: ast.Module, site: Any) -> bool:
    if idx.runs(site) is True:
        return True
    fn = _enclosing(tree, site.line)
    if fn is None:
        return False
    method = bool(fn.args.args) and fn.args.args[0].arg == "self"
    params = {a.arg for a in fn.args.args}
    for test, in_body in site.guards:
        value = idx.truth(test)
        if value is not None:
            if value != in_body:
                return False
            continue
        name = test.left if isinstance(test, ast.Compare) else test
        if not (isinstance(name, ast.Name) and name.id in params):
            return False
        got = _argument(idx, tree, fn, name.id, method)
        if got is _NOT_KNOWN:
            return False
        if isinstance(test, ast.Compare):
            if len(test.ops) != 1 or not isinstance(test.ops[0], (ast.Eq, ast.NotEq)) \
                    or not isinstance(test.comparators[0], ast.Constant):
                return False
            truth = (got == test.comparators[0].value) == isinstance(test.ops[0], ast.Eq)
        elif isinstance(got, (bool, int)) or got is None:
            truth = bool(got)
        else:
            return False
        if truth != in_body:
            return False
    return True


@register_adapter
class ZeroRedundancyAdapter(ScratchAdapter):
    name = "zero_redundancy"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return bool(project.scripts)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        for script in self.scripts(project):
            if "ZeroRedundancyOptimizer" not in script.source.text:
                self._local(project, script, plan)
                continue
            idx = project.index(script)
            wrapped = any((s.qualified or "") in _DDP and idx.runs(s) is not False for s in idx.calls)
            sites = [s for s in idx.calls if (s.qualified or "") in _ZERO]
            if not wrapped or len(sites) != 1 or not _decided(idx, script.tree, sites[0]):
                continue
            src = project.source(script, sites[0].call, "code",
                                 detail="ZeroRedundancyOptimizer(...) under DDP: optimizer states sharded across "
                                        "the data-parallel ranks, weights and gradients replicated (ZeRO stage 1)")
            self.add_checked(plan, "dist.sharding", "zero1", src, "medium", 1)
            self._inner_optimizer(project, script, idx, sites[0], plan)
            return

    def _local(self, project: Project, script: Any, plan: TrainingPlan) -> None:
        """The ZeRO call of a local class's ``__init__`` the script builds
        (:mod:`preflight.adapters.zero_redundancy_local`)."""
        from preflight.adapters.zero_redundancy_local import local_zero

        from preflight.plan import Source

        if script.tree is None or "DistributedDataParallel" in script.source.text:
            return  # the script wraps the model itself: its own code decides
        got = local_zero(project, script, project.index(script))
        if got is None:
            return
        shown, line, klass, optimizer = got
        where = f"{klass}.__init__ in {shown}, built by {script.source.display}"
        self.add_checked(plan, "dist.sharding", "zero1",
                         Source("code", shown, line, None,
                                f"ZeroRedundancyOptimizer(...) under DDP in {where} (its arm decided by the "
                                "class's keyword defaults and the script's call): optimizer states sharded "
                                "across the data-parallel ranks (ZeRO stage 1)"), "medium", 1)
        if optimizer is not None:
            self.add_checked(plan, "optimizer.name", optimizer,
                             Source("code", shown, line, None,
                                    f"ZeroRedundancyOptimizer(optimizer_class={optimizer}) in {where}: each rank "
                                    f"steps a {optimizer} over its shard of the parameters"), "medium")

    def _inner_optimizer(self, project: Project, script: Any, idx: Any, site: Any, plan: TrainingPlan) -> None:
        """``optimizer.name``: the ``optimizer_class=`` the wrapper builds on every rank (karpathy/llm.c
        ``train_gpt2.py`` ``ZeroRedundancyOptimizer(**optim_groups[0], optimizer_class=torch.optim.AdamW, ...)``;
        PyTorch's ZeroRedundancyOptimizer tutorial ``optimizer_class=torch.optim.Adam``): a ``torch.optim`` class
        or one named like an optimizer (:data:`preflight.adapters.pytorch_pass._OPTIMIZER_CLASS`)."""
        from preflight.adapters.pytorch_pass import _OPTIMIZER_CLASS

        from preflight.analysis.syntax import dotted_name

        given = next((k.value for k in site.call.keywords if k.arg == "optimizer_class"), None)
        written = dotted_name(given) if given is not None else None
        qualified = idx.qualify(written) if written else None
        if not qualified:
            return
        cls = qualified.rsplit(".", 1)[-1]
        if not (qualified.startswith("torch.optim.") or _OPTIMIZER_CLASS.fullmatch(cls)):
            return
        src = project.source(script, site.call, "code",
                             detail=f"ZeroRedundancyOptimizer(optimizer_class={written}): each rank steps a {cls} "
                                    "over its shard of the parameters")
        self.add_checked(plan, "optimizer.name", cls, src, "medium")
