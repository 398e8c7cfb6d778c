"""What a job builds under options its launch line decides, in the entry script and in the
local modules it imports.

Real training scripts hand the model set-up to a helper in a module beside them (PEFT's
``examples/sft/utils.py``: ``if args.use_peft_lora: LoraConfig(r=args.lora_r, ...)``,
``elif args.use_4bit_quantization: BitsAndBytesConfig(load_in_4bit=...)``,
``if args.use_flash_attn: model_kwargs["attn_implementation"] = "flash_attention_2"``), or
guard a construct by an option (Liger's ``if custom_args.use_liger:
AutoLigerKernelForCausalLM.from_pretrained(...)``). This reads, never imports, the entry
script and the local modules it imports (one level, beside the script, ``project.may_read``
respected), and keeps a construct only when every ``if`` and conditional expression around it
is decided: ``owner.option`` takes the value of the option the job declares under that name
(launch line, the parser's file, else the declared default: :func:`cliargs.option_resolver`),
and on the target (a CUDA GPU) ``torch.cuda.is_available()`` is true and ``torch.xpu``/``mps``/
``npu`` are not. An undecided guard keeps nothing.

Facts (``medium``: the construct's effect is the library's documented one, its guard is
decided by option values):

- ``LoraConfig(...)``/``get_peft_model`` from ``peft``: ``peft.method`` lora, ``peft.rank``
  from ``r=``; every such construct decided dead: ``peft.method`` none;
- ``BitsAndBytesConfig(load_in_4bit=/load_in_8bit=)``: ``precision.weights_bits``, with
  ``bnb_4bit_quant_type`` and ``bnb_4bit_use_double_quant``;
- ``attn_implementation`` given as a keyword or stored as ``kwargs["attn_implementation"]``;
- Liger's ``AutoLigerKernelForCausalLM``/``apply_liger_kernel_to_*``: ``loss.implementation``
  fused (unless ``fused_linear_cross_entropy=False``);
- ``task.mode`` lora/qlora when a LoRA construct is live and the job trains.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path
from typing import Any, Iterator, Optional

from preflight.adapters.guard_clause import ends_in_exit
from preflight.adapters.guarded_helpers import lora_helpers, project_modules
from preflight.adapters.pytorch_local import _imported_local

from preflight.adapters_api import Adapter, Project
from preflight.analysis.syntax import dotted_name
from preflight.plan import FIELDS, Source, TrainingPlan
from preflight.registry import register_adapter
from preflight.script_index import Guard, Resolved, ScriptIndex
from preflight.sources import ParsedPython, SourceText, parse_python, read_source, read_text_limited

_MAX_BYTES = 500_000
_ATTN = ("eager", "sdpa", "flash_attention_2", "flash_attention_3", "flex_attention")
_WORDS = re.compile(r"LoraConfig|get_peft_model|BitsAndBytesConfig|attn_implementation|[Ll]iger|_lora\b")
_NOT_HERE = ("xpu.is_available", "mps.is_available", "npu.is_available", "is_torch_xpu_available",
             "is_torch_npu_available", "is_torch_mps_available")


def _function_helper(helper: Any) -> bool:
    """A module-level function (the project's LoRA injector), not a method."""
    return not helper.fn.args.args or helper.fn.args.args[0].arg != "self"


def _layer_loops(tree: ast.AST) -> dict[int, tuple[set[str], set[int]]]:
    """``for`` loops over a model's layers (the iterable a method call or attribute chain of an
    object: ``model.named_modules()``, ``dit.attn_processors.items()``): id(loop) -> (the names the
    loop binds, by its target or in its body; ids of the nodes in its body)."""
    out: dict[int, tuple[set[str], set[int]]] = {}
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For) or not isinstance(loop.iter, (ast.Call, ast.Attribute)):
            continue
        func = loop.iter.func if isinstance(loop.iter, ast.Call) else loop.iter
        if not isinstance(func, ast.Attribute) or dotted_name(func) in (None, "") \
                or (dotted_name(func) or "").split(".")[0] in ("range", "enumerate", "zip"):
            continue
        names = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        body = {id(n) for stmt in loop.body for n in ast.walk(stmt)}
        for stmt in loop.body:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    names.add(n.id)
        out[id(loop)] = (names, body)
    return out


def _loop_test(test: ast.expr, node: ast.AST, loops: dict[int, tuple[set[str], set[int]]]) -> bool:
    """``test`` reads a name a loop over the model's layers around ``node`` binds."""
    read = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    return any(id(node) in body and read & names for names, body in loops.values())


def _device(test: ast.expr) -> Optional[bool]:
    """``torch.cuda.is_available()`` and friends on a CUDA target."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _device(test.operand)
        return None if inner is None else not inner
    if isinstance(test, ast.Call) and not test.args:
        name = dotted_name(test.func) or ""
        if name.endswith("cuda.is_available"):
            return True
        if name.endswith(_NOT_HERE):
            return False
    return None


def _walk(node: ast.AST, guards: tuple[Guard, ...] = ()) -> Iterator[tuple[ast.AST, tuple[Guard, ...]]]:
    """Every node with the ``if``/conditional-expression tests around it (iterative)."""
    stack: list[tuple[ast.AST, tuple[Guard, ...]]] = [(node, guards)]
    while stack:
        cur, gs = stack.pop()
        yield cur, gs
        if isinstance(cur, (ast.If, ast.IfExp)):
            body = cur.body if isinstance(cur.body, list) else [cur.body]
            orelse = cur.orelse if isinstance(cur.orelse, list) else [cur.orelse]
            stack.extend((c, (*gs, (cur.test, False))) for c in reversed(orelse))
            stack.extend((c, (*gs, (cur.test, True))) for c in reversed(body))
            stack.append((cur.test, gs))
            continue
        stack.extend(reversed(_children(cur, gs)))


def _children(node: ast.AST, guards: tuple[Guard, ...]) -> list[tuple[ast.AST, tuple[Guard, ...]]]:
    """``node``'s children with their guards; a statement after a guard clause ``if test: ... return``
    (no ``else``) in the same block runs only when ``test`` is false (taishan1994/DPO-Finetuning @ 6f19d2e9
    ``utils.py:19-23``: ``if model_args.use_peft is False: return None`` before ``LoraConfig(...)``)."""
    out: list[tuple[ast.AST, tuple[Guard, ...]]] = []
    for _, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            out.append((value, guards))
        elif isinstance(value, list):
            gs = guards
            for item in value:
                if isinstance(item, ast.AST):
                    out.append((item, gs))
                if isinstance(item, ast.If) and not item.orelse and ends_in_exit(item.body):
                    gs = (*gs, (item.test, False))
    return out



#: peft's configurations of methods that are not LoRA (peft/tuners/*/config.py)
_NON_LORA_CONFIGS = frozenset({"PrefixTuningConfig", "PromptTuningConfig", "PromptEncoderConfig", "IA3Config",
                               "MultitaskPromptTuningConfig", "AdaptionPromptConfig", "OFTConfig", "BOFTConfig",
                               "LNTuningConfig", "PolyConfig", "FourierFTConfig", "HRAConfig", "VBLoRAConfig",
                               "CPTConfig", "BoneConfig", "XLoraConfig", "TrainableTokensConfig"})


def _non_lora_config(tree: ast.AST, call: ast.Call) -> Optional[str]:
    """The class of a non-LoRA peft configuration given to ``get_peft_model(model, CONFIG)``: a
    call written there, or the one call a plain name is bound to in the module; None otherwise."""
    arg = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "peft_config"),
                                                       None)
    if isinstance(arg, ast.Name):
        bound = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
                 and isinstance(n.targets[0], ast.Name) and n.targets[0].id == arg.id]
        arg = bound[0] if len(bound) == 1 else None
    if isinstance(arg, ast.Call):
        name = arg.func.attr if isinstance(arg.func, ast.Attribute) else getattr(arg.func, "id", None)
        if name in _NON_LORA_CONFIGS:
            return name
    return None


class _Module:
    def __init__(self, parsed: ParsedPython, idx: ScriptIndex, display: str) -> None:
        self.parsed, self.idx, self.display = parsed, idx, display

    def live(self, guards: tuple[Guard, ...]) -> Optional[bool]:
        state: Optional[bool] = True
        for test, in_body in guards:
            value = _device(test)
            if value is None:
                value = self.idx.truth(test)
            if value is None:
                state = None
            elif value != in_body:
                return False
        return state


@register_adapter
class GuardedAdapter(Adapter):
    name = "guarded"
    frameworks = ()

    def detect(self, project: Project) -> bool:
        for script in project.scripts:
            if _WORDS.search(script.source.text):
                return True
            path = Path(str(script.source.path))
            if path.is_file():
                for local in _imported_local(script.tree, path.resolve().parent)[:12]:
                    try:
                        if local.stat().st_size <= _MAX_BYTES and project.may_read(local) \
                                and _WORDS.search(read_text_limited(local, errors="replace")):
                            return True
                    except (OSError, ValueError):
                        continue
        return False

    def contribute(self, project: Project, plan: TrainingPlan) -> None:
        for script in project.scripts:
            _Pass(self, project, plan, script).run()


class _Pass:
    def __init__(self, adapter: GuardedAdapter, project: Project, plan: TrainingPlan, script: ParsedPython) -> None:
        self.adapter, self.project, self.plan, self.script = adapter, project, plan, script
        self.selected: set[int] = set()  # LoRA layer constructions live once the loop's own tests are set aside
        entry = project.index(script)
        self.modules = [_Module(script, entry, str(script.source.display))]
        path = Path(str(script.source.path))
        if path.is_file():
            for local in _imported_local(script.tree, path.resolve().parent)[:12]:
                mod = self._load(local, entry)
                if mod is not None:
                    self.modules.append(mod)

    def _load(self, path: Path, entry: ScriptIndex) -> Optional[_Module]:
        if not self.project.may_read(path):
            return None
        try:
            if path.stat().st_size > _MAX_BYTES:
                return None
        except OSError:
            return None
        root = str(Path(self.project.root).resolve())
        shown = os.path.relpath(path, root) if str(path).startswith(root) else str(path)
        source = read_source(path, shown, "python")
        if not isinstance(source, SourceText):
            return None
        parsed = parse_python(source)
        if not isinstance(parsed, ParsedPython):
            return None
        idx = ScriptIndex(parsed)
        idx.options = entry.options  # the options the entry script's parser declares
        return _Module(parsed, idx, shown)

    def add(self, field: str, value: Any, source: Source) -> None:
        if field in FIELDS:
            self.adapter.add_checked(self.plan, field, value, source, "medium")

    def src(self, mod: _Module, node: ast.AST, detail: str, resolved: Optional[Resolved] = None) -> Source:
        if resolved is not None and resolved.kind == "cli":
            return Source("cli", None, None, resolved.key, f"{detail}: {resolved.detail}")
        return Source("code", mod.display, getattr(node, "lineno", None), None, detail)

    def run(self) -> None:
        lora_live: list[tuple[_Module, ast.Call]] = []
        lora_dead = 0
        adapter_open = False
        adapter_live: list[tuple[_Module, ast.Call]] = []
        from preflight.adapters.peft_tables import either_arm, trainable_adapter_load

        bits: Optional[int] = None
        trains = False
        for mod in self.modules:
            for node, guards in _walk(mod.parsed.tree):
                if isinstance(node, ast.Call):
                    name = dotted_name(node.func) or ""
                    last = name.rsplit(".", 1)[-1]
                    if last in ("train", "backward", "fit") and isinstance(node.func, ast.Attribute):
                        trains = True
                    liger = "AutoLigerKernelForCausalLM" in name.split(".") or last.startswith("apply_liger_kernel_to_")
                    attn = next((k for k in node.keywords if k.arg == "attn_implementation"), None)
                    if bits is None and _bnb_4bit_layers(mod, node) and mod.live(guards) is True:
                        bits = 4  # the model's linear layers swapped for Linear4bit (the pytorch adapter's fact)
                    if trainable_adapter_load(node) and self._peft(mod, last):
                        # a saved adapter loaded to train (LoftQ train_gsm8k.py:248-255): LoRA or PEFT
                        state = mod.live(guards)
                        if state is None:  # LoftQ: ``elif adapter_name_or_path is not None:`` loads one too
                            state = mod.live(tuple(g for g in guards if not either_arm(mod.parsed.tree, g[0])))
                        if state is True:
                            adapter_live.append((mod, node))
                        adapter_open = adapter_open or state is None  # may run: "no PEFT" cannot be said
                        continue
                    if last not in ("LoraConfig", "get_peft_model", "BitsAndBytesConfig") and not liger \
                            and attn is None:
                        continue
                    state = mod.live(guards)
                    if last in ("LoraConfig", "get_peft_model") and self._peft(mod, last):
                        other = _non_lora_config(mod.parsed.tree, node) if last == "get_peft_model" else None
                        if other is not None:
                            # ``get_peft_model(model, PrefixTuningConfig(...))`` (tohtana/ds_repro_2746
                            # run_seq2seq_deepspeed_peft.py:109-110 @ 3e7f5ac): PEFT, but no LoRA
                            self.adapter.note(self.plan, f"{mod.display}:{node.lineno}: get_peft_model(...) with "
                                                         f"peft's {other}: not LoRA; peft.method is left unknown")
                            adapter_open = True
                            continue
                        if state is True:
                            entry = self.modules[0].idx if mod is not self.modules[0] else None
                            state = _helper_called(mod.idx, node, entry)
                        if state is True:
                            lora_live.append((mod, node))
                        elif state is False:
                            lora_dead += 1
                        continue
                    if state is not True:
                        continue
                    if last == "BitsAndBytesConfig":
                        bits = self._bnb(mod, node) or bits
                    if liger:
                        self._liger(mod, node)
                    if attn is not None:
                        self._attn(mod, attn.value, node)
                elif isinstance(node, ast.Dict) and mod.live(guards) is True:
                    # ``model_kwargs = {"attn_implementation": "flash_attention_2" if args.use_flash_attn
                    # else "eager", ...}`` (pacman100/DHS-LLM-Workshop chat_assistant/dpo/utils.py:172-178)
                    for key, value in zip(node.keys, node.values):
                        if isinstance(key, ast.Constant) and key.value == "attn_implementation":
                            self._attn(mod, value, node)
                elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                        and isinstance(node.targets[0], ast.Subscript):
                    key = node.targets[0].slice
                    if isinstance(key, ast.Constant) and key.value == "attn_implementation" \
                            and mod.live(guards) is True:
                        self._attn(mod, node.value, node)
                elif isinstance(node, ast.Assign) and len(node.targets) == 1 \
                        and isinstance(node.targets[0], ast.Attribute) \
                        and node.targets[0].attr in ("attn_implementation", "_attn_implementation") \
                        and mod.live(guards) is True:
                    # ``cfg._attn_implementation = attn_impl`` on the config a model is built from
                    # (AnswerDotAI/fsdp_qlora train.py:566,589)
                    self._attn(mod, node.value, node)
        helper_live = self._lora_helpers()
        for mod, call, helper, rank in helper_live:
            what = f"builds the project's low-rank layer {dotted_name(helper.lora.func)}" \
                if _function_helper(helper) or helper.klass else "builds LoraConfig and calls get_peft_model"
            name = f"{helper.klass}.__init__" if helper.klass else helper.fn.name
            guarded = "every guard around the call decided, but the tests of the loop over the model's layers " \
                      "that pick where it goes" if id(call) in self.selected else "every guard around the call decided"
            detail = f"{dotted_name(call.func)}(...): {name} {what}" \
                     f"{' (its up projection starts at zero)' if helper.klass else ''} " \
                     f"({os.path.relpath(helper.path, self.project.root)}:{helper.fn.lineno}; {guarded})"
            self.add("peft.method", "lora", self.src(mod, call, detail))
            if rank is not None:
                self.add("peft.rank", rank[0], self.src(mod, call, f"{helper.fn.name}({helper.rank_param or 'r'}=...)",
                                                        rank[1]))
            if trains:
                self.add("task.mode", "qlora" if bits == 4 else "lora", self.src(mod, call, detail))
        lora_live_any = bool(lora_live or helper_live or adapter_live)
        for mod, call in adapter_live[:1] if not (lora_live or helper_live) else []:
            # the adapter's type is in its saved adapter_config.json, not here: LoRA, the common one, at low
            detail = (f"{dotted_name(call.func)}(..., is_trainable=True) (every guard around it decided): a saved "
                      "adapter trained; its type is in its adapter_config.json, LoRA assumed")
            self.adapter.add_checked(self.plan, "peft.method", "lora", self.src(mod, call, detail), "low")
            if trains:
                self.adapter.add_checked(self.plan, "task.mode", "qlora" if bits == 4 else "lora",
                                         self.src(mod, call, detail), "low")
        for mod, call in lora_live:
            kw = {k.arg: k.value for k in call.keywords if k.arg}
            detail = f"{dotted_name(call.func)}(...) (every guard around it decided)"
            self.add("peft.method", "lora", self.src(mod, call, detail))
            rank = mod.idx.resolve(kw.get("r"))
            if rank is not None and isinstance(rank.value, int) and not isinstance(rank.value, bool) \
                    and rank.value >= 1:
                self.add("peft.rank", rank.value, self.src(mod, call, f"{dotted_name(call.func)}(r=...)", rank))
            if trains:
                self.add("task.mode", "qlora" if bits == 4 else "lora",
                         self.src(mod, call, detail + (" on 4-bit weights" if bits == 4 else "")))
        if not lora_live_any and lora_dead and not adapter_open:
            self.add("peft.method", "none", Source("derived", None, None, None,
                                                   "every LoraConfig/get_peft_model of the job sits under a guard "
                                                   "the launch line decides false"))

    def _lora_helpers(self) -> list:
        """Calls in the entry script of a project method that applies LoRA, live under their
        guards: (module, call, helper, (rank, resolved) or None)."""
        entry = self.modules[0]
        path = Path(str(self.script.source.path))
        if not path.is_file():
            return []
        paths = [p for p in project_modules(self.script.tree, path) if self.project.may_read(p)]
        helpers = lora_helpers(paths) if paths else {}
        out = []
        selecting = _layer_loops(entry.parsed.tree) if helpers else {}
        for node, guards in _walk(entry.parsed.tree) if helpers else ():
            if not isinstance(node, ast.Call):
                continue
            klass = isinstance(node.func, ast.Name) and node.func.id in helpers \
                and helpers[node.func.id].klass == node.func.id
            live = entry.live(guards)
            if live is None and klass:
                # a LoRA layer built in a loop over the model's layers, under tests of the loop's own
                # names (x-flux ``for name, attn_processor in dit.attn_processors.items(): if
                # name.startswith("double_blocks") and layer_index in double_blocks_idx: ...``): the
                # tests pick the layers, not whether LoRA is built
                live = entry.live(tuple(g for g in guards if not _loop_test(g[0], node, selecting))) \
                    if any(_loop_test(g[0], node, selecting) for g in guards) else None
                if live is True:
                    self.selected.add(id(node))
            if live is not True:
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr in helpers \
                    and not _function_helper(helpers[node.func.attr]):
                helper = helpers[node.func.attr]
            elif isinstance(node.func, ast.Name) and node.func.id in helpers \
                    and (_function_helper(helpers[node.func.id]) or klass) \
                    and (entry.idx.imports.get(node.func.id) or "").endswith("." + node.func.id):
                helper = helpers[node.func.id]  # a project function (or LoRA layer class) imported by name
            else:
                continue
            arg = helper.rank_arg(node)
            rank: Optional[tuple[int, Optional[Resolved]]] = None
            if arg is not None:
                resolved = entry.idx.resolve(arg)
                if resolved is not None and isinstance(resolved.value, int) and not isinstance(resolved.value, bool) \
                        and resolved.value >= 1:
                    rank = (resolved.value, resolved)
            elif helper.rank_default() is not None:
                rank = (int(helper.rank_default() or 0), None)
            out.append((entry, node, helper, rank))
        return out

    def _peft(self, mod: _Module, last: str) -> bool:
        return any(q == "peft" or q.startswith("peft.") for q in mod.idx.imports.values())

    def _bnb(self, mod: _Module, call: ast.Call) -> Optional[int]:
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        for key, bits in (("load_in_4bit", 4), ("load_in_8bit", 8)):
            flag = mod.idx.resolve(kw.get(key))
            if flag is None or flag.value is not True:
                continue
            self.add("precision.weights_bits", bits, self.src(mod, call, f"BitsAndBytesConfig({key}=True)", flag))
            if bits == 8:  # bitsandbytes' 8-bit weights are LLM.int8 (rui-ye/OpenFedLLM config.py:106-109 @ 14c6af2)
                self.add("precision.quant_type", "int8",
                         self.src(mod, call, "BitsAndBytesConfig(load_in_8bit=True): bitsandbytes LLM.int8", flag))
            if bits == 4:
                qt = mod.idx.resolve(kw.get("bnb_4bit_quant_type"))
                if qt is not None and qt.value in ("nf4", "fp4"):
                    self.add("precision.quant_type", qt.value,
                             self.src(mod, call, "BitsAndBytesConfig(bnb_4bit_quant_type=...)", qt))
                dq = mod.idx.resolve(kw.get("bnb_4bit_use_double_quant"))
                if dq is not None and isinstance(dq.value, bool):
                    self.add("precision.double_quant", dq.value,
                             self.src(mod, call, "BitsAndBytesConfig(bnb_4bit_use_double_quant=...)", dq))
            return bits
        return None

    def _attn(self, mod: _Module, expr: ast.expr, node: ast.AST) -> None:
        value = mod.idx.resolve(expr)
        if value is not None and value.value in _ATTN:
            self.add("model.attn_implementation", value.value,
                     self.src(mod, node, "attn_implementation (every guard around it decided)", value))

    def _liger(self, mod: _Module, call: ast.Call) -> None:
        for k in call.keywords:
            if k.arg == "fused_linear_cross_entropy":
                flag = mod.idx.resolve(k.value)
                if flag is None or flag.value is not True:
                    return
        self.add("loss.implementation", "fused",
                 self.src(mod, call, f"{dotted_name(call.func)}(...): Liger's fused linear cross-entropy "
                                     "(the default) never holds the full logits"))


def _helper_called(idx: ScriptIndex, node: ast.Call, entry: Optional[ScriptIndex] = None) -> Optional[bool]:
    """The guards of the calls of the module-level helper around ``node`` (caller_guards.py); for a helper
    of a local module that nothing in its own module calls, the guards of the entry script's calls of it
    (:func:`preflight.adapters.caller_guards.entry_callers_run`)."""
    from preflight.adapters.caller_guards import callers_run, entry_callers_run

    site = next((s for s in idx.calls if s.call is node), None)
    state = True if site is None else callers_run(idx, site)
    if state is True and site is not None and entry is not None:
        return entry_callers_run(idx, site, entry)
    return state


def _bnb_4bit_layers(mod: _Module, call: ast.Call) -> bool:
    """``Linear4bit(...)`` or a call handed bitsandbytes' ``Linear4bit`` as its layer class (AnswerDotAI/
    fsdp_qlora train.py:615 ``replace_linear(model.model, Linear4bit, ...)``), never an isinstance test."""
    name = dotted_name(call.func) or ""
    if name in ("isinstance", "issubclass", "type"):
        return False
    named = [name, *(dotted_name(a) or "" for a in call.args if isinstance(a, (ast.Name, ast.Attribute)))]
    return any((mod.idx.qualify(n) or "").startswith("bitsandbytes.") and n.rsplit(".", 1)[-1] == "Linear4bit"
               for n in named if n)
