"""Rules with ``needs_text``: not imported, not run, on a file that cannot hold their findings."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preflight.engine import Selection, analyse_parsed
from preflight.registry import all_rules
from preflight.rules import _needs
from preflight.sources import SourceText, parse_python

REPO = Path(__file__).resolve().parents[1]
NEEDING = [(code, cls) for code, cls in all_rules(plugins=False).items() if cls.needs_text]


def _parse(src: str, name: str = "train.py"):
    src = textwrap.dedent(src)
    return parse_python(SourceText(path=Path(name), display=name, kind="python", raw=src.encode(), text=src))


def _loaded_rule_modules(target: Path) -> list[str]:
    code = textwrap.dedent(f"""
        import sys
        from preflight.cli import main
        main(['check', '--no-cache', '-q', {str(target)!r}])
        print(sorted(m.rsplit('.', 1)[1][:5] for m in sys.modules
                     if m.startswith('preflight.rules.') and m.rsplit('.', 1)[1].startswith('pf')))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=REPO,
                         env={**os.environ, "NO_COLOR": "1"})
    return eval(out.stdout.strip().splitlines()[-1])  # a list of module-name prefixes


def test_a_plain_pytorch_check_imports_no_framework_rule_that_cannot_fire(tmp_path: Path) -> None:
    target = tmp_path / "train.py"
    target.write_text("import torch\nfor x in loader:\n    loss = model(x)\n    loss.backward()\n    opt.step()\n")
    loaded = _loaded_rule_modules(target)
    assert "pf101" in loaded and "pf103" in loaded  # the torch rules still run
    for skipped in ("pf417", "pf419", "pf421", "pf424", "pf425"):
        assert skipped not in loaded


def test_a_file_naming_the_hook_loads_and_runs_its_rule(tmp_path: Path) -> None:
    target = tmp_path / "module.py"
    target.write_text("class M(LightningModule):\n    def configure_optimizers(self):\n"
                      "        return torch.optim.SGD(self.parameters())\n")
    assert "pf419" in _loaded_rule_modules(target)


def test_only_file_rules_declare_needed_strings() -> None:
    # the engine skips a FILE rule whose strings a file lacks (the generated _needs.py holds file rules only); a
    # plan or config rule's needs_text would never be read, so declaring one is a mistake to name here
    assert [code for code, cls in NEEDING if cls.scope != "file"] == []


@pytest.mark.parametrize("code,cls", NEEDING, ids=[c for c, _ in NEEDING])
def test_every_must_fire_example_holds_one_of_the_needed_strings(code, cls) -> None:
    assert _needs.NEEDS[code] == tuple(cls.needs_text)
    for example in cls.bad_examples:
        assert any(n in example for n in cls.needs_text), (code, example[:80])


def test_a_non_ascii_file_runs_every_rule() -> None:
    # `ｃｏｎｆｉｇｕｒｅ_optimizers` (full-width letters) is the identifier configure_optimizers once
    # Python normalises it: the text holds no ASCII "configure_optimizers", the rule must still run
    src = all_rules()["PF419"].bad_examples[0]
    wide = src.replace("configure_optimizers", "\uff43\uff4f\uff4e\uff46\uff49\uff47\uff55\uff52\uff45_optimizers")
    assert "configure_optimizers" not in wide
    assert [f.code for f in analyse_parsed(_parse(wide), Selection(codes=("PF419",)))] == ["PF419"]


def test_a_non_ascii_file_without_the_needed_strings_skips_those_rules(tmp_path: Path) -> None:
    # an accented docstring used to make every framework rule run on the file; the NFKC form of
    # the text holds none of their strings either, so they are not even imported
    target = tmp_path / "train.py"
    target.write_text('"""Entraînement du modèle."""\nimport torch\nfor x in loader:\n'
                      "    loss = model(x)\n    loss.backward()\n    opt.step()\n", encoding="utf-8")
    loaded = _loaded_rule_modules(target)
    assert "pf101" in loaded and "pf103" in loaded
    for skipped in ("pf417", "pf419", "pf421", "pf424", "pf425"):
        assert skipped not in loaded


def test_a_rules_first_text_test_reads_identifiers_as_python_does() -> None:
    # PF433 looks for "rand" before it builds the option index: `ｒａｎｄｏｍ` (full-width) is the
    # module random once normalised, so the draw is still found
    src = all_rules()["PF433"].bad_examples[0]
    wide = src.replace("random", "\uff52\uff41\uff4e\uff44\uff4f\uff4d")
    assert "rand" not in wide
    assert [f.code for f in analyse_parsed(_parse(wide), Selection(codes=("PF433",)))] == ["PF433", "PF433"]
    plain = src.replace("random.random() * 0.0005 + 0.0000005", "0.0005").replace(
        "random.choice([100, 150, 200, 250])", "150").replace("import random\n", "")
    assert "rand" not in plain
    assert analyse_parsed(_parse(plain), Selection(codes=("PF433",))) == []


_TEXT_CHARS = "ab_Z9 .(\n#\"'é\uff41\u0131\U0001d41a"


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=_TEXT_CHARS, max_size=60),
       needle=st.text(alphabet="ab_Z9.(é ", min_size=1, max_size=4))
def test_a_needle_test_answers_as_a_search_of_the_whole_text(text: str, needle: str) -> None:
    # the needle tests read the file's distinct words (identifier-character needles) or the
    # text itself (the others): either way the answer is "in the text as written or in its
    # NFKC form", whatever the text holds (non-ASCII letters, the mathematical `𝐚` that NFKC
    # makes `a`, a dotless `ı`, punctuation between words)
    from preflight.analysis.context import FileContext

    src = "x = 1\n" + "".join("#" + line + "\n" for line in text.split("\n"))
    ctx = FileContext(_parse(src))
    expected = needle in src or needle in unicodedata.normalize("NFKC", src)
    assert ctx.mentions(needle) is expected


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=_TEXT_CHARS, max_size=60),
       needles=st.frozensets(st.text(alphabet="ab_Z9.(é ", min_size=1, max_size=4), max_size=6))
def test_the_engines_needle_pass_finds_what_each_test_finds(text: str, needles: frozenset) -> None:
    # the engine asks for all its needles at once (an ASCII file: one pass over its words)
    from preflight.analysis.context import FileContext

    src = "x = 1\n" + "".join("#" + line + "\n" for line in text.split("\n"))
    assert FileContext(_parse(src)).mentioned(needles) == {n for n in needles if FileContext(_parse(src)).mentions(n)}


def test_the_words_remembered_across_files_are_bounded_and_answers_survive_a_reset(monkeypatch) -> None:
    # the engine's needle pass remembers each word's needles across files; past a bound it
    # starts again, and the answers stay those of a search of each file's text
    from preflight.analysis import context as context_module
    from preflight.analysis.context import FileContext

    monkeypatch.setattr(context_module, "_MAX_WORDS", 50)
    needles = frozenset({"backward", "zero_grad", "GradScaler", "lr", "x.to("})
    seen = []
    for i in range(40):
        extra = "loss.backward()\n" if i % 3 == 0 else "opt.zero_grad()\n" if i % 3 == 1 else ""
        src = "".join(f"name_{i}_{j} = {j}\n" for j in range(7)) + extra + ("x.to(d)\n" if i % 5 == 0 else "")
        found = FileContext(_parse(src)).mentioned(needles)
        assert found == {n for n in needles if n in src}, src
        table = context_module._needle_words(context_module._split_needles(needles)[0])
        assert len(table.seen) <= 50
        seen.append(len(table.seen))
    assert min(seen) < max(seen)  # it did start again


def test_a_needle_closing_a_word_on_both_sides_needs_that_whole_word() -> None:
    # `.module(` holds `module` as a whole word: a file whose words lack it is not searched, and a
    # longer word (`module_list`) does not stand for it; a needle open at an end is searched as before
    from preflight.analysis.context import FileContext

    needles = frozenset({".module(", ".step()", "self.log", "_transform("})
    cases = {
        "net.module(x)\n": {".module("},
        "net.module_list(x)\nopt.stepper()\n": set(),
        "opt.step()\nself.logger = 1\n": {".step()", "self.log"},
        "y = my_transform(x)\n": {"_transform("},
    }
    for src, expected in cases.items():
        assert FileContext(_parse(src)).mentioned(needles) == expected, src
