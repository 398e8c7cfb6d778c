"""``KEY VALUE`` overrides that follow a config file on the launch line, and a Python config module
named there read where the code uses its keys.

magic-research/PLLaVA @ 6f49fd2 ``scripts/train_pllava_7b.sh:21-44``: ``accelerate launch ...
tasks/train/train_pllava_nframe_accel.py tasks/train/config_pllava_nframe.py output_dir ... batch_size 8
gradient_accumulation_steps 2 model.repo_id llava-hf/llava-v1.6-vicuna-7b-hf gradient_checkpointing True
...``. The project's ``utils/config.py`` ``Config.get_config`` declares ``parser.add_argument("config_file")``
and ``parser.add_argument("opts", nargs="*")``, reads the module's top-level assignments and sets each
``a.b`` key of the pairs (``merge_list``), the values through ``ast.literal_eval`` (``eval_dict_leaf``).
The same reader is copied across the UMT / VindLU / VideoChat2 family, and detectron2-style yacs
``opts`` (``nargs=argparse.REMAINDER``) take the same pairs.

Read when: the tokens after the config file are an even number of words, every key a dotted name;
and the project's code declares a positional argparse argument with ``nargs="*"`` or
``argparse.REMAINDER`` (without one, the words are something else and nothing is applied). A value
with an unexpanded ``$`` is not known: the key is dropped rather than the file's value kept.

Then the module's values (overrides applied) are read where the script and the local modules it
imports use them through a ``config``/``cfg`` object (:func:`preflight.adapters.hydra_reads.read_object_facts`:
``X.from_pretrained(config.model.repo_id)``, ``torch_dtype`` of the load, the guards around
``LoraConfig``, ...), when the project declares a positional argparse argument named like a config
file (``config``, ``config_file``, ``cfg``): evidence that the file the line names is the object the
code holds. Medium; nothing is imported or executed.
"""

from __future__ import annotations

import ast
import copy
import os
import re
from functools import partial
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Adapter, Project
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_KEY = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_OPTS = re.compile(r"""add_argument\(\s*["'][A-Za-z_]\w*["'](?:[^()]|\([^()]*\))*?"""
                   r"""nargs\s*=\s*(?:["']\*["']|argparse\.REMAINDER)""")
_CONFIG_POSITIONAL = re.compile(r"""add_argument\(\s*["'](?:config|config_file|cfg|cfg_file|config_path)["']""")
_DROP = object()


def _code(project: Project) -> list[tuple[str, str]]:
    from preflight.adapters.config_key_families import code_text

    return code_text(project)


def takes_pairs(project: Project) -> bool:
    """The project declares a positional argparse list (``opts``, ``nargs="*"``/``REMAINDER``)."""
    return any("nargs" in text and _OPTS.search(text) for _, text in _code(project))


def _value(text: str) -> Any:
    if "$" in text or "`" in text:
        return _DROP
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


def pairs_after(tokens: list[str], index: int) -> Optional[list[tuple[str, str]]]:
    """The ``KEY VALUE`` pairs of ``tokens`` after ``index`` (all of them), or None."""
    tail = tokens[index + 1:]
    if not tail or len(tail) % 2:
        return None
    pairs = list(zip(tail[::2], tail[1::2]))
    if any(not _KEY.fullmatch(k) for k, _ in pairs):
        return None
    return pairs


def apply_pairs(data: dict, pairs: list[tuple[str, str]]) -> tuple[dict, dict[tuple, str]]:
    """``data`` with the pairs set (a copy), and key path -> the pair's key for every key set."""
    out = copy.deepcopy(data)
    given: dict[tuple, str] = {}
    for key, raw in pairs:
        path = tuple(key.split("."))
        node = out
        for part in path[:-1]:
            nxt = node.get(part)
            if not isinstance(nxt, dict):
                nxt = node[part] = {}
            node = nxt
        value = _value(raw)
        if value is _DROP:
            node.pop(path[-1], None)
            continue
        node[path[-1]] = value
        given[path] = key
    return out, given


def overrides(project: Project, tokens: list[str], index: int) -> Optional[list[tuple[str, str]]]:
    """The pairs after the config file at ``tokens[index]`` when the project takes such pairs."""
    pairs = pairs_after(tokens, index)
    return pairs if pairs and takes_pairs(project) else None


def _positional_configs(project: Project) -> list[tuple[Any, str, Path, dict, dict[tuple, str], Any]]:
    """(script, display, path, data, overridden keys, line_of) of each ``.py`` config module given as a
    positional word of a script's launch line."""
    from preflight.adapters.config_key_pyfile import read_python_config

    root = Path(project.root)
    out = []
    for script in project.scripts:
        if script.tree is None or script.source.path is None:
            continue
        tokens = [str(t) for t in project.script_args(script)]
        for i, tok in enumerate(tokens):
            if tok.startswith("-") or not tok.endswith(".py") or (i and tokens[i - 1].startswith("-")
                                                                  and "=" not in tokens[i - 1]):
                continue
            path = Path(tok) if os.path.isabs(tok) else root / tok
            if not path.is_file() or not project.may_read(path):
                continue
            read = read_python_config(path)
            if read is None or "_base_" in read[0]:
                break
            data, lines = read
            given: dict[tuple, str] = {}
            pairs = overrides(project, tokens, i)
            if pairs:
                data, given = apply_pairs(data, pairs)
            display = tok if os.path.isabs(tok) else os.path.relpath(path, root)
            out.append((script, display, path, data, given, lines))
            break
    return out


def _get(values: dict, path: tuple) -> Any:
    node: Any = values
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _is_null(values: dict, path: tuple) -> bool:
    node: Any = values
    for part in path[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    return isinstance(node, dict) and path[-1] in node and node[path[-1]] is None


@register_adapter
class LaunchPyConfigAdapter(Adapter):
    name = "launch_pyconfig"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(str(t).endswith(".py") for s in project.scripts for t in project.script_args(s))

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.hydra_reads import read_object_facts

        if not any(_CONFIG_POSITIONAL.search(text) for _, text in _code(project)):
            return
        for script, display, _path, data, given, lines in _positional_configs(project):
            self.note(plan, f"{display}: a Python config module on the launch line, read where the code uses "
                            f"config/cfg{f' ({len(given)} KEY VALUE overrides after it)' if given else ''}")

            def add(field: str, value: Any, path: tuple, detail: str, conf: str,
                    _d: str = display, _g: dict = given, _l: dict = lines) -> None:
                key = ".".join(map(str, path))
                if path in _g:
                    src = Source("cli", None, None, _g[path], f"{detail} (`{_g[path]}` after {_d} on the launch line)")
                else:
                    src = Source("config", _d, _l.get(path), key, f"{detail} ({_d})")
                self.add_checked(plan, field, value, src, conf)
                if field == "precision.mode" and value in ("bf16", "fp16") and "is loaded in" in detail:
                    self.add_checked(plan, "precision.weights_bits", 16, src, conf)  # the load's 16-bit dtype

            read_object_facts(script.tree, Path(str(script.source.path)), script.source.display, ("config", "cfg"),
                              partial(_get, data), add, partial(_is_null, data))
