"""PF664 examples: bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

# enhuiz/vall-e issue 67: the engine comes from a helper that built it without an optimizer
_TRAIN = textwrap.dedent("""
    # --- train.py
    import json

    import deepspeed


    def load_engine(cfg_path, model):
        with open(cfg_path) as f:
            ds_cfg = json.load(f)
        engine, _, _, _ = deepspeed.initialize(model=model{given}, config=ds_cfg)
        return engine


    def main(model, loader):
        engine = load_engine("ds_config.json", model)
        for batch in loader:
            loss = engine(batch)
            engine.backward(loss)
            engine.step()
""")

_CONFIG = """\
# --- ds_config.json
{{
  "train_micro_batch_size_per_gpu": 24,{optimizer}
  "fp16": {{"enabled": true}},
  "zero_optimization": {{"stage": 0}}
}}
"""

_ADAM = '\n  "optimizer": {"type": "Adam", "params": {"lr": 2e-4}},'

BAD_EXAMPLES = [
    _TRAIN.format(given="") + _CONFIG.format(optimizer="") + "# --- expect\ntrain.py:9: error: PF664\n",
]

GOOD_EXAMPLES = [
    # the fix: an optimizer block and the parameters it optimises
    _TRAIN.format(given=", model_parameters=model.parameters()") + _CONFIG.format(optimizer=_ADAM),
    # a client optimizer
    _TRAIN.format(given=", optimizer=torch.optim.AdamW(model.parameters())") + _CONFIG.format(optimizer=""),
    # tricky-correct: an inference engine (no optimizer, no backward)
    textwrap.dedent("""
        # --- infer.py
        import deepspeed


        def main(model, loader, ds_cfg):
            engine, _, _, _ = deepspeed.initialize(model=model, config=ds_cfg)
            engine.eval()
            return [engine(batch) for batch in loader]
    """) + _CONFIG.format(optimizer=""),
]

# det125: fp16 with ZeRO stage 0 on an unpinned DeepSpeed is also PF198's (since 0.18.3 engine.backward never
# multiplies the loss by the scale the FP16 optimizer divides by)
BAD_EXAMPLES[0] = BAD_EXAMPLES[0].rstrip("\n") + "\nds_config.json:3: warning: PF198\n"
