"""Processes a plain `python` script starts itself, one `multiprocessing.Process` per iteration of
`range(E)` (issue 15): a small rewrite of our own with the shape of facebookresearch/ijepa @ 52c1ae9
main.py:58-65 (`num_gpus = len(args.devices)` of `--devices cuda:0 cuda:1 cuda:2`, nargs='+')."""

from __future__ import annotations

from plan_helpers import plan_of, winner, write

MAIN = """\
    import argparse
    import multiprocessing as mp

    parser = argparse.ArgumentParser()
    parser.add_argument('--fname', type=str, default='configs.yaml')
    parser.add_argument('--devices', type=str, nargs='+', default=['cuda:0'])

    def process_main(rank, fname, world_size, devices):
        pass

    if __name__ == '__main__':
        args = parser.parse_args()
        num_gpus = len(args.devices)
        mp.set_start_method('spawn')
        for rank in range(num_gpus):
            mp.Process(target=process_main, args=(rank, args.fname, num_gpus, args.devices)).start()
    """


def test_one_process_per_listed_device(cli, tmp_path):
    write(tmp_path, {"main.py": MAIN})
    plan = plan_of(cli, "main.py", "--", "--devices", "cuda:0", "cuda:1", "cuda:2", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 3
    assert winner(plan, "dist.devices_per_node") == 3
    assert winner(plan, "dist.nodes") == 1


def test_a_fixed_range_and_no_flag_on_the_line(cli, tmp_path):
    write(tmp_path, {"main.py": MAIN.replace("range(num_gpus)", "range(4)")})
    plan = plan_of(cli, "main.py", "--", "--fname", "x.yaml", cwd=tmp_path)
    assert winner(plan, "dist.world_size") == 4
    # the list option not given: its count is not read from the line (nor guessed as one process)
    write(tmp_path, {"main.py": MAIN})
    plan = plan_of(cli, "main.py", "--", "--fname", "x.yaml", cwd=tmp_path)
    assert winner(plan, "dist.world_size") is None


def test_data_worker_processes_are_not_training_processes(cli, tmp_path):
    # a Process loop guarded by a test the line decides false does not start training processes
    guarded = MAIN.replace("        for rank in range(num_gpus):", "        if args.fname == 'never':\n"
                           "          for rank in range(num_gpus):")
    write(tmp_path, {"main.py": guarded})
    plan = plan_of(cli, "main.py", "--", "--devices", "cuda:0", "cuda:1", cwd=tmp_path)
    assert winner(plan, "dist.world_size") != 2
