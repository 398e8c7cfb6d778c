"""PF478 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

from __future__ import annotations

import textwrap

_TEMPLATE = textwrap.dedent("""
    from transformers import AutoModelForSeq2SeqLM, DataCollatorForSeq2Seq, Seq2SeqTrainer, Seq2SeqTrainingArguments


    def main(tokenizer, tokenized, compute_metrics):
        model = AutoModelForSeq2SeqLM.from_pretrained("facebook/bart-base")
    {before}    args = Seq2SeqTrainingArguments(
            output_dir="bart-base-xsum",
            evaluation_strategy="{strategy}",
            per_device_eval_batch_size=16,
            predict_with_generate=True,{pin}{extra}
        )
        trainer = Seq2SeqTrainer(model=model, args=args, train_dataset=tokenized["train"],
                                 eval_dataset=tokenized["validation"], tokenizer=tokenizer,
                                 data_collator=DataCollatorForSeq2Seq(tokenizer, model=model),
                                 compute_metrics=compute_metrics)
        trainer.train()
    {after}""")


def _case(pin: str = "", extra: str = "", strategy: str = "epoch", before: str = "", after: str = "") -> str:
    return _TEMPLATE.format(pin=pin, extra=extra, strategy=strategy, before=before, after=after)


BAD_EXAMPLES = [
    # transformers issue 13252
    _case(pin="  # warning: PF478"),
    # no evaluation during training, but a final predict() without a length
    _case(pin="  # warning: PF478", strategy="no", after='    trainer.predict(tokenized["test"])\n'),
]

GOOD_EXAMPLES = [
    # the fix
    _case(extra="\n        generation_max_length=128,\n        generation_num_beams=4,"),
    # the length set on the model's generation config
    _case(before="    model.generation_config.max_new_tokens = 128\n"),
    # tricky: nothing evaluates during training, and the one evaluate() passes a length
    _case(strategy="no", after='    trainer.evaluate(max_length=128, num_beams=4)\n'),
    # tricky: no evaluation at all
    _case(strategy="no"),
    # tricky: no compute_metrics, the evaluation reports the teacher-forced loss only
    _case().replace(",\n                             compute_metrics=compute_metrics)", ")"),
]
