"""Static resolution of an expression of a script: literals, names bound once, options, locals, parameters.

Part of the script index (`preflight.script_index.ScriptIndex`), split by concern."""

from __future__ import annotations

import ast
import math
from typing import TYPE_CHECKING, Any, Callable, Optional, cast

from preflight.analysis.syntax import dotted_name, target_names
from preflight.script_argparse import _ArgparseValues
from preflight.script_bindings import function_binding, module_binding
from preflight.script_index_core import (
    _ARITH,
    _COMPARE,
    _STR_METHODS,
    MAX_RESOLVE_DEPTH,
    CallSite,
    Resolved,
    _locals_call,
    _lowest_cap,
    _merged_namespace,
)

if TYPE_CHECKING:
    from preflight.script_index import ScriptIndex


class _Resolver(_ArgparseValues):
    def _rounded_quotient(self, expr: ast.AST, depth: int) -> Optional[Resolved]:
        """``math.ceil(a / b)``, ``math.floor(a / b)``, ``int(a / b)`` or ``round(a / b)`` of known
        integers: the integer it gives (text-generation-webui's LoRA tab:
        ``eval_steps=math.ceil(eval_steps_setting / gradient_accumulation_steps)``). Only a true
        quotient of two integers, so no float arithmetic leaks into other values."""
        if not (isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords):
            return None
        func = expr.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            name = f"{self.imports.get(func.value.id, '')}.{func.attr}"
        elif isinstance(func, ast.Name):
            name = self.imports.get(func.id) or (func.id if func.id in ("int", "round") else "")
        else:
            return None
        rounding: dict[str, Callable[[float], int]] = {"math.ceil": math.ceil, "math.floor": math.floor,
                                                        "int": int, "round": round}
        if name not in rounding:
            return None
        arg = expr.args[0]
        if not (isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div)):
            return None
        left, right = self.resolve(arg.left, depth + 1), self.resolve(arg.right, depth + 1)
        if left is None or right is None or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in (left.value, right.value)) \
                or right.value == 0:
            return None
        kind = "cli" if "cli" in (left.kind, right.kind) else "code"
        cli = left if left.kind == "cli" else right
        return Resolved(rounding[name](left.value / right.value), kind, getattr(expr, "lineno", None),
                        cli.key if kind == "cli" else None, cli.detail if kind == "cli" else None,
                        cap=_lowest_cap(left, right))

    def resolve(self, expr: Optional[ast.AST], depth: int = 0) -> Optional[Resolved]:
        """The value of ``expr`` when it is statically known, else None."""
        if expr is None or depth > MAX_RESOLVE_DEPTH:
            return None
        line = getattr(expr, "lineno", None)
        if isinstance(expr, ast.Constant):
            if isinstance(expr.value, (bytes, type(Ellipsis))):
                return None
            return Resolved(expr.value, "code", line)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and not expr.args \
                and not expr.keywords and expr.func.attr in _STR_METHODS:
            # ``args.optimizer.lower() == "adam"`` (GaLore torchrun_main.py:292): a string
            # method without arguments of a known string is a known string
            inner = self.resolve(expr.func.value, depth + 1)
            if inner is None or not isinstance(inner.value, str):
                return None
            return Resolved(getattr(inner.value, expr.func.attr)(), inner.kind, inner.line, inner.key, inner.detail)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "len" \
                and len(expr.args) == 1 and not expr.keywords and "len" not in self.assigns:
            # len(opt.gpus.strip(",").split(",")): the pieces of a known string
            from preflight.script_str_count import piece_count

            counted = piece_count(self, expr, depth)
            if counted is not None:
                return counted
        if self.launch_env and isinstance(expr, (ast.Subscript, ast.Call)):
            from preflight.script_env import launched_value

            env = launched_value(self, expr, line)
            if env is not None:
                return env
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "int" \
                and len(expr.args) == 1 and not expr.keywords and "int" not in self.assigns:
            inner = self.resolve(expr.args[0], depth + 1)
            if inner is not None and isinstance(inner.value, str) and inner.value.strip().lstrip("-").isdigit():
                return Resolved(int(inner.value), inner.kind, line, inner.key, inner.detail, inner.cap)
            if inner is not None and isinstance(inner.value, int) and not isinstance(inner.value, bool):
                return inner
        if (isinstance(expr, ast.Subscript) and isinstance(expr.value, (ast.Attribute, ast.Name))
                and getattr(expr.value, "attr", getattr(expr.value, "id", "")) == "argv") \
                or isinstance(expr, ast.JoinedStr) \
                or (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "format"):
            from preflight.script_sysargv import (  # sys.argv[k], str.format, f-strings
                argv_word,
                formatted,
            )

            got = argv_word(self, expr) if isinstance(expr, ast.Subscript) else formatted(self, expr, depth)
            if got is not None or not isinstance(expr, ast.Subscript):
                return got
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) \
                and isinstance(expr.slice.value, str):
            # cfg["batchsize"] of a dict literal bound once
            from preflight.script_dict_literal import dict_literal_value

            entry = dict_literal_value(self, expr)
            if entry is not None and not isinstance(entry[0], (ast.Dict, ast.List, ast.Tuple)):
                inner = self.resolve(entry[0], depth + 1)
                if inner is not None:
                    return inner
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name):
            loaded = self._json_key(expr, depth)
            if loaded is not None:
                return loaded
            if isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str) and line is not None:
                keyed = self._locals_key(expr.value.id, expr.slice.value, line, depth, 0)
                if keyed is not None:
                    return keyed
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd, ast.Not)):
            inner = self.resolve(expr.operand, depth + 1)
            if inner is None:
                return None
            if isinstance(expr.op, ast.Not):
                return Resolved(not inner.value, inner.kind, line, inner.key, inner.detail, inner.cap)
            if isinstance(inner.value, (int, float)) and not isinstance(inner.value, bool):
                value = -inner.value if isinstance(expr.op, ast.USub) else inner.value
                return Resolved(value, inner.kind, line, inner.key, inner.detail, inner.cap)
            return None
        if isinstance(expr, ast.Name):
            bound = self.assigns.get(expr.id, [])
            if len(bound) == 1 and bound[0] is not None:
                return self.resolve(bound[0], depth + 1)
            params = self.param_count.get(expr.id, 0)
            if params and bound.count(None) == params and len(bound) - params == self.class_level.get(expr.id, 0):
                return self._parameter(expr.id, depth, getattr(expr, "lineno", None))
            if params and self._shadowing_parameter(expr.id, getattr(expr, "lineno", None)):
                # a parameter of the function around the use shadows a global of the same name
                # (TinyLlama: module-level ``batch_size = 64`` and ``def create_dataloader(batch_size, ...)``)
                return self._parameter(expr.id, depth, getattr(expr, "lineno", None))
            module_value = module_binding(self.script.tree, self.functions, expr.id, getattr(expr, "lineno", None))
            if module_value is not None:
                return self.resolve(module_value, depth + 1)
            local_value = function_binding(self.functions, expr.id, getattr(expr, "lineno", None))
            if local_value is not None:
                return self.resolve(local_value, depth + 1)
            if len(bound) > 1 and None not in bound:
                from preflight.script_chain import chain_binding

                taken = chain_binding(self, expr.id, len(bound))
                if taken is None:
                    from preflight.script_untaken import untaken_rebinding

                    taken = untaken_rebinding(self, expr.id)  # rebound only under `if` tests decided false
                if taken is not None:
                    return self.resolve(taken, depth + 1)
            from preflight.script_flow import flow_value  # bound several times: followed in order

            return flow_value(self, expr.id, getattr(expr, "lineno", None), depth)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) \
                and (expr.value.id in self.parsed_args or self._namespace(expr.value.id)):
            found = self.argument(expr.attr, line)
            if found is not None or self.options is None:
                return found
            from preflight.script_two_stage import hands_parser_on

            if self.arguments and not hands_parser_on(self):
                return found
            # no add_argument in this file: the parser is a local module's (open_clip
            # ``args = parse_args(args)`` from ``params.py``), read below
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and self.options is not None \
                and expr.value.id not in ("self", "cls"):
            owners = self.assigns.get(expr.value.id)
            # only an object bound some other way than a plain assignment (a parameter, a
            # tuple unpacked from parse_args_into_dataclasses()), or a namespace merging such
            # objects (qlora ``args = argparse.Namespace(**vars(model_args), ...)``): never one
            # the script built
            if owners and all(b is None or _merged_namespace(b) or self._local_parser(b) or self._library_parser(b)
                              or self._handed_back(b, expr.value.id) is not None
                              or (None in owners and self._parser_itself(b, expr.value.id, expr.attr)) for b in owners):
                if any(b is not None and expr.attr in (self._handed_back(b, expr.value.id) or ()) for b in owners):
                    return None  # a function the namespace passes through may assign it (script_passthrough.py)
                if any(b is not None and self._local_parser(b) and self._parser_writes(b, expr.attr) for b in owners):
                    return None  # the local parser function sets it itself before returning the namespace
                return self.options(expr.attr)
            if not owners and self._imported_namespace(expr.value.id):
                return self.options(expr.attr)  # ``from parser import args`` (script_parsers.local_namespace_object)
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) \
                and expr.attr in ("name", "platform") and expr.value.id not in self.assigns:
            from preflight.script_sysargv import platform_value  # os.name, sys.platform

            platform = platform_value(self, expr)
            if platform is not None:
                return platform
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
            from preflight.script_module_const import module_constant

            constant = module_constant(self, expr)
            if constant is not None:  # ``import config``; ``config.model``
                return constant
            # ``hparams.batch_size`` with ``hparams = create_hparams(args.hparams)`` (TensorFlow HParams)
            from preflight.script_hparams import hparams_attr

            got = hparams_attr(self, expr, depth)
            if got is not None:
                return got
            # ``c.num_gpus = opts.gpus`` stored on an object the script built (stylegan3's EasyDict)
            from preflight.script_attr_store import stored_attribute

            got = stored_attribute(self, expr, depth)
            if got is not None:
                return got
        if isinstance(expr, (ast.List, ast.Tuple)):
            items = [self.resolve(e, depth + 1) for e in expr.elts]
            if any(i is None for i in items):
                return None
            kind = "cli" if any(i.kind == "cli" for i in items if i) else "code"
            return Resolved([i.value for i in items if i], kind, line)
        if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and type(expr.ops[0]) in _COMPARE:
            # ``load_in_4bit=args.bits == 4``: a comparison of known values is a known bool
            left, right = self.resolve(expr.left, depth + 1), self.resolve(expr.comparators[0], depth + 1)
            if left is None or right is None:
                return None
            try:
                value = bool(_COMPARE[type(expr.ops[0])](left.value, right.value))
            except TypeError:
                return None
            cli = left if left.kind == "cli" else right
            kind = "cli" if cli.kind == "cli" else "code"
            return Resolved(value, kind, line, cli.key if kind == "cli" else None,
                            cli.detail if kind == "cli" else None, cap=_lowest_cap(left, right))
        if isinstance(expr, ast.IfExp):
            # ``"steps" if args.save_steps is not None else "epoch"``: the branch a known test takes
            test = self.resolve(expr.test, depth + 1)
            if test is None:
                return None
            chosen = self.resolve(expr.body if test.value else expr.orelse, depth + 1)
            if chosen is None:
                return None
            if test.kind == "cli" and chosen.kind != "cli":
                return Resolved(chosen.value, "cli", line, test.key, test.detail, _lowest_cap(test, chosen))
            if test.cap is not None and chosen.cap is None:
                return Resolved(chosen.value, chosen.kind, chosen.line, chosen.key, chosen.detail, test.cap)
            return chosen
        if isinstance(expr, ast.BoolOp):
            # ``args.save_steps or 500``: the first truthy operand (``and``: the first falsy one)
            picked: Optional[Resolved] = None
            for operand in expr.values:
                picked = self.resolve(operand, depth + 1)
                if picked is None:
                    return None
                if bool(picked.value) == isinstance(expr.op, ast.Or):
                    break
            return picked
        if isinstance(expr, ast.BinOp) and type(expr.op) in _ARITH:
            left, right = self.resolve(expr.left, depth + 1), self.resolve(expr.right, depth + 1)
            if left is None or right is None:
                return None
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (left.value, right.value)):
                return None
            if isinstance(expr.op, ast.FloorDiv) and right.value == 0:
                return None
            kind = "cli" if "cli" in (left.kind, right.kind) else "code"
            cli = left if left.kind == "cli" else right
            return Resolved(_ARITH[type(expr.op)](left.value, right.value), kind, line,
                            cli.key if kind == "cli" else None, cli.detail if kind == "cli" else None,
                            cap=_lowest_cap(left, right))
        if isinstance(expr, (ast.Subscript, ast.Attribute, ast.Call)):
            # a size of a named env, dataset or tokenizer (``env.observation_space.shape[0]``)
            from preflight.catalog_values import catalog_value

            cataloged = catalog_value(cast("ScriptIndex", self), expr, depth)
            if cataloged is not None:
                return cataloged
        rounded = self._rounded_quotient(expr, depth)
        if rounded is not None:
            return rounded
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            # ``parse_model_name(args.base_model)``: a project function of if/elif branches over
            # its parameters that returns strings
            from preflight.script_mapping import mapped_call

            return mapped_call(cast("ScriptIndex", self), expr, depth)
        return None

    def _json_key(self, expr: ast.Subscript, depth: int) -> Optional[Resolved]:
        """``cfg["lora_r"]`` with ``cfg = json.load(open(<known path>))`` bound once."""
        assert isinstance(expr.value, ast.Name)
        name, line = expr.value.id, getattr(expr, "lineno", 0)
        around = [f for fs in self.functions.values() for f in fs
                  if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and f.lineno <= line <= (getattr(f, "end_lineno", None) or f.lineno)]
        if around:  # the binding in the function around the use (not a dataclass field of that name)
            scope = max(around, key=lambda f: f.lineno)
            bound: list[Optional[ast.expr]] = [
                n.value for n in self._name_assigns(scope).get(name, ()) if len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name)]
        else:
            bound = self.assigns.get(name, [])
        key = expr.slice.value if isinstance(expr.slice, ast.Constant) else None
        if len(bound) != 1 or not isinstance(bound[0], ast.Call) or key is None:
            return None
        call = bound[0]
        if dotted_name(call.func) != "json.load" or len(call.args) != 1 or not isinstance(call.args[0], ast.Call) \
                or dotted_name(call.args[0].func) != "open" or not call.args[0].args:
            return None
        path = self.resolve(call.args[0].args[0], depth + 1)
        if path is None:
            return None
        from preflight.script_parsers import json_file_value

        found, value = json_file_value(path.value, key, self.script.source.path)
        if not found or not isinstance(value, (int, float, str, bool)):
            return None
        return Resolved(value, path.kind, None, path.key,
                        f"{path.value}[{key!r}] = {value!r}" + (f" ({path.detail})" if path.detail else ""))

    def _name_assigns(self, scope: ast.AST) -> dict[str, list[ast.Assign]]:
        """Each name a plain ``=`` in ``scope`` binds (one of its targets a Name) -> those statements, in
        ``ast.walk`` order; walked once per scope (the resolver asks it for every call's guard)."""
        cache: dict[int, dict[str, list[ast.Assign]]] = self.__dict__.setdefault("_assigns_by_scope", {})
        found = cache.get(id(scope))
        if found is None:
            found = {}
            for n in ast.walk(scope):
                if isinstance(n, ast.Assign):
                    for name in dict.fromkeys(t.id for t in n.targets if isinstance(t, ast.Name)):
                        found.setdefault(name, []).append(n)
            cache[id(scope)] = found
        return found

    def _stored_keys(self, tree: ast.AST) -> set[tuple[str, Any]]:
        """``(name, key)`` of every ``name[key] = ...`` (a constant key) in ``tree``, walked once."""
        stored: Optional[set[tuple[str, Any]]] = self.__dict__.get("_stored_keys_of_tree")
        if stored is None:
            stored = {(n.value.id, n.slice.value) for n in ast.walk(tree) if isinstance(n, ast.Subscript)
                      and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name)
                      and isinstance(n.slice, ast.Constant)}
            self.__dict__["_stored_keys_of_tree"] = stored
        return stored

    def _locals_key(self, name: str, key: str, line: int, depth: int, hops: int) -> Optional[Resolved]:
        """``args["batch_size"]`` where ``args = dict(locals())`` in a function whose parameters are the
        job's options, reached directly or through the functions it is passed to, ``mp.spawn(fn,
        args=(world_size, args))`` included (AnswerDotAI/fsdp_qlora @ 05ed9f2 train.py:1151,1179,410:
        ``args = dict(locals())`` in ``fsdp_qlora``, spawned into ``fsdp_main(local_rank, world_size,
        args)``, passed to ``get_dataloader(tokenizer, args)``, read as ``args["batch_size"]``): the
        value of that parameter. A key written anywhere (``args[key] = ...``), a call passing something
        else, or calls that disagree: unknown."""
        if hops > 4 or depth > MAX_RESOLVE_DEPTH:
            return None
        tree = self.script.tree
        if tree is None:
            return None
        if hops == 0 and (name, key) in self._stored_keys(tree):
            return None
        around = [f for fs in self.functions.values() for f in fs
                  if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and f.lineno <= line <= (getattr(f, "end_lineno", None) or f.lineno)]
        if not around:
            return None
        fn = max(around, key=lambda f: f.lineno)
        assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)]
        bound = [n.value for n in self._name_assigns(fn).get(name, ())]
        if bound:
            if len(bound) != 1 or name in params or not _locals_call(bound[0]) or key not in params:
                return None
            if bound[0].lineno > fn.body[-1].lineno or any(
                    isinstance(n, (ast.Assign, ast.AugAssign)) and n.lineno < bound[0].lineno
                    and any(key in target_names(t) for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))
                    for n in ast.walk(fn)):
                return None  # the parameter rebound before the snapshot
            return self._parameter(key, depth + 1, bound[0].lineno)
        if name not in params:
            return None
        positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
        index = positional.index(name) if name in positional else None
        given: list[tuple[ast.expr, int]] = []
        for site in self.calls:
            call = site.call
            if site.name == fn.name:
                kw = next((k.value for k in call.keywords if k.arg == name), None)
                if kw is None and index is not None and index < len(call.args) \
                        and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
                    kw = call.args[index]
                if kw is None:
                    return None
                given.append((kw, site.line))
            elif (site.name or "").rsplit(".", 1)[-1] == "spawn" and call.args \
                    and isinstance(call.args[0], ast.Name) and call.args[0].id == fn.name:
                # torch.multiprocessing.spawn(fn, args=(...)): fn(rank, *args)
                packed = next((k.value for k in call.keywords if k.arg == "args"), None)
                if packed is None and len(call.args) > 1:
                    packed = call.args[1]
                if not isinstance(packed, ast.Tuple) or index is None or index < 1 or index - 1 >= len(packed.elts):
                    return None
                given.append((packed.elts[index - 1], site.line))
        found: Optional[Resolved] = None
        for expr, at in given:
            if not isinstance(expr, ast.Name):
                return None
            value = self._locals_key(expr.id, key, at, depth + 1, hops + 1)
            if value is None or (found is not None and value.value != found.value):
                return None
            found = found or value
        return found

    def _parameter(self, name: str, depth: int, line: Optional[int] = None) -> Optional[Resolved]:
        """A function parameter bound nowhere else: the value every call of its function in
        this file passes (by keyword or position, else the parameter's default), when they
        agree (MiniCPM ``finetune.py``: ``def load_model(..., qlora: bool = False)`` called
        once as ``load_model(..., qlora=training_args.qlora)``). Several functions with that
        parameter: the one around ``line``. A call ``f(**kwargs)`` from a command-line entry
        function (``@click.option`` decorated, or given to ``fire.Fire``) passes the job's
        option of that name (Dolly ``main(**kwargs): train(**kwargs)``). No call, another
        ``*args``/``**kw`` call, or calls that disagree: unknown."""
        defs = [f for fs in self.functions.values() for f in fs
                if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                and any(a.arg == name for a in (*f.args.posonlyargs, *f.args.args, *f.args.kwonlyargs))]
        if len(defs) > 1 and line is not None:
            around = [f for f in defs if f.lineno <= line <= (getattr(f, "end_lineno", None) or f.lineno)]
            defs = sorted(around, key=lambda f: -f.lineno)[:1]  # the innermost
        if len(defs) != 1:
            return None
        fn = defs[0]
        assert isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        positional = [*fn.args.posonlyargs, *fn.args.args]
        if positional and positional[0].arg in ("self", "cls"):
            return None
        index = next((i for i, a in enumerate(positional) if a.arg == name), None)
        default: Optional[ast.expr] = None
        if index is not None:
            first_default = len(positional) - len(fn.args.defaults)
            if index >= first_default:
                default = fn.args.defaults[index - first_default]
        else:
            k = next(i for i, a in enumerate(fn.args.kwonlyargs) if a.arg == name)
            default = fn.args.kw_defaults[k]
        sites = [c for c in self.calls if c.name == fn.name]
        if not sites and self.called_with is not None:
            from preflight.adapters.splat_call import DEFAULT

            bound = self.called_with(fn.name, name)
            if bound is DEFAULT:
                return self.resolve(default, depth + 1) if default is not None else None
            return cast("Optional[Resolved]", bound)
        if not sites:
            # a command-line entry (typer/click ``@app.command()``, ``typer.run(main)``,
            # ``fire.Fire(main)``): the parameter is the job's option of that name
            return self.options(name) if self.options is not None and self._cli_entry(fn) else None
        found: Optional[Resolved] = None
        for site in sites:
            call = site.call
            spread = [k.value for k in call.keywords if k.arg is None]
            given = next((k.value for k in call.keywords if k.arg == name), None)
            if given is None and spread and index is not None and index < len(call.args) \
                    and not any(isinstance(a, ast.Starred) for a in call.args[:index + 1]):
                given = call.args[index]  # ``train(n_gpus, rank, **cfg)``: a positional is bound before the spread
            if given is None and spread:
                value = self._entry_kwargs(site, spread, name)
                if value is None and len(spread) == 1 and not call.args and self.loaded_kwargs is not None:
                    # ``main(**OmegaConf.load(args.config))``: the file's key (config_object_splat_file)
                    from preflight.adapters.splat_call import DEFAULT

                    bound = self.loaded_kwargs(spread[0], fn, name)
                    value = self.resolve(default, depth + 1) if bound is DEFAULT and default is not None \
                        else None if bound is DEFAULT else bound
                    if bound is DEFAULT and value is not None:  # the default, as the file lacks the key: medium
                        value = Resolved(value.value, value.kind, value.line, value.key, value.detail,
                                         "low" if value.cap == "low" else "medium")
            elif any(isinstance(a, ast.Starred) for a in call.args):
                return None
            else:
                if given is None and index is not None and index < len(call.args):
                    given = call.args[index]
                value = self.resolve(given if given is not None else default, depth + 1)
            if value is None or (found is not None and value.value != found.value):
                return None
            found = found or value
        return found

    def _shadowing_parameter(self, name: str, line: Optional[int]) -> bool:
        """``name`` at ``line`` is a parameter of the innermost function around it that the
        function never rebinds."""
        if line is None:
            return False
        around = [f for fs in self.functions.values() for f in fs
                  if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and f.lineno <= line <= (getattr(f, "end_lineno", None) or f.lineno)]
        if not around:
            return False
        fn = max(around, key=lambda f: f.lineno)
        if not any(a.arg == name for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)):
            return False
        for node in ast.walk(fn):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.With, ast.NamedExpr)):
                targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                if isinstance(node, ast.With):
                    targets = [i.optional_vars for i in node.items]
                if any(t is not None and name in target_names(t) for t in targets):
                    return False
            if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
                return False
        return True

    def _cli_entry(self, fn: ast.AST) -> bool:
        from preflight.adapters.cliargs_options import is_call_parse

        name = getattr(fn, "name", "")
        decorated = any(isinstance(d, ast.Call) and (dotted_name(d.func) or "").rsplit(".", 1)[-1]
                        in ("option", "command", "argument") for d in getattr(fn, "decorator_list", [])) \
            or is_call_parse(fn)
        given = any((c.name or "").rsplit(".", 1)[-1] in ("Fire", "run") and c.call.args
                    and isinstance(c.call.args[0], ast.Name) and c.call.args[0].id == name
                    and (c.name or "").split(".", 1)[0] in ("fire", "typer", "Fire", "run")
                    for c in self.calls)
        return decorated or given

    def _entry_kwargs(self, site: CallSite, spread: list[ast.expr], name: str) -> Optional[Resolved]:
        """``f(**kwargs)`` inside ``def main(**kwargs)`` that the command line fills (click
        options on it, or ``fire.Fire(main)``): the job's option ``name``."""
        if self.options is None or len(spread) != 1 or not site.function:
            return None
        outer = [f for f in self.functions.get(site.function, [])
                 if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if len(outer) == 1 and _locals_call(spread[0]):
            # ``fsdp_qlora(**locals())`` as the first statement of a fastcore ``@call_parse`` entry
            # (AnswerDotAI/fsdp_qlora train.py:1241): its parameters, i.e. the job's options
            return self.options(name) if self._cli_entry(outer[0]) and any(
                a.arg == name for a in (*outer[0].args.args, *outer[0].args.kwonlyargs)) else None
        if not isinstance(spread[0], ast.Name):
            return None
        if len(outer) != 1 or outer[0].args.kwarg is None or outer[0].args.kwarg.arg != spread[0].id:
            return None
        decorated = any(isinstance(d, ast.Call) and (dotted_name(d.func) or "").rsplit(".", 1)[-1]
                        in ("option", "command", "argument") for d in outer[0].decorator_list)
        fired = any((c.name or "").rsplit(".", 1)[-1] == "Fire" and c.call.args
                    and isinstance(c.call.args[0], ast.Name) and c.call.args[0].id == site.function
                    for c in self.calls)
        return self.options(name) if decorated or fired else None
