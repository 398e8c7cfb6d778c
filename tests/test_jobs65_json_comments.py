"""JSON configs with ``//`` and ``/* */`` comments, which the projects that write them strip before
``json.loads`` (issue 15, set 32: Janspiry/Image-Super-Resolution-via-Iterative-Refinement
``config/sr_sr3_16_128.json`` (``"phase": "train", // train or val``), read by ``core/logger.py:26-32``;
the first reading stopped at "invalid JSON", exit 3). Twins: a URL's ``//`` inside a string, JSON that is
broken for another reason."""

from __future__ import annotations

from plan_helpers import fact, plan_of, write

from preflight.diagnostics import FileError
from preflight.loaders import load_config_text

COMMENTED = """\
{
    "name": "sr_ffhq", // the run's name
    "url": "http://example.org/a//b",
    /* the training data
       and its loader */
    "per_device_train_batch_size": 4,
    "gradient_accumulation_steps": 2 // per step
}
"""


def test_comments_are_left_out_and_lines_kept():
    loaded = load_config_text(COMMENTED, "json", "c.json")
    assert not isinstance(loaded, FileError)
    assert loaded.data["url"] == "http://example.org/a//b"
    assert loaded.data["per_device_train_batch_size"] == 4
    assert loaded.line_of(["per_device_train_batch_size"]) == 6
    assert loaded.line_of(["gradient_accumulation_steps"]) == 7
    assert any("comments" in n for n in loaded.notes)


def test_twin_valid_json_takes_no_note_and_broken_json_stays_an_error():
    plain = load_config_text('{"a": "x // y"}', "json", "p.json")
    assert not isinstance(plain, FileError) and plain.data == {"a": "x // y"} and not plain.notes
    broken = load_config_text('{"a": 1, // note\n "b": }', "json", "b.json")
    assert isinstance(broken, FileError) and "invalid JSON" in broken.message
    unclosed = load_config_text('{"a": 1 /* never closed\n}', "json", "u.json")
    assert isinstance(unclosed, FileError)


SCRIPT = """\
    from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

    parser = HfArgumentParser((TrainingArguments,))
    (training_args,) = parser.parse_json_file(json_file="args.json")
    model = AutoModelForCausalLM.from_pretrained("gpt2")
    Trainer(model=model, args=training_args).train()
    """


def test_a_commented_json_named_on_the_line_is_read(cli, tmp_path):
    write(tmp_path, {"train.py": SCRIPT})
    (tmp_path / "args.json").write_text(COMMENTED)
    plan = plan_of(cli, "train.py", "--", "args.json", cwd=tmp_path)
    micro = fact(plan, "batch.micro")
    assert micro is not None and micro.value == 4
