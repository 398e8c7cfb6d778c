"""Configs the launch line names that the script never reads for the flags given.

A launcher-named config is evidence about the job only when the code that reads it runs.
FunAudioLLM/CosyVoice @ ace7c47 ``examples/libritts/cosyvoice2/run.sh:71-91`` passes
``--train_engine torch_ddp ... --deepspeed_config ./conf/ds_stage2.json`` to
``cosyvoice/bin/train.py``; the script opens the JSON only in the ``else`` arm of ``if
args.train_engine == "torch_ddp"`` (``cosyvoice/utils/train_utils.py:73-76``) and calls
``deepspeed.initialize(args=args, ...)`` (which reads ``args.deepspeed_config`` itself) only under
``if args.train_engine == "deepspeed"`` (``:133-136``): with the flags given the job is plain DDP
and the JSON's ZeRO stage, accumulation, optimizer and precision are not the job's.

A config named by ``--flag PATH`` after the script is *unread* when every place that reads the
option, in the entry script and the project modules it imports, sits under an ``if``/conditional
test decided false for the job's options (:meth:`ScriptIndex.truth` with the options the entry's
parser declares). A read is ``<any>.dest`` (``args.deepspeed_config``), ``getattr(x, "dest")``,
and, for DeepSpeed's own ``--deepspeed_config``/``--deepspeed`` flags, a ``deepspeed.initialize``
call given ``args`` (the engine opens ``args.deepspeed_config``). A ``*Trainer(...)`` call counts
as a read too (the HF Trainer reads ``TrainingArguments.deepspeed``). No read found, a read under
an undecided test, or a live read: the config stays evidence. Nothing is imported or run.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Optional

from preflight.adapters_api import Project
from preflight.analysis.syntax import dotted_name
from preflight.script_index import Guard, ScriptIndex
from preflight.sources import ParsedPython, SourceText, parse_python, read_source

_MAX_BYTES = 500_000
_MAX_MODULES = 24
_DEEPSPEED_DESTS = ("deepspeed_config", "deepspeed")
_CACHE = "launch_config_reads"


def _walk(node: ast.AST) -> list[tuple[ast.AST, tuple[Guard, ...]]]:
    """Every node with the ``if``/conditional-expression tests around it."""
    from preflight.adapters.guarded import _walk as walk

    return list(walk(node))


def _flag_values(args: list[str]) -> list[tuple[str, str]]:
    """(flag, value) of each ``--flag value`` / ``--flag=value`` in the script's arguments."""
    out: list[tuple[str, str]] = []
    for k, tok in enumerate(args):
        if not tok.startswith("--") or len(tok) < 3:
            continue
        flag, eq, value = tok.partition("=")
        if not eq:
            if k + 1 >= len(args) or args[k + 1].startswith("-"):
                continue
            value = args[k + 1]
        out.append((flag, value))
    return out


def _same(value: str, config_path: str, root: Path) -> bool:
    target = os.path.realpath(config_path)
    return any(os.path.realpath(cand) == target for cand in (value, os.path.join(str(root), value)))


def _modules(project: Project, script: ParsedPython, entry: ScriptIndex) -> list[tuple[ParsedPython, ScriptIndex]]:
    """The entry script and the project modules it imports (beside it, or packages of the
    repository), each with an index that reads the entry's options."""
    from preflight.adapters.guarded_helpers import project_modules
    from preflight.adapters.pytorch_local import _imported_local

    out = [(script, entry)]
    path = Path(str(script.source.path))
    if not path.is_file():
        return out
    found: list[Path] = []
    for cand in [*_imported_local(script.tree, path.resolve().parent), *project_modules(script.tree, path)]:
        if cand.resolve() not in found and cand.resolve() != path.resolve():
            found.append(cand.resolve())
    root = str(Path(project.root).resolve())
    for local in found[:_MAX_MODULES]:
        try:
            if not project.may_read(local) or local.stat().st_size > _MAX_BYTES:
                continue
        except OSError:
            continue
        try:
            shown = os.path.relpath(local, root)
        except ValueError:
            shown = str(local)
        source = read_source(local, shown, "python")
        if not isinstance(source, SourceText):
            continue
        parsed = parse_python(source)
        if not isinstance(parsed, ParsedPython):
            continue
        idx = ScriptIndex(parsed)
        idx.options = entry.options
        out.append((parsed, idx))
    return out


def _reads_option(call: ast.Call, dest: str) -> bool:
    """``getattr(x, "dest")``; ``deepspeed.initialize(args=...)`` (the engine opens
    ``args.deepspeed_config``); a ``*Trainer(...)`` (the HF Trainer reads ``args.deepspeed``)."""
    name = dotted_name(call.func) or ""
    last = name.rsplit(".", 1)[-1]
    if last == "getattr":
        return len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) and call.args[1].value == dest
    if dest in _DEEPSPEED_DESTS and name.endswith("deepspeed.initialize"):
        return bool(call.args) or any(k.arg == "args" for k in call.keywords)
    return last.endswith("Trainer") and bool(call.args or call.keywords)


def _reads(tree: ast.AST, dest: str) -> list[tuple[ast.AST, tuple[Guard, ...]]]:
    out: list[tuple[ast.AST, tuple[Guard, ...]]] = []
    for node, guards in _walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == dest and isinstance(node.ctx, ast.Load)) \
                or (isinstance(node, ast.Call) and _reads_option(node, dest)):
            out.append((node, guards))
    return out


def _live(idx: ScriptIndex, guards: tuple[Guard, ...]) -> Optional[bool]:
    state: Optional[bool] = True
    for test, in_body in guards:
        value = idx.truth(test)
        if value is None:
            state = None
        elif value != in_body:
            return False
    return state


def unread_launch_configs(project: Project) -> dict[str, str]:
    """realpath of a config the launch line names -> why the job does not read it (the flag and
    the test that keeps each read from running). Computed once per audit."""
    cached = project.cache.get(_CACHE)
    if isinstance(cached, dict):
        return cached
    out: dict[str, str] = {}
    project.cache[_CACHE] = out
    if not project.argv or not project.configs:
        return out
    for script in project.scripts:
        args = project.script_args(script)
        named = [(flag, src) for flag, value in _flag_values(args)
                 for src, _ in project.configs if _same(value, str(src.path), Path(project.root))]
        if not named:
            continue
        entry = project.index(script)
        modules = _modules(project, script, entry)
        for flag, src in named:
            why = _unread(modules, flag[2:].replace("-", "_"))
            if why is not None:
                out[os.path.realpath(str(src.path))] = f"{flag} {src.display}: {why}"
    return out


def _unread(modules: list[tuple[ParsedPython, ScriptIndex]], dest: str) -> Optional[str]:
    """Why no read of option ``dest`` runs, or None (one may run, or none was found)."""
    dead: list[str] = []
    for parsed, idx in modules:
        for node, guards in _reads(parsed.tree, dest):
            if _live(idx, guards) is not False:
                return None
            test, body = next(((t, b) for t, b in guards if idx.truth(t) is (not b)), (None, True))
            arm = "" if test is None else f" (in the {'body' if body else 'else arm'} of `if {ast.unparse(test)}`)"
            dead.append(f"{parsed.source.display}:{getattr(node, 'lineno', '?')}{arm}")
    if not dead:
        return None
    return ("every read of the option is in a branch the job's flags do not take: " + "; ".join(dead[:4])
            + "; the config is not the job's (not read for the plan)")
