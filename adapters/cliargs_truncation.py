"""A length option no name says is the training length, handed to the tokenizer that cuts each training sample:
``tokenizer(..., truncation=True, max_length=<option>)`` in the script or a local module it imports.

OpenLMLab/LOMO @ 45d4bac ``lomo/src/arguments.py:22`` ``data_max_length: int = field(default=1024)`` (an
``HfArgumentParser`` dataclass field, ``config/args_lomo.yaml:8``) -> ``src/mydatasets.py:60``
``self.tokenizer.encode(example, truncation=True, max_length=self.data_args.data_max_length)``; the same call
with ``data_args.max_seq_length`` / ``data_args.cutoff_len`` / ``data_args.block_size`` in many public training
scripts (found with the search tools), which the option names already give.

Read (never run) when no option named as a training length gave ``data.seq_len``: every call whose function name
holds ``tok`` and that passes ``truncation=True`` and ``max_length=<name or attribute>`` in the files read; when
they all name the same declared option (not one documented as a generation length) and its value is an int of at
least 16, that value is ``data.seq_len``, **low** and priority -1 (any other reading wins): a call may cut one part of a sample (a question, a prompt), and
whether that dataset is the one trained on is not read. Called by :mod:`preflight.adapters.cliargs`.
"""

from __future__ import annotations

import ast
from typing import Any

from preflight.analysis.syntax import dotted_name
from preflight.local_trees import script_and_imported_trees
from preflight.plan import Source


def _cut_lengths(tree: ast.AST) -> list[tuple[str, int]]:
    """(the option name handed as max_length, line) of each tokenizer call that truncates."""
    from preflight.adapters.cliargs_dead_reads import dead_nodes

    out: list[tuple[str, int]] = []
    dead = dead_nodes(tree)  # a closure the script never calls cuts no training sample
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or "tok" not in (dotted_name(node.func) or "").lower() or id(node) in dead:
            continue
        kws = {k.arg: k.value for k in node.keywords if k.arg is not None}
        cut, bound = kws.get("truncation"), kws.get("max_length")
        if not (isinstance(cut, ast.Constant) and cut.value is True) or bound is None:
            continue
        name = bound.attr if isinstance(bound, ast.Attribute) else bound.id if isinstance(bound, ast.Name) else None
        if name is not None:
            out.append((name, node.lineno))
    return out


def truncation_length(flags: Any, generated: Any, as_int: Any) -> None:
    if flags.plan.facts("data.seq_len"):
        return
    found: list[tuple[str, int, str]] = []
    for tree, path in script_and_imported_trees(flags.project, flags.script, flags.project.index(flags.script)):
        shown = path.name if path is not None else str(flags.script.source.display)
        found.extend((name, line, shown) for name, line in _cut_lengths(tree))
    names = {name for name, _, _ in found}
    if len(names) != 1:
        return
    name = next(iter(names))
    opt = flags.decl.options.get(name)
    if opt is None or generated.search(opt.help or ""):
        return
    got = flags.value(name)
    number = as_int(got[1]) if got is not None else None
    if got is None or number is None or number < 16:
        return
    src = got[2]
    _, line, shown = found[0]
    said = f"{src.detail}: " if src.detail else f"{name} "
    # priority -1: a fallback that any other reading of the length outranks
    flags.adapter.add_checked(flags.plan, "data.seq_len", number, Source(
        src.kind, src.path, src.line, src.key, f"{said}handed as max_length to a tokenizer call with "
        f"truncation=True ({shown}:{line}): each sample is cut to it"), "low", -1)
