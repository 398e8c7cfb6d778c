"""The sixth held-out set of the jobs benchmark (run.py --set held-out-6): expert truth
written by hand, one J(...) per job."""
from .core import J, T

# --- held out, sixth set (issue 15, jobs6): eight jobs from eight repositories none of whose jobs
# were in the benchmark before, each labelled from the code at the pinned commit before preflight
# was run on it.
H6="sixth held-out set"
QL=("artidoro/qlora","7f4e95a68dc076bea9b3a413d2b512eca6d004e5")
qls="scripts/finetune_guanaco_7b.sh"
J("qlora-guanaco-7b",*QL,["qlora.py","scripts","requirements.txt"],".",[qls],{
 "model.ref":T("huggyllama/llama-7b",qls+":2"),
 "dist.world_size":T(1,qls+":1 python qlora.py: one process (qlora.py:298 device_map auto)"),
 "batch.micro":T(1,qls+":34"),
 "batch.grad_accum":T(16,qls+":35"),
 "data.seq_len":T(528,qls+":32-33 source 16 + target 512 -> qlora.py:460-480 input_ids = source + target"),
 "peft.method":T("lora","qlora.py:376-394 LoraConfig when not full_finetune (default False)"),
 "peft.rank":T(64,qls+":21"),
 "precision.weights_bits":T(4,qls+":27 --bits 4 -> qlora.py:314,319 load_in_4bit"),
 "precision.quant_type":T("nf4",qls+":25 -> qlora.py:325"),
 "precision.double_quant":T(True,qls+":24 -> qlora.py:324"),
 "task.mode":T("qlora","4-bit base + LoRA"),
 "memory.gradient_checkpointing":T(True,qls+":30 (also qlora.py:206 default True)"),
 "precision.mode":T("amp_bf16",qls+":26 --bf16 (Trainer autocast; qlora.py:327 bf16 non-quantized weights, :398-405 LoRA layers cast to bf16)",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("paged_adamw_32bit","qlora.py:198 optim default"),
 "data.num_workers":T(3,qls+":14"),
},held_out=True,note=H6)
MF=("mistralai/mistral-finetune","1943535d8e6d46b2eb47de8b81df07fec3ca5c15")
J("mistral-finetune-7b-lora",*MF,["train.py","finetune","model","example","utils","pyproject.toml","requirements.txt"],".",
 ["--","torchrun","--nproc-per-node","8","--master_port","29500","-m","train","example/7B.yaml"],{
 "dist.world_size":T(8,"README.md:443 --nproc-per-node 8"),
 "dist.sharding":T("fsdp_full","finetune/wrapped_model.py:188-190 FullyShardedDataParallel FULL_SHARD"),
 "batch.micro":T(1,"example/7B.yaml:14 batch_size"),
 "batch.grad_accum":T(1,"finetune/args.py:67 num_microbatches default 1, not in 7B.yaml"),
 "data.seq_len":T(32768,"example/7B.yaml:13"),
 "precision.mode":T("bf16","train.py:175-176 param_dtype bf16, optim_dtype fp32 (bf16 weights, fp32 master copies: finetune/mixed_precision.py)"),
 "memory.gradient_checkpointing":T(True,"finetune/args.py:86 checkpoint default True -> wrapped_model.py:142"),
 "peft.method":T("lora","model/args.py:9 LoraArgs.enable default True"),
 "peft.rank":T(64,"example/7B.yaml:10"),
 "task.mode":T("lora","no quantization in mistral-finetune"),
 "optimizer.name":T("AdamW","train.py:188",any_of=["AdamW","adamw"]),
},held_out=True,note=H6+"; README.md:443 with $RANDOM as 29500; model_id_or_path is a placeholder (7B.yaml:8): model not knowable")
DIT=("facebookresearch/DiT","ed81ce2229091fd4ecc9a223645f95cf379d582b")
J("dit-xl-2-ddp",*DIT,["."],".",["--","torchrun","--nnodes=1","--nproc_per_node=8","train.py","--model","DiT-XL/2",
 "--data-path","/data/imagenet/train"],{
 "model.num_parameters":T(675000000,"--model DiT-XL/2 -> models.py:328-329 depth 28 hidden 1152 patch 2 (675M, DiT paper Table 1)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:85 --nproc_per_node=N with N=8"),
 "dist.sharding":T("ddp","train.py:149 DDP"),
 "batch.global":T(256,"train.py:262 --global-batch-size default 256"),
 "batch.micro":T(32,"train.py:174 256 // world size 8"),
 "data.image_size":T(256,"train.py:259 --image-size default 256"),
 "precision.mode":T("fp32","no autocast or half in train.py (TF32 matmuls only)"),
 "optimizer.name":T("AdamW","train.py:155",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"train.py:265"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models.py"),
 "peft.method":T("none","no PEFT in DiT"),
},held_out=True,note=H6+"; README.md:85 with N=8 and a data path")
OR1=("huggingface/open-r1","1416fa0cf21595d2083b399a2a0bbddd7f6e9563")
orc="recipes/OpenR1-Distill-7B/sft/config_distill.yaml"
orz="recipes/accelerate_configs/zero3.yaml"
J("open-r1-distill-7b-sft-zero3",*OR1,["src","recipes/OpenR1-Distill-7B","recipes/accelerate_configs","setup.py"],".",
 ["--","accelerate","launch","--config_file",orz,"src/open_r1/sft.py","--config",orc],{
 "model.ref":T("open-r1/Qwen2.5-Math-7B-RoPE-300k",orc+":3"),
 "dist.world_size":T(8,orz+":16 num_processes 8"),
 "dist.sharding":T("zero3",orz+":9 zero_stage 3"),
 "batch.micro":T(2,orc+":40"),
 "batch.grad_accum":T(8,orc+":19"),
 "data.seq_len":T(32768,orc+":34 max_length"),
 "precision.mode":T("bf16",orz+":14 mixed_precision bf16 under DEEPSPEED (+ "+orc+":16 bf16 true): DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,orc+":20"),
 "peft.method":T("none","ModelConfig use_peft default False: get_peft_config returns None (sft.py:107)"),
 "dist.offload_optimizer":T("none",orz+":5"),
 "dist.offload_params":T("none",orz+":6"),
 "model.attn_implementation":T("flash_attention_2",orc+":6"),
 "loss.implementation":T("fused",orc+":47 use_liger_kernel true (Liger fused linear cross-entropy)"),
 "optimizer.name":T("adamw_torch","setup.py:71 transformers==4.52.3 (torch==2.6.0): TrainingArguments optim default adamw_torch"),
},held_out=True,note=H6+"; README.md:125-126")
BC=("baichuan-inc/Baichuan2","ed1cf0f598378e1bc393f526c6052b8e6144eeef")
J("baichuan2-7b-full-zero3",*BC,["fine-tune","requirements.txt"],"fine-tune",
 ["--","deepspeed","--hostfile=","fine-tune.py","--report_to","none","--data_path","data/belle_chat_ramdon_10k.json",
  "--model_name_or_path","baichuan-inc/Baichuan2-7B-Base","--output_dir","output","--model_max_length","512",
  "--num_train_epochs","4","--per_device_train_batch_size","16","--gradient_accumulation_steps","1",
  "--save_strategy","epoch","--learning_rate","2e-5","--lr_scheduler_type","constant","--adam_beta1","0.9",
  "--adam_beta2","0.98","--adam_epsilon","1e-8","--max_grad_norm","1.0","--weight_decay","1e-4",
  "--warmup_ratio","0.0","--logging_steps","1","--gradient_checkpointing","True","--deepspeed","ds_config.json",
  "--bf16","True","--tf32","True"],{
 "model.ref":T("baichuan-inc/Baichuan2-7B-Base","README.md:486"),
 "batch.micro":T(16,"README.md:490"),
 "batch.grad_accum":T(1,"README.md:491"),
 "data.seq_len":T(512,"README.md:488 --model_max_length"),
 "dist.sharding":T("zero3","fine-tune/ds_config.json:10 stage 3"),
 "precision.mode":T("bf16","README.md:504 --bf16 True with ds_config.json:6-7 bf16 auto: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,"README.md:502"),
 "optimizer.name":T("adamw_torch","fine-tune/fine-tune.py:29 optim default"),
 "peft.method":T("none","fine-tune.py:36 use_lora default False, not given"),
 "dist.offload_optimizer":T("none","no offload in ds_config.json:9-13"),
},held_out=True,note=H6+"; README.md:482-505 with hostfile empty (every local GPU: world size left out)")
CLA=("ymcui/Chinese-LLaMA-Alpaca-2","2a334d1634c857a7f02f885026d02ac4b469479d")
cls_="scripts/training/run_sft.sh"
J("chinese-llama2-sft-lora-zero2",*CLA,["scripts/training","requirements.txt"],"scripts/training",["run_sft.sh"],{
 "dist.world_size":T(1,cls_+":22 --nnodes 1 --nproc_per_node 1"),
 "batch.micro":T(1,cls_+":13,27"),
 "batch.grad_accum":T(8,cls_+":15,45"),
 "data.seq_len":T(512,cls_+":16,47"),
 "dist.sharding":T("zero2",cls_+":20,23 -> ds_zero2_no_offload.json:12 stage 2"),
 "precision.mode":T("fp16",cls_+":32 --fp16 with ds_zero2_no_offload.json:2-3 fp16 auto: DeepSpeed fp16"),
 "memory.gradient_checkpointing":T(True,cls_+":61"),
 "peft.method":T("lora","run_clm_sft_with_peft.py:247 full_finetuning default False -> :428-450 LoraConfig"),
 "peft.rank":T(64,cls_+":4,52"),
 "task.mode":T("lora",cls_+":59 --load_in_kbits 16: no quantization (run_clm_sft_with_peft.py:382)"),
 "dist.allgather_bucket_size":T(100000000,"ds_zero2_no_offload.json:14 1e8"),
 "dist.reduce_bucket_size":T(100000000,"ds_zero2_no_offload.json:17 1e8"),
 "dist.offload_optimizer":T("none","no offload in ds_zero2_no_offload.json"),
 "optimizer.name":T("adamw_torch","requirements.txt:3 transformers==4.35.0: optim default adamw_torch (MyTrainingArguments does not redeclare it)"),
},held_out=True,note=H6+"; pretrained_model is a placeholder (run_sft.sh:10): model not knowable")
TT=("pytorch/torchtitan","b5bcd76c66d0acb1a08b176d9639425bc55e0b2a")
ttc="torchtitan/models/llama3/config_registry.py"
J("torchtitan-llama3-debug-4x8",*TT,["multinode_trainer.slurm","torchtitan","pyproject.toml"],".",["multinode_trainer.slurm"],{
 "dist.world_size":T(32,"multinode_trainer.slurm:63 srun torchrun --nnodes 4 --nproc_per_node 8"),
 "dist.nodes":T(4,"multinode_trainer.slurm:17,63"),
 "dist.devices_per_node":T(8,"multinode_trainer.slurm:63"),
 "dist.sharding":T("fsdp_full","torchtitan/config/configs.py:133 data_parallel_shard_degree -1: FSDP2 fully_shard over all ranks"),
 "precision.mode":T("amp_bf16","torchtitan/config/configs.py:94 mixed_precision_param bfloat16 -> distributed/fsdp.py:155 MixedPrecisionPolicy over fp32 sharded params"),
 "data.seq_len":T(2048,ttc+":58 max_context_length (CONFIG default llama3_debugmodel, slurm:58)"),
 "batch.micro":T(8,ttc+":57 num_tokens_per_microbatch_per_dp_rank 8*2048 / 2048"),
 "memory.gradient_checkpointing":T(True,ttc+":71 SelectiveAC"),
 "optimizer.name":T("AdamW",ttc+":49 default_adamw -> components/optimizer/optimizer.py:389",any_of=["AdamW","adamw"]),
 "model.num_parameters":T(6160000,"models/llama3/__init__.py:114-143 dim 256, 6 layers, 16 heads, ffn 768, vocab 2048, untied head: ~6.16M",rel_tol=0.1),
 "peft.method":T("none","pretraining, no PEFT"),
},held_out=True,note=H6+"; sbatch multinode_trainer.slurm as committed (MODULE llama3, CONFIG llama3_debugmodel)")
TL=("jzhang38/TinyLlama","bf122247c486b6b897050e98cbb7bedae8eeba73")
J("tinyllama-1.1b-pretrain-2x8",*TL,["pretrain","lit_gpt","PRETRAIN.md","requirements.txt"],".",
 ["--","lightning","run","model","--node-rank=0","--main-address=172.16.101.5","--accelerator=cuda","--devices=8",
  "--num-nodes=2","pretrain/tinyllama.py","--devices","8","--train_data_dir","data/slim_star","--val_data_dir","data/slim_star"],{
 "model.num_parameters":T(1100000000,"tinyllama.py:26 tiny_LLaMA_1b -> lit_gpt/config.py:250-264 (1.1B)",rel_tol=0.1),
 "dist.world_size":T(16,"PRETRAIN.md:62-68 --devices=8 --num-nodes=2"),
 "dist.nodes":T(2,"PRETRAIN.md:67"),
 "dist.sharding":T("fsdp_full","tinyllama.py:94-100 FSDPStrategy (default FULL_SHARD)"),
 "precision.mode":T("amp_bf16","tinyllama.py:86 get_default_supported_precision(training=True) -> lit_gpt/utils.py:503-504 bf16-mixed on a bf16 GPU"),
 "batch.micro":T(8,"tinyllama.py:34"),
 "batch.grad_accum":T(8,"tinyllama.py:50-51 512 // 8 devices // 8"),
 "data.seq_len":T(2048,"lit_gpt/config.py:251 block_size"),
 "memory.gradient_checkpointing":T(False,"tinyllama.py:96 activation_checkpointing_policy=None"),
 "optimizer.name":T("AdamW","tinyllama.py:144",any_of=["AdamW","adamw"]),
 "data.pin_memory":T(True,"tinyllama.py:336"),
 "data.num_workers":T(0,"tinyllama.py:336 DataLoader default"),
 "peft.method":T("none","pretraining, no PEFT"),
},held_out=True,note=H6+"; PRETRAIN.md:62-69 (node 1 of 2)")
