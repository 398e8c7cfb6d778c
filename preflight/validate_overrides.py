"""Config values set again after the file is read: by the launch line, or by the project's code.

``accelerate launch --config_file cfg.yaml --mixed_precision bf16 train.py``: accelerate takes a
value from the config file only for an option the line leaves unset (``_validate_launch_command``
copies ``defaults.<key>`` into ``args`` only where ``args.<key>`` is None; ``mixed_precision``
only when ``--mixed_precision`` is not given). dvlab-research/Step-DPO's
``accelerate_configs/deepspeed_zero3.yaml`` has ``mixed_precision: no`` (the YAML 1.1 boolean
false) and every launch of the project passes ``--mixed_precision bf16``.

``model_args, data_args, training_args = parser.parse()`` followed at once by
``training_args.do_eval = False`` (uclaml/SPPO ``sppo/run_sppo.py:164-165``): the YAML's
``do_eval`` is never used.

A problem on a top-level key that is set again this way is a latent trap, not a failure of the
project's runs: ``validate`` reports it as a note naming the line that sets it. Launch lines are
read as text from the project's launch scripts and docs (``.sh``, ``.slurm``, ``.md``, ...), the
code with ``ast``: nothing is run, no variable is expanded. A line that names the file through a
variable (``--config_file $CFG``) is not counted, one naming line without the option keeps the
problem, and only a reassignment in the same function body as the parse, not under an ``if``,
counts. Bounded like :mod:`preflight.validate_project`.
"""

from __future__ import annotations

import ast
import os
import shlex
from pathlib import Path
from typing import Any, Optional, Sequence

from preflight.analysis.syntax import walk  # ast.walk's nodes in its order, faster
from preflight.config_cache import recorded_memo
from preflight.validate_project import project_files, project_root

# files that hold launch lines: shell scripts, scheduler scripts and the docs that show the command
_SUFFIXES = (".sh", ".bash", ".zsh", ".slurm", ".sbatch", ".pbs", ".job", ".md", ".rst", ".txt")

Launch = tuple[str, int, str, frozenset[str]]  # (file relative to the root, line, --config_file value, options)
_ACCELERATE = ("accelerate", "accelerate-sagemaker")
_HF_ARGS = ("training-args", "sft-config")
# HfArgumentParser's readers (and alignment-handbook's H4ArgumentParser.parse): their results
# are the argument dataclasses the YAML/JSON file fills
_PARSES = frozenset({"parse", "parse_args_into_dataclasses", "parse_yaml_file", "parse_json_file", "parse_dict",
                     "parse_args_and_config"})


def overrides_for(config_path: Path, targets: Sequence[Any], launches: bool = True) -> dict[str, dict[str, str]]:
    """Per target kind, the top-level keys of the file whose value is set again after it is read,
    each with the reason to append to a problem on it (empty when none)."""
    out: dict[str, dict[str, str]] = {}
    kinds = {t.kind for t in targets}
    if launches and kinds & set(_ACCELERATE):
        why = {key: (f"not read by this project's launches: every `accelerate launch` line naming this file "
                     f"passes --{key} ({where}), which accelerate uses instead")
               for key, where in overridden_keys(config_path).items()}
        for kind in _ACCELERATE:
            out[kind] = why
    if kinds & set(_HF_ARGS):
        root = project_root(config_path)
        sets = _reassigned_under(str(root)) if root is not None else ()
        why = {attr: (f"not used: the project's code sets {target} itself right after parsing ({where}), "
                      f"so the file's value never reaches training") for attr, target, where in sets}
        for kind in _HF_ARGS:
            out[kind] = why
    return out


def launch_options(tokens: Sequence[str]) -> tuple[Optional[str], frozenset[str]]:
    """``(config file, options)`` of one ``accelerate launch`` command given as tokens: the
    ``--config_file`` value (None when absent) and the names of the options before the training
    script (``--mixed_precision`` -> ``mixed_precision``; accelerate reads ``-`` and ``_`` alike).
    ``(None, frozenset())`` when the tokens are not an ``accelerate launch`` command."""
    start = _launch_start(tokens)
    if start is None:
        return None, frozenset()
    config: Optional[str] = None
    names: set[str] = set()
    k = start
    while k < len(tokens):
        tok = tokens[k]
        if tok in ("-m", "--module") or not tok.startswith("-"):
            break  # the training script (or module): what follows is the script's own
        name, eq, value = tok.lstrip("-").partition("=")
        name = name.replace("-", "_")
        names.add(name)
        if name == "config_file":
            if eq:
                config = value
            elif k + 1 < len(tokens):
                config = tokens[k + 1]
                k += 1
        elif not eq and k + 1 < len(tokens) and not tokens[k + 1].startswith("-") \
                and not tokens[k + 1].endswith(".py"):
            k += 1  # the option's value
        k += 1
    names.discard("config_file")
    return config, frozenset(names)


def _launch_start(tokens: Sequence[str]) -> Optional[int]:
    for k in range(len(tokens) - 1):
        if tokens[k].rsplit("/", 1)[-1] == "accelerate" and tokens[k + 1] == "launch":
            return k + 2
    for k in range(len(tokens) - 2):  # python -m accelerate.commands.launch
        if tokens[k] == "-m" and tokens[k + 1] in ("accelerate.commands.launch", "accelerate.commands.accelerate_cli"):
            return k + 2 + (tokens[k + 2] == "launch")
    return None


def names_file(value: str, config_path: Path) -> bool:
    """Whether a launch line's ``--config_file`` value names the file at ``config_path``."""
    if os.path.isabs(value):
        try:
            return Path(value).resolve() == config_path.resolve()
        except (OSError, ValueError):
            return False
    rel = _relative(config_path)
    return rel is not None and _names(value, rel)


def _relative(config_path: Path) -> Optional[tuple[str, ...]]:
    """The file's path parts relative to its project's root (or its own folder's parts)."""
    root = project_root(config_path)
    try:
        path = config_path.resolve()
        return Path(os.path.relpath(path, root.resolve())).parts if root is not None else path.parts
    except (OSError, ValueError):
        return None


def overridden_keys(config_path: Path) -> dict[str, str]:
    """The top-level accelerate keys that every launch line of the config's project naming this
    file passes on the command line, each with the first such line (``path:line``). Empty when
    no readable line names the file."""
    root = project_root(config_path)
    rel = _relative(config_path)
    if root is None or rel is None:
        return {}
    naming = [launch for launch in _launches_under(str(root)) if _names(launch[2], rel)]
    if not naming:
        return {}
    common = frozenset.intersection(*(launch[3] for launch in naming))
    first = naming[0]
    return {key: f"{first[0]}:{first[1]}" for key in sorted(common)}


def _names(value: str, rel: tuple[str, ...]) -> bool:
    """Whether a ``--config_file`` value names the file at ``rel`` (parts relative to the project
    root): its literal trailing parts match, leading ``./``/``../`` and parts holding a variable
    dropped (``$ROOT/configs/x.yaml`` names ``configs/x.yaml``)."""
    parts = [p for p in value.replace("\\", "/").split("/") if p not in ("", ".")]
    while parts and (parts[0] == ".." or "$" in parts[0] or "{" in parts[0]):
        parts.pop(0)
    if not parts or any("$" in p for p in parts):
        return False
    return len(parts) <= len(rel) and tuple(parts) == rel[len(rel) - len(parts):]


@recorded_memo
def _launches_under(root: str) -> tuple[Launch, ...]:
    out: list[Launch] = []
    for path, text in project_files(root, _SUFFIXES):
        if "launch" not in text or "config" not in text:
            continue
        for line, command in _joined(text.splitlines()):
            if "launch" not in command:
                continue
            config, options = launch_options(_tokens(command))
            if config is not None:
                out.append((os.path.relpath(path, root), line, config, options))
    return tuple(out)


def _joined(lines: list[str]) -> list[tuple[int, str]]:
    """Backslash-continued lines joined: (first line number, text)."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for n, raw in enumerate(lines, 1):
        if not buf:
            start = n
        stripped = raw.rstrip()
        if stripped.endswith("\\"):
            buf.append(stripped[:-1])
            continue
        buf.append(raw)
        out.append((start, " ".join(b.strip() for b in buf)))
        buf = []
    if buf:
        out.append((start, " ".join(b.strip() for b in buf)))
    return out


def _tokens(command: str) -> list[str]:
    try:
        return shlex.split(command, comments=True)
    except ValueError:  # an unbalanced quote (a doc's prose): words are enough to find the options
        return command.split()


@recorded_memo
def _reassigned_under(root: str) -> tuple[tuple[str, str, str], ...]:
    """``(field, "name.field", "path:line")`` for each field that a function of the project
    assigns, unconditionally, to an argument dataclass right after parsing it (the first such
    place per field is named). Any entry of the project counts: a YAML that another entry reads
    without the reassignment keeps only a note."""
    found: dict[str, tuple[str, str, str]] = {}
    for path, text in project_files(root, (".py",)):
        if "parse" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        rel = os.path.relpath(path, root)
        for attr, target, line in _reassigned(tree):
            found.setdefault(attr, (attr, target, f"{rel}:{line}"))
    return tuple(sorted(found.values()))


def _reassigned(tree: ast.AST) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    bodies = [tree.body] if isinstance(tree, ast.Module) else []
    bodies += [n.body for n in walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for body in bodies:
        parsed: set[str] = set()
        for stmt in body:
            if isinstance(stmt, ast.Assign) and _is_parse(stmt.value):
                for target in stmt.targets:
                    elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                    parsed |= {e.id for e in elts if isinstance(e, ast.Name)}
                continue
            if not parsed or not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
                continue
            target = stmt.targets[0]
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id in parsed and not _reads(stmt.value, target.attr):
                out.append((target.attr, f"{target.value.id}.{target.attr}", stmt.lineno))
    return out


def _is_parse(value: ast.AST) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _PARSES


def _reads(value: ast.AST, attr: str) -> bool:
    """Whether the new value reads the field itself (``x.f = x.f and y`` keeps the file's value)."""
    return any(isinstance(n, ast.Attribute) and n.attr == attr for n in walk(value))
