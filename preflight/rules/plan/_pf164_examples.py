"""PF164 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_SCRIPT = """
    # --- run_seq2seq_qa.py
    import numpy as np
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, HfArgumentParser, Seq2SeqTrainingArguments

    from trainer_seq2seq_qa import QuestionAnsweringSeq2SeqTrainer

    model_args, data_args, training_args = HfArgumentParser(
        (ModelArguments, DataArguments, Seq2SeqTrainingArguments)).parse_args_into_dataclasses()
    tokenizer = AutoTokenizer.from_pretrained(model_args.model_name_or_path)
    model = AutoModelForSeq2SeqLM.from_pretrained(model_args.model_name_or_path)


    def post_processing_function(examples, features, outputs, stage="eval"):
        preds = np.where(outputs.predictions != -100, outputs.predictions, tokenizer.pad_token_id)
        return tokenizer.batch_decode(preds, skip_special_tokens=True), [ex["answers"] for ex in examples]


    {guard}
    trainer = QuestionAnsweringSeq2SeqTrainer(model=model, args=training_args, train_dataset=train_ds,{pin}
                                              eval_dataset=eval_ds, eval_examples=eval_examples,
                                              tokenizer=tokenizer, compute_metrics={metrics},
                                              post_process_function=post_processing_function)
    trainer.train()
    print(trainer.evaluate(max_length=30))
    # --- launch
    python run_seq2seq_qa.py --model_name_or_path google/mt5-small --dataset_name mlqa --output_dir ./mt5-small --do_train {flags}
"""


def _job(flags: str = "--do_eval", pin: str = "", guard: str = "", metrics: str = "metric_fn") -> str:
    return textwrap.dedent(_SCRIPT.replace("{flags}", flags).replace("{pin}", pin).replace("{guard}", guard)
                           .replace("{metrics}", metrics))


PF164_BAD = [
    # transformers issue 22640 (held-out-43): run_seq2seq_qa.py on MLQA with --do_train --do_eval
    _job(pin="  # warning: PF164"),
    # evaluation during training by strategy
    _job(flags="--evaluation_strategy epoch", pin="  # warning: PF164"),
]

PF164_GOOD = [
    # the fix: generation on the launch line
    _job(flags="--do_eval --predict_with_generate"),
    # tricky-correct: no evaluation at all
    _job(flags="--save_steps 5000"),
    # tricky-correct: the summarization examples' guard (metrics only when generating)
    _job(guard="metric_fn = metric_fn if training_args.predict_with_generate else None"),
    # tricky-correct: no compute_metrics (the evaluation reports the loss on purpose)
    _job(metrics="None"),
]
