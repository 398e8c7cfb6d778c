"""PF221 examples: executable documentation. A bad example marks each line it must be reported on
with a trailing ``# error: PF221`` comment; the meta-test asserts exactly those findings. Good
examples must stay silent."""

from __future__ import annotations

import textwrap

PF221_BAD = [
    # TRL issue 1163: packing switched on to fit long examples, the completion-only collator kept
    textwrap.dedent("""
    from trl import DataCollatorForCompletionOnlyLM, SFTTrainer


    def main(model, tokenizer, dataset, training_arguments, formatting_func):
        collator = DataCollatorForCompletionOnlyLM("### Response:\\n", tokenizer=tokenizer)
        trainer = SFTTrainer(
            model,
            args=training_arguments,
            train_dataset=dataset,
            formatting_func=formatting_func,
            data_collator=collator,
            max_seq_length=4096,
            packing=True,  # error: PF221
        )
        trainer.train()
"""),
    # TRL 0.12+: packing set on the SFTConfig, the collator built inline (PF409: packing without a
    # flash-attention kernel, reported on the config)
    textwrap.dedent("""
    from trl import DataCollatorForCompletionOnlyLM, SFTConfig, SFTTrainer

    config = SFTConfig(  # warning: PF409
        output_dir="out",
        max_seq_length=2048,
        packing=True,  # error: PF221
    )
    trainer = SFTTrainer(
        model="Qwen/Qwen2.5-0.5B",
        args=config,
        train_dataset=dataset,
        data_collator=DataCollatorForCompletionOnlyLM(response_template="<|im_start|>assistant\\n", tokenizer=tok),
    )
    trainer.train()
"""),
]

PF221_GOOD = [
    # the fix of the report: packing off with the completion-only collator
    textwrap.dedent("""
    from trl import DataCollatorForCompletionOnlyLM, SFTTrainer


    def main(model, tokenizer, dataset, training_arguments, formatting_func):
        collator = DataCollatorForCompletionOnlyLM("### Response:\\n", tokenizer=tokenizer)
        trainer = SFTTrainer(model, args=training_arguments, train_dataset=dataset, formatting_func=formatting_func,
                             data_collator=collator, max_seq_length=4096, packing=False)
        trainer.train()
"""),
    # tricky-correct: the collator is only used when packing is off (the choice is an expression)
    textwrap.dedent("""
    from trl import DataCollatorForCompletionOnlyLM, SFTConfig, SFTTrainer

    config = SFTConfig(output_dir="out", packing=True)
    collator = None if config.packing else DataCollatorForCompletionOnlyLM("### Answer:", tokenizer=tok)
    SFTTrainer(model=model, args=config, train_dataset=dataset, data_collator=collator).train()
"""),
    # tricky-correct: packing with the plain language-modelling collator; the completion-only one is
    # built for another (unpacked) trainer in another function
    textwrap.dedent("""
    from transformers import DataCollatorForLanguageModeling
    from trl import DataCollatorForCompletionOnlyLM, SFTConfig, SFTTrainer


    def pretrain(model, tok, ds):
        collator = DataCollatorForLanguageModeling(tok, mlm=False)
        SFTTrainer(model=model, args=SFTConfig(output_dir="pt", packing=True), train_dataset=ds,
                   data_collator=collator).train()


    def instruct(model, tok, ds):
        collator = DataCollatorForCompletionOnlyLM("### Answer:", tokenizer=tok)
        SFTTrainer(model=model, args=SFTConfig(output_dir="it", packing=False), train_dataset=ds,
                   data_collator=collator).train()
"""),
    # packing from the command line: not known statically
    textwrap.dedent("""
    from trl import DataCollatorForCompletionOnlyLM, SFTTrainer


    def main(args, model, tok, ds):
        collator = DataCollatorForCompletionOnlyLM("### Answer:", tokenizer=tok)
        SFTTrainer(model=model, train_dataset=ds, data_collator=collator, packing=args.packing).train()
"""),
]
