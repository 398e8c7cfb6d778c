"""The twenty-fourth held-out set (calibration/public/heldout24.json): public rows no earlier split read, chosen for a
model family and a GPU generation the data has few of: ELECTRA's base generator and base discriminator trained with a
masked-LM head in pure fp16 on a Tesla T4 (Turing) under eager and SDPA attention (transformers PR #37106, the SDPA
benchmark its author ran with a training script adapted from fxmarty's, torch's max allocated bytes); every row
sourced, the source's printed figure kept, and what the source leaves open recorded as unknown.

Run: python calibration/public/build_heldout24.py

The rows were written and committed before the estimator was run on any of them; nothing in the estimator is
fitted to them, and the builder was written without reading the estimator's code (only the input field names and
their comments in ``preflight/estimate/inputs.py`` that bench/public_accuracy.py passes through, the catalog's model
and GPU names, the architecture reader's list of model types, and how held-out-4 and held-out-23 encode the same
benchmark harness). Same row format as devset.json (see build_devset.py). Every figure is the source's own.

1. huggingface/transformers PR #37106 ("Add Sdpa Support: [Electra]", nnilayy, opened 2025-03-29): the description
   benchmarks "google/electra-base-generator" and "google/electra-base-discriminator" "with a MaskedLM head" for
   training and inference, with a training script adapted from fxmarty's (gist nnilayy/998b237a) and says "each
   benchmark (for both training and inference on both models) was run five times"; the PR's model page
   (docs/source/en/model_doc/electra.md in the PR) states the setup: "On a local benchmark (NVIDIA Tesla T4-15GB,
   PyTorch 2.5.1, OS Ubuntu 22.04.3 LTS) using float16 with google/electra-base-generator and
   google/electra-base-discriminator models with a MaskedLM head", and its "Training Benchmark" tables have the columns
   num_training_steps (100), batch_sizes (2, 4, 8, 16), sequence_lengths (32, 64, 128, 256), is_cuda (True), is_half
   (True), ..., "Eager peak mem (MB)", "sdpa peak mem (MB)". Taken: the cells of batch x length >= 2,048 tokens
   (8 x 256, 16 x 128, 16 x 256) of both models, eager and SDPA: 12 rows. The smaller cells (<= 1,024 tokens, peaks
   of 0.25-1.0 GB that the fp16 weights and the allocator's fixed blocks dominate) were left out before scoring.

Left out on purpose (decided before scoring, by what is known): the same PR's inference tables (a forward-only
latency harness whose loop is not in what is read); the transformers model pages for CLIP, ViT, VideoMAE, ViT-MSN,
YOLOS and AST (their SDPA tables give time only, no memory); the BEiT/Data2Vec-Vision page (one non-square 1048 x 640
image); the BioGPT page (no config reader for ``biogpt``); Accelerate's big-model-inference README (the GPT-J-6B
figure's stage, loading or generation, is not stated, and the other rows split the model across two GPUs);
transformers issue #30010 and litgpt PR #275 / #694 (the figures or the data lengths are not in what is read, or the
method is adapter tuning); PEFT issue #1514 and fms-acceleration PR #14 (read by held-out-6 and held-out-3)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-24"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom

GH = "https://github.com"
ELECTRA = "transformers-electra-sdpa-pr-37106"

SOURCES = {
    ELECTRA: {
        "url": f"{GH}/huggingface/transformers/pull/37106",
        "also": ["https://gist.github.com/nnilayy/998b237a45cb3cca8acc27b47049b899 (training script the PR links)",
                 "https://gist.github.com/nnilayy/db493e3464c99f485990dd45e22f8a34 (execution commands the PR links)"],
        "setup": "google/electra-base-generator and google/electra-base-discriminator loaded with a masked-LM head "
                 "(ElectraForMaskedLM) in float16 (is_half True: pure fp16 weights, no autocast) on one Tesla T4, "
                 "eager or SDPA attention, an SDPA training benchmark adapted from fxmarty's: random input_ids of "
                 "(batch, length), model.train(), then steps of zero_grad / outputs = model(**inputs) / "
                 "outputs.logits.sum().backward() with no optimizer step and no cross-entropy, 100 training steps; "
                 "'peak mem (MB)' = torch.cuda.max_memory_allocated() * 1e-6",
        "versions": {"torch": "2.5.1 (stated)",
                     "transformers": "4.51.0.dev0 (the PR's branch, March 2025; not stated)"},
        "date": "2025-03-29 (PR opened; the model page's tables are the PR's)",
        "project": "huggingface/transformers (contributor nnilayy)",
    },
}

# ------------------------------------------------------------------ ELECTRA, SDPA training benchmark on a T4
# google/electra-base-discriminator and google/electra-base-generator config.json (the Hub's), with the masked-LM head
# the benchmark loads (AutoModelForMaskedLM -> ElectraForMaskedLM: generator_predictions dense hidden -> embedding_size
# + GELU + LayerNorm, generator_lm_head embedding_size -> vocabulary, tied to the word embeddings)
ELECTRA_DISCRIMINATOR = {
    "model_type": "electra", "architectures": ["ElectraForMaskedLM"], "vocab_size": 30522, "embedding_size": 768,
    "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072,
    "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
    "max_position_embeddings": 512, "type_vocab_size": 2, "layer_norm_eps": 1e-12, "pad_token_id": 0,
    "position_embedding_type": "absolute", "tie_word_embeddings": True,
}
ELECTRA_GENERATOR = dict(ELECTRA_DISCRIMINATOR, hidden_size=256, num_attention_heads=4, intermediate_size=1024)
ELECTRA_MODELS = {  # short name -> (Hub id, config)
    "generator": ("google/electra-base-generator", ELECTRA_GENERATOR),
    "discriminator": ("google/electra-base-discriminator", ELECTRA_DISCRIMINATOR),
}
# the same harness as held-out-4 / held-out-23 encode it: no optimizer step (sgd keeps no state), the loss is the
# fp16 logits' sum, the output object kept at loop level across steps, every sequence the full length
ELECTRA_BASE = dict(mode="train", precision="fp16", optimizer="sgd", loss="logits", keeps_outputs=True,
                    grad_ckpt=False, padding="max_length", world_size=1, torch_version="2.5.1",
                    transformers_version="4.51.0")
ELECTRA_UNKNOWN = (
    "the training script (gist nnilayy/998b237a, 'adapted from @fxmarty's SDPA scripts') is not in what is read: "
    "written as fxmarty's harness (held-out-4's encoding): no optimizer step (sgd written, which keeps no state), "
    "loss = outputs.logits.sum() (loss 'logits'), the output object kept at loop level (keeps_outputs), dropout on "
    "(model.train()), random input_ids of the full length (padding 'max_length')",
    "is_half True read as from_pretrained(..., torch_dtype=torch.float16): pure fp16 weights and gradients, no "
    "autocast, no grad scaler",
    "'with a MaskedLM head' read as AutoModelForMaskedLM for both checkpoints: ElectraForMaskedLM, whose "
    "generator_predictions (hidden -> embedding_size 768, GELU, LayerNorm) and generator_lm_head (768 -> 30,522, tied "
    "to the word embeddings) the discriminator checkpoint does not carry (initialised new; its ElectraForPreTraining "
    "head is dropped)",
    "configs written from the Hub's config.json values (discriminator hidden 768, 12 heads, FFN 3,072; generator "
    "hidden 256, 4 heads, FFN 1,024; both 12 layers, embedding_size 768, vocabulary 30,522), not re-read from the Hub "
    "here",
    "'NVIDIA Tesla T4-15GB' written as the catalog's T4-16GB (Turing, compute capability 7.5: fp16 runs, no bf16)",
    "'peak mem (MB)' = torch.cuda.max_memory_allocated() * 1e-6 (MB of 10^6 bytes), as fxmarty's script prints it",
    "each benchmark 'was run five times'; whether the table's peak is the mean, the median or one run is not stated "
    "(the peaks are deterministic for a fixed shape, so the runs should agree)",
    "transformers version not stated (the PR's branch, 4.51.0.dev0 in March 2025, written)",
)
ELECTRA_TABLE = {  # (model, batch, length) -> (eager MB, sdpa MB): the PR's model page, 'Training Benchmark'
    ("generator", 8, 256): (947.451, 821.915),
    ("generator", 16, 128): (884.536, 821.915),
    ("generator", 16, 256): (1804.67, 1553.798),
    ("discriminator", 8, 256): (1798.541, 1418.122),
    ("discriminator", 16, 128): (1605.603, 1415.605),
    ("discriminator", 16, 256): (3318.753, 2564.827),
}
for (_model, _bs, _seq), (_eager, _sdpa) in ELECTRA_TABLE.items():
    _hub, _config = ELECTRA_MODELS[_model]
    for _attn, _mb in (("eager", _eager), ("sdpa", _sdpa)):
        add(ELECTRA, f"electra-base-{_model}-mlm-{_attn}-fp16-b{_bs}-s{_seq}-t4", _mb, "MB", "max_memory_allocated",
            "T4-16GB", dict(ELECTRA_BASE, hf_config=_config, model_name=_hub, micro_batch=_bs, seq_len=_seq,
                            attention=_attn),
            unknown=ELECTRA_UNKNOWN,
            notes=f"transformers PR #37106, model page 'Benchmarks For `{_hub}`' / 'Training Benchmark': '| 100 | {_bs} "
                  f"| {_seq} | True | True | ... | {_eager} | {_sdpa} | ...' (Eager / sdpa peak mem (MB)); this row: "
                  f"{_attn} {_mb} MB")


def main():
    write_split("heldout24", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
