"""A project model's size as the job names it, when nothing counts the model.

Projects that build their own architecture name its configuration by its parameter count, and the
job picks it by that name: a config file on the launch line (fla-org/flame @ the benchmark's commit
``train.sh`` ``--model.config configs/transformer_340M.json``), a model factory declared as an option
default (allenai/OLMo-core ``src/examples/llm/train.py:281-286`` ``--model-factory`` default
``llama2_271M``, a classmethod of ``TransformerConfig``), a Hydra experiment chosen on the launch line
(HazyResearch/based ``experiment=example/based-360m``), or the launch script itself (jasonppy/VoiceCraft
``z_scripts/e830M.sh``, the 830M model). The counters (``module_params_nested``, the architecture
reader) cannot follow such models (a class built by a factory, a Hydra target, sizes from a tokenizer);
the name still says about how large the model is.

Read, never imported:

- the values of the script's options and ``key=value`` overrides, from the launch line or else the
  option's declared default, whose name speaks of the model (``model``, ``arch``, ``config``, ``preset``,
  ``factory``, ``experiment``) and of nothing else the job loads (a tokenizer, a reward or reference
  model, a DeepSpeed/accelerate config, data, an output folder) nor of one part of a composite model
  (``lm_model_type``, ``vision_tower``, a backbone or decoder: the part's size is not the model's);
- nothing when the launch line builds another part of the model (``--vision_tower``, ``--mm_projector_type``
  with a value: MobileVLM's language model ``MobileLLaMA-1.4B`` beside a CLIP tower and a projector);
- the last part of each value (a path's file or folder name) holding one size word: digits and ``M``
  or ``B`` standing alone (``_340M``, ``-360m``, ``e830M``; not ``16MB``, not the ``7B`` of ``8x7B``);
- failing that, the launch script's file name;
- only sizes written with two digits or more (``340M``, ``1.3B``, ``13B``): a one-digit name is a size
  class, not a count (allenai/OLMo ``OLMo-1B.yaml`` is 1.18B parameters, Gemma ``2b`` 2.5B).

``model.num_parameters`` at **low** confidence with the lowest priority, so that any count read from
the model itself wins. Two different sizes named, or none, state nothing.
"""

from __future__ import annotations

import os
import re
from typing import Any, Optional

from preflight.adapters_api import Project, ScratchAdapter
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_SIZE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)([MmBb])(?![A-Za-z0-9])")
# a size of something else: 100B_tokens, 10B-toks, 1M_steps, 50M-samples
_NOT_PARAMS = re.compile(r"[_\-.]?(tokens?|toks?|steps?|samples?|images?|examples?|seqs?|words?)(?![a-z])", re.I)
_MOE = re.compile(r"\d\s*[xX]$")  # 8x7B: the size of one expert, not of the model
_MODEL_WORDS = {"model", "models", "arch", "architecture", "config", "cfg", "preset", "factory", "experiment"}
_OTHER_WORDS = {"tokenizer", "teacher", "reward", "rm", "ref", "reference", "critic", "draft", "vae", "data",
                "dataset", "datasets", "deepspeed", "ds", "accelerate", "fsdp", "zero", "output", "out", "save",
                "dump", "log", "logging", "wandb", "resume", "ckpt", "checkpoint", "run", "eval", "vision",
                "text", "encoder", "clip", "lora", "adapter", "peft", "embedding", "tokens",
                # a part of a composite model, not the whole (huggingface/nanoVLM models/config.py:33
                # lm_model_type "HuggingFaceTB/SmolLM2-360M-Instruct": the language half of a 460M VLM)
                "lm", "llm", "vit", "backbone", "decoder", "language", "tower", "audio", "speech", "image",
                "projector", "head"}
_SCALE = {"m": 10 ** 6, "b": 10 ** 9}


def _words(name: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", name.lower()) if w}


def _about_model(name: str) -> bool:
    words = _words(name)
    return bool(words & _MODEL_WORDS) and not words & _OTHER_WORDS


def size_named(value: str) -> Optional[tuple[int, str]]:
    """(parameters, the size word) a name gives: its last path part holding exactly one size word of
    two digits or more; None otherwise."""
    if not isinstance(value, str) or not value or len(value) > 300 or "$" in value:
        return None
    last = value.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1]
    stem = re.sub(r"\.(json|ya?ml|toml|py|sh|bash|slurm|sbatch)$", "", last, flags=re.I)
    found = [m for m in _SIZE.finditer(stem) if not _MOE.search(stem[:m.start()])]
    if any(_NOT_PARAMS.match(stem, m.end()) for m in found):
        return None
    if len(found) != 1:
        return None
    number, unit = found[0].group(1), found[0].group(2).lower()
    if len(number.replace(".", "").lstrip("0")) < 2:
        return None
    return round(float(number) * _SCALE[unit]), found[0].group(0)


def _line_values(args: list[str]) -> list[tuple[str, str]]:
    """``(name, value)`` of ``--name value``, ``--name=value`` and ``key=value`` words of a launch line."""
    out: list[tuple[str, str]] = []
    for i, tok in enumerate(args):
        if tok.startswith("-"):
            name, eq, value = tok.lstrip("-").partition("=")
            if not eq:
                if i + 1 >= len(args) or args[i + 1].startswith("-"):
                    continue
                value = args[i + 1]
            out.append((name, value))
        elif "=" in tok:
            name, _, value = tok.lstrip("+~").partition("=")
            if re.fullmatch(r"[\w.\-/]+", name):
                out.append((name, value))
    return out


# an option naming another trained part of a composite model (Meituan-AutoML/MobileVLM @ 688fdec run.sh:27-38:
# ``--model_name_or_path mtgv/MobileLLaMA-1.4B-Chat --vision_tower openai/clip-vit-large-patch14-336
# --mm_projector_type ldpnetv2``): the language model's size is a part, not the whole
_PART_WORDS = {"vision", "visual", "tower", "projector", "image_encoder", "audio_encoder", "speech_encoder"}
_NOT_A_PART = {"", "none", "null", "false", "true", "0", "1", "no"}


def _names_a_part(name: str, value: str) -> bool:
    """A ``--name value`` building another module of the model: a vision tower, a projector."""
    words = _words(name)
    joined = name.lower().replace("-", "_")
    if not (words & _PART_WORDS or any(w in joined for w in _PART_WORDS if "_" in w)):
        return False
    text = value.strip().strip("'\"").lower()
    return text not in _NOT_A_PART and not re.fullmatch(r"-?\d+(\.\d+)?", text) and not text.startswith("$")


def _where(text: str) -> tuple[Optional[str], Optional[int]]:
    path, _, line = text.rpartition(":")
    return (path or None, int(line)) if line.isdigit() else (text or None, None)


@register_adapter
class ModelSizeNamedAdapter(ScratchAdapter):
    name = "model_size_named"
    frameworks = ()

    def work(self, project: Project, plan: TrainingPlan) -> None:
        from preflight.adapters.cliargs_options import declared_options

        found: list[tuple[int, str, Source]] = []
        launch_path, launch_line = project.launch_at if project.launch_at else (None, None)
        for script in self.scripts(project):
            args = project.script_args(script)
            given = _line_values(args)
            part = next((n for n, v in given if _names_a_part(n, v)), None)
            if part is not None:
                return  # another part of the model is built: a size in a name is not the whole model's
            for name, value in given:
                got = size_named(value) if _about_model(name) else None
                if got is not None:
                    found.append((*got, Source("derived", launch_path, launch_line, name,
                                               f"{name} {value} on the launch line")))
            named = {n.replace("-", "_").replace(".", "_") for n, _ in given}
            try:
                decl = declared_options(script, project)
            except (SyntaxError, ValueError, RecursionError):
                continue
            for opt in decl.options.values():
                if opt.name.replace("-", "_") in named or not isinstance(opt.default, str) \
                        or decl.unparsed(opt.name):  # a field of a class the job's parser is not handed
                    continue
                got = size_named(opt.default) if _about_model(opt.name) else None
                if got is not None:
                    path, line = _where(opt.where)
                    found.append((*got, Source("derived", path, line, opt.name,
                                               f"--{opt.name} default {opt.default!r} (declared {opt.where})")))
        if not found and launch_path:
            got = size_named(os.path.basename(launch_path))
            if got is not None:
                found.append((*got, Source("derived", launch_path, launch_line, None,
                                           f"the launch script {os.path.basename(launch_path)}")))
        self._state(plan, found)

    def _state(self, plan: TrainingPlan, found: list[tuple[int, str, Any]]) -> None:
        if not found or len({n for n, _, _ in found}) != 1:
            return
        count, word, source = found[0]
        detail = (f"{source.detail} names the model's size ({word}): about {count:,} parameters, taken from "
                  "the name (the model itself is not counted here; a count read from the model wins)")
        self.add(plan, "model.num_parameters", count,
                 Source(source.kind, source.path, source.line, source.key, detail), "low", priority=-1)
