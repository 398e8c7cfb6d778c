"""PF582 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_MODEL = textwrap.dedent("""
    # --- model.py
    from peft import LoraConfig
    from transformers import AutoModelForCausalLM, PretrainedConfig, PreTrainedModel


    class CustomModel(PreTrainedModel):
        config_class = PretrainedConfig

        def __init__(self, config):
            super().__init__(config)
            self.model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-70m")
            self.config.update(self.model.config.to_dict())
            {first}{pin1}
            {second}{pin2}

        def forward(self, input_ids, attention_mask=None, labels=None):
            return self.model(input_ids=input_ids, attention_mask=attention_mask, labels=labels)
""")

_PEFT_TRAINER = textwrap.dedent("""
    # --- train_lora.py
    import torch
    from peft import LoraConfig, TaskType, get_peft_model
    from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

    model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B-Instruct", torch_dtype=torch.bfloat16)
    model = get_peft_model(model, LoraConfig(task_type=TaskType.CAUSAL_LM, r=8, lora_alpha=32))
    {extra}
    args = TrainingArguments(
        output_dir="out",
        per_device_train_batch_size=4,
        gradient_checkpointing=True,{pin}{kwargs}
    )
    trainer = Trainer(model=model, args=args, train_dataset=train_ds)
    trainer.train()
""")

_LAUNCHED = textwrap.dedent("""
    # --- train_lora.py
    import transformers
    from peft import LoraConfig, get_peft_model


    def train():
        parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments))
        model_args, training_args = parser.parse_args_into_dataclasses()
        model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
        {extra}
        model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"])){pin}
        trainer = transformers.Trainer(model=model, args=training_args, train_dataset=train_ds)
        trainer.train()


    train()
    # --- launch
    torchrun --nproc_per_node=4 train_lora.py --model_name_or_path models/llama-7b --output_dir out {flags}
    # --- requirements.txt
    transformers==4.28.1
    peft==0.2.0
""")

_ADD = 'self.model.add_adapter(LoraConfig(task_type="CAUSAL_LM", r=8, lora_alpha=32))'
_GC = "self.model.gradient_checkpointing_enable()"

BAD_EXAMPLES = [
    # transformers issue 25841: add_adapter, then checkpointing, on transformers 4.33
    _MODEL.format(first=_ADD, pin1="", second=_GC, pin2="  # warning: PF582") + """\
# --- requirements.txt
transformers==4.33.1
peft==0.5.0
""",
    # checkpointing enabled before the adapter: 4.34's automatic call never runs
    _MODEL.format(first=_GC, pin1="  # warning: PF582", second=_ADD, pin2="") + """\
# --- requirements.txt
transformers==4.40.2
""",
    # held-out-17 (a Llama 3.1 LoRA tutorial): get_peft_model, then the Trainer's gradient_checkpointing=True
    # on transformers 4.43 (reentrant, the Trainer does not make the inputs require grad)
    _PEFT_TRAINER.format(extra="", pin="  # warning: PF582", kwargs="") + """\
# --- requirements.txt
transformers==4.43.1
peft==0.11.1
""",
    # FastChat train_lora.py (issue 581, held-out-43): the checkpointing comes from the launch line
    _LAUNCHED.format(extra="", pin="  # warning: PF582", flags="--gradient_checkpointing True"),
    # transformers issue 42489: the same Trainer shape on the 5.0.0 development release
    _PEFT_TRAINER.format(extra="", pin="  # warning: PF582", kwargs="") + """\
# --- requirements.txt
transformers==5.0.0.dev0
peft==0.18.0
""",
]

GOOD_EXAMPLES = [
    # the FastChat fix: the embeddings' output made to require grad before the wrap
    _LAUNCHED.format(extra="if training_args.gradient_checkpointing:\n            model.enable_input_require_grads()",
                     pin="", flags="--gradient_checkpointing True"),
    # tricky-correct: the same script launched without checkpointing, and with non-reentrant kwargs
    _LAUNCHED.format(extra="", pin="", flags="--gradient_checkpointing False"),
    _LAUNCHED.format(extra="", pin="", flags="--gradient_checkpointing True "
                     "--gradient_checkpointing_kwargs '{\"use_reentrant\": false}'"),
    # the fix of the Trainer shape: enable_input_require_grads before training
    _PEFT_TRAINER.format(extra="model.enable_input_require_grads()", pin="", kwargs="") + """\
# --- requirements.txt
transformers==4.43.1
""",
    # tricky-correct: non-reentrant through gradient_checkpointing_kwargs; transformers not pinned (the newest,
    # 5.x, enables the input grads itself); pinned at 5
    _PEFT_TRAINER.format(extra="", pin="", kwargs='\n    gradient_checkpointing_kwargs={"use_reentrant": False},')
    + """\
# --- requirements.txt
transformers==4.43.1
""",
    _PEFT_TRAINER.format(extra="", pin="", kwargs="") + """\
# --- requirements.txt
transformers>=4.43
""",
    _PEFT_TRAINER.format(extra="", pin="", kwargs="") + """\
# --- requirements.txt
transformers==5.0.0
""",
    # the fix: the inputs made to require grad
    _MODEL.format(first=_ADD, pin1="", second=_GC + "\n        self.model.enable_input_require_grads()", pin2="")
    + """\
# --- requirements.txt
transformers==4.33.1
""",
    # tricky-correct: 4.34 and later call enable_input_require_grads() when checkpointing follows the adapter
    _MODEL.format(first=_ADD, pin1="", second=_GC, pin2="") + """\
# --- requirements.txt
transformers==4.40.2
""",
    # tricky-correct: non-reentrant checkpointing keeps the graph
    _MODEL.format(first=_ADD, pin1="", second='self.model.gradient_checkpointing_enable('
                  'gradient_checkpointing_kwargs={"use_reentrant": False})', pin2="") + """\
# --- requirements.txt
transformers==4.33.1
""",
]
