"""A loader batch the loop splits into rounds of ``batch_gpu``, and optimizer dicts handed through a loop of
tuples (issue 15, set 45: autonomousvision/stylegan-t @ 36ab80c ``train.py:111-114,136-137`` and
``training/training_loop.py:196-218,276-289,329-330``, the NVlabs stylegan2-ada/stylegan3 layout).
Twins: a string split by a separator, a split by the loader's own batch, a ``batch_gpu`` rebound
otherwise, and optimizer dicts of different classes stay unknown or keep the loader's batch."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import click
    import dnnlib
    from training import training_loop


    @click.command()
    @click.option('--batch', type=int, required=True)
    @click.option('--batch-gpu', type=int, default=4)
    def main(**kwargs):
        opts = dnnlib.EasyDict(kwargs)
        c = dnnlib.EasyDict()
        c.G_opt_kwargs = dnnlib.EasyDict(class_name='torch.optim.Adam', betas=[0, 0.99], eps=1e-8, lr=0.002)
        c.D_opt_kwargs = dnnlib.EasyDict(class_name='torch.optim.Adam', betas=[0, 0.99], eps=1e-8, lr=0.002)
        if opts.batch > 1024:
            c.G_opt_kwargs.lr = 3e-6
        c.data_loader_kwargs = dnnlib.EasyDict(pin_memory=True, num_workers=3, prefetch_factor=2)
        c.batch_size = opts.batch
        c.batch_gpu = opts.batch_gpu
        training_loop.training_loop(**c)


    if __name__ == "__main__":
        main()
"""

LOOP = """\
    import numpy as np
    import torch
    import dnnlib
    from torch_utils import distributed as dist


    def split(arr, chunk_size, dim=0):
        splits = int(np.ceil(len(arr) / chunk_size))
        return np.array_split(arr, splits, dim)


    def fetch_data(iterator, z_dim, device, batches_num, batch_size, batch_gpu):
        real_img, real_cs = next(iterator)
        gen_zs = torch.randn([batches_num * batch_size, z_dim], device=device)
        real_img = split(real_img, batch_gpu)
        gen_zs = [split(gen_z, batch_gpu) for gen_z in split(gen_zs, batch_size)]
        return real_img, real_cs, gen_zs


    def training_loop(data_loader_kwargs={}, G_opt_kwargs={}, D_opt_kwargs={}, batch_size=4, batch_gpu=4):
        batch_gpu_total = batch_size // dist.get_world_size()
        if batch_gpu is None or batch_gpu > batch_gpu_total:
            batch_gpu = batch_gpu_total
        n_batch_acc = batch_gpu_total // batch_gpu
        dataset = torch.utils.data.TensorDataset(torch.randn(64, 8))
        iterator = iter(torch.utils.data.DataLoader(dataset=dataset, batch_size=batch_size//dist.get_world_size(),
                                                    **data_loader_kwargs))
        G = torch.nn.Linear(8, 8).cuda()
        D = torch.nn.Linear(8, 1).cuda()
        for name, module, opt_kwargs in [('D', D, D_opt_kwargs), ('G', G, G_opt_kwargs)]:
            opt = dnnlib.util.construct_class_by_name(params=module.parameters(), **opt_kwargs)
        while True:
            real_img, real_cs, gen_zs = fetch_data(iterator, 8, 'cuda', 2, batch_size, batch_gpu)
            for real in real_img:
                D(G(real.cuda())).sum().backward()
            opt.step()
"""

LIB = {"dnnlib/__init__.py": "from . import util\nfrom .util import EasyDict\n",
       "dnnlib/util.py": "class EasyDict(dict):\n    pass\n\n\ndef construct_class_by_name(*args, **kwargs):\n    pass\n",
       "torch_utils/__init__.py": "", "torch_utils/distributed.py": "def get_world_size():\n    return 1\n",
       "training/__init__.py": ""}


def _plan(cli, tmp_path, loop: str = LOOP, train: str = TRAIN) -> dict:
    write(tmp_path, {"train.py": train, "training/training_loop.py": loop, **LIB})
    return plan_of(cli, "--", "python", "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "1",
                   "train.py", "--batch", "128", "--batch-gpu", "8", cwd=tmp_path)


def _value(plan: dict, field: str):
    got = fact(plan, field)
    return None if got is None else got.value


def test_the_loader_batch_split_into_rounds_of_batch_gpu(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    assert _value(plan, "batch.micro") == 8
    assert _value(plan, "batch.grad_accum") == 16
    assert _value(plan, "optimizer.name") == "Adam"
    assert _value(plan, "data.num_workers") == 3


def test_twin_a_string_split_by_a_separator_is_no_round(cli, tmp_path):
    loop = LOOP.replace("real_img = split(real_img, batch_gpu)", "real_img = [real_img]\n        'a b'.split(sep)") \
        .replace("def fetch_data(iterator, z_dim, device, batches_num, batch_size, batch_gpu):",
                 "def fetch_data(iterator, z_dim, device, batches_num, batch_size, batch_gpu, sep=' '):") \
        .replace("[split(gen_z, batch_gpu) for", "[gen_z for")
    assert loop != LOOP
    plan = _plan(cli, tmp_path, loop=loop)
    assert _value(plan, "batch.micro") != 8
    assert _value(plan, "batch.grad_accum") != 16


def test_twin_a_batch_gpu_rebound_otherwise_leaves_the_micro_batch_unknown(cli, tmp_path):
    loop = LOOP.replace("            batch_gpu = batch_gpu_total\n", "            batch_gpu = 2\n")
    assert loop != LOOP
    plan = _plan(cli, tmp_path, loop=loop)
    assert _value(plan, "batch.micro") not in (8, 128)


def test_twin_optimizer_dicts_of_different_classes_say_nothing(cli, tmp_path):
    train = TRAIN.replace("c.D_opt_kwargs = dnnlib.EasyDict(class_name='torch.optim.Adam'",
                          "c.D_opt_kwargs = dnnlib.EasyDict(class_name='torch.optim.SGD'")
    assert train != TRAIN
    plan = _plan(cli, tmp_path, train=train)
    assert _value(plan, "optimizer.name") not in ("Adam", "SGD")


def test_twin_a_class_name_rewritten_later_says_nothing(cli, tmp_path):
    train = TRAIN.replace("            c.G_opt_kwargs.lr = 3e-6\n", "            c.G_opt_kwargs.class_name = 'torch.optim.SGD'\n")
    assert train != TRAIN
    plan = _plan(cli, tmp_path, train=train)
    assert _value(plan, "optimizer.name") != "Adam" or fact(plan, "optimizer.name").source.path != "train.py"
