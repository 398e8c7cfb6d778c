"""PF581 examples: small projects (``# --- <path>`` sections); bad ones must fire at the pinned line,
good ones stay silent."""

from __future__ import annotations

import textwrap

_NET = textwrap.dedent("""
    # --- net.py
    import torch
    import torch.nn as nn


    def block(cin, cout):
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, 1, 1, bias=False),
            nn.BatchNorm2d(cout),
            {act}{pin}
        )


    class Backbone(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(block(3, 64), block(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.head = nn.Linear(128, 512)

        def forward(self, x):
            return self.head(self.body(x))
""")

_MAIN = textwrap.dedent("""
    # --- main.py
    import pytorch_lightning as pl
    import torch

    from net import Backbone


    class Face(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.model = Backbone()

        def training_step(self, batch, batch_idx):
            x, y = batch
            return torch.nn.functional.cross_entropy(self.model(x), y)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1, momentum=0.9)


    if __name__ == "__main__":
        trainer = pl.Trainer(accelerator="gpu", devices=2, strategy="ddp", precision={precision}, max_epochs=26)
        trainer.fit(Face())
""")

BAD_EXAMPLES = [
    # AdaFace: PReLU layers changed to float16, the Trainer in another file asks for 16-bit mixed precision
    _NET.format(act="nn.PReLU(cout, dtype=torch.float16),", pin="  # error: PF581") + _MAIN.format(precision=16),
    _NET.format(act="nn.PReLU(cout, dtype=torch.half),", pin="  # error: PF581")
    + _MAIN.format(precision='"16-mixed"'),
]

GOOD_EXAMPLES = [
    # the fix: float32 parameters, autocast picks the compute dtype
    _NET.format(act="nn.PReLU(cout),", pin="") + _MAIN.format(precision=16),
    # tricky-correct: an explicit float32 factory dtype under 16-bit mixed precision
    _NET.format(act="nn.PReLU(cout, dtype=torch.float32),", pin="") + _MAIN.format(precision='"16-mixed"'),
    # tricky-correct: a frozen float16 teacher next to the trained student
    _NET.format(act="nn.PReLU(cout),", pin="") + textwrap.dedent("""
    # --- teacher.py
    import torch
    import torch.nn as nn


    def frozen_teacher():
        teacher = nn.Sequential(nn.Conv2d(3, 64, 3, 1, 1, dtype=torch.float16), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        teacher.requires_grad_(False)
        return teacher.eval()
""") + _MAIN.format(precision=16).replace("from net import Backbone", "from net import Backbone\nfrom teacher import frozen_teacher"),
]

_LIT_MODEL = textwrap.dedent("""
    # --- lit_sft/model.py
    import lightning as L
    import torch
    from transformers import AutoModelForCausalLM


    class LitCausalLM(L.LightningModule):
        def __init__(self, name):
            super().__init__()
            self.model = AutoModelForCausalLM.from_pretrained(
                name,
                torch_dtype={dtype},{pin}
            )
            {extra}

        def training_step(self, batch, batch_idx):
            return self.model(**batch).loss

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=2e-5)
""")

_LIT_TRAIN = textwrap.dedent("""
    # --- train.py
    import lightning as L

    from lit_sft.model import LitCausalLM

    if __name__ == "__main__":
        trainer = L.Trainer(accelerator="gpu", devices=1, precision={precision}, max_steps=1000)
        trainer.fit(LitCausalLM("EleutherAI/pythia-1b"))
""")

# litgpt issue 1252: the LightningModule loads float16 weights, train.py asks for 16-bit mixed precision
BAD_EXAMPLES += [
    _LIT_MODEL.format(dtype="torch.float16", pin="  # error: PF581", extra="")
    + _LIT_TRAIN.format(precision='"16-mixed"'),
    _LIT_MODEL.format(dtype="torch.half", pin="  # error: PF581", extra="")
    + _LIT_TRAIN.format(precision="16"),
]

GOOD_EXAMPLES += [
    # the fix: float32 weights under 16-mixed
    _LIT_MODEL.format(dtype="torch.float32", pin="", extra="") + _LIT_TRAIN.format(precision='"16-mixed"'),
    # tricky-correct: a float16 base frozen under LoRA adapters (created in float32)
    _LIT_MODEL.format(dtype="torch.float16", pin="",
                      extra="self.model = get_peft_model(self.model, LoraConfig(r=8, target_modules=['q_proj']))")
    .replace("from transformers import AutoModelForCausalLM",
             "from peft import LoraConfig, get_peft_model\nfrom transformers import AutoModelForCausalLM")
    + _LIT_TRAIN.format(precision='"16-mixed"'),
]

# img2img-turbo issue 18 (held-out-35): LoRA adapters added to the frozen UNet, then the whole UNet cast to
# weight_dtype, float16 because the accelerate config asks for fp16 mixed precision
_LORA_CAST = textwrap.dedent("""
    # --- train_lora.py
    import torch
    from accelerate import Accelerator
    from diffusers import UNet2DConditionModel
    from peft import LoraConfig

    accelerator = Accelerator(gradient_accumulation_steps=1)
    weight_dtype = torch.float32
    if accelerator.mixed_precision == "fp16":
        weight_dtype = torch.float16

    unet = UNet2DConditionModel.from_pretrained("stabilityai/sd-turbo", subfolder="unet")
    unet.requires_grad_(False)
    {first}
    {second}
    {after}
    params = [p for p in unet.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=5e-6)
    unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
    for batch in loader:
        loss = unet(batch["x"], batch["t"], encoder_hidden_states=batch["c"]).sample.float().mean()
        accelerator.backward(loss)
        accelerator.clip_grad_norm_(params, 1.0)
        optimizer.step()
        optimizer.zero_grad()
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: 'NO'
    mixed_precision: {precision}
    num_machines: 1
    num_processes: 1
    # --- launch
    accelerate launch --config_file accelerate_config.yaml train_lora.py
""")
_ADD = 'unet.add_adapter(LoraConfig(r=8, lora_alpha=8, target_modules=["to_k", "to_q", "to_v"]))'
_CAST = "unet.to(accelerator.device, dtype=weight_dtype)"

BAD_EXAMPLES.append(_LORA_CAST.format(first=_ADD, second=_CAST + "  # error: PF581", after="", precision="fp16"))
GOOD_EXAMPLES.extend([
    # the launch runs without mixed precision: weight_dtype stays float32
    _LORA_CAST.format(first=_ADD, second=_CAST, after="", precision="'no'"),
    # diffusers' LoRA scripts: cast first, add the adapters, then make the trainable parameters float32
    _LORA_CAST.format(first=_CAST, second=_ADD, after="cast_training_params(unet, dtype=torch.float32)",
                      precision="fp16").replace("from peft import LoraConfig",
                                                "from diffusers.training_utils import cast_training_params\n"
                                                "from peft import LoraConfig"),
    # tricky-correct: the adapters added and the UNet cast, then the LoRA parameters upcast by hand
    _LORA_CAST.format(first=_ADD, second=_CAST, precision="fp16",
                      after="for p in unet.parameters():\n    if p.requires_grad:\n        p.data = p.data.float()"),
])

# DreamPose issue 70 (held-out-40): a part of the module marked trainable, then the whole module cast to
# weight_dtype, float16 under fp16 mixed precision
_UNFREEZE = "unet.up_blocks.requires_grad_(True)"
BAD_EXAMPLES.append(_LORA_CAST.format(first=_UNFREEZE, second=_CAST + "  # error: PF581", after="",
                                      precision="fp16"))
GOOD_EXAMPLES.extend([
    # the fix: the trained module stays float32, autocast runs its compute in fp16
    _LORA_CAST.format(first=_UNFREEZE, second="unet.to(accelerator.device)", after="", precision="fp16"),
    # tricky-correct: the module that is cast is frozen; another one (never cast) is trained
    _LORA_CAST.format(first="text_encoder.requires_grad_(True)", second=_CAST, after="", precision="fp16"),
    # tricky-correct: a part unfrozen and the module cast, then its trainable parameters made float32 again
    _LORA_CAST.format(first=_UNFREEZE, second=_CAST, after="cast_training_params(unet, dtype=torch.float32)",
                      precision="fp16").replace("from peft import LoraConfig",
                                                "from diffusers.training_utils import cast_training_params\n"
                                                "from peft import LoraConfig"),
])
