"""PF407 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF407_BAD = [
    textwrap.dedent("""
        # --- requirements.txt
        transformers==5.2.0
        peft>=0.15
        # --- train.py
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", load_in_4bit=True)  # error: PF407
        """),
    # no version declared: the latest (5.x) is assumed, reported as a warning
    textwrap.dedent("""
        # --- finetune.py
        from transformers import AutoModelForSeq2SeqLM

        model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-xl", load_in_8bit=True, device_map="auto")  # warning: PF407
        """),
]

PF407_GOOD = [
    textwrap.dedent("""
        # --- requirements.txt
        transformers==4.44.2
        # --- train.py
        from transformers import AutoModelForCausalLM

        model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-3.1-8B", load_in_4bit=True)
        """),
    textwrap.dedent("""
        # --- requirements.txt
        transformers>=5.0
        # --- train.py
        from transformers import AutoModelForCausalLM, BitsAndBytesConfig

        model = AutoModelForCausalLM.from_pretrained(
            "meta-llama/Llama-3.1-8B", quantization_config=BitsAndBytesConfig(load_in_4bit=True))
        """),
]
