"""PF669 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the
launch command); findings on JSON lines are pinned in a ``# --- expect`` section."""

import textwrap

_TRAINER = textwrap.dedent("""
    # --- trainer.py
    from transformers import Trainer


    class VLTrainer(Trainer):
        def create_optimizer(self):
            if self.optimizer is None:
                vision = [p for n, p in self.model.named_parameters() if "visual" in n]
                rest = [p for n, p in self.model.named_parameters() if "visual" not in n]
                groups = [{"params": rest}, {"params": vision, "lr": self.args.vision_lr}]
                cls, kwargs = Trainer.get_optimizer_cls_and_kwargs(self.args)
                self.optimizer = cls(groups, **kwargs)
            return self.optimizer
    # --- train.py
    import transformers
    from trainer import {cls}


    def train(model, data):
        (args,) = transformers.HfArgumentParser(transformers.TrainingArguments).parse_args_into_dataclasses()
        trainer = {cls}(model=model, args=args, train_dataset=data)
        trainer.train()
""")

_WITH_OPTIMIZER = textwrap.dedent("""
    # --- zero3.json
    {
      "bf16": {"enabled": "auto"},
      "optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}},
      "zero_optimization": {"stage": 3},
      "train_micro_batch_size_per_gpu": "auto"
    }
""")

_WITHOUT_OPTIMIZER = textwrap.dedent("""
    # --- zero3.json
    {
      "bf16": {"enabled": "auto"},
      "zero_optimization": {"stage": 3},
      "train_micro_batch_size_per_gpu": "auto"
    }
""")

_LAUNCH = textwrap.dedent("""
    # --- launch
    deepspeed train.py --deepspeed zero3.json --learning_rate 1e-5 --vision_lr 2e-6
""")

BAD_EXAMPLES = [
    # Qwen-VL-Series-Finetune 81 (held-out-33, in-sample): the config's optimizer wins over the override
    _TRAINER.replace("{cls}", "VLTrainer") + _WITH_OPTIMIZER + _LAUNCH + "# --- expect\nzero3.json:3: warning: PF669\n",
]

GOOD_EXAMPLES = [
    # the maintainer's fix: no optimizer section, so the integration calls create_optimizer
    _TRAINER.replace("{cls}", "VLTrainer") + _WITHOUT_OPTIMIZER + _LAUNCH,
    # tricky-correct: the job runs the stock Trainer; the override in the project is not used by this script
    _TRAINER.replace("{cls}", "Trainer").replace("from trainer import Trainer", "from transformers import Trainer")
    + _WITH_OPTIMIZER + _LAUNCH,
]
