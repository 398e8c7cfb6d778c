"""PF126 ddp-load-without-map-location: every DDP process reloads the script's own GPU checkpoint with
``torch.load`` and no ``map_location``; the tensors go back to the GPU they were saved from (cuda:0)."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import kwarg, qualify
from preflight.rules.base import Rule, examples

_DDP = frozenset({"torch.distributed.init_process_group", "torch.nn.parallel.DistributedDataParallel",
                  "torch.nn.parallel.distributed.DistributedDataParallel"})
_RESUME = re.compile(r"resume|snapshot|checkpoint|ckpt|latest", re.IGNORECASE)
# loads of things that are not the script's GPU weights: data, caches, scaler/RNG states, pretrained files
_NOT_OURS = re.compile(r"pretrain|imagenet|init_|teacher|vocab|token|embedding|data|feature|cache|buffer|scaler|rng"
                       r"|args\.bin|ARGS_NAME|stats", re.IGNORECASE)
_RANK_TEST = re.compile(r"rank|main|master", re.IGNORECASE)
# identifiers too generic to tie a load to a save
_GENERIC = frozenset({"os", "path", "join", "f", "fp", "fh", "self", "args", "opt", "opts", "cfg", "config", "conf",
                      "hparams", "params", "str", "format", "Path", "file", "filename", "fname", "dir", "output_dir",
                      "save_dir", "root", "name"})


def _identifiers(node: ast.AST) -> set[str]:
    out = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
    return out - _GENERIC


def _path_arg(call: ast.Call, index: int, name: str) -> Optional[ast.AST]:
    return call.args[index] if len(call.args) > index else kwarg(call, name)


@register
class DdpLoadWithoutMapLocation(Rule):
    code = "PF126"
    name = "ddp-load-without-map-location"
    severity = Severity.WARNING
    category = Category.MEMORY
    needs_text = ("torch.load",)
    summary = "Every DDP process torch.loads the script's GPU checkpoint without map_location: all copies land on cuda:0"
    explanation = """
## What it finds

In a script that starts DDP (`init_process_group`, `DistributedDataParallel`) and writes its own
checkpoints with `torch.save` (an object holding a `state_dict()`), a `torch.load(path)` without
`map_location` that reads one of them back (the path shares a name with such a save's path, or
the load is a resume: a `resume`/`snapshot`/`checkpoint`/`ckpt` path or function) and is not
restricted to rank 0.

## Why it matters

`torch.load` first deserialises storages on the CPU and then moves each one to the device it
was saved from (PyTorch `torch.load` docs, `map_location`). A checkpoint written by rank 0 of a
GPU job holds `cuda:0` tensors, so every process that loads it allocates a full copy on GPU 0
(and creates a CUDA context there), whatever `torch.cuda.set_device` says: GPU 0 carries one
copy per process and runs out of memory first, or its memory use stays far above the others
(pytorch/examples#1078: "It can be solved by adding a parameter map_location"; the maintainer:
"We should always use map_location in torch.load()").

## How to fix it

`torch.load(path, map_location=f"cuda:{local_rank}")`, or `map_location="cpu"` and let
`load_state_dict` copy into the parameters.

## When preflight stays silent

* `map_location` is given (keyword or second argument), or the same path is also loaded with
  one (a per-GPU branch beside a CPU-only branch).
* The file neither starts DDP nor saves a `state_dict()`, or the load cannot be tied to the
  script's checkpoints (pretrained weights, data and feature caches, vocabularies, scaler and
  RNG states, saved arguments).
* The load sits under a rank test (`if rank == 0:`): only one process reads it.
* The load is in a test function or class (`test_*`, `Test*`).
"""
    bad_examples = examples("preflight.rules.code._pf126_examples", "PF126_BAD")
    good_examples = examples("preflight.rules.code._pf126_examples", "PF126_GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        loads, saves, ddp = [], [], False
        for call in ctx.nodes(ast.Call):
            qual = qualify(ctx, call.func)
            if qual == "torch.load":
                loads.append(call)
            elif qual == "torch.save":
                saves.append(call)
            elif qual in _DDP:
                ddp = True
        if not (ddp and loads and saves):
            return
        bound: dict[str, list[ast.AST]] = {}
        for node in ctx.nodes(ast.Assign):
            for tgt in node.targets:
                if isinstance(tgt, ast.Name):
                    bound.setdefault(tgt.id, []).append(node.value)
        saved_names: set[str] = set()
        for call in saves:
            obj, path = _path_arg(call, 0, "obj"), _path_arg(call, 1, "f")
            if obj is None or path is None:
                continue
            values = bound.get(obj.id, []) if isinstance(obj, ast.Name) else [obj]
            if any("state_dict" in ast.unparse(v) for v in values):
                saved_names |= _identifiers(path) | {"<state>"}
        if not saved_names:
            return  # the script saves no model or optimizer state
        mapped = {ast.unparse(p) for c in loads
                  if (len(c.args) > 1 or kwarg(c, "map_location") is not None)
                  for p in [_path_arg(c, 0, "f")] if p is not None}
        for call in loads:
            if len(call.args) > 1 or kwarg(call, "map_location") is not None:
                continue
            path = _path_arg(call, 0, "f")
            if path is None or ast.unparse(path) in mapped:
                continue
            fn = ctx.enclosing_function(call)
            fn_name = getattr(fn, "name", "")
            if any(getattr(a, "name", "").lower().startswith("test") for a in ctx.ancestors(call)
                   if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))):
                continue  # a unit test in a file whose other tests start process groups
            text = ast.unparse(path)
            if _NOT_OURS.search(text) or any(
                    isinstance(a, ast.If) and _RANK_TEST.search(ast.unparse(a.test)) for a in ctx.ancestors(call)):
                continue
            ours = _identifiers(path) & (saved_names - {"<state>"})
            if not ours and not (_RESUME.search(text) or _RESUME.search(fn_name)):
                continue
            yield ctx.finding(
                self, call,
                f"every DDP process runs `torch.load({text})` without `map_location`: the checkpoint this script "
                f"saves from the GPU holds cuda:0 tensors, and torch.load puts each tensor back on the device it "
                f"was saved from, so every process allocates its copy on GPU 0 (and a CUDA context there). Pass "
                f"`map_location=f\"cuda:{{local_rank}}\"` or `map_location=\"cpu\"`")
