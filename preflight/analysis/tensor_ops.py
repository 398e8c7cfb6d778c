"""PyTorch API knowledge as plain tables (no logic).

Part 1: what tensor operations do to an autograd graph (keep it, cut it, or box
it in a container), read by :mod:`preflight.analysis.dataflow`. A method or
function missing from every table is treated as *unknown*: its result is not
assumed to carry a graph (quiet on code the analysis cannot follow).

Part 2: which calls create models, losses and optimizers, read by
:mod:`preflight.analysis.bindings`.
"""

from __future__ import annotations

# Methods whose result never carries the receiver's graph.
CUT_METHODS = frozenset({
    "item", "tolist", "numpy", "detach", "detach_", "size", "dim", "ndimension", "numel",
    "nelement", "argmax", "argmin", "argsort", "eq", "ne", "lt", "le", "gt", "ge", "equal",
    "allclose", "isclose", "isnan", "isinf", "isfinite", "isneginf", "isposinf", "long", "int",
    "bool", "byte", "char", "short", "data_ptr", "nonzero", "stride", "element_size",
    "is_contiguous", "is_floating_point", "is_complex", "get_device", "storage",
    "untyped_storage", "all", "any", "count_nonzero", "sample", "multinomial", "bernoulli",
    "random_", "uniform_", "normal_", "type", "backward", "register_hook", "retain_grad",
    "zero_", "keys", "__len__", "bincount", "unique", "unique_consecutive", "logical_and",
    "logical_or", "logical_not", "logical_xor", "sign", "signbit", "floor_divide",
})
# Methods whose result is a tensor carrying the graph of the receiver and arguments.
TENSOR_METHODS = frozenset({
    "view", "view_as", "reshape", "reshape_as", "squeeze", "unsqueeze", "flatten", "unflatten",
    "permute", "transpose", "t", "contiguous", "clone", "expand", "expand_as", "repeat",
    "repeat_interleave", "narrow", "select", "index_select", "gather", "scatter", "masked_fill",
    "masked_select", "masked_scatter", "index_add", "index_fill", "index_put", "roll", "flip",
    "tril", "triu", "diag", "diagonal", "float", "double", "half", "bfloat16", "to", "cpu",
    "cuda", "type_as", "abs", "neg", "exp", "expm1", "log", "log1p", "log2", "log10", "pow",
    "sqrt", "rsqrt", "square", "sin", "cos", "tan", "tanh", "sigmoid", "relu", "softmax",
    "log_softmax", "clamp", "clamp_min", "clamp_max", "clip", "add", "sub", "mul", "div",
    "true_divide", "matmul", "mm", "bmm", "mv", "dot", "outer", "einsum", "lerp", "addmm",
    "baddbmm", "cumsum", "cumprod", "logcumsumexp", "reciprocal", "round", "floor", "ceil",
    "trunc", "frac", "fmod", "remainder", "atan2", "hypot", "erf", "erfinv", "lgamma",
    "digamma", "nan_to_num", "where", "new_tensor", "sum_to_size", "unfold", "movedim",
    "swapaxes", "swapdims", "cross", "addcmul", "addcdiv", "renorm", "cdist", "requires_grad_",
    "rsample", "log_prob", "entropy", "cdf", "icdf", "mean", "sum", "norm", "prod", "std",
    "var", "logsumexp", "amax", "amin", "nansum", "nanmean", "max", "min", "median",
    "add_", "sub_", "mul_", "div_", "pow_", "clamp_", "exp_", "log_", "masked_fill_",
    "copy_", "abs_", "neg_", "sigmoid_", "tanh_", "relu_", "squeeze_", "unsqueeze_",
    "t_", "transpose_", "float_power", "dist", "kl_div", "square_", "sqrt_",
})
# Reductions that return a 0-dim tensor when called without a dim argument.
REDUCTIONS = frozenset({
    "mean", "sum", "norm", "prod", "std", "var", "logsumexp", "amax", "amin", "nansum",
    "nanmean", "max", "min", "median", "dot", "dist",
})
# Methods returning several tensors (a tuple/namedtuple/list).
CONTAINER_METHODS = frozenset({
    "chunk", "split", "unbind", "tensor_split", "topk", "sort", "kthvalue", "mode", "hsplit",
    "vsplit", "dsplit", "values", "items", "to_tuple", "qr", "svd", "eig", "slogdet",
})
# Reductions that return (values, indices) when given a dim.
DIM_PAIR_REDUCTIONS = frozenset({"max", "min", "median"})
# Container methods whose result is one element of the container.
ELEMENT_METHODS = frozenset({"get", "pop", "popleft", "popitem", "__getitem__"})
# Container methods that put their argument(s) into the receiver.
MUTATORS = frozenset({"append", "extend", "insert", "appendleft", "extendleft", "add",
                      "update", "setdefault", "put", "put_nowait", "push"})

# Attributes that never carry the graph.
CUT_ATTRS = frozenset({
    "data", "grad", "shape", "dtype", "device", "requires_grad", "is_leaf", "ndim", "is_cuda",
    "layout", "names", "grad_fn", "itemsize", "nbytes", "is_sparse", "is_quantized",
    "is_meta", "output_nr", "_version", "batch_shape", "event_shape", "support",
})
TENSOR_ATTRS = frozenset({"T", "mT", "H", "mH", "real", "imag", "loss", "logits",
                          "mean", "stddev", "variance", "probs"})
SCALAR_ATTRS = frozenset({"loss"})

# torch.<name> functions that cut the graph (indices, masks, fresh data, no-grad copies).
TORCH_CUT = frozenset({
    "argmax", "argmin", "argsort", "eq", "ne", "lt", "le", "gt", "ge", "equal", "allclose",
    "isclose", "isnan", "isinf", "isfinite", "numel", "is_tensor", "is_floating_point", "tensor",
    "zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like",
    "randint_like", "nonzero", "bincount", "searchsorted", "bucketize", "histc", "multinomial",
    "randperm", "randint", "bernoulli", "manual_seed", "save", "load", "no_grad",
    "inference_mode", "enable_grad", "set_grad_enabled", "count_nonzero", "unique",
    "logical_and", "logical_or", "logical_not", "logical_xor", "sign", "is_grad_enabled",
    "from_numpy", "get_default_dtype", "device", "dtype", "Generator", "cuda", "distributed",
    "compile", "jit",
})
# torch.<name> factories: no graph unless requires_grad=True.
TORCH_FACTORIES = frozenset({
    "zeros", "ones", "empty", "full", "rand", "randn", "arange", "linspace", "logspace", "eye",
    "empty_strided", "normal", "as_strided",
})
TORCH_CONTAINER = frozenset({
    "split", "chunk", "unbind", "tensor_split", "topk", "sort", "meshgrid", "broadcast_tensors",
    "hsplit", "vsplit", "dsplit", "kthvalue", "mode", "lstsq",
})
TORCH_INTEGER_DTYPES = frozenset({
    "torch.long", "torch.int", "torch.int64", "torch.int32", "torch.int16", "torch.int8",
    "torch.uint8", "torch.bool", "torch.short",
})
# Libraries whose functions keep the graph of their tensor arguments.
GRAPH_LIBRARIES = ("einops.",)

CUT_BUILTINS = frozenset({
    "float", "int", "len", "bool", "str", "repr", "round", "isinstance", "issubclass", "type",
    "id", "hash", "print", "format", "range", "hasattr", "callable", "ord", "chr", "bin", "hex",
    "open", "vars", "dir", "setattr", "delattr", "input", "complex", "bytes", "bytearray",
    "memoryview", "super", "object", "property", "staticmethod", "classmethod", "getattr",
})
CONTAINER_BUILTINS = frozenset({
    "list", "tuple", "sorted", "reversed", "zip", "enumerate", "map", "filter", "iter", "set",
    "dict", "frozenset",
})
ELEMENT_BUILTINS = frozenset({"next", "max", "min"})
# Modules whose functions return plain numbers / host data.
HOST_LIBRARIES = ("numpy.", "math.", "statistics.", "random.", "json.", "pickle.", "os.",
                  "sys.", "time.", "logging.", "wandb.", "itertools.", "functools.",
                  "collections.", "copy.", "re.", "string.", "shutil.", "pathlib.")


def is_functional_loss(qual: str) -> bool:
    """``torch.nn.functional.cross_entropy`` and friends."""
    if not qual.startswith("torch.nn.functional."):
        return False
    name = qual.rsplit(".", 1)[-1]
    return "loss" in name or name in {
        "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
        "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "ctc_loss",
        "cosine_embedding_loss", "margin_ranking_loss", "triplet_margin_loss",
    }


# -- part 2: models, losses, optimizers -------------------------------------------

# torch.nn layers without parameters: their output carries a graph only if the input does.
PARAM_FREE_LAYERS = frozenset({
    "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Sigmoid",
    "Tanh", "Softmax", "LogSoftmax", "Softmin", "Softplus", "Softsign", "Hardtanh",
    "Hardswish", "Hardsigmoid", "Tanhshrink", "Threshold", "GLU", "LogSigmoid",
    "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "Identity", "Flatten",
    "Unflatten", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "Upsample", "UpsamplingNearest2d",
    "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle", "ZeroPad2d", "ConstantPad1d",
    "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad2d",
    "CosineSimilarity", "PairwiseDistance", "ChannelShuffle",
})
# torch.nn layers known to return one tensor.
SINGLE_TENSOR_LAYERS = frozenset({
    "Linear", "Bilinear", "LazyLinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
    "ConvTranspose2d", "ConvTranspose3d", "Embedding", "EmbeddingBag", "LayerNorm", "RMSNorm",
    "GroupNorm", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "PReLU", "TransformerEncoder", "TransformerDecoder",
    "TransformerEncoderLayer", "TransformerDecoderLayer", "Transformer",
}) | PARAM_FREE_LAYERS
NN_CONTAINERS = frozenset({"ModuleList", "ModuleDict", "ParameterList", "ParameterDict"})
NN_NOT_MODULES = frozenset({"Parameter", "Module", "Buffer", "UninitializedParameter"})
# Calls whose first argument is a module and whose result is that module, wrapped.
WRAPPERS = frozenset({
    "DistributedDataParallel", "DDP", "FullyShardedDataParallel", "FSDP", "DataParallel",
    "AveragedModel", "get_peft_model", "prepare_model_for_kbit_training", "fully_shard",
    "convert_sync_batchnorm", "unwrap_model", "BetterTransformer",
})
QUALIFIED_WRAPPERS = frozenset({
    "torch.compile", "torch.jit.script", "torch.jit.trace", "copy.deepcopy",
    "torch.nn.utils.parametrize", "peft.PeftModel",
})
# Methods of a module that return the module itself.
MODULE_CHAIN = frozenset({
    "to", "cuda", "cpu", "half", "float", "double", "bfloat16", "train", "eval",
    "requires_grad_", "to_empty", "apply", "share_memory", "type", "module", "_orig_mod",
})
PREPARE = frozenset({"prepare", "prepare_model", "setup", "setup_module"})
NOT_MODELS = ("Tokenizer", "Processor", "Config", "FeatureExtractor", "Scheduler",
               "Pipeline", "Extractor", "Dataset")
MODEL_HINTS = ("Model", "For", "Autoencoder", "UNet", "Transformer", "VQ", "Prior", "Encoder",
                "Decoder", "ControlNet", "Adapter")
OPTIMIZERS = frozenset({
    "SGD", "Adam", "AdamW", "Adagrad", "Adadelta", "Adamax", "ASGD", "LBFGS", "NAdam", "RAdam",
    "RMSprop", "Rprop", "SparseAdam", "Adafactor", "Lion", "LAMB", "Lamb", "FusedAdam",
    "FusedLAMB", "FusedSGD", "DeepSpeedCPUAdam", "AdamW8bit", "Adam8bit", "PagedAdamW",
    "PagedAdamW8bit", "PagedAdamW32bit", "PagedAdam", "SGD8bit", "Lion8bit", "PagedLion",
    "ZeroRedundancyOptimizer", "Muon", "Shampoo", "Prodigy", "AdEMAMix", "Adan", "Ranger",
    "Lookahead", "ScheduleFreeAdamW", "AdamWScheduleFree", "SGDScheduleFree", "Sophia",
})
