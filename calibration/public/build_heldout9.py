"""Writes calibration/public/heldout9.json: a NINTH held-out set of public measured peaks, from
sources that devset.json and held-out-2..8 do not use, transcribed by hand from six independent
publishers (at most four rows each): litgpt's config-hub table (full, LoRA and QLoRA fine-tunes on
an A10G, one out of memory), PyTorch's "optimizer step in backward" tutorial (torchvision ViT-L/16,
Adam, with and without the step fused into backward), DeepSpeedExamples' bf16_master_weight example
(a 254M and a 6.86B transformer trained from scratch under ZeRO-3 on 1 and 4 GPUs, with and without
activation checkpointing), a blog notebook measuring BERT-large fine-tuning on an RTX 3090,
mmengine's activation-checkpointing pull request (mmpretrain ViT-L/16 on ImageNet, DDP x 2), and
the Hugging Face "PyTorch FSDP" blog post (GPT-2 XL under DDP: out of memory on a 24 GB TITAN RTX).
Run: python calibration/public/build_heldout9.py

The rows were written and committed before the estimator was run on any of them; nothing in the
estimator is fitted to them. Same row format as devset.json (see build_devset.py); verdict-only rows
(``outcome`` "oom", no ``peak_bytes``) count for false fits only.

1. litgpt ``config_hub/finetune/README.md`` at 00af8b0 (2024-09-13): "Peak memory" of each config on
   "1xA10G", bf16-true, Alpaca2k, max_seq_length 512. litgpt's finetune scripts print
   ``torch.cuda.max_memory_allocated() / 1e9`` as "Memory used: X GB" at the end of training
   (``max_memory_allocated``, GB of 10^9 bytes; training, validation and one 100-token sample
   generation). The configs are read at the same commit (the yaml files last changed 0077627).
   - ``precision: bf16-true``: weights, gradients and AdamW states in bf16 (torch.optim.AdamW,
     foreach). ``global_batch_size / micro_batch_size`` accumulation steps on one device
     (``fabric.no_backward_sync``).
   - Batches are padded per batch to their longest sample (litgpt's SFT collate), truncated at
     ``max_seq_length`` 512; whether the longest Alpaca2k batch reaches 512 tokens is not
     established (``seq_len`` 512 is the cap, recorded under ``unknown``).
   - LoRA (lora.py): LoRA on the fused qkv projection's query/key/value parts, the attention
     projection, the MLP and the head as the yaml switches them on; written as the HF module
     names (``lm_head`` has no adapter size in the estimator's table: left in the list as read).
     The LM loss is litgpt's ``chunked_cross_entropy`` (``lm_head_chunk_size=128`` in lora.py; the
     full head output then chunks of 128 in full.py): ``loss`` "chunked", as the devset's litgpt rows.
   - QLoRA: ``quantize: bnb.nf4`` (Lightning's BitsandbytesPrecision: NF4, no double quantization,
     no ``prepare_model_for_kbit_training``).
   - The torch version is not stated (litgpt 0.4.13.dev1 requires torch >= 2.2).
2. pytorch/tutorials ``intermediate_source/optimizer_step_in_backward_tutorial.py`` (read at
   2a48870): ``models.vit_l_16(weights='DEFAULT')`` (IMAGENET1K_V1: 224 x 224, 1,000 classes) in
   fp32 on the GPU, ``torch.optim.Adam(model.parameters())`` (foreach), a random 1 x 3 x 224 x 224
   image, ``loss = model(image)``; ``loss.sum().backward()`` (a reduction of the logits, no
   cross-entropy: ``loss`` "logits"), three steps under ``torch.cuda.memory._record_memory_history``.
   The text reads the peak off the memory snapshot: "~6GB of peak memory" (optimizer step) and,
   with one ``Adam([p], foreach=False)`` per parameter stepped from a
   ``register_post_accumulate_grad_hook``, "It is now ~4GB". Measured: the snapshot's allocated
   peak (``max_memory_allocated``), stated to one significant figure by its author (recorded under
   ``unknown``; GiB: the memory viewer's units). torchvision's EncoderBlock calls
   ``nn.MultiheadAttention(need_weights=False)``: SDPA in training (as held-out-8's ViT rows);
   dropout 0. Written as the HF ViT-L/16 config (same shapes) with 1,000 labels. "PyTorch 2.1.0 or
   newer" is required; the GPU is not named.
3. deepspeedai/DeepSpeedExamples ``training/bf16_master_weight`` at 6a3d817 (2025-12-20; README,
   train.py, configs/baseline.json): the "Baseline (fp32 master)" rows only (the bf16 master
   weights/optimizer-state options have no input in the estimator). train.py builds
   ``SimpleTransformerModel``: token + learned position embeddings, post-LN blocks of
   ``nn.MultiheadAttention(hidden, heads, batch_first=True)`` called as ``attention(x, x, x)``
   (need_weights=True: the math path, attention weights materialised; no mask), a GELU MLP of 4 x
   hidden, and an untied ``Linear(hidden, vocab)`` head with bias; vocabulary 50,000, random token ids
   (batch x 512, no padding). Written as an HF gpt2 config with the same widths (the parameter
   counts agree to 0.01%; GPT-2 is pre-LN and causal, neither changes the stored tensors).
   ``CrossEntropyLoss`` on the bf16 logits (no upcast), ``logits``/``loss`` bound at loop level
   (kept to the next step). baseline.json: bf16 enabled (DeepSpeed's bf16: 16-bit weights, fp32
   master weights and AdamW states in the optimizer; written ``amp-bf16`` with ZeRO, as earlier
   sets), ZeRO stage 3, overlap_comm, contiguous_gradients, reduce_bucket_size 5e7,
   ``stage3_param_persistence_threshold`` 0, no ``zero.Init``: ``deepspeed.initialize`` casts the
   module to bf16 and moves it whole to each GPU before partitioning (``load_placement`` "gpu").
   ``torch.cuda.reset_peak_memory_stats()`` runs before the model is built; "Peak Memory" is
   ``torch.cuda.max_memory_allocated()`` after 20 steps, printed in GiB ("GB" in the print).
   The GPU and the torch version are not stated (the README asks for Ampere or newer; a 41 GB
   peak needs more than 40 GB): A100-SXM-80GB is assumed, recorded under ``unknown``.
4. mscherrmann.github.io ``assets/jupyter/testGPUMemoryBertTraining.ipynb`` at 2f5ab75 (the
   notebook of the post "Understand GPU Memory Usage for Language Model Fine-Tuning",
   2024-02-19): ``AutoModelForSequenceClassification("bert-large-uncased")`` (2 labels) in fp32 on
   an RTX 3090, batch 4 x 512 random token ids (no padding), ``torch.optim.AdamW`` (foreach),
   ``model(**batch).loss``, two steps; the output cell prints ``torch.cuda.max_memory_allocated()``
   = 10562.79 MiB. The notebook's own per-tensor accounting of the forward (attention scores and
   probabilities stored) matched the allocator to KiB: eager attention (transformers of February
   2024, before BERT had an SDPA path).
5. open-mmlab/mmengine pull request #1319 (comment of 2023-09-04): mmpretrain
   ``configs/vision_transformer/vit-large-p16_64xb64_in1k.py`` trained with ``torchrun
   --nproc-per-node 2``; the log's ``memory: 26012`` without activation checkpointing (mmengine's
   ``get_max_cuda_memory``: ``torch.cuda.max_memory_allocated() // 2**20`` over the logging interval,
   MiB). The config (read in mmpretrain at b0b4422, 2023-09-05): ViT-L/16 224, drop_rate 0.1,
   VisionTransformerClsHead with a 3,072-wide pre-logits layer (not in the HF config: 6M
   parameters), Mixup, AdamW (fp32, no AMP), grad clipping, 64 images per GPU, DDP. The other row of
   that table (checkpointing on 10 of 24 layers) has no input in the estimator and is left out.
   mmpretrain's attention calls ``F.scaled_dot_product_attention`` from torch 2.0; the torch version
   and the GPU are not stated (torch >= 2.0 and A100-SXM-80GB assumed, recorded under ``unknown``).
6. huggingface/blog ``pytorch-fsdp.md`` (read at 00e67ae; 2022-05): Table 2, GPT-2 XL (1.5B) with
   ``run_clm_no_trainer.py`` on 24 GB TITAN RTX GPUs: DDP batch 1 on 1 and 2 GPUs and "DDP + FP16"
   on 1 GPU end in "CUDA out of memory" (the message is quoted). Verdict-only rows. The command's
   ``--block_size 12`` is read as 128 (the post's command lines are cut; the out-of-memory does not
   depend on it: weights, gradients and AdamW states alone are 23 GiB of the card's 23.6), recorded
   under ``unknown``. torch "Nightly (or 1.12.0)", AdamW (torch, foreach off in 1.12).

Left out on purpose (decided before scoring, by what is known): torchtitan's benchmark tables
(selective activation checkpointing and Float8: no input for either); DeepSpeed's Muon blog (its
setup is in an external demo repository not stored here); DeepSpeed's AutoTP tables (inference
kernels); accelerate's big-model-inference table (what "GPU 0 use" measures is not printed);
xtuner's loss benchmark (a head and a loss, not a model); litgpt's finetune_lora tutorial tables
(the same project as source 1, and no GPU or sequence length stated); torchtune documents and
pull requests (the devset's torchtune sources); PEFT issues (held-out-6's reasons); the timm
hgnet pull request (no reader for that model type)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heldout_rows import RowBook, write_split

SPLIT = "held-out-9"
book = RowBook(SPLIT)
rows = book.rows
add = book.add
add_oom = book.add_oom


LITGPT = "litgpt-config-hub-finetune"
TUTORIAL = "pytorch-tutorial-optimizer-in-backward"
DSBF16 = "deepspeed-examples-bf16-master-weight"
BERTNB = "mscherrmann-bert-large-memory"
MMENGINE = "mmengine-pr1319-vit-large"
HFFSDP = "hf-blog-pytorch-fsdp"
SOURCES = {
    LITGPT: {
        "url": "https://github.com/Lightning-AI/litgpt/blob/00af8b0d9b43eaa3f8c812e3e8bd53ef38cbb49d/config_hub/finetune/README.md",
        "also": ["https://github.com/Lightning-AI/litgpt/tree/00af8b0d9b43eaa3f8c812e3e8bd53ef38cbb49d/config_hub/finetune "
                 "(tiny-llama/full.yaml, llama-2-7b/qlora.yaml, phi-2/lora.yaml, gemma-7b/lora.yaml)",
                 "https://github.com/Lightning-AI/litgpt/blob/00af8b0d9b43eaa3f8c812e3e8bd53ef38cbb49d/litgpt/finetune/lora.py",
                 "https://github.com/Lightning-AI/litgpt/blob/00af8b0d9b43eaa3f8c812e3e8bd53ef38cbb49d/litgpt/finetune/full.py"],
        "setup": "litgpt config-hub fine-tunes on Alpaca2k, bf16-true, max_seq_length 512, one A10G: "
                 "TinyLlama full, Llama-2-7B QLoRA, Phi-2 LoRA (all layers), Gemma-7B LoRA (OOM)",
        "versions": {"litgpt": "0.4.13.dev1 (pyproject at 00af8b0)", "torch": ">=2.2 (not stated)"},
        "date": "2024 (README last changed 2024-09-13)",
        "project": "Lightning-AI/litgpt (the devset's litgpt rows come from another document, "
                   "tutorials/resource-tables.md)",
    },
    TUTORIAL: {
        "url": "https://github.com/pytorch/tutorials/blob/2a488705e00cc04c12e905e3d68d351c1834661e/intermediate_source/optimizer_step_in_backward_tutorial.py",
        "also": ["https://pytorch.org/tutorials/intermediate/optimizer_step_in_backward_tutorial.html"],
        "setup": "torchvision ViT-L/16, fp32, batch 1, Adam; then one Adam(foreach=False) per parameter "
                 "stepped in a post-accumulate-grad hook; peaks read from memory snapshots",
        "versions": {"torch": ">=2.1 (the tutorial's requirement)"},
        "date": "2023 (tutorial added with torch 2.1)",
        "project": "pytorch/tutorials",
    },
    DSBF16: {
        "url": "https://github.com/deepspeedai/DeepSpeedExamples/blob/6a3d817ab345dc853d0a742a5b0ecf373123dc34/training/bf16_master_weight/README.md",
        "also": ["https://github.com/deepspeedai/DeepSpeedExamples/blob/6a3d817ab345dc853d0a742a5b0ecf373123dc34/training/bf16_master_weight/train.py",
                 "https://github.com/deepspeedai/DeepSpeedExamples/blob/6a3d817ab345dc853d0a742a5b0ecf373123dc34/training/bf16_master_weight/configs/baseline.json",
                 "https://github.com/deepspeedai/DeepSpeed/blob/edaa7221267243c7be7fb49c5d5f5c4fb97b4641/blogs/core_api_update/README.md "
                 "(repeats the 6.86B checkpointed row)"],
        "setup": "a simple post-LN transformer (nn.MultiheadAttention, GELU MLP, untied head) trained "
                 "from scratch on random tokens, batch x 512, DeepSpeed bf16 + ZeRO-3: 254M on 1 and 4 "
                 "GPUs (batch 4), 6.86B on 4 GPUs (batch 1) with and without activation checkpointing",
        "versions": {"deepspeed": ">= the release with bf16_master_weights_and_grads (PR 7700)",
                     "torch": "not stated"},
        "date": "2025-12-20",
        "project": "deepspeedai/DeepSpeedExamples",
    },
    BERTNB: {
        "url": "https://github.com/mscherrmann/mscherrmann.github.io/blob/2f5ab7537b4fdd097422e9dc39b87a41975f64ed/assets/jupyter/testGPUMemoryBertTraining.ipynb",
        "also": ["https://github.com/mscherrmann/mscherrmann.github.io/blob/356e361f3b98406daadc5254d045af2c27746624/_posts/2024-02-19-GPU-Memory_BERT.md"],
        "setup": "bert-large-uncased sequence classification, fp32, AdamW, batch 4 x 512, RTX 3090",
        "versions": {"transformers": "of 2024-02 (not printed)", "torch": "not printed"},
        "date": "2024-02-26",
        "project": "mscherrmann/mscherrmann.github.io (a personal blog)",
    },
    MMENGINE: {
        "url": "https://github.com/open-mmlab/mmengine/pull/1319",
        "also": ["https://github.com/open-mmlab/mmpretrain/blob/b0b4422736d069c6eaeb3e0e584ea8d42b9d4138/configs/vision_transformer/vit-large-p16_64xb64_in1k.py",
                 "https://github.com/open-mmlab/mmpretrain/blob/b0b4422736d069c6eaeb3e0e584ea8d42b9d4138/configs/_base_/models/vit-large-p16.py",
                 "https://github.com/open-mmlab/mmpretrain/blob/b0b4422736d069c6eaeb3e0e584ea8d42b9d4138/configs/_base_/schedules/imagenet_bs4096_AdamW.py"],
        "setup": "mmpretrain ViT-L/16 on ImageNet at 224, fp32 AdamW, 64 images per GPU, DDP on 2 GPUs, "
                 "no activation checkpointing",
        "versions": {"mmengine": "of 2023-09 (the pull request's branch)", "torch": "not stated"},
        "date": "2023-09-04",
        "project": "open-mmlab/mmengine",
    },
    HFFSDP: {
        "url": "https://github.com/huggingface/blog/blob/00e67ae4b7a8c1bc4db743be1a2931422c6d2be2/pytorch-fsdp.md",
        "also": ["https://huggingface.co/blog/pytorch-fsdp"],
        "setup": "GPT-2 XL causal-LM training with accelerate's run_clm_no_trainer.py on 24 GB TITAN RTX "
                 "GPUs: DDP (1 and 2 GPUs) and DDP + FP16 at batch 1 run out of memory",
        "versions": {"torch": "nightly of 2022-05 (or 1.12.0)"},
        "date": "2022-05",
        "project": "huggingface/blog",
    },
}

# ------------------------------------------------------------------ 1. litgpt config hub
LITGPT_UNKNOWN = ("whether the longest Alpaca2k batch reaches max_seq_length 512 (seq_len is the cap)",
                  "torch version (litgpt 0.4.13.dev1 requires torch >= 2.2)")
LITGPT_NOTE = ("litgpt config_hub/finetune README at 00af8b0: 'Peak memory' on 1xA10G = litgpt's "
               "'Memory used' (torch.cuda.max_memory_allocated() / 1e9 after training, validation and "
               "a 100-token sample), bf16-true, Alpaca2k, per-batch padding truncated at 512, "
               "torch.optim.AdamW (betas 0.9/0.95, weight decay 0), chunked_cross_entropy; ")
LIT_BASE = dict(mode="train", precision="bf16", optimizer="adamw", seq_len=512, attention="sdpa",
                loss="chunked", world_size=1, grad_ckpt=False, model_impl="litgpt",
                padding="dynamic")
add(LITGPT, "tiny-llama-full-mb4-accum8-1xa10g", 14.10, "GB", "max_memory_allocated", "A10G",
    dict(LIT_BASE, model="TinyLlama-1.1B", micro_batch=4, grad_accum=8),
    unknown=LITGPT_UNKNOWN,
    notes=LITGPT_NOTE + "tiny-llama/full.yaml: full fine-tune (full.py), micro-batch 4, global batch "
                        "32 on one device (8 accumulation steps under no_backward_sync)")
add(LITGPT, "llama-2-7b-qlora-nf4-r32-qv-mb2-accum4-1xa10g", 13.68, "GB", "max_memory_allocated",
    "A10G",
    dict(LIT_BASE, model="Llama-2-7B", micro_batch=2, grad_accum=4, lora_r=32,
         lora_targets=["q_proj", "v_proj"], lora_dropout=0.05, quant="4bit", quant_type="nf4",
         double_quant=False, kbit_prepared=False),
    unknown=LITGPT_UNKNOWN,
    notes=LITGPT_NOTE + "llama-2-7b/qlora.yaml: quantize bnb.nf4, LoRA r 32 (alpha 16, dropout 0.05) on "
                        "query and value, micro-batch 2, global batch 8 (4 accumulation steps)")
add(LITGPT, "phi-2-lora-r8-all-mb4-accum2-1xa10g", 13.98, "GB", "max_memory_allocated", "A10G",
    dict(LIT_BASE, model="Phi-2", micro_batch=4, grad_accum=2, lora_r=8,
         lora_targets=["q_proj", "k_proj", "v_proj", "dense", "fc1", "fc2", "lm_head"],
         lora_dropout=0.05),
    unknown=LITGPT_UNKNOWN,
    notes=LITGPT_NOTE + "phi-2/lora.yaml: LoRA r 8 (alpha 16, dropout 0.05) on query, key, value, "
                        "projection, MLP and head, micro-batch 4, global batch 8 (2 accumulation steps)")
add_oom(LITGPT, "gemma-7b-lora-r16-all-mb1-accum6-1xa10g", "max_memory_allocated", "A10G",
        dict(LIT_BASE, model="Gemma-7B", micro_batch=1, grad_accum=6, lora_r=16,
             lora_targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj",
                           "lm_head"],
             lora_dropout=0.1),
        unknown=LITGPT_UNKNOWN,
        notes=LITGPT_NOTE + "gemma-7b/lora.yaml on 1xA10G: the table says OOM. LoRA r 16 (alpha 16, "
                            "dropout 0.1) on query, key, value, projection, MLP and head, micro-batch 1, "
                            "global batch 6")

# ------------------------------------------------------ 2. PyTorch tutorial: ViT-L/16 batch 1
VIT_L16_1K = {  # torchvision vit_l_16 (IMAGENET1K_V1), written as the HF ViT config, 1,000 classes
    "model_type": "vit", "architectures": ["ViTForImageClassification"], "hidden_size": 1024,
    "num_hidden_layers": 24, "num_attention_heads": 16, "intermediate_size": 4096,
    "image_size": 224, "patch_size": 16, "num_channels": 3, "qkv_bias": True, "hidden_act": "gelu",
    "hidden_dropout_prob": 0.0, "attention_probs_dropout_prob": 0.0, "layer_norm_eps": 1e-6,
    "num_labels": 1000,
}
TUT_UNKNOWN = ("the peak is the author's reading of a memory snapshot to one significant figure "
               "('~6GB', '~4GB'; GiB, the memory viewer's units)",
               "torch version (2.1 or newer) and the GPU (not named)")
TUT_NOTE = ("pytorch/tutorials optimizer_step_in_backward_tutorial.py: models.vit_l_16(weights="
            "'DEFAULT').cuda() (fp32, training mode, dropout 0), fake image 1 x 3 x 224 x 224, loss = "
            "model.forward(image); loss.sum().backward(); three steps recorded with "
            "torch.cuda.memory._record_memory_history; ")
TUT_BASE = dict(hf_config=VIT_L16_1K, model_name="vit_l_16 (torchvision)", mode="train",
                precision="fp32", optimizer="adamw", micro_batch=1, image_size=224, grad_ckpt=False,
                attention="sdpa", dropout=0.0, loss="logits", world_size=1, torch_version="2.1",
                # torchvision's EncoderBlock runs nn.MultiheadAttention (est17: batch 1, no
                # output copy, the estimate does not move)
                torch_mha=True)
add(TUTORIAL, "vit-l16-fp32-b1-adam", 6, "GiB", "max_memory_allocated", "A10G",
    dict(TUT_BASE),
    unknown=TUT_UNKNOWN,
    notes=TUT_NOTE + "torch.optim.Adam(model.parameters()) (foreach), optimizer.step(); "
                     "optimizer.zero_grad(): 'The peak memory usage is during the optimizer step! ... "
                     "totaling to ~6GB of peak memory'")
add(TUTORIAL, "vit-l16-fp32-b1-adam-step-in-backward", 4, "GiB", "max_memory_allocated", "A10G",
    dict(TUT_BASE, optimizer_in_backward=True, foreach=False),
    unknown=TUT_UNKNOWN,
    notes=TUT_NOTE + "one torch.optim.Adam([p], foreach=False) per parameter, step() and zero_grad() "
                     "in p.register_post_accumulate_grad_hook: 'The peak memory is lower! It is now "
                     "~4GB' (the peak moved to the start of backward)")

# ---------------------------------------- 3. DeepSpeedExamples bf16_master_weight: ZeRO-3 baseline


def simple_transformer(hidden, layers, heads):
    """train.py's SimpleTransformerModel as an HF gpt2 config (same widths and parameter count)."""
    return {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": hidden,
            "n_layer": layers, "n_head": heads, "n_positions": 512, "n_ctx": 512, "vocab_size": 50000,
            "activation_function": "gelu", "resid_pdrop": 0.0, "embd_pdrop": 0.0, "attn_pdrop": 0.0,
            "layer_norm_epsilon": 1e-5, "tie_word_embeddings": False}


DS_UNKNOWN = ("GPU model (A100-SXM-80GB assumed: the README asks for bf16 support and a 41 GB peak "
              "needs more than 40 GB)", "torch version; DeepSpeed version (0.18.3 assumed from the "
              "README's date and its bf16_master_weights_and_grads option)")
DS_NOTE = ("DeepSpeedExamples bf16_master_weight at 6a3d817, configs/baseline.json: bf16 enabled "
           "(16-bit module, fp32 master weights and AdamW states), ZeRO-3, overlap_comm, "
           "contiguous_gradients, reduce_bucket_size 5e7, stage3_param_persistence_threshold 0, "
           "no torch_autocast, no zero.Init (deepspeed.initialize moves the bf16 module to the GPU, "
           "then partitions it); random token ids, CrossEntropyLoss on the bf16 logits, "
           "`logits = model_engine(input_ids)` and `loss` at loop level; nn.MultiheadAttention called "
           "with need_weights=True (math path); the model has no KV cache (use_cache false); "
           "reset_peak_memory_stats() before the model is built; 'Peak Memory' = "
           "torch.cuda.max_memory_allocated() / 1024**3 after 20 steps (printed 'GB'); ")
DS_BASE = dict(model_name="SimpleTransformerModel (DeepSpeedExamples)", mode="train",
               precision="amp-bf16", optimizer="adamw", seq_len=512, attention="eager", dropout=0.0,
               zero_stage=3, overlap_comm=True, contiguous_gradients=True,
               reduce_bucket_size=50_000_000, load_placement="gpu", loss="standard",
               loss_in_logits_dtype=True, keeps_outputs=True, use_cache=False,
               padding="max_length",
               # (est20) the blocks are torch's nn.MultiheadAttention and nn.Linear, not
               # transformers' GPT-2 Conv1D; DeepSpeed assumed 0.18.3: the first release with
               # bf16_master_weights_and_grads (39a682d, #7700) and the latest on the README's
               # date (2025-12-20); every release before 0.19.4 behaves the same here
               torch_mha=True, deepspeed_version="0.18.3")
for rid, value, ch, what in (
        ("254m-zero3-b4-1gpu", 5.93,
         dict(hf_config=simple_transformer(1024, 12, 16), micro_batch=4, world_size=1, grad_ckpt=False),
         "README '1-GPU Results', Baseline: hidden 1024, 12 layers, 16 heads, batch 4, "
         "deepspeed --num_gpus=1"),
        ("254m-zero3-b4-4gpu", 3.57,
         dict(hf_config=simple_transformer(1024, 12, 16), micro_batch=4, world_size=4, grad_ckpt=False),
         "README '4-GPU Results (per GPU) - 254M Model', Baseline: batch 4 per GPU"),
        ("6.86b-zero3-b1-4gpu", 41.28,
         dict(hf_config=simple_transformer(4096, 32, 32), micro_batch=1, world_size=4, grad_ckpt=False),
         "README '4-GPU Results (per GPU) - 6.86B Model', Baseline: hidden 4096, 32 layers, 32 heads, "
         "batch 1"),
        ("6.86b-zero3-b1-4gpu-actckpt", 31.38,
         dict(hf_config=simple_transformer(4096, 32, 32), micro_batch=1, world_size=4, grad_ckpt=True),
         "README '4-GPU Results (per GPU) - 6.86B Model with Activation Checkpointing', Baseline: "
         "--activation_checkpointing (torch.utils.checkpoint.checkpoint(layer, x, use_reentrant=False) "
         "on every block)")):
    add(DSBF16, rid, value, "GiB", "max_memory_allocated", "A100-SXM-80GB", dict(DS_BASE, **ch),
        unknown=DS_UNKNOWN, notes=DS_NOTE + what)

# -------------------------------------------------------- 4. BERT-large notebook (RTX 3090)
add(BERTNB, "bert-large-seqcls-fp32-b4-s512-adamw-rtx3090", 10562.79, "MiB", "max_memory_allocated",
    "RTX 3090",
    dict(model="BERT-large-uncased", task="sequence-classification", num_labels=2, mode="train",
         precision="fp32", optimizer="adamw", micro_batch=4, seq_len=512, grad_ckpt=False,
         attention="eager", dropout=0.1, world_size=1, padding="max_length",
         transformers_version="4.38"),
    unknown=("transformers and torch versions (not printed; 4.38 was the latest transformers release "
             "on the notebook's date, before BERT's SDPA path)",),
    notes="testGPUMemoryBertTraining.ipynb at 2f5ab75: AutoModelForSequenceClassification("
          "'bert-large-uncased') (num_labels 2, dropout 0.1, train mode), random input_ids of 4 x 512 "
          "(no attention mask, labels 0), torch.optim.AdamW(lr=1e-5) (foreach), loss = "
          "model(**batch).loss; loss.backward(); optimizer.step(); optimizer.zero_grad() for two "
          "iterations (gradient_checkpointing False, fp16 False, accumulation 1) inside a "
          "torch.profiler.profile(profile_memory=True); 'Actual maximum allocated memory by tensors: "
          "10562.79 MiB' = torch.cuda.max_memory_allocated() / 1024**2")

# ------------------------------------------- 5. mmengine PR #1319: mmpretrain ViT-L/16, DDP x 2
VIT_L16_MM = dict(VIT_L16_1K, hidden_dropout_prob=0.1)
add(MMENGINE, "mmpretrain-vit-l16-fp32-b64-ddp2", 26012, "MiB", "max_memory_allocated",
    "A100-SXM-80GB",
    dict(hf_config=VIT_L16_MM, model_name="mmpretrain VisionTransformer arch 'l'", mode="train",
         precision="fp32", optimizer="adamw", micro_batch=64, image_size=224, grad_ckpt=False,
         attention="sdpa", dropout=0.1, world_size=2),
    unknown=("GPU model (A100-SXM-80GB assumed; not stated)",
             "torch version (>= 2.0 assumed: mmpretrain then calls F.scaled_dot_product_attention; "
             "before 2.0 its Python attention stores the scores)"),
    notes="mmengine PR #1319 'Implement gradient checkpointing', comment of 2023-09-04: `torchrun "
          "--nproc-per-node 2 tools/train.py configs/vision_transformer/vit-large-p16_64xb64_in1k.py "
          "--launcher pytorch`, 'without activation_checkpointing | memory: 26012' (mmengine's log "
          "'memory' = torch.cuda.max_memory_allocated() // 2**20 since the previous log line, MiB). "
          "Config at mmpretrain b0b4422: VisionTransformer arch 'l', img_size 224, patch 16, "
          "drop_rate 0.1 (after the position embedding, in the MLP and after attention), "
          "VisionTransformerClsHead(hidden_dim=3072: pre-logits Linear + Tanh, then 1,000 classes), "
          "Mixup(alpha=0.2), AdamW(lr 0.003, weight decay 0.3) without AMP, clip_grad max_norm 1.0, "
          "batch 64 per GPU, MMDistributedDataParallel")

# ------------------------------------------------ 6. HF blog 'PyTorch FSDP': GPT-2 XL OOM rows
FSDP_UNKNOWN = ("block size (the post's '--block_size 12' read as 128; the out-of-memory does not "
                "depend on it)",)
FSDP_NOTE = ("huggingface/blog pytorch-fsdp.md Table 2 'Benchmarking FSDP on GPT-2 XL (1.5B) model', "
             "2 x 24 GB TITAN RTX: `accelerate launch run_clm_no_trainer.py --model_name_or_path "
             "gpt2-xl --dataset_name wikitext --dataset_config_name wikitext-2-raw-v1 "
             "--per_device_train_batch_size 1`, torch.optim.AdamW, fp32 weights; the OOM message "
             "quoted: 'Tried to allocate 40.00 MiB (GPU 0; 23.65 GiB total capacity; 22.27 GiB already "
             "allocated ...)'; ")
FSDP_BASE = dict(model="GPT-2-XL", mode="train", optimizer="adamw", micro_batch=1, seq_len=128,
                 grad_ckpt=False, attention="eager", padding="max_length", torch_version="1.12",
                 transformers_version="4.19", foreach=False)
add_oom(HFFSDP, "gpt2-xl-ddp-fp32-b1-1gpu", "max_memory_allocated", "TITAN RTX",
        dict(FSDP_BASE, precision="fp32", world_size=1), unknown=FSDP_UNKNOWN,
        notes=FSDP_NOTE + "row 'DDP | 1 | 1 GPU | OOM'")
add_oom(HFFSDP, "gpt2-xl-ddp-fp32-b1-2gpu", "max_memory_allocated", "TITAN RTX",
        dict(FSDP_BASE, precision="fp32", world_size=2), unknown=FSDP_UNKNOWN,
        notes=FSDP_NOTE + "row 'DDP | 1 | 2 GPUs | OOM'")
add_oom(HFFSDP, "gpt2-xl-ddp-fp16amp-b1-1gpu", "max_memory_allocated", "TITAN RTX",
        dict(FSDP_BASE, precision="amp-fp16", world_size=1), unknown=FSDP_UNKNOWN,
        notes=FSDP_NOTE + "row 'DDP + FP16 | 1 | 1 GPU | OOM' (accelerate mixed_precision fp16: "
                          "autocast and GradScaler over fp32 weights)")


def main():
    write_split("heldout9", __doc__, SPLIT, SOURCES, rows)


if __name__ == "__main__":
    main()
