"""The expression reader of :mod:`preflight.adapters.hydra_reads`: the config keys a project's code reads
(attribute chains on the config, ``getattr(torch, E)``, ``a or b``, conditionals, a local assigned once),
the key-name vocabularies (sequence bounds, accumulation, checkpointing, half precision, process
counts) and the call sites it visits."""

from __future__ import annotations

import ast
import re
from typing import Any, Callable, Optional

from preflight.analysis.syntax import dotted_name

_ROOTS = ("config", "cfg", "conf", "args")


# Accelerator(mixed_precision=...) values -> precision.mode (accelerate: "no" is fp32, the others autocast)
_ACCEL_MP = {"bf16": "amp_bf16", "fp16": "amp_fp16", "no": "fp32"}


_SEQ = ("max_length", "max_seq_len", "max_seq_length", "seq_len", "seq_length", "block_size", "context_length",
        "max_sequence_length")


_ACCUM = ("gradient_accumulation_steps", "grad_accum_steps", "grad_accum", "accumulate_grad_batches",
          "gradient_accumulation", "num_microbatches", "accumulation_steps", "gradient_accumulate_every")


_CKPT_KWARGS = ("checkpoint", "gradient_checkpointing", "activation_checkpointing", "checkpoint_activations",
               "use_checkpoint")  # Swin ``SwinTransformer(use_checkpoint=config.TRAIN.USE_CHECKPOINT)``


# a project's own switch named like one (BLIP ``blip_decoder(vit_grad_ckpt=config['vit_grad_ckpt'])``)
_CKPT_NAMED = re.compile(r"(^|_)(grad|gradient|activation)_?(ckpt|checkpoint|checkpointing)$")


_IMAGE = ("image_size", "img_size")


_COMPILE_KEYS = ("torch_compile", "use_compile", "compile")


_NOT_MODEL = ("Tokenizer", "Processor", "Config", "FeatureExtractor", "ImageProcessor", "Autoencoder", "VQModel",
              "Scheduler")


# a diffusion pipeline's frozen parts (Latte ``AutoencoderKL.from_pretrained(args.pretrained_model_path,
# subfolder="vae")``): the path names the pipeline, not the model the job trains
_PARTS = ("vae", "text_encoder", "text_encoder_2", "tokenizer", "tokenizer_2", "scheduler", "feature_extractor",
          "safety_checker", "image_encoder")


# ``enable_gradient_checkpointing``: diffusers' ``ModelMixin`` spelling (showlab/Tune-A-Video train_tuneavideo.py:127-128
# ``if gradient_checkpointing: unet.enable_gradient_checkpointing()``, as in the diffusers training scripts)
_CKPT_CALLS = ("gradient_checkpointing_enable", "apply_activation_checkpointing", "checkpoint_wrapper",
               "enable_gradient_checkpointing")


_PEFT_CALLS = ("LoraConfig", "get_peft_model")


_PROCS = ("num_processes", "world_size", "get_world_size", "num_gpus", "n_gpus")


_HALF = {"bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "half": "fp16", "fp16": "fp16"}


_MAX_BYTES = 500_000


Add = Callable[[str, Any, tuple, str, str], None]


Known = Callable[[tuple], Any]


class _Val:
    """An evaluated expression: the value and the config key it came from (None: a literal)."""

    __slots__ = ("path", "value")

    def __init__(self, value: Any, path: Optional[tuple]) -> None:
        self.value = value
        self.path = path


class _Torch:
    """``getattr(torch, name)``/``getattr(torch.optim, name)``: a torch attribute by name."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name


_dotted = dotted_name


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


_ORDER: dict[type, Callable[[Any, Any], bool]] = {
    ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b, ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b}


class _Reader:
    def __init__(self, roots: tuple[str, ...], known: Known, add: Add, display: str,
                 null: Callable[[tuple], bool]) -> None:
        self.roots = roots
        self.known = known
        self.null = null
        self.add = add
        self.display = display
        self.assigns: dict[str, list[ast.AST]] = {}
        self.read_paths: set[tuple] = set()
        self.param_rebinds: dict[str, set[str]] = {}  # a local class/function -> parameters its body assigns
        self.split_arms: dict[int, ast.AST] = {}  # id(IfExp) -> the arm the training split takes (split_arm)
        self.arm_keys: dict[str, tuple] = {}  # a name bound in the arm a key decides -> that key (chain_arm)

    # -- expressions -------------------------------------------------------------
    def chain(self, node: ast.AST) -> Optional[tuple]:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.roots and parts:
            return tuple(reversed(parts))
        return None

    def ev(self, node: Optional[ast.AST], depth: int = 0) -> Optional[_Val]:
        if node is None or depth > 8:
            return None
        if isinstance(node, ast.Constant):
            return _Val(node.value, None)
        if isinstance(node, (ast.Attribute, ast.Name)):
            path = self.chain(node)
            if path is None and isinstance(node, ast.Attribute):
                inner: ast.AST = node
                parts = []
                while isinstance(inner, ast.Attribute):
                    parts.append(inner.attr)
                    inner = inner.value
                if isinstance(inner, ast.Name) and inner.id == "self" and len(parts) >= 2 and parts[-1] in self.roots:
                    path = tuple(reversed(parts[:-1]))
            if path is not None:
                value = self.known(path)
                if value is None:
                    return _Val(None, path) if self.null(path) else None
                self.read_paths.add(path)
                return _Val(value, path)
            if isinstance(node, ast.Name):
                values = self.assigns.get(node.id, [])
                if len(values) == 1 and node.id in self.arm_keys:
                    got = self.ev(values[0], depth + 1)  # a constant of the arm a key took: that key's value
                    return None if got is None else _Val(got.value, got.path or self.arm_keys[node.id])
                if len(values) == 1:
                    return self.ev(values[0], depth + 1)
                if 1 < len(values) <= 3:
                    return self._one_dtype(values, depth)
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "eval" \
                and len(node.args) == 1 and isinstance(node.args[0], ast.JoinedStr):
            # PLLaVA train_pllava_nframe_accel.py:89 ``eval(f'torch.{config.model.torch_dtype}')``
            pieces: list[ast.expr] = list(node.args[0].values)
            if len(pieces) == 2 and isinstance(pieces[0], ast.Constant) and pieces[0].value == "torch." \
                    and isinstance(pieces[1], ast.FormattedValue) and pieces[1].format_spec is None:
                name = self.ev(pieces[1].value, depth + 1)
                if name is not None and isinstance(name.value, str) and name.value.isidentifier():
                    return _Val(_Torch("torch", name.value), name.path)
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                and not node.keywords and node.func.attr in ("lower", "upper", "strip"):
            got = self.ev(node.func.value, depth + 1)  # Swin ``config.TRAIN.OPTIMIZER.NAME.lower()``
            if got is None or not isinstance(got.value, str):
                return None
            return _Val(getattr(got.value, node.func.attr)(), got.path)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and len(node.args) >= 2:
            mod = _dotted(node.args[0])
            name = self.ev(node.args[1], depth + 1)
            if mod in ("torch", "torch.optim") and name is not None and isinstance(name.value, str):
                return _Val(_Torch(mod, name.value), name.path)
            return None
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            for value in node.values:
                got = self.ev(value, depth + 1)
                if got is None:
                    return None  # unknown: the first set value is not known
                if got.value:
                    return got
            return None
        if isinstance(node, ast.IfExp):
            test = self.test(node.test, depth)
            if test is None and id(node) in self.split_arms:  # config_object_split_arm.training_ifexp
                return self.ev(self.split_arms[id(node)], depth + 1)
            if test is None:
                return None
            return self.ev(node.body if test else node.orelse, depth + 1)
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    out[k.value] = v
            return _Val(out, None)
        return None

    def _one_dtype(self, values: list[ast.AST], depth: int) -> Optional[_Val]:
        """A name assigned in each arm of an ``if`` where every assignment gives the same torch dtype
        (PLLaVA ``torch_dtype = eval(f'torch.{E}')`` / ``torch_dtype = E`` for a dtype name E): that dtype."""
        # only a dtype built from a name (``eval(f'torch.{E}')``, ``getattr(torch, E)``) beside plain reads: no
        # name chains, which would be evaluated once per arm at every level
        if any(isinstance(v, ast.Name) for v in values) or not any(
                isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in ("eval", "getattr")
                for v in values):
            return None
        got = [self.ev(v, depth + 1) for v in values]
        names: set[str] = set()
        for g in got:
            if g is None:
                return None
            value = g.value.name if isinstance(g.value, _Torch) and g.value.module == "torch" else g.value
            if not isinstance(value, str):
                return None  # a dict, a list, a number: no dtype name (hydra configs hold every kind)
            names.add(value)
        path = next((g.path for g in got if g is not None and g.path is not None), None)
        if len(names) != 1 or path is None:
            return None
        name = next(iter(names))
        return _Val(_Torch("torch", name), path) if isinstance(name, str) and name in _HALF else None

    def test(self, node: ast.AST, depth: int = 0) -> Optional[bool]:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.test(node.operand, depth + 1)
            return None if inner is None else not inner
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left = self.ev(node.left, depth + 1)
            op, right_node = node.ops[0], node.comparators[0]
            if left is None:
                return None
            if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(right_node, ast.Constant) \
                    and right_node.value is None:
                is_none = left.value is None
                return is_none if isinstance(op, ast.Is) else not is_none
            if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right_node, (ast.List, ast.Tuple, ast.Set)):
                items = [e.value for e in right_node.elts if isinstance(e, ast.Constant)]
                if len(items) != len(right_node.elts):
                    return None
                inside = left.value in items
                return inside if isinstance(op, ast.In) else not inside
            right = self.ev(right_node, depth + 1)
            if right is None:
                return None
            if isinstance(op, (ast.In, ast.NotIn)) and isinstance(left.value, str) \
                    and isinstance(right.value, (str, list, tuple)) and (left.path or right.path):
                inside = left.value in right.value  # Latte ``if 'LatteT2V' in args.model:``
                return inside if isinstance(op, ast.In) else not inside
            if isinstance(op, ast.Eq):
                return left.value == right.value
            if isinstance(op, ast.NotEq):
                return left.value != right.value
            if isinstance(op, (ast.Gt, ast.GtE, ast.Lt, ast.LtE)) and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in (left.value, right.value)):
                # SlowFast slowfast/utils/misc.py:402 ``if cfg.NUM_GPUS > 1:`` (numbers only)
                return _ORDER[type(op)](left.value, right.value)
            return None
        got = self.ev(node, depth + 1)
        if got is None or got.path is None or isinstance(got.value, (dict, list)):
            return None
        return bool(got.value)

    def kwargs_of(self, call: ast.Call) -> dict[str, ast.AST]:
        out: dict[str, ast.AST] = {}
        for kw in call.keywords:
            if kw.arg is not None:
                out[kw.arg] = kw.value
                continue
            got = self.ev(kw.value)
            if got is not None and isinstance(got.value, dict):
                out.update(got.value)
        return out


def _functions(tree: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = [tree]
    out.extend(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return out


def _calls_in(stmts: list[ast.stmt], names: tuple[str, ...]) -> Optional[ast.Call]:
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and _call_name(node) in names:
                return node
    return None


class _Found:
    def __init__(self) -> None:
        self.refs: list[tuple[Any, tuple, int]] = []
        self.dtypes: list[tuple[str, tuple, int]] = []
        self.attn: list[tuple[str, tuple, int]] = []
        self.mixed: list[tuple[str, tuple, int]] = []
        self.optim: list[tuple[str, tuple, int]] = []
        self.ckpt: list[tuple[bool, tuple, int]] = []
        self.peft: list[tuple[bool, tuple, int, Optional[_Val]]] = []
        self.global_batch: list[tuple[int, tuple, int]] = []
        self.loader_batch: list[tuple[int, tuple, int]] = []
        self.workers: list[tuple[int, tuple, int]] = []  # ``DataLoader(**cfg.dataloader)``'s num_workers
        self.pin: list[tuple[bool, tuple, int]] = []  # and pin_memory
        self.compile: list[tuple[bool, tuple, int]] = []
        self.rank: list[tuple[int, tuple, int]] = []  # ``LoraConfig(r=E)`` / ``LoraConfig(**{"r": E})``
        self.accum: list[tuple[int, tuple, int]] = []  # ``Accelerator(gradient_accumulation_steps=E)``
        self.accel_mp: list[tuple[str, tuple, int]] = []  # ``Accelerator(mixed_precision=E)``
        self.seq: list[tuple[int, tuple, int]] = []  # ``get_dataset(..., block_size=E)``
        self.tok_len: list[tuple[int, tuple, int]] = []  # a tokenizer's ``model_max_length=E``
        self.padded = False  # the project pads every sample to the tokenizer's length (``padding="max_length"``)
        self.ray_driver = False  # the code hands its work to Ray actors (``ray_driver`` in hydra_reads.py)
        self.read: set[tuple] = set()
