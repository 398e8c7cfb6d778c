"""PF269 examples: the None result of an in-place container method passed on (bad: the pinned line; good:
silent)."""

from __future__ import annotations

from textwrap import dedent

# a LoRA sequence classifier (peft issue 577's shape)
_LORA = dedent("""\
    from peft import LoraConfig, TaskType, get_peft_model
    from transformers import AutoModelForSequenceClassification

    model = AutoModelForSequenceClassification.from_pretrained("meta-llama/Llama-2-7b-hf", num_labels=3)
    lora_target_modules = ["q_proj", "k_proj", "v_proj", "o_proj"]
    config = LoraConfig(
        r=16,
        target_modules=lora_target_modules,
        task_type=TaskType.SEQ_CLS,
        modules_to_save={value}
    )
    model = get_peft_model(model, config)
    """)

PF269_BAD = [
    _LORA.format(value='lora_target_modules.append("score"),  # warning: PF269'),
    dedent("""\
        import random

        files = sorted(["a.jsonl", "b.jsonl", "c.jsonl"])
        order = random.shuffle(files)  # warning: PF269
        print(order)
        """),
]

PF269_GOOD = [
    # the fix: a list of its own
    _LORA.format(value='["score"],'),
    # tricky: a new list built from the old one
    _LORA.format(value='lora_target_modules + ["score"],'),
    # tricky: the append stands alone; the list is passed afterwards
    _LORA.format(value="extra,").replace('lora_target_modules = ["q_proj", "k_proj", "v_proj", "o_proj"]',
                                         'lora_target_modules = ["q_proj", "k_proj", "v_proj", "o_proj"]\n'
                                         'extra = []\nextra.append("score")'),
    # tricky: a pandas frame's append returned a new frame (the name is not a list)
    dedent("""\
        import pandas as pd

        rows = pd.DataFrame({"loss": []})
        rows = rows.append({"loss": 0.5}, ignore_index=True)
        """),
]
