"""8-bit weights loaded through a project's table of model classes (issue 15, set 25: Alpaca-CoT
``uniform_finetune.py`` @ bd46c44:235 ``model_class.model.from_pretrained(..., load_in_8bit=True)``).
Twins: arms of an undecided switch loading 4-bit in one and 8-bit in the other say nothing; an arm
the job does not take says nothing."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

SCRIPT = """\
    import argparse
    import torch
    from collections import namedtuple
    from transformers import LlamaForCausalLM, LlamaTokenizer, GPT2LMHeadModel, GPT2Tokenizer

    ModelClass = namedtuple("ModelClass", ("model", "tokenizer"))
    CLASSES = {{"llama": ModelClass(LlamaForCausalLM, LlamaTokenizer), "gpt2": ModelClass(GPT2LMHeadModel, GPT2Tokenizer)}}
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_type", default="llama")
    args = parser.parse_args()
    model_class = CLASSES[args.model_type]
    if args.model_type == "chatglm":
        model = model_class.model.from_pretrained("some/model", {OTHER}=True)
    else:
        model = model_class.model.from_pretrained("some/model", load_in_8bit=True)
    opt = torch.optim.AdamW(model.parameters())
    for x in torch.utils.data.DataLoader(list(range(8)), batch_size=2):
        model(x).loss.backward()
        opt.step()
        opt.zero_grad()
"""


def _plan(cli, tmp_path, other: str = "load_in_8bit", *line: str) -> dict:
    write(tmp_path, {"train.py": SCRIPT.replace("{{", "{").replace("}}", "}").replace("{OTHER}", other)})
    return plan_of(cli, "train.py", "--", *line, cwd=tmp_path)


def test_a_quantized_load_through_a_table_of_classes_gives_the_weight_width(cli, tmp_path):
    best = fact(_plan(cli, tmp_path, "load_in_8bit", "--model_type", "llama"), "precision.weights_bits")
    assert best is not None and best.value == 8 and best.confidence in ("medium", "low")


def test_twin_the_arm_the_job_takes_decides_the_width(cli, tmp_path):
    best = fact(_plan(cli, tmp_path, "load_in_4bit", "--model_type", "llama"), "precision.weights_bits")
    assert best is not None and best.value == 8


def test_twin_undecided_arms_that_disagree_say_nothing(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT.replace("{{", "{").replace("}}", "}").replace("{OTHER}", "load_in_4bit")
                     .replace('parser.add_argument("--model_type", default="llama")\n',
                              'parser.add_argument("--model_type", required=True)\n')})
    plan = plan_of(cli, "train.py", cwd=tmp_path)
    assert fact(plan, "precision.weights_bits") is None


def test_undecided_arms_that_agree_give_the_width_at_low(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT.replace("{{", "{").replace("}}", "}").replace("{OTHER}", "load_in_8bit")
                     .replace('parser.add_argument("--model_type", default="llama")\n',
                              'parser.add_argument("--model_type", required=True)\n')})
    best = fact(plan_of(cli, "train.py", cwd=tmp_path), "precision.weights_bits")
    assert best is not None and best.value == 8 and best.confidence == "low"
