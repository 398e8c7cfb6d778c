"""PF582 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

_MODEL = """
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
"""

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
]

GOOD_EXAMPLES = [
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
