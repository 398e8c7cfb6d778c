"""Every rule's documentation is executable: its examples are its tests."""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path

import pytest

from preflight.diagnostics import FileError, Finding, Severity
from preflight.docs import rules_reference
from preflight.engine import Selection, analyse_parsed
from preflight.plan_rules import PlanRule, example_findings
from preflight.registry import all_rules
from preflight.rule_examples import check_fixes, check_pins, pins
from preflight.rule_examples import example_findings as all_rule_findings
from preflight.sources import SourceText, parse_python

RULES = all_rules(plugins=False)
REPO = Path(__file__).resolve().parent.parent


@functools.cache
def every_finding(code: str, example: str) -> tuple[Finding, ...]:
    """Every built-in rule's findings on one of ``code``'s examples, computed once: the tests
    below each read what they check from it (the analysis, not the rules, is what costs; this
    halves the meta tests' time). A rule's own findings do not depend on which other rules run
    (rules share no state; ``test_own_findings_do_not_depend_on_the_other_rules`` pins it)."""
    return tuple(all_rule_findings(RULES[code], example))


def own_findings(code: str, example: str) -> list[Finding]:
    return [f for f in every_finding(code, example) if f.code == code]


def findings_for(code: str, text: str):
    """``code``'s findings on an example when only it (and the rules it names) run."""
    if issubclass(RULES[code], PlanRule):  # a small project: script and configs
        return example_findings(code, text)
    text = textwrap.dedent(text)
    src = SourceText(path=Path("example.py"), display="example.py", kind="python",
                     raw=text.encode(), text=text)
    parsed = parse_python(src)
    assert not isinstance(parsed, FileError), parsed
    codes = (code, *getattr(RULES[code], "example_codes", ()))  # PF902 needs the rules it names
    return [f for f in analyse_parsed(parsed, Selection(codes=codes)) if f.code == code]


CASES = [(code, i, ex) for code, cls in RULES.items() for i, ex in enumerate(cls.bad_examples)]
GOOD = [(code, i, ex) for code, cls in RULES.items() for i, ex in enumerate(cls.good_examples)]


def pinned(code: str, example: str) -> list[tuple[str, str, int, str]]:
    """The (code, file, line, severity) a bad example pins (``# error: PFxxx`` comments and
    ``# --- expect`` lines): preflight.rule_examples."""
    return pins(RULES[code], example)


@pytest.mark.parametrize("code,index,example", CASES, ids=[f"{c}-bad{i}" for c, i, _ in CASES])
def test_bad_example_is_flagged_exactly_where_it_pins(code, index, example):
    """Every bad example pins its findings; the rule's own findings and every other rule's at
    warning or above are exactly the pinned ones: code, file, line and severity."""
    assert own_findings(code, example), f"{code} bad example {index} produced no finding"
    problem = check_pins(RULES[code], example, list(every_finding(code, example)))
    assert problem is None, f"bad example {index}: {problem}"


FIRST_BAD = [(code, cls.bad_examples[0]) for code, cls in sorted(RULES.items()) if cls.bad_examples]


# ids like the bad examples' (``PF101-bad0``): conftest's shard key puts this test in the same half of
# CI's version suites as test_bad_example_is_flagged_exactly_where_it_pins of that example, and the
# two share ``every_finding`` (with the rule code alone as id, each half analysed it once)
@pytest.mark.parametrize("code,example", FIRST_BAD, ids=[f"{c}-bad0" for c, _ in FIRST_BAD])
def test_own_findings_do_not_depend_on_the_other_rules(code, example):
    """What the shared ``every_finding`` rests on: a rule reports the same findings (line,
    column, severity, message) whether it runs alone, as ``--select`` runs it, or beside every
    other rule."""
    def key(found):
        return sorted((f.path, f.span.line, f.span.column, f.severity, f.message) for f in found)

    assert key(findings_for(code, example)) == key(own_findings(code, example))


@pytest.mark.parametrize("code", sorted(RULES))
def test_fix_examples_pin_their_output(code):
    """A fixable rule pins what --fix makes of each bad example; a rule that is not fixable
    offers no fix."""
    assert check_fixes(RULES[code]) == []


def test_a_fix_whose_output_changes_fails_the_meta_test():
    cls = RULES["PF101"]
    changed = type("Changed", (cls,), {"fixed_examples": [
        text.replace(".detach()", ".item()") if text else text for text in cls.fixed_examples]})
    problems = check_fixes(changed)
    assert problems and "PF101 bad example 0: --fix makes" in problems[0]


@pytest.mark.parametrize("code,index,example", GOOD, ids=[f"{c}-good{i}" for c, i, _ in GOOD])
def test_good_example_is_silent(code, index, example):
    found = own_findings(code, example)
    assert not found, [f"{f.span.line}: {f.message}" for f in found]


# Good examples on which ANOTHER built-in rule reports at warning or above: (code, index) ->
# the (code, line) it reports, and why. Any other warning on a good example fails the test below,
# and so does an entry here that no longer happens (remove it when the rule is fixed).
OTHER_RULES_ON_GOOD = {
    # real: `accelerator.prepare(model, opt)` with no DataLoader under a DEEPSPEED accelerate config without a
    # deepspeed_config_file (micro batch `auto`): accelerate's _prepare_deepspeed raises (PF1232, det151)
    ("PF505", 8): [("PF1232", 4)],
    # real: launched without the experiment, no thk group is selected and no thk node composed, so
    # `cfg.thk.grid_size` raises ConfigAttributeError (PF694, det129)
    ("PF376", 3): [("PF694", 9)],
    # real: the T5 fine-tuner overrides optimizer_step with accumulate_grad_batches=16 on pytorch-lightning 1.1.4;
    # 1.1.0-1.3.8 raise MisconfigurationException in fit (PF307, det132; priya-dwivedi/Deep-Learning#150 reports it)
    ("PF501", 10): [("PF307", 10)],
    # real: log_with="wandb" on accelerate 0.32.1 without wandb in the requirements only warns and logs nothing
    # (PF152, det113: outside PF396's <= 0.10 range)
    ("PF396", 0): [("PF152", 6)],
    # real: BELLE issue 154 trains bigscience/bloomz-7b1-mt (pretrained in bfloat16) in fp16 (PF514, det105)
    ("PF541", 1): [("PF423", 12), ("PF514", 4)],
    # real: StepLR(step_size=10) (gamma 0.1) stepped on every batch decays 10x every 10 batches (PF440, det64)
    ("PF207", 1): [("PF440", 14)],
    # real: a from_pretrained model (returned in eval mode) trained in a loop that never calls .train() (PF487)
    ("PF305", 8): [("PF487", 7)],
    # real: the config's scheduler block beside the script's own lr_scheduler= (PF527 reports the pair)
    ("PF469", 2): [("PF527", 5)],
    # real: manual_backward of the undivided loss on every batch, opt.step() every 4th (PF108)
    ("PF405", 0): [("PF108", 10)],
    # real: BitsAndBytesConfig(load_in_4bit=True) keeps the fp4 / float32 defaults (PF408)
    ("PF407", 1): [("PF408", 4)],
    ("PF422", 2): [("PF408", 6)],
    # questionable: two alternative DeepSpeed configs in one project, neither named by a
    # script, are read as one job whose ZeRO stage is set twice (PF501)
    ("PF502", 4): [("PF501", 1)],
    # real: zero_grad() on every batch and opt.step() every 2nd: PF108 rightly sees no
    # accumulation to scale, and the odd batches' gradients are wiped unused (PF457)
    ("PF108", 3): [("PF457", 7)],
    # real: the DistributedSampler loader is prepared, and Accelerate shards it a second time
    # (PF447); PF202's point (prepare's sampler sets the epoch itself) stands
    ("PF202", 6): [("PF447", 6)],
    # real: manual accumulation of an accelerate-prepared model on 8 MULTI_GPU processes with no no_sync: every
    # micro-batch's backward all-reduces (PF320, performance); PF522's point (no DeepSpeed here) stands
    ("PF522", 1): [("PF320", 17)],
    # real: no compute_metrics, so the evaluation metrics hold eval_loss and the timings, never the monitored
    # eval_f1: the Trainer raises KeyError choosing the best checkpoint (PF180); PF536's point (no best-model load) stands
    ("PF536", 2): [("PF180", 3)],
    # real: fp16 with ZeRO stage 0 and DeepSpeed unpinned: every release since 0.18.3 runs engine.backward without
    # the loss scale the FP16 optimizer divides by (PF198, det125; DeepSpeed PR 8393); the rules' own points stand
    ("PF143", 1): [("PF198", 1)],
    ("PF235", 3): [("PF198", 5)], ("PF235", 4): [("PF198", 5)], ("PF235", 5): [("PF198", 5)],
    ("PF235", 7): [("PF198", 3)], ("PF235", 8): [("PF198", 3)], ("PF235", 9): [("PF198", 3)],
    ("PF235", 10): [("PF198", 3)],
    ("PF501", 18): [("PF198", 3)],
    ("PF550", 0): [("PF198", 5)], ("PF550", 2): [("PF198", 4)],
    ("PF664", 0): [("PF198", 4)], ("PF664", 1): [("PF198", 3)], ("PF664", 2): [("PF198", 3)],
}


@pytest.mark.parametrize("code,index,example", GOOD, ids=[f"{c}-good{i}" for c, i, _ in GOOD])
def test_good_example_draws_no_other_warning(code, index, example):
    other = sorted((f.code, f.span.line) for f in every_finding(code, example)
                   if f.code != code and f.severity >= Severity.WARNING)
    assert other == OTHER_RULES_ON_GOOD.get((code, index), []), \
        f"{code} good example {index}: other rules report {other} (see OTHER_RULES_ON_GOOD)"


def test_at_least_the_retained_graph_rule_exists():
    assert "PF101" in RULES


@pytest.mark.parametrize("code", sorted(RULES))
def test_metadata_is_complete(code):
    cls = RULES[code]
    meta = cls.metadata()
    assert meta["summary"] and not meta["summary"].endswith(".")
    assert len(meta["explanation"]) > 200
    assert len(cls.good_examples) >= 2 and len(cls.bad_examples) >= 1


def test_rules_reference_is_generated_and_current():
    committed = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_reference(), "docs/rules.md is stale: run `python -m preflight.docs`"


@pytest.mark.parametrize("name", ["_index.py", "_needs.py"])
def test_rules_index_and_needs_are_generated_and_current(name):
    from preflight.docs import GENERATED

    (path,) = [p for p in GENERATED if p.name == name]
    committed = path.read_text(encoding="utf-8").splitlines()
    expected = GENERATED[path]().splitlines()
    first = next((i for i, (a, b) in enumerate(zip(committed, expected)) if a != b), min(len(committed),
                                                                                          len(expected)))
    assert committed == expected, (
        f"preflight/rules/{name} is stale from line {first + 1} (committed: "
        f"{committed[first] if first < len(committed) else '<end>'!r}, generated: "
        f"{expected[first] if first < len(expected) else '<end>'!r}): run `python -m preflight.docs`")


def test_the_generated_modules_are_the_only_generated_ones_and_agree():
    from preflight.docs import GENERATED
    from preflight.rules import _index, _needs

    assert sorted(p.name for p in GENERATED) == ["_index.py", "_needs.py"]
    assert all(p.parent == REPO / "preflight" / "rules" for p in GENERATED)
    # NEEDS holds every FILE rule with a needs_text and nothing else, in code order
    assert list(_needs.NEEDS) == [code for code, cls in RULES.items() if cls.scope == "file" and cls.needs_text]
    assert set(_needs.NEEDS) <= set(_index.FILE)
    assert not hasattr(_index, "NEEDS")  # one table, one home


def test_every_rule_is_in_the_index_under_its_scope():
    from preflight.rules import _index

    for code, cls in RULES.items():
        table = _index.FILE if cls.scope == "file" else _index.JOB
        assert f"preflight.rules.{table[code]}" == cls.__module__
    assert set(_index.FILE) | set(_index.JOB) == set(RULES)


def _move_pin(example: str, pin: str, to_line: str) -> str:
    """The example with ``pin`` taken off the line that holds it and put on the line ``to_line``."""
    lines = example.split("\n")
    (at,) = [i for i, line in enumerate(lines) if line.rstrip().endswith(pin)]
    lines[at] = lines[at].rstrip()[: -len(pin)].rstrip()
    (to,) = [i for i, line in enumerate(lines) if line.strip() == to_line]
    lines[to] = f"{lines[to]}  {pin}"
    return "\n".join(lines)


def test_the_meta_test_fails_when_a_finding_moves_one_line():
    """A finding reported one line away from its pin fails the meta-test (the pin moved here;
    the same holds when the rule's report moves)."""
    from preflight.rules.code._pf417_examples import PF417_BAD

    example = PF417_BAD[0]
    assert check_pins(RULES["PF417"], example) is None
    moved = _move_pin(example, "# error: PF417", "opt.zero_grad()")  # the line above
    problem = check_pins(RULES["PF417"], moved)
    assert problem is not None and "pinned but not reported [('PF417', 'example.py', 13, 'error')]" in problem
    assert "reported but not pinned [('PF417', 'example.py', 14, 'error')]" in problem


def test_the_meta_test_fails_when_a_plan_finding_moves_one_line():
    from preflight.rules.plan._pf507_examples import PF507_BAD

    example = PF507_BAD[0]
    assert check_pins(RULES["PF507"], example) is None
    moved = _move_pin(example, "# warning: PF507", "hidden: 256")
    assert "pinned but not reported [('PF507', 'configs/model/mlp.yaml', 2, 'warning')]" in \
        check_pins(RULES["PF507"], moved)


def test_the_meta_test_fails_when_an_expect_line_moves():
    from preflight.rules.plan._pf502_examples import PF502_BAD

    example = PF502_BAD[1]
    assert "ds_config.json:1: error: PF502" in example and check_pins(RULES["PF502"], example) is None
    moved = example.replace("ds_config.json:1: error: PF502", "ds_config.json:2: error: PF502")
    assert "pinned but not reported [('PF502', 'ds_config.json', 2, 'error')]" in check_pins(RULES["PF502"], moved)


def test_the_meta_test_fails_when_a_new_finding_appears():
    """Another rule's warning that the example does not pin fails it, as does a second
    finding of the rule itself."""
    from preflight.rules.code._pf417_examples import PF417_BAD

    example = PF417_BAD[0]
    with_leak = example.replace("        opt.step()\n", "        opt.step()\n        self.outs.append(loss)\n")
    problem = check_pins(RULES["PF417"], with_leak)
    assert problem is not None and ("reported but not pinned [('PF101', 'example.py', 16, 'warning'), "
                                    "('PF418', 'example.py', 16, 'warning')]") in problem
    twice = example.replace("        opt.step()\n", "        opt.step()\n        loss.backward()\n")
    assert "reported but not pinned [('PF417', 'example.py', 16, 'error')]" in check_pins(RULES["PF417"], twice)


def test_an_unpinned_bad_example_fails():
    from preflight.rules.code._pf417_examples import PF417_BAD

    bare = PF417_BAD[0].replace("  # error: PF417", "")
    assert "pins no PF417 finding" in check_pins(RULES["PF417"], bare)


def test_a_malformed_expect_line_is_one_clear_error():
    from preflight.rule_examples import PinError

    example = "# --- ds.json\n{}\n# --- expect\nds.json line 1 error PF502\n"
    with pytest.raises(PinError, match="is not `path:line: severity: CODE`"):
        pins(RULES["PF502"], example)
