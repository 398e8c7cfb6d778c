"""The dev set and the first held-out set of the jobs benchmark (run.py --set dev, --set held-out):
labelled together, so their jobs interleave; a job with held_out=True and no ordinal note is in the
first held-out set. Expert truth written by hand, one J(...) per job."""
from .core import AX, DSE, HB, LG, NX, J, T

S1="applications/DeepSpeed-Chat/training/step1_supervised_finetuning"
DSCHAT_PATHS=[S1,"applications/DeepSpeed-Chat/dschat"]
ds_dict="dschat/utils/ds_utils.py"
J("dschat-opt-1.3b-sft",*DSE,DSCHAT_PATHS,S1,["training_scripts/opt/single_node/run_1.3b.sh"],{
 "model.ref":T("facebook/opt-1.3b","run_1.3b.sh:19 --model_name_or_path"),
 "batch.micro":T(8,"run_1.3b.sh:20; main.py:232 train_micro_batch_size_per_gpu"),
 "batch.grad_accum":T(1,"run_1.3b.sh:26"),
 "data.seq_len":T(512,"run_1.3b.sh:22 --max_seq_len"),
 "dist.sharding":T("zero2","run_1.3b.sh:12 ZERO_STAGE=2 (no $2) -> main.py:227 stage=args.zero_stage"),
 "precision.mode":T("fp16","main.py:148-150 --dtype default fp16 -> ds_utils.py:29 DeepSpeed fp16 (16-bit weights, fp32 master)"),
 "memory.gradient_checkpointing":T(False,"main.py:135 store_true flag absent from run_1.3b.sh"),
 "dist.offload_optimizer":T("none","main.py:145 --offload absent -> ds_utils.py:27 device none"),
 "dist.stage3_max_live_parameters":T(30000000,"ds_utils.py:44 3e7"),
 "dist.stage3_prefetch_bucket_size":T(30000000,"ds_utils.py:45 3e7"),
 "peft.method":T("none","main.py:159-161 --lora_dim default 0, not given"),
})
J("dschat-opt-1.3b-lora",*DSE,DSCHAT_PATHS,S1,["training_scripts/opt/single_node/run_1.3b_lora.sh"],{
 "model.ref":T("facebook/opt-1.3b","run_1.3b_lora.sh:14"),
 "batch.micro":T(8,"run_1.3b_lora.sh:15"),
 "batch.grad_accum":T(1,"run_1.3b_lora.sh:21"),
 "data.seq_len":T(512,"run_1.3b_lora.sh:17"),
 "dist.sharding":T("ddp","run_1.3b_lora.sh:25 --zero_stage 0 (DeepSpeed stage 0 = data parallel)"),
 "precision.mode":T("fp16","main.py:150 --dtype default fp16 -> ds_utils.py:29"),
 "peft.method":T("lora","run_1.3b_lora.sh:26 --lora_dim 128 -> main.py:260-262 convert_linear_layer_to_lora"),
 "peft.rank":T(128,"run_1.3b_lora.sh:26"),
 "task.mode":T("lora","run_1.3b_lora.sh:28 --only_optimize_lora -> main.py:263-264"),
})
J("dschat-llama2-7b-sft",*DSE,DSCHAT_PATHS,S1,["training_scripts/llama2/run_llama2_7b.sh"],{
 "model.ref":T("meta-llama/Llama-2-7b-hf","run_llama2_7b.sh:19"),
 "batch.micro":T(4,"run_llama2_7b.sh:20"),
 "batch.grad_accum":T(1,"run_llama2_7b.sh:26"),
 "data.seq_len":T(512,"run_llama2_7b.sh:22"),
 "dist.sharding":T("zero3","run_llama2_7b.sh:12 ZERO_STAGE=3 default"),
 "precision.mode":T("fp16","main.py:150 -> ds_utils.py:29"),
 "memory.gradient_checkpointing":T(True,"run_llama2_7b.sh:30 -> main.py:343-344"),
 "dist.stage3_max_live_parameters":T(30000000,"ds_utils.py:44"),
 "dist.stage3_prefetch_bucket_size":T(30000000,"ds_utils.py:45"),
})
J("dschat-opt-1.3b-single-gpu",*DSE,DSCHAT_PATHS,S1,["training_scripts/opt/single_gpu/run_1.3b.sh"],{
 "model.ref":T("facebook/opt-1.3b","single_gpu/run_1.3b.sh:18"),
 "dist.devices_per_node":T(1,"single_gpu/run_1.3b.sh:18 --num_gpus 1"),
 "batch.grad_accum":T(8,"single_gpu/run_1.3b.sh:19"),
 "batch.micro":T(16,"main.py:68-72 --per_device_train_batch_size default 16, not given"),
 "data.seq_len":T(512,"main.py:80-84 --max_seq_len default 512"),
 "dist.sharding":T("ddp","single_gpu/run_1.3b.sh:14 ZERO_STAGE=0"),
 "precision.mode":T("fp16","main.py:150 -> ds_utils.py:29"),
 "peft.rank":T(128,"single_gpu/run_1.3b.sh:19 --lora_dim 128"),
},held_out=True)
ALP=("tatsu-lab/stanford_alpaca","761dc5bfbdeeffa89b8bff5d038781a4055f796a")
alp_common=["--data_path","./alpaca_data.json","--bf16","True","--output_dir","out","--num_train_epochs","3",
 "--per_device_train_batch_size","4","--per_device_eval_batch_size","4","--gradient_accumulation_steps","8",
 "--evaluation_strategy","no","--save_strategy","steps","--save_steps","2000","--save_total_limit","1",
 "--learning_rate","2e-5","--weight_decay","0.","--warmup_ratio","0.03","--lr_scheduler_type","cosine","--logging_steps","1"]
J("alpaca-fsdp-opt-6.7b",*ALP,["."],".",["--","torchrun","--nproc_per_node=4","--master_port=29501","train.py",
 "--model_name_or_path","facebook/opt-6.7b",*alp_common,"--fsdp","full_shard auto_wrap",
 "--fsdp_transformer_layer_cls_to_wrap","OPTDecoderLayer","--tf32","True"],{
 "model.ref":T("facebook/opt-6.7b","README.md:160"),
 "dist.world_size":T(4,"README.md:159 --nproc_per_node=4"),
 "batch.micro":T(4,"README.md:165"),
 "batch.grad_accum":T(8,"README.md:167"),
 "data.seq_len":T(512,"train.py:59-60 model_max_length default 512"),
 "dist.sharding":T("fsdp_full","README.md:177 --fsdp full_shard auto_wrap"),
 "precision.mode":T("amp_bf16","README.md:162 --bf16 True (FSDP mixed precision bf16, fp32 params)"),
 "optimizer.name":T("adamw_torch","train.py:58 optim default adamw_torch"),
 "memory.gradient_checkpointing":T(False,"TrainingArguments default, not given"),
},note="README command with the OPT model (README.md:159-179); placeholders replaced by values a user types")
J("alpaca-deepspeed-llama-7b",*ALP,["."],".",["--","torchrun","--nproc_per_node=4","--master_port=29501","train.py",
 "--model_name_or_path","huggyllama/llama-7b",*alp_common,"--deepspeed","./configs/default_offload_opt_param.json","--tf32","True"],{
 "model.ref":T("huggyllama/llama-7b","invocation (README.md:195 placeholder filled by the user)"),
 "dist.world_size":T(4,"README.md:194"),
 "batch.micro":T(4,"README.md:200"),
 "batch.grad_accum":T(8,"README.md:202"),
 "data.seq_len":T(512,"train.py:59-60"),
 "dist.sharding":T("zero3","configs/default_offload_opt_param.json:23"),
 "dist.offload_optimizer":T("cpu","configs/default_offload_opt_param.json:25"),
 "dist.offload_params":T("cpu","configs/default_offload_opt_param.json:29"),
 "precision.mode":T("bf16","json:2-3 bf16 auto + --bf16 True -> DeepSpeed bf16 (16-bit weights, fp32 master)"),
 "dist.stage3_max_live_parameters":T(1000000000,"configs/default_offload_opt_param.json:38"),
})
J("alpaca-lora-8bit",*("tloen/alpaca-lora","8bb8579e403dc78e37fe81ffbb253c413007323f"),["."],".",["finetune.py","--",
 "--base_model=decapoda-research/llama-7b-hf","--num_epochs=10","--cutoff_len=512","--group_by_length",
 "--output_dir=./lora-alpaca","--lora_target_modules=[q_proj,k_proj,v_proj,o_proj]","--lora_r=16","--micro_batch_size=8"],{
 "model.ref":T("decapoda-research/llama-7b-hf","README.md:84 --base_model (fire.Fire kwargs)"),
 "batch.micro":T(8,"README.md:91 -> finetune.py:237"),
 "batch.grad_accum":T(16,"finetune.py:34 batch_size 128 // micro 8 (finetune.py:89), one process"),
 "data.seq_len":T(512,"README.md:86 --cutoff_len"),
 "peft.method":T("lora","finetune.py:176 LoraConfig"),
 "peft.rank":T(16,"README.md:90"),
 "precision.weights_bits":T(8,"finetune.py:114 load_in_8bit=True"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
 "memory.gradient_checkpointing":T(True,"finetune.py:174 prepare_model_for_int8_training enables it"),
 "precision.mode":T("amp_fp16","finetune.py:242 fp16=True"),
 "optimizer.name":T("adamw_torch","finetune.py:244"),
 "dist.world_size":T(1,"python launch: one process"),
})
NG=("karpathy/nanoGPT","3adf61e154c3fe3fca428ad6bc3818b27a3b8291")
J("nanogpt-shakespeare-char",*NG,["."],".",["train.py","--","config/train_shakespeare_char.py"],{
 "model.num_parameters":T(10770000,"config/train_shakespeare_char.py:22-24 n_layer 6 n_embd 384 (README: 10.65M non-embedding)",rel_tol=0.1),
 "batch.micro":T(64,"config/train_shakespeare_char.py:18"),
 "batch.grad_accum":T(1,"config/train_shakespeare_char.py:17"),
 "data.seq_len":T(256,"config/train_shakespeare_char.py:19 block_size"),
 "precision.mode":T("amp_bf16","train.py:73,112 autocast bf16 on a bf16 GPU (a100)"),
 "compile.enabled":T(True,"train.py:74,208"),
 "dist.world_size":T(1,"python: one process"),
})
J("nanogpt-gpt2-ddp",*NG,["."],".",["--","torchrun","--standalone","--nproc_per_node=8","train.py","config/train_gpt2.py"],{
 "model.num_parameters":T(124000000,"train.py:52-54 n_layer 12 n_embd 768 (GPT-2 124M)",rel_tol=0.1),
 "batch.micro":T(12,"config/train_gpt2.py:11"),
 "batch.grad_accum":T(5,"config/train_gpt2.py:13 5*8, divided by world size 8 at train.py:95"),
 "data.seq_len":T(1024,"config/train_gpt2.py:12"),
 "dist.world_size":T(8,"README.md:118"),
 "dist.sharding":T("ddp","train.py DDP(model) when RANK set"),
 "precision.mode":T("amp_bf16","train.py:73,112"),
 "compile.enabled":T(True,"train.py:74"),
})
J("nanogpt-finetune-gpt2-xl",*NG,["."],".",["train.py","--","config/finetune_shakespeare.py"],{
 "model.ref":T("gpt2-xl","config/finetune_shakespeare.py:11 init_from -> train.py:185 GPT.from_pretrained"),
 "batch.micro":T(1,"config/finetune_shakespeare.py:19"),
 "batch.grad_accum":T(32,"config/finetune_shakespeare.py:20"),
 "data.seq_len":T(1024,"train.py:50 block_size default 1024"),
 "precision.mode":T("amp_bf16","train.py:73,112"),
 "dist.world_size":T(1,"python: one process"),
},held_out=True)
PE=("pytorch/examples","77f55b912142e11fcfdf5b530231fb9c52f181e8")
J("imagenet-resnet18",*PE,["imagenet"],"imagenet",["main.py","--","-a","resnet18","/data/imagenet"],{
 "model.ref":T("resnet18","README.md:17 -a resnet18 -> main.py:165 models.__dict__[args.arch]"),
 "data.image_size":T(224,"main.py:247 RandomResizedCrop(224)"),
 "precision.mode":T("fp32","no autocast or half anywhere in main.py"),
 "data.num_workers":T(4,"main.py:36 --workers default 4 (not divided: not distributed)"),
})
J("imagenet-resnet50-ddp",*PE,["imagenet"],"imagenet",["main.py","--","-a","resnet50","--dist-url","tcp://127.0.0.1:23456",
 "--dist-backend","nccl","--multiprocessing-distributed","--world-size","1","--rank","0","/data/imagenet"],{
 "model.ref":T("resnet50","README.md:43 -> main.py:165"),
 "data.image_size":T(224,"main.py:247"),
 "precision.mode":T("fp32","no autocast in main.py"),
 "dist.sharding":T("ddp","main.py:182 DistributedDataParallel"),
 "dist.nodes":T(1,"README.md:43 --world-size 1 (nodes for --multiprocessing-distributed)"),
})
J("mingpt-ddp-sbatch",*PE,["distributed/minGPT-ddp"],"distributed/minGPT-ddp/mingpt",["slurm/sbatch_run.sh"],{
 "dist.nodes":T(2,"slurm/sbatch_run.sh:4,18 --nnodes 2"),
 "dist.devices_per_node":T(1,"slurm/sbatch_run.sh:19 --nproc_per_node 1"),
 "dist.world_size":T(2,"2 nodes x 1"),
 "dist.sharding":T("ddp","trainer.py:71 DDP"),
 "batch.micro":T(216,"gpt2_train_cfg.yaml:13 -> trainer.py:76"),
 "data.seq_len":T(128,"gpt2_train_cfg.yaml:3 block_size"),
 "precision.mode":T("amp_fp16","gpt2_train_cfg.yaml:17 use_amp -> trainer.py:100 autocast fp16"),
 "data.num_workers":T(4,"gpt2_train_cfg.yaml:14"),
 "model.num_parameters":T(25300000,"gpt2_train_cfg.yaml:7-9 n_layer 8 n_embd 512 (8*12*512^2 + embeddings)",rel_tol=0.1),
},held_out=True,note="the script names /shared/examples/mingpt/main.py; the repo's file is mingpt/main.py")
J("fsdp2-example",*PE,["distributed/FSDP2"],"distributed/FSDP2",["run_example.sh"],{
 "dist.world_size":T(4,"run_example.sh:10 --nproc_per_node=${2:-4}"),
 "dist.sharding":T("fsdp_full","example.py:74-75 fully_shard"),
 "batch.micro":T(32,"example.py:56"),
 "data.seq_len":T(64,"example.py:57"),
 "precision.mode":T("fp32","example.py:68 --mixed-precision not given"),
})
ACC=("huggingface/accelerate","16cb6eb80dd9aa8b4df1a63ef57863e455d53b83")
J("accelerate-nlp-fp16",*ACC,["examples"],"examples",["--","accelerate","launch","--mixed_precision","fp16","./nlp_example.py"],{
 "model.ref":T("bert-base-cased","nlp_example.py:133"),
 "batch.micro":T(16,"nlp_example.py:205 batch_size 16 (<= MAX_GPU_BATCH_SIZE 16)"),
 "batch.grad_accum":T(1,"nlp_example.py:125"),
 "precision.mode":T("amp_fp16","README.md:61 --mixed_precision fp16"),
})
TRL=("huggingface/trl","f2cd57710ae345ea6428ae95363267fcf38a3dc8")
sft_args=["--model_name_or_path","Qwen/Qwen2-0.5B","--dataset_name","trl-lib/Capybara","--learning_rate","2.0e-5",
 "--num_train_epochs","1","--packing","--per_device_train_batch_size","2","--gradient_accumulation_steps","8",
 "--eos_token","<|im_end|>","--eval_strategy","steps","--eval_steps","100","--output_dir","Qwen2-0.5B-SFT"]
trl_lib="trl library at the pinned commit: trl/trainer/sft_config.py"
J("trl-sft-full",*TRL,["trl/scripts","examples/accelerate_configs"],".",["--","python","trl/scripts/sft.py",*sft_args],{
 "model.ref":T("Qwen/Qwen2-0.5B","trl/scripts/sft.py:28"),
 "batch.micro":T(2,"trl/scripts/sft.py:33"),
 "batch.grad_accum":T(8,"trl/scripts/sft.py:34"),
 "data.seq_len":T(1024,trl_lib+":205-206 max_length default 1024"),
 "precision.mode":T("amp_bf16",trl_lib+":136 bf16 defaults to True"),
 "memory.gradient_checkpointing":T(True,trl_lib+":135 gradient_checkpointing defaults to True"),
 "peft.method":T("none","--use_peft absent"),
 "dist.world_size":T(1,"python: one process"),
})
J("trl-sft-lora-zero3",*TRL,["trl/scripts","examples/accelerate_configs"],".",["--","accelerate","launch","--config_file",
 "examples/accelerate_configs/deepspeed_zero3.yaml","trl/scripts/sft.py",*sft_args[:-2],"--use_peft","--lora_r","32","--lora_alpha","16","--output_dir","Qwen2-0.5B-SFT"],{
 "model.ref":T("Qwen/Qwen2-0.5B","trl/scripts/sft.py:45"),
 "batch.micro":T(2,"trl/scripts/sft.py:50"),
 "batch.grad_accum":T(8,"trl/scripts/sft.py:51"),
 "data.seq_len":T(1024,trl_lib+":205-206"),
 "dist.world_size":T(8,"deepspeed_zero3.yaml:16 num_processes 8"),
 "dist.sharding":T("zero3","deepspeed_zero3.yaml:9 zero_stage 3"),
 "precision.mode":T("bf16","deepspeed_zero3.yaml:13 mixed_precision bf16 under DeepSpeed: bf16 weights + fp32 master"),
 "peft.method":T("lora","trl/scripts/sft.py:55 --use_peft"),
 "peft.rank":T(32,"trl/scripts/sft.py:56"),
 "memory.gradient_checkpointing":T(True,trl_lib+":135"),
},note="sft.py's LoRA example (sft.py:44-59) launched as docs/source/deepspeed_integration.md:31 shows")
J("trl-dpo-multi-gpu",*TRL,["trl/scripts","examples/accelerate_configs"],".",["--","accelerate","launch","--config_file",
 "examples/accelerate_configs/multi_gpu.yaml","trl/scripts/dpo.py","--dataset_name","trl-lib/ultrafeedback_binarized",
 "--model_name_or_path","Qwen/Qwen2-0.5B-Instruct","--learning_rate","5.0e-7","--num_train_epochs","1",
 "--per_device_train_batch_size","2","--max_steps","1000","--gradient_accumulation_steps","8","--eval_strategy","steps",
 "--eval_steps","50","--output_dir","Qwen2-0.5B-DPO","--no_remove_unused_columns"],{
 "model.ref":T("Qwen/Qwen2-0.5B-Instruct","trl/scripts/dpo.py:29"),
 "batch.micro":T(2,"trl/scripts/dpo.py:32"),
 "batch.grad_accum":T(8,"trl/scripts/dpo.py:34"),
 "dist.world_size":T(8,"multi_gpu.yaml:11 num_processes 8"),
 "dist.sharding":T("ddp","multi_gpu.yaml:3 MULTI_GPU"),
 "precision.mode":T("amp_bf16","multi_gpu.yaml:9 mixed_precision bf16"),
 "data.seq_len":T(1024,"trl/trainer/dpo_config.py:188-189 max_length default 1024"),
 "memory.gradient_checkpointing":T(True,"trl/trainer/dpo_config.py:142 defaults to True"),
})
J("handbook-zephyr-sft-full-zero3",*HB,["."],".",["--","accelerate","launch","--config_file","recipes/accelerate_configs/zero3.yaml",
 "scripts/sft.py","--config","recipes/zephyr-7b-beta/sft/config_full.yaml"],{
 "model.ref":T("mistralai/Mistral-7B-v0.1","config_full.yaml:2"),
 "dist.world_size":T(8,"zero3.yaml num_processes 8"),
 "dist.sharding":T("zero3","zero3.yaml zero_stage 3"),
 "precision.mode":T("bf16","zero3.yaml mixed_precision bf16 under DeepSpeed + config_full.yaml bf16: true"),
 "batch.micro":T(16,"config_full.yaml per_device_train_batch_size 16"),
 "batch.grad_accum":T(1,"config_full.yaml gradient_accumulation_steps 1"),
 "memory.gradient_checkpointing":T(True,"config_full.yaml gradient_checkpointing: true"),
 "model.attn_implementation":T("flash_attention_2","config_full.yaml:5"),
 "peft.method":T("none","use_peft not set"),
})
J("handbook-zephyr-sft-qlora",*HB,["."],".",["--","accelerate","launch","--config_file","recipes/accelerate_configs/ddp.yaml",
 "--num_processes=1","scripts/sft.py","recipes/zephyr-7b-beta/sft/config_qlora.yaml","--load_in_4bit=true","--attn_implementation=sdpa"],{
 "model.ref":T("mistralai/Mistral-7B-v0.1","config_qlora.yaml:2"),
 "dist.world_size":T(1,"--num_processes=1 (README:40)"),
 "peft.method":T("lora","config_qlora.yaml:9 use_peft"),
 "peft.rank":T(16,"config_qlora.yaml:10"),
 "precision.weights_bits":T(4,"config_qlora.yaml:8 load_in_4bit"),
 "task.mode":T("qlora","4-bit base + LoRA"),
 "batch.micro":T(4,"config_qlora.yaml per_device_train_batch_size 4"),
 "batch.grad_accum":T(2,"config_qlora.yaml gradient_accumulation_steps 2"),
 "memory.gradient_checkpointing":T(True,"config_qlora.yaml gradient_checkpointing: true"),
 "model.attn_implementation":T("sdpa","--attn_implementation=sdpa overrides config_qlora.yaml:5"),
 "precision.quant_type":T("nf4","trl ModelConfig bnb_4bit_quant_type default nf4 (trl/trainer/model_config.py:73)"),
 "precision.double_quant":T(False,"trl ModelConfig use_bnb_nested_quant default False (model_config.py:75)"),
},held_out=True)
J("axolotl-lora-1b",*AX,["examples/llama-3","deepspeed_configs"],".",["--","axolotl","train","examples/llama-3/lora-1b.yml"],{
 "model.ref":T("NousResearch/Llama-3.2-1B","lora-1b.yml:1 base_model"),
 "peft.method":T("lora","lora-1b.yml:12 adapter: lora"),
 "peft.rank":T(16,"lora-1b.yml:20"),
 "data.seq_len":T(2048,"lora-1b.yml:15 sequence_len"),
 "batch.micro":T(2,"lora-1b.yml:39"),
 "batch.grad_accum":T(2,"lora-1b.yml:38"),
 "optimizer.name":T("adamw_8bit","lora-1b.yml:42"),
 "memory.gradient_checkpointing":T(True,"lora-1b.yml:49"),
 "model.attn_implementation":T("flash_attention_2","lora-1b.yml:52"),
 "precision.mode":T("amp_bf16","lora-1b.yml:46 bf16: auto on a bf16 GPU (Trainer autocast)"),
})
J("axolotl-qlora-1b",*AX,["examples/llama-3","deepspeed_configs"],".",["--","axolotl","train","examples/llama-3/qlora-1b.yml"],{
 "model.ref":T("NousResearch/Llama-3.2-1B","qlora-1b.yml:1"),
 "peft.method":T("lora","qlora-1b.yml adapter: qlora"),
 "task.mode":T("qlora","qlora-1b.yml adapter: qlora + load_in_4bit"),
 "precision.weights_bits":T(4,"qlora-1b.yml:4 load_in_4bit"),
 "peft.rank":T(32,"qlora-1b.yml lora_r 32"),
 "data.seq_len":T(2048,"qlora-1b.yml sequence_len"),
 "batch.micro":T(2,"qlora-1b.yml micro_batch_size"),
 "batch.grad_accum":T(4,"qlora-1b.yml gradient_accumulation_steps"),
 "memory.gradient_checkpointing":T(True,"qlora-1b.yml gradient_checkpointing"),
 "optimizer.name":T("adamw_bnb_8bit","qlora-1b.yml optimizer"),
},held_out=True)
J("axolotl-fft-8b-zero3",*AX,["examples/llama-3","deepspeed_configs"],".",["--","axolotl","train","examples/llama-3/fft-8b.yaml",
 "--deepspeed","deepspeed_configs/zero3_bf16.json"],{
 "model.ref":T("NousResearch/Meta-Llama-3.1-8B","fft-8b.yaml:1"),
 "data.seq_len":T(8192,"fft-8b.yaml:12"),
 "batch.micro":T(1,"fft-8b.yaml:23"),
 "batch.grad_accum":T(8,"fft-8b.yaml:22"),
 "dist.sharding":T("zero3","deepspeed_configs/zero3_bf16.json:3"),
 "precision.mode":T("bf16","zero3_bf16.json bf16 enabled (DeepSpeed bf16)"),
 "memory.gradient_checkpointing":T(True,"fft-8b.yaml:32"),
 "optimizer.name":T("paged_adamw_8bit","fft-8b.yaml:25"),
 "peft.method":T("none","no adapter"),
})
J("neox-125m",*NX,["."],".",["--","python3","deepy.py","train.py","configs/125M.yml","configs/local_setup.yml"],{
 "model.num_parameters":T(162000000,"configs/125M.yml:9-10,16 12 layers x 768: 12*L*h^2 = 85M + untied (no_weight_tying) embeddings 2 x 50304 x 768 = 77M (the Pythia-160M shape)",rel_tol=0.1),
 "data.seq_len":T(2048,"configs/125M.yml:12"),
 "dist.sharding":T("zero1","configs/125M.yml:44"),
 "batch.micro":T(4,"configs/125M.yml:54"),
 "memory.gradient_checkpointing":T(True,"configs/125M.yml:58 checkpoint_activations"),
 "precision.mode":T("fp16","configs/125M.yml:70-71 fp16 enabled (DeepSpeed fp16)"),
})
J("neox-1.3b",*NX,["."],".",["--","python3","deepy.py","train.py","configs/1-3B.yml","configs/local_setup.yml"],{
 "model.num_parameters":T(1414000000,"configs/1-3B.yml:9-10,16 24 layers x 2048: 1.208B + untied embeddings 2 x 50304 x 2048 = 0.206B",rel_tol=0.1),
 "data.seq_len":T(2048,"configs/1-3B.yml:12"),
 "dist.sharding":T("zero1","configs/1-3B.yml:43"),
 "batch.micro":T(4,"configs/1-3B.yml:53"),
 "memory.gradient_checkpointing":T(True,"configs/1-3B.yml:57"),
 "precision.mode":T("fp16","configs/1-3B.yml:69-71"),
},held_out=True)
J("litgpt-lora-llama2-7b",*LG,["config_hub/finetune/llama-2-7b"],".",["--","litgpt","finetune","lora","--config","config_hub/finetune/llama-2-7b/lora.yaml"],{
 "model.ref":T("meta-llama/Llama-2-7b-hf","lora.yaml:2 checkpoint_dir"),
 "precision.mode":T("bf16","lora.yaml:8 bf16-true (pure bf16 weights)"),
 "dist.world_size":T(1,"lora.yaml:14 devices 1, num_nodes 1"),
 "peft.method":T("lora","litgpt finetune lora"),
 "peft.rank":T(32,"lora.yaml:20"),
 "batch.micro":T(2,"lora.yaml:68"),
 "batch.grad_accum":T(4,"lora.yaml:65 global 8 / (micro 2 x 1 device)"),
 "data.seq_len":T(512,"lora.yaml:83"),
 "data.num_workers":T(4,"lora.yaml:54"),
})
J("litgpt-qlora-llama2-7b",*LG,["config_hub/finetune/llama-2-7b"],".",["--","litgpt","finetune","lora","--config","config_hub/finetune/llama-2-7b/qlora.yaml"],{
 "model.ref":T("meta-llama/Llama-2-7b-hf","qlora.yaml:2"),
 "precision.mode":T("bf16","qlora.yaml:8 bf16-true"),
 "precision.weights_bits":T(4,"qlora.yaml:11 bnb.nf4"),
 "precision.quant_type":T("nf4","qlora.yaml:11 bnb.nf4"),
 "task.mode":T("qlora","4-bit + LoRA"),
 "peft.rank":T(32,"qlora.yaml:20"),
 "batch.micro":T(2,"qlora.yaml:70"),
 "batch.grad_accum":T(4,"qlora.yaml:67 global 8 / micro 2"),
 "data.seq_len":T(512,"qlora.yaml:85"),
},held_out=True)
LH=("ashleve/lightning-hydra-template","bddbc24b82ab6ccfa6243e815a49dc5bfe8d4144")
mnist_params=T(67978,"configs/model/mnist.yaml net: SimpleDenseNet 784-64-128-64-10 with 3 BatchNorm1d",rel_tol=0.1)
J("hydra-template-mnist-gpu",*LH,["."],".",["src/train.py","--","trainer=gpu"],{
 "batch.micro":T(128,"configs/data/mnist.yaml:3 / world size 1 (src/data/mnist_datamodule.py:123)"),
 "dist.world_size":T(1,"configs/trainer/gpu.yaml:5 devices 1"),
 "precision.mode":T("fp32","configs/trainer/default.yaml:12 precision commented out: Lightning default 32"),
 "data.num_workers":T(0,"configs/data/mnist.yaml:5"),
 "data.pin_memory":T(False,"configs/data/mnist.yaml:6"),
 "compile.enabled":T(False,"configs/model/mnist.yaml:25"),
 "model.num_parameters":mnist_params,
})
J("hydra-template-mnist-ddp",*LH,["."],".",["src/train.py","--","trainer=ddp"],{
 "batch.micro":T(32,"configs/data/mnist.yaml:3 128 // 4 devices (src/data/mnist_datamodule.py:123)"),
 "dist.world_size":T(4,"configs/trainer/ddp.yaml:7-8 devices 4 x num_nodes 1"),
 "dist.sharding":T("ddp","configs/trainer/ddp.yaml:4 strategy ddp"),
 "precision.mode":T("fp32","Lightning default precision 32"),
 "data.num_workers":T(0,"configs/data/mnist.yaml:5"),
 "model.num_parameters":mnist_params,
})
DINO=("facebookresearch/dino","7c446df5b9f45747937fb0d72314eb9f7b66930a")
J("dino-vit-small",*DINO,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","main_dino.py",
 "--arch","vit_small","--data_path","/data/imagenet/train","--output_dir","out"],{
 "dist.world_size":T(8,"README.md:165 --nproc_per_node=8"),
 "model.ref":T("vit_small","README.md:165 --arch vit_small (main_dino.py:45)"),
 "batch.micro":T(64,"main_dino.py:90 --batch_size_per_gpu default 64"),
 "precision.mode":T("amp_fp16","main_dino.py:78 --use_fp16 default True -> :317 autocast + GradScaler"),
 "data.image_size":T(224,"main_dino.py:436 RandomResizedCrop(224) global crops"),
 "dist.sharding":T("ddp","main_dino.py:206 DistributedDataParallel"),
 "data.num_workers":T(10,"main_dino.py:125"),
})
FC=("lm-sys/FastChat","0e6d3e4beaab66f4d3f93db72541a4abab8af28d")
J("fastchat-vicuna-7b-fsdp",*FC,["."],".",["scripts/train_vicuna_7b.sh"],{
 "dist.world_size":T(4,"scripts/train_vicuna_7b.sh:1 --nproc_per_node=4"),
 "batch.micro":T(2,"train_vicuna_7b.sh:7"),
 "batch.grad_accum":T(16,"train_vicuna_7b.sh:9"),
 "dist.sharding":T("fsdp_full","train_vicuna_7b.sh:20 --fsdp full_shard auto_wrap"),
 "precision.mode":T("amp_bf16","train_vicuna_7b.sh:4 --bf16 True with FSDP"),
 "data.seq_len":T(2048,"train_vicuna_7b.sh:23 --model_max_length"),
 "memory.gradient_checkpointing":T(True,"train_vicuna_7b.sh:24"),
},note="model is a local path (~/model_weights/llama-7b): not knowable")
J("fastchat-lora-deepspeed",*FC,["."],".",["scripts/train_lora.sh"],{
 "model.ref":T("lmsys/vicuna-7b-v1.5","scripts/train_lora.sh:2"),
 "peft.method":T("lora","fastchat/train/train_lora.py LoraConfig"),
 "peft.rank":T(8,"train_lora.sh:3"),
 "task.mode":T("lora","train_lora.sh:26 --q_lora False"),
 "batch.micro":T(2,"train_lora.sh:10"),
 "batch.grad_accum":T(1,"train_lora.sh:12"),
 "data.seq_len":T(2048,"train_lora.sh:25"),
 "memory.gradient_checkpointing":T(True,"train_lora.sh:28"),
},held_out=True,note="--deepspeed $PATH_TO_DEEPSPEED_CONFIG is unset: sharding/precision unknowable")
J("ds-cifar10",*DSE,["training/cifar"],"training/cifar",["run_ds.sh"],{
 "precision.mode":T("fp16","cifar10_deepspeed.py:41 --dtype default fp16 -> :142-143 DeepSpeed fp16"),
 "dist.sharding":T("ddp","cifar10_deepspeed.py:50 --stage default 0 -> :153"),
 "dist.allgather_bucket_size":T(50000000,"cifar10_deepspeed.py:157"),
 "dist.reduce_bucket_size":T(50000000,"cifar10_deepspeed.py:158"),
 "data.image_size":T(32,"CIFAR-10 images, no resize"),
})
J("ds-hello-bert",*DSE,["training/HelloDeepSpeed"],"training/HelloDeepSpeed",["run_ds.sh"],{
 "precision.mode":T("bf16","train_bert_ds.py:616 dtype default bf16 -> :791-793 DeepSpeed bf16"),
 "batch.micro":T(8,"train_bert_ds.py:611 -> :784"),
 "dist.sharding":T("zero1","train_bert_ds.py:795-796"),
 "dist.offload_optimizer":T("cpu","train_bert_ds.py:797-799"),
 "data.seq_len":T(512,"train_bert_ds.py:602"),
},held_out=True)
DF=("huggingface/diffusers","58eb52c0803ea9af3abec60841c2a093bdf1f951")
J("diffusers-dreambooth-lora",*DF,["examples/dreambooth"],"examples/dreambooth",["--","accelerate","launch","train_dreambooth_lora.py",
 "--pretrained_model_name_or_path=stable-diffusion-v1-5/stable-diffusion-v1-5","--instance_data_dir=dog","--output_dir=path-to-save-model",
 "--instance_prompt=a photo of sks dog","--resolution=512","--train_batch_size=1","--gradient_accumulation_steps=1",
 "--checkpointing_steps=100","--learning_rate=1e-4","--report_to=wandb","--lr_scheduler=constant","--lr_warmup_steps=0",
 "--max_train_steps=500","--validation_prompt=A photo of sks dog in a bucket","--validation_epochs=50","--seed=0","--push_to_hub"],{
 "model.ref":T("stable-diffusion-v1-5/stable-diffusion-v1-5","README.md:326,341"),
 "batch.micro":T(1,"README.md:346"),
 "batch.grad_accum":T(1,"README.md:347"),
 "data.image_size":T(512,"README.md:345 --resolution"),
 "peft.method":T("lora","train_dreambooth_lora.py LoRA on the UNet"),
 "peft.rank":T(4,"train_dreambooth_lora.py:527-529 --rank default 4"),
 "memory.gradient_checkpointing":T(False,"train_dreambooth_lora.py:385 flag absent"),
})
