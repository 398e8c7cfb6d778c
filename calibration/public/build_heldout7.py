"""Writes calibration/public/heldout7.json: a SEVENTH held-out set of public measured peaks, from
sources that devset.json and held-out-2..6 do not use, transcribed by hand:
the training benchmark of transformers' "Add sdpa support for Albert" pull request (#32092), and
the peak active / peak reserved figures of meta-llama/llama-recipes' "Improve FSDP LoRA Memory
Usage" pull request (#41).
Run: python calibration/public/build_heldout7.py

The rows were written and committed before the estimator was run on any of them; nothing in the
estimator is fitted to them. Same row format as devset.json (see build_devset.py).

1. transformers PR #32092 (ALBERT SDPA), comment of 2024-07-20 by the PR's author: "benchmarks for
   training using `albert-base-v2` model and using the `AutoModelForMaskedLM`. I also used half
   precision i.e. float16", a table of batch 1/2/4 x 256/512 tokens, eager and SDPA, "Eager peak
   mem (MB)" / "sdpa peak mem (MB)", and the script in the comment (fxmarty's training benchmark,
   adapted: ``AutoModelForMaskedLM``, default ``--model-name albert/albert-base-v2``).
   - Mapping decided before scoring, as held-out-4/5 map fxmarty's script: pure fp16 weights,
     ``optimizer`` "sgd" with ``optimizer_step`` "none", ``loss`` "logits" (logits.sum(), no
     cross-entropy), ``keeps_outputs`` true; peak = ``torch.cuda.max_memory_allocated()`` * 1e-6.
     The loop body of the adapted script is not in what is stored; it is taken to be fxmarty's.
   - The comment does not state the GPU or torch. Three days later the same author posted the
     inference table "using GeForce RTX 2060 with 8GB" (and the model page gives RTX 2060-8GB,
     PyTorch 2.3.1 for its tables). The rows say RTX-2060-8GB and torch 2.3.1: an assumption,
     recorded under ``unknown``. An allocated peak depends on the GPU only through the cuBLAS
     workspace and the SDPA kernel choice.
   - Held-out-5 left the ALBERT *page* out (its model and head are not stated; its figures differ
     from this comment's). This set uses the PR comment, which states model and head.
2. meta-llama/llama-recipes PR #41 (Andrew Gu, 2023-07-25): ``torchrun --nproc_per_node 4
   llama_finetuning.py --enable_fsdp --use_peft --peft_method lora --model_name llama-2-7b-hf/
   --pure_bf16`` on 4 x A100 40GB, "Peak active" and "Peak reserved" in GB for three states of
   the code. The setup is read from the repository at the PR's commit 71fdc49 (configs/*.py,
   llama_finetuning.py, utils/train_utils.py, ft_datasets/): Llama-2-7B cast to bf16 (pure bf16, no
   FSDP mixed precision), FSDP FULL_SHARD (LlamaDecoderLayer units; each LoRA leaf its own unit;
   use_orig_params False), non-reentrant activation checkpointing on every decoder layer, PEFT
   LoRA r 8 on q_proj/v_proj, dropout 0.05, torch.optim.AdamW, batch_size_training 4,
   samsum concatenated into 2,048-token chunks (``Concatenator``), torch 2.0.1,
   transformers >= 4.31 (eager attention; Llama 4.31 has no SDPA path).
   - Rows: "limit_all_gathers=True" (the loop binds ``outputs = model(**batch)``: ``keeps_outputs``
     true) and "limit_all_gathers=True and not keeping logits alive" (``loss = model(**batch).loss``,
     the merged code). The first state (``limit_all_gathers=False``) is left out: the estimator has
     no input for FSDP's rate limiter being off.
   - "GB" is taken as 10^9 bytes, as written; the PR does not say how it was read (GiB would be
     7.4% more). Recorded under ``unknown``.
   - ``use_cache`` is left at the config's True (PR #165 later turned it off for FSDP training);
     the estimator had no input for a returned KV cache in training at the first scoring
     (recorded in the notes). After it: the rows say ``use_cache: true`` (est11, in-sample).

Left out on purpose (decided before scoring, by what is known): the BERT PR (#28802) and ELECTRA PR
(#37106) tables (as held-out-5 decided: checkpoint/torch or GPU not stated); llama-recipes issue #100
(integer GiB, precision mode not stated) and PR #165 (a prototype FSDP); torchtitan's performance
tables (selective activation checkpointing, float8, torch.compile: not expressible)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-7"
book = RowBook(SPLIT)
rows = book.rows
add = book.add


SOURCES = {
    "transformers-sdpa-albert": {
        "url": "https://github.com/huggingface/transformers/pull/32092",
        "also": ["the PR's comment of 2024-07-23 (same author: inference table 'using GeForce RTX 2060 "
                 "with 8GB')",
                 "https://github.com/huggingface/transformers/blob/main/docs/source/en/model_doc/albert.md "
                 "(RTX 2060-8GB, PyTorch 2.3.1; other figures, not used)"],
        "setup": "albert/albert-base-v2 with AutoModelForMaskedLM, float16, fxmarty's training script "
                 "adapted, 200 training steps; GPU and torch not stated in the comment",
        "versions": {"torch": "not stated (2.3.1 assumed from the author's page)",
                     "transformers": "about 4.43 (PR of 2024-07; not stated)"},
        "date": "2024-07-20 (benchmark comment on the PR)",
        "project": "huggingface/transformers",
    },
    "llama-recipes-fsdp-lora": {
        "url": "https://github.com/meta-llama/llama-recipes/pull/41",
        "also": ["https://github.com/meta-llama/llama-recipes/tree/71fdc4920ad4a3a9f462072ee5fa4e3218fd6d6a "
                 "(the PR's commit: configs/training.py, configs/fsdp.py, configs/peft.py, "
                 "llama_finetuning.py, utils/train_utils.py, ft_datasets/utils.py, requirements.txt)"],
        "setup": "4 x A100 40GB (AWS); torchrun --nnodes 1 --nproc_per_node 4 llama_finetuning.py "
                 "--enable_fsdp --use_peft --peft_method lora --model_name llama-2-7b-hf/ --pure_bf16",
        "versions": {"torch": "2.0.1 (requirements.txt)", "transformers": ">=4.31.0 (requirements.txt)",
                     "peft": "git main of 2023-07"},
        "date": "2023-07-25",
        "project": "meta-llama/llama-recipes (now llama-cookbook)",
    },
}

# ------------------------------------------------------------------ ALBERT (transformers #32092)
ALBERT_BASE_V2 = {  # albert/albert-base-v2 config.json
    "model_type": "albert", "architectures": ["AlbertForMaskedLM"], "vocab_size": 30000,
    "embedding_size": 128, "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12,
    "intermediate_size": 3072, "hidden_act": "gelu_new", "hidden_dropout_prob": 0,
    "attention_probs_dropout_prob": 0, "max_position_embeddings": 512, "type_vocab_size": 2,
    "num_hidden_groups": 1, "inner_group_num": 1, "layer_norm_eps": 1e-12,
    "classifier_dropout_prob": 0.1, "tie_word_embeddings": True,
}
ALBERT_NOTE = ("fxmarty-style SDPA training benchmark adapted by the PR's author: "
               "AutoModelForMaskedLM(albert/albert-base-v2) in float16, model.train(), 200 steps of "
               "zero_grad / outputs = model(**inputs) / logits.sum().backward() (taken to be fxmarty's "
               "loop: not in what is stored), no optimizer, no cross-entropy; peak = "
               "torch.cuda.max_memory_allocated() after reset_peak_memory_stats, in MB of 10^6 bytes")
ALBERT_UNKNOWN = ("GPU (RTX 2060 8GB assumed: the author's inference comment three days later)",
                  "torch version (2.3.1 assumed: the author's model-page figures)",
                  "transformers version", "the adapted script's loop body")
for batch, seq, eager, sdpa in ((1, 256, 234.781, 217.758), (1, 512, 454.029, 378.171),
                                (2, 256, 416.281, 378.171), (2, 512, 868.131, 717.332),
                                (4, 256, 794.206, 717.332), (4, 512, 1664.025, 1363.268)):
    for attn, val in (("eager", eager), ("sdpa", sdpa)):
        add("transformers-sdpa-albert", f"albert-base-v2-mlm-{attn}-b{batch}-s{seq}", val, "MB",
            "max_memory_allocated", "RTX-2060-8GB",
            dict(hf_config=ALBERT_BASE_V2, model_name="albert-base-v2", mode="train",
                 precision="fp16", optimizer="sgd", optimizer_step="none", loss_fn="logits.sum()",
                 loss="logits", keeps_outputs=True, micro_batch=batch, seq_len=seq, grad_ckpt=False,
                 attention=attn, world_size=1, torch_version="2.3.1", transformers_version="4.43"),
            unknown=ALBERT_UNKNOWN, notes=ALBERT_NOTE)

# ------------------------------------------------------------- llama-recipes PR #41 (FSDP LoRA)
LLAMA2_7B = {  # meta-llama/Llama-2-7b-hf config.json (the tokenizer's added <PAD> does not resize it)
    "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
    "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
    "num_key_value_heads": 32, "vocab_size": 32000, "max_position_embeddings": 4096,
    "rms_norm_eps": 1e-05, "hidden_act": "silu", "tie_word_embeddings": False,
}
LR_NOTE = ("llama-recipes 71fdc49 (PR #41), 4 x A100 40GB: Llama-2-7B loaded fp32 then "
           "model.to(bfloat16) (pure_bf16: FSDP mixed_precision None), PEFT LoRA r 8 alpha 32 on "
           "q_proj/v_proj, dropout 0.05; FSDP FULL_SHARD, limit_all_gathers=True, auto-wrap: every "
           "LlamaDecoderLayer plus each leaf with a trainable weight (the LoRA A/B Linears) as its own "
           "unit, use_orig_params False (the decoder units hold only frozen weights: no gradients); "
           "apply_activation_checkpointing (non-reentrant) on each LlamaDecoderLayer; torch.optim.AdamW "
           "(torch 2.0.1, foreach); batch_size_training 4 (micro 4, no accumulation); samsum packed into "
           "2,048-token chunks by ft_datasets/utils.py Concatenator, default_data_collator; eager "
           "attention (transformers 4.31 Llama); use_cache stays True (the config's default; PR #165 "
           "turned it off later): each layer returns its K/V, kept until the model returns; ")
LR_UNKNOWN = ("GB: 10^9 bytes taken as written (GiB would be 7.4% more); how the peaks were read "
              "(torch.cuda.memory_stats / snapshot) is not stated",
              "exact transformers and peft versions (>= 4.31; peft git main)",
              "the last, shorter chunk of the packed dataset (every other batch is 4 x 2,048)")
for keeps, rid, active, reserved, what in (
        (True, "llama2-7b-lora-fsdp4-limitallgathers-outputs-kept", 20.20, 27.36,
         "state 2 of the PR: limit_all_gathers=True, the loop still binds `outputs = model(**batch)` "
         "and `loss = outputs.loss` (logits and the returned K/V tuples live through backward, until "
         "the next step rebinds outputs)"),
        (False, "llama2-7b-lora-fsdp4-final", 15.22, 19.36,
         "state 3 of the PR (the merged code): limit_all_gathers=True and `loss = model(**batch).loss` "
         "(the output object is dropped at once)")):
    s = dict(hf_config=LLAMA2_7B, model_name="Llama-2-7b-hf", mode="train", precision="bf16",
             optimizer="adamw", micro_batch=4, seq_len=2048, grad_ckpt=True, attention="eager",
             fsdp="full", world_size=4, lora_r=8, lora_targets=["q_proj", "v_proj"],
             lora_dropout=0.05, fsdp_frozen_grads=False, keeps_outputs=keeps, padding="packed",
             loss="standard", torch_version="2.0.1", transformers_version="4.31.0",
             load_placement="host",
             # added AFTER the first scoring, when the estimator got an input for it: the fact
             # the notes recorded before scoring (use_cache stays on under torch's wrapper)
             use_cache=True,
             # est21, likewise: the notes' limit_all_gathers=True (torch 2.0.1's default is False)
             fsdp_limit_all_gathers=True)
    add("llama-recipes-fsdp-lora", rid + "-active", active, "GB", "peak_memory_active",
        "A100-SXM-40GB", s, unknown=LR_UNKNOWN, notes=LR_NOTE + what + "; peak = 'Peak active' (GB)")
    add("llama-recipes-fsdp-lora", rid + "-reserved", reserved, "GB", "memory_reserved",
        "A100-SXM-40GB", s, unknown=LR_UNKNOWN, notes=LR_NOTE + what + "; peak = 'Peak reserved' (GB)")


def main():
    write_split("heldout7", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
