"""A script that hands its own ``ArgumentParser`` to another function before parsing: the options that
function adds belong to the same parser (a two-stage argparse).

epfml/llm-baselines src/main.py:35-47: the script declares only ``--config_format``, then
``config.parse_args_with_format(format=..., base_parser=parser, ...)`` hands the parser to
``config/base.py``'s ``parse_args``, which adds ``--batch_size``, ``--acc_steps``, ``--dtype`` and the rest.
An attribute of the parsed namespace that the script's own ``add_argument`` calls do not declare is
then looked up among the options the project's modules declare (:mod:`preflight.adapters.cliargs`), not
taken as unknown."""

from __future__ import annotations

import ast
from typing import Any

from preflight.analysis.node_memo import node_memo
from preflight.analysis.syntax import dotted_name


def hands_parser_on(idx: Any) -> bool:
    """Whether a name bound to ``argparse.ArgumentParser(...)`` is passed to a call other than its own
    methods (as an argument or keyword)."""
    return node_memo(idx, "_hands_parser_on", lambda: _hands_parser_on(idx))


def _hands_parser_on(idx: Any) -> bool:
    parsers = {name for name, bound in idx.assigns.items()
               if any(isinstance(b, ast.Call) and (idx.qualify(dotted_name(b.func)) or "").endswith("ArgumentParser")
                      for b in bound if b is not None)}
    found = False
    if parsers:
        for site in idx.calls:
            func = site.call.func
            if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in parsers:
                continue  # parser.add_argument(...), parser.parse_args(...)
            values = [*site.call.args, *(k.value for k in site.call.keywords)]
            if any(isinstance(v, ast.Name) and v.id in parsers for v in values):
                found = True
                break
    return found
