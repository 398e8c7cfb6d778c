"""PF289 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

import textwrap

_APP = textwrap.dedent("""
    # --- train.py
    import argparse

    import yaml
    from pydantic import BaseModel{imports}


    class TrainingSection(BaseModel):{strict}
        learning_rate: float = 2e-4
        num_epochs: int = 1
        batch_size: int = 2


    class LoraSection(BaseModel):
        r: int = 16
        alpha: int = 16


    class RunConfig(BaseModel):{strict}
        base_model: str
        dataset: str
        output_dir: str = "outputs"
        training: TrainingSection = TrainingSection()
        lora: LoraSection = LoraSection()


    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    with open(parser.parse_args().config) as f:
        cfg = RunConfig(**yaml.safe_load(f))
    print(cfg.training.learning_rate, cfg.lora.r)
    # --- config.yaml
    base_model: meta-llama/Llama-3.2-1B
    dataset: data/chats.jsonl
    {top}
    training:
      num_epochs: 3
      {inner}
    lora:
      r: 16
      {lora}
    # --- launch.sh
    python train.py --config config.yaml
""")

BAD_EXAMPLES = [
    # unsloth PR 10452: learning_rate at the top level, where only the training section declares it
    _APP.format(imports="", strict="", top="learning_rate: 0.00002  # warning: PF289", inner="batch_size: 8",
                lora="alpha: 32"),
    # a LoRA key written inside the training section
    _APP.format(imports="", strict="", top="output_dir: out", inner="alpha: 32  # warning: PF289",
                lora="r: 8"),
]

GOOD_EXAMPLES = [
    # the fix: the key in its section
    _APP.format(imports="", strict="", top="output_dir: out", inner="learning_rate: 0.00002",
                lora="alpha: 32"),
    # tricky: the models forbid unknown keys, so the misplaced key fails loudly at load time
    _APP.format(imports=", ConfigDict", strict='\n    model_config = ConfigDict(extra="forbid")',
                top="learning_rate: 0.00002", inner="batch_size: 8", lora="alpha: 32"),
    # tricky: an unknown key that no section declares (preflight cannot tell where it belongs)
    _APP.format(imports="", strict="", top="wandb_project: chats", inner="batch_size: 8", lora="alpha: 32"),
]
