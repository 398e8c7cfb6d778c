"""An ml_collections config file given to absl's ``config_flags.DEFINE_config_file`` (adapters/config_object_mlc.py):
``FLAGS.config`` carries the file's ``get_config()`` keys into the project's functions. A fixture of our own
copying the real shape (repository, path and commit cited), with silent twins."""

from __future__ import annotations

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# yang-song/score_sde_pytorch @ cb1f359f4aad (the shape, cut down): main.py:26-42 (``FLAGS = flags.FLAGS``;
# ``config_flags.DEFINE_config_file("config", None, ...)``; ``run_lib.train(FLAGS.config, FLAGS.workdir)``),
# configs/default_cifar10_configs.py:5-70 (``config.training = training = ml_collections.ConfigDict()``;
# ``config.training.batch_size = 128``; ``data.image_size = 32``; ``optim.optimizer = 'Adam'``;
# ``config.device = torch.device(...)``), configs/vp/cifar10_ddpmpp_continuous.py:19-60 (``from
# configs.default_cifar10_configs import get_default_configs``; ``training = config.training``), losses.py:26-35
# (``if config.optim.optimizer == 'Adam': optimizer = optim.Adam(...)``), datasets.py:101 (``config.data.image_size``).
SDE = {
    "main.py": """\
        import run_lib
        from absl import app
        from absl import flags
        from ml_collections.config_flags import config_flags

        FLAGS = flags.FLAGS

        config_flags.DEFINE_config_file("config", None, "Training configuration.", lock_config=True)
        flags.DEFINE_string("workdir", None, "Work directory.")


        def main(argv):
            run_lib.train(FLAGS.config, FLAGS.workdir)


        if __name__ == "__main__":
            app.run(main)
    """,
    "run_lib.py": """\
        import torch
        import losses


        def resize(img, size):
            return img


        def train(config, workdir):
            model = torch.nn.Linear(4, 4)
            optimizer = losses.get_optimizer(config, model.parameters())
            for step in range(config.training.n_iters):
                img = resize(torch.zeros(config.training.batch_size, 3, 8, 8),
                             [config.data.image_size, config.data.image_size])
                loss = model(img).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    """,
    "losses.py": """\
        from torch import optim


        def get_optimizer(config, params):
            if config.optim.optimizer == 'Adam':
                optimizer = optim.Adam(params, lr=config.optim.lr)
            else:
                raise NotImplementedError(config.optim.optimizer)
            return optimizer
    """,
    "configs/__init__.py": "",
    "configs/default_cifar10_configs.py": """\
        import ml_collections
        import torch


        def get_default_configs():
            config = ml_collections.ConfigDict()
            # training
            config.training = training = ml_collections.ConfigDict()
            config.training.batch_size = 128
            training.n_iters = 1300001
            # data
            config.data = data = ml_collections.ConfigDict()
            data.dataset = 'CIFAR10'
            data.image_size = 32
            # optimization
            config.optim = optim = ml_collections.ConfigDict()
            optim.optimizer = 'Adam'
            optim.lr = 2e-4
            config.device = torch.device('cuda:0') if torch.cuda.is_available() else torch.device('cpu')
            return config
    """,
    "configs/vp/cifar10.py": """\
        \"\"\"Training on CIFAR-10.\"\"\"

        from configs.default_cifar10_configs import get_default_configs


        def get_config():
          config = get_default_configs()
          training = config.training
          training.sde = 'vpsde'
          data = config.data
          data.centered = True
          return config
    """,
}
LINE = ["--", "--config", "configs/vp/cifar10.py", "--workdir", "exp", "--mode", "train"]


def test_score_sde_config_file_reaches_project_functions(cli, tmp_path):
    write(tmp_path, SDE)
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    opt = ours(plan, "optimizer.name")
    assert opt is not None and opt.value == "Adam"
    assert (opt.source.path, opt.source.line) == ("configs/default_cifar10_configs.py", 17)
    size = ours(plan, "data.image_size")
    assert size.value == 32 and (size.source.path, size.source.line) == ("configs/default_cifar10_configs.py", 14)


def test_config_flag_override_on_the_line_wins(cli, tmp_path):
    write(tmp_path, SDE)
    plan = plan_of(cli, "main.py", *LINE, "--config.data.image_size=64", cwd=tmp_path)
    size = ours(plan, "data.image_size")
    assert size.value == 64 and size.source.kind == "cli" and size.source.key == "--config.data.image_size=64"


def test_config_key_computed_at_run_time_stays_unknown(cli, tmp_path):
    """Twin: ``data.image_size = 16 * 2`` is no literal: the key is unknown (the others are read)."""
    files = dict(SDE)
    files["configs/default_cifar10_configs.py"] = files["configs/default_cifar10_configs.py"].replace(
        "data.image_size = 32", "data.image_size = int('32')")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    assert ours(plan, "data.image_size") is None
    assert ours(plan, "optimizer.name").value == "Adam"


def test_config_builder_with_a_loop_is_not_read(cli, tmp_path):
    """Twin: a builder that loops is not followed: nothing is claimed from the file."""
    files = dict(SDE)
    files["configs/vp/cifar10.py"] = files["configs/vp/cifar10.py"].replace(
        "  data.centered = True\n", "  data.centered = True\n          for k in ('a', 'b'):\n            data[k] = 1\n")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", *LINE, cwd=tmp_path)
    assert ours(plan, "data.image_size") is None
    assert ours(plan, "optimizer.name") is None


def test_config_file_with_an_argument_is_not_read(cli, tmp_path):
    """Twin: ``--config configs/vp/cifar10.py:large`` calls ``get_config('large')``: not read."""
    write(tmp_path, SDE)
    line = [t if t != "configs/vp/cifar10.py" else "configs/vp/cifar10.py:large" for t in LINE]
    plan = plan_of(cli, "main.py", *line, cwd=tmp_path)
    assert ours(plan, "data.image_size") is None
    assert ours(plan, "optimizer.name") is None


def test_config_flag_default_file_is_read_when_the_line_gives_none(cli, tmp_path):
    """``DEFINE_config_file("config", "configs/vp/cifar10.py", ...)`` (a default file, seen in public code) and a
    line without ``--config``: the default file's keys."""
    files = dict(SDE)
    files["main.py"] = files["main.py"].replace('DEFINE_config_file("config", None,',
                                                'DEFINE_config_file("config", "configs/vp/cifar10.py",')
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--workdir", "exp", cwd=tmp_path)
    assert ours(plan, "optimizer.name").value == "Adam"


def test_config_flag_without_default_or_line_value_reads_nothing(cli, tmp_path):
    """Twin: no default and no ``--config`` on the line: nothing is claimed."""
    write(tmp_path, SDE)
    plan = plan_of(cli, "main.py", "--", "--workdir", "exp", cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None


def test_config_file_missing_gives_one_note(cli, tmp_path):
    """Twin: ``--config`` naming a file that is not there: nothing claimed, one note, no traceback."""
    write(tmp_path, SDE)
    plan = plan_of(cli, "main.py", "--", "--config", "configs/nope.py", "--workdir", "exp", cwd=tmp_path)
    assert ours(plan, "optimizer.name") is None
    assert [n for n in plan["notes"] if "configs/nope.py" in n] == [
        "value_flow: --config configs/nope.py: no readable Python config file there; its keys are not read"]
