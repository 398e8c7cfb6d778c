"""PF349 optimizer-name-contradicts-parameters: an optimizer named for one part of a paired model is built
over the other part's parameters (``trainer_E = Adam(model.decoder_params)``, ``optD = Adam(netG.parameters())``)."""

from __future__ import annotations

import ast
import re
from typing import Iterable, Optional

from preflight.analysis.context import FileContext
from preflight.diagnostics import Category, Finding, Severity
from preflight.registry import register
from preflight.rules._pf4_support import calls, dotted_text, kwarg, target_text
from preflight.rules.base import Rule, examples

# the parts of the paired models whose names say which is which
_ROLE_WORDS = {
    "encoder": "encoder", "enc": "encoder",
    "decoder": "decoder", "dec": "decoder",
    "generator": "generator", "gen": "generator",
    "discriminator": "discriminator", "disc": "discriminator",
    "actor": "actor", "critic": "critic",
}
# one-letter names, read only beside a word that says what the name is (``optimizer_G``, ``netD``)
_LETTERS = {"e": "encoder", "g": "generator", "d": "discriminator"}
_OPTIMIZER_WORDS = frozenset({"opt", "optim", "optimizer", "optimiser", "trainer", "solver"})
_MODULE_WORDS = frozenset({"net", "model", "params", "parameters", "module", "self"})
_OPPOSITE = {"encoder": "decoder", "decoder": "encoder", "generator": "discriminator",
             "discriminator": "generator", "actor": "critic", "critic": "actor"}


def _words(text: str) -> list[str]:
    """``trainer_E`` -> trainer, e; ``optimizerG`` -> optimizer, g; ``model.decoder_params`` -> model, decoder,
    params."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def _roles(text: str, context: frozenset) -> set[str]:
    words = _words(text)
    roles = {_ROLE_WORDS[w] for w in words if w in _ROLE_WORDS}
    if any(w in context for w in words):
        roles |= {_LETTERS[w] for w in words if w in _LETTERS}
    return roles


def _params_text(call: ast.Call) -> Optional[str]:
    """The text of a plain parameter source: ``netG`` of ``netG.parameters()``, ``model.decoder_params``."""
    arg = call.args[0] if call.args else kwarg(call, "params")
    if isinstance(arg, ast.Call) and not arg.args and not arg.keywords and isinstance(arg.func, ast.Attribute) \
            and arg.func.attr == "parameters":
        return dotted_text(arg.func.value)
    return dotted_text(arg)


@register
class OptimizerNameContradictsParameters(Rule):
    code = "PF349"
    name = "optimizer-name-contradicts-parameters"
    severity = Severity.WARNING
    category = Category.CORRECTNESS
    summary = ("an optimizer named for one part of a paired model (encoder/decoder, generator/discriminator, "
               "actor/critic) is built over the other part's parameters")
    frameworks = ("pytorch",)
    needs_text = ("optim",)
    explanation = """
## What it finds

An assignment `NAME = torch.optim.X(PARAMS, ...)` where `NAME` says it is the optimizer of
one part of a paired model and `PARAMS` (a plain `m.parameters()` or a name/attribute such as
`model.decoder_params`) names the other part only:

* encoder / decoder (`enc`, `dec`, the letter `E` beside an optimizer word: `trainer_E`);
* generator / discriminator (`gen`, `disc`, `G`, `D`: `optimizer_D`, `netG`);
* actor / critic.

## Why it matters

The loss stepped through that optimizer updates the wrong network: the optimizer named for the
encoder moves the decoder's weights (and the decoder's optimizer, usually, the encoder's), so
each part is trained on the other's objective. Nothing fails. Reported in
wiseodd/controlled-text-generation issue 15 ("Bug in optimizer usage": `trainer_G =
optim.Adam(model.encoder_params)`, `trainer_E = optim.Adam(model.decoder_params)`; "Not only
does this is unintuitive, but also this is a bug. I have pushed the fix.").

## How to fix it

Build each optimizer over the parameters of the part it is named for, or rename it if the name
is what is wrong.

## When preflight stays silent

* The parameters name both parts or neither (`model.parameters()`, parameter groups, a list
  such as `[*netE.parameters(), *netG.parameters()]`: ALI trains its encoder through the
  generator's optimizer on purpose).
* Pairs preflight does not treat as opposite (a generator optimizer over a decoder, as in a
  VAE-GAN whose generator is the decoder).
* A one-letter name without an optimizer word (`E`, `G`) or module word (`netG`) beside it.
"""
    bad_examples = examples("preflight.rules.code._pf349_examples", "BAD")
    good_examples = examples("preflight.rules.code._pf349_examples", "GOOD")

    def check(self, ctx: FileContext) -> Iterable[Finding]:
        for call, qual in calls(ctx):
            parts = qual.split(".")
            if not (len(parts) == 3 and parts[:2] == ["torch", "optim"] and parts[2][:1].isupper()):
                continue
            stmt = ctx.parent(call)
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            name = target_text(stmt.targets[0])
            params = _params_text(call)
            if name is None or params is None:
                continue
            own = _roles(name.rsplit(".", 1)[-1], _OPTIMIZER_WORDS)
            theirs = _roles(params, _MODULE_WORDS)
            if len(own) != 1 or len(theirs) != 1:
                continue
            role, other = next(iter(own)), next(iter(theirs))
            if _OPPOSITE[role] != other:
                continue
            yield ctx.finding(
                self, call,
                f"`{name}` reads as the {role}'s optimizer but is built over `{params}`, the {other}'s "
                f"parameters: every loss stepped through `{name}` updates the {other}, and the {role} is "
                f"trained by whichever optimizer holds its parameters, if any. Build it over the {role}'s "
                f"parameters (or rename it)",
                evidence=[ctx.evidence(stmt.targets[0], f"named for the {role}")])
