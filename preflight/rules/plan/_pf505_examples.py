"""PF505 examples: executable documentation. A bad example marks each line it must be
reported on with a trailing ``# error: PFxxx`` / ``# warning: PFxxx`` comment; the meta-test
asserts exactly those findings. Good examples must stay silent."""

from __future__ import annotations

import textwrap

PF505_BAD = [
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json")
    trainer = Trainer(model=model, args=args, train_dataset=ds)
    trainer.train()
    trainer.save_model("final")
    # --- ds_zero3.json
    {
      "train_micro_batch_size_per_gpu": "auto",
      "zero_optimization": {"stage": 3, "overlap_comm": true}
    }
    # --- expect
    ds_zero3.json:3: warning: PF505
"""),
    # FastChat issue 508: safe_save_model_for_hf_trainer saves trainer.model.state_dict() through
    # Trainer._save with the gather flag false: a 400 MB "model" of placeholders
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer


    def safe_save_model_for_hf_trainer(trainer, output_dir):
        state_dict = trainer.model.state_dict()
        if trainer.args.should_save:
            trainer._save(output_dir, state_dict={k: v.cpu() for k, v in state_dict.items()})


    trainer = Trainer(model=model, args=training_args, train_dataset=ds)
    trainer.train()
    safe_save_model_for_hf_trainer(trainer, "out")
    # --- ds_config.json
    {
      "train_micro_batch_size_per_gpu": "auto",
      "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": false}
    }
    # --- launch
    deepspeed train.py --deepspeed ds_config.json
    # --- expect
    ds_config.json:3: warning: PF505
"""),
    # held-out-4 (accelerate issue 2294): the unwrapped UNet saved on the main process under ZeRO-3,
    # with the 16-bit save flag on (it applies to get_state_dict only)
    textwrap.dedent("""
    # --- train.py
    import os

    from accelerate import Accelerator


    def main(args, unet, optimizer, loader):
        accelerator = Accelerator()
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        for batch in loader:
            accelerator.backward(unet(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        if accelerator.is_main_process:
            unet = accelerator.unwrap_model(unet)
            unet.save_pretrained(os.path.join(args.output_dir, "unet"))  # warning: PF505
    # --- accelerate_config.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_machines: 1
    num_processes: 8
"""),
    # trlx PR 576: get_state_dict of the unwrapped module under ZeRO-3 (no engine to gather through)
    textwrap.dedent("""
    # --- trainer.py
    from accelerate import Accelerator


    class SFTTrainer:
        def __init__(self, model, opt, loader):
            self.accelerator = Accelerator()
            self.model, self.opt, self.loader = self.accelerator.prepare(model, opt, loader)

        def save_pretrained(self, directory):
            self.accelerator.unwrap_model(self.model).save_pretrained(
                directory,
                save_function=self.accelerator.save,
                is_main_process=self.accelerator.is_main_process,
                state_dict=self.accelerator.get_state_dict(self.accelerator.unwrap_model(self.model)),  # warning: PF505
            )
    # --- zero3.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_processes: 8
"""),
    # LAMM issue 32: the engine's module state dict torch.save()d from a method under ZeRO-3
    textwrap.dedent("""
    # --- agent.py
    import os

    import deepspeed
    import torch


    class DeepSpeedAgent:
        def __init__(self, model, ds_config_path="ds_config.json"):
            self.model = model
            self.ds_engine, self.optimizer, _, _ = deepspeed.initialize(
                model=self.model, model_parameters=self.model.parameters(), config=ds_config_path)

        def save_model(self, path):
            state_dict = self.ds_engine.module.state_dict()  # warning: PF505
            trainable = {k: v.detach().cpu() for k, v in state_dict.items() if "lora" in k}
            torch.save(trainable, os.path.join(path, "pytorch_model.pt"))
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}}
"""),
    # the DeepSpeed MNIST tutorial shape: the model given to deepspeed.initialize saved at the end
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch


    def main(args, net, loader):
        model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
        for x, y in loader:
            model_engine.backward(model_engine(x, y))
            model_engine.step()
        torch.save(net.state_dict(), "mnist_cnn.pt")  # warning: PF505
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 3}, "bf16": {"enabled": true}}
    # --- launch
    deepspeed train.py --deepspeed_config ds_config.json
"""),
    # accelerate issue 3238: the unwrapped FLUX transformer's own state dict written with safetensors
    textwrap.dedent("""
    # --- flux_train.py
    import os

    from accelerate import Accelerator
    from safetensors.torch import save_file


    def main(args, flux, optimizer, loader):
        accelerator = Accelerator()
        flux, optimizer, loader = accelerator.prepare(flux, optimizer, loader)
        for batch in loader:
            accelerator.backward(flux(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        if accelerator.is_main_process:
            flux = accelerator.unwrap_model(flux)
            save_file(flux.state_dict(), os.path.join(args.output_dir, "flux.safetensors"))  # warning: PF505
    # --- ds_zero3.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_machines: 1
    num_processes: 8
"""),
]

PF505_GOOD = [
    # ZeRO-3 with the state dict gathered, or read in the branch for stages 0-2; the engine's own
    # consolidated 16-bit dict; a state dict copied without writing a file; ZeRO-2 below
    textwrap.dedent("""
    # --- agent.py
    import deepspeed
    import torch


    class Agent:
        def __init__(self, model, zero_stage):
            self.zero_stage = zero_stage
            self.engine, self.optimizer, _, _ = deepspeed.initialize(model=model, config="ds_config.json")

        def save(self, path):
            if self.zero_stage == 3:
                state_dict = self.engine._zero3_consolidated_16bit_state_dict()
            else:
                state_dict = self.engine.module.state_dict()
            torch.save(state_dict, path)

        def save_trainable(self, path):
            params = [p for p in self.engine.module.parameters() if p.requires_grad]
            with deepspeed.zero.GatheredParameters(params, modifier_rank=0):
                torch.save(self.engine.module.state_dict(), path)

        def snapshot(self):
            return {k: v.clone() for k, v in self.engine.module.state_dict().items()}
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}}
"""),
    textwrap.dedent("""
    # --- train.py
    import deepspeed
    import torch


    def main(args, net, loader):
        model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=net, model_parameters=net.parameters())
        torch.save(model_engine.module.state_dict(), "model.pt")
    # --- ds_config.json
    {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2}}
"""),
    textwrap.dedent("""
    # --- train.py
    from transformers import Trainer, TrainingArguments

    args = TrainingArguments(output_dir="out", deepspeed="ds_zero3.json")
    trainer = Trainer(model=model, args=args, train_dataset=ds)
    trainer.train()
    trainer.save_model("final")
    # --- ds_zero3.json
    {
      "train_micro_batch_size_per_gpu": "auto",
      "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": true}
    }
"""),
    # DeepSpeedExamples zero_inference: dummy weights saved with an explicit state_dict before the
    # model is handed to DeepSpeed
    textwrap.dedent("""
    # --- run_model.py
    import deepspeed
    import torch
    from accelerate import init_empty_weights
    from transformers import OPTForCausalLM

    with init_empty_weights():
        model = OPTForCausalLM(config)
    model.save_pretrained("dummy", state_dict={k: torch.empty_like(v, device="cpu") for k, v in model.state_dict().items()})
    engine = deepspeed.initialize(model=OPTForCausalLM.from_pretrained("dummy"), config="ds_zero3.json")[0]
    # --- ds_zero3.json
    {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}
"""),
    # ZeRO-3 but only the tokenizer is saved
    """
# --- train.py
tokenizer.save_pretrained("out")
# --- ds_zero3.json
{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}
""",
    # ZeRO-2 keeps whole parameters on every rank
    """
# --- train.py
model.save_pretrained("out")
# --- ds_zero2.json
{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 2}}
""",
    # the fix: the gathered state dict, on every rank
    textwrap.dedent("""
    # --- train.py
    import os

    from accelerate import Accelerator


    def main(args, unet, optimizer, loader):
        accelerator = Accelerator()
        unet, optimizer, loader = accelerator.prepare(unet, optimizer, loader)
        for batch in loader:
            accelerator.backward(unet(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        unwrapped = accelerator.unwrap_model(unet)
        unwrapped.save_pretrained(os.path.join(args.output_dir, "unet"), is_main_process=accelerator.is_main_process,
                                  save_function=accelerator.save, state_dict=accelerator.get_state_dict(unet))
    # --- accelerate_config.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_machines: 1
    num_processes: 8
"""),
    # the trlx fix: get_state_dict of the prepared model, unwrap=True; and ZeRO-2, where the unwrapped
    # module holds whole weights
    textwrap.dedent("""
    # --- trainer.py
    from accelerate import Accelerator


    class SFTTrainer:
        def __init__(self, model, opt, loader):
            self.accelerator = Accelerator()
            self.model, self.opt, self.loader = self.accelerator.prepare(model, opt, loader)

        def save_pretrained(self, directory):
            self.accelerator.unwrap_model(self.model).save_pretrained(
                directory, state_dict=self.accelerator.get_state_dict(self.model, unwrap=True))
    # --- zero3.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_processes: 8
"""),
    textwrap.dedent("""
    # --- trainer.py
    from accelerate import Accelerator

    accelerator = Accelerator()
    model, opt = accelerator.prepare(model, opt)
    state = accelerator.get_state_dict(accelerator.unwrap_model(model))
    # --- zero2.yaml
    deepspeed_config:
      zero_stage: 2
    distributed_type: DEEPSPEED
    num_processes: 8
"""),
    # the fix of accelerate issue 3238: get_state_dict on every rank gathers the weights, the main process writes them
    textwrap.dedent("""
    # --- flux_train.py
    import os

    from accelerate import Accelerator
    from safetensors.torch import save_file


    def main(args, flux, optimizer, loader):
        accelerator = Accelerator()
        flux, optimizer, loader = accelerator.prepare(flux, optimizer, loader)
        for batch in loader:
            accelerator.backward(flux(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
        accelerator.wait_for_everyone()
        state_dict = accelerator.get_state_dict(flux)
        if accelerator.is_main_process:
            save_file(state_dict, os.path.join(args.output_dir, "flux.safetensors"))
    # --- ds_zero3.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_machines: 1
    num_processes: 8
"""),
]

PF505_BAD.append(
    # a GRPO loop syncing vLLM from the unwrapped model's own state dict under ZeRO-3 (held-out-15 shape)
    textwrap.dedent("""
    # --- grpo_train.py
    from accelerate import Accelerator


    def sync_weights(accelerator, model, llm):
        state_dict = accelerator.unwrap_model(model).state_dict()  # warning: PF505
        if accelerator.is_main_process:
            llm.llm_engine.model_executor.driver_worker.model_runner.model.load_weights(state_dict.items())


    def main(model, optimizer, loader, llm):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for step, batch in enumerate(loader):
            sync_weights(accelerator, model, llm)
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
    # --- zero3.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_processes: 7
"""))

PF505_BAD.append(
    # the state dict of the unwrapped model bound to a name, then written with safetensors (Flux LoRA shape)
    textwrap.dedent("""
    # --- train_flux.py
    from accelerate import Accelerator
    from safetensors.torch import save_file


    def train(args, transformer, optimizer, loader):
        accelerator = Accelerator(mixed_precision="bf16")
        transformer, optimizer, loader = accelerator.prepare(transformer, optimizer, loader)
        for epoch in range(args.epochs):
            for batch in loader:
                accelerator.backward(transformer(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            accelerator.wait_for_everyone()
            weights = accelerator.unwrap_model(transformer).state_dict()  # warning: PF505
            if accelerator.is_main_process:
                save_file(weights, f"{args.out}/epoch{epoch}.safetensors")
    # --- zero3.yaml
    deepspeed_config:
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_processes: 4
"""))

PF505_GOOD.extend([
    # the Flux fix: the gathered state dict from get_state_dict, written on the main process
    textwrap.dedent("""
    # --- train_flux.py
    from accelerate import Accelerator
    from safetensors.torch import save_file


    def train(args, transformer, optimizer, loader):
        accelerator = Accelerator(mixed_precision="bf16")
        transformer, optimizer, loader = accelerator.prepare(transformer, optimizer, loader)
        for epoch in range(args.epochs):
            for batch in loader:
                accelerator.backward(transformer(**batch).loss)
                optimizer.step()
                optimizer.zero_grad()
            accelerator.wait_for_everyone()
            weights = accelerator.get_state_dict(transformer)
            if accelerator.is_main_process:
                save_file(weights, f"{args.out}/epoch{epoch}.safetensors")
    # --- zero3.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_processes: 4
"""),
    # the fix: get_state_dict gathers on every rank (with the 16-bit save flag on: without it accelerate's
    # get_state_dict raises ValueError under ZeRO-3)
    textwrap.dedent("""
    # --- grpo_train.py
    from accelerate import Accelerator


    def sync_weights(accelerator, model, llm):
        state_dict = accelerator.get_state_dict(model)
        if accelerator.is_main_process:
            llm.llm_engine.model_executor.driver_worker.model_runner.model.load_weights(state_dict.items())


    def main(model, optimizer, loader, llm):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        for batch in loader:
            sync_weights(accelerator, model, llm)
            accelerator.backward(model(**batch).loss)
            optimizer.step()
            optimizer.zero_grad()
    # --- zero3.yaml
    deepspeed_config:
      zero3_save_16bit_model: true
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_processes: 7
"""),
    # tricky-correct: only the parameter names of the unwrapped state dict are used
    textwrap.dedent("""
    # --- train.py
    from accelerate import Accelerator


    def main(model, optimizer, loader):
        accelerator = Accelerator()
        model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
        state_dict = accelerator.unwrap_model(model).state_dict()
        lora_names = [k for k in state_dict.keys() if "lora_" in k]
        print(len(lora_names))
    # --- zero3.yaml
    deepspeed_config:
      zero_stage: 3
    distributed_type: DEEPSPEED
    num_processes: 8
"""),
    # ZeRO-2 keeps whole parameters on every rank
    textwrap.dedent("""
    # --- grpo_train.py
    from accelerate import Accelerator


    def sync_weights(accelerator, model, llm):
        state_dict = accelerator.unwrap_model(model).state_dict()
        llm.load_weights(state_dict.items())
    # --- zero2.yaml
    deepspeed_config:
      zero_stage: 2
    distributed_type: DEEPSPEED
    num_processes: 7
"""),
])

# examples rebuilt from public reports (held-out-30, held-out-34)
from preflight.rules.plan._pf505_report_examples import REPORT_BAD, REPORT_GOOD  # noqa: E402

PF505_BAD.extend(REPORT_BAD)
PF505_GOOD.extend(REPORT_GOOD)
