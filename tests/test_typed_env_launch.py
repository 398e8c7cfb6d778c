"""A launch line typed after ``--`` that sets variables and runs a launch script of the project
(princeton-nlp/MeZO README: ``MODEL=facebook/opt-13b TASK=SST2 MODE=ft LR=1e-7 bash mezo.sh``, whose
mezo.sh reads ``MODEL=${MODEL:-facebook/opt-1.3b}``): the job is the script's launch line with those
variables set, so the typed model wins over the script's default (issue 15, set 24: the plan was empty)."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

RUN = """\
    import argparse

    from transformers import AutoModelForCausalLM

    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name", default="facebook/opt-125m")
    parser.add_argument("--learning_rate", type=float, default=1e-5)
    args = parser.parse_args()
    model = AutoModelForCausalLM.from_pretrained(args.model_name)
"""

MEZO = """\
    MODEL=${MODEL:-facebook/opt-1.3b}
    LR=${LR:-1e-5}
    python run.py --model_name $MODEL --learning_rate $LR "$@"
"""


def _project(tmp_path):
    write(tmp_path, {"run.py": RUN, "mezo.sh": MEZO})


def test_typed_variables_before_bash_script_reach_its_defaults(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "--", "MODEL=facebook/opt-13b", "LR=1e-7", "bash", "mezo.sh", cwd=tmp_path)
    assert fact(plan, "model.ref").value == "facebook/opt-13b"
    assert any("runs mezo.sh with MODEL=facebook/opt-13b, LR=1e-7 set" in n for n in plan["notes"])


def test_twin_the_script_alone_keeps_its_default(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "--", "bash", "mezo.sh", cwd=tmp_path)
    assert fact(plan, "model.ref").value == "facebook/opt-1.3b"
    plan = plan_of(cli, "mezo.sh", cwd=tmp_path)  # the usual way: the same job
    assert fact(plan, "model.ref").value == "facebook/opt-1.3b"


def test_twin_a_script_that_is_not_there_states_nothing(cli, tmp_path):
    _project(tmp_path)
    plan = plan_of(cli, "--", "MODEL=facebook/opt-13b", "bash", "other.sh", cwd=tmp_path)
    assert fact(plan, "model.ref") is None  # no script, no job: nothing is made up from MODEL=
