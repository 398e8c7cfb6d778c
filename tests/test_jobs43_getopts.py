"""A launch script's ``while getopts`` loop evaluated over the script's arguments (issue 15,
set 25: Pointcept ``scripts/train.sh`` @ d74c646:19-47, ``sh scripts/train.sh -g 4 -d scannet
-c semseg-pt-v3m1-0-base``). Twins: an option not given keeps the script's default; an unknown
option sets nothing; a loop over another variable is not read as getopts."""

from __future__ import annotations

import textwrap

from plan_helpers import fact, plan_of, write
from preflight.adapters.shell import read_shell

SCRIPT = textwrap.dedent("""\
    #!/bin/sh
    PYTHON=python
    DATASET=scannet
    CONFIG="None"
    NUM_GPU=None
    AMP=0
    while getopts "p:d:c:g:a" opt; do
      case $opt in
        p)
          PYTHON=$OPTARG
          ;;
        d) DATASET=$OPTARG ;;
        c)
          CONFIG=$OPTARG
          ;;
        g)
          NUM_GPU=$OPTARG
          ;;
        a) AMP=1 ;;
        \\?)
          echo "Invalid option: -$OPTARG"
          ;;
      esac
    done
    shift $((OPTIND-1))
    torchrun --nproc_per_node "$NUM_GPU" train.py --config configs/${DATASET}/${CONFIG}.py --amp $AMP "$@"
    """)


def _tokens(args: list[str]) -> list[str]:
    script = read_shell(SCRIPT, "scripts/train.sh", args=args)
    assert len(script.launches) == 1
    return script.launches[0].tokens


def test_getopts_options_set_the_launch_line():
    tokens = _tokens(["-g", "4", "-d", "s3dis", "-c", "ptv3", "-a", "extra"])
    assert tokens[:3] == ["torchrun", "--nproc_per_node", "4"]
    assert "configs/s3dis/ptv3.py" in tokens
    assert tokens[tokens.index("--amp") + 1] == "1"
    assert tokens[-1] == "extra"  # shift $((OPTIND-1)) leaves the operands for "$@"


def test_getopts_attached_values_and_grouped_letters():
    tokens = _tokens(["-ag8", "-dscannet"])
    assert tokens[2] == "8" and "configs/scannet/None.py" in tokens
    assert tokens[tokens.index("--amp") + 1] == "1"


def test_twin_options_not_given_keep_the_defaults():
    tokens = _tokens([])
    assert tokens[2] == "None" and "configs/scannet/None.py" in tokens
    assert tokens[tokens.index("--amp") + 1] == "0"


def test_twin_an_unknown_option_sets_nothing():
    tokens = _tokens(["-x", "-g", "2"])
    assert tokens[2] == "2" and tokens[tokens.index("--amp") + 1] == "0"


def test_twin_a_while_loop_over_something_else_is_not_getopts():
    text = textwrap.dedent("""\
        NUM_GPU=2
        while read line; do
          case $line in
            g) NUM_GPU=8 ;;
          esac
        done < list.txt
        torchrun --nproc_per_node $NUM_GPU train.py
        """)
    script = read_shell(text, "run.sh", args=["-g", "4"])
    assert script.launches[0].tokens[2] == "2"


def test_getopts_script_gives_the_world_size(cli, tmp_path):
    write(tmp_path, {"train.py": """\
        import torch
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for x in torch.utils.data.DataLoader(list(range(8)), batch_size=2):
            model(x).sum().backward()
            opt.step()
            opt.zero_grad()
        """, "train.sh": SCRIPT})
    plan = plan_of(cli, "train.sh", "--", "-g", "4", cwd=tmp_path)
    assert fact(plan, "dist.world_size").value == 4
    assert any("getopts" in n and "NUM_GPU=4" in n for n in plan["notes"])
