"""`preflight gate`: reading SLURM batch scripts and Kubernetes manifests, the cluster
file, the verdict (JSON, exit codes) and the lua/sbatch integrations (no Slurm needed)."""

from __future__ import annotations

import io
import json
import os
import stat
import sys
import textwrap
from pathlib import Path

import pytest

from preflight.cli import main
from preflight.gate.cluster import ClusterError, cluster_from_data, load_cluster
from preflight.gate.k8s import job_from_object, parse_manifest
from preflight.gate.slurm import job_from_sbatch, parse_gres_gpu, parse_sbatch
from preflight.gate.verdict import GateRequest, gate

FIX = Path(__file__).resolve().parent / "fixtures" / "gate"
SLURM, K8S = FIX / "slurm", FIX / "k8s"


def script(text: str) -> str:
    return textwrap.dedent(text)


# --------------------------------------------------------------------------- sbatch


def test_precedence_command_line_over_environment_over_directives():
    sj = parse_sbatch(script("""\
        #!/bin/bash
        #SBATCH --partition=debug
        #SBATCH --gres=gpu:2
        #SBATCH -p small
        python train.py
        """), "job.sh", cli=["--gres=gpu:8"], env={"SBATCH_PARTITION": "a100"})
    assert sj.get("partition").value == "a100" and sj.get("partition").origin == "env"
    assert sj.get("gres").value == "gpu:8" and sj.get("gres").origin == "cli"
    no_env = parse_sbatch(sj.text, "job.sh")
    assert no_env.value("partition") == "small"  # the later directive wins
    assert no_env.get("partition").line == 4


def test_directives_end_at_the_first_command_not_at_blank_or_comment_lines():
    sj = parse_sbatch(script("""\
        #!/bin/bash

        # resources
        #SBATCH --nodes=2   # two nodes
          #SBATCH --nodes=9
        module load cuda
        #SBATCH --gres=gpu:4
        srun python train.py
        """), "job.sh")
    assert sj.value("nodes") == "2"  # trailing comment stripped, indented line is a comment
    assert sj.first_command == 6
    assert [(o.name, o.line) for o in sj.ignored] == [("gres", 7)]
    assert sj.gpus().per_node == 0


def test_short_options_attached_and_separate():
    sj = parse_sbatch("#!/bin/sh\n#SBATCH -N2 -n 16 -p gpu -C 'a100&ib' -G a100:16\nsrun python t.py\n", "j")
    assert (sj.value("nodes"), sj.value("ntasks"), sj.value("partition")) == ("2", "16", "gpu")
    assert sj.value("constraint") == "a100&ib"
    req = sj.gpus()
    assert (req.per_node, req.gpu_type) == (8, "a100")
    assert sj.tasks_per_node() == 8


@pytest.mark.parametrize("value,expected", [
    ("gpu:a100:2", (2, "a100")), ("gpu:2", (2, None)), ("gpu", (1, None)), ("nic:1,gpu:h100:8", (8, "h100")),
    ("gres:gpu:a100:3", (3, "a100")), ("nic:1", (None, None)),
])
def test_gres_values(value, expected):
    assert parse_gres_gpu(value) == expected


def test_gpus_per_task_times_tasks_and_node_ranges():
    sj = parse_sbatch("#!/bin/bash\n#SBATCH --nodes=2-4\n#SBATCH --ntasks-per-node=4\n"
                      "#SBATCH --gpus-per-task=1\nsrun python train.py\n", "j")
    job = job_from_sbatch(sj)
    assert job.nodes == 2 and any("range" in n for n in job.notes)
    assert job.gpus_per_node == 4
    assert job.launch.procs_per_node == 4  # srun inherits the job's tasks per node


def test_launch_lines_with_continuations_and_exit_guards():
    sj = parse_sbatch(script("""\
        #!/bin/bash
        #SBATCH --gres=gpu:8
        export OMP_NUM_THREADS=8
        echo start
        srun --ntasks-per-node=1 torchrun \\
            --nnodes=1 --nproc_per_node=8 \\
            train.py --deepspeed ds.json || exit 1
        """), "j")
    assert len(sj.launches) == 1
    launch = sj.launches[0]
    assert launch.line == 5 and launch.info.script == "train.py" and launch.info.config_files == ["ds.json"]
    assert job_from_sbatch(sj).launch.procs_per_node == 8


def test_a_script_without_shebang_is_rejected_as_sbatch_would(tmp_path):
    (tmp_path / "job.sh").write_text("#SBATCH --gres=gpu:1\npython train.py\n")
    (tmp_path / "train.py").write_text("print('hi')\n")
    result = gate(GateRequest(job_path=tmp_path / "job.sh", display="job.sh", root=tmp_path, allow_unknown=True))
    assert result.decision == "reject"
    assert any("first line is not '#!'" in r for r in result.reasons)


# --------------------------------------------------------------------------- Kubernetes


def test_pytorchjob_replicas_gpus_node_selector_and_command():
    job = parse_manifest((K8S / "pytorchjob_oom.yaml").read_text(), "pj.yaml")
    assert (job.kind, job.name, job.nodes, job.gpus_per_node) == ("PyTorchJob", "finetune-7b", 2, 1)
    assert job.node_labels == [("nvidia.com/gpu.product", ["NVIDIA-A100-SXM4-80GB"])]
    assert job.workdir == "/workspace"
    launch = job.launch
    assert launch.info.launcher == "torchrun" and launch.info.script == "finetune.py" and launch.line == 21
    assert launch.plan_argv == ["torchrun", "--nnodes=2", "--nproc_per_node=1", "finetune.py"]


def test_job_with_parallelism_affinity_and_sh_c():
    obj = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"},
           "spec": {"parallelism": 2, "template": {"spec": {
               "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                   "nodeSelectorTerms": [{"matchExpressions": [
                       {"key": "nvidia.com/gpu.product", "operator": "In",
                        "values": ["NVIDIA-H100-80GB-HBM3", "NVIDIA-A100-SXM4-80GB"]}]}]}}},
               "containers": [{"name": "main", "image": "x",
                               "command": ["bash", "-c", "pip list; accelerate launch --num_processes 4 train.py"],
                               "resources": {"limits": {"nvidia.com/gpu": "4"}}}]}}}}
    job = job_from_object(obj, "job.yaml")
    assert (job.nodes, job.gpus_per_node) == (2, 4)
    assert job.launch.info.launcher == "accelerate" and job.launch.procs_per_node == 4
    cluster = load_cluster(K8S / "cluster.yaml")
    choice = cluster.for_labels(job.node_labels)
    # a pod may land on either GPU: the one with less memory decides
    assert choice.name in ("a100-80gb", "h100-sxm")
    assert choice.gpu.memory_bytes == min(cluster.for_labels([("nvidia.com/gpu.product", [v])]).gpu.memory_bytes
                                          for v in ("NVIDIA-H100-80GB-HBM3", "NVIDIA-A100-SXM4-80GB"))


def test_manifest_without_a_workload_is_an_error():
    job = parse_manifest("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\nkind: Service\n", "m.yaml")
    assert job.errors and "no Pod, Job or PyTorchJob" in job.errors[0].message


def test_bad_yaml_is_an_error_with_a_line():
    job = parse_manifest("kind: Pod\nspec: [\n", "m.yaml")
    assert job.errors and "m.yaml:" in job.errors[0].message


# --------------------------------------------------------------------------- cluster file


def test_cluster_lookup_order_gres_type_then_constraint_then_partition():
    c = cluster_from_data({"partitions": {"gpu": "a100-80gb"}, "constraints": {"h100": "h100-sxm"},
                           "gres_types": {"a100": "a100-80gb"}})
    assert c.for_slurm("a100", "h100", "gpu").how.startswith("GPU type a100")
    assert c.for_slurm(None, "h100&ib", "gpu").name == "h100-sxm"
    assert c.for_slurm(None, None, "gpu").name == "a100-80gb"
    assert c.for_slurm(None, None, "other").name is None


@pytest.mark.parametrize("text,line,words", [
    ("partitions:\n  a: a100-80gb\nbogus: 1\n", 3, "unknown key 'bogus'"),
    ("partitions:\n  a: a100-80gb\n  b: not-a-gpu\n", 3, "not a GPU of the hardware catalog"),
    ("policy:\n  usable_memory: 1.5\n", 2, "fraction"),
    ("policy:\n  reject: [maybe]\n", 2, "policy.reject"),
])
def test_cluster_file_errors_name_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "cluster.yaml"
    path.write_text(text)
    with pytest.raises(ClusterError) as err:
        load_cluster(path, "cluster.yaml")
    assert err.value.error.line == line and words in err.value.error.message


def test_policy_percent_and_partition_override():
    c = cluster_from_data({"partitions": {"big": {"gpu": "a100-80gb", "usable_memory": "90%"}},
                           "policy": {"usable_memory": 0.95, "allow_unknown": True, "fail_on": "warning"}})
    assert c.policy.usable_memory == 0.95 and c.policy.allow_unknown and c.policy.fail_on == "warning"
    assert c.for_slurm(None, None, "big").usable_memory == 0.9


# --------------------------------------------------------------------------- verdict and CLI


def run_cli(argv, monkeypatch, capsys, cwd=SLURM):
    monkeypatch.chdir(cwd)
    for var in ("SBATCH_GRES", "SBATCH_PARTITION", "SBATCH_GPUS_PER_NODE", "PREFLIGHT_CLUSTER"):
        monkeypatch.delenv(var, raising=False)
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_rejects_projected_oom_with_json_verdict(monkeypatch, capsys):
    code, out, _ = run_cli(["gate", "job_oom.sh", "--cluster", "cluster.yaml", "--format", "json"],
                           monkeypatch, capsys)
    doc = json.loads(out)
    assert code == 1 and doc["decision"] == "reject" and doc["exit_code"] == 1
    assert doc["job"]["gpu"] == "a100-80gb" and doc["job"]["gpus_per_node"] == 1
    assert doc["fit"]["verdict"] == "oom" and doc["fit"]["peak_bytes"] > doc["fit"]["usable_bytes"]
    assert doc["fit"]["estimate"]["model"]["name"] == "Llama-2-7B"
    assert [f["code"] for f in doc["findings"]] == ["PF705"]
    assert doc["reasons"][0].startswith("PF705 job_oom.sh:10: Llama-2-7B: projected peak")
    assert doc["policy"]["usable_memory"] == 0.95


def test_cli_admits_a_job_that_fits(monkeypatch, capsys):
    code, out, _ = run_cli(["gate", "job_good.sh", "--cluster", "cluster.yaml"], monkeypatch, capsys)
    assert code == 0, out
    assert out.startswith("preflight gate: ADMIT job_good.sh\n")
    assert "fit: fits: GPT-2" in out


def test_sbatch_options_after_double_dash_override_directives(monkeypatch, capsys):
    code, out, _ = run_cli(["gate", "job_good.sh", "--cluster", "cluster.yaml", "--format", "json", "--",
                            "--gres=gpu:a100:4"], monkeypatch, capsys)
    doc = json.loads(out)
    assert doc["job"]["gpus_per_node"] == 4 and "sbatch command line" in doc["job"]["gpus_from"]
    assert code == 0 and any(w.startswith("PF701") for w in doc["warnings"])  # 3 idle GPUs: a warning


def test_sbatch_environment_is_read(monkeypatch, capsys):
    monkeypatch.chdir(SLURM)
    monkeypatch.setenv("SBATCH_PARTITION", "unlisted")
    monkeypatch.setenv("SBATCH_GRES", "gpu:2")
    code = main(["gate", "job_good.sh", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["job"]["gpus_per_node"] == 2 and "SBATCH_GRES" in doc["job"]["gpus_from"]
    assert code == 1 and doc["fit"]["verdict"] == "unknown"


def test_unknown_rejects_unless_allowed(monkeypatch, capsys):
    # an untyped GPU on a partition no cluster file describes
    code, out, _ = run_cli(["gate", "job_good.sh", "--", "--gres=gpu:1"], monkeypatch, capsys)
    assert code == 1 and "reject: PF704" in out and "GPU model: unknown" in out
    code, out, _ = run_cli(["gate", "job_good.sh", "--allow-unknown", "--", "--gres=gpu:1"], monkeypatch, capsys)
    assert code == 0 and "warning: PF704" in out


def test_errors_exit_2(monkeypatch, capsys, tmp_path):
    code, out, _ = run_cli(["gate", str(tmp_path / "missing.sh")], monkeypatch, capsys)
    assert code == 2 and "cannot read the job file" in out
    bad = tmp_path / "cluster.yaml"
    bad.write_text("partitions: [\n")
    code, _, err = run_cli(["gate", "job_good.sh", "--cluster", str(bad)], monkeypatch, capsys)
    assert code == 2 and "cluster.yaml:" in err


def test_job_from_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO((SLURM / "job_good.sh").read_text()))
    code, out, _ = run_cli(["gate", "-", "--cluster", "cluster.yaml"], monkeypatch, capsys)
    assert code == 0 and "ADMIT <stdin>" in out


def test_manifest_with_configs_given_alongside(monkeypatch, capsys, tmp_path):
    (tmp_path / "ds.json").write_text('{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, '
                                      '"gradient_accumulation_steps": 4}')
    manifest = (K8S / "pytorchjob_good.yaml").read_text().replace(
        '"finetune_small.py"]', '"finetune_small.py", "--deepspeed", "/etc/ds/ds.json"]')
    (tmp_path / "pj.yaml").write_text(manifest)
    code, out, _ = run_cli(["gate", str(tmp_path / "pj.yaml"), "--cluster", str(K8S / "cluster.yaml"),
                            "--script", str(K8S / "finetune_small.py"), "--config", str(tmp_path / "ds.json"),
                            "--format", "json"], monkeypatch, capsys)
    doc = json.loads(out)
    # 2 pods x 1 process: 64 != 4 x 4 x 2 -- the batch triple against the job's world size
    assert code == 1 and any(r.startswith("PF502") and "world size" in r for r in doc["reasons"]), doc["reasons"]


def test_deepspeed_launcher_uses_every_allocated_gpu(tmp_path):
    (tmp_path / "train.py").write_text((SLURM / "finetune_small.py").read_text())
    (tmp_path / "ds.json").write_text('{"train_batch_size": 16, "train_micro_batch_size_per_gpu": 4}')
    (tmp_path / "job.sh").write_text("#!/bin/bash\n#SBATCH --gres=gpu:a100:8\ndeepspeed train.py --deepspeed ds.json\n")
    result = gate(GateRequest(job_path=tmp_path / "job.sh", display="job.sh", root=tmp_path,
                              cluster=load_cluster(SLURM / "cluster.yaml")))
    assert result.job.launch.procs_per_node == 8
    assert any(r.startswith("PF502") for r in result.reasons), result.text()


# --------------------------------------------------------------------------- integrations


def test_write_lua_fills_in_the_installation(tmp_path, monkeypatch, capsys):
    code, out, _ = run_cli(["gate", "--write-lua", str(tmp_path), "--cluster", "cluster.yaml"], monkeypatch, capsys)
    assert code == 0 and out.count("wrote ") == 2
    for name in ("job_submit.lua", "cli_filter.lua"):
        text = (tmp_path / name).read_text()
        assert "@" not in "".join(line for line in text.splitlines() if line.startswith("local "))
        assert f'"{sys.executable} -I -m preflight"' in text  # isolated: nothing from the job dir
        assert str(SLURM / "cluster.yaml") in text
        assert "local FAIL_OPEN = false" in text


def _fake_sbatch(tmp_path: Path) -> Path:
    fake = tmp_path / "sbatch"
    fake.write_text(f"#!/bin/sh\necho \"$@\" > {tmp_path / 'submitted'}\necho 'Submitted batch job 7'\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return fake


def test_sbatch_wrapper_submits_only_admitted_jobs(tmp_path, monkeypatch, capsys):
    fake = _fake_sbatch(tmp_path)
    code, _, err = run_cli(["sbatch", "--cluster", "cluster.yaml", "--sbatch", str(fake), "--",
                              "job_oom.sh"], monkeypatch, capsys)
    assert code == 1 and "PF705" in err and "not submitted" in err
    assert not (tmp_path / "submitted").exists()
    code, _, _ = run_cli(["sbatch", "--cluster", "cluster.yaml", "--sbatch", str(fake), "--",
                          "--parsable", "job_good.sh", "arg1"], monkeypatch, capsys)
    assert code == 0
    assert (tmp_path / "submitted").read_text().split() == ["--parsable", "job_good.sh", "arg1"]


def test_sbatch_wrapper_needs_a_script(monkeypatch, capsys):
    code, _, err = run_cli(["sbatch", "--", "--wrap", "python train.py"], monkeypatch, capsys)
    assert code == 2 and "needs a batch script" in err


@pytest.mark.skipif(os.name != "posix", reason="POSIX shell")
def test_lua_plugins_are_valid_lua_where_luac_exists(tmp_path):
    import shutil
    import subprocess

    luac = shutil.which("luac5.1")  # Slurm's lua plugins link Lua 5.1 (Debian liblua5.1-0)
    if luac is None:
        pytest.skip("no luac5.1 on this machine (.ci/slurm-setup.sh install adds it)")
    from preflight.gate.lua_install import write_lua

    for path in write_lua(tmp_path):
        proc = subprocess.run([luac, "-p", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def test_plain_pod_with_node_selector(tmp_path):
    text = textwrap.dedent("""\
        apiVersion: v1
        kind: Pod
        metadata:
          name: eval-gpt2
        spec:
          nodeSelector:
            nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB
          containers:
            - name: main
              image: registry.example.com/eval:1
              command: ["python", "finetune_small.py"]
              resources:
                limits:
                  nvidia.com/gpu: 1
        """)
    (tmp_path / "pod.yaml").write_text(text)
    result = gate(GateRequest(job_path=tmp_path / "pod.yaml", display="pod.yaml", root=K8S,
                              cluster=load_cluster(K8S / "cluster.yaml")))
    assert result.job.kind == "Pod" and result.job.gpus_per_node == 1 and result.job.launch.line == 11
    assert result.job.gpu.name == "a100-80gb"
    assert result.decision == "admit", result.text()


def test_code_rules_of_the_launched_script_reach_the_verdict(tmp_path):
    from preflight.registry import all_rules

    # every rank reading the same data: PF201's own flagged example, launched on 4 GPUs
    (tmp_path / "train.py").write_text(textwrap.dedent(all_rules()["PF201"].bad_examples[0]))
    (tmp_path / "job.sh").write_text("#!/bin/bash\n#SBATCH --gres=gpu:a100:4\n"
                                     "torchrun --nproc_per_node=4 train.py\n")
    result = gate(GateRequest(job_path=tmp_path / "job.sh", display="job.sh", root=tmp_path, allow_unknown=True))
    assert result.decision == "reject"
    assert any(r.startswith("PF201 train.py:") for r in result.reasons), result.text()


_HELD_TRAIN = (SLURM / "finetune_small.py").read_text().replace(
    'parser.add_argument("--dry-run", action="store_true")',
    'parser.add_argument("--dry-run", action="store_true")\nparser.add_argument("--model", default="gpt2")').replace(
    'MODEL = "gpt2"', "MODEL = args.model")


@pytest.mark.parametrize("launch", [
    'CMD="python3 train.py --model meta-llama/Llama-2-7b-hf"\nsrun bash -c "$CMD"\n',
    'export LAUNCHER="python3"\nexport CMD="train.py --model meta-llama/Llama-2-7b-hf"\n'
    'clear; srun --jobid $SLURM_JOBID bash -c \'$LAUNCHER $CMD\'\n',
    'cmd="python3 train.py --model meta-llama/Llama-2-7b-hf"\necho $cmd\neval $cmd\n',
])
def test_a_launch_held_in_a_variable_is_audited_like_one_spelled_out(launch, monkeypatch, capsys, tmp_path):
    """The bigscience/Megatron-DeepSpeed SLURM recipes run `srun ... bash -c "$LAUNCHER
    $CMD"`: the gate used to see no launch line there. The held command, with its arguments,
    is the one judged: a 7B full fine-tune named on it is rejected, the script's default
    (GPT-2) admitted."""
    (tmp_path / "train.py").write_text(_HELD_TRAIN)
    (tmp_path / "cluster.yaml").write_text((SLURM / "cluster.yaml").read_text())
    head = "#!/bin/bash\n#SBATCH --partition=a100\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=1\n" \
           "#SBATCH --gres=gpu:a100:1\n"
    (tmp_path / "job.sh").write_text(head + launch)
    code, out, _ = run_cli(["gate", "job.sh", "--cluster", "cluster.yaml", "--format", "json"], monkeypatch, capsys,
                           cwd=tmp_path)
    doc = json.loads(out)
    assert code == 1 and doc["decision"] == "reject", out
    assert doc["fit"]["verdict"] == "oom" and doc["fit"]["estimate"]["model"]["name"] == "Llama-2-7B"
    (tmp_path / "job.sh").write_text(head + launch.replace(" --model meta-llama/Llama-2-7b-hf", ""))
    code, out, _ = run_cli(["gate", "job.sh", "--cluster", "cluster.yaml"], monkeypatch, capsys, cwd=tmp_path)
    assert code == 0 and "fit: fits: GPT-2" in out, out
