"""Shared by the rules on OmegaConf.merge (PF597, PF599, PF600): YAML file names in code, OmegaConf calls
(the value at a key path is :func:`preflight.rules.plan._omegaconf_chains.config_at`)."""

from __future__ import annotations

import ast
import re

YAML_NAME = re.compile(r"""["']([^"'\s]+\.ya?ml)["']""")


def is_omegaconf(func: ast.AST, attr: str) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == attr and isinstance(func.value, ast.Name) \
        and func.value.id == "OmegaConf"
