"""Shapes of real code met while hunting the issue-18 rules over real repositories
(docs/corpus.md, "Issue-18 rules on real code"): what a user running `preflight audit` sees."""

from __future__ import annotations

from pathlib import Path

from preflight.audit import build_plan
from preflight.plan_rules import check_plan_rule


def _audit(tmp_path: Path, code: str, files: dict[str, str], argv: tuple[str, ...] = ()) -> list[tuple[str, int]]:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    plan, project = build_plan([tmp_path / "train.py"], [], root=tmp_path, argv=list(argv))
    return [(Path(f.path).name, f.span.line) for f in check_plan_rule(code, plan, project)]


DS_CLIP_1 = '{"train_micro_batch_size_per_gpu": "auto",\n "gradient_clipping": 1.0}\n'


def test_pf511_reads_the_deepspeed_config_that_training_arguments_names(tmp_path):
    # `preflight audit train.py` with no --config: the config named in the code is read
    found = _audit(tmp_path, "PF511", {
        "train.py": 'from transformers import TrainingArguments\n'
                    'args = TrainingArguments("out", max_grad_norm=0.3, deepspeed="ds_config.json")\n',
        "ds_config.json": DS_CLIP_1})
    assert found == [("train.py", 2)]


def test_pf511_named_config_that_agrees_stays_silent(tmp_path):
    found = _audit(tmp_path, "PF511", {
        "train.py": 'from transformers import TrainingArguments\n'
                    'args = TrainingArguments("out", max_grad_norm=1.0, deepspeed="ds_config.json")\n',
        "ds_config.json": DS_CLIP_1})
    assert found == []


def test_pf516_config_alone_cannot_say_who_builds_the_loaders(tmp_path):
    # `preflight audit --config trainer.yaml` (no script): NeMo-style configs switch Lightning's
    # sampler off because the library's own samplers shard by rank
    (tmp_path / "trainer.yaml").write_text("trainer:\n  devices: 8\n  use_distributed_sampler: false\n")
    plan, project = build_plan([], [tmp_path / "trainer.yaml"], root=tmp_path)
    assert check_plan_rule("PF516", plan, project) == []
    (tmp_path / "train.py").write_text("import hydra\ntrainer = hydra.utils.instantiate(cfg.trainer)\n")
    plan, project = build_plan([tmp_path / "train.py"], [tmp_path / "trainer.yaml"], root=tmp_path)
    assert [f.span.line for f in check_plan_rule("PF516", plan, project)] == [3]
