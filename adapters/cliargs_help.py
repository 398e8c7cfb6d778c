"""Command-line options known by what their help text says, not by their name.

``--micro_train_batch_size`` documented as "batch size per GPU" (OpenRLHF's
``openrlhf/cli/train_ppo_ray.py``, vendored by RUCAIBox/R1-Searcher @ 631167cb
``OpenRLHF-RAG/openrlhf/cli/train_ppo_ray.py:271``; plain ``--batch_size`` with help "Batch size per
GPU" is common in standalone scripts): the per-process batch, ``batch.micro``.
"""

from __future__ import annotations

import ast
import re
from typing import Any, Optional

from preflight.plan import Source

# "batch size per GPU", "training batch size per device", "mini-batch size for each GPU"
_PER_RANK_HELP = re.compile(r"^\W*(the\s+)?(train(ing)?\s+)?(micro[\s-]?|mini[\s-]?)?batch[\s_-]*size\s+"
                            r"(per|for\s+each|on\s+each)\s+(gpu|device|rank|process)\W*$", re.I)
# options for another loop than training's
_OTHER_LOOP = re.compile(r"eval|test|val|rollout|infer|generat|predict|sampl", re.I)


def micro_by_help(cli: Any, as_int: Any) -> None:
    """``batch.micro`` from the one option documented as the batch size per GPU/device (none when
    two are, or when its name says it batches another loop: ``--micro_rollout_batch_size``)."""
    names = [n for n, o in cli.decl.options.items() if _PER_RANK_HELP.search(o.help or "")
             and not _OTHER_LOOP.search(n) and cli.decl.dotted.get(n) is None]
    if len(names) != 1:
        return
    found = cli.value(names[0])
    if found is None:
        return
    number = as_int(found[1])
    if number is None or number < 1:
        return
    help_text = cli.decl.options[names[0]].help
    split = _split_over_devices(cli.script.tree, names[0])
    if split is not None:
        # VSehwag/minimal-diffusion @ ea0321e main.py:326-327,399-402: help "batch-size per gpu", but
        # ``args.batch_size = args.batch_size // ngpus`` (``ngpus = torch.cuda.device_count()``) before the
        # loader: the option is the batch over the visible GPUs, taken as the job's processes (derive splits it)
        cli.add("batch.global", number, Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                               f"{found[2].detail}, divided in the code by {split} "
                                               f"(line {_split_line(cli.script.tree, names[0])}) before its use: "
                                               "the batch over the GPUs, taken as the job's processes"), "low")
        return
    cli.add("batch.micro", number, Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                                          f"{found[2].detail}: documented as \"{help_text}\""),
            "medium" if found[2].kind != "default" else "low")


_COUNTS = ("device_count", "get_world_size")


def _count_call(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Call):
        func = node.func
        last = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if last in _COUNTS:
            return ast.unparse(node)
    return None


def _splits(tree: Any, name: str) -> list[tuple[ast.Assign, str]]:
    """``x.name = x.name // N`` (or ``int(x.name / N)``) with ``N`` the GPU or process count (a call, or a
    name every assignment of which is one): (the statement, ``N`` as written)."""
    if tree is None:
        return []
    counts: dict[str, list[Optional[str]]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            counts.setdefault(node.targets[0].id, []).append(_count_call(node.value))
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Attribute) and node.targets[0].attr == name):
            continue
        value = node.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "int" \
                and len(value.args) == 1:
            value = value.args[0]
        if not (isinstance(value, ast.BinOp) and isinstance(value.op, (ast.FloorDiv, ast.Div))
                and isinstance(value.left, ast.Attribute) and value.left.attr == name
                and ast.dump(value.left.value) == ast.dump(node.targets[0].value)):
            continue
        right = value.right
        what = _count_call(right)
        if what is None and isinstance(right, ast.Name) and counts.get(right.id) \
                and all(c is not None for c in counts[right.id]):
            what = f"{right.id} = {counts[right.id][0]}"
        if what is not None:
            out.append((node, what))
    return out


def _split_over_devices(tree: Any, name: str) -> Optional[str]:
    found = _splits(tree, name)
    return found[0][1] if len(found) == 1 else None


def _split_line(tree: Any, name: str) -> int:
    return _splits(tree, name)[0][0].lineno


_COMPILES = re.compile(r"\btorch\.compile\b|\bcompile\(\s*model\b|\.compile\(\s*\)")


def trainer_compile(cli: Any) -> None:
    """``compile.enabled`` from a TrainingArguments ``torch_compile`` the parser declares (transformers
    ``training_args.py``: ``torch_compile`` defaults to False; the Trainer compiles the model only when
    it is True): the line's or file's value, else the default when the job's code compiles nothing
    itself (medium)."""
    opt = cli.decl.options.get("torch_compile")
    if opt is None or opt.library not in ("TrainingArguments", "SFTConfig", "DPOConfig"):
        return
    found = cli.value("torch_compile")
    if found is None:
        return
    value = found[1]
    if isinstance(value, str):
        value = {"true": True, "false": False}.get(value.strip().lower())
    if not isinstance(value, bool):
        return
    code = "\n".join(line.split("#", 1)[0] for line in cli._texts().splitlines())
    if value is False and _COMPILES.search(code):
        return  # the project compiles the model itself somewhere
    detail = found[2].detail or ""
    if found[2].kind == "default":
        detail += "; the Trainer compiles the model only when torch_compile is True, and no torch.compile in the code"
    cli.add("compile.enabled", value, Source(found[2].kind, found[2].path, found[2].line, found[2].key, detail),
            "medium")


_HF_IMPORT = re.compile(r"^\s*from\s+(?:transformers|trl)[\w.]*\s+import\s+(\([^)]*\)|[^\n]*)", re.M)
_HF_NAMES = re.compile(r"\b((Seq2Seq)?TrainingArguments|(SFT|DPO|GRPO)Config)\b")


def _hf_arguments(text: str) -> bool:
    """Whether the job imports a transformers/TRL arguments class (not a project class of that name)."""
    if re.search(r"\b(transformers|trl)\.((Seq2Seq)?TrainingArguments|(SFT|DPO|GRPO)Config)\b", text):
        return True
    return any(_HF_NAMES.search(m.group(1)) for m in _HF_IMPORT.finditer(text))


def trainer_workers(cli: Any, as_int: Any) -> None:
    """``data.num_workers`` from a TrainingArguments ``dataloader_num_workers`` the line or the parser's
    file gives (rhymes-ai/Aria @ 9b25fecb recipes/config_full.yaml:9 ``dataloader_num_workers: 8`` read by
    TrlParser into SFTConfig; the Trainer's ``get_train_dataloader`` passes it to its DataLoader). The
    default is left to the readers of the loader (a Trainer subclass may build its own)."""
    opt = cli.decl.options.get("dataloader_num_workers")
    if opt is None or opt.library not in ("TrainingArguments", "SFTConfig", "DPOConfig"):
        return
    if not _hf_arguments(cli._texts()):
        return  # a project class merely named TrainingArguments: its options are its own
    found = cli.value("dataloader_num_workers")
    if found is not None and found[2].kind == "default":
        project_parser_defaults(cli)
    if found is None or found[2].kind == "default":
        return
    number = as_int(found[1])
    if number is not None and number >= 0:
        cli.add("data.num_workers", number, found[2], "medium")


_LIB_TRAINER = re.compile(r"^\s*from\s+(?:transformers|trl)[\w.]*\s+import\s+(?:\([^)]*\)|[^\n]*)", re.M)


def project_parser_defaults(cli: Any) -> None:
    """The Trainer's loader defaults (``dataloader_num_workers`` 0, ``dataloader_pin_memory`` True, transformers
    >= 4.3) where the job's TrainingArguments subclass is parsed by the project's own ``HfArgumentParser``
    subclass, which the transformers adapter does not follow: martin-wey/CodeUltraFeedback @ 0525dde
    ``src/dpo/run_dpo.py:22`` ``H4ArgumentParser((ModelArguments, DataArguments, DPOConfig))`` (the
    alignment-handbook parser, ``alignment/configs.py:32``) then TRL's ``DPOTrainer(...)`` (:127). Only when
    the launched script calls no ``HfArgumentParser``/``TrlParser`` itself, calls that project parser, builds
    a Trainer class imported from transformers/TRL, and no module read overrides ``get_train_dataloader``;
    low (a library default)."""
    text = cli.script.source.text
    if re.search(r"\b(HfArgumentParser|TrlParser)\s*\(", text) or not cli.decl.parser_classes:
        return
    if not any(re.search(rf"\b{re.escape(name)}\s*\(", text) for name in cli.decl.parser_classes):
        return
    imported = " ".join(m.group(0) for m in _LIB_TRAINER.finditer(text))
    trainers = [n for n in re.findall(r"\b(\w*Trainer)\b", imported) if re.search(rf"\b{n}\s*\(", text)]
    if not trainers or any("get_train_dataloader" in t for t in [text, *cli.decl.texts]):
        return
    from pathlib import Path

    from preflight.adapters.transformers_version import find_version

    path = cli.script.source.path
    tv = find_version("transformers", Path(str(path)).resolve().parent, cli.project.root) if path is not None \
        else None
    if tv is not None and tv.how == "pinned" and not tv.at_least(4, 3):
        return
    said = f"{trainers[0]}() over {cli.decl.parser_classes[0]}'s TrainingArguments: the Trainer's default"
    cli.add("data.num_workers", 0, Source("default", None, None, "dataloader_num_workers",
                                          f"{said} dataloader_num_workers=0 (transformers 4.3-5.24)"), "low")
    cli.add("data.pin_memory", True, Source("default", None, None, "dataloader_pin_memory",
                                            f"{said} dataloader_pin_memory=True (transformers 4.3-5.24)"), "low")


_ENABLES_CKPT = re.compile(r"\.gradient_checkpointing_enable\s*\(")


def enabled_in_project(cli: Any) -> bool:
    """Whether the script or a local module it reaches (four import levels) calls
    ``model.gradient_checkpointing_enable()`` itself, so that a parser's declared default
    ``gradient_checkpointing`` False says nothing: hiyouga/ChatGLM-Efficient-Tuning @ 3c12daa
    ``src/glmtuner/extras/misc.py:69,77-79`` (``prepare_model_for_training(..., use_gradient_checkpointing=True)``
    called by ``tuner/core/loader.py:133``) beside Seq2SeqTrainingArguments' default False."""
    from pathlib import Path

    from preflight.adapters.pytorch_local import _imported_up

    from preflight.sources import read_text_limited

    script = cli.script
    if _ENABLES_CKPT.search(script.source.text):
        return True
    if script.tree is None or script.source.path is None:
        return False
    root = Path(str(cli.project.root)) if cli.project.root else None
    for local in _imported_up(script.tree, Path(str(script.source.path)).resolve().parent, root, depth=4, limit=40):
        try:
            if _ENABLES_CKPT.search(read_text_limited(local, errors="replace")):
                return True
        except OSError:
            continue
    return False


_STAGE_HELP = re.compile(r"\bzero[\s_-]*stage\b|\bzero\s+optimi[sz]ation\s+stage\b", re.I)
_DS_IMPORT = re.compile(r"^\s*(import deepspeed\b|from deepspeed\b)", re.M)


def deepspeed_stage_option(cli: Any, as_int: Any) -> None:
    """``--zero_stage 2`` of a script whose project runs DeepSpeed, where the option is named or
    documented as the ZeRO stage (OpenRLHF ``--zero_stage``, help "DeepSpeed ZeRO stage", vendored by
    RUCAIBox/R1-Searcher @ 631167cb ``OpenRLHF-RAG/openrlhf/cli/train_ppo_ray.py:230``; the stage reaches
    ``get_train_ds_config(stage=...)`` through the project's strategy object, which is not followed):
    ``dist.sharding`` zero0-3, medium, only when given on the line and only one such option; and a
    store_true ``--overlap_comm`` given on the line (the same config's ``overlap_comm``)."""
    if not any(_DS_IMPORT.search(t) for t in [cli.script.source.text, *cli.decl.texts]):
        return
    names = [n for n, o in cli.decl.options.items()
             if (n == "zero_stage" or _STAGE_HELP.search(o.help or "")) and "." not in n]
    if len(names) == 1 and re.search(rf"=\s*\w+\.{re.escape(names[0])}\b", cli.script.source.text):
        names = []  # handed to a config builder in the script itself: the DeepSpeed dict reader reads it
    if len(names) == 1 and names[0] in cli.cli:
        found = cli.value(names[0])
        stage = as_int(found[1]) if found is not None else None
        if found is not None and stage in (0, 1, 2, 3):
            cli.add("dist.sharding", "ddp" if stage == 0 else f"zero{stage}",
                    Source(found[2].kind, found[2].path, found[2].line, found[2].key,
                           f"{found[2].detail}: the DeepSpeed ZeRO stage"), "medium")
    opt = cli.decl.options.get("overlap_comm")
    if opt is not None and opt.flag_only and "overlap_comm" in cli.cli:
        found = cli.value("overlap_comm")
        if found is not None and found[1] in (True, "", "true", "True"):
            cli.add("dist.overlap_comm", True, found[2], "medium")
