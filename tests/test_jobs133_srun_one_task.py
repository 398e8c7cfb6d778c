"""jobs133 (in-sample for jobs set held-out-50): ``srun python`` in a batch script that asks for one task,
and ``#SBATCH`` directives in a heredoc piped to sbatch (adapters/srun_one_task.py). Fixtures of our own
rebuilding the real code's shape:

- anttitapsa/TCR_transformer @ 3228e9f ``code/run_train.sh``: ``#SBATCH --gres=gpu:a100:4`` then
  ``srun python3 -u train.py``; the script wraps its model in ``nn.DataParallel`` in its one process;
- Ninjani/hackathon ``sbatch_train.sh``: ``cat << EOF | sbatch`` holding ``#SBATCH --nodes=1``,
  ``--gres=gpu:1`` and ``srun python main.py fit -c $CONFIG_FILE`` (a bare LightningCLI, no devices).
"""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

LOOP = """\
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader


    def train(data, batch_size=64):
        loader = DataLoader(data, shuffle=False, batch_size=batch_size)
        model = nn.Linear(8, 8)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-6)
        if torch.cuda.device_count() > 1:
            model = nn.DataParallel(model)
        model = model.to("cuda")
        for batch in loader:
            loss = model(batch).sum()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()


    if __name__ == "__main__":
        train(list(range(1000)), batch_size=320)
"""


def _dp(cli, tmp_path, directives: str, line: str = "srun python3 -u train.py"):
    write(tmp_path, {"train.py": LOOP, "run_train.sh": f"#!/bin/bash\n{directives}\n\n{line}\n"})
    return plan_of(cli, "run_train.sh", cwd=tmp_path)


def test_srun_under_directives_without_a_task_count_is_one_process(cli, tmp_path):
    plan = _dp(cli, tmp_path, "#SBATCH --time=5-00:00:00\n#SBATCH --gres=gpu:a100:4\n#SBATCH --mem=50G")
    assert fact(plan, "dist.world_size").value == 1
    assert fact(plan, "dist.nodes").value == 1
    assert fact(plan, "dist.sharding").value == "none"
    assert fact(plan, "batch.global").value == 320
    assert fact(plan, "dist.world_size").confidence == "medium"
    # DataParallel spreads the one process over the four GPUs: not one device
    assert fact(plan, "dist.devices_per_node") is None


def test_one_node_directive_is_still_one_task(cli, tmp_path):
    plan = _dp(cli, tmp_path, "#SBATCH --nodes=1\n#SBATCH --gres=gpu:4")
    assert fact(plan, "dist.world_size").value == 1


def test_twin_a_task_count_directive_leaves_the_single_process_reading_out(cli, tmp_path):
    plan = _dp(cli, tmp_path, "#SBATCH --ntasks-per-node=4\n#SBATCH --gres=gpu:4")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value == 4  # srun runs the allocation's four tasks, never "1"


def test_twin_several_nodes_are_not_one_process(cli, tmp_path):
    plan = _dp(cli, tmp_path, "#SBATCH --nodes=2\n#SBATCH --gres=gpu:4")
    world = fact(plan, "dist.world_size")
    assert world is None or world.value != 1


def test_twin_srun_without_any_directive_is_not_known(cli, tmp_path):
    # an srun typed under salloc takes whatever that allocation holds
    plan = _dp(cli, tmp_path, "# run under salloc")
    assert fact(plan, "dist.world_size") is None


def test_twin_srun_with_its_own_task_count_is_the_launchers(cli, tmp_path):
    plan = _dp(cli, tmp_path, "#SBATCH --gres=gpu:4", line="srun -n 2 python3 -u train.py")
    assert fact(plan, "dist.world_size").value == 2


CLI_MAIN = """\
    from pytorch_lightning.cli import LightningCLI


    def cli_main():
        LightningCLI(save_config_kwargs={"overwrite": True})


    if __name__ == "__main__":
        cli_main()
"""

CONFIG = """\
    seed_everything: true
    model:
      class_path: pytorch_lightning.demos.boring_classes.BoringModel
    data:
      class_path: pytorch_lightning.demos.boring_classes.BoringDataModule
    trainer:
      max_epochs: 3
{extra}"""


def _heredoc(gres: str = "#SBATCH --gres=gpu:1", extra: str = "", pre: str = "", line: str = "srun python main.py fit -c $CONFIG_FILE"):
    return f"""\
# Run as ./sbatch_train.sh <job_name> <config_file>
JOB_NAME=$1
CONFIG_FILE=config.yaml
{pre}
cat << EOF | sbatch
#!/bin/bash
#SBATCH --job-name=hackathon_"$JOB_NAME"
#SBATCH --nodes=1
{gres}
#SBATCH --cpus-per-task=4

export PATH=$HOME/miniconda3/bin:$PATH
{line}
EOF
"""


def _lightning(cli, tmp_path, launch: str, extra: str = ""):
    write(tmp_path, {"main.py": CLI_MAIN, "config.yaml": CONFIG.format(extra=extra), "sbatch_train.sh": launch})
    return plan_of(cli, "sbatch_train.sh", cwd=tmp_path)


def test_heredoc_directives_give_lightning_auto_devices_one_gpu(cli, tmp_path):
    plan = _lightning(cli, tmp_path, _heredoc())
    assert fact(plan, "dist.devices_per_node").value == 1
    assert fact(plan, "dist.world_size").value == 1
    assert fact(plan, "dist.sharding").value == "none"
    assert fact(plan, "dist.devices_per_node").confidence == "medium"


def test_twin_heredoc_with_four_gpus_leaves_auto_devices_unknown(cli, tmp_path):
    plan = _lightning(cli, tmp_path, _heredoc(gres="#SBATCH --gres=gpu:4"))
    assert fact(plan, "dist.devices_per_node") is None
    assert fact(plan, "dist.world_size") is None


def test_twin_no_gpu_request_leaves_auto_devices_unknown(cli, tmp_path):
    plan = _lightning(cli, tmp_path, _heredoc(gres=""))
    assert fact(plan, "dist.devices_per_node") is None


def test_twin_visible_devices_set_in_the_script_is_not_the_gres_count(cli, tmp_path):
    plan = _lightning(cli, tmp_path, _heredoc(pre="export CUDA_VISIBLE_DEVICES=0,1"))
    per_node = fact(plan, "dist.devices_per_node")
    assert per_node is None or per_node.value != 1


def test_twin_cpu_accelerator_is_not_a_gpu(cli, tmp_path):
    plan = _lightning(cli, tmp_path, _heredoc(), extra="      accelerator: cpu\n")
    per_node = fact(plan, "dist.devices_per_node")
    assert per_node is None or "one GPU visible" not in (per_node.source.detail or "")


def test_heredoc_directives_are_the_slurm_environment():
    from preflight.adapters.shell import slurm_environment

    env = slurm_environment(_heredoc())
    assert env.get("SLURM_GPUS_ON_NODE") == "1"
    assert env.get("SLURM_NNODES") == "1"


def test_twin_two_heredocs_are_not_read():
    from preflight.adapters.srun_one_task import sbatch_heredoc

    text = _heredoc() + _heredoc(gres="#SBATCH --gres=gpu:8")
    assert sbatch_heredoc(text) is None
