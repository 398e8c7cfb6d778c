"""The HF Trainer's ``--fsdp`` words without ``offload``: FSDP keeps parameters and optimizer state on
the GPU (issue 15, set 32: OpenGVLab-style RRHF ``train.sh:9`` ``--fsdp "full_shard auto_wrap"``, left
open by the first reading). Twins: the ``offload`` word; ``accelerate launch``, whose config may offload."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    parser = HfArgumentParser((TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=training_args).train()
    """


def _plan(cli, tmp_path, *line: str) -> dict:
    write(tmp_path, {"train.py": SCRIPT})
    return plan_of(cli, *line, cwd=tmp_path)


def test_fsdp_words_without_offload_mean_no_offload(cli, tmp_path):
    plan = _plan(cli, tmp_path, "train.py", "--", "--output_dir", "o", "--fsdp", "full_shard auto_wrap")
    for field in ("dist.offload_params", "dist.offload_optimizer"):
        got = fact(plan, field)
        assert (got.value, got.confidence) == ("none", "medium")
        assert "no `offload` word" in got.source.detail
    assert fact(plan, "dist.sharding").value == "fsdp_full"


def test_twin_the_offload_word_offloads(cli, tmp_path):
    plan = _plan(cli, tmp_path, "train.py", "--", "--output_dir", "o", "--fsdp", "full_shard offload auto_wrap")
    assert fact(plan, "dist.offload_params").value == "cpu"


def test_twin_under_accelerate_launch_nothing_is_concluded(cli, tmp_path):
    plan = _plan(cli, tmp_path, "train.py", "--", "accelerate", "launch", "train.py", "--output_dir", "o",
                 "--fsdp", "full_shard auto_wrap")
    got = fact(plan, "dist.offload_params")
    assert got is None or got.value != "none"
