"""PF341 per-process-draw-names-checkpoint: a checkpoint tag or output directory built from a value
each process draws for itself (``uuid4()``, the clock, the pid) in a multi-process job."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples

# calls whose result differs between processes started together
_DRAWS = frozenset({"uuid.uuid4", "uuid.uuid1", "uuid4", "uuid1", "time.time", "time.time_ns", "time.strftime",
                    "time.localtime", "time.ctime", "datetime.now", "datetime.utcnow", "datetime.today",
                    "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today", "date.today",
                    "os.getpid", "secrets.token_hex", "secrets.token_urlsafe", "tempfile.mkdtemp"})
# `a.b` in the file that says several processes run it
_DISTRIBUTED = ("deepspeed.initialize", "deepspeed=", "init_process_group", "init_distributed", "Accelerator(",
                "DistributedDataParallel", "torch.distributed")
_ARGUMENTS = ("TrainingArguments", "Seq2SeqTrainingArguments", "SFTConfig", "DPOConfig", "GRPOConfig")


def _draw(node: ast.AST) -> Optional[ast.Call]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            text = ast.unparse(sub.func)
            if text in _DRAWS or any(text.endswith("." + d) for d in _DRAWS):
                return sub
    return None


def _scopes(tree: ast.AST) -> Iterable[list[ast.stmt]]:
    yield [n for n in ast.iter_child_nodes(tree) if isinstance(n, ast.stmt)]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.body


def _walk_scope(body: list[ast.stmt]) -> Iterable[ast.AST]:
    """The nodes of a scope, not entering nested functions or classes."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        for child in reversed(list(ast.iter_child_nodes(node))):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                stack.append(child)


def _sinks(call: ast.Call) -> list[tuple[ast.expr, str]]:
    """The arguments of ``call`` that name a checkpoint location every rank must share: the tag AND the
    directory of ``engine.save_checkpoint`` (each rank writes its shards under ``save_dir/tag``)."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    found: list[tuple[ast.expr, str]] = []
    if name == "save_checkpoint" and isinstance(func, ast.Attribute):
        tag = kw.get("tag", call.args[1] if len(call.args) > 1 else None)
        if tag is not None:
            found.append((tag, "the checkpoint tag"))
        folder = kw.get("save_dir", call.args[0] if call.args else None)
        if folder is not None:
            found.append((folder, "the checkpoint directory"))
    elif name == "save_state" and isinstance(func, ast.Attribute) and call.args:
        found.append((call.args[0], "the checkpoint directory"))
    elif name in _ARGUMENTS and "output_dir" in kw:
        found.append((kw["output_dir"], "the output directory"))
    return found


@register
class PerProcessDrawNamesCheckpoint(Rule):
    code = "PF341"
    needs_text = ("save_checkpoint", "output_dir", "save_state")
    name = "per-process-draw-names-checkpoint"
    severity = Severity.ERROR
    category = Category.CORRECTNESS
    frameworks = ("deepspeed", "transformers", "accelerate")
    summary = ("A checkpoint tag or output directory built from a value each process draws itself (`uuid4()`, "
               "`time.strftime`, `datetime.now()`) in a multi-process job: the ranks save into different places")
    explanation = """
## What it finds

In a file that runs under several processes (DeepSpeed `initialize` or a `deepspeed=`
config, `init_process_group`, `Accelerator`, DDP), a value drawn per process (`uuid.uuid4()`,
`time.time()`, `time.strftime(...)`, `datetime.now()`, `os.getpid()`) that reaches the
`tag` or the directory of `engine.save_checkpoint` (either one: a tag every rank shares does
not help when the directory it goes under is each rank's own clock), `accelerator.save_state(dir)`,
or `TrainingArguments(output_dir=...)`. The finding is on the statement that draws it.

## Why it matters

Each rank draws its own value: ranks that reach the save in different seconds, or that
draw different uuids, write their model and ZeRO optimizer shards into different
directories. No directory holds a complete checkpoint; on resume the ranks disagree on
whether there is one to load and the job hangs or crashes (DeepSpeed PR 667: a tag from
each rank's clock, DeepSpeed 0.9.5 only warns about the mismatch; transformers issue
28270: a per-process uuid in the output directory under 8 DeepSpeed ranks; OpenTau PR 396: a
run directory from each rank's `datetime.now()`, fixed by broadcasting rank 0's).

## How to fix it

Use a value every rank agrees on: `tag=f"global_step{engine.global_steps}"`, a run name
from the launcher's environment, a `uuid5` of the run name, or a value drawn on rank 0 and
broadcast (`torch.distributed.broadcast_object_list`).

## When preflight stays silent

* Deterministic values (`uuid.uuid5(...)`, the step counter, an environment variable).
* The drawn value goes through `broadcast_object_list`/`broadcast` (rank 0's value wins).
* The file shows no multi-process run (a single-process script may name its runs by time).
"""
    bad_examples = examples("preflight.rules.code._pf341_examples", "PF341_BAD")
    good_examples = examples("preflight.rules.code._pf341_examples", "PF341_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = ctx.parsed.source.text
        if not any(d in text for d in _DISTRIBUTED) or "broadcast" in text:
            return
        module_taint: dict[str, ast.AST] = {}
        seen: set[int] = set()
        for index, body in enumerate(_scopes(ctx.tree)):
            taint: dict[str, ast.AST] = dict(module_taint) if index else {}
            nodes = sorted((n for n in _walk_scope(body) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.Call))),
                           key=lambda n: (n.lineno, n.col_offset))
            for node in nodes:
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    drawn_at: Optional[ast.AST] = node if _draw(node.value) is not None else next(
                        (taint[n.id] for n in ast.walk(node.value) if isinstance(n, ast.Name) and n.id in taint),
                        None)
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
                            if drawn_at is not None:
                                taint[name] = drawn_at
                            else:
                                taint.pop(name, None)
                elif isinstance(node, ast.Call):
                    reached = [(expr, what, node if _draw(expr) is not None else next(
                        (taint[n.id] for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id in taint), None))
                        for expr, what in _sinks(node)]
                    what, origin = next(((w, o) for _, w, o in reached if o is not None), ("", None))
                    if origin is None or id(origin) in seen:
                        continue
                    seen.add(id(origin))
                    drawn = _draw(origin)
                    shown = ast.unparse(drawn.func) if drawn is not None else "a per-process value"
                    yield ctx.finding(
                        self, origin,
                        f"`{shown}()` is drawn separately in every process and becomes {what} of "
                        f"`{ast.unparse(node.func)}` (line {node.lineno}) in a multi-process job: the ranks save "
                        "their shards into different places, no directory holds a complete checkpoint, and on "
                        "resume they disagree on what to load. Use a value every rank shares (the step counter, "
                        "a run name from the environment, `uuid5`), or broadcast rank 0's value",
                        evidence=[ctx.evidence(node, f"{what} comes from the drawn value")])
            if index == 0:
                module_taint = taint
