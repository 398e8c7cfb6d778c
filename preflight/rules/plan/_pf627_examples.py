"""PF627 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

# LlamaFactory issue 744's shape: the eval split exists only when --val_size > 0, and the line passes 0
_VAL_SIZE = textwrap.dedent("""
    # --- finetune.py
    from dataclasses import dataclass, field

    from datasets import load_dataset
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments


    @dataclass
    class ScriptArguments:
        data_path: str = field(default="data/train.json")
        val_size: float = field(default={default})


    def main():
        script_args, training_args = HfArgumentParser((ScriptArguments, TrainingArguments)).parse_args_into_dataclasses()
        model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen-7B-Chat")
        data = load_dataset("json", data_files=script_args.data_path)["train"]
        if {test}:
            split = data.train_test_split(test_size=script_args.val_size, seed=42)
            train_data, eval_data = split["train"], split["test"]
        else:
            train_data, eval_data = data, None
        trainer = Trainer(model=model, args=training_args, train_dataset=train_data,
                          eval_dataset=eval_data){mark}
        trainer.train()


    if __name__ == "__main__":
        main()
    # --- launch
    python finetune.py --output_dir out --evaluation_strategy steps --eval_steps 2000 {line}
    """)


PF627_BAD = [
    _VAL_SIZE.format(default=0.0, test="script_args.val_size > 0", mark="  # error: PF627", line="--val_size 0"),
    # the line leaves --val_size out and the default is 0
    _VAL_SIZE.format(default=0.0, test="script_args.val_size", mark="  # error: PF627", line=""),
    # Qwen3-VL issue 1936's shape: the launch line turns evaluation on, the code passes eval_dataset=None
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=train,
        eval_dataset=None,  # error: PF627
    )
    trainer.train()
    # --- launch
    torchrun --nproc_per_node 8 train.py --output_dir out --do_eval True --eval_strategy steps --eval_steps 200
"""),
    # evaluation every epoch in the script's own arguments, no eval_dataset at all
    textwrap.dedent("""
    # --- train.py
    from trl import SFTConfig, SFTTrainer

    config = SFTConfig(output_dir="out", eval_strategy="epoch", per_device_eval_batch_size=8)
    trainer = SFTTrainer(model=model, args=config, train_dataset=train)  # error: PF627
    trainer.train()
"""),
    # the old argument name, and a variable that is only ever None
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    dev = None
    args = TrainingArguments(output_dir="out", evaluation_strategy="steps", eval_steps=100)
    Trainer(model, args, train_dataset=train, eval_dataset=dev).train()  # error: PF627
"""),
    # Stanford Alpaca's shape (issue 214): the datasets come unpacked from a dict whose eval_dataset is None
    textwrap.dedent("""
    # --- train.py
    import transformers
    from transformers import Trainer


    def make_supervised_data_module(tokenizer, data_args):
        train_dataset = SupervisedDataset(tokenizer=tokenizer, data_path=data_args.data_path)
        collator = DataCollatorForSupervisedDataset(tokenizer=tokenizer)
        return dict(train_dataset=train_dataset, eval_dataset=None, data_collator=collator)  # error: PF627


    def train():
        parser = transformers.HfArgumentParser((ModelArguments, DataArguments, transformers.TrainingArguments))
        model_args, data_args, training_args = parser.parse_args_into_dataclasses()
        data_module = make_supervised_data_module(tokenizer=tokenizer, data_args=data_args)
        trainer = Trainer(model=model, tokenizer=tokenizer, args=training_args, **data_module)
        trainer.train()
    # --- launch
    torchrun --nproc_per_node=4 train.py --output_dir out --evaluation_strategy "steps" --eval_steps 500
"""),
    # a dict literal with no eval_dataset key at all
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", eval_strategy="epoch")
    parts = {"train_dataset": train, "data_collator": collator}  # error: PF627
    Trainer(model=model, args=args, **parts).train()
"""),
]

PF627_GOOD = [
    # the LlamaFactory fix: --val_size 0.01 holds out a split
    _VAL_SIZE.format(default=0.0, test="script_args.val_size > 0", mark="", line="--val_size 0.01"),
    # tricky: left out, the default 0.1 holds out a split
    _VAL_SIZE.format(default=0.1, test="script_args.val_size > 0", mark="", line=""),
    # tricky: the condition reads something the line does not give
    _VAL_SIZE.format(default=0.0, test="len(data) > 1000", mark="", line="--val_size 0"),
    # the fix: an evaluation split is passed
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    split = dataset.train_test_split(test_size=0.05, seed=training_args.seed)
    trainer = Trainer(model=model, args=training_args, train_dataset=split["train"], eval_dataset=split["test"])
    trainer.train()
    # --- launch
    torchrun --nproc_per_node 8 train.py --output_dir out --eval_strategy steps --eval_steps 200
"""),
    # no evaluation on the launch line (the default strategy is "no")
    textwrap.dedent("""
    # --- train.py
    from transformers import HfArgumentParser, Trainer, TrainingArguments

    (training_args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
    Trainer(model=model, args=training_args, train_dataset=train, eval_dataset=None).train()
    # --- launch
    python train.py --output_dir out --save_steps 200
"""),
    # tricky: the eval set is None only when no ratio is given; and evaluation is switched on with it
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    if ratio > 0:
        parts = data.train_test_split(test_size=ratio)
        train, dev = parts["train"], parts["test"]
    else:
        train, dev = data, None
    args = TrainingArguments(output_dir="out", eval_strategy="steps" if dev is not None else "no")
    Trainer(model=model, args=args, train_dataset=train, eval_dataset=dev).train()
"""),
    # tricky: two argument sets, the evaluating one goes to the trainer that gets a dev set
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    pre_args = TrainingArguments(output_dir="pre", eval_strategy="no")
    ft_args = TrainingArguments(output_dir="ft", eval_strategy="steps", eval_steps=50)
    Trainer(model=model, args=pre_args, train_dataset=corpus).train()
    Trainer(model=model, args=ft_args, train_dataset=train, eval_dataset=dev).train()
"""),
    # a trainer class of the project's own may build its eval set itself
    textwrap.dedent("""
    # --- train.py
    from transformers import TrainingArguments
    from mytrainer import CustomTrainer

    args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=50)
    CustomTrainer(model=model, args=args, train_dataset=train).train()
"""),
    # the Alpaca shape fixed: the dict carries an evaluation split
    textwrap.dedent("""
    # --- train.py
    import transformers
    from transformers import Trainer


    def make_supervised_data_module(tokenizer, data_args):
        train_dataset = SupervisedDataset(tokenizer=tokenizer, data_path=data_args.data_path)
        eval_dataset = SupervisedDataset(tokenizer=tokenizer, data_path=data_args.eval_data_path)
        return dict(train_dataset=train_dataset, eval_dataset=eval_dataset)


    def train():
        parser = transformers.HfArgumentParser((DataArguments, transformers.TrainingArguments))
        data_args, training_args = parser.parse_args_into_dataclasses()
        data_module = make_supervised_data_module(tokenizer=tokenizer, data_args=data_args)
        Trainer(model=model, tokenizer=tokenizer, args=training_args, **data_module).train()
    # --- launch
    torchrun --nproc_per_node=4 train.py --output_dir out --evaluation_strategy "steps" --eval_steps 500
"""),
    # tricky: the Alpaca dict with eval_dataset=None, run with evaluation off (the script's usual launch)
    textwrap.dedent("""
    # --- train.py
    import transformers
    from transformers import Trainer


    def make_supervised_data_module(tokenizer, data_args):
        train_dataset = SupervisedDataset(tokenizer=tokenizer, data_path=data_args.data_path)
        return dict(train_dataset=train_dataset, eval_dataset=None)


    def train():
        parser = transformers.HfArgumentParser((DataArguments, transformers.TrainingArguments))
        data_args, training_args = parser.parse_args_into_dataclasses()
        data_module = make_supervised_data_module(tokenizer=tokenizer, data_args=data_args)
        Trainer(model=model, tokenizer=tokenizer, args=training_args, **data_module).train()
    # --- launch
    torchrun --nproc_per_node=4 train.py --output_dir out --evaluation_strategy "no" --save_steps 2000
"""),
    # tricky: one return of the factory carries an eval split (chosen at run time), one does not
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments


    def data_module(train, dev):
        if dev is None:
            return dict(train_dataset=train)
        return dict(train_dataset=train, eval_dataset=dev)


    args = TrainingArguments(output_dir="out", eval_strategy="steps", eval_steps=50)
    parts = data_module(train, dev)
    Trainer(model=model, args=args, **parts).train()
"""),
    # tricky: the eval set is a local that is None only on one branch of the factory
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments


    def make_data(cfg):
        eval_dataset = None
        if cfg.eval_path:
            eval_dataset = load(cfg.eval_path)
        return {"train_dataset": load(cfg.train_path), "eval_dataset": eval_dataset}


    args = TrainingArguments(output_dir="out", eval_strategy="epoch")
    module = make_data(cfg)
    Trainer(model=model, args=args, **module).train()
"""),
]
