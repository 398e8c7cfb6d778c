"""PF475 examples (single files): bad ones must fire at the pinned line, good ones stay silent."""

import textwrap

BAD_EXAMPLES = [
    # transformers issue 22119: a text dataset tokenized lazily by with_transform
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("distilgpt2")
    model = AutoModelForCausalLM.from_pretrained("distilgpt2")


    def tokenize(batch):
        return tokenizer(batch["text"], truncation=True, max_length=256)


    train_dataset = load_dataset("text", data_files={"train": "corpus.txt"})["train"].with_transform(tokenize)
    args = TrainingArguments(output_dir="clm-out", per_device_train_batch_size=16)  # error: PF475
    trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
    trainer.train()
"""),
    # an image DatasetDict given set_transform, the arguments inline, a local Trainer subclass
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import Trainer, TrainingArguments


    class MyTrainer(Trainer):
        pass


    def train(model, processor):
        ds = load_dataset("beans")

        def transform(batch):
            inputs = processor([img.convert("RGB") for img in batch["image"]], return_tensors="pt")
            inputs["labels"] = batch["labels"]
            return inputs

        ds.set_transform(transform)
        trainer = MyTrainer(model=model, train_dataset=ds["train"], eval_dataset=ds["validation"],
                            args=TrainingArguments("vit-beans", remove_unused_columns=True))  # error: PF475
        trainer.train()
"""),
    # transformers issue 17894 (run_image_classification.py): each split of the DatasetDict given its
    # own set_transform in place, the splits handed to the Trainer
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForImageClassification, Trainer, TrainingArguments

    dataset = load_dataset("beans")


    def train_transforms(batch):
        batch["pixel_values"] = [to_tensor(img.convert("RGB")) for img in batch["image"]]
        return batch


    dataset["train"].set_transform(train_transforms)
    dataset["validation"].set_transform(train_transforms)
    model = AutoModelForImageClassification.from_pretrained("google/vit-base-patch16-224-in21k", num_labels=3)
    args = TrainingArguments(output_dir="vit-beans", evaluation_strategy="epoch")  # error: PF475
    trainer = Trainer(model=model, args=args, train_dataset=dataset["train"], eval_dataset=dataset["validation"],
                      data_collator=collate_fn)
    trainer.train()
"""),
]

GOOD_EXAMPLES = [
    # tricky: only the test split is transformed lazily (for a manual predict loop); the Trainer gets the
    # eagerly mapped train split
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import Trainer, TrainingArguments


    def main(model, processor):
        dataset = load_dataset("beans")
        dataset["test"].set_transform(lambda b: processor(b["image"], return_tensors="pt"))
        train = dataset["train"].map(lambda b: processor(b["image"]), batched=True, remove_columns=["image"])
        args = TrainingArguments(output_dir="out")
        Trainer(model=model, args=args, train_dataset=train).train()
        return dataset["test"]
"""),
    # the fix of issue 17894
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import Trainer, TrainingArguments

    dataset = load_dataset("beans")
    dataset["train"].set_transform(train_transforms)
    args = TrainingArguments(output_dir="vit-beans", remove_unused_columns=False)
    Trainer(model=model, args=args, train_dataset=dataset["train"], data_collator=collate_fn).train()
"""),
    # the fix of issue 22119
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

    tokenizer = AutoTokenizer.from_pretrained("distilgpt2")
    model = AutoModelForCausalLM.from_pretrained("distilgpt2")


    def tokenize(batch):
        return tokenizer(batch["text"], truncation=True, max_length=256)


    train_dataset = load_dataset("text", data_files={"train": "corpus.txt"})["train"].with_transform(tokenize)
    args = TrainingArguments(output_dir="clm-out", per_device_train_batch_size=16, remove_unused_columns=False)
    trainer = Trainer(model=model, args=args, train_dataset=train_dataset)
    trainer.train()
"""),
    # tricky: eager map, the transformed columns are real columns
    textwrap.dedent("""
    from datasets import load_dataset
    from transformers import Trainer, TrainingArguments


    def main(model, tokenizer):
        raw = load_dataset("imdb")["train"]
        train_dataset = raw.map(lambda b: tokenizer(b["text"], truncation=True), batched=True, remove_columns=["text"])
        eval_view = raw.with_transform(lambda b: tokenizer(b["text"]))
        args = TrainingArguments(output_dir="out")
        Trainer(model=model, args=args, train_dataset=train_dataset).train()
        return eval_view
"""),
    # tricky: the switch set on the parsed arguments later; arguments from the command line
    textwrap.dedent("""
    from transformers import HfArgumentParser, Trainer, TrainingArguments


    def main(model, ds, transform):
        ds.set_transform(transform)
        (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
        Trainer(model=model, args=args, train_dataset=ds).train()


    def other(model, ds, transform):
        ds = ds.with_transform(transform)
        args = TrainingArguments(output_dir="out")
        args.remove_unused_columns = False
        Trainer(model=model, args=args, train_dataset=ds).train()
"""),
    # tricky: the transform only augments columns the Trainer keeps (already tokenized rows)
    textwrap.dedent("""
    import random

    from datasets import load_from_disk
    from transformers import Trainer, TrainingArguments


    def mask_some(batch):
        ids = batch["input_ids"]
        return {"input_ids": [[t if random.random() > 0.15 else 0 for t in row] for row in ids],
                "attention_mask": batch["attention_mask"], "labels": ids}


    def main(model):
        ds = load_from_disk("tokenized")["train"].with_transform(mask_some)
        Trainer(model=model, args=TrainingArguments(output_dir="out"), train_dataset=ds).train()
"""),
]
