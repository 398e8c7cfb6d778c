"""PF139 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    import argparse

    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    parser = argparse.ArgumentParser()
    parser.add_argument("--resume_from_checkpoint", default=None)
    args = parser.parse_args()
    model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-1b")
    training_args = TrainingArguments(output_dir="out", save_total_limit=2,
                                      resume_from_checkpoint={value})
    trainer = Trainer(model=model, args=training_args, train_dataset=train_set)
    {train}{mark}
    trainer.save_model("out/final")
""")

_BAD = "  # error: PF139"

PF139_BAD = [
    # transformers issue 23325: the path reaches only the arguments
    _JOB.format(value="args.resume_from_checkpoint", train="trainer.train()", mark=_BAD),
    # a literal path, the Trainer built and trained in one expression
    textwrap.dedent("""
    from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments

    targs = Seq2SeqTrainingArguments("out", resume_from_checkpoint="out/checkpoint-3000")
    Seq2SeqTrainer(model=model, args=targs, train_dataset=train_set).train()  # error: PF139
    """),
    # a TRL config (a TrainingArguments subclass)
    textwrap.dedent("""
    from trl import SFTConfig, SFTTrainer

    config = SFTConfig(output_dir="out", resume_from_checkpoint=resume_path)
    trainer = SFTTrainer(model=model, args=config, train_dataset=data)
    trainer.train()  # error: PF139
    """),
]

PF139_GOOD = [
    # the fix: the checkpoint is handed to train()
    _JOB.format(value="args.resume_from_checkpoint",
                train="trainer.train(resume_from_checkpoint=training_args.resume_from_checkpoint)", mark=""),
    # positional
    _JOB.format(value="args.resume_from_checkpoint", train="trainer.train(args.resume_from_checkpoint)", mark=""),
    # no checkpoint given to the arguments
    _JOB.format(value="None", train="trainer.train()", mark=""),
    # tricky: the example scripts read the field back and pass it on a separate line
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments

    training_args = TrainingArguments("out", resume_from_checkpoint=resume)
    trainer = Trainer(model=model, args=training_args, train_dataset=train_set)
    checkpoint = None
    if training_args.resume_from_checkpoint is not None:
        checkpoint = training_args.resume_from_checkpoint
    train_result = trainer.train(resume_from_checkpoint=checkpoint)
    """),
    # tricky: a Trainer subclass reads the field from its own arguments
    textwrap.dedent("""
    from transformers import Trainer, TrainingArguments


    class ResumingTrainer(Trainer):
        def train(self, *a, **kw):
            return super().train(resume_from_checkpoint=self.args.resume_from_checkpoint)


    training_args = TrainingArguments("out", resume_from_checkpoint="out/checkpoint-10")
    ResumingTrainer(model=model, args=training_args).train()
    """),
    # tricky: a model's own train() (nn.Module.train) is not the Trainer's
    textwrap.dedent("""
    from transformers import TrainingArguments

    training_args = TrainingArguments("out", resume_from_checkpoint="ckpt")
    model.train()
    """),
]
