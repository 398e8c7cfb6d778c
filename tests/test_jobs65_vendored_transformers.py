"""A transformers the project installs from its own copy, and the Trainer's pin memory before 4.3
(issue 15, set 32: voidism/DiffCSE ships ``transformers-4.2.1/`` (``setup.py``,
``src/transformers/__init__.py:25`` ``__version__ = "4.2.1"``) and its README says ``cd
transformers-4.2.1`` / ``pip install .``; that release's Trainer builds ``transformers.optimization.AdamW``
and a DataLoader without ``pin_memory``, while 5.x was assumed). Twins: a copy the README does not
install, a requirements pin, the 4.3 release that added ``dataloader_pin_memory``."""

from __future__ import annotations

from plan_helpers import fact, plan_of, winner, write

SCRIPT = """\
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    parser = HfArgumentParser((TrainingArguments,))
    (training_args,) = parser.parse_args_into_dataclasses()
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=training_args).train()
    """

COPY = {
    "transformers-4.2.1/setup.py": "from setuptools import setup\nsetup(name='transformers', version='4.2.1')\n",
    "transformers-4.2.1/src/transformers/__init__.py": '# comment\n__version__ = "4.2.1"\n',
}


def _plan(cli, tmp_path, files: dict) -> dict:
    write(tmp_path, {"train.py": SCRIPT, **files})
    return plan_of(cli, "train.py", "--", "--output_dir", "out", cwd=tmp_path)


def test_the_copy_the_readme_installs_is_the_version(cli, tmp_path):
    readme = "# Setup\n\n```\ncd transformers-4.2.1\npip install .\n```\n"
    plan = _plan(cli, tmp_path, {**COPY, "README.md": readme})
    assert any("transformers 4.2.1 (pinned, transformers-4.2.1/src/transformers/__init__.py:2, the project's own "
               "copy, installed by README.md:5)" in n for n in plan["notes"])
    assert winner(plan, "optimizer.name") == "adamw_hf"
    pin = fact(plan, "data.pin_memory")
    assert pin.value is False and "before transformers 4.3" in pin.source.detail


def test_twin_pip_install_of_the_folder_by_path(cli, tmp_path):
    plan = _plan(cli, tmp_path, {**COPY, "README.md": "Run `pip install -e ./transformers-4.2.1` first.\n"})
    assert winner(plan, "optimizer.name") == "adamw_hf"


def test_twin_a_copy_the_readme_does_not_install_is_not_the_version(cli, tmp_path):
    plan = _plan(cli, tmp_path, {**COPY, "README.md": "We compare with transformers-4.2.1 in the paper.\n"})
    assert not any("the project's own copy" in n for n in plan["notes"])
    assert winner(plan, "data.pin_memory") is True


def test_twin_a_requirements_pin_before_and_from_4_3(cli, tmp_path):
    plan = _plan(cli, tmp_path, {"requirements.txt": "transformers==4.2.2\n"})
    assert winner(plan, "data.pin_memory") is False
    plan = _plan(cli, tmp_path, {"requirements.txt": "transformers==4.3.0\n"})
    assert winner(plan, "data.pin_memory") is True
