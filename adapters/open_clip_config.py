"""An open_clip model named at run time, counted from its JSON in the project's ``open_clip`` package.

open_clip builds a model by name from ``open_clip/model_configs/<name>.json`` (mlfoundations/open_clip
@ the benchmark's commit ``src/open_clip_train/main.py`` ``create_model_and_transforms(args.model, ...)``
and ``src/open_clip/factory.py`` ``create_model``, which reads that JSON into ``CLIP(embed_dim,
vision_cfg, text_cfg)``; ``docs/script_examples/stability_example.sh`` trains ``--model ViT-B-32``). For
the plain CLIP towers (``src/open_clip/model.py`` ``CLIPVisionCfg``/``CLIPTextCfg``,
``transformer.py`` ``VisionTransformer``/``TextTransformer``) the count follows from the JSON:

- vision, width ``w``, ``L`` layers, patch ``p``, ``g = image_size // p``: ``conv1`` 3·p²·w (no bias),
  class embedding w, positions (g²+1)·w, ``ln_pre`` and ``ln_post`` 2w each, the projection w·embed_dim;
- text, width ``t``: token embedding vocab·t, positions context·t, ``ln_final`` 2t, the projection
  t·embed_dim;
- each residual block of width ``d`` (``ResidualAttentionBlock``): ``in_proj`` 3d²+3d, ``out_proj`` d²+d,
  two LayerNorms 4d, the MLP d·h+h+h·d+d with h = d·mlp_ratio (4.0);
- ``logit_scale`` 1, and ``logit_bias`` 1 when ``init_logit_bias`` is set (SigLIP).

So ViT-B-32 is 151,277,313. Read, never imported: the name resolved as any value (launch line, declared
default, code), the JSON found as ``open_clip/model_configs/<name>.json`` in the script's folder or one
up to three levels above it. A config with any key outside the plain towers' (a timm or Hugging Face
tower, a ResNet's layer list, CoCa's multimodal decoder, custom text, attentional pooling...) states
nothing: ``model.num_parameters`` medium, ``model.class_name`` CLIP.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import TrainingPlan
from preflight.registry import register_adapter
from preflight.sources import InputRefused, read_text_limited

_CALLS = ("open_clip.create_model_and_transforms", "open_clip.create_model",
          "open_clip.factory.create_model_and_transforms", "open_clip.factory.create_model")
_TOP = {"embed_dim", "vision_cfg", "text_cfg", "quick_gelu", "init_logit_bias"}
_VISION = {"image_size", "layers", "width", "patch_size", "head_width", "mlp_ratio"}
_TEXT = {"context_length", "vocab_size", "width", "heads", "layers", "mlp_ratio"}
_UP = 3
_MAX_BYTES = 100_000


def _int(d: dict, key: str, default: Optional[int] = None) -> int:
    v = d.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
        raise ValueError(key)
    return v


def _block(d: int, ratio: Any) -> int:
    if not isinstance(ratio, (int, float)) or isinstance(ratio, bool) or ratio <= 0:
        raise ValueError("mlp_ratio")
    h = int(d * ratio)
    return (3 * d * d + 3 * d) + (d * d + d) + 4 * d + (d * h + h + h * d + d)


def clip_count(cfg: Any) -> Optional[int]:
    """The parameter count of a plain CLIP config (see the module comment), else None."""
    if not isinstance(cfg, dict) or set(cfg) - _TOP:
        return None
    vision, text = cfg.get("vision_cfg"), cfg.get("text_cfg")
    if not isinstance(vision, dict) or not isinstance(text, dict) or set(vision) - _VISION or set(text) - _TEXT:
        return None
    try:
        embed = _int(cfg, "embed_dim")
        w, layers, p = _int(vision, "width", 768), _int(vision, "layers", 12), _int(vision, "patch_size", 16)
        size = vision.get("image_size", 224)
        if isinstance(size, (list, tuple)) and len(size) == 2:
            g = (_int({"s": size[0]}, "s") // p) * (_int({"s": size[1]}, "s") // p)
        else:
            g = (_int(vision, "image_size", 224) // p) ** 2
        n = 3 * p * p * w + w + (g + 1) * w + 4 * w + w * embed + layers * _block(w, vision.get("mlp_ratio", 4.0))
        t = _int(text, "width", 512)
        n += _int(text, "vocab_size", 49408) * t + _int(text, "context_length", 77) * t + 2 * t + t * embed
        n += _int(text, "layers", 12) * _block(t, text.get("mlp_ratio", 4.0))
    except ValueError:
        return None
    return n + 1 + (1 if cfg.get("init_logit_bias") is not None else 0)


def _config_file(script_path: Path, name: str) -> Optional[Path]:
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    folder = script_path.parent
    for _ in range(_UP + 1):
        for cand in (folder / "open_clip" / "model_configs" / f"{name}.json",
                     folder / "src" / "open_clip" / "model_configs" / f"{name}.json"):
            if cand.is_file():
                return cand
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


@register_adapter
class OpenClipConfigAdapter(ScratchAdapter):
    name = "open_clip_config"
    frameworks = ()

    def wants(self, project: Project) -> bool:
        return any("create_model" in s.source.text and "open_clip" in s.source.text for s in project.scripts)

    def work(self, project: Project, plan: TrainingPlan) -> None:
        found: list[tuple[int, str, Any, ast.Call, Path]] = []
        for script in self.scripts(project):
            if "open_clip" not in script.source.text:
                continue
            idx = project.index(script)
            for site in idx.calls:
                if (site.qualified or "") not in _CALLS or idx.runs(site) is False:
                    continue
                first = site.call.args[0] if site.call.args else \
                    next((k.value for k in site.call.keywords if k.arg == "model_name"), None)
                got = idx.resolve(first) if first is not None else None
                if got is None or not isinstance(got.value, str):
                    continue
                path = _config_file(Path(str(script.source.path)), got.value)
                if path is None:
                    continue
                try:
                    count = clip_count(json.loads(read_text_limited(path, _MAX_BYTES)))
                except (OSError, ValueError, UnicodeDecodeError, RecursionError, InputRefused):
                    continue
                if count is not None:
                    found.append((count, got.value, script, site.call, path))
        if len({f[0] for f in found}) != 1:
            return  # none, or calls that disagree
        count, name, script, call, path = found[0]
        try:
            shown = path.relative_to(Path(str(project.root))) if project.root else path
        except ValueError:
            shown = path
        src = project.source(script, call, "code",
                             detail=f"open_clip model {name!r}: {shown} (plain CLIP vision and text towers) "
                                    f"has {count:,} parameters counted from its sizes")
        self.add_checked(plan, "model.num_parameters", count, src, "medium")
        self.add_checked(plan, "model.class_name", "CLIP", src, "medium")
