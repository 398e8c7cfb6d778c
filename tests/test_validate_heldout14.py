"""Behaviours found by the fourteenth held-out run of bench/realworld/configs.py (issue 16).

1. A project YAML config that does not parse is reported with the YAML error's line when its
   folder holds a config of the same shape that does parse (DAMO-NLP-SG/Video-LLaMA
   ``train_configs/visionbranch_stage2_finetune.yaml:51``: a key indented under a scalar,
   "mapping values are not allowed here", in a ``model``/``datasets``/``run`` file read by the
   project's ``OmegaConf.load``; its siblings only carry ``"a" or "b"`` choices for the user to fill).
   A template that parses once its placeholders are filled, a Jinja template, and a broken YAML
   whose siblings have another shape (or that has none) stay quiet.

The files here are written from scratch in the same shape.
"""

from __future__ import annotations

import json
from pathlib import Path

from preflight.validate_yaml import filled_template, template_placeholders

STAGE1 = """\
model:
  arch: video_llama
  llama_model: "ckpt/vicuna-13b/" or "ckpt/vicuna-7b/"
  num_query_token: 32

datasets:
  webvid:
    data_type: video
    build_info:
      anno_dir: path/webvid/

run:
  task: video_text_pretrain
  init_lr: 1e-4
  batch_size_train: 32
"""

# line 10: `build_info:` indented under the scalar `data_type: images` (the Video-LLaMA shape)
STAGE2_BROKEN = """\
model:
  arch: video_llama
  llama_model: "ckpt/vicuna-13b/" or "ckpt/vicuna-7b/"
  num_query_token: 32

datasets:
  cc_sbu_align:
    data_type: images
      build_info:
        storage: path/cc_sbu_align/

run:
  task: video_text_pretrain
  init_lr: 3e-5
  batch_size_train: 4
"""

# the same file, indented right: only the fill-in choices, which every sibling has
STAGE2_TEMPLATE = STAGE2_BROKEN.replace("      build_info:\n        storage", "    build_info:\n      storage")

JINJA_BROKEN = """\
model:
  arch: {{ arch }}
{% if audio %}
  audio: true
{% endif %}
datasets:
  cc_sbu_align:
    data_type: images
      build_info: x
run:
  task: video_text_pretrain
"""

OTHER_SHAPE = """\
site_name: docs
nav:
  - intro: intro.md
"""


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    folder = tmp_path / "train_configs"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def _validate(cli, tmp_path: Path) -> tuple[int, dict]:
    res = cli("validate", "--format", "json", "train_configs", cwd=tmp_path)
    return res.code, json.loads(res.out)


def _errors(doc: dict) -> list[tuple[str, int]]:
    return [(f["path"], f["error"]["line"]) for f in doc["files"] if "error" in f]


def test_a_broken_config_next_to_one_of_the_same_shape_is_reported_at_the_yaml_error(cli, tmp_path):
    _folder(tmp_path, {"stage1_pretrain.yaml": STAGE1, "stage2_finetune.yaml": STAGE2_BROKEN})
    code, doc = _validate(cli, tmp_path)
    assert _errors(doc) == [("train_configs/stage2_finetune.yaml", 9)]
    assert code == 3 and doc["counts"]["unreadable"] == 1 and doc["counts"]["not_recognised"] == 1
    text = cli("validate", "train_configs", cwd=tmp_path).out
    assert "train_configs/stage2_finetune.yaml:9:" in text
    assert "mapping values are not allowed here" in text and "stage1_pretrain.yaml" in text


def test_check_reports_the_broken_config_of_the_family_too(cli, tmp_path):
    _folder(tmp_path, {"stage1_pretrain.yaml": STAGE1, "stage2_finetune.yaml": STAGE2_BROKEN})
    res = cli("check", "train_configs", cwd=tmp_path)
    assert "train_configs/stage2_finetune.yaml:9:" in res.out and "mapping values are not allowed here" in res.out
    assert res.code != 0


def test_a_template_whose_only_error_is_its_fill_in_choices_stays_quiet(cli, tmp_path):
    _folder(tmp_path, {"stage1_pretrain.yaml": STAGE1, "stage2_finetune.yaml": STAGE2_TEMPLATE})
    code, doc = _validate(cli, tmp_path)
    assert (code, _errors(doc), doc["counts"]["not_recognised"]) == (0, [], 2)
    res = cli("check", "train_configs", cwd=tmp_path)
    assert "invalid YAML" not in res.out and res.code == 0


def test_a_broken_jinja_template_next_to_a_config_of_its_shape_stays_quiet(cli, tmp_path):
    _folder(tmp_path, {"stage1_pretrain.yaml": STAGE1.replace('"ckpt/vicuna-13b/" or "ckpt/vicuna-7b/"', "x"),
                       "stage2.yaml.j2.yaml": JINJA_BROKEN})
    code, doc = _validate(cli, tmp_path)
    assert (code, _errors(doc)) == (0, [])


def test_a_broken_yaml_whose_siblings_have_another_shape_stays_quiet(cli, tmp_path):
    _folder(tmp_path, {"mkdocs.yaml": OTHER_SHAPE, "stage2_finetune.yaml": STAGE2_BROKEN})
    code, doc = _validate(cli, tmp_path)
    assert (code, _errors(doc), doc["counts"]["not_recognised"]) == (0, [], 2)


def test_a_broken_yaml_alone_stays_quiet(cli, tmp_path):
    _folder(tmp_path, {"stage2_finetune.yaml": STAGE2_BROKEN})
    code, doc = _validate(cli, tmp_path)
    assert (code, _errors(doc), doc["counts"]["not_recognised"]) == (0, [], 1)


def test_fill_in_choices_are_placeholders_filled_line_for_line():
    assert template_placeholders(STAGE1) == ('"ckpt/vicuna-13b/" or ...',)
    filled = filled_template(STAGE1)
    assert filled is not None and filled.count("\n") == STAGE1.count("\n")
    assert '  llama_model: "ckpt/vicuna-13b/"\n' in filled
    assert filled_template(JINJA_BROKEN) is None


# DeepSpeedExamples' compression/bert/config/ds_config_TEMPLATE.json: the launch script's sed fills
# names of any case (`QuantW_FORWARD`), so a JSON template is never filled and judged by its error
JSON_TEMPLATE = """\
{
  "train_batch_size": BATCH_SIZE,
  "train_micro_batch_size_per_gpu": MICRO_BATCH,
  "compression_training": {
    "weight_quantization": {
      "shared_parameters": {
        "quantize_weight_in_forward": QuantW_FORWARD,
        "quantize_groups": Q_GROUP
      }
    }
  }
}
"""


def test_a_json_template_with_a_mixed_case_placeholder_stays_a_template(cli, tmp_path):
    _folder(tmp_path, {"ds_config_TEMPLATE.json": JSON_TEMPLATE})
    code, doc = _validate(cli, tmp_path)
    assert (code, _errors(doc), doc["counts"]["templates"]) == (0, [], 1)
