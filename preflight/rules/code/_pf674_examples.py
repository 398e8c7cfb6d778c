"""PF674 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_JOB = textwrap.dedent("""
    from datasets import load_dataset
    from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments, WhisperForConditionalGeneration

    model = WhisperForConditionalGeneration.from_pretrained("openai/whisper-small")
    train_ds = load_dataset("json", data_files={{"train": "train.jsonl"}}, split="train"{streaming})
    train_ds = train_ds.map(prepare, remove_columns=["audio", "sentence"])
    args = Seq2SeqTrainingArguments(output_dir="out", num_train_epochs=3{max_steps}){mark}
    trainer = Seq2SeqTrainer(model=model, args=args, train_dataset=train_ds, data_collator=collator)
    trainer.train()
""")

PF674_BAD = [
    # datasets issue 5773: a streamed Whisper training set, epochs and no max_steps
    _JOB.format(streaming=", streaming=True", max_steps="", mark="  # error: PF674"),
    # a streamed IterableDatasetDict, its train split shuffled
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    raw = load_dataset("allenai/c4", "en", streaming=True)
    train = raw["train"].shuffle(seed=0, buffer_size=10_000)
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    args = TrainingArguments("out", per_device_train_batch_size=8)  # error: PF674
    Trainer(model=model, args=args, train_dataset=train, data_collator=collator).train()
    """),
]

PF674_GOOD = [
    # the fix: max_steps
    _JOB.format(streaming=", streaming=True", max_steps=", max_steps=4000", mark="").replace(
        "num_train_epochs=3, ", ""),
    # not streamed: a map-style Dataset has a length
    _JOB.format(streaming="", max_steps="", mark=""),
    # tricky: the arguments come from the command line (--max_steps may be given there)
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    (args,) = HfArgumentParser((TrainingArguments,)).parse_args_into_dataclasses()
    train = load_dataset("allenai/c4", "en", split="train", streaming=True)
    Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=args, train_dataset=train).train()
    """),
    # tricky: the stream is materialised into a Dataset with a length before training
    textwrap.dedent("""
    from datasets import Dataset, load_dataset
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    stream = load_dataset("allenai/c4", "en", split="train", streaming=True)
    train = Dataset.from_list(list(stream.take(10_000)))
    args = TrainingArguments("out", num_train_epochs=1)
    Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=args, train_dataset=train).train()
    """),
    # tricky: max_steps set on the arguments object afterwards
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    train = load_dataset("allenai/c4", "en", split="train", streaming=True)
    args = TrainingArguments("out", num_train_epochs=1)
    args.max_steps = 1000
    Trainer(model=AutoModelForCausalLM.from_pretrained("gpt2"), args=args, train_dataset=train).train()
    """),
]
