"""Shapes of the tenth held-out jobs set (issue 15), in minimal fixtures of our own that
cite the repository, path and commit they copy the shape of. Found by the set's first scoring
(bench/realworld/jobs/first_scoring_held_out_10.txt); the set is in-sample for these."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from preflight.plan import TrainingPlan


def plan_of(cli, root: Path, *launch: str) -> TrainingPlan:
    res = cli("audit", "--emit-plan", "json", "--", *launch, cwd=root)
    assert res.code in (0, 1), res.err
    return TrainingPlan.from_dict(json.loads(res.out))


# huggingface/distil-whisper training/run_distillation.py:986-1004,1394-1402 @ cc96130f6e4cc74cab4545f3c6e7e5c204ced871:
# the teacher is loaded first, the student second; only the student's parameters reach the optimizer.
DISTIL = """\
    import argparse

    import torch
    from accelerate import Accelerator
    from transformers import WhisperForConditionalGeneration

    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path")
    parser.add_argument("--teacher_model_name_or_path")
    args = parser.parse_args()

    accelerator = Accelerator()
    teacher_model = WhisperForConditionalGeneration.from_pretrained(args.teacher_model_name_or_path,
                                                                    torch_dtype=torch.float16)
    student_model = WhisperForConditionalGeneration.from_pretrained(args.model_name_or_path)
    groups = [{"params": [p for n, p in student_model.named_parameters() if "bias" not in n]}]
    optimizer = torch.optim.AdamW(groups, lr=1e-4)
    student_model, teacher_model, optimizer = accelerator.prepare(student_model, teacher_model, optimizer)
"""
LAUNCH = ("accelerate", "launch", "train.py", "--model_name_or_path", "distil-whisper/distil-large-v3",
          "--teacher_model_name_or_path", "openai/whisper-large-v3")


def _write(root: Path, text: str) -> None:
    (root / "train.py").write_text(textwrap.dedent(text))


def test_distillation_trains_the_student_not_the_teacher(cli, tmp_path: Path) -> None:
    _write(tmp_path, DISTIL)
    plan = plan_of(cli, tmp_path, *LAUNCH)
    best = plan.resolve("model.ref")
    assert best is not None and best.value == "distil-whisper/distil-large-v3" and best.confidence == "high"
    teacher = [f for f in plan.facts("model.ref") if f.value == "openai/whisper-large-v3"]
    assert teacher and teacher[0].confidence == "low" and "does not train" in (teacher[0].source.detail or "")
    # the teacher's fp16 load is not the trained model's precision
    assert plan.value("precision.weights_bits") != 16


def test_two_models_whose_parameters_are_not_read_keep_the_first(cli, tmp_path: Path) -> None:
    # nothing says which one trains (a Trainer gets one of them): the first load stays, unchanged
    _write(tmp_path, DISTIL.replace("student_model.named_parameters()", "[]"))
    plan = plan_of(cli, tmp_path, *LAUNCH)
    refs = plan.facts("model.ref")
    assert len(refs) >= 2 and not any("does not train" in (f.source.detail or "") for f in refs)


def test_both_models_trained_keeps_both_high(cli, tmp_path: Path) -> None:
    _write(tmp_path, DISTIL.replace('"bias" not in n]}]',
                                    '"bias" not in n] + list(teacher_model.parameters())}]'))
    plan = plan_of(cli, tmp_path, *LAUNCH)
    refs = plan.facts("model.ref")
    assert len(refs) >= 2 and not any("does not train" in (f.source.detail or "") for f in refs)


def test_a_device_probe_on_the_teacher_is_not_training(cli, tmp_path: Path) -> None:
    # `next(teacher_model.parameters()).device` (a pattern in real distillation scripts) reads where
    # the teacher is; the student still is the one whose parameters reach the optimizer
    _write(tmp_path, DISTIL + "    device = next(teacher_model.parameters()).device\n")
    plan = plan_of(cli, tmp_path, *LAUNCH)
    best = plan.resolve("model.ref")
    assert best is not None and best.value == "distil-whisper/distil-large-v3"


def test_teacher_frozen_by_requires_grad(cli, tmp_path: Path) -> None:
    # no optimizer in the script (a Trainer gets the student), the teacher frozen in so many words
    _write(tmp_path, DISTIL.replace("student_model.named_parameters()", "[]")
           + "    teacher_model.requires_grad_(False)\n")
    plan = plan_of(cli, tmp_path, *LAUNCH)
    best = plan.resolve("model.ref")
    assert best is not None and best.value == "distil-whisper/distil-large-v3"


# ise-uiuc/magicoder src/magicoder/train.py:177-189 @ the set-10 commit: the model comes from
# `get_model_context(...)` of another module (llm_wrapper.py:411-420 loads it with
# torch_dtype=torch.bfloat16) and the Trainer gets `--bf16 True`.
MAGICODER = """\
    from dataclasses import dataclass

    from transformers import HfArgumentParser, Trainer, TrainingArguments

    from helpers import get_model_context


    @dataclass
    class Args:
        model_key: str = "deepseek-ai/deepseek-coder-6.7b-base"


    def main():
        args, training_args = HfArgumentParser((Args, TrainingArguments)).parse_args_into_dataclasses()
        state = get_model_context(args.model_key)
        trainer = Trainer(model=state.model, args=training_args)
        trainer.train()


    main()
"""
TRAINER_LAUNCH = ("accelerate", "launch", "train.py", "--bf16", "True", "--output_dir", "out",
                  "--per_device_train_batch_size", "2")


def test_trainer_bf16_over_a_model_loaded_out_of_sight_is_medium(cli, tmp_path: Path) -> None:
    _write(tmp_path, MAGICODER)
    plan = plan_of(cli, tmp_path, *TRAINER_LAUNCH)
    best = plan.resolve("precision.mode")
    assert best is not None and best.value == "amp_bf16" and best.confidence == "medium"
    assert "no load of the model was read" in (best.source.detail or "")


def test_trainer_bf16_over_a_model_loaded_in_the_script_stays_high(cli, tmp_path: Path) -> None:
    _write(tmp_path, MAGICODER.replace("from helpers import get_model_context\n",
                                       "from transformers import AutoModelForCausalLM\n")
           .replace("state = get_model_context(args.model_key)",
                    "model = AutoModelForCausalLM.from_pretrained(args.model_key)")
           .replace("model=state.model", "model=model"))
    plan = plan_of(cli, tmp_path, *TRAINER_LAUNCH)
    best = plan.resolve("precision.mode")
    assert best is not None and best.value == "amp_bf16" and best.confidence == "high"
