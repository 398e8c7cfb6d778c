"""The argparse side of a script's static resolution: which names hold the parsed options
(local and library parsers, namespaces handed back) and ``args.<dest>``'s value (the launch
command's word, ``set_defaults``, the ``add_argument`` default, a reassignment before the use).

Part of the script index (`preflight.script_index.ScriptIndex`), split by concern: the base of
:class:`preflight.script_resolve._Resolver`."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Optional

from preflight.analysis.syntax import dotted_name
from preflight.script_argv import ArgSpec, _convert, from_argv, opaque_words, positional_from_argv
from preflight.script_index_core import _KEEP, _LIBRARY_PARSERS, Resolved, _IndexCore

#: attributes and methods of an ``argparse.ArgumentParser`` (never an option of the namespace it parses)
_PARSER_ATTRS = frozenset(("add_argument", "add_argument_group", "add_mutually_exclusive_group", "add_subparsers",
                           "parse_args", "parse_known_args", "parse_intermixed_args", "set_defaults", "get_default",
                           "print_help", "print_usage", "format_help", "format_usage", "error", "exit", "prog",
                           "usage", "description", "epilog", "formatter_class", "prefix_chars", "add_help",
                           "allow_abbrev", "conflict_handler", "exit_on_error", "fromfile_prefix_chars",
                           "argument_default", "parents", "convert_arg_line_to_args"))


class _ArgparseValues(_IndexCore):
    if TYPE_CHECKING:
        def resolve(self, expr: Optional[ast.AST], depth: int = 0) -> Optional[Resolved]:
            """Defined by :class:`preflight.script_resolve._Resolver`."""

    def _local_parser(self, node: ast.AST) -> bool:
        """``parse_args(args)`` imported from a local module that returns the parsed
        namespace (open_clip ``main.py:98``): its attributes are the job's options."""
        from preflight.script_parsers import local_parser_function

        qualified = self.local_parser_name(node)
        return qualified is not None and local_parser_function(self.script.source.path, qualified)

    def _parser_writes(self, node: ast.AST, attr: str) -> bool:
        """The local parser function ``node`` calls assigns ``attr`` on the namespace it returns (SparK
        ``utils/arg_util.py:120-121`` ``args.batch_size_per_gpu = args.bs // dist.get_world_size()``)."""
        from preflight.script_parsers import parser_function_writes

        writes = parser_function_writes(self.script.source.path, self.local_parser_name(node))
        return attr in writes or "*" in writes

    def local_parser_name(self, node: ast.AST) -> Optional[str]:
        """The qualified name of the local function a call names, through the script's imports: ``f()`` of
        ``from m import f``, or ``arg_util.init_dist_and_get_args()`` of ``from utils import arg_util``
        (keyu-tian/SparK @ its pinned commit ``pretrain/main.py:24,39``)."""
        if not isinstance(node, ast.Call):
            return None
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            module = self.imports.get(node.func.value.id)
            return f"{module}.{node.func.attr}" if module else None
        return self.imports.get(node.func.id) if isinstance(node.func, ast.Name) else None

    def _parser_itself(self, node: ast.AST, name: str, attr: str) -> bool:
        """``node`` builds the ``argparse.ArgumentParser`` bound to ``name``, the file hands ``name.parse_args()``
        to a call, and ``attr`` is no attribute of a parser: a parameter ``name`` is that namespace, for a
        parser has no option attributes (HKUNLP/DiffuLLaMA @ c17e897 ``DiffuLLaMA-training/train.py:289-310``
        ``args = argparse.ArgumentParser()``, ``args.add_argument("--batch-size", ...)``,
        ``main(args.parse_args())``, and ``def main(args):`` reads ``args.batch_size``)."""
        if attr in _PARSER_ATTRS or attr.startswith("_") or not isinstance(node, ast.Call) \
                or self.qualify(dotted_name(node.func)) != "argparse.ArgumentParser":
            return False
        return any(isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and a.func.attr == "parse_args"
                   and isinstance(a.func.value, ast.Name) and a.func.value.id == name
                   for site in self.calls for a in site.call.args)

    def _imported_namespace(self, name: str) -> bool:
        """``name`` is imported from a local module whose module-level ``name`` is the parsed options
        (``from parser import args``)."""
        from preflight.script_parsers import local_namespace_object

        qualified = self.imports.get(name)
        return qualified is not None and local_namespace_object(self.script.source.path, qualified)

    def _library_parser(self, node: ast.AST) -> bool:
        """A library function that returns the parsed options (prefigure's ``get_all_args()``,
        whose options the ``[DEFAULTS]`` of ``defaults.ini`` declares)."""
        if isinstance(node, ast.Attribute):  # ``FLAGS = flags.FLAGS`` (absl, preflight/adapters/absl_flags.py)
            from preflight.adapters.absl_flags import absl_flags_object

            return absl_flags_object(node, self.qualify)
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and self.imports.get(node.func.id) in _LIBRARY_PARSERS

    def _namespace(self, name: str) -> bool:
        """``name`` only ever holds this file's argparse result: every binding is a parameter
        or a call of a local function that returns ``parser.parse_args()`` (StarCoder
        ``finetune.py``: ``args = get_args()``, then ``run_training(args, ...)``)."""
        bound = self.assigns.get(name)
        if not bound:
            return False
        parsers = self.parsed_args_functions()
        if not parsers:
            return False
        calls = [b for b in bound if b is not None and self._handed_back(b, name) is None]
        return bool(calls) and all(isinstance(b, ast.Call) and isinstance(b.func, ast.Name)
                                   and b.func.id in parsers for b in calls)

    def _handed_back(self, value: ast.AST, name: str) -> Optional[set[str]]:
        """``name = f(name)`` through a function that returns its argument: the attributes it may assign
        (:mod:`preflight.script_passthrough`), else None."""
        from preflight.script_passthrough import passthrough_writes

        return passthrough_writes(self, value, name)

    def parsed_args_functions(self) -> set[str]:
        """Local functions that return ``<parser>.parse_args()``."""
        if self._parse_functions is None:
            found: set[str] = set()
            # every call of the file is a site: without a ``.parse_args()`` call none returns one
            any_parse = any(isinstance(s.call.func, ast.Attribute) and s.call.func.attr == "parse_args"
                            for s in self.calls)
            for fname, defs in self.functions.items() if any_parse else ():
                if len(defs) != 1:
                    continue
                for node in ast.walk(defs[0]):
                    if isinstance(node, ast.Return) and isinstance(node.value, ast.Call) \
                            and isinstance(node.value.func, ast.Attribute) \
                            and node.value.func.attr == "parse_args":
                        found.add(fname)
            self._parse_functions = found
        return self._parse_functions

    # -- argparse ------------------------------------------------------------
    def argument(self, dest: str, at: Optional[int] = None) -> Optional[Resolved]:
        """``args.<dest>``: the launch-command value if given, else the argparse default; unknown when
        a helper of a local module the namespace is handed to assigns it (:mod:`preflight.script_helper_writes`);
        the value the script's own reassignment computes when one runs before the use on line ``at``
        (:mod:`preflight.script_reassign`)."""
        specs = self.arguments.get(dest, [])
        if specs:
            if self._helper_written is None:
                from preflight.script_helper_writes import helper_written

                self._helper_written = set()  # a re-entrant resolve while it is computed sees none
                self._helper_written = helper_written(self)
            files = [w[1:] for w in self._helper_written if w.startswith("*")]
            if dest not in self._helper_written and any(self._file_given(f) for f in files):
                # a helper setattr()s every key of a file an option names (adapters/cliargs_override_option.py):
                # the file's value where the options pass read it, else unknown
                from_file = self.options(dest) if self.options is not None else None
                return from_file if from_file is not None and "sets every key of" in (from_file.detail or "") else None
            if dest in self._helper_written:
                return None
            reassigned = self._reassigned_value(dest, at)
            if reassigned is not _KEEP:
                return reassigned  # type: ignore[return-value]
        if specs and dest in self.set_defaults:
            return self._set_default(dest, specs)
        if not specs and self.options is not None and "fromfile" in self.script.source.text:
            # an attribute no option declares, set on the namespace from a Python config file
            # (DINO's SLConfig loop, adapters/cliargs_pyconfig_attrs.py): the file's value where the options pass read it
            from_file = self.options(dest)
            return from_file if from_file is not None and "on the options by the loop at" in (from_file.detail or "") \
                else None
        if len(specs) != 1:
            return None
        spec = specs[0]
        default = self._default(spec)
        given = self._from_argv(spec)
        if given is not None:
            value, text = given
            converted = _convert(value, spec)
            if converted is None:
                return None
            detail = text
            if default is not None:
                detail += f" (overrides the argparse default {default.value!r})"
            return Resolved(converted, "cli", None, spec.flag, detail)
        if default is not None and opaque_words(self.args):
            return None  # the option may be among arguments not known statically
        if self.options is not None and ".set_defaults(**" in self.script.source.text.replace(" ", ""):
            # ``parser.set_defaults(**cfg)`` of the YAML ``-c/--config`` names (timm's train.py shape,
            # apple/ml-4m run_training_4m_fsdp.py:231-239): the file's key is the default argparse uses
            from_file = self.options(dest)
            if from_file is not None and from_file.kind == "cli":
                return from_file
        return default

    def _file_given(self, dest: str) -> bool:
        """Whether option ``dest`` may name a file: given on the line, or a default that is not None."""
        specs = self.arguments.get(dest, [])
        if len(specs) != 1 or opaque_words(self.args):
            return True
        default = specs[0].default
        return self._from_argv(specs[0]) is not None or not (
            default is None or (isinstance(default, ast.Constant) and default.value is None))

    def _reassigned_value(self, dest: str, at: Optional[int]) -> object:
        """``_KEEP``, the computed value, or None: :func:`preflight.script_reassign.reassigned_value`."""
        from preflight.script_reassign import reassigned_value

        return reassigned_value(self, dest, at, _KEEP)

    def _set_default(self, dest: str, specs: list[ArgSpec]) -> Optional[Resolved]:
        """``parser.set_defaults(pin_mem=True)`` over ``--pin_mem`` (store_true) and
        ``--no_pin_mem`` (store_false, same dest): MAE ``main_finetune.py:142-145`` @ efb2a806.
        A flag on the launch line decides; else the set_defaults value, which argparse
        prefers to every add_argument default."""
        given: list[tuple[ArgSpec, tuple[Optional[str], str]]] = []
        for spec in specs:
            found = self._from_argv(spec)
            if found is not None:
                given.append((spec, found))
        if len(given) == 1:
            spec, (value, text) = given[0]
            if spec.action in ("store_true", "store_false"):
                return Resolved(spec.action == "store_true", "cli", None, spec.flag, text)
            converted = _convert(value, spec)
            return None if converted is None else Resolved(converted, "cli", None, spec.flag, text)
        if given or opaque_words(self.args):
            return None
        expr, line = self.set_defaults[dest]
        resolved = self.resolve(expr)
        if resolved is None:
            return None
        return Resolved(resolved.value, "code", line, specs[0].flag, f"parser.set_defaults({dest}=...)")

    def _default(self, spec: ArgSpec) -> Optional[Resolved]:
        detail = f"argparse default of {spec.flag}"
        if spec.default is None:
            if spec.action in ("store_true", "store_false"):
                return Resolved(spec.action == "store_false", "code", spec.line, spec.flag, detail)
            return None
        resolved = self.resolve(spec.default)
        if resolved is None:
            return None
        value = resolved.value
        if isinstance(value, str) and spec.type_name in ("int", "float"):
            value = _convert(value, spec)  # argparse applies type= to string defaults
            if value is None:
                return None
        return Resolved(value, "code", spec.line, spec.flag, detail)

    def _from_argv(self, spec: ArgSpec) -> Optional[tuple[Optional[str], str]]:
        if spec.options and not spec.options[0].startswith("-"):
            return None if self.odd_positionals else positional_from_argv(spec, self.arguments, self.args)
        return from_argv(spec, self.arguments, self.args)
