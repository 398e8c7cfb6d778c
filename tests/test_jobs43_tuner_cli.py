"""Set 43's misses (issue 15), read from shapes of the real repositories:

- hiyouga/ChatGLM-Efficient-Tuning @ 3c12daa (and LLaMA-Factory before its YAML recipes):
  ``src/train_bash.py --stage sft --do_train --finetuning_type lora``, an HfArgumentParser over the
  project's own dataclasses and a stage switch into a workflow deeper than the audit follows
  (adapters/llamafactory_cli.py). Twins: evaluation only (no ``--do_train``), a parser that does not
  declare ``finetuning_type``, P-Tuning v2, ``--disable_gradient_checkpointing``.
- OpenLMLab/MOSS @ c810e0b ``finetune_moss.py:182`` ``model.transformer.gradient_checkpointing = True``
  (adapters/pytorch_features.py). Twins: the flag set on options, a config or under an ``if``.
- the same script's ``DataLoader(collate_fn=train_dataset.collate_fn)`` whose method pads with
  ``pad_sequence`` (adapters/collator_pad.py). Twins: a collate_fn that stacks, a tokenizer padding to
  max_length.
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN_BASH = """\
    from glmtuner.tuner import get_train_args, run_sft


    def main():
        model_args, data_args, training_args, finetuning_args, general_args = get_train_args()
        if general_args.stage == "sft":
            run_sft(model_args, data_args, training_args, finetuning_args)


    if __name__ == "__main__":
        main()
"""

TUNER_INIT = """\
    from glmtuner.tuner.core import get_train_args
    from glmtuner.tuner.sft import run_sft
"""

PARSER = """\
    from transformers import HfArgumentParser, Seq2SeqTrainingArguments
    from glmtuner.hparams import ModelArguments, FinetuningArguments, GeneralArguments


    def get_train_args():
        parser = HfArgumentParser((ModelArguments, Seq2SeqTrainingArguments, FinetuningArguments, GeneralArguments))
        return parser.parse_args_into_dataclasses()
"""

HPARAMS = """\
    from dataclasses import dataclass, field
    from typing import Literal, Optional


    @dataclass
    class ModelArguments:
        model_name_or_path: Optional[str] = field(default="THUDM/chatglm-6b")


    @dataclass
    class FinetuningArguments:
        finetuning_type: Optional[Literal["none", "freeze", "p_tuning", "lora", "full"]] = field(default="lora")
        lora_rank: Optional[int] = field(default=8)
        {EXTRA}


    @dataclass
    class GeneralArguments:
        stage: Optional[Literal["sft", "rm", "ppo"]] = field(default="sft")
"""


def _tuner(cli, tmp_path, *args: str, extra: str = "lora_alpha: Optional[float] = field(default=32.0)",
           field: str = "finetuning_type") -> dict:
    write(tmp_path, {
        "src/train_bash.py": TRAIN_BASH,
        "src/glmtuner/__init__.py": "",
        "src/glmtuner/tuner/__init__.py": TUNER_INIT,
        "src/glmtuner/tuner/core/__init__.py": "from glmtuner.tuner.core.parser import get_train_args\n",
        "src/glmtuner/tuner/core/parser.py": PARSER,
        "src/glmtuner/tuner/sft/__init__.py": "def run_sft(*args):\n    pass\n",
        "src/glmtuner/hparams/__init__.py": HPARAMS.replace("{EXTRA}", extra).replace("finetuning_type:", field + ":"),
    })
    return plan_of(cli, "src/train_bash.py", "--", *args, cwd=tmp_path)


_LINE = ("--stage", "sft", "--model_name_or_path", "THUDM/chatglm-6b", "--do_train", "--dataset", "alpaca_gpt4_en",
         "--output_dir", "out", "--per_device_train_batch_size", "4", "--fp16")


def test_finetuning_type_lora_on_the_line_is_lora_with_the_declared_rank(cli, tmp_path):
    plan = _tuner(cli, tmp_path, *_LINE, "--finetuning_type", "lora")
    assert fact(plan, "peft.method").value == "lora"
    assert fact(plan, "task.mode").value == "lora"
    rank = fact(plan, "peft.rank")
    assert rank.value == 8 and rank.confidence == "medium" and rank.source.path.endswith("hparams/__init__.py")
    assert fact(plan, "memory.gradient_checkpointing").value is True
    assert fact(plan, "data.num_workers").value == 0


def test_rank_and_workers_given_on_the_line_win(cli, tmp_path):
    plan = _tuner(cli, tmp_path, *_LINE, "--finetuning_type", "lora", "--lora_rank", "64",
                  "--dataloader_num_workers", "4", "--disable_gradient_checkpointing")
    assert fact(plan, "peft.rank").value == 64
    assert fact(plan, "data.num_workers").value == 4
    assert fact(plan, "memory.gradient_checkpointing").value is False


def test_full_and_freeze_are_no_peft(cli, tmp_path):
    for kind in ("full", "freeze"):
        plan = _tuner(cli, tmp_path, *_LINE, "--finetuning_type", kind)
        assert fact(plan, "peft.method").value == "none"
        assert fact(plan, "peft.rank") is None


def test_quantized_lora_leaves_task_mode_unknown(cli, tmp_path):
    plan = _tuner(cli, tmp_path, *_LINE, "--finetuning_type", "lora", "--quantization_bit", "4")
    assert fact(plan, "peft.method").value == "lora"
    assert fact(plan, "task.mode") is None


def test_p_tuning_states_nothing(cli, tmp_path):
    plan = _tuner(cli, tmp_path, *_LINE, "--finetuning_type", "p_tuning")
    assert fact(plan, "peft.method") is None
    best = fact(plan, "memory.gradient_checkpointing")
    assert best is None or best.adapter != "llamafactory_cli"


def test_evaluation_only_states_nothing(cli, tmp_path):
    line = [a for a in _LINE if a != "--do_train"]
    plan = _tuner(cli, tmp_path, *line, "--do_eval", "--finetuning_type", "lora")
    assert fact(plan, "peft.method") is None


def test_a_parser_without_finetuning_type_states_nothing(cli, tmp_path):
    plan = _tuner(cli, tmp_path, *_LINE, "--finetuning_type", "lora")
    assert fact(plan, "peft.method") is not None
    plan = _tuner(cli, tmp_path, *_LINE, "--finetuning_type", "lora", field="tuning_kind")
    assert fact(plan, "peft.method") is None


MOSS = """\
    import argparse
    import torch
    from torch.utils.data import Dataset, DataLoader
    from transformers import AutoModelForCausalLM, AutoTokenizer


    class SFTDataset(Dataset):
        def __init__(self, tokenizer):
            self.tokenizer = tokenizer
            self.data = []

        def __len__(self):
            return len(self.data)

        def __getitem__(self, index):
            return torch.tensor(self.data[index])

        def collate_fn(self, batch):
            {COLLATE}


    def train(args):
        tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path, trust_remote_code=True)
        model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path, trust_remote_code=True, use_cache=False)
        {SWITCH}
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
        train_dataset = SFTDataset(tokenizer)
        loader = DataLoader(train_dataset, batch_size=args.train_bsz_per_gpu, shuffle=True,
                            collate_fn=train_dataset.collate_fn)
        for batch in loader:
            loss = model(batch, labels=batch).loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_name_or_path", default="fnlp/moss-moon-003-base", type=str)
        parser.add_argument("--learning_rate", default=1e-5, type=float)
        parser.add_argument("--train_bsz_per_gpu", default=4, type=int)
        parser.add_argument("--grad_ckpt", action="store_true")
        train(parser.parse_args())
"""

_PAD = ("return torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, "
        "padding_value=self.tokenizer.eos_token_id)")


def _moss(cli, tmp_path, switch: str = "model.transformer.gradient_checkpointing = True",
          collate: str = _PAD) -> dict:
    write(tmp_path, {"finetune_moss.py": MOSS.replace("{SWITCH}", switch).replace("{COLLATE}", collate)})
    return plan_of(cli, "finetune_moss.py", cwd=tmp_path)


def test_the_backbone_flag_set_by_hand_is_checkpointing(cli, tmp_path):
    best = fact(_moss(cli, tmp_path), "memory.gradient_checkpointing")
    assert best is not None and best.value is True and best.confidence == "medium" and best.source.line == 25


def test_the_flag_on_options_a_config_or_under_an_if_is_not_read(cli, tmp_path):
    for switch in ("args.gradient_checkpointing = True", "model.config.gradient_checkpointing = True",
                   "if args.grad_ckpt:\n            model.transformer.gradient_checkpointing = True",
                   "model.transformer.gradient_checkpointing = False"):
        best = fact(_moss(cli, tmp_path, switch=switch), "memory.gradient_checkpointing")
        assert best is None or best.value is not True, switch


def test_a_collate_fn_method_padding_with_pad_sequence_is_dynamic(cli, tmp_path):
    best = fact(_moss(cli, tmp_path), "data.padding")
    assert best is not None and best.value == "dynamic" and best.source.line == 28


def test_a_collate_fn_that_stacks_or_text_padded_to_max_length_is_not_dynamic(cli, tmp_path):
    best = fact(_moss(cli, tmp_path, collate="return torch.stack(batch)"), "data.padding")
    assert best is None or best.value != "dynamic"
    fixed = ("ids = self.tokenizer(batch, padding='max_length', max_length=512)\n"
             "            return torch.nn.utils.rnn.pad_sequence(ids, batch_first=True)")
    best = fact(_moss(cli, tmp_path, collate=fixed), "data.padding")
    assert best is None or best.value != "dynamic"
