"""A config file splatted into a project function's keyword parameters: ``main(**OmegaConf.load(args.config))``
(adapters/config_object_splat_file.py). Fixtures of our own copying the real shape, with silent twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# showlab/Tune-A-Video @ 7d4a89a2b900: train_tuneavideo.py:39-75,127-166,362-367 (def main(..., train_batch_size=1,
# gradient_accumulation_steps=1, gradient_checkpointing=True, mixed_precision="fp16", use_8bit_adam=False, ...);
# Accelerator(gradient_accumulation_steps=..., mixed_precision=...); if gradient_checkpointing:
# unet.enable_gradient_checkpointing(); if use_8bit_adam: optimizer_cls = bnb.optim.AdamW8bit else
# torch.optim.AdamW; DataLoader(train_dataset, batch_size=train_batch_size); main(**OmegaConf.load(args.config))),
# configs/man-skiing.yaml (train_batch_size: 1, mixed_precision: fp16, use_8bit_adam: False,
# gradient_checkpointing: True; no gradient_accumulation_steps). The same call closes many public training scripts.
TAV = {
    "train.py": """\
        import argparse
        from typing import Dict, Optional

        import torch
        from accelerate import Accelerator
        from omegaconf import OmegaConf
        from diffusers import UNet2DConditionModel


        def main(
            pretrained_model_path: str,
            output_dir: str,
            train_data: Dict,
            train_batch_size: int = 1,
            learning_rate: float = 3e-5,
            gradient_accumulation_steps: int = 1,
            gradient_checkpointing: bool = True,
            mixed_precision: Optional[str] = "fp16",
            use_8bit_adam: bool = False,
            seed: Optional[int] = None,
        ):
            accelerator = Accelerator(
                gradient_accumulation_steps=gradient_accumulation_steps,
                mixed_precision=mixed_precision,
            )
            unet = UNet2DConditionModel.from_pretrained(pretrained_model_path, subfolder="unet")
            if gradient_checkpointing:
                unet.enable_gradient_checkpointing()
            if use_8bit_adam:
                import bitsandbytes as bnb

                optimizer_cls = bnb.optim.AdamW8bit
            else:
                optimizer_cls = torch.optim.AdamW
            optimizer = optimizer_cls(unet.parameters(), lr=learning_rate)
            train_dataloader = torch.utils.data.DataLoader(list(range(8)), batch_size=train_batch_size)
            unet, optimizer, train_dataloader = accelerator.prepare(unet, optimizer, train_dataloader)
            for batch in train_dataloader:
                with accelerator.accumulate(unet):
                    loss = unet(batch).sample.mean()
                    accelerator.backward(loss)
                    optimizer.step()
                    optimizer.zero_grad()


        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--config", type=str, default="./configs/tuneavideo.yaml")
            args = parser.parse_args()

            main(**OmegaConf.load(args.config))
    """,
    "configs/run.yaml": """\
        pretrained_model_path: "./checkpoints/stable-diffusion-v1-4"
        output_dir: "./outputs/run"

        train_data:
          video_path: "data/run.mp4"
          width: 512

        learning_rate: 3e-5
        train_batch_size: 4
        seed: 33
        mixed_precision: bf16
        use_8bit_adam: False
        gradient_checkpointing: True
    """,
}


def _plan(cli, tmp_path, files=TAV, config="configs/run.yaml"):
    write(tmp_path, files)
    return plan_of(cli, "train.py", "--", f"--config={config}", cwd=tmp_path)


def test_yaml_keys_fill_the_splatted_parameters(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 4 and micro.confidence != "high"
    assert fact(plan, "precision.mode").value == "amp_bf16"
    assert fact(plan, "optimizer.name").value == "AdamW"
    assert fact(plan, "memory.gradient_checkpointing").value is True
    # a parameter the file lacks keeps its default
    accum = fact(plan, "batch.grad_accum")
    assert accum.value == 1 and accum.confidence != "high"


def test_switches_set_in_the_yaml_decide_the_arms(cli, tmp_path):
    files = dict(TAV)
    files["configs/run.yaml"] = files["configs/run.yaml"].replace("use_8bit_adam: False", "use_8bit_adam: True") \
        .replace("gradient_checkpointing: True", "gradient_checkpointing: False")
    plan = _plan(cli, tmp_path, files)
    assert fact(plan, "optimizer.name").value != "AdamW"
    ckpt = fact(plan, "memory.gradient_checkpointing")
    assert ckpt is None or ckpt.value is False


def test_a_key_the_function_does_not_take_leaves_the_call_unread(cli, tmp_path):
    # the call would fail with an unexpected keyword: nothing is taken from the file
    files = dict(TAV)
    files["configs/run.yaml"] = files["configs/run.yaml"].replace("seed: 33", "seed: 33\n        not_a_parameter: 3")
    plan = _plan(cli, tmp_path, files)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 4
    assert fact(plan, "precision.mode") is None or fact(plan, "precision.mode").value != "amp_bf16"


def test_a_config_not_there_stays_unknown(cli, tmp_path):
    plan = _plan(cli, tmp_path, config="configs/missing.yaml")
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 4
    assert fact(plan, "precision.mode") is None or fact(plan, "precision.mode").value != "amp_bf16"


def test_a_splat_of_a_name_built_otherwise_is_not_read_as_the_file(cli, tmp_path):
    files = dict(TAV)
    files["train.py"] = files["train.py"].replace(
        "main(**OmegaConf.load(args.config))", "main(**OmegaConf.load(args.config), train_batch_size=2)")
    plan = _plan(cli, tmp_path, files)
    # the call's own keyword wins over the file
    assert fact(plan, "batch.micro").value == 2
