"""Plan facts a plain training script states in its own code, outside any framework's config:

- **Gradient accumulation by loss scaling**: ``backward(loss / K)`` (``loss.backward()``,
  ``fabric.backward``, ``accelerator.backward``), directly or through a helper of the script
  whose parameter is back-propagated (microsoft/LoRA ``examples/NLG/src/gpt2_ft.py:205``
  ``optimizer_step(_lm_loss/(args.grad_acc), ...)`` and ``:122-127`` ``_loss.backward()``;
  lit-llama ``finetune/lora.py:124`` ``fabric.backward(loss / gradient_accumulation_iters)``):
  ``batch.grad_accum`` = K when K resolves to a positive int and the script also counts steps
  by K (``step % K``, ``range(K)``): a loss divided by a batch size is not accumulation (medium).
- **A GPT-shaped config built in the script**: ``SomeConfig(n_layer=L, n_embd=d, ...)`` (or
  ``num_layers``/``hidden_size``) on the branch that runs (microsoft/LoRA ``gpt2_ft.py:299-319``
  picks one of three by ``--model_card``): ``12*L*d^2 + (vocab + positions)*d`` parameters, the
  vocabulary and positions from the call or the class's ``__init__`` defaults in a local module
  (``src/model.py`` ``vocab_size_or_config_json_file=50257, n_positions=1024``), medium.
- **Lightning Fabric constructed in the script** (``L.Fabric(accelerator="cuda", devices=1,
  precision="bf16-true")``, lit-llama ``finetune/lora.py:62``) and launched with plain
  ``python``: ``precision`` (Fabric's names), ``devices``/``num_nodes`` when ints. Under ``fabric
  run`` the launcher's facts stand alone (Fabric refuses a code argument that differs from the
  command line's).

Nothing is imported or executed.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Optional

from preflight.adapters.launchers_fabric import PRECISION, is_fabric

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.local_trees import nodes_of, parse_file
from preflight.plan import Source, TrainingPlan
from preflight.registry import register_adapter

_BACKWARD = ("backward",)
_LAYERS = ("n_layer", "num_layers", "num_hidden_layers")
_WIDTH = ("n_embd", "hidden_size", "d_model")
_VOCAB = ("vocab_size", "vocab_size_or_config_json_file", "n_vocab")
_POS = ("n_positions", "n_ctx", "block_size", "max_position_embeddings")
_MAX_BYTES = 500_000


_dotted = dotted_name


def _optimizer_step(call: ast.Call, optimizers: frozenset[str] = frozenset()) -> bool:
    """``optimizer.step()``, or ``scaler.step(optimizer)`` through an AMP grad scaler (jaywalnut310/vits
    @ 2e561ba ``train.py:176,193``: ``scaler.step(optim_d)`` and ``scaler.step(optim_g)`` on every batch).
    A name bound to an optimizer the script builds counts whatever it is called (willisma/SiT @ 947f95b
    ``train.py:181,251-253``: ``opt = torch.optim.AdamW(...)``, ``opt.step()``)."""
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr == "step"):
        return False
    owner = _dotted(f.value) or ""
    if not call.args:
        return "optim" in owner.lower() or owner in optimizers
    inner = _dotted(call.args[0]) or ""
    return "scaler" in owner.lower() and len(call.args) == 1 and ("optim" in inner.lower() or inner in optimizers)


def _optimizer_names(tree: ast.AST) -> frozenset[str]:
    """Names the script binds only to a ``torch.optim`` (or other ``optim`` module's) class: ``opt =
    torch.optim.AdamW(...)``. A name bound again otherwise (``model, opt = accelerator.prepare(model, opt)``:
    a wrapper that may skip steps while accumulating) is not one."""
    out: set[str] = set()
    other: set[str] = set()
    for node in nodes_of(tree):
        if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = node.value
        for target in targets:
            if isinstance(target, (ast.Tuple, ast.List)):
                other.update(n for n in (_dotted(e) for e in target.elts) if n)
                continue
            name = _dotted(target)
            if not name:
                continue
            func = (_dotted(value.func) or "") if isinstance(value, ast.Call) else ""
            parts = func.split(".")
            if isinstance(node, ast.Assign) and len(parts) >= 2 \
                    and any(p.lower() in ("optim", "optimizers") for p in parts[:-1]) and parts[-1][:1].isupper():
                out.add(name)
            else:
                other.add(name)
    return frozenset(out - other)


def _calls_at_level(stmt: ast.stmt) -> list[ast.Call]:
    """The calls of a statement of a loop's body that run each time it runs: not those under an
    ``if``/``with``/``try`` or a nested loop or function of it."""
    if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
                         ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    return [n for n in ast.walk(stmt) if isinstance(n, ast.Call)]


def _flat_body(body: list[ast.stmt]) -> Any:
    """A loop body's statements in order, the bodies of its ``with`` blocks inlined (they run
    every time); ``if``/``try``/nested loops stay whole (``_calls_at_level`` skips them)."""
    for stmt in body:
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from _flat_body(stmt.body)
        else:
            yield stmt


def _switched_steps(loop: ast.AST) -> set[int]:
    """ids of the ``.step()`` calls inside an ``if`` of ``loop`` whose same block calls ``backward()``
    before them (and holds no loop of its own)."""
    out: set[int] = set()
    for node in ast.walk(loop):
        if not isinstance(node, ast.If) or any(isinstance(n, ast.Mod) for n in ast.walk(node.test)):
            continue  # ``if (i + 1) % K == 0``: a step count, the accumulation shape
        for block, other in ((node.body, node.orelse), (node.orelse, node.body)):
            if any(isinstance(n, ast.Attribute) and n.attr == "backward" for st in other for n in ast.walk(st)):
                continue  # backward in both arms: one arm steps, the other only accumulates
            if any(isinstance(n, (ast.For, ast.AsyncFor, ast.While)) for st in block for n in ast.walk(st)):
                continue
            calls = [n for st in block for n in ast.walk(st) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Attribute)]
            first = next((c.lineno for c in calls if c.func.attr == "backward"), None)  # type: ignore[attr-defined]
            if first is None:
                continue
            out.update(id(c) for c in calls if c.func.attr == "step" and c.lineno >= first)  # type: ignore[attr-defined]
    return out


def _backpropagated(call: ast.Call) -> Optional[str]:
    """The name of the tensor a ``backward`` call back-propagates: ``loss.backward()``,
    ``scaler.scale(loss).backward()``, ``fabric.backward(loss)``, ``outputs["loss"]``'s
    ``outputs``."""
    f = call.func
    assert isinstance(f, ast.Attribute)
    expr: Optional[ast.expr] = None
    if call.args:
        expr = call.args[0]
    elif isinstance(f.value, ast.Call) and isinstance(f.value.func, ast.Attribute) \
            and f.value.func.attr == "scale" and f.value.args:
        expr = f.value.args[0]
    else:
        expr = f.value
    while isinstance(expr, (ast.Subscript, ast.Attribute)):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _assigns(stmt: ast.stmt, name: str, computed: bool = False) -> bool:
    """Whether a statement binds ``name`` (``=``, annotated, in a tuple target); ``loss /= k``
    rescales it and does not count. ``computed``: only from a value that calls something (the
    forward, a loss function), not a constant (``loss = 0`` before an accumulation loop)."""
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    value = getattr(stmt, "value", None)
    if computed and not (value is not None and any(isinstance(n, ast.Call) for n in ast.walk(value))):
        return False
    for t in targets:
        for n in ast.walk(t):
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store):
                return True
    return False


def _writes(stmt: ast.stmt, name: str) -> bool:
    """Whether a statement, or anything nested in it (an inner loop, a ``with``), stores to
    ``name``: ``=``, ``+=``, a tuple or ``for`` target."""
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
               for n in ast.walk(stmt))


def _skips_to_next_pass(body: list[ast.stmt], step: ast.AST) -> bool:
    """A ``continue`` of ``loop`` after a backward and before ``step`` (Guitaricet/relora @ 176f376
    ``torchrun_main.py:796-800`` ``scaled_loss.backward()``; ``if global_step % args.gradient_accumulation != 0:
    continue``; the update below): some passes back-propagate and never reach the step. A ``continue``
    before the backward (``if batch is None: continue``) skips both and is not this. ``body`` is the loop's
    statements with the ``if``s the launch decides already taken (:func:`.loop_branches.decided`): facebookresearch/SLIP
    @ c6faf5d ``main.py:306-307`` ``if (data_iter + 1) % args.update_freq != 0: continue`` with ``--update_freq``'s
    default 1 never skips."""
    backward = [n.lineno for st in body for n in ast.walk(st) if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute) and n.func.attr in _BACKWARD]
    if not backward:
        return False
    first, at = min(backward), getattr(step, "lineno", 0)
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue  # a nested loop's own continue
        if isinstance(node, ast.Continue) and first < node.lineno < at:
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _int(value: Any) -> Optional[int]:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


@register_adapter
class LoopShapesAdapter(Adapter):
    name = "loop_shapes"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        return any(s.tree is not None and ("backward" in s.source.text or "Fabric(" in s.source.text
                                           or "n_layer" in s.source.text) for s in project.scripts)

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            if script.tree is None:
                continue
            idx = project.index(script)
            self.accumulation(project, plan, script, idx)
            if plan.value("batch.grad_accum") is None:
                self.micro_loop(project, plan, script, idx)
            if plan.value("batch.grad_accum") is None:
                self.every_batch(project, plan, script)
            self.gpt_config(project, plan, script, idx)
            self.fabric(project, plan, script, idx)
            self.zero_grad_order(project, plan, script)

    # -- backward(loss / K) --------------------------------------------------------
    def accumulation(self, project: Project, plan: TrainingPlan, script: Any, idx: Any) -> None:
        helpers = _backward_params(script.tree)
        steps = _step_counts(script.tree)
        for site in idx.calls:
            divisor: Optional[ast.expr] = None
            what = ""
            if site.call.func is not None and isinstance(site.call.func, ast.Attribute) \
                    and site.call.func.attr in _BACKWARD:
                args = list(site.call.args)
                expr = args[0] if args else site.call.func.value
                divisor, what = _divisor(expr), f"{site.label}(loss / K)"
                if divisor is None:
                    divisor = _scaled_before(script.tree, expr, site.call)
                    what = f"{site.label}() of a loss divided by K just before"
            elif isinstance(site.call.func, ast.Name) and site.call.func.id in helpers:
                pos = helpers[site.call.func.id]
                if pos < len(site.call.args):
                    divisor = _divisor(site.call.args[pos])
                    what = f"{site.call.func.id}(loss / K, ...), whose parameter is back-propagated"
            if divisor is None or idx.runs(site) is False or ast.dump(divisor) not in steps:
                continue  # a loss divided by what no step condition counts (a batch size) is no accumulation
            resolved = idx.resolve(divisor)
            if resolved is None or _int(resolved.value) is None:
                continue
            detail = f"{what}: the loss is scaled for {resolved.value} micro-batches per step"
            if resolved.kind == "cli":
                source = Source("cli", None, None, resolved.key, f"{detail}; {resolved.detail}")
            else:
                line = resolved.line or site.line
                source = project.source(script, line, "code", key=resolved.key,
                                        detail=f"{detail}; {resolved.detail}" if resolved.detail else detail)
            self.add_checked(plan, "batch.grad_accum", resolved.value, source, "medium")
            return

    def micro_loop(self, project: Project, plan: TrainingPlan, script: Any, idx: Any) -> None:
        """``for _ in range(K): ... loss.backward()`` inside the training loop (adapters/micro_loop.py)."""
        from preflight.adapters.micro_loop import micro_steps

        got = micro_steps(idx, script.tree)
        if got is None:
            return
        loop, resolved = got
        count = ast.unparse(loop.iter.args[0]) if isinstance(loop.iter, ast.Call) else "K"
        detail = f"backward() in every pass of a range({count}) micro-step loop " \
                 f"with no optimizer step: {resolved.value} micro-batches per step"
        if resolved.detail:
            detail += f"; {resolved.detail}"
        self.add_checked(plan, "batch.grad_accum", resolved.value,
                         project.source(script, loop, "code", key=resolved.key, detail=detail), "medium")

    # -- the optimizer steps on every batch -----------------------------------------------
    def every_batch(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        """A loop whose body calls ``backward`` and then the optimizer's ``step()`` on every pass,
        neither under an ``if`` of the loop nor in a loop of their own (salesforce/BLIP
        ``train_caption.py:44-48`` at 056a169: ``optimizer.zero_grad(); loss.backward();
        optimizer.step()``): no gradient accumulation, 1 (medium, a fallback: a framework's or a
        config's count outranks it). Several steps on every pass (a GAN's two optimizers, each through
        an AMP scaler: ``scaler.step(optim_d)``, ``scaler.step(optim_g)``) are still one step per batch, and
        so is an ``if``/``else`` whose two ways each back-propagate and step (:mod:`.loop_branches`).
        Two such loops, a step under a condition (``if (i + 1) % K == 0``), or a ``no_sync`` context
        say nothing."""
        from preflight.adapters.loop_branches import decided, decider, stepped_calls

        found: list[ast.AST] = []
        optimizers = _optimizer_names(script.tree)
        decide = decider(project.index(script))
        inside: set[int] = set()  # the nodes of a loop read here: a nested loop is part of that reading
        for loop in nodes_of(script.tree):
            if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or id(loop) in inside:
                continue
            # the two ways of an ``if``/``else`` that each back-propagate and step count (adapters/loop_branches.py),
            # and an ``if`` the launch line decides is the way it takes
            body = decided(loop.body, decide)
            stepped, steps, left = stepped_calls(body, lambda c: _optimizer_step(c, optimizers))
            if not stepped and not left:
                continue
            # a step in an ``if`` block that also runs its own backward first switches that update on or
            # off (NVIDIA/BigVGAN @ 7d2b4545 train.py:506-514 ``if steps >= a.freeze_step:
            # loss_disc_all.backward(); ...; optim_d.step()``, the discriminator frozen at first): not accumulation
            switched = _switched_steps(loop)
            deep = [n for st in body for n in ast.walk(st) if isinstance(n, ast.Call) and id(n) not in switched
                    and isinstance(n.func, ast.Attribute) and n.func.attr in ("step", "no_sync", "no_backward_sync")]
            if not steps or any(isinstance(n.func, ast.Attribute) and n.func.attr != "step" for n in deep) or \
                    any(_optimizer_step(n, optimizers) and not any(n is s for s in steps) for n in deep):
                return  # a conditional optimizer step, or a no_sync context: not this reading
            if _skips_to_next_pass(body, steps[0]):
                return  # ``if step % K != 0: continue`` between backward and step: a gated step
            found.append(steps[0])
            inside.update(id(n) for st in loop.body for n in ast.walk(st))
        if len(found) != 1:
            return
        self.add_checked(plan, "batch.grad_accum", 1,
                         project.source(script, found[0], "code", detail="backward() then the optimizer's step() on "
                                        "every pass of the loop: no gradient accumulation"), "medium", -1)

    # -- forward, loss, zero_grad(), backward ------------------------------------------
    def zero_grad_order(self, project: Project, plan: TrainingPlan, script: Any) -> None:
        """A loop whose body computes the loss, then calls ``zero_grad()``, then back-propagates
        that loss (rasbt/pytorch-memory-optim ``01_pytorch-vit.py:29-33`` at 9c10216: ``logits =
        model(features)``, ``loss = F.cross_entropy(logits, targets)``, ``optimizer.zero_grad()``,
        ``loss.backward()``): the previous step's gradients are alive through every forward
        (``optimizer.zero_grad_after_forward``, medium). The statements are the loop body's own,
        ``with`` blocks included (an autocast around the forward); a ``zero_grad`` or ``backward``
        under an ``if`` (accumulation) does not count. The back-propagated tensor is the receiver
        of ``.backward()`` (``scaler.scale(loss).backward()``: the scaled one) or the first
        argument of ``fabric.backward(loss)`` / ``accelerator.backward(loss)``; it must be
        computed (from a call) before the ``zero_grad`` and not written again, nested statements
        included, between it and the backward (``loss = 0``, ``zero_grad()``, then ``loss +=
        model(...)`` in an inner loop is the forward after it). Two such loops say nothing."""
        found: list[ast.Call] = []
        for loop in nodes_of(script.tree):
            if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)):
                continue
            body = list(_flat_body(loop.body))
            zero: Optional[tuple[int, ast.Call]] = None
            back: Optional[tuple[int, ast.Call]] = None
            for i, stmt in enumerate(body):
                for call in _calls_at_level(stmt):
                    f = call.func
                    if not isinstance(f, ast.Attribute):
                        continue
                    if f.attr == "zero_grad" and zero is None and back is None:
                        zero = (i, call)
                    elif f.attr == "backward" and back is None:
                        back = (i, call)
            if zero is None or back is None or zero[0] >= back[0]:
                continue
            name = _backpropagated(back[1])
            if name is None:
                continue
            computed = [i for i, stmt in enumerate(body[:zero[0]]) if _assigns(stmt, name, computed=True)]
            rewritten = any(_writes(stmt, name) for stmt in body[zero[0] + 1:back[0]])
            if computed and not rewritten:
                found.append(zero[1])
        if len(found) != 1:
            return
        self.add_checked(plan, "optimizer.zero_grad_after_forward", True,
                         project.source(script, found[0], "code",
                                        detail="zero_grad() after the loss is computed and before its "
                                               "backward: the previous step's gradients live through the "
                                               "forward"), "medium")

    # -- SomeConfig(n_layer=L, n_embd=d) ---------------------------------------------
    def gpt_config(self, project: Project, plan: TrainingPlan, script: Any, idx: Any) -> None:
        found = []
        for site in idx.calls:
            name = site.last or (site.call.func.id if isinstance(site.call.func, ast.Name) else "")
            if not name or not name.endswith("Config"):
                continue
            kw = {k.arg: k.value for k in site.call.keywords if k.arg}
            layers = next((kw[k] for k in _LAYERS if k in kw), None)
            width = next((kw[k] for k in _WIDTH if k in kw), None)
            if layers is None or width is None:
                continue
            runs = idx.runs(site)
            if runs is False:
                continue
            found.append((site, kw, runs))
        decided = [f for f in found if f[2] is True]
        pick = decided if len(decided) == 1 else found if len(found) == 1 else []
        if not pick:
            return
        site, kw, _runs = pick[0]
        values = {}
        for keys in (_LAYERS, _WIDTH, _VOCAB, _POS):
            expr = next((kw[k] for k in keys if k in kw), None)
            got = idx.resolve(expr) if expr is not None else None
            values[keys[0]] = _int(got.value) if got is not None else None
        layers, width = values["n_layer"], values["n_embd"]
        if layers is None or width is None:
            return
        name = site.last or ""
        defaults = _class_defaults(Path(str(script.source.path)).parent if script.source.path else None,
                                   script.tree, name)
        vocab = values["vocab_size"] or next((_int(defaults.get(k)) for k in _VOCAB if _int(defaults.get(k))), None)
        pos = values["n_positions"] or next((_int(defaults.get(k)) for k in _POS if _int(defaults.get(k))), None)
        if vocab is None:
            return
        count = 12 * layers * width ** 2 + (vocab + (pos or 0)) * width
        detail = (f"{site.label}(...) at line {site.line}: 12*{layers}*{width}^2 + ({vocab} vocabulary"
                  f"{f' + {pos} positions' if pos else ''})*{width} (GPT blocks; biases and norms left out)")
        from preflight.adapters.hf_config_count import hf_config_count

        family = hf_config_count(site.qualified or "", name, kw, idx.resolve)
        if family is not None:
            count, detail = family[0], f"{family[1]} (line {site.line})"
        self.add_checked(plan, "model.num_parameters", count, project.source(script, site.call, "code", detail=detail),
                         "medium")

    # -- Fabric(...) in code ---------------------------------------------------------
    def fabric(self, project: Project, plan: TrainingPlan, script: Any, idx: Any) -> None:
        sites = [s for s in idx.calls if (s.qualified or "").endswith(("lightning.Fabric", "fabric.Fabric"))
                 and idx.runs(s) is not False]
        argv = [str(a) for a in (project.argv or [])]
        if len(sites) != 1 or any(is_fabric(argv, i) >= 0 for i in range(len(argv) - 1)):
            return  # `fabric run`: its options are the launch facts (a differing Fabric(...) argument is an error)
        site = sites[0]
        conf = "high" if idx.runs(site) else "medium"
        from preflight.adapters.fabric_strategy import fabric_strategy_facts

        fabric_strategy_facts(self, project, plan, script, idx, site)  # strategy=FSDPStrategy(...)
        precision = idx.resolve(site.kwarg("precision"))
        if precision is not None and str(precision.value) in PRECISION:
            self.add_checked(plan, "precision.mode", PRECISION[str(precision.value)],
                             project.source(script, site.call, "code",
                                            detail=f"{site.label}(precision={precision.value!r})"), conf)
        devices = idx.resolve(site.kwarg("devices"))
        nodes_expr = site.kwarg("num_nodes")
        nodes = idx.resolve(nodes_expr) if nodes_expr is not None else None
        n_dev = _int(devices.value) if devices is not None else None
        n_nodes = (_int(nodes.value) if nodes is not None else None) if nodes_expr is not None else 1
        if n_dev is None:
            return
        self.add_checked(plan, "dist.devices_per_node", n_dev,
                         project.source(script, site.call, "code", detail=f"{site.label}(devices={n_dev})"), conf)
        if n_nodes is not None:
            self.add_checked(plan, "dist.world_size", n_dev * n_nodes,
                             project.source(script, site.call, "code",
                                            detail=f"{site.label}(devices={n_dev}, num_nodes={n_nodes})"), conf)


def _divisor(expr: Optional[ast.AST]) -> Optional[ast.expr]:
    """K of ``loss / K`` (the numerator must name a loss)."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Div):
        text = ast.unparse(expr.left).lower()
        if "loss" in text:
            return expr.right
    return None


def _scaled_before(tree: ast.AST, expr: Optional[ast.AST], call: ast.Call) -> Optional[ast.expr]:
    """K of ``loss = loss / K`` (or ``loss /= K``) in the loop around ``loss.backward()``, before it
    (karpathy/build-nanogpt @ 6104ab1 ``train_gpt2.py:486-500``: ``for micro_step in
    range(grad_accum_steps):`` ... ``loss = loss / grad_accum_steps`` ... ``loss.backward()``)."""
    if not isinstance(expr, ast.Name):
        return None
    loops = [n for n in nodes_of(tree) if isinstance(n, (ast.For, ast.While))
             and n.lineno <= call.lineno <= (getattr(n, "end_lineno", None) or n.lineno)
             and any(c is call for c in ast.walk(n))]
    if not loops:
        return None
    loop = max(loops, key=lambda n: n.lineno)
    found: list[ast.expr] = []
    for node in ast.walk(loop):
        if getattr(node, "lineno", call.lineno) >= call.lineno:
            continue
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == expr.id:
            got = _divisor(node.value)
            if got is not None and isinstance(node.value, ast.BinOp) and isinstance(node.value.left, ast.Name) \
                    and node.value.left.id == expr.id:
                found.append(got)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Div) and isinstance(node.target, ast.Name) \
                and node.target.id == expr.id and "loss" in expr.id.lower():
            found.append(node.value)
    return found[0] if len(found) == 1 else None


def _step_counts(tree: ast.AST) -> set[str]:
    """Expressions the script counts steps by: right operands of ``%`` (``(i + 1) % K == 0``
    before ``optimizer.step()``) and ``range(K)`` bounds of an inner micro-batch loop."""
    out: set[str] = set()
    for node in nodes_of(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            out.add(ast.dump(node.right))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
                and len(node.args) == 1:
            out.add(ast.dump(node.args[0]))
    return out


def _backward_params(tree: ast.AST) -> dict[str, int]:
    """Functions of the script whose parameter (by position) is back-propagated in their body
    (``p.backward()``, or ``amp.scale_loss(p, ...)``)."""
    out: dict[str, int] = {}
    for fn in nodes_of(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        params = [a.arg for a in fn.args.args]
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "backward" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in params:
                out[fn.name] = params.index(node.func.value.id)
                break
    return out


def _class_defaults(here: Optional[Path], tree: ast.AST, klass: str) -> dict[str, Any]:
    """Literal ``__init__`` defaults of ``klass`` in the script or a local module it imports."""
    from preflight.adapters.pytorch_local import _imported_local

    trees = [tree]
    if here is not None:
        for path in _imported_local(tree, here)[:12]:
            try:
                if path.stat().st_size <= _MAX_BYTES:
                    trees.append(parse_file(path))
            except (OSError, SyntaxError, ValueError):
                continue
    for t in trees:
        for node in nodes_of(t):
            if not (isinstance(node, ast.ClassDef) and node.name == klass):
                continue
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    args = item.args.args[-len(item.args.defaults):] if item.args.defaults else []
                    out: dict[str, Any] = {}
                    for arg, default in zip(args, item.args.defaults):
                        if isinstance(default, ast.Constant):
                            out[arg.arg] = default.value
                    return out
    return {}


def loralib(pass_: Any) -> bool:
    """loralib's API, which projects copy (microsoft/LoRA ``loralib``, lit-llama
    ``lit_llama/lora.py``): ``mark_only_lora_as_trainable(model)`` freezes all but the LoRA
    matrices: LoRA (medium: the project's own layers, not peft's). The rank is the ``r=`` of a
    ``lora(r=...)`` context call (lit-llama ``finetune/lora.py:76``) when one resolves."""
    marks = [s for s in pass_.calls if s.last == "mark_only_lora_as_trainable" and pass_.idx.runs(s) is not False]
    if not marks or any(s.last == "LoraConfig" for s in pass_.calls):
        return False
    site = marks[0]
    pass_.add("peft.method", "lora", pass_.src(site.call, f"{site.label}(...): only the LoRA matrices train"),
             "medium")
    for ctx in pass_.calls:
        if ctx.last == "lora" and ctx.kwarg("r") is not None and pass_.idx.runs(ctx) is not False:
            resolved = pass_.value(ctx.kwarg("r"))
            if resolved is not None and isinstance(resolved.value, int) and resolved.value > 0:
                pass_.put("peft.rank", resolved, ctx, f"{ctx.label}(r=...)", "medium")
            break
    return True
