"""An option declared ``type=int`` gives an int whatever the way it is written on the line (issue 15,
set 25: Megvii-BaseDetection/YOLOX @ 6ddff48 ``tools/train.py:34-36`` ``"-d", "--devices",
default=None, type=int``, launched with ``-d 8``; ``:131-140`` ``launch(main, num_gpu, ...)``).
Before, only an int default made the word a number, so ``-d 8`` stayed the string '8' and the
spawned count was not read; and ``args = make_parser().parse_args()`` (a parser a local
function builds) was not known as the parsed options. Twin: the same option without ``type=int`` is argparse's string."""

from __future__ import annotations

import pytest
from plan_helpers import fact, plan_of, write

LAUNCH = """\
    import torch.multiprocessing as mp


    def launch(main_func, num_gpus_per_machine, num_machines=1, machine_rank=0, dist_url=None, args=()):
        world_size = num_machines * num_gpus_per_machine
        if world_size > 1:
            mp.spawn(_worker, nprocs=num_gpus_per_machine, args=(main_func, world_size, args), daemon=False)
        else:
            main_func(*args)


    def _worker(local_rank, main_func, world_size, args):
        main_func(*args)
"""

TRAIN = """\
    import argparse
    from pkg.launch import launch


    def make_parser():
        parser = argparse.ArgumentParser()
        parser.add_argument("-b", "--batch-size", type=int, default=64)
        parser.add_argument("-d", "--devices", default=None{typed}, help="device for training")
        parser.add_argument("--num_machines", default=1, type=int)
        return parser


    def get_num_devices():
        return 1


    def main(args):
        pass


    if __name__ == "__main__":
        args = make_parser().parse_args()
        num_gpu = get_num_devices() if args.devices is None else args.devices
        launch(main, num_gpu, args.num_machines, args=(args,))
"""


# the parser in a local module (the open_clip shape): read by the shared option reader (adapters/cliargs*)
PARAMS = """\
    import argparse


    def parse_args():
        parser = argparse.ArgumentParser()
        parser.add_argument("-d", "--devices", default=None{typed}, help="device for training")
        return parser.parse_args()
"""

TRAIN_PARAMS = """\
    from pkg.launch import launch
    from pkg.params import parse_args


    def main(args):
        pass


    if __name__ == "__main__":
        args = parse_args()
        launch(main, args.devices, args=(args,))
"""


def _plan(cli, tmp_path, typed: str, *line: str) -> dict:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/launch.py": LAUNCH,
                     "tools/train.py": TRAIN.replace("{typed}", typed)})
    return plan_of(cli, "--", "python", "tools/train.py", *line, cwd=tmp_path)


@pytest.mark.parametrize("line", [("-d", "8"), ("--devices", "8"), ("--devices=8",)])
def test_a_short_option_declared_int_gives_the_number(cli, tmp_path, line):
    plan = _plan(cli, tmp_path, ", type=int", "-b", "64", *line)
    assert fact(plan, "dist.world_size").value == 8
    assert fact(plan, "dist.devices_per_node").value == 8


@pytest.mark.parametrize("typed, expected", [(", type=int", 8), ("", None)])
def test_the_shared_option_reader_types_a_declared_int(cli, tmp_path, typed, expected):
    write(tmp_path, {"pkg/__init__.py": "", "pkg/launch.py": LAUNCH, "pkg/params.py": PARAMS.replace("{typed}", typed),
                     "tools/train.py": TRAIN_PARAMS})
    plan = plan_of(cli, "--", "python", "tools/train.py", "-d", "8", cwd=tmp_path)
    best = fact(plan, "dist.world_size")
    assert (best.value if best is not None else None) == expected


def test_twin_the_same_option_without_a_type_is_a_string(cli, tmp_path):
    plan = _plan(cli, tmp_path, "", "-b", "64", "-d", "8")
    best = fact(plan, "dist.world_size")
    assert best is None or best.value != 8


@pytest.mark.parametrize("exp, expected", [("exps/yolox_s.py", 8), (None, 8)])
def test_a_py_file_given_to_an_option_of_a_module_run_is_no_script(cli, tmp_path, exp, expected):
    """``python -m tools.train -f exps/yolox_s.py -d 8`` (the YOLOX README line): the ``.py`` word is
    the value of ``-f``, the module's own option, so ``-d 8`` still reaches ``tools/train.py``."""
    train = TRAIN.replace("{typed}", ", type=int").replace(
        'parser.add_argument("-b"', 'parser.add_argument("-f", "--exp_file", default=None, type=str)\n'
        '        parser.add_argument("-b"')
    write(tmp_path, {"pkg/__init__.py": "", "pkg/launch.py": LAUNCH, "tools/__init__.py": "", "tools/train.py": train,
                     "exps/yolox_s.py": "depth = 0.33\n"})
    line = ["-f", exp] if exp else []
    plan = plan_of(cli, "--", "python", "-m", "tools.train", *line, "-d", "8", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == expected


def test_twin_a_launch_line_of_another_script_gives_it_no_options(cli, tmp_path):
    """``python other.py -d 8``: the line runs another file; tools/train.py takes none of its words."""
    write(tmp_path, {"pkg/__init__.py": "", "pkg/launch.py": LAUNCH, "tools/__init__.py": "",
                     "tools/train.py": TRAIN.replace("{typed}", ", type=int"), "other.py": "print(1)\n"})
    plan = plan_of(cli, "--", "python", "other.py", "-d", "8", cwd=tmp_path)
    best = fact(plan, "dist.world_size")
    assert best is None or best.value != 8
