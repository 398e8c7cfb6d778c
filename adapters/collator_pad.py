"""A project collator that pads each batch to its longest sample with ``pad_sequence`` (or by hand, or with a
processor/tokenizer call given ``padding=True``: :func:`_encoder_pads`): ``data.padding`` dynamic.

The stanford_alpaca collator, copied by many fine-tuning projects (AetherCortex/Llama-X ``src/train.py:148-152``,
FreedomIntelligence/LLMZoo ``llmzoo/datasets/datasets.py:44-58``): a class whose ``__call__`` stacks the
samples' ``input_ids`` with ``torch.nn.utils.rnn.pad_sequence(..., batch_first=True, ...)``, which pads to the
longest sequence of the batch. Said (``medium``) once every adapter has run, only when no padding was found
otherwise, the class is built somewhere in the files read (the script and the local modules it imports), and
none of those files pads a tokenizer call to ``max_length`` (then every sample has that length already)."""

from __future__ import annotations

import ast
import os
import re
from typing import Any, Optional

from preflight.analysis.syntax import dotted_name
from preflight.plan import Source, TrainingPlan

_FIXED = re.compile(r"""padding\s*=\s*['"]max_length['"]|pad_to_max_length\s*=\s*True""")


def _pads(fn: ast.AST, imported: set[str]) -> Optional[int]:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            name = dotted_name(node.func) or ""
            if name.endswith("nn.utils.rnn.pad_sequence") or name == "rnn.pad_sequence" \
                    or (name == "pad_sequence" and "pad_sequence" in imported):
                return node.lineno
    return _hand_pads(fn) or _encoder_pads(fn)


def _encoder_pads(fn: ast.AST) -> Optional[int]:
    """A processor or tokenizer called on the batch with ``padding=True`` or ``"longest"``, which pads to
    the batch's longest sample whatever ``max_length``/``truncation`` say (the collate function of many
    vision-language fine-tunes: pinecypressfxd/finetune-Qwen2.5-VL @ 12f1b02 ``finetune_distributed.py:141-156``
    ``processor(text=texts, images=image_inputs, videos=video_inputs, padding=True, return_tensors="pt")``;
    Social-AI-Studio/MATK ``datamodules/collators/flava.py`` ``processor(text=texts, images=images,
    return_tensors="pt", padding=True, truncation=True)``). The callee is named as one (``processor``,
    ``self.tokenizer``, ``clip_processor(...)``, ``tokenizer.pad``); any other ``padding=`` (a layer's)
    is not read. The line of the call, or None."""
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        padding = next((kw.value for kw in node.keywords if kw.arg == "padding"), None)
        if not (isinstance(padding, ast.Constant) and (padding.value is True or padding.value == "longest")):
            continue
        name = (dotted_name(node.func) or "").lower()
        parts = name.split(".")
        if parts and parts[-1] in ("pad", "__call__", "encode_plus", "batch_encode_plus"):
            parts = parts[:-1]
        if parts and ("processor" in parts[-1] or "tokenizer" in parts[-1]):
            return node.lineno
    return None


def _callee(given: Optional[ast.expr]) -> Optional[ast.expr]:
    """The function a ``collate_fn=``/``data_collator=`` value calls: the value itself, or the first argument
    of ``partial(f, ...)``/``functools.partial(f, ...)`` (pinecypressfxd/finetune-Qwen2.5-VL @ 12f1b02
    ``finetune_distributed.py:409-413`` ``collate_fn=partial(collate_fn, processor=processor, device=device)``)."""
    if isinstance(given, ast.Call) and (dotted_name(given.func) or "") in ("partial", "functools.partial") \
            and given.args and isinstance(given.args[0], (ast.Name, ast.Attribute)):
        return given.args[0]
    return given


def _is_len(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _hand_pads(fn: ast.AST) -> Optional[int]:
    """A batch padded by hand to its longest sample: the firefly ``SFTDataCollator`` shape
    (yangjianxin1/Firefly ``component/collator.py``, copied by gammachen/p-llm-dialog-element-extraction @ 1f7e97a
    ``utils.py:130-150``): ``lengths = [len(x["input_ids"]) for x in batch]``, ``batch_max_len =
    min(max(lengths), self.max_seq_length)`` (or ``math.ceil(max(lengths) / 8) * 8``), then ``input_ids +
    [self.pad_token_id] * (batch_max_len - len(input_ids))``. The line of the list product, or None. A ``max``
    not over the samples' ``len(...)`` (``max(self.max_len, n)``) is not the batch's longest."""
    lengths = {t.id for n in ast.walk(fn) if isinstance(n, ast.Assign) and len(n.targets) == 1
               and isinstance(n.value, (ast.ListComp, ast.GeneratorExp)) and _is_len(n.value.elt)
               for t in n.targets if isinstance(t, ast.Name)}
    longest: set[str] = set()
    for n in ast.walk(fn):
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)):
            continue
        for c in ast.walk(n.value):
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == "max" and len(c.args) == 1 \
                    and ((isinstance(c.args[0], ast.Name) and c.args[0].id in lengths)
                         or (isinstance(c.args[0], (ast.ListComp, ast.GeneratorExp)) and _is_len(c.args[0].elt))):
                longest.add(n.targets[0].id)
    if not longest:
        return None
    # ``padding_len = batch_max_len - len(input_ids)``: names holding the shortfall
    short = set(longest)
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and isinstance(n.value, ast.BinOp) and isinstance(n.value.op, ast.Sub) \
                and _names(n.value.left) & longest:
            short.add(n.targets[0].id)
    for n in ast.walk(fn):
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
            for lst, times in ((n.left, n.right), (n.right, n.left)):
                if isinstance(lst, ast.List) and len(lst.elts) == 1 and _names(times) & short:
                    return n.lineno
    return None


def _collator(tree: ast.Module) -> Optional[tuple[str, int]]:
    imported = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                and n.module == "torch.nn.utils.rnn" for a in n.names}
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for item in cls.body:
            if isinstance(item, ast.FunctionDef) and item.name == "__call__":
                line = _pads(item, imported)
                if line is not None:
                    return cls.name, line
    return None


def collator_padding(plan: TrainingPlan, project: Any) -> None:
    if plan.resolve("data.padding") is not None or not project.scripts:
        return
    _collator_padding(plan, project)


def _collator_padding(plan: TrainingPlan, project: Any) -> None:
    from preflight.adapters.cliargs_options import declared_options

    files: list[tuple[str, str, Optional[ast.Module]]] = []
    for script in project.scripts:
        files.append((str(script.source.display), script.source.text,
                      script.tree if isinstance(script.tree, ast.Module) else None))
        for text in declared_options(script, project).texts:
            try:
                files.append(("", text, ast.parse(text)))
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
    if any(_FIXED.search(text) for _, text, _ in files):
        return
    if _trainer_default_collator(plan, files):
        return
    if _collate_fn_pads(plan, files):
        return
    for shown, _text, tree in files:
        found = _collator(tree) if tree is not None else None
        if found is None:
            continue
        name, line = found
        built = any(isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))
                    and (dotted_name(n.func) or "").rsplit(".", 1)[-1] == name
                    for _, _, t in files if t is not None for n in ast.walk(t))
        if not built:
            continue
        where = shown or _module_path(project, name)
        plan.add("data.padding", "dynamic",
                 Source("code", where or None, line if where else None, "pad_sequence",
                        f"{name}.__call__ pads each batch to its longest sample (pad_sequence, pad lists or a "
                        f"padding=True processor/tokenizer call, line {line})"),
                 "medium", adapter="derive")
        return


def _rnn_imports(tree: ast.AST) -> set[str]:
    return {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
            and n.module == "torch.nn.utils.rnn" for a in n.names}


def _direct_defs(scope: ast.AST) -> list[ast.FunctionDef]:
    """The functions ``def``-ined in ``scope``'s own body (in its ``if``/``for``/``with``/``try`` blocks too),
    not those inside a nested function or class."""
    out: list[ast.FunctionDef] = []
    stack = list(getattr(scope, "body", []))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.FunctionDef):
            out.append(stmt)
        elif not isinstance(stmt, (ast.AsyncFunctionDef, ast.ClassDef)):
            stack.extend(c for c in ast.iter_child_nodes(stmt) if isinstance(c, ast.stmt))
            stack.extend(h for h in ast.iter_child_nodes(stmt) if isinstance(h, ast.excepthandler))
    return out


def _scoped_def(tree: ast.Module, call: ast.Call, given: ast.Name) -> Optional[ast.FunctionDef]:
    """The function ``collate_fn=<name>`` names by Python's scoping: a ``def`` of that name in the function
    around the call (innermost first), else at the module's top level of the same file
    (Hzfinfdu/Diffusion-BERT @ 19d7f49 ``DDP_main.py:162-178``: ``def collate_fn(batch_input)`` nested in
    ``main``, beside an unrelated ``collate_fn`` of an imported module). Two ``def``s of the name in that
    scope, or none in any, give None (the caller then looks across the files read)."""
    end = getattr(call, "end_lineno", None) or call.lineno
    around = sorted((f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and f.lineno <= call.lineno and end <= (f.end_lineno or 0)), key=lambda f: f.lineno, reverse=True)
    for scope in [*around, tree]:
        found = [f for f in _direct_defs(scope) if f.name == given.id]
        if found:
            return found[0] if len(found) == 1 else None
        if any(isinstance(a, ast.arg) and a.arg == given.id for a in ast.walk(getattr(scope, "args", ast.Pass()))):
            return None  # a parameter of that name: the caller's function, not read
    return None


def _collate_fn_pads(plan: TrainingPlan, files: list[tuple[str, str, Optional[ast.Module]]]) -> bool:
    """``DataLoader(..., collate_fn=dataset.collate_fn)`` (or ``collate_fn=collate``) whose function, the
    one function or method of that name in the files read, pads with ``pad_sequence``: OpenLMLab/MOSS
    @ c810e0b ``finetune_moss.py:113-122,202`` (``SFTDataset.collate_fn`` pads input ids, masks and
    labels to the batch's longest), the ``def collate_fn(batch): ... pad_sequence(...)`` of many scripts.
    Two definitions of the name, or one that does not pad, state nothing."""
    for shown, _text, tree in files:
        if tree is None or not shown:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            last = (dotted_name(node.func) or "").rsplit(".", 1)[-1]
            # the DataLoader's collate_fn, or a (transformers/TRL) Trainer's data_collator given as a function
            # (TRL's vision-language SFT example: ``SFTTrainer(..., data_collator=collate_fn)``)
            key = "collate_fn" if last == "DataLoader" else "data_collator" if last.endswith("Trainer") else None
            if key is None:
                continue
            given = _callee(next((kw.value for kw in node.keywords if kw.arg == key), None))
            fname = given.id if isinstance(given, ast.Name) else given.attr if isinstance(given, ast.Attribute) \
                else None
            if fname is None:
                continue
            defs: list[tuple[ast.FunctionDef, set[str]]] = []
            scoped = _scoped_def(tree, node, given) if isinstance(given, ast.Name) else None
            if scoped is not None:
                defs.append((scoped, _rnn_imports(tree)))
            for _s, _t, other in ([] if scoped is not None else files):
                if other is None:
                    continue
                imported = {a.asname or a.name for n in ast.walk(other) if isinstance(n, ast.ImportFrom)
                            and n.module == "torch.nn.utils.rnn" for a in n.names}
                defs.extend((f, imported) for f in ast.walk(other)
                            if isinstance(f, ast.FunctionDef) and f.name == fname)
            if len(defs) != 1:
                continue
            line = _pads(*defs[0])
            if line is None:
                continue
            plan.add("data.padding", "dynamic",
                     Source("code", shown, node.lineno, key,
                            f"{last}({key}={dotted_name(given) if given is not None else fname}): {fname} pads each batch "
                            f"to its longest sample (pad_sequence, pad lists or a padding=True processor/tokenizer "
                            f"call, line {line})"),
                     "medium", adapter="derive")
            return True
    return False


# a tokenizer call or a hand-made list padded (every row the same length before the collator sees it)
_PADDED = re.compile(r"""\bpadding\s*=\s*(?!False\b|None\b|['"]do_not_pad['"])|pad_token_id\s*\]\s*\*|\.pad\(""")


def _trainer_default_collator(plan: TrainingPlan, files: list[tuple[str, str, Optional[ast.Module]]]) -> bool:
    """``transformers.Trainer(..., tokenizer=tok)`` (``processing_class=`` in 4.46+) with no
    ``data_collator=``: the Trainer's default collator is ``DataCollatorWithPadding(tokenizer)``, which
    pads each batch to its longest sample (WisdomShell/codeshell @ 09d1adc ``finetune/finetune.py:211-213``,
    samples cut to ``model_max_length`` and never padded). Only the library's ``Trainer`` and
    ``Seq2SeqTrainer`` by those names, and only when no file read pads the samples itself."""
    if any(_PADDED.search(text) for _, text, _ in files):
        return False
    for shown, _text, tree in files:
        if tree is None or not shown:
            continue
        imported = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                    and (n.module or "").split(".")[0] == "transformers" for a in n.names}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = dotted_name(node.func) or ""
            last = name.rsplit(".", 1)[-1]
            if last not in ("Trainer", "Seq2SeqTrainer") or not (name.startswith("transformers.") or
                                                                 (name == last and last in imported)):
                continue
            kws = {kw.arg for kw in node.keywords}
            if None in kws or "data_collator" in kws or not kws & {"tokenizer", "processing_class"}:
                continue
            plan.add("data.padding", "dynamic",
                     Source("code", shown, node.lineno, "data_collator",
                            f"{name}(...) is given a tokenizer and no data_collator: its default "
                            "DataCollatorWithPadding pads each batch to its longest sample"),
                     "medium", adapter="derive")
            return True
    return False


def _module_path(project: Any, name: str) -> Optional[str]:
    """The display path of the local module defining class ``name`` (cliargs keeps texts, not paths)."""
    root = str(getattr(project, "root", "") or "")
    if not root:
        return None
    pattern = re.compile(rf"^class\s+{re.escape(name)}\b", re.M)
    from preflight.sources import read_text_limited

    count = 0
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
        for fname in names:
            if not fname.endswith(".py"):
                continue
            count += 1
            if count > 400:
                return None
            path = os.path.join(folder, fname)
            try:
                if pattern.search(read_text_limited(path, 500_000, errors="replace")):
                    return os.path.relpath(path, root)
            except (OSError, ValueError):
                continue
    return None
