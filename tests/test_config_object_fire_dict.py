"""A dict built from a ``fire.Fire`` entry's parameters and splatted into a project class of another module
(adapters/config_object_fire_dict.py), and the ``partial(autocast, 'cuda') if KEY else null_context`` switch
(adapters/config_object_autocast.py ``switched_context``). Fixtures of our own copying the real shape, with
silent twins."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

# lucidrains/lightweight-gan @ efbec45: lightweight_gan/cli.py:38-56,78-155,183-195 (train_from_folder(...,
# batch_size=10, gradient_accumulate_every=4, ..., amp=False); model_args = dict(batch_size=batch_size, ...);
# run_training(0, 1, model_args, ...) -> Trainer(**model_args, ...); fire.Fire(train_from_folder)) and
# lightweight_gan/lightweight_gan.py:1046,1086,1190,1227,1239 (self.batch_size, self.amp, DataLoader(batch_size=...),
# amp_context = partial(autocast, 'cuda') if self.amp else null_context, the accumulation loop).
GAN = {
    "gan/__init__.py": "from gan.trainer import Trainer\n",
    "gan/trainer.py": """\
        from contextlib import contextmanager
        from functools import partial

        import torch
        from torch.amp import autocast, GradScaler
        from torch.utils.data import DataLoader


        @contextmanager
        def null_context():
            yield


        class Trainer:
            def __init__(self, name='default', batch_size=4, gradient_accumulate_every=1, lr=2e-4, amp=False,
                         image_size=128, rank=0, world_size=1, is_ddp=False, **kwargs):
                self.batch_size = batch_size
                self.gradient_accumulate_every = gradient_accumulate_every
                self.amp = amp
                self.image_size = image_size
                self.G = torch.nn.Linear(image_size, image_size)
                self.opt = torch.optim.Adam(self.G.parameters(), lr=lr, betas=(0.5, 0.9))
                self.scaler = GradScaler(enabled=self.amp)
                self.loader = None

            def set_data_src(self, data):
                self.loader = DataLoader(list(range(64)), batch_size=self.batch_size, shuffle=True, pin_memory=True)

            def train(self):
                amp_context = partial(autocast, 'cuda') if self.amp else null_context
                self.opt.zero_grad()
                for i in range(self.gradient_accumulate_every):
                    batch = next(iter(self.loader))
                    with amp_context():
                        loss = self.G(batch.float()).mean()
                    self.scaler.scale(loss / self.gradient_accumulate_every).backward()
                self.scaler.step(self.opt)
                self.scaler.update()
    """,
    "gan/cli.py": """\
        import fire
        from gan import Trainer


        def run_training(rank, world_size, model_args, data, num_train_steps):
            model_args.update(is_ddp=world_size > 1, rank=rank, world_size=world_size)
            model = Trainer(**model_args)
            model.set_data_src(data)
            for _ in range(num_train_steps):
                model.train()


        def train_from_folder(data='./data', name='default', image_size=256, batch_size=10,
                              gradient_accumulate_every=4, num_train_steps=1000, learning_rate=2e-4, amp=False):
            model_args = dict(
                name=name,
                batch_size=batch_size,
                gradient_accumulate_every=gradient_accumulate_every,
                image_size=image_size,
                lr=learning_rate,
                amp=amp,
            )
            run_training(0, 1, model_args, data, num_train_steps)


        def main():
            fire.Fire(train_from_folder)


        if __name__ == "__main__":
            main()
    """,
}


def _plan(cli, tmp_path, files=GAN, *options):
    write(tmp_path, files)
    return plan_of(cli, "gan/cli.py", "--", "--data", "./images", "--batch-size", "16",
                   "--gradient-accumulate-every", "2", *options, cwd=tmp_path)


def test_fire_options_reach_the_class_through_the_dict(cli, tmp_path):
    plan = _plan(cli, tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro.value == 16 and micro.confidence != "high"
    assert fact(plan, "batch.grad_accum").value == 2
    precision = fact(plan, "precision.mode")
    assert precision.value == "fp32" and "null context" in precision.source.detail


def test_amp_on_the_launch_line_picks_autocast(cli, tmp_path):
    plan = _plan(cli, tmp_path, GAN, "--amp", "True")
    assert fact(plan, "precision.mode").value == "amp_fp16"


def test_a_parameter_the_entry_rebinds_stays_unknown(cli, tmp_path):
    files = dict(GAN)
    files["gan/cli.py"] = files["gan/cli.py"].replace(
        "    model_args = dict(", "    batch_size = batch_size * 2\n            model_args = dict(")
    plan = _plan(cli, tmp_path, files)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 16


def test_a_function_fire_does_not_run_is_not_read(cli, tmp_path):
    files = dict(GAN)
    files["gan/cli.py"] = files["gan/cli.py"].replace("fire.Fire(train_from_folder)", "fire.Fire(run_training)")
    plan = _plan(cli, tmp_path, files)
    micro = fact(plan, "batch.micro")
    assert micro is None or micro.value != 16


def test_an_autocast_on_another_device_says_nothing(cli, tmp_path):
    files = dict(GAN)
    files["gan/trainer.py"] = files["gan/trainer.py"].replace("partial(autocast, 'cuda')", "partial(autocast, 'cpu')")
    plan = _plan(cli, tmp_path, files)
    precision = fact(plan, "precision.mode")
    assert precision is None or "null context" not in precision.source.detail


def test_a_bare_cuda_autocast_arm_is_read_too(cli, tmp_path):
    # lucidrains/stylegan2-pytorch stylegan2_pytorch.py: ``from torch.cuda.amp import autocast, GradScaler``,
    # ``amp_context = autocast if self.amp else null_context``
    files = dict(GAN)
    files["gan/trainer.py"] = files["gan/trainer.py"].replace(
        "from torch.amp import autocast, GradScaler", "from torch.cuda.amp import autocast, GradScaler").replace(
        "partial(autocast, 'cuda') if self.amp", "autocast if self.amp")
    plan = _plan(cli, tmp_path, files)
    precision = fact(plan, "precision.mode")
    assert precision.value == "fp32" and "null context" in precision.source.detail
    assert fact(_plan(cli, tmp_path, files, "--amp", "True"), "precision.mode").value == "amp_fp16"


def test_a_bare_torch_amp_autocast_arm_needs_its_device(cli, tmp_path):
    files = dict(GAN)
    files["gan/trainer.py"] = files["gan/trainer.py"].replace("partial(autocast, 'cuda') if self.amp", "autocast if self.amp")
    plan = _plan(cli, tmp_path, files)
    precision = fact(plan, "precision.mode")
    assert precision is None or "null context" not in precision.source.detail
