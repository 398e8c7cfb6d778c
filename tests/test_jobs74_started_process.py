"""A config file opened inside a function the entry starts as a new process
(adapters/config_object_started.py, read by adapters/config_object_roots.py): the option the entry
hands the process is the path the function opens. Fixtures of our own copying real shapes, each
citing repository, path and commit; each with a twin that must stay unknown."""

from __future__ import annotations

import textwrap

from plan_helpers import plan_of, write

from tests.test_config_object import ours

# facebookresearch/ijepa @ 52c1ae95d05f: main.py:18-62 (mp.Process(target=process_main,
# args=(rank, args.fname, num_gpus, args.devices)); process_main opens fname, yaml.load, then
# app_main(args=params)), src/train.py:67-80,316 (use_bfloat16 = args['meta']['use_bfloat16'];
# torch.cuda.amp.autocast(dtype=torch.bfloat16, enabled=use_bfloat16) inside the loop's nested
# def train_step(), src/train.py:289-316),
# configs/in1k_vith14_ep300.yaml:36-42 (meta: use_bfloat16: true).
IJEPA = {
    "main.py": """\
        import argparse
        import multiprocessing as mp
        import yaml
        from src.train import main as app_main

        parser = argparse.ArgumentParser()
        parser.add_argument('--fname', type=str, default='configs.yaml')
        parser.add_argument('--devices', type=str, nargs='+', default=['cuda:0'])


        def process_main(rank, fname, world_size, devices):
            params = None
            with open(fname, 'r') as y_file:
                params = yaml.load(y_file, Loader=yaml.FullLoader)
            app_main(args=params)


        if __name__ == '__main__':
            args = parser.parse_args()
            num_gpus = len(args.devices)
            mp.set_start_method('spawn')
            for rank in range(num_gpus):
                mp.Process(
                    target=process_main,
                    args=(rank, args.fname, num_gpus, args.devices)
                ).start()
    """,
    "src/__init__.py": "",
    "src/train.py": """\
        import torch


        def main(args, resume_preempt=False):
            use_bfloat16 = args['meta']['use_bfloat16']
            batch_size = args['data']['batch_size']
            model = torch.nn.Linear(4, 4)
            optimizer = torch.optim.AdamW(model.parameters())
            loader = torch.utils.data.DataLoader([], batch_size=batch_size)
            for x in loader:

                def train_step():
                    with torch.cuda.amp.autocast(dtype=torch.bfloat16, enabled=use_bfloat16):
                        loss = model(x).sum()
                    loss.backward()
                    optimizer.step()
                    optimizer.zero_grad()
                    return float(loss)
                train_step()
    """,
    "configs/in1k_vith14_ep300.yaml": """\
        data:
          batch_size: 128
        meta:
          use_bfloat16: true
    """,
    "configs/fp32.yaml": """\
        data:
          batch_size: 64
        meta:
          use_bfloat16: false
    """,
}


def test_ijepa_config_opened_in_a_started_process(cli, tmp_path):
    write(tmp_path, IJEPA)
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/in1k_vith14_ep300.yaml", "--devices", "cuda:0",
                   "cuda:1", cwd=tmp_path)
    mode = ours(plan, "precision.mode")
    assert mode is not None and mode.value == "amp_bf16"
    assert (mode.source.path, mode.source.line) == ("configs/in1k_vith14_ep300.yaml", 4)
    assert mode.confidence != "high"


def test_ijepa_flag_false_is_fp32(cli, tmp_path):
    write(tmp_path, IJEPA)
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/fp32.yaml", cwd=tmp_path)
    mode = ours(plan, "precision.mode")
    assert mode is not None and mode.value == "fp32"
    assert (mode.source.path, mode.source.line) == ("configs/fp32.yaml", 4)


def test_process_args_not_a_literal_tuple_stay_unknown(cli, tmp_path):
    files = dict(IJEPA)
    files["main.py"] = textwrap.dedent(files["main.py"]).replace(
        "args=(rank, args.fname, num_gpus, args.devices)", "args=started[rank]").replace(
        "    for rank in range(num_gpus):",
        "    started = [(r, args.fname, num_gpus, args.devices) for r in range(num_gpus)]\n"
        "    for rank in range(num_gpus):")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/in1k_vith14_ep300.yaml", cwd=tmp_path)
    assert ours(plan, "precision.mode") is None


def test_nested_function_binding_the_name_itself_stays_unknown(cli, tmp_path):
    # the nested step takes the switch as its own parameter: the enclosing value is not the one used
    files = dict(IJEPA)
    files["src/train.py"] = files["src/train.py"].replace(
        "def train_step():", "def train_step(use_bfloat16=False):")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/in1k_vith14_ep300.yaml", cwd=tmp_path)
    assert ours(plan, "precision.mode") is None


# torch.multiprocessing.spawn(fn, args=(...)) calls fn(i, *args): the process index comes first
# (the shape of facebookresearch/ijepa main.py with spawn in place of Process; pytorch/examples
# imagenet/main.py:96 ``mp.spawn(main_worker, nprocs=ngpus_per_node, args=(ngpus_per_node, args))``).
def _spawned(signature: str) -> dict[str, str]:
    files = dict(IJEPA)
    main = textwrap.dedent(files["main.py"])
    start = main.index("    for rank in range(num_gpus):")
    files["main.py"] = (main[:start] + "    torch.multiprocessing.spawn(process_main, nprocs=num_gpus,\n"
                        "                                args=(args.fname, num_gpus, args.devices))\n").replace(
        "def process_main(rank, fname, world_size, devices):", f"def process_main({signature}):").replace(
        "import yaml\n", "import torch\nimport yaml\n", 1)
    return files


def test_spawn_passes_the_process_index_first(cli, tmp_path):
    write(tmp_path, _spawned("rank, fname, world_size, devices"))
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/in1k_vith14_ep300.yaml", cwd=tmp_path)
    mode = ours(plan, "precision.mode")
    assert mode is not None and mode.value == "amp_bf16" and mode.source.path == "configs/in1k_vith14_ep300.yaml"


def test_spawn_index_lands_on_the_path_parameter_stays_unknown(cli, tmp_path):
    # ``def process_main(fname, rank, ...)``: spawn hands the index to ``fname``, the path goes to ``rank``
    write(tmp_path, _spawned("fname, rank, world_size, devices"))
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/in1k_vith14_ep300.yaml", cwd=tmp_path)
    assert ours(plan, "precision.mode") is None


# facebookresearch/vjepa2 @ 0f5e4e3: app/main.py:76-84 (one device: ``process_main(rank=0,
# fname=args.fname, world_size=1, devices=["cuda:0"])``, keywords only; else one mp.Process each)
def test_entry_call_by_keywords_only(cli, tmp_path):
    files = dict(IJEPA)
    main = textwrap.dedent(files["main.py"])
    start = main.index("    mp.set_start_method('spawn')")
    files["main.py"] = main[:start] + (
        "    if num_gpus == 1:\n"
        "        process_main(rank=0, fname=args.fname, world_size=1, devices=['cuda:0'])\n")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/in1k_vith14_ep300.yaml", cwd=tmp_path)
    mode = ours(plan, "precision.mode")
    assert mode is not None and mode.value == "amp_bf16"


def test_nested_autocast_under_an_undecided_if_stays_unknown(cli, tmp_path):
    # the autocast under an ``if`` the config's values do not decide (an environment switch) inside train_step
    files = dict(IJEPA)
    train = textwrap.dedent(files["src/train.py"])
    files["src/train.py"] = train.replace(
        "            with torch.cuda.amp.autocast(dtype=torch.bfloat16, enabled=use_bfloat16):\n"
        "                loss = model(x).sum()\n",
        "            if os.environ.get('USE_AMP'):\n"
        "                with torch.cuda.amp.autocast(dtype=torch.bfloat16, enabled=use_bfloat16):\n"
        "                    loss = model(x).sum()\n"
        "            else:\n"
        "                loss = model(x).sum()\n")
    assert files["src/train.py"] != train
    files["src/train.py"] = "import os\n" + files["src/train.py"]
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/in1k_vith14_ep300.yaml", cwd=tmp_path)
    assert ours(plan, "precision.mode") is None


# facebookresearch/vjepa2-style forks (find_string "mp.Process(target=process_main"): the process bound to a
# name and started later, the parsed options handed first: ``process = mp.Process(target=process_main,
# args=(args, rank, args.fname, num_gpus, args.devices)); process.start()``
def test_process_bound_to_a_name_with_the_options_first(cli, tmp_path):
    files = dict(IJEPA)
    main = textwrap.dedent(files["main.py"])
    start = main.index("    for rank in range(num_gpus):")
    files["main.py"] = (main[:start] + (
        "    for rank in range(num_gpus):\n"
        "        process = mp.Process(target=process_main, args=(args, rank, args.fname, num_gpus, args.devices))\n"
        "        process.start()\n")).replace(
        "def process_main(rank, fname, world_size, devices):", "def process_main(args, rank, fname, world_size, devices):")
    write(tmp_path, files)
    plan = plan_of(cli, "main.py", "--", "--fname", "configs/in1k_vith14_ep300.yaml", cwd=tmp_path)
    mode = ours(plan, "precision.mode")
    assert mode is not None and mode.value == "amp_bf16"
    assert (mode.source.path, mode.source.line) == ("configs/in1k_vith14_ep300.yaml", 4)
