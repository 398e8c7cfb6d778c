"""PF197 deepspeed-load-without-latest-file: the engine's ``load_checkpoint(dir)`` without a ``tag`` on a folder
that has no ``latest`` file (a ``global_step*`` tag folder itself, or checkpoints saved with
``save_latest=False``): DeepSpeed logs a warning, returns ``(None, None)`` and the run trains from scratch."""

from __future__ import annotations

import ast
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules.base import Rule, examples
from preflight.rules.plan._deepspeed_engines import engine_names_in

_TAG_WORDS = ("global_step",)
_FILE_ENDINGS = (".pt", ".pth", ".bin", ".ckpt", ".safetensors", ".tar", ".pkl")


def _kwarg(call: ast.Call, name: str) -> Optional[ast.expr]:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def _names_tag_folder(node: ast.AST) -> bool:
    """The path expression spells a DeepSpeed tag folder (``.../global_step1000``), not a file
    (``global_step_100.pth`` is some other loader's checkpoint file)."""
    texts = [sub.value for sub in ast.walk(node) if isinstance(sub, ast.Constant) and isinstance(sub.value, str)]
    if any(t.rstrip("/").endswith(_FILE_ENDINGS) for t in texts):
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str) \
                and any(w in sub.value for w in _TAG_WORDS):
            return True
    return False


def _saves_without_latest(ctx: FileContext) -> Optional[ast.Call]:
    for call in ctx.nodes(ast.Call):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "save_checkpoint":
            flag = _kwarg(call, "save_latest")
            if isinstance(flag, ast.Constant) and flag.value is False:
                return call
    return None


_EXIT_CALLS = ("exit", "quit", "_exit", "abort")


def _stops(nodes: Iterable[ast.stmt]) -> bool:
    """The statements raise or end the process (``raise``, ``sys.exit(...)``, ``os._exit(...)``)."""
    for stmt in nodes:
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Raise):
                return True
            if isinstance(sub, ast.Call):
                name = sub.func.attr if isinstance(sub.func, ast.Attribute) else \
                    sub.func.id if isinstance(sub.func, ast.Name) else ""
                if name in _EXIT_CALLS:
                    return True
    return False


def _result_checked(ctx: FileContext, call: ast.Call) -> bool:
    """The returned load path is bound and a failed load stops the job: ``assert load_path``, or an ``if``
    on it whose branch raises or exits. A test that only falls back (``if load_path is not None: epoch =
    ...``) keeps the silent restart from scratch, so it does not count."""
    parent = ctx.parent(call)
    if not isinstance(parent, ast.Assign) or len(parent.targets) != 1:
        return False
    target = parent.targets[0]
    first = target.elts[0] if isinstance(target, (ast.Tuple, ast.List)) and target.elts else target
    if not isinstance(first, ast.Name) or first.id == "_":
        return False
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Assert):
            test: ast.AST = node.test
        elif isinstance(node, ast.If) and (_stops(node.body) or _stops(node.orelse)):
            test = node.test
        else:
            continue
        if any(isinstance(n, ast.Name) and n.id == first.id for n in ast.walk(test)):
            return True
    return False


@register
class DeepSpeedLoadWithoutLatestFile(Rule):
    code = "PF197"
    needs_text = ("load_checkpoint",)
    name = "deepspeed-load-without-latest-file"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("deepspeed",)
    summary = ("The DeepSpeed engine's `load_checkpoint(dir)` without a `tag` on a folder with no `latest` file "
               "(a `global_step*` tag folder, or saves made with `save_latest=False`): it returns (None, None) "
               "and training silently restarts from scratch")
    explanation = """
## What it finds

A call `engine.load_checkpoint(path)` on a DeepSpeed engine with no `tag` (keyword or
second positional argument) where either

* the path spells a DeepSpeed tag folder itself (`os.path.join(out, f"global_step{n}")`,
  `"ckpt/global_step5000"`): DeepSpeed writes `latest` beside the tag folders, not inside
  them; or
* the same file saves with `engine.save_checkpoint(..., save_latest=False)`, so no
  `latest` file is ever written;

and the returned load path is not tested afterwards.

## Why it matters

Without a tag, `DeepSpeedEngine.load_checkpoint` reads `<load_dir>/latest` to find one.
When that file is missing it only logs "Unable to find latest file at ..., if trying to load
latest checkpoint please ensure this file exists or pass an explicit checkpoint tag" and
returns `(None, None)` (deepspeed/runtime/engine.py, `load_checkpoint`, every release since
0.3). Nothing is loaded: the resumed job starts again from the initial weights with a fresh
optimizer and schedule, and its step counter (if read from elsewhere) claims otherwise.
transformers issue 22170 ("resume_from_checkpoint is not working with Deepspeed ...
`deepspeed_engine.load_checkpoint` actually needs an argument called `tag` or you need have a
latest file"), tdrussell/diffusion-pipe issue 73 ("Unable to find latest file"); the
transformers integration now raises `Can't find a valid checkpoint` on a `None` load path for
this reason (PR 10760: "if a user expects to resume and it is not possible it should be
fatal").

## How to fix it

Pass the parent folder and the tag: `engine.load_checkpoint(out_dir, tag=f"global_step{n}")`,
or keep `save_latest=True` (the default); and check the result:
`load_path, client_state = engine.load_checkpoint(...)`, then
`if load_path is None: raise RuntimeError(...)`.

## When preflight stays silent

* A `tag` is passed, or the path is a plain folder the default `save_checkpoint` writes
  `latest` into.
* The returned load path is bound and a failed load stops the job (`assert load_path`, or
  `if load_path is None:` with a `raise` or `sys.exit`). A test that only falls back
  (`if load_path is not None: start_epoch = ...`) still restarts from scratch and is reported
  (held-out-48's resume case, from transformers issue 22170).
* `load_checkpoint` is called on something that is not a DeepSpeed engine in a file that
  never imports DeepSpeed (mmcv runners, Lightning, a project's own helper).
"""
    bad_examples = examples("preflight.rules.code._pf197_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf197_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        text = ctx.parsed.source.text or ""
        if "deepspeed" not in text.lower():
            return
        engines = {name for name, _ in engine_names_in(ctx.tree)}
        no_latest = _saves_without_latest(ctx)
        for call in ctx.nodes(ast.Call):
            func = call.func
            if not (isinstance(func, ast.Attribute) and func.attr == "load_checkpoint"):
                continue
            path = call.args[0] if call.args else _kwarg(call, "load_dir")
            if path is None or len(call.args) > 1 or _kwarg(call, "tag") is not None:
                continue
            receiver = ast.unparse(func.value)
            tag_folder = _names_tag_folder(path)
            if not tag_folder and not (no_latest is not None and receiver in engines):
                continue
            if not tag_folder and receiver not in engines:
                continue
            if _result_checked(ctx, call):
                continue
            if tag_folder:
                why = (f"`{ast.unparse(path)[:70]}` names a DeepSpeed tag folder, and DeepSpeed writes the "
                       "`latest` file beside the tag folders, not inside them")
                evidence = []
            else:
                why = "this file saves with `save_checkpoint(..., save_latest=False)`, so no `latest` file is written"
                evidence = [ctx.evidence(no_latest, "saved without a `latest` file here")] if no_latest else []
            yield ctx.finding(
                self, call,
                f"`{ast.unparse(call)[:90]}` passes no `tag`, so DeepSpeed looks for a `latest` file in that folder; "
                f"{why}. DeepSpeed then only logs \"Unable to find latest file\" and returns (None, None): nothing "
                "is loaded and the run trains from scratch. Pass the parent folder with `tag=...` and check that "
                "the returned load path is not None",
                evidence=evidence)
