"""PF311 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned
line, good ones stay silent."""

from __future__ import annotations

BAD_EXAMPLES = [
    # pyyaml issue 613 shape: Norwegian's ISO code among the languages to keep
    """
# --- configs/multilingual.yaml
data:
  train: data/train.jsonl
  languages:
    - en
    - no  # warning: PF311
    - de
    - sv
model:
  name: xlm-roberta-large
""",
    # a flow list of switch names in a Hydra config, with an upper-case word
    """
# --- conf/config.yaml
metrics: [accuracy, f1, OFF, recall]  # warning: PF311
trainer:
  max_epochs: 10
""",
]

GOOD_EXAMPLES = [
    # the fix: the code quoted
    """
# --- configs/multilingual.yaml
data:
  languages:
    - en
    - "no"
    - de
    - sv
""",
    # tricky: a list of flags (booleans only), a mapping value `no`, and true among strings
    """
# --- conf/config.yaml
stages: [yes, no, yes]
use_amp: no
tags: [baseline, true, v2]
mixed:
  - name
  - off
  - 3
""",
]
