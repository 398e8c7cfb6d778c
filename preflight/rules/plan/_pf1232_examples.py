"""PF1232 examples: small projects (``# --- <path>`` sections, ``# --- launch`` holds the launch
command); bad ones pin their finding's line, good ones stay silent."""

from __future__ import annotations

import textwrap

_CONFIG = textwrap.dedent("""
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    deepspeed_config:
      gradient_accumulation_steps: 1
      offload_optimizer_device: none
      offload_param_device: none
      zero3_init_flag: false
      zero_stage: 2{ds_file}
    distributed_type: DEEPSPEED
    mixed_precision: 'no'
    num_machines: 1
    num_processes: 4
""")

_VAE = textwrap.dedent("""
    # --- train_vae.py
    import torch
    from accelerate import Accelerator
    from torch.utils.data import DataLoader


    class Trainer:
        def __init__(self, model, disc, dataset):
            self.accelerator = Accelerator()
            self.model = model
            self.opt_ae = torch.optim.Adam(self.model.parameters(), lr=4.5e-6)
            self.opt_disc = torch.optim.Adam(disc.parameters(), lr=4.5e-6)
            self.train_loader = DataLoader(dataset, batch_size=8, shuffle=True)
            {prepare}{mark}

        def train(self):
            for images in self.train_loader:
                loss = self.model(images)
                self.accelerator.backward(loss)
                self.opt_ae.step()
                self.opt_ae.zero_grad()
""")

_LAUNCH = textwrap.dedent("""
    # --- launch
    accelerate launch --config_file accelerate_config.yaml train_vae.py
""")

_BAD_PREPARE = "self.model, self.opt_ae, self.opt_disc = self.accelerator.prepare(self.model, self.opt_ae, self.opt_disc)"

PF1232_BAD = [
    # GuHuangAI/ADM-Public issue 5: model, optimizers (and schedulers) prepared without the loader
    _CONFIG.format(ds_file="") + _VAE.format(
        prepare=_BAD_PREPARE, mark="  # error: PF1232\n        self.train_loader = self.accelerator.prepare(self.train_loader)") + _LAUNCH,
    # jquesnelle/yarn issue 35: the model prepared alone first, with a DeepSpeed JSON left on auto
    _CONFIG.format(ds_file="\n  deepspeed_config_file: ds_zero2.json") + textwrap.dedent("""
    # --- ds_zero2.json
    {"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": 1}
    # --- train_vae.py
    import torch
    from accelerate import Accelerator
    from transformers import AutoModelForCausalLM

    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("mistralai/Mistral-7B-v0.1")
    model = accelerator.prepare(model)  # error: PF1232
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    optimizer, train_loader = accelerator.prepare(optimizer, train_loader)
    """) + _LAUNCH,
]

PF1232_GOOD = [
    # the maintainer's fix: a plain multi-GPU config
    textwrap.dedent("""
    # --- accelerate_config.yaml
    compute_environment: LOCAL_MACHINE
    distributed_type: MULTI_GPU
    num_machines: 1
    num_processes: 4
    """) + _VAE.format(prepare=_BAD_PREPARE + "\n        self.train_loader = self.accelerator.prepare(self.train_loader)",
                       mark="") + _LAUNCH,
    # the loader goes through the same prepare call as the model
    _CONFIG.format(ds_file="") + _VAE.format(
        prepare="self.model, self.opt_ae, self.train_loader = self.accelerator.prepare(self.model, self.opt_ae, "
                "self.train_loader)", mark="") + _LAUNCH,
    # tricky: the DeepSpeed JSON sets an integer micro-batch size
    _CONFIG.format(ds_file="\n  deepspeed_config_file: ds_zero2.json") + textwrap.dedent("""
    # --- ds_zero2.json
    {"zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 1}
    """) + _VAE.format(prepare=_BAD_PREPARE + "\n        self.train_loader = self.accelerator.prepare(self.train_loader)",
                       mark="") + _LAUNCH,
    # tricky: the script sets the micro-batch size on the plugin before preparing
    _CONFIG.format(ds_file="") + _VAE.format(
        prepare="self.accelerator.state.deepspeed_plugin.deepspeed_config['train_micro_batch_size_per_gpu'] = 8\n"
                "        " + _BAD_PREPARE + "\n        self.train_loader = self.accelerator.prepare(self.train_loader)",
        mark="") + _LAUNCH,
]
