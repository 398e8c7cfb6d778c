"""The training image size of an open_clip / EVA-CLIP model named at run time: its JSON model config's
``vision_cfg.image_size``.

``create_model_and_transforms(name, ...)`` builds the model from ``<package>/model_configs/<name>.json``
and the training transform from the model's own size: mlfoundations/open_clip @ 89fb801
``src/open_clip/factory.py`` ``image_transform(model.visual.image_size, is_train=True, ...)`` (the JSON's
``vision_cfg.image_size``, ``src/open_clip/model_configs/ViT-B-32.json:4`` 224), and the EVA-CLIP copy of
that factory, microsoft/LLM2CLIP @ cba3b45 ``llm2clip/eva_clip/factory.py:370,409-417`` (``--model
EVA02-CLIP-L-14-336`` -> ``eva_clip/model_configs/EVA02-CLIP-L-14-336.json`` ``image_size`` 336), itself
baaivision/EVA's ``EVA-CLIP/rei/eva_clip/factory.py``. ``force_image_size=`` replaces it (open_clip).

Read, never imported: a call of ``create_model_and_transforms`` imported from ``open_clip`` or
``eva_clip`` that the script runs, its model name a value the index knows, no ``**`` splat, and no
``force_image_size=`` other than ``None``; the JSON found as ``<package>/model_configs/<name>.json``
(or under ``src/``) in the script's folder or up to three above it, with an integer
``vision_cfg.image_size``. Calls that disagree state nothing: ``data.image_size`` medium.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import InputRefused, read_text_limited

_PACKAGES = ("open_clip", "eva_clip")
_FUNCTIONS = ("create_model_and_transforms",)
_UP = 3
_MAX_BYTES = 200_000


def _config_file(script_path: Path, package: str, name: str) -> Optional[Path]:
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    folder = script_path.parent
    for _ in range(_UP + 1):
        for cand in (folder / package / "model_configs" / f"{name}.json",
                     folder / "src" / package / "model_configs" / f"{name}.json"):
            if cand.is_file():
                return cand
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def _package(qualified: str) -> Optional[str]:
    parts = qualified.split(".")
    if parts[0] in _PACKAGES and parts[-1] in _FUNCTIONS and len(parts) <= 3:
        return parts[0]
    return None


@register_adapter
class ClipImageSizeAdapter(ScratchAdapter):
    name = "clip_image_size"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any("create_model_and_transforms" in s.source.text for s in project.scripts)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        found: list[tuple[int, str, Any, Any, Path]] = []
        for script in self.scripts(project):
            if "create_model_and_transforms" not in script.source.text or script.source.path is None:
                continue
            idx = project.index(script)
            for site in idx.calls:
                package = _package(site.qualified or "")
                if package is None or idx.runs(site) is False or any(k.arg is None for k in site.call.keywords):
                    continue
                forced = next((k.value for k in site.call.keywords if k.arg == "force_image_size"), None)
                if forced is not None:
                    got_forced = idx.resolve(forced)
                    if got_forced is None or got_forced.value is not None:
                        continue
                first = site.call.args[0] if site.call.args else \
                    next((k.value for k in site.call.keywords if k.arg == "model_name"), None)
                got = idx.resolve(first) if first is not None else None
                if got is None or not isinstance(got.value, str):
                    continue
                path = _config_file(Path(str(script.source.path)), package, got.value)
                if path is None:
                    continue
                try:
                    cfg = json.loads(read_text_limited(path, _MAX_BYTES))
                except (OSError, ValueError, UnicodeDecodeError, RecursionError, InputRefused):
                    continue
                vision = cfg.get("vision_cfg") if isinstance(cfg, dict) else None
                size = vision.get("image_size") if isinstance(vision, dict) else None
                if isinstance(size, int) and not isinstance(size, bool) and size > 0:
                    found.append((size, got.value, script, site.call, path))
        if len({f[0] for f in found}) != 1:
            return  # none, or calls that disagree
        size, name, script, call, path = found[0]
        try:
            shown = path.relative_to(Path(str(project.root))) if project.root else path
        except ValueError:
            shown = path
        src = project.source(script, call, "code",
                             detail=f"create_model_and_transforms({name!r}): {shown} vision_cfg image_size {size}, "
                                    "the size of the training transform (image_transform(model.visual.image_size))")
        self.add_checked(plan, "data.image_size", size, src, "medium")
