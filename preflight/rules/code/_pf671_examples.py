"""PF671 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    from transformers import ({model_cls}, AutoTokenizer, DataCollatorForSeq2Seq, Seq2SeqTrainer,
                              Seq2SeqTrainingArguments)

    tokenizer = AutoTokenizer.from_pretrained("{ckpt}")
    model = {model_cls}.from_pretrained("{ckpt}")
    args = Seq2SeqTrainingArguments(output_dir="out", label_smoothing_factor={factor}, predict_with_generate=True)
    trainer = Seq2SeqTrainer(
        model=model,
        args=args,
        train_dataset=train_set,
        data_collator={collator},{mark}
        tokenizer=tokenizer,
    )
    trainer.train()
""")

_NAMED = textwrap.dedent("""
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, DataCollatorForSeq2Seq, Trainer, TrainingArguments

    LABEL_SMOOTHING = 0.1
    tokenizer = AutoTokenizer.from_pretrained("t5-small")
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    collator = DataCollatorForSeq2Seq(tokenizer, label_pad_token_id=-100){mark}
    args = TrainingArguments("out", label_smoothing_factor=LABEL_SMOOTHING)
    Trainer(model=model, args=args, train_dataset=train_set, data_collator=collator).train()
""")

_BART = dict(model_cls="BartForConditionalGeneration", ckpt="facebook/bart-base")
_BAD = "  # error: PF671"

PF671_BAD = [
    # transformers issue 10452: BART, label smoothing, a collator without the model
    _JOB.format(**_BART, factor=0.1, collator="DataCollatorForSeq2Seq(tokenizer)", mark=_BAD),
    # T5 through the Auto class, the collator bound to a name, the factor a module constant
    _NAMED.format(mark=_BAD),
]

PF671_GOOD = [
    # the fix: the collator prepares decoder_input_ids from the labels
    _JOB.format(**_BART, factor=0.1, collator="DataCollatorForSeq2Seq(tokenizer, model=model)", mark=""),
    # the model as the second positional argument
    _JOB.format(**_BART, factor=0.1, collator="DataCollatorForSeq2Seq(tokenizer, model)", mark=""),
    # no label smoothing: the model receives the labels and shifts them itself
    _JOB.format(**_BART, factor=0.0, collator="DataCollatorForSeq2Seq(tokenizer)", mark=""),
    # tricky: a causal LM (logits follow input_ids; the smoother shifts the labels itself)
    _JOB.format(model_cls="AutoModelForCausalLM", ckpt="gpt2", factor=0.1,
                collator="DataCollatorForSeq2Seq(tokenizer)", mark=""),
    # tricky: a vision-language ...ForConditionalGeneration is a decoder-only model
    _JOB.format(model_cls="LlavaForConditionalGeneration", ckpt="llava-hf/llava-1.5-7b-hf", factor=0.1,
                collator="DataCollatorForSeq2Seq(tokenizer)", mark=""),
    # tricky: a Trainer subclass computes its own loss (labels are not popped by the Trainer)
    textwrap.dedent('''
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer, DataCollatorForSeq2Seq, Seq2SeqTrainer
    from transformers import Seq2SeqTrainingArguments


    class MyTrainer(Seq2SeqTrainer):
        def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
            outputs = model(**inputs)
            return (outputs.loss, outputs) if return_outputs else outputs.loss


    tokenizer = AutoTokenizer.from_pretrained("t5-small")
    model = AutoModelForSeq2SeqLM.from_pretrained("t5-small")
    args = Seq2SeqTrainingArguments("out", label_smoothing_factor=0.1)
    MyTrainer(model=model, args=args, train_dataset=ds, data_collator=DataCollatorForSeq2Seq(tokenizer)).train()
    '''),
]
