"""PF500 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch command); findings
on JSON lines are pinned in a ``# --- expect`` section."""

import textwrap

_TRAINER = textwrap.dedent("""
    # --- train_bert2bert.py
    from transformers import (AutoTokenizer, {cls}, HfArgumentParser, Seq2SeqTrainer,
                              Seq2SeqTrainingArguments, DataCollatorForSeq2Seq)


    def main(train_ds):
        (training_args,) = HfArgumentParser(Seq2SeqTrainingArguments).parse_args_into_dataclasses()
        tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
        model = {build}
        trainer = Seq2SeqTrainer(model=model, args=training_args, train_dataset=train_ds,
                                 data_collator=DataCollatorForSeq2Seq(tokenizer, model=model))
        trainer.train()
    # --- ds_z3.json
    {{
      "fp16": {{"enabled": "auto"}},
      "zero_optimization": {{
        "stage": 3,
        "reduce_bucket_size": {reduce},
        "stage3_prefetch_bucket_size": {prefetch},
        "stage3_param_persistence_threshold": {persist}
      }},
      "train_batch_size": "auto",
      "train_micro_batch_size_per_gpu": "auto"
    }}
    # --- launch
    deepspeed --num_gpus 4 train_bert2bert.py --deepspeed ds_z3.json --output_dir out
""")

_B2B = 'EncoderDecoderModel.from_encoder_decoder_pretrained("bert-base-uncased", "bert-base-uncased")'

BAD_EXAMPLES = [
    # transformers issue 22176: bert2bert under ZeRO-3 with the three hidden-size keys "auto"
    _TRAINER.format(cls="EncoderDecoderModel", build=_B2B, reduce='"auto"', prefetch='"auto"', persist='"auto"')
    + "# --- expect\nds_z3.json:5: error: PF500\n",
    # an image-captioning VisionEncoderDecoderModel, only the stage-3 prefetch size left "auto"
    _TRAINER.format(cls="VisionEncoderDecoderModel",
                    build='VisionEncoderDecoderModel.from_pretrained("nlpconnect/vit-gpt2-image-captioning")',
                    reduce="500000000", prefetch='"auto"', persist="100000")
    + "# --- expect\nds_z3.json:6: error: PF500\n",
]

GOOD_EXAMPLES = [
    # the fix: the values written from bert-base's hidden size 768
    _TRAINER.format(cls="EncoderDecoderModel", build=_B2B, reduce="589824", prefetch="530841", persist="7680"),
    # tricky-correct: "auto" for an ordinary seq2seq model, whose config has hidden_size (T5 maps d_model to it)
    _TRAINER.format(cls="AutoModelForSeq2SeqLM", build='AutoModelForSeq2SeqLM.from_pretrained("t5-base")',
                    reduce='"auto"', prefetch='"auto"', persist='"auto"'),
    # tricky-correct (transformers issue 20169's workaround): the script sets the composite config's hidden_size
    _TRAINER.format(cls="EncoderDecoderModel", build=_B2B + "\n    model.config.hidden_size = 768",
                    reduce='"auto"', prefetch='"auto"', persist='"auto"'),
]
