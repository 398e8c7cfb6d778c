"""detectron2's ``launch(main, args.num_gpus, ...)`` with ``args`` from the installed library's own
``default_argument_parser()`` (adapters/spawned_processes.py): the parser is not in the project, its
``--num-gpus``/``--num-machines`` (``type=int, default=1``, detectron2 ``engine/defaults.py``) are read from the
launch line. A fixture of our own in the shape of facebookresearch/MaskFormer @ da3e60d ``train_net.py:262-271``:
must-read cases and silent twins."""

from __future__ import annotations

import pytest
from plan_helpers import plan_of, winner, write

ENTRY = """\
    from {pkg}.engine import default_argument_parser, launch


    def main(args):
        pass


    if __name__ == "__main__":
        args = default_argument_parser().parse_args()
        launch(
            main,
            args.num_gpus,
            num_machines=args.num_machines,
            args=(args,),
        )
"""


@pytest.mark.parametrize("pkg,flags,world,nodes", [
    ("detectron2", ["--num-gpus", "8"], 8, 1),
    ("detectron2", ["--num-gpus", "4", "--num-machines", "2"], 8, 2),
    ("detectron2", ["--resume"], 1, 1),  # the library's defaults: one worker on one machine
    ("mylauncher", ["--num-gpus", "8"], 1, 1),  # someone else's parser and launch(): not read as 8 workers
])
def test_library_parser_counts_from_the_line(cli, tmp_path, pkg, flags, world, nodes):
    write(tmp_path, {"train_net.py": ENTRY.format(pkg=pkg)})
    plan = plan_of(cli, "train_net.py", "--", *flags, cwd=tmp_path)
    assert winner(plan, "dist.world_size") == world
    assert winner(plan, "dist.nodes") == nodes


def test_twin_args_rebound_are_not_the_library_parser(cli, tmp_path):
    text = ENTRY.format(pkg="detectron2").replace(
        "        launch(", "        args = load_args(args)\n        launch(")
    write(tmp_path, {"train_net.py": text})
    plan = plan_of(cli, "train_net.py", "--", "--num-gpus", "8", cwd=tmp_path)
    assert winner(plan, "dist.world_size") is None
