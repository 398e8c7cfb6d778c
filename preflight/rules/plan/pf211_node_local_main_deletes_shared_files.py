"""PF211 node-local-main-deletes-shared-files: files deleted under a per-node main-process test
(``accelerator.is_local_main_process``, ``local_rank == 0``) in a multi-node job."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import qualify
from preflight.rules.base import examples

_DELETES = frozenset({"shutil.rmtree", "os.remove", "os.unlink", "os.rename", "os.replace", "shutil.move",
                      "os.removedirs", "os.rmdir"})
# words of a per-node test, and of a test that also names the global main process
_LOCAL = ("is_local_main_process", "local_process_index", "local_rank", "LOCAL_RANK", "is_local_zero")
_GLOBAL = ("is_main_process", "is_global_zero", "global_rank", "process_index", "RANK\"", "RANK'", "node_rank",
           "machine_rank", "is_world_process_zero")


def _local_only(test: ast.expr) -> bool:
    text = ast.unparse(test)
    stripped = text
    for word in _LOCAL:
        stripped = stripped.replace(word, "")
    return any(w in text for w in _LOCAL) and not any(w in stripped for w in _GLOBAL)


def _deletes(ctx: FileContext, body: Iterable[ast.AST]) -> Optional[ast.Call]:
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and qualify(ctx, node.func) in _DELETES:
                return node
    return None


@register
class NodeLocalMainDeletesSharedFiles(PlanRule):
    code = "PF211"
    name = "node-local-main-deletes-shared-files"
    severity = Severity.WARNING
    category = Category.DISTRIBUTED
    frameworks = ("accelerate", "pytorch")
    summary = ("Files are deleted or moved under a per-node main-process test (`is_local_main_process`, "
               "`local_rank == 0`) in a multi-node job: one process per node does it, and they race")
    explanation = """
## What it finds

In a job that runs on more than one machine (`num_machines: 2` in the accelerate config,
`--num_machines`, `--nnodes`), a `shutil.rmtree`, `os.remove`, `os.rename`, `shutil.move`, ...
(directly, or in a function of the same file that the guarded block calls) under a test that
selects the main process **of each node**: `accelerator.is_local_main_process`,
`accelerator.local_process_index == 0`, `args.local_rank == 0`, `int(os.environ["LOCAL_RANK"]) == 0`.

## Why it matters

`is_local_main_process` is true on one process per machine (accelerate `state.py`:
"Returns whether the current process is the main process on the local node"), and `LOCAL_RANK`
restarts at 0 on every node. Checkpoints and outputs of a multi-node run live on a shared
filesystem, so every node's local main process deletes or renames the same files at the same
time: the slower node fails with FileNotFoundError, or removes a checkpoint another node is still
writing (open-instruct PR 975: "is_local_main_process -> is_main_process" for the checkpoint
clean-up in multi-node training).

## How to fix it

Use the global main process (`accelerator.is_main_process`, `rank == 0`), after
`accelerator.wait_for_everyone()` when the files were written by all processes.

## When preflight stays silent

* One machine, or the number of machines is not known.
* The test also names the global main process or the node (`is_main_process`, `global_rank`,
  `node_rank`, `process_index`), or the guarded code only creates, downloads or reads files
  (a per-node cache is what a local main process is for).
"""
    bad_examples = examples("preflight.rules.plan._pf211_examples", "PF211_BAD")
    good_examples = examples("preflight.rules.plan._pf211_examples", "PF211_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        nodes = pctx.plan.resolve("dist.nodes")
        if nodes is None or isinstance(nodes.value, bool) or not isinstance(nodes.value, int) or nodes.value <= 1:
            return
        for script in pctx.scripts:
            text = script.text if script.text is not None else script.source.text
            if not text or not any(w in text for w in _LOCAL) or not any(
                    d.split(".")[-1] in text for d in _DELETES):
                continue
            ctx = pctx.file_context(script)
            helpers: dict[str, ast.AST] = {f.name: f for f in ast.walk(ctx.tree)
                                           if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
            for branch in ctx.nodes(ast.If):
                if not _local_only(branch.test):
                    continue
                site, how = self._site(ctx, branch, helpers)
                if site is None:
                    continue
                test = ast.unparse(branch.test)
                evidence = [pctx.code_evidence(script, branch.test, f"`{test}` holds on one process per node")]
                ev = pctx.fact_evidence(nodes, f"{nodes.value} machines")
                if ev is not None:
                    evidence.append(ev)
                yield pctx.code_finding(
                    self, script, site,
                    f"{how} runs under `{test}`, which holds on one process per node: with {nodes.value} machines "
                    f"{nodes.value} processes delete or move the same files of the shared output directory at "
                    "once, and the slower one fails (FileNotFoundError) or removes what another node is still "
                    "writing. Do it on the global main process (`accelerator.is_main_process`, rank 0), after "
                    "`accelerator.wait_for_everyone()`",
                    evidence=evidence)

    @staticmethod
    def _site(ctx: FileContext, branch: ast.If,
              helpers: dict[str, ast.AST]) -> tuple[Optional[ast.AST], str]:
        direct = _deletes(ctx, branch.body)
        if direct is not None:
            return direct, f"`{ast.unparse(direct.func)}(...)`"
        for stmt in branch.body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers:
                    inner = _deletes(ctx, [helpers[node.func.id]])
                    if inner is not None:
                        return node, (f"`{node.func.id}(...)` (which calls `{ast.unparse(inner.func)}` at line "
                                      f"{inner.lineno})")
        return None, ""
