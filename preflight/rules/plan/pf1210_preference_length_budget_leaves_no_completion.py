"""PF1210 preference-length-budget-leaves-no-completion: a TRL preference trainer whose prompt budget
(``max_prompt_length``) or generation budget (``max_new_tokens``) is as large as the whole sequence budget
(``max_length``), so a long prompt or a full-length generation leaves zero completion tokens in the
sequence the loss is computed on."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from preflight.diagnostics import Category, Finding, Severity
from preflight.plan_rules import PlanContext, PlanRule
from preflight.registry import register
from preflight.rules._pf4_support import version_gate
from preflight.rules.base import examples

# offline preference trainers (TRL < 0.29 for DPO): the prompt is cut to max_prompt_length, then the
# prompt + completion sequence to max_length, keeping its start
_PROMPT_OWNERS = frozenset({
    "DPOConfig", "DPOTrainer", "CPOConfig", "CPOTrainer", "ORPOConfig", "ORPOTrainer",
    "KTOConfig", "KTOTrainer", "BCOConfig", "BCOTrainer",
})
# online trainers: max_new_tokens are generated, then prompt + completion is cut to max_length
_ONLINE_OWNERS = frozenset({"OnlineDPOConfig", "XPOConfig", "NashMDConfig"})
# OnlineDPOConfig took max_length in TRL 0.14 (default 256, later 512): a generation budget of 512 or
# more exceeds either default
_ONLINE_DEFAULT_SINCE: Optional[tuple[int, ...]] = (0, 14)
_ONLINE_DEFAULT_MAX_LENGTH = 512


def _int(value: Any) -> Optional[int]:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _encoder_decoder(idx: Any, site: Any) -> bool:
    """``is_encoder_decoder=True`` or a ``max_target_length``: the prompt is the encoder's input and the
    completion the decoder's, each with its own budget; ``max_length`` does not cut the pair."""
    if site.kwarg("max_target_length") is not None:
        return True
    flag = site.kwarg("is_encoder_decoder")
    if flag is None:
        return False
    found = idx.resolve(flag)
    return found is None or found.value is not False


@register
class PreferenceLengthBudgetLeavesNoCompletion(PlanRule):
    code = "PF1210"
    name = "preference-length-budget-leaves-no-completion"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    frameworks = ("trl",)
    summary = ("A TRL preference trainer's `max_prompt_length` (or an online trainer's `max_new_tokens`) is at "
               "least `max_length`: a long prompt or a full-length generation leaves no completion tokens, and "
               "the loss on those pairs is constant, zero-gradient or NaN")
    explanation = """
## What it finds

One call of a TRL preference config or trainer that sets both lengths to values preflight can
read, with the first at least as large as the second:

* `DPOConfig` / `DPOTrainer`, `CPOConfig` / `CPOTrainer` (SimPO is `CPOConfig(loss_type="simpo")`),
  `ORPOConfig` / `ORPOTrainer`, `KTOConfig` / `KTOTrainer`, `BCOConfig` / `BCOTrainer`:
  `max_prompt_length >= max_length`;
* `OnlineDPOConfig`, `XPOConfig`, `NashMDConfig`: `max_new_tokens >= max_length`.

## Why it matters

`max_length` is the budget of the whole sequence, prompt plus completion. The offline trainers
first cut the prompt to `max_prompt_length` and then the concatenated prompt + completion to
`max_length`, keeping its start. With a prompt budget as large as the whole budget, every pair
whose prompt reaches `max_length` tokens keeps no chosen and no rejected token: the masked
log-probabilities are 0 for both, the DPO loss sits at log 2 with a zero gradient, and
length-normalised losses divide by zero (huggingface/trl issue 3339: SimPO with
`max_prompt_length = max_length = 2048` gives a NaN loss). Nothing fails; those pairs just do
not train, or poison the run. The online trainers generate `max_new_tokens` and then cut
prompt + completion to `max_length` from the left: a generation budget of `max_length` or more
leaves a zero-length completion and the step fails after the model was loaded and the first
batch generated (huggingface/trl issue 3042, OnlineDPO with `max_new_tokens=1024` and the
default `max_length=512`).

The same pair of keys in a recipe YAML/JSON that `TrlParser` or the alignment-handbook parser
reads into the config (`--config recipe.yaml`) is checked when a script of the job builds one of
the offline trainers and the launch line overrides neither length.

## How to fix it

Keep room for the completion: `max_prompt_length` well below `max_length` (the TRL examples
use half: `max_length=1024, max_prompt_length=512`), and `max_length` above the longest
prompt plus `max_new_tokens` for the online trainers.

## When preflight stays silent

* `max_prompt_length` below `max_length` (`max_length // 2`, `max_length - 16`), or
  `max_new_tokens` below `max_length`.
* Either length cannot be read (a value from a config file or a function argument with no
  default), or an offline trainer's length is left at its default (512 / 1024 leave room). For
  the online trainers an omitted `max_length` is taken as its default, 512 (256 in TRL 0.14),
  unless the project declares TRL older than 0.14, which had no `max_length` there.
* An encoder-decoder call (`is_encoder_decoder=True`, or a `max_target_length` given
  beside it, which only the encoder-decoder path reads): the prompt feeds the encoder and the completion has
  its own budget (a real T5 DPO script passes `max_prompt_length=max_length,
  max_length=max_length * 2, is_encoder_decoder=True`).
* `max_prompt_length` of a trainer that has no `max_length` budget over the concatenated pair
  (`GRPOConfig`, verl's `data.max_prompt_length`): there the completion has its own budget.
"""
    bad_examples = examples("preflight.rules.plan._pf1210_examples", "PF1210_BAD")
    good_examples = examples("preflight.rules.plan._pf1210_examples", "PF1210_GOOD")

    def check_plan(self, pctx: PlanContext) -> Iterable[Finding]:
        for script in pctx.scripts:
            idx = pctx.index(script)
            for site in idx.calls:
                q = site.qualified or ""
                last = site.last or ""
                if not q.startswith("trl.") or last not in _PROMPT_OWNERS | _ONLINE_OWNERS:
                    continue
                if idx.runs(site) is False:
                    continue
                if last in _PROMPT_OWNERS and _encoder_decoder(idx, site):
                    continue
                part_key = "max_prompt_length" if last in _PROMPT_OWNERS else "max_new_tokens"
                part_expr, whole_expr = site.kwarg(part_key), site.kwarg("max_length")
                if part_expr is None:
                    continue
                part_r = idx.resolve(part_expr)
                part = _int(part_r.value) if part_r is not None else None
                how = ""
                whole: Optional[int]
                if whole_expr is None:
                    # only the online trainers' default is fixed across releases that have it
                    if last in _PROMPT_OWNERS or _ONLINE_DEFAULT_SINCE is None:
                        continue
                    gate = version_gate(pctx, "trl", script, _ONLINE_DEFAULT_SINCE, "TRL 1.x")
                    if gate is None:
                        continue
                    whole, how = _ONLINE_DEFAULT_MAX_LENGTH, f" (the default; {gate[0]})"
                else:
                    whole_r = idx.resolve(whole_expr)
                    whole = _int(whole_r.value) if whole_r is not None else None
                if part is None or whole is None or whole <= 0 or part < whole:
                    continue
                if last in _PROMPT_OWNERS:
                    message = (
                        f"`{last}(max_prompt_length={part}, max_length={whole})`: `max_length` is the budget of "
                        "prompt + completion, and the prompt alone may fill it; every pair whose prompt reaches "
                        f"{whole} tokens keeps no chosen or rejected token, so its loss is a constant log 2 with "
                        "zero gradient (NaN for length-normalised losses such as SimPO); keep "
                        "`max_prompt_length` well below `max_length` (e.g. half)")
                else:
                    message = (
                        f"`{last}(max_new_tokens={part})` with `max_length={whole}`{how}: the prompt + completion is cut to "
                        f"`max_length` from the left, so a {part}-token generation leaves no completion tokens "
                        "and the first training step fails after generation; make `max_length` exceed the longest "
                        "prompt plus `max_new_tokens`")
                yield pctx.code_finding(self, script, part_expr, message)
        yield from self._configs(pctx)

    def _configs(self, pctx: PlanContext) -> Iterable[Finding]:
        """A recipe YAML/JSON read into the config by ``TrlParser`` / ``H4ArgumentParser`` (the
        alignment-handbook and SimPO recipes), in a job whose script builds an offline preference
        trainer, when the launch line overrides neither length."""
        owners = set()
        for script in pctx.scripts:
            for site in pctx.index(script).calls:
                if (site.qualified or "").startswith("trl.") and (site.last or "") in _PROMPT_OWNERS:
                    owners.add(site.last or "")
        if not owners:
            return
        argv = " ".join(pctx.project.argv or ())
        if "--max_length" in argv or "--max_prompt_length" in argv or "--is_encoder_decoder" in argv:
            return
        for config in pctx.configs:
            data = config.data
            if not isinstance(data, dict) or data.get("is_encoder_decoder") is True:
                continue
            part, whole = _int(data.get("max_prompt_length")), _int(data.get("max_length"))
            if part is None or whole is None or whole <= 0 or part < whole:
                continue
            yield pctx.config_finding(
                self, config, ("max_prompt_length",),
                f"`max_prompt_length: {part}` with `max_length: {whole}` for {'/'.join(sorted(owners))}: "
                "`max_length` is the budget of prompt + completion, and the prompt alone may fill it; every "
                f"pair whose prompt reaches {whole} tokens keeps no chosen or rejected token, so its loss is a "
                "constant log 2 with zero gradient (NaN for length-normalised losses such as SimPO); keep "
                "`max_prompt_length` well below `max_length` (e.g. half)")
