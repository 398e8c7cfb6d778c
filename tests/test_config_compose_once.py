"""A YAML config is composed once per check: the scalar pass reuses the loader's node tree."""

from __future__ import annotations

from pathlib import Path

import yaml

from preflight.sources import SourceText
from preflight.validate import validate_source

TEXT = "compute_environment: LOCAL_MACHINE\ndistributed_type: NO\nmixed_precision: fp16\nnum_processes: 2\n"


def _source(text: str) -> SourceText:
    return SourceText(path=Path("accelerate.yaml"), display="accelerate.yaml", kind="config",
                      raw=text.encode(), text=text)


def test_yaml_is_composed_once_and_its_traps_still_reported(monkeypatch) -> None:
    composed = []
    real = yaml.composer.Composer.compose_document

    def counting(self):
        composed.append(1)
        return real(self)

    monkeypatch.setattr(yaml.composer.Composer, "compose_document", counting)
    report = validate_source(_source(TEXT))
    assert len(composed) == 1
    assert [(p.line, p.code) for p in report.problems if p.code.startswith("yaml11")] == [(2, "yaml11-bool")]


def test_another_text_is_composed_afresh() -> None:
    first = validate_source(_source(TEXT))
    second = validate_source(_source(TEXT.replace("distributed_type: NO", "distributed_type: 'NO'")))
    assert any(p.code == "yaml11-bool" for p in first.problems)
    assert not any(p.code == "yaml11-bool" for p in second.problems)
