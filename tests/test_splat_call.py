"""A project function the launched script calls with ``**c`` (adapters/splat_call.py): its parameters take the
keys of the ``dnnlib.EasyDict`` the script builds. Fixtures of our own copying the shapes of NVlabs/stylegan3 @
c233a919a6fa ``train.py:28-49,86-104,176-196`` (click options into ``opts``, ``c = dnnlib.EasyDict()``,
``c.batch_size = opts.batch``, ``launch_training(c=c, ...)``, ``subprocess_fn(rank=0, c=c, ...)``,
``training_loop.training_loop(rank=rank, **c)``) and ``training/training_loop.py:96-151`` (``DataLoader(
batch_size=batch_size//num_gpus, ...)`` from its parameters), and of NVlabs/edm @ 008a4e5316c8 ``train.py:96,152,229``
(``c.update(batch_size=opts.batch, ...)`` then ``training_loop.training_loop(**c)`` in ``main``)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

TRAIN = """\
    import click
    import dnnlib
    from training import training_loop

    def subprocess_fn(rank, c, temp_dir):
        training_loop.training_loop(rank=rank, **c)

    def launch_training(c, desc, outdir):
        if c.num_gpus == 1:
            subprocess_fn(rank=0, c=c, temp_dir=outdir)
        else:
            torch.multiprocessing.spawn(fn=subprocess_fn, args=(c, outdir), nprocs=c.num_gpus)

    @click.command()
    @click.option('--gpus', type=int, default=1)
    @click.option('--batch', type=int, default=32)
    @click.option('--fp32', type=bool, default=False)
    def main(**kwargs):
        opts = dnnlib.EasyDict(kwargs)
        c = dnnlib.EasyDict()
        c.G_kwargs = dnnlib.EasyDict(class_name='networks.Generator')
        c.num_gpus = opts.gpus
        WRITE_BATCH
        launch_training(c=c, desc='run', outdir='out')

    if __name__ == "__main__":
        main()
"""
LOOP = """\
    import torch

    def training_loop(run_dir='.', G_kwargs={}, num_gpus=1, rank=0, batch_size=4, batch_gpu=4):
        net = torch.nn.Linear(4, 4)
        opt = torch.optim.Adam(net.parameters())
        loader = iter(torch.utils.data.DataLoader([], batch_size=batch_size//num_gpus))
        while True:
            x = next(loader)
            loss = net(x).sum()
            loss.backward()
            opt.step()
"""


def _plan(cli, tmp_path, write_batch: str, train: str = TRAIN) -> dict:
    write(tmp_path, {"train.py": train.replace("WRITE_BATCH", write_batch), "training/__init__.py": "",
                     "training/training_loop.py": LOOP})
    return plan_of(cli, "train.py", "--", "--gpus", "4", "--batch", "64", cwd=tmp_path)


def test_the_keys_of_an_easydict_splatted_into_the_training_function_are_its_parameters(cli, tmp_path):
    plan = _plan(cli, tmp_path, "c.batch_size = opts.batch")
    got = fact(plan, "batch.micro")
    assert got is not None and got.value == 16  # --batch 64 // --gpus 4, in training_loop.py's DataLoader
    assert got.confidence == "medium"  # followed through the writes and two functions
    assert any("training_loop(**...) of training/training_loop.py" in n for n in plan["notes"])
    assert "training/training_loop.py" in [i["path"] for i in plan["inputs"]]


def test_a_key_written_under_a_test_is_not_read_nor_taken_as_the_parameters_default(cli, tmp_path):
    plan = _plan(cli, tmp_path, "if not opts.fp32:\n            c.batch_size = opts.batch")
    got = fact(plan, "batch.micro")
    assert got is None  # unknown: never the default 4 // 4


def test_a_key_never_written_takes_the_parameters_default(cli, tmp_path):
    plan = _plan(cli, tmp_path, "c.batch_gpu = opts.batch")
    got = fact(plan, "batch.micro")
    assert got is not None and got.value == 1  # batch_size=4 (the default) // --gpus 4


def test_a_mapping_handed_to_an_unknown_function_is_not_read(cli, tmp_path):
    plan = _plan(cli, tmp_path, "c.batch_size = opts.batch\n        configure(c)")
    got = fact(plan, "batch.micro")
    assert got is None


EDM = """\
    import click
    import dnnlib
    from training import training_loop

    @click.command()
    @click.option('--gpus', type=int, default=1)
    @click.option('--batch', type=int, default=32)
    def main(**kwargs):
        opts = dnnlib.EasyDict(kwargs)
        c = dnnlib.EasyDict()
        c.update(num_gpus=opts.gpus, batch_size=opts.batch)
        training_loop.training_loop(**c)

    if __name__ == "__main__":
        main()
"""


def test_keys_written_by_update_with_keywords_are_read(cli, tmp_path):
    write(tmp_path, {"train.py": EDM, "training/__init__.py": "", "training/training_loop.py": LOOP})
    plan = plan_of(cli, "train.py", "--", "--gpus", "2", "--batch", "64", cwd=tmp_path)
    got = fact(plan, "batch.micro")
    assert got is not None and got.value == 32


def test_an_update_from_another_mapping_leaves_the_keys_unknown(cli, tmp_path):
    write(tmp_path, {"train.py": EDM.replace("c.update(num_gpus=opts.gpus, batch_size=opts.batch)",
                                             "c.update(opts)"),
                     "training/__init__.py": "", "training/training_loop.py": LOOP})
    plan = plan_of(cli, "train.py", "--", "--gpus", "2", "--batch", "64", cwd=tmp_path)
    got = fact(plan, "batch.micro")
    assert got is None  # not the defaults 4 // 1
