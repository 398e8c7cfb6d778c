"""PF657 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = """
    # --- run_seq2seq.py
    from dataclasses import dataclass, field

    from transformers import AutoModelForSeq2SeqLM, HfArgumentParser, Seq2SeqTrainer, Seq2SeqTrainingArguments


    @dataclass
    class Args:
        model_name_or_path: str = field(default="t5-small")
        val_max_target_length: int = field(default=128)


    args, training_args = HfArgumentParser((Args, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
    model = AutoModelForSeq2SeqLM.from_pretrained(args.model_name_or_path)
    {fix}
    trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=train, eval_dataset=val,{pin}
                             compute_metrics=compute_metrics)
    trainer.train()
    print(trainer.evaluate(max_length=args.val_max_target_length))
    # --- launch
    python run_seq2seq.py --model_name_or_path {model} --do_train --do_eval --output_dir tmp \\
        --evaluation_strategy steps --eval_steps 249 --predict_with_generate {extra}
"""


def _job(fix: str = "", pin: str = "", model: str = "t5-small", extra: str = "") -> str:
    return textwrap.dedent(_SCRIPT.replace("{fix}", fix).replace("{pin}", pin).replace("{model}", model)
                           .replace("{extra}", extra))


PF657_BAD = [
    # transformers issue 10032: the in-training evaluations generate 20 tokens; the max_length given to
    # the final evaluate() reaches only that call
    _job(pin="  # warning: PF657"),
    # a flan-t5 checkpoint, the strategy per epoch
    _job(pin="  # warning: PF657", model="google/flan-t5-base").replace("--evaluation_strategy steps",
                                                                         "--eval_strategy epoch"),
]

PF657_GOOD = [
    # the fix of issue 10032: the generation length set on the model before training
    _job(fix="model.config.max_length = args.val_max_target_length"),
    # the length on the launch line
    _job(extra="--generation_max_length 128"),
    # tricky: a BART-CNN checkpoint carries its own generation length (142)
    _job(model="facebook/bart-large-cnn"),
    # tricky: the current run_summarization.py assigns the arguments' length in the script
    _job(fix="training_args.generation_max_length = args.val_max_target_length"),
]
