"""PF142 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_EVAL = textwrap.dedent("""
    # --- human_eval.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("bigcode/starcoder", torch_dtype=torch.bfloat16)
    {prepare}{mark}
    model.eval()
    with torch.no_grad():
        for batch in dataloader:
            out = accelerator.unwrap_model(model).generate(input_ids=batch["ids"], max_new_tokens=512)
            accelerator.gather_for_metrics(out)
    # --- launch
    accelerate launch --multi_gpu --num_processes {n} human_eval.py
""")

PF142_BAD = [
    # bigcode-evaluation-harness's shape: the 15B model prepared for generation on 8 processes
    _EVAL.format(prepare="model, dataloader = accelerator.prepare(model, dataloader)", mark="  # warning: PF142",
                 n=8),
    # a scoring script: a reward model prepared alone, no generate
    textwrap.dedent("""
    # --- score.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    reward_model = build_reward_model()
    reward_model = accelerator.prepare(reward_model)  # warning: PF142
    with torch.inference_mode():
        preds = [reward_model(x).argmax(-1) for x in batches]
    # --- launch
    accelerate launch --num_processes 4 score.py
    """),
]

PF142_GOOD = [
    # the fix: only the dataloader is prepared
    _EVAL.format(prepare="dataloader = accelerator.prepare(dataloader)\nmodel = model.to(accelerator.device)",
                 mark="", n=8),
    # one process: nothing is wrapped
    _EVAL.format(prepare="model, dataloader = accelerator.prepare(model, dataloader)", mark="", n=1),
    # tricky: frozen first, accelerate leaves a model without trainable parameters unwrapped
    _EVAL.format(prepare="model.requires_grad_(False)\nmodel, dataloader = accelerator.prepare(model, dataloader)",
                 mark="", n=8),
    # tricky: the script also trains the model it prepares
    textwrap.dedent("""
    # --- train.py
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        accelerator.backward(model(**batch).loss)
        optimizer.step()
    model.eval()
    with torch.no_grad():
        evaluate(model)
    # --- launch
    accelerate launch --multi_gpu --num_processes 4 train.py
    """),
]
