"""``compile.enabled`` False for a job whose loop is in a training module its launcher imports by a name the
config gives (:mod:`preflight.adapters.named_module`), when no Python file of the project, config read or the
launch line names ``torch.compile`` by any spelling (read by :mod:`preflight.adapters.visible_code`; nothing
is imported or executed).

facebookresearch/jepa @ 51c59d5 (and facebookresearch/vjepa2, whose ``app/scaffold.py`` is the same):
``python -m app.main_distributed --fname configs/pretrain/vitl16.yaml`` hands the YAML to a submitit executor,
whose task runs ``importlib.import_module(f'app.{app}.train').main(args=args)`` (``app/scaffold.py:19``) with
``app: vjepa``; the loop (``app/vjepa/train.py:464`` ``scaler.scale(loss).backward()``) is in that module,
which the launcher never imports by a plain ``import``. The launcher and the module are two audited scripts,
so the one-script absences of :mod:`preflight.adapters.visible_code` stand aside; this reads the one field
whose absence is the whole project's (as :func:`preflight.adapters.visible_code._absent_in_project` does):
nothing compiles what no file names. Not read: another script audited that is not the entry's delegate, a
delegate without a ``backward()``/``training_step`` (its training is not seen), a project too large to read
whole, or any file, config or argument naming ``torch.compile``, ``_dynamo``, ``compile=``/``compile:``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Project
from preflight.sources import read_text_limited

_CONFIG_SUFFIXES = (".yaml", ".yml", ".json", ".toml", ".cfg", ".ini")


def _named_files(project: Project, root: Path) -> Optional[list[str]]:
    """The text of each config file the launch line names (``--fname configs/pretrain/vitl16.yaml``, read by
    the launcher itself rather than an adapter), so that a ``compile: true`` there is seen; None when one
    cannot be read."""
    out: list[str] = []
    for token in map(str, project.argv or []):
        value = token.split("=", 1)[1] if token.startswith("-") and "=" in token else token
        if not value.endswith(_CONFIG_SUFFIXES):
            continue
        path = root / value
        if path.is_file() and project.may_read(path):
            try:
                out.append(read_text_limited(path, errors="replace"))
            except (OSError, ValueError):
                return None
        elif path.is_file():
            return None
    return out


def delegated_compile_absence(project: Project, entry: Any, root: Optional[Path]) -> list[tuple[str, Any, Any]]:
    """[("compile.enabled", False, source)] when every other audited script is a delegate of ``entry`` that
    holds the loop and nothing of the project names torch.compile; else []."""
    from preflight.adapters.pytorch_local import _hydra_config_texts
    from preflight.adapters.visible_code import _COMMENT_LINE, _COMPILE_WORDS, _LOOP, _project_code

    others = [s for s in project.own_scripts() if s is not entry]
    if not others or root is None or not root.is_dir():
        return []
    if any(project.delegates.get(id(s)) is not entry or s.source.path is None for s in others):
        return []
    looped = [s for s in others if _LOOP.search(_COMMENT_LINE.sub("", s.source.text)) is not None]
    if not looped:
        return []  # the delegate's training is not seen
    texts = _project_code(root, project)
    if not texts:
        return []
    named = _named_files(project, root)
    if named is None:
        return []
    extra = "\n".join([*(src.text for src, _cfg in project.configs), " ".join(map(str, project.argv or [])),
                       *_hydra_config_texts(project), *named])
    if _COMPILE_WORDS.search(_COMMENT_LINE.sub("", "\n".join(texts))) is not None \
            or _COMPILE_WORDS.search(extra) is not None:
        return []
    script = looped[0]
    line = next((i + 1 for i, t in enumerate(script.source.text.splitlines()) if _LOOP.search(t)), 1)
    detail = (f"the loop is in {script.source.display}, the module {entry.source.display} hands its work to; no "
              f"Python file of the project ({len(texts)} read under the audited folder), config read or the launch "
              "line names torch.compile by any spelling; the loop does not compile by itself")
    return [("compile.enabled", False, project.source(script, line, "code", detail=detail))]
