"""The plan of a Hydra job whose launch line overrides keys its config lacks (issue 15, branch jobs39).
Hydra stops such a job (PF526 reports it); the plan is still read as the job meant it, each refused key
added as ``++key=value`` (adapters/hydra_added_keys.py), so the model and sizes of the same line are not lost. Follows cmu-l3/l1 @ 93dd330
scripts/train/run_l1_exact.sh:27-66 (``actor_rollout_ref.rollout.val_temperature=0.6`` on a
config/ppo_trainer.yaml without that key, ``actor_rollout_ref.model.path=$MODEL_PATH``), with twins."""

from __future__ import annotations

import json
from pathlib import Path

from plan_helpers import fact, plan_of, write

APP = """\
    import hydra
    import torch


    @hydra.main(config_path="config", config_name="ppo_trainer", version_base=None)
    def main(config):
        model = torch.nn.Linear(4, 4)
        opt = torch.optim.AdamW(model.parameters())


    if __name__ == "__main__":
        main()
"""

YAML = """\
    actor_rollout_ref:
      model:
        path: ~/models/deepseek-llm-7b-chat
      actor:
        strategy: fsdp
      rollout:
        temperature: 1.0
"""

LAUNCH = """\
    #!/bin/bash
    if [ -z "$MODEL_PATH" ]; then
        MODEL_PATH="Org-AI/Reasoner-1.5B"
    fi
    python3 main_ppo.py \\
        actor_rollout_ref.model.path=$MODEL_PATH \\
        {extra}
"""


def _job(cli, tmp_path: Path, extra: str) -> tuple[dict, list]:
    write(tmp_path, {"main_ppo.py": APP, "config/ppo_trainer.yaml": YAML, "config/optim/adamw.yaml": "lr: 1.0e-6\n",
                     "run.sh": LAUNCH.replace("{extra}", extra)})
    res = cli("audit", "run.sh", "--format", "json", cwd=tmp_path)
    codes = [f["code"] for f in json.loads(res.out)["findings"]]
    return plan_of(cli, "run.sh", cwd=tmp_path), codes


def test_overrides_of_missing_keys_still_give_the_plan_and_pf526(cli, tmp_path: Path) -> None:
    plan, codes = _job(cli, tmp_path, "actor_rollout_ref.rollout.val_temperature=0.6 actor_rollout_ref.rollout.n_val=4")
    assert "PF526" in codes  # the job's bug is still reported
    got = fact(plan, "model.ref")
    assert got is not None and got.value == "Org-AI/Reasoner-1.5B"
    assert any("the plan is read as if written '++'" in n and "n_val" in n for n in plan["notes"])


def test_twin_an_override_the_config_has_needs_no_leniency(cli, tmp_path: Path) -> None:
    plan, codes = _job(cli, tmp_path, "actor_rollout_ref.rollout.temperature=0.6")
    assert "PF526" not in codes
    assert fact(plan, "model.ref").value == "Org-AI/Reasoner-1.5B"
    assert not any("as if written '++'" in n for n in plan["notes"])


def test_twin_a_composition_that_fails_otherwise_states_nothing(cli, tmp_path: Path) -> None:
    # an option of a config group that does not exist (optim/lion.yaml; with a missing key too): not only
    # missing keys, nothing is composed
    write(tmp_path, {"main_ppo.py": APP, "config/ppo_trainer.yaml": YAML, "config/optim/adamw.yaml": "lr: 1.0e-6\n",
                     "run.sh": LAUNCH.replace("{extra}", "+optim=lion actor_rollout_ref.rollout.n_val=4")})
    res = cli("audit", "run.sh", "--emit-plan", "json", cwd=tmp_path)
    assert "Could not find 'optim/lion'" in res.err  # one clear message, the config is not read
    assert fact(json.loads(res.out), "model.ref") is None
