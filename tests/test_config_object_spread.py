"""A configuration object's section spread into a project function (``loader(**args.data_config)``)
and a value written back from the framework object it configured (``args.mixed_precision =
accelerator.mixed_precision``). Shapes of XLabs-AI/x-flux @ 47495425dbed499be1e8e5a6e52628b07349cba2
``train_flux_lora_deepspeed.py:58-82,161,182-188`` and ``image_datasets/dataset.py:48-92``."""

from __future__ import annotations

from pathlib import Path

from plan_helpers import fact, plan_of, winner, write

TRAIN = """\
    import argparse

    import torch
    from accelerate import Accelerator
    from omegaconf import OmegaConf

    from data import loader


    def parse_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str, required=True)
        args = parser.parse_args()
        return args.config


    def main():
        args = OmegaConf.load(parse_args())
        accelerator = Accelerator(gradient_accumulation_steps=args.gradient_accumulation_steps,
                                  mixed_precision=args.mixed_precision)
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())
        train_dataloader = loader(**args.data_config)
        model, opt, train_dataloader = accelerator.prepare(model, opt, train_dataloader)
        weight_dtype = torch.float32
        if accelerator.mixed_precision == "fp16":
            weight_dtype = torch.float16
            {writeback}
        elif accelerator.mixed_precision == "bf16":
            weight_dtype = torch.bfloat16
            {writeback}
        for batch in train_dataloader:
            loss = model(batch.to(weight_dtype)).mean()
            accelerator.backward(loss)
            opt.step()
            opt.zero_grad()


    if __name__ == "__main__":
        main()
    """

DATA = """\
    from torch.utils.data import DataLoader, Dataset


    class ImageSet(Dataset):
        def __init__(self, img_dir, img_size=512, random_ratio=False):
            self.img_dir = img_dir
            self.img_size = img_size
            self.random_ratio = random_ratio

        def __len__(self):
            return 10

        def __getitem__(self, idx):
            return resize(open(self.img_dir), self.img_size)


    def loader(train_batch_size, num_workers, **args):
        dataset = ImageSet(**args)
        return DataLoader(dataset, batch_size=train_batch_size, num_workers=num_workers, shuffle=True)
    """

YAML = """\
    mixed_precision: "bf16"
    gradient_accumulation_steps: 2
    data_config:
      train_batch_size: 3
      num_workers: 4
      img_size: 768
      img_dir: images/
    """


def test_a_spread_section_gives_the_loader_and_the_dataset_their_keys(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN.format(writeback="pass"), "data.py": DATA, "cfg.yaml": YAML})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg.yaml", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 3 and micro.source.path == "cfg.yaml" and micro.source.line == 4
    assert winner(plan, "data.num_workers") == 4
    assert winner(plan, "data.image_size") == 768  # through ``**args`` into the dataset's ``img_size``


def test_without_the_spread_nothing_is_taken_from_the_section(cli, tmp_path: Path) -> None:
    src = TRAIN.format(writeback="pass").replace("loader(**args.data_config)", "loader(1, 0, img_dir='x')")
    write(tmp_path, {"train.py": src, "data.py": DATA, "cfg.yaml": YAML})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg.yaml", cwd=tmp_path)
    assert winner(plan, "batch.micro") != 3 and winner(plan, "data.image_size") != 768


def test_a_value_written_back_from_the_object_it_configured_stays_known(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN.format(writeback="args.mixed_precision = accelerator.mixed_precision"),
                     "data.py": DATA, "cfg.yaml": YAML})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg.yaml", cwd=tmp_path)
    assert winner(plan, "precision.mode") == "amp_bf16"


def test_a_new_value_written_into_the_key_makes_it_unknown(cli, tmp_path: Path) -> None:
    write(tmp_path, {"train.py": TRAIN.format(writeback='args.mixed_precision = "fp16"'),
                     "data.py": DATA, "cfg.yaml": YAML})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg.yaml", cwd=tmp_path)
    assert winner(plan, "precision.mode") != "amp_bf16"
    # another object's attribute of that name is not a write-back either
    src = TRAIN.format(writeback="args.mixed_precision = other.mixed_precision").replace(
        "model = torch.nn.Linear(4, 4)", "model = torch.nn.Linear(4, 4)\n        other = Accelerator()")
    write(tmp_path, {"train.py": src})
    plan = plan_of(cli, "train.py", "--", "--config", "cfg.yaml", cwd=tmp_path)
    assert winner(plan, "precision.mode") != "amp_bf16"
