"""Examples for PF518 config-value-never-passed."""

import textwrap

PF518_BAD = [
    # Smart Contract Bytecode-to-Code issue 9: gradient_accumulation_steps never reaches the helper
    textwrap.dedent("""
    # --- train.py
    import yaml
    from transformers import TrainingArguments


    def create_training_arguments(output_dir, learning_rate=2e-4, per_device_train_batch_size=4,
                                  gradient_accumulation_steps=4):
        return TrainingArguments(output_dir=output_dir, learning_rate=learning_rate,
                                 per_device_train_batch_size=per_device_train_batch_size,
                                 gradient_accumulation_steps=gradient_accumulation_steps)


    config = yaml.safe_load(open("config.yaml"))
    args = create_training_arguments(output_dir=config["output_dir"], learning_rate=config["learning_rate"],  # warning: PF518
                                     per_device_train_batch_size=config["per_device_train_batch_size"])
    # --- config.yaml
    output_dir: out
    learning_rate: 0.0002
    per_device_train_batch_size: 2
    gradient_accumulation_steps: 8
"""),
]

PF518_GOOD = [
    # every configured key is passed; a key read elsewhere; a call forwarding a single value
    """
# --- train.py
import yaml


def build(output_dir, learning_rate=2e-4, warmup=0, gradient_accumulation_steps=4):
    return output_dir, learning_rate, warmup, gradient_accumulation_steps


config = yaml.safe_load(open("config.yaml"))
a = build(output_dir=config["output_dir"], learning_rate=config["learning_rate"],
          gradient_accumulation_steps=config["gradient_accumulation_steps"])
b = build(output_dir=config["output_dir"], learning_rate=config["learning_rate"])
print(config.get("warmup"))
c = build(output_dir=config["output_dir"])
# --- config.yaml
output_dir: out
learning_rate: 0.0002
warmup: 10
gradient_accumulation_steps: 8
""",
    """
# --- train.py
def build(output_dir, learning_rate=2e-4, gradient_accumulation_steps=4):
    return output_dir


build(output_dir=cfg["output_dir"], learning_rate=cfg["learning_rate"], **extra)
# --- config.yaml
output_dir: out
learning_rate: 0.0002
gradient_accumulation_steps: 8
""",
]
