"""Scripts configured by Python globals and override files (nanoGPT's "poor man's
configurator": ``python train.py config/train_gpt2.py --batch_size=32``, where the script
``exec``s the override file and ``--key=value`` arguments over its module globals).

Nothing is executed: the script's module-level literal assignments are the defaults, each
``*.py`` override file named on the command line is read for its literal assignments (in
order), then ``--key=value`` arguments (``literal_eval`` or the text). The resulting
globals give ``batch_size``, ``gradient_accumulation_steps`` (divided by the world size when
the script does ``gradient_accumulation_steps //= ...`` under DDP), ``block_size``,
``init_from`` (a GPT-2 checkpoint name) or ``n_layer``/``n_embd`` (a parameter count with the
script's fallback vocabulary of 50304; where the dataset's ``prepare.py`` writes ``meta.pkl``,
the vocabulary comes from the data, is not knowable statically, and its embedding is left out
of the count, said in the detail), ``dtype`` with the autocast context, and ``compile``. Facts
are ``medium``; the parameter count is ``low``.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import ParsedPython, read_text_limited

_DTYPES = {"bfloat16": "amp_bf16", "float16": "amp_fp16", "float32": "fp32"}
_MAX_BYTES = 500_000


def _uses_configurator(tree: ast.Module) -> Optional[int]:
    """Line of a module-level ``exec(open(...).read())``, or None."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) \
                and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "exec":
            return stmt.lineno
    return None


_NOT = object()
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.FloorDiv: lambda a, b: a // b}


def _constant(node: ast.AST) -> Any:
    """A literal, or integer arithmetic over literals (``5 * 8``); else ``_NOT``."""
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        pass
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _constant(node.left), _constant(node.right)
        if all(isinstance(x, int) and not isinstance(x, bool) for x in (left, right)) \
                and not (isinstance(node.op, ast.FloorDiv) and right == 0) and abs(left) < 10**9 and abs(right) < 10**9:
            return _OPS[type(node.op)](left, right)
    return _NOT


def _literal_assignments(tree: ast.Module, before: Optional[int] = None) -> dict[str, tuple[Any, int, ast.AST]]:
    out: dict[str, tuple[Any, int, ast.AST]] = {}
    for stmt in tree.body:
        if before is not None and stmt.lineno >= before:
            break
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            value = _constant(stmt.value)
            if value is _NOT:
                value = stmt.value  # kept as a node (e.g. a conditional expression)
            out[stmt.targets[0].id] = (value, stmt.lineno, stmt.value)
    return out


@register_adapter
class PyConfigAdapter(Adapter):
    name = "pyconfig"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(_uses_configurator(s.tree) is not None for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            line = _uses_configurator(script.tree)
            if line is not None:
                self.script(project, plan, script, line)

    def script(self, project: Project, plan: TrainingPlan, script: ParsedPython, exec_line: int) -> None:
        display = str(script.source.display)
        values: dict[str, tuple[Any, Source]] = {}
        for name, (value, line, _node) in _literal_assignments(script.tree, exec_line).items():
            values[name] = (value, Source("code", display, line, name, f"{name} = ... (script global)"))
        args = project.script_args(script)
        base = Path(str(script.source.path)).resolve().parent
        for arg in args:
            if "=" not in arg and arg.endswith(".py"):
                path = Path(arg) if Path(arg).is_absolute() else base / arg
                if not path.is_file():
                    path = project.root / arg
                if not path.is_file() or not project.may_read(path) or path.stat().st_size > _MAX_BYTES:
                    self.note(plan, f"override file {arg} not found; not read")
                    continue
                try:
                    tree = ast.parse(read_text_limited(path, errors="replace"))
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    self.note(plan, f"override file {arg} does not parse; not read")
                    continue
                shown = os.path.relpath(path, project.root)
                for name, (value, line, _node) in _literal_assignments(tree).items():
                    values[name] = (value, Source("config", shown, line, name, f"override file {arg}"))
            elif arg.startswith("--") and "=" in arg:
                key, _, text = arg[2:].partition("=")
                try:
                    value = ast.literal_eval(text)
                except (ValueError, SyntaxError):
                    value = text
                values[key] = (value, Source("cli", None, None, f"--{key}", f"{arg} (configurator override)"))
        self.facts(project, plan, script, values)

    def facts(self, project: Project, plan: TrainingPlan, script: ParsedPython,
              values: dict[str, tuple[Any, Source]]) -> None:
        def get(name: str, kind: type) -> Optional[tuple[Any, Source]]:
            item = values.get(name)
            if item is None or (isinstance(item[0], bool) and kind is not bool) or not isinstance(item[0], kind):
                return None
            return item

        def add(field: str, value: Any, source: Source, confidence: str = "medium") -> None:
            self.add_checked(plan, field, value, source, confidence)

        micro = get("batch_size", int)
        if micro:
            add("batch.micro", micro[0], micro[1])
        accum = get("gradient_accumulation_steps", int)
        if accum:
            divided = any(isinstance(n, ast.AugAssign) and isinstance(n.op, ast.FloorDiv)
                          and isinstance(n.target, ast.Name) and n.target.id == "gradient_accumulation_steps"
                          for n in ast.walk(script.tree))
            world = plan.value("dist.world_size")
            if divided and isinstance(world, int) and world > 1 and accum[0] % world == 0:
                s = accum[1]
                add("batch.grad_accum", accum[0] // world,
                    Source("derived", s.path, s.line, s.key, f"{accum[0]} // world size {world}: the script divides "
                                                             "the accumulation over the DDP ranks"))
            elif not divided or world == 1 or self.single_process(project):
                add("batch.grad_accum", accum[0], accum[1])
        block = get("block_size", int)
        init = get("init_from", str)
        if block:
            add("data.seq_len", block[0], block[1])
        if init and init[0].startswith("gpt2"):
            add("model.ref", init[0], init[1])
        elif init and init[0] == "scratch":
            layers, embd = get("n_layer", int), get("n_embd", int)
            dataset = get("dataset", str)
            data_name = dataset[0] if dataset else ""
            prepare = Path(str(script.source.path)).resolve().parent / "data" / data_name / "prepare.py"
            from_data = bool(dataset and os.path.isfile(prepare)
                             and "meta.pkl" in read_text_limited(prepare, errors="replace"))
            if from_data:
                self.note(plan, f"dataset {data_name}: its prepare.py writes meta.pkl with the vocabulary size, "
                                "so the vocabulary embedding depends on the data (not counted; the 50304 "
                                "fallback applies only when meta.pkl is absent)")
            if layers and embd:
                vocab = 0 if from_data else 50304
                params = 12 * layers[0] * embd[0] ** 2 + vocab * embd[0] + (block[0] if block else 1024) * embd[0]
                why = (f"the vocabulary embedding is not counted: data/{data_name}/prepare.py writes meta.pkl, "
                       "whose vocab_size the script reads (known only from the data)" if from_data else
                       "vocab 50304 (the script's default; a dataset meta.pkl changes it)")
                add("model.num_parameters", params,
                    Source("derived", layers[1].path, layers[1].line, "n_layer",
                           f"12*n_layer*n_embd^2 + vocab*n_embd + block_size*n_embd with n_layer={layers[0]}, "
                           f"n_embd={embd[0]}; {why}"),
                    "low")
        dtype = values.get("dtype")
        if dtype is not None and "autocast" in script.source.text:
            value, source = dtype
            if isinstance(value, str) and value in _DTYPES:
                add("precision.mode", _DTYPES[value], source)
            elif isinstance(value, ast.IfExp) and isinstance(value.body, ast.Constant) \
                    and value.body.value in _DTYPES and "bf16_supported" in ast.dump(value.test):
                add("precision.mode", _DTYPES[value.body.value],
                    Source(source.kind, source.path, source.line, source.key,
                           f"{value.body.value} where the GPU supports it (Ampere or newer), else "
                           f"{getattr(value.orelse, 'value', '?')}"))
        compiled = get("compile", bool)
        if compiled is not None:
            add("compile.enabled", compiled[0], compiled[1])

    def single_process(self, project: Project) -> bool:
        from preflight.adapters.launchers import parse_launch

        info = parse_launch(project.argv)
        return info.launcher in (None, "python") and info.wrapper is None
