"""A model named by a configuration key that a project loader looks up in a table of model specs.

The shape (XLabs-AI/x-flux @ 47495425 ``train_configs/test_lora.yaml:1`` ``model_name: "flux-dev"``;
``train_flux_lora_deepspeed.py:54,108`` hands ``args.model_name`` through ``get_models(name=...)`` to
``load_flow_model2(name, ...)``; ``src/flux/util.py:167-170,307-317`` ``configs = {"flux-dev":
ModelSpec(repo_id="black-forest-labs/FLUX.1-dev", ...), ...}`` and ``hf_hub_download(configs[name].repo_id,
...)``): the key's value selects an entry of a module-level dict literal whose values are spec objects
built with a literal ``repo_id=``, and the function that reads ``table[key].repo_id`` downloads or loads
from it. The repository id is the model's reference.

Read, never imported: the table is a dict literal at the top of the module that holds the reading
function, its keys strings, its values calls with a string ``repo_id=`` keyword; the key's value is what
the configuration object reader (:mod:`preflight.adapters.config_object_reads`) knows for the expression
indexing it. A key that is not in the table, a table built in code, a function that does not download
or load, or readings that disagree state nothing.
"""

from __future__ import annotations

import ast
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name

_LOADS = ("hf_hub_download", "snapshot_download", "from_pretrained", "load_file", "load_state_dict")


def _table(tree: ast.Module, name: str) -> Optional[dict[str, tuple[str, int]]]:
    """``name = {"key": Spec(repo_id="org/x", ...), ...}`` at the top of the module: key -> (repo id, line)."""
    found: Optional[ast.Dict] = None
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            if found is not None or not isinstance(value, ast.Dict):
                return None  # bound twice, or not a literal
            found = value
    if found is None:
        return None
    out: dict[str, tuple[str, int]] = {}
    for key, value in zip(found.keys, found.values):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(value, ast.Call)):
            continue
        repo = next((k.value for k in value.keywords if k.arg == "repo_id"), None)
        if isinstance(repo, ast.Constant) and isinstance(repo.value, str) and "/" in repo.value:
            out[key.value] = (repo.value, value.lineno)
    return out


def _loads(fn: Any) -> bool:
    return any(isinstance(n, ast.Call) and (dotted_name(n.func) or "").rsplit(".", 1)[-1] in _LOADS
               for n in ast.walk(fn))


def spec_repo(node: ast.AST, fn: Any, reader: Any, tree: Optional[ast.Module]) -> Optional[tuple[str, tuple, str]]:
    """``(repo id, key path, detail)`` when ``node`` is ``table[E].repo_id`` read in a loading function
    ``fn`` of ``tree``, ``table`` that module's spec table and ``E`` a configuration value it holds."""
    if not (isinstance(node, ast.Attribute) and node.attr == "repo_id" and isinstance(node.value, ast.Subscript)
            and isinstance(node.value.value, ast.Name) and tree is not None and isinstance(fn, ast.FunctionDef)):
        return None
    got = reader.ev(node.value.slice)
    if got is None or got.path is None or not isinstance(got.value, str) or not _loads(fn):
        return None
    table = _table(tree, node.value.value.id)
    if not table or got.value not in table:
        return None
    repo, line = table[got.value]
    return repo, got.path, (f"{'.'.join(map(str, got.path))} {got.value!r} selects {node.value.value.id}"
                            f"[{got.value!r}] (line {line}), whose repo_id {fn.name}() loads the model from "
                            f"(line {node.lineno})")
