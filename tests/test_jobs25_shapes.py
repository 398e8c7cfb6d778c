"""Set 18's wrong-at-high-confidence shapes (branch jobs25): fixtures of our own copying the real code's
shape, each with a must-read test and a silent (must-stay-as-before) twin.

- an argparse option divided per process in the script's own code after ``mp.spawn``
  (facebookresearch/moco-v3 @ c349e6e ``main_moco.py:206-207``; pytorch/examples ``imagenet/main.py``):
  the DataLoader reads the per-process value, so the launch-line value is not ``batch.micro``.
"""

from __future__ import annotations

import textwrap

from plan_helpers import fact, plan_of, write

MOCO = """\
    import argparse

    import torch
    import torch.multiprocessing as mp

    parser = argparse.ArgumentParser()
    parser.add_argument('-b', '--batch-size', default=4096, type=int)
    parser.add_argument('-j', '--workers', default=32, type=int)
    parser.add_argument('--world-size', default=-1, type=int)


    def main():
        args = parser.parse_args()
        ngpus_per_node = torch.cuda.device_count()
        args.world_size = ngpus_per_node * args.world_size
        mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))


    def main_worker(gpu, ngpus_per_node, args):
        model = torch.nn.Linear(8, 8).cuda(gpu)
        {split}
        model = torch.nn.parallel.DistributedDataParallel(model, device_ids=[gpu])
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        loader = torch.utils.data.DataLoader([], batch_size=args.batch_size, num_workers=args.workers)
        for x in loader:
            optimizer.zero_grad()
            model(x).sum().backward()
            optimizer.step()


    if __name__ == '__main__':
        main()
"""

_SPLIT = ("args.batch_size = int(args.batch_size / args.world_size)\n"
          "        args.workers = int((args.workers + ngpus_per_node - 1) / ngpus_per_node)")


def test_batch_and_workers_divided_per_process_are_not_the_launch_value(cli, tmp_path):
    write(tmp_path, {"main_moco.py": MOCO.replace("{split}", _SPLIT)})
    plan = plan_of(cli, "main_moco.py", "--", "-b", "1024", "--world-size", "1", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    workers = fact(plan, "data.num_workers")
    assert micro is None or micro.value != 1024, micro
    assert workers is None or workers.value != 32, workers


def test_floor_divided_in_place_by_a_name_is_not_the_launch_value(cli, tmp_path):
    write(tmp_path, {"main_moco.py": MOCO.replace("{split}", "args.batch_size //= ngpus_per_node")})
    plan = plan_of(cli, "main_moco.py", "--", "-b", "1024", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 1024, micro


def test_twin_undivided_or_divided_by_a_literal_keeps_the_launch_value(cli, tmp_path):
    # a division by a literal is known statically and is not the per-process shape; the value read
    # by the DataLoader is still the launch line's (the rescaled copy goes to another attribute)
    write(tmp_path, {"main_moco.py": MOCO.replace("{split}", "args.lr_scaled = args.batch_size / 256")})
    plan = plan_of(cli, "main_moco.py", "--", "-b", "1024", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 1024
    assert fact(plan, "data.num_workers").value == 32


# myshell-ai/MeloTTS @ 2091453 melo/train.py:252,342: the fp16 switch lives in a JSON hparams object
# the project builds through its own helper; the scaler and autocast take it as enabled=
VITS = """\
    import torch
    from torch.cuda.amp import GradScaler, autocast

    import utils


    def run():
        hps = utils.get_hparams()
        net_g = torch.nn.Linear(8, 8).cuda()
        net_g = torch.nn.parallel.DistributedDataParallel(net_g)
        optim_g = torch.optim.AdamW(net_g.parameters(), 2e-4)
        scaler = GradScaler(enabled={flag})
        loader = torch.utils.data.DataLoader([], batch_size=4)
        for x in loader:
            with autocast(enabled={flag}):
                y = net_g(x)
            with autocast(enabled=False):
                loss = y.float().mean()
            optim_g.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optim_g)
            scaler.update()


    if __name__ == "__main__":
        run()
"""
UTILS = """\
    import json


    class HParams:
        def __init__(self, **kwargs):
            self.__dict__.update(kwargs)


    def get_hparams():
        with open("configs/config.json") as f:
            return HParams(**json.load(f))
"""


def test_autocast_enabled_by_an_unread_value_is_not_taken_as_on(cli, tmp_path):
    write(tmp_path, {"train.py": VITS.replace("{flag}", "hps.train.fp16_run"), "utils.py": UTILS,
                     "configs/config.json": '{"train": {"fp16_run": false}}'})
    mode = fact(plan_of(cli, "train.py", cwd=tmp_path), "precision.mode")
    assert mode is None or mode.value == "fp32", mode
    assert mode is None or mode.confidence != "high", mode


def test_twin_autocast_enabled_true_is_amp_fp16(cli, tmp_path):
    write(tmp_path, {"train.py": VITS.replace("{flag}", "True"), "utils.py": UTILS})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "precision.mode").value == "amp_fp16"


def test_autocast_enabled_by_a_device_test_is_on_for_the_gpu(cli, tmp_path):
    # WongKinYiu/yolov7 @ a207844 train.py:61,299,360: cuda = device.type != 'cpu'; amp.autocast(enabled=cuda)
    shape = VITS.replace("hps = utils.get_hparams()", "device = torch.device('cuda:0')\n"
                         "        cuda = device.type != 'cpu'").replace("{flag}", "cuda")
    write(tmp_path, {"train.py": shape})
    assert fact(plan_of(cli, "train.py", cwd=tmp_path), "precision.mode").value == "amp_fp16"


# zyushun/Adam-mini @ 402aadf examples/gpt2/train_gpt2.py:33,250-260: a nanoGPT fork choosing between the
# model's own configure_optimizers and a third-party optimizer class by a module constant
NANO = """\
    import torch
    from {pkg} import {cls}

    algorithm = '{algo}'
    model = torch.nn.Linear(8, 8).cuda()
    if algorithm == 'adamw':
        optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4)
    elif algorithm == 'adam_mini':
        optimizer = {cls}(named_parameters=model.named_parameters(), lr=6e-4, dim=768, n_heads=12)
    for step in range(10):
        loss = model(torch.randn(4, 8, device='cuda')).sum()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
"""


def test_a_third_party_optimizer_class_is_reported_by_its_name(cli, tmp_path):
    write(tmp_path, {"train_gpt2.py": NANO.format(pkg="adam_mini", cls="Adam_mini", algo="adam_mini")})
    assert fact(plan_of(cli, "train_gpt2.py", cwd=tmp_path), "optimizer.name").value == "Adam_mini"


def test_twin_the_arm_not_taken_is_not_reported(cli, tmp_path):
    write(tmp_path, {"train_gpt2.py": NANO.format(pkg="adam_mini", cls="Adam_mini", algo="adamw")})
    assert fact(plan_of(cli, "train_gpt2.py", cwd=tmp_path), "optimizer.name").value == "AdamW"


def test_twin_a_non_optimizer_class_with_a_suffix_is_not_an_optimizer(cli, tmp_path):
    # ``Lambda_lr`` is no optimizer: the taken arm builds it, and no optimizer name is made up
    write(tmp_path, {"train_gpt2.py": NANO.format(pkg="sched_utils", cls="Lambda_lr", algo="adam_mini")})
    name = fact(plan_of(cli, "train_gpt2.py", cwd=tmp_path), "optimizer.name")
    assert name is None or name.value != "Lambda_lr", name


_DOC = '"""\nA nanoGPT-style script.\n\nTo run on one GPU:\n$ python train.py --batch_size=32 --compile=False\n"""\n'


def test_a_usage_line_in_the_module_docstring_does_not_hide_the_absence_of_compile(cli, tmp_path):
    # zyushun/Adam-mini @ 402aadf examples/gpt2/train_gpt2.py:1-6: the docstring names --compile=False,
    # the code never compiles
    body = textwrap.dedent(NANO.format(pkg="adam_mini", cls="Adam_mini", algo="adam_mini"))
    write(tmp_path, {"train_gpt2.py": _DOC + body})
    assert fact(plan_of(cli, "train_gpt2.py", cwd=tmp_path), "compile.enabled").value is False


def test_twin_a_compile_switch_in_code_after_the_docstring_still_blocks_the_absence(cli, tmp_path):
    body = textwrap.dedent(NANO.format(pkg="adam_mini", cls="Adam_mini", algo="adam_mini"))
    body = body.replace("algorithm = 'adam_mini'", "algorithm = 'adam_mini'\ncompile = True\n"
                        "if compile:\n    model = torch.compile(model)")
    write(tmp_path, {"train_gpt2.py": _DOC + body})
    got = fact(plan_of(cli, "train_gpt2.py", cwd=tmp_path), "compile.enabled")
    assert got is None or got.value is True, got


# zhangfaen/finetune-Qwen2-VL @ c5385c5 finetune_distributed.py:15-33: a DeepSpeedPlugin built in code
ACCEL = """\
    import torch
    from accelerate import Accelerator, DeepSpeedPlugin

    deepspeed_plugin = DeepSpeedPlugin(zero_stage=3, gradient_accumulation_steps=2{extra})
    accelerator = Accelerator(deepspeed_plugin=deepspeed_plugin)
    model = torch.nn.Linear(8, 8)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    loader = torch.utils.data.DataLoader([], batch_size=1)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    for batch in loader:
        with accelerator.accumulate(model):
            loss = model(batch).sum()
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
"""


def test_deepspeed_plugin_in_code_gives_its_offload_default_and_save_16bit(cli, tmp_path):
    write(tmp_path, {"train.py": ACCEL.format(extra=", zero3_save_16bit_model=True")})
    plan = plan_of(cli, "train.py", "--", "accelerate", "launch", "--use_deepspeed", "--num_processes=2",
                   "train.py", cwd=tmp_path)
    assert fact(plan, "dist.offload_optimizer").value == "none"
    assert fact(plan, "dist.offload_params").value == "none"
    assert fact(plan, "dist.save_16bit_weights").value is True


def test_twin_an_explicit_offload_device_is_read_not_the_default(cli, tmp_path):
    write(tmp_path, {"train.py": ACCEL.format(extra=", offload_optimizer_device='cpu'")})
    plan = plan_of(cli, "train.py", "--", "accelerate", "launch", "--use_deepspeed", "--num_processes=2",
                   "train.py", cwd=tmp_path)
    assert fact(plan, "dist.offload_optimizer").value == "cpu"
    assert fact(plan, "dist.save_16bit_weights") is None or fact(plan, "dist.save_16bit_weights").value is not True


# facebookresearch/ConvNeXt-V2 @ 2553895 main_finetune.py:24,76,333 and optim_factory.py:140-175: the
# project's own copy of timm's optimizer factory, read through --opt
CONVNEXT = """\
    import argparse

    import torch
    from optim_factory import create_optimizer

    parser = argparse.ArgumentParser()
    parser.add_argument('--opt', default='adamw', type=str)
    args = parser.parse_args()
    model = torch.nn.Linear(8, 8).cuda()
    optimizer = create_optimizer(args, model, skip_list=None)
    loader = torch.utils.data.DataLoader([], batch_size=32)
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
"""
FACTORY = """\
    from torch import optim


    def create_optimizer(args, model, get_num_layer=None, skip_list=None):
        opt_lower = args.opt.lower()
        opt_split = opt_lower.split('_')
        opt_lower = opt_split[-1]
        if opt_lower == 'sgd':
            return optim.SGD(model.parameters(), lr=0.1)
        return optim.AdamW(model.parameters())
"""


def test_a_project_copy_of_timms_optimizer_factory_reads_opt(cli, tmp_path):
    write(tmp_path, {"main_finetune.py": CONVNEXT, "optim_factory.py": FACTORY})
    got = fact(plan_of(cli, "main_finetune.py", "--", "--opt", "lookahead_sgd", cwd=tmp_path), "optimizer.name")
    assert got is not None and got.value.lower() == "sgd", got


def test_twin_a_local_create_optimizer_of_another_shape_is_not_read_as_timms(cli, tmp_path):
    other = FACTORY.replace("opt_lower = args.opt.lower()", "opt_lower = 'adamw'")
    write(tmp_path, {"main_finetune.py": CONVNEXT, "optim_factory.py": other})
    got = fact(plan_of(cli, "main_finetune.py", "--", "--opt", "lookahead_sgd", cwd=tmp_path), "optimizer.name")
    assert got is None or got.value.lower() != "sgd", got


# huggingface/picotron @ 59714b1 train.py:57-63,107: a nested JSON config opened in a with-block
PICO = """\
    import argparse
    import json

    import torch

    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--config", type=str, default="")
        args = parser.parse_args()
        with open(args.config, "r") as f:
            config = json.load(f)
        model = torch.nn.Linear(8, 8).cuda()
        optimizer = torch.optim.AdamW(model.parameters(), lr=config["training"]["learning_rate"])
        loader = torch.utils.data.DataLoader([], batch_size=config["training"]["{key}"])
        for x in loader:
            model(x).sum().backward()
            optimizer.step()
            optimizer.zero_grad()
"""
_PICO_JSON = '{"training": {"learning_rate": 3e-4, "micro_batch_size": 32}, "dataset": {"num_workers": 0}}'


def test_a_nested_json_config_key_reached_through_subscripts_is_read(cli, tmp_path):
    write(tmp_path, {"train.py": PICO.replace("{key}", "micro_batch_size"), "template/base_config.json": _PICO_JSON})
    plan = plan_of(cli, "train.py", "--", "--config", "template/base_config.json", cwd=tmp_path)
    assert fact(plan, "batch.micro").value == 32


def test_twin_a_nested_key_the_json_lacks_stays_unknown(cli, tmp_path):
    write(tmp_path, {"train.py": PICO.replace("{key}", "batch_size"), "template/base_config.json": _PICO_JSON})
    plan = plan_of(cli, "train.py", "--", "--config", "template/base_config.json", cwd=tmp_path)
    assert fact(plan, "batch.micro") is None
