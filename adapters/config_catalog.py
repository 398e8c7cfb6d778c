"""A model picked by name from a catalog of configs in the project's own package, read without
importing it (jzhang38/TinyLlama ``pretrain/tinyllama.py``: ``model_name = "tiny_LLaMA_1b"``,
``config = Config.from_name(model_name)`` with ``from lit_gpt.model import Config``, and
``lit_gpt/config.py``'s module-level ``configs = [dict(name="tiny_LLaMA_1b", block_size=2048,
n_layer=22, n_embd=2048, ...), ...]``; the lit-gpt layout of many projects forked from it).

- The catalog: a module-level list in a ``.py`` file of the package the class is imported from
  (the script's folder, then its parents up to the project root) holding ``dict(name=...)``
  calls or ``{"name": ...}`` literals; the entry whose ``name`` is the ``from_name`` argument
  (a literal, or a name bound once to one), with the class's dataclass defaults for the keys
  the entry leaves out.
- ``model.num_parameters``: the lit-gpt GPT layout (token embedding and an untied head over
  the vocabulary padded to ``padding_multiple``; per layer the fused QKV projection with
  ``n_query_groups`` key/value groups, the output projection, the MLP of ``_mlp_class``
  (``LLaMAMLP``: three matrices; ``GptNeoxMLP``: two) and two norms; a final norm), medium.
  A key that is not a literal, or an MLP class not known, leaves it uncounted.
- ``data.seq_len``: the entry's ``block_size`` when the script reads ``.block_size`` of the
  config and does not set it (medium).
- A dict catalog keyed by name (lit-llama ``lit_llama/model.py:43-48`` ``llama_configs =
  {"7B": dict(n_layer=32, n_head=32, n_embd=4096), ...}``) is read the same way; where the
  lit-gpt layout cannot be counted (no MLP width), ``12*n_layer*n_embd^2 + vocab*n_embd``, low.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_MAX_BYTES = 500_000
_MAX_FILES = 40
_MLP_MATRICES = {"LLaMAMLP": 3, "GptNeoxMLP": 2, "GemmaMLP": 3}
_RMS = ("RMSNorm", "FusedRMSNorm")


def _literal(node: ast.AST) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return False, None


def _entry(node: ast.AST) -> Optional[dict[str, Any]]:
    """The literal keys of ``dict(name=..., ...)`` or ``{"name": ...}`` (a non-literal value: absent)."""
    out: dict[str, Any] = {}
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
        for kw in node.keywords:
            if kw.arg is None:
                return None
            ok, value = _literal(kw.value)
            if ok:
                out[kw.arg] = value
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return None
            ok, lit = _literal(value)
            if ok:
                out[key.value] = lit
    else:
        return None
    return out if isinstance(out.get("name"), str) else None


def _defaults(tree: ast.Module, klass: str) -> dict[str, Any]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == klass:
            out: dict[str, Any] = {}
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                    ok, value = _literal(stmt.value)
                    if ok:
                        out[stmt.target.id] = value
            return out
    return {}


def find_entry(package: Path, name: str, klass: str,
               module_file: Optional[Path] = None) -> Optional[tuple[dict[str, Any], Path, int]]:
    """(entry with the class defaults filled in, file, line) of ``name`` in ``package``'s catalogs;
    the class defaults come first from ``module_file``, the module the class is imported from
    (a subclass of the same name elsewhere in the package has other fields)."""
    files = sorted(package.glob("*.py"))[:_MAX_FILES]
    if module_file is not None and module_file in files:
        files = [module_file, *(f for f in files if f != module_file)]
    defaults: dict[str, Any] = {}
    found: Optional[tuple[dict[str, Any], Path, int]] = None
    for path in files:
        try:
            if path.stat().st_size > _MAX_BYTES:
                continue
            tree = parse_file(path)
        except (OSError, SyntaxError, ValueError):
            continue
        defaults = defaults or _defaults(tree, klass)
        for node in tree.body:
            if not isinstance(node, ast.Assign):
                continue
            items: list[tuple[Optional[dict[str, Any]], ast.expr]] = []
            if isinstance(node.value, ast.List):
                items = [(_entry(item), item) for item in node.value.elts]
            elif isinstance(node.value, ast.Dict):
                # lit-llama ``llama_configs = {"7B": dict(n_layer=32, ...)}``: the key is the name
                for key, item in zip(node.value.keys, node.value.values):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        entry = _entry(ast.Call(func=ast.Name(id="dict"), args=[], keywords=[
                            ast.keyword(arg="name", value=ast.Constant(key.value)),
                            *(item.keywords if isinstance(item, ast.Call) and not item.args else [])]))
                        if entry is not None:
                            entry["_dict_catalog"] = True  # not the lit-gpt layout: sizes only
                        items.append((entry if isinstance(item, ast.Call) else None, item))
            for entry, item in items:
                if entry is not None and entry["name"] == name:
                    if found is not None:
                        return None  # two entries of that name: which one wins is not followed
                    found = (entry, path, item.lineno)
    if found is None:
        return None
    entry, path, line = found
    return {**defaults, **entry}, path, line


def _int(cfg: dict[str, Any], key: str) -> Optional[int]:
    value = cfg.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def gpt_params(cfg: dict[str, Any]) -> Optional[int]:
    """Parameters of a lit-gpt ``GPT(config)``; None when a needed key is not a literal."""
    layers, h, heads, vocab = (_int(cfg, k) for k in ("n_layer", "n_embd", "n_head", "vocab_size"))
    if not (layers and h and heads and vocab) or h % heads:
        return None
    mlp = _MLP_MATRICES.get(str(cfg.get("_mlp_class", "GptNeoxMLP")))
    inter = _int(cfg, "intermediate_size") or (4 * h if cfg.get("_mlp_class", "GptNeoxMLP") == "GptNeoxMLP" else None)
    if mlp is None or inter is None:
        return None
    multiple = _int(cfg, "padding_multiple") or 512
    padded = _int(cfg, "padded_vocab_size") or -(-vocab // multiple) * multiple
    groups = _int(cfg, "n_query_groups") or heads
    head = _int(cfg, "head_size") or h // heads
    bias = cfg.get("bias", True) is not False
    norm = h if str(cfg.get("_norm_class", "LayerNorm")) in _RMS else 2 * h
    qkv = h * (heads + 2 * groups) * head + ((heads + 2 * groups) * head if bias else 0)
    proj = heads * head * h + (h if bias else 0)
    ff = mlp * h * inter + ((mlp - 1) * inter + h if bias else 0)
    per_layer = qkv + proj + ff + 2 * norm
    return layers * per_layer + 2 * padded * h + norm


def _package_of(script: Any, module: str, root: Path) -> Optional[Path]:
    here = Path(str(script.source.path)).resolve().parent
    top = root.resolve()
    first = module.split(".")[0]
    rel = module.replace(".", "/")
    folder = here
    while True:
        for cand in (folder / rel, folder / rel.rsplit("/", 1)[0] if "/" in rel else folder / first):
            if cand.is_dir() and (cand / "__init__.py").is_file():
                return cand
        if (folder / f"{rel}.py").is_file():
            return (folder / f"{rel}.py").parent
        if folder == top or folder.parent == folder or top not in folder.parents:
            return None
        folder = folder.parent


@register_adapter
class ConfigCatalogAdapter(Adapter):
    name = "config_catalog"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(".from_name(" in s.source.text for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is None or script.source.path is None or ".from_name(" not in script.source.text:
                continue
            idx = project.index(script)
            for site in idx.calls:
                func = site.call.func
                if not (isinstance(func, ast.Attribute) and func.attr == "from_name" and len(site.call.args) == 1):
                    continue
                klass = dotted_name(func.value) or ""
                module = (idx.qualify(klass) or "").rpartition(".")[0] if klass else ""
                name = idx.resolve(site.call.args[0])
                if not module or name is None or not isinstance(name.value, str):
                    continue
                package = _package_of(script, module, project.root)
                if package is None:
                    continue
                found = find_entry(package, name.value, klass.rsplit(".", 1)[-1],
                                   package / f"{module.rsplit('.', 1)[-1]}.py")
                if found is None:
                    continue
                self.facts(project, plan, script, site, name.value, *found)
                return

    def facts(self, project: Project, plan: TrainingPlan, script: Any, site: Any, name: str,
              cfg: dict[str, Any], path: Path, line: int) -> None:
        import os

        shown = os.path.relpath(path, project.root) if project.root else path.name
        where = f"{site.label}({name!r}) in {script.source.display}:{site.line} -> {shown}:{line}"
        conf = "medium" if project.index(script).runs(site) else "low"
        count = None if cfg.get("_dict_catalog") else gpt_params(cfg)
        if count is None and _int(cfg, "n_layer") and _int(cfg, "n_embd") and _int(cfg, "vocab_size"):
            layers, width, vocab = cfg["n_layer"], cfg["n_embd"], cfg["vocab_size"]
            self.add_checked(plan, "model.num_parameters", 12 * layers * width ** 2 + vocab * width,
                             Source("code", shown, line, "name",
                                    f"{where}: about 12*n_layer*n_embd^2 + vocab*n_embd with n_layer={layers}, "
                                    f"n_embd={width}, vocabulary {vocab} (transformer blocks with a 4x-equivalent "
                                    "MLP; the MLP width and head tying are not in the catalog)"), "low")
        if count is not None:
            self.add_checked(plan, "model.num_parameters", count,
                             Source("code", shown, line, "name",
                                    f"{where}: GPT of {cfg['n_layer']} layers x {cfg['n_embd']}, "
                                    f"{cfg['n_head']}/{cfg.get('n_query_groups', cfg['n_head'])} heads, "
                                    f"MLP {cfg.get('intermediate_size', 4 * cfg['n_embd'])} "
                                    f"({cfg.get('_mlp_class', 'GptNeoxMLP')}), vocabulary {cfg['vocab_size']}"),
                             conf)
        block = _int(cfg, "block_size")
        if block is not None and ".block_size" in script.source.text \
                and not re.search(r"\.block_size\s*=(?!=)", script.source.text):  # not set over by the script
            self.add_checked(plan, "data.seq_len", block,
                             Source("code", shown, line, "block_size", f"{where}: block_size {block}"), conf)
