"""The expert truth of the real-jobs benchmark, written by hand (issue 15): each job, the
invocation a user types, and every knowable plan field with a file:line reason. Labelled
before looking at preflight's output for the job. Running this file writes manifest.json."""
import json

DSE=("microsoft/DeepSpeedExamples","83757d9c937daabd1089a08051061706cb73900d")
S1="applications/DeepSpeed-Chat/training/step1_supervised_finetuning"
DSCHAT_PATHS=[S1,"applications/DeepSpeed-Chat/dschat"]
def T(v,why,**kw):
    d = {"value": v, "why": why}
    d.update(kw)
    return d
ANYTRAIN=dict(any_of=["train","finetune"])
jobs=[]
def J(id,repo,commit,paths,cwd,invocation,truth,held_out=False,note=""):
    jobs.append({"id":id,"repo":repo,"commit":commit,"paths":paths,"cwd":cwd,"invocation":invocation,
                 "held_out":held_out,"note":note,"truth":truth})
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
HB=("huggingface/alignment-handbook","925acdfe4b2b4e38c3dabd1851bc418f0b656351")
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
AX=("axolotl-ai-cloud/axolotl","067b021c8b87a9e5e380b9173c704cf7340e30f5")
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
NX=("EleutherAI/gpt-neox","ea7aefd8f8e183256992d9fede4d7c71a46d67a5")
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
LG=("Lightning-AI/litgpt","26857050fe3ff627cd714fe92f5838f51a3d5efa")
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
# --- held out, second set (issue 15): six launch lines not labelled before, labelled from the
# code and committed before preflight was run on them; scored once, not tuned on afterwards.
S2="applications/DeepSpeed-Chat/training/step2_reward_model_finetuning"
J("dschat-rm-opt-350m",*DSE,[S2,"applications/DeepSpeed-Chat/dschat"],S2,["training_scripts/opt/single_node/run_350m.sh"],{
 "model.ref":T("facebook/opt-350m","run_350m.sh:19 --model_name_or_path"),
 "batch.micro":T(4,"run_350m.sh:21"),
 "batch.grad_accum":T(1,"run_350m.sh:29"),
 "data.seq_len":T(512,"run_350m.sh:23 --max_seq_len"),
 "dist.sharding":T("ddp","run_350m.sh:12 ZERO_STAGE=0 default (DeepSpeed stage 0 = data parallel)"),
 "precision.mode":T("fp16","step2 main.py:147-150 --dtype default fp16 -> ds_utils.py DeepSpeed fp16"),
 "memory.gradient_checkpointing":T(False,"step2 main.py:134 store_true flag absent"),
 "peft.method":T("none","step2 main.py:158 --lora_dim default 0, not given"),
},held_out=True,note="second held-out set")
J("axolotl-llama2-qlora",*AX,["examples/llama-2","deepspeed_configs"],".",["--","axolotl","train","examples/llama-2/qlora.yml"],{
 "model.ref":T("NousResearch/Llama-2-7b-hf","qlora.yml:1 base_model"),
 "peft.method":T("lora","qlora.yml adapter: qlora"),
 "task.mode":T("qlora","qlora.yml adapter: qlora + load_in_4bit: true"),
 "precision.weights_bits":T(4,"qlora.yml load_in_4bit: true"),
 "peft.rank":T(32,"qlora.yml lora_r 32"),
 "data.seq_len":T(4096,"qlora.yml sequence_len 4096"),
 "batch.micro":T(2,"qlora.yml micro_batch_size 2"),
 "batch.grad_accum":T(4,"qlora.yml gradient_accumulation_steps 4"),
 "memory.gradient_checkpointing":T(True,"qlora.yml gradient_checkpointing: true"),
 "optimizer.name":T("paged_adamw_32bit","qlora.yml optimizer"),
},held_out=True,note="second held-out set")
J("litgpt-lora-phi-2",*LG,["config_hub/finetune/phi-2"],".",["--","litgpt","finetune","lora","--config","config_hub/finetune/phi-2/lora.yaml"],{
 "model.ref":T("microsoft/phi-2","lora.yaml checkpoint_dir checkpoints/microsoft/phi-2"),
 "precision.mode":T("bf16","lora.yaml precision bf16-true (pure bf16 weights)"),
 "dist.world_size":T(1,"lora.yaml devices 1, num_nodes 1"),
 "peft.method":T("lora","litgpt finetune lora"),
 "peft.rank":T(8,"lora.yaml lora_r 8"),
 "batch.micro":T(4,"lora.yaml train.micro_batch_size 4"),
 "batch.grad_accum":T(2,"lora.yaml global 8 / (micro 4 x 1 device)"),
 "data.seq_len":T(512,"lora.yaml train.max_seq_length 512"),
 "data.num_workers":T(4,"lora.yaml data.init_args.num_workers 4"),
},held_out=True,note="second held-out set")
J("handbook-zephyr-dpo-full-zero3",*HB,["."],".",["--","accelerate","launch","--config_file","recipes/accelerate_configs/zero3.yaml",
 "scripts/dpo.py","--config","recipes/zephyr-7b-beta/dpo/config_full.yaml"],{
 "model.ref":T("alignment-handbook/zephyr-7b-sft-full","dpo/config_full.yaml:2"),
 "dist.world_size":T(8,"zero3.yaml num_processes 8"),
 "dist.sharding":T("zero3","zero3.yaml zero_stage 3"),
 "precision.mode":T("bf16","zero3.yaml mixed_precision bf16 under DeepSpeed + config_full.yaml bf16: true"),
 "batch.micro":T(8,"dpo/config_full.yaml per_device_train_batch_size 8"),
 "batch.grad_accum":T(2,"dpo/config_full.yaml gradient_accumulation_steps 2"),
 "memory.gradient_checkpointing":T(True,"dpo/config_full.yaml gradient_checkpointing: true"),
 "optimizer.name":T("adamw_torch","dpo/config_full.yaml optim"),
 "data.seq_len":T(1024,"dpo/config_full.yaml max_length 1024 (DPOConfig)"),
 "peft.method":T("none","use_peft not set"),
},held_out=True,note="second held-out set; recipes/zephyr-7b-beta/README.md:21")
J("neox-350m",*NX,["."],".",["--","python3","deepy.py","train.py","configs/350M.yml","configs/local_setup.yml"],{
 "model.num_parameters":T(405000000,"configs/350M.yml num_layers 24 hidden 1024: 12*L*h^2 = 302M + untied (no_weight_tying) embeddings 2 x 50304 x 1024 = 103M",rel_tol=0.1),
 "data.seq_len":T(2048,"configs/350M.yml seq_length"),
 "dist.sharding":T("zero1","configs/350M.yml zero_optimization stage 1"),
 "batch.micro":T(4,"configs/350M.yml train_micro_batch_size_per_gpu"),
 "memory.gradient_checkpointing":T(True,"configs/350M.yml checkpoint_activations"),
 "precision.mode":T("fp16","configs/350M.yml fp16 enabled (DeepSpeed fp16)"),
},held_out=True,note="second held-out set")
J("litgpt-full-llama-3.2-1b",*LG,["config_hub/finetune/llama-3.2-1B"],".",["--","litgpt","finetune_full","--config","config_hub/finetune/llama-3.2-1B/full.yaml"],{
 "model.ref":T("meta-llama/Llama-3.2-1B","full.yaml checkpoint_dir"),
 "precision.mode":T("bf16","full.yaml precision bf16-true"),
 "dist.world_size":T(1,"full.yaml devices 1, num_nodes 1"),
 "peft.method":T("none","litgpt finetune_full"),
 "batch.micro":T(4,"full.yaml train.micro_batch_size 4"),
 "batch.grad_accum":T(16,"full.yaml global 64 / (micro 4 x 1 device)"),
 "data.seq_len":T(512,"full.yaml train.max_seq_length 512"),
 "data.num_workers":T(4,"full.yaml data.init_args.num_workers 4"),
},held_out=True,note="second held-out set")
# --- held out, third set (issue 15, jobs3): ten jobs from nine repositories none of whose jobs
# were in the benchmark before (PEFT, SimPO, OpenRLHF, open-instruct, LLaMA-Factory, torchtune,
# Liger-Kernel, nanotron, Lightning Fabric). Truth written from the code and committed before
# preflight was first run on them; their first scoring is kept verbatim (first_scoring_held_out_3.json).
H3="third held-out set"
PEFT=("huggingface/peft","5d602fdbff04c33c1c4de55cda9d4ae1d7cb7e40")
peft_t="examples/sft/train.py"
J("peft-sft-lora-zero3",*PEFT,["examples/sft"],"examples/sft",["run_peft_deepspeed.sh"],{
 "model.ref":T("meta-llama/Llama-2-70b-hf","run_peft_deepspeed.sh:3 --model_name_or_path"),
 "dist.world_size":T(8,"configs/deepspeed_config.yaml:17 num_processes 8 (num_machines 1)"),
 "dist.sharding":T("zero3","configs/deepspeed_config.yaml:10 zero_stage 3"),
 "dist.offload_optimizer":T("none","configs/deepspeed_config.yaml:6 offload_optimizer_device none"),
 "dist.offload_params":T("none","configs/deepspeed_config.yaml:7 offload_param_device none"),
 "precision.mode":T("bf16","configs/deepspeed_config.yaml:15 mixed_precision bf16 under DeepSpeed (+ --bf16 True :19): bf16 weights, fp32 master"),
 "batch.micro":T(8,"run_peft_deepspeed.sh:27"),
 "batch.grad_accum":T(4,"run_peft_deepspeed.sh:29 (= deepspeed_config.yaml:5)"),
 "data.seq_len":T(2048,"run_peft_deepspeed.sh:9 --max_length (SFTConfig)"),
 "memory.gradient_checkpointing":T(True,"run_peft_deepspeed.sh:30"),
 "model.attn_implementation":T("flash_attention_2","run_peft_deepspeed.sh:33 --use_flash_attn True -> utils.py:141-146"),
 "peft.method":T("lora","run_peft_deepspeed.sh:34 --use_peft_lora True -> utils.py:156-157 LoraConfig"),
 "peft.rank":T(8,"run_peft_deepspeed.sh:35 --lora_r 8"),
 "task.mode":T("lora","run_peft_deepspeed.sh:39 --use_4bit_quantization False; use_8bit default False ("+peft_t+":58-61)"),
 "dist.save_16bit_weights":T(True,"configs/deepspeed_config.yaml:9 zero3_save_16bit_model true"),
},held_out=True,note=H3)
J("peft-sft-qlora-fsdp",*PEFT,["examples/sft"],"examples/sft",["run_peft_qlora_fsdp.sh"],{
 "model.ref":T("meta-llama/Llama-2-70b-hf","run_peft_qlora_fsdp.sh:3"),
 "dist.world_size":T(2,"configs/fsdp_config_qlora.yaml:19 num_processes 2"),
 "dist.sharding":T("fsdp_full","configs/fsdp_config_qlora.yaml:11 FULL_SHARD"),
 "dist.offload_params":T("cpu","configs/fsdp_config_qlora.yaml:10 fsdp_offload_params true"),
 "precision.mode":T("amp_bf16","run_peft_qlora_fsdp.sh:19 --bf16 True (Trainer autocast; accelerate mixed_precision 'no' is overridden by TrainingArguments); trainable LoRA weights fp32"),
 "batch.micro":T(2,"run_peft_qlora_fsdp.sh:27"),
 "batch.grad_accum":T(2,"run_peft_qlora_fsdp.sh:29"),
 "data.seq_len":T(2048,"run_peft_qlora_fsdp.sh:9"),
 "memory.gradient_checkpointing":T(True,"run_peft_qlora_fsdp.sh:30"),
 "model.attn_implementation":T("flash_attention_2","run_peft_qlora_fsdp.sh:33 -> utils.py:146"),
 "peft.method":T("lora","run_peft_qlora_fsdp.sh:34 -> utils.py:156"),
 "peft.rank":T(8,"run_peft_qlora_fsdp.sh:35"),
 "precision.weights_bits":T(4,"run_peft_qlora_fsdp.sh:39 --use_4bit_quantization True -> utils.py:102-107 BitsAndBytesConfig(load_in_4bit)"),
 "task.mode":T("qlora","4-bit base + LoRA"),
 "precision.quant_type":T("nf4",peft_t+":46-47 bnb_4bit_quant_type default nf4 -> utils.py:108"),
 "precision.double_quant":T(True,"run_peft_qlora_fsdp.sh:40 --use_nested_quant True -> utils.py:110"),
},held_out=True,note=H3)
SIMPO=("princeton-nlp/SimPO","1b3e8f3528a23bce3da514a2dce8ea7490d4bc75")
sy="training_configs/llama-3-8b-instruct-simpo-v2.yaml"
J("simpo-llama3-8b-instruct-v2",*SIMPO,["."],".",["--","accelerate","launch","--config_file","accelerate_configs/deepspeed_zero3.yaml",
 "scripts/run_simpo.py",sy],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B-Instruct",sy+":2"),
 "dist.world_size":T(4,"accelerate_configs/deepspeed_zero3.yaml:16 num_processes 4"),
 "dist.sharding":T("zero3","accelerate_configs/deepspeed_zero3.yaml:9"),
 "dist.offload_optimizer":T("none","accelerate_configs/deepspeed_zero3.yaml:5"),
 "precision.mode":T("bf16","deepspeed_zero3.yaml:14 mixed_precision bf16 under DeepSpeed + "+sy+":15 bf16 true"),
 "batch.micro":T(2,sy+":36"),
 "batch.grad_accum":T(16,sy+":21"),
 "data.seq_len":T(2048,sy+":30 max_length (SimPOConfig)"),
 "memory.gradient_checkpointing":T(True,sy+":22"),
 "model.attn_implementation":T("flash_attention_2",sy+":4"),
 "optimizer.name":T("adamw_torch",sy+":33 optim"),
 "peft.method":T("none","alignment/configs.py:158-159 use_peft default False, not set"),
 "dist.save_16bit_weights":T(True,"accelerate_configs/deepspeed_zero3.yaml:8 zero3_save_16bit_model"),
},held_out=True,note=H3+"; README.md:204")
ORL=("OpenRLHF/OpenRLHF","3c3be6234e0cb353e76bb8019947db9dfe99fca7")
ocli="openrlhf/cli/train_sft.py"
J("openrlhf-sft-llama3-8b",*ORL,["examples/scripts","openrlhf"],".",["examples/scripts/train_sft.sh"],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B","examples/scripts/train_sft.sh:12 --model.model_name_or_path (heredoc, deepspeed --module :30)"),
 "batch.micro":T(2,"train_sft.sh:10 --train.micro_batch_size"),
 "batch.global":T(256,"train_sft.sh:9 --train.batch_size (global)"),
 "data.seq_len":T(2048,"train_sft.sh:5 --data.max_len"),
 "dist.sharding":T("zero2","train_sft.sh:17 --ds.zero_stage 2 -> deepspeed_utils.py:23"),
 "precision.mode":T("bf16","train_sft.sh:19 --ds.param_dtype bf16 -> openrlhf/utils/deepspeed/deepspeed_utils.py:49-50 DeepSpeed bf16"),
 "dist.offload_optimizer":T("none",ocli+":187 --ds.adam_offload absent -> deepspeed_utils.py:26"),
 "memory.gradient_checkpointing":T(True,"train_sft.sh:24 -> "+ocli+":41-42"),
 "model.attn_implementation":T("flash_attention_2","train_sft.sh:20"),
 "peft.method":T("none",ocli+":258 --ds.lora.rank default 0 -> openrlhf/models/actor.py:177"),
},held_out=True,note=H3+"; world size is every GPU of the node (deepspeed without --num_gpus): not knowable")
OI=("allenai/open-instruct","e6c3044aa6201c8bfa4573c1b03142af599e730d")
oi="open_instruct/finetune.py"
J("open-instruct-sft-qwen3-0.6b",*OI,["scripts/train/dgx-spark","open_instruct"],".",["scripts/train/dgx-spark/sft_no_robots.sh"],{
 "model.ref":T("Qwen/Qwen3-0.6B","scripts/train/dgx-spark/sft_no_robots.sh:21"),
 "dist.world_size":T(1,"sft_no_robots.sh:18 --num_processes 1"),
 "batch.micro":T(32,"sft_no_robots.sh:24"),
 "batch.grad_accum":T(4,"sft_no_robots.sh:25"),
 "data.seq_len":T(1024,"sft_no_robots.sh:23 --max_seq_length"),
 "memory.gradient_checkpointing":T(True,"sft_no_robots.sh:37 -> "+oi+":636-637"),
 "precision.mode":T("bf16",oi+":589-596 from_pretrained(dtype=torch.bfloat16) and torch AdamW on those weights (:680), no DeepSpeed: pure bf16 weights (--mixed_precision bf16 :17 only adds autocast)"),
 "peft.method":T("none",oi+":204-205 use_lora default False, not given"),
 "optimizer.name":T("AdamW",oi+":680 torch.optim.AdamW(fused=True)",any_of=["AdamW","adamw_torch","adamw_torch_fused","torch.optim.AdamW"]),
},held_out=True,note=H3+"; the script cds to the repo root (:10) and runs python -m accelerate.commands.launch")
LF=("hiyouga/LLaMA-Factory","ff6d4d12eeb035d6ce06805a5733dd7b29f2ac30")
lfy="examples/train_qlora/qwen3_lora_sft_otfq.yaml"
lfm="src/llamafactory/hparams/model_args.py"
J("llamafactory-qlora-qwen3-4b",*LF,["examples/train_qlora","src/llamafactory/hparams"],".",["--","llamafactory-cli","train",lfy],{
 "model.ref":T("Qwen/Qwen3-4B-Instruct-2507",lfy+":2"),
 "peft.method":T("lora",lfy+":10 finetuning_type lora"),
 "peft.rank":T(8,lfy+":11"),
 "precision.weights_bits":T(4,lfy+":3-4 quantization_bit 4, bnb"),
 "task.mode":T("qlora","4-bit base + LoRA"),
 "precision.quant_type":T("nf4",lfm+":287-288 quantization_type default nf4"),
 "precision.double_quant":T(True,lfm+":291-292 double_quantization default True"),
 "data.seq_len":T(2048,lfy+":17 cutoff_len"),
 "batch.micro":T(1,lfy+":32"),
 "batch.grad_accum":T(8,lfy+":33"),
 "data.num_workers":T(4,lfy+":20 dataloader_num_workers"),
 "memory.gradient_checkpointing":T(True,lfm+":145-146 disable_gradient_checkpointing default False -> model_utils/checkpointing.py:184"),
 "precision.mode":T("amp_bf16",lfy+":38 bf16 true (Trainer autocast); trainable params upcast to fp32 (model/adapter.py:348-349)"),
},held_out=True,note=H3+"; examples/README.md:114; world size = visible GPUs: not knowable")
TT=("pytorch/torchtune","bd2a0fc7c31430972728494fa01aaeeb0ebf1ba1")
tty="recipes/configs/llama3_2/1B_lora_single_device.yaml"
J("torchtune-lora-llama3.2-1b",*TT,["recipes"],".",["--","tune","run","lora_finetune_single_device","--config","llama3_2/1B_lora_single_device"],{
 "model.num_parameters":T(1236000000,tty+":22 lora_llama3_2_1b (Llama-3.2-1B: 16 layers x 2048, tied 128256 vocab = 1.24B)",rel_tol=0.1),
 "peft.method":T("lora",tty+":22 lora_llama3_2_1b"),
 "peft.rank":T(64,tty+":25"),
 "task.mode":T("lora","bf16 base + LoRA"),
 "batch.micro":T(4,tty+":53"),
 "batch.grad_accum":T(8,tty+":71"),
 "precision.mode":T("bf16",tty+":85 dtype bf16 (recipes/lora_finetune_single_device.py:140,410 model built in bf16)"),
 "memory.gradient_checkpointing":T(False,tty+":88 enable_activation_checkpointing False"),
 "compile.enabled":T(False,tty+":73"),
 "optimizer.name":T("AdamW",tty+":57 torch.optim.AdamW",any_of=["AdamW","torch.optim.AdamW","adamw"]),
 "dist.world_size":T(1,"single-device recipe"),
 "loss.implementation":T("chunked",tty+":66 LinearCrossEntropyLoss (torchtune/modules/loss/cross_entropy_loss.py:19-22: logits in 8 chunks)",any_of=["chunked","fused"]),
},held_out=True,note=H3+"; "+tty+":9")
LIG=("linkedin/Liger-Kernel","ead96b618e5c67bddc6a6e9bcb99bfe6b5ab661c")
J("liger-hf-llama3-8b-fsdp",*LIG,["examples/huggingface"],"examples/huggingface",["run_llama.sh"],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B","training.py:16 model_name default, not given"),
 "dist.world_size":T(4,"run_llama.sh:3 --nnodes=1 --nproc-per-node=4"),
 "dist.sharding":T("fsdp_full","run_llama.sh:17 --fsdp full_shard auto_wrap"),
 "batch.micro":T(64,"run_llama.sh:6"),
 "batch.grad_accum":T(1,"TrainingArguments default, not given"),
 "data.seq_len":T(512,"training.py:18 max_seq_length default 512 -> :69"),
 "precision.mode":T("amp_bf16","run_llama.sh:4 --bf16 with FSDP: bf16-loaded params (training.py:51) upcast to fp32 by accelerate under FSDP mixed precision (accelerate accelerator.py:1983-2038)"),
 "memory.gradient_checkpointing":T(True,"config/fsdp_config.json:4 activation_checkpointing true (run_llama.sh:18)"),
 "loss.implementation":T("fused","run_llama.sh:20 --use_liger True -> training.py:46-47 AutoLigerKernelForCausalLM (fused linear cross-entropy by default)"),
},held_out=True,note=H3)
NT=("huggingface/nanotron","2411b022a75fb7f7561a1bb4166706da5e1b76de")
nty="examples/config_tiny_llama.yaml"
J("nanotron-tiny-llama",*NT,["run_train.py","examples","src/nanotron/config"],".",["--","torchrun","--nproc_per_node=8","run_train.py","--config-file",nty],{
 "model.num_parameters":T(2420754432,nty+":37-51 28 layers x 2048, intermediate 11008, 16 heads / 2 kv heads, tied 128256 vocab",rel_tol=0.1),
 "batch.micro":T(3,nty+":89 micro_batch_size"),
 "batch.grad_accum":T(1,nty+":86 batch_accumulation_per_replica"),
 "data.seq_len":T(4096,nty+":90 sequence_length"),
 "dist.sharding":T("ddp",nty+":70 zero_stage 0 with dp 4 (:72)"),
 "precision.mode":T("bf16",nty+":29 dtype bfloat16 with accumulate_grad_in_fp32 (:53): bf16 weights, fp32 master copies"),
 "optimizer.name":T("adamW",nty+":67"),
 "data.num_workers":T(1,nty+":10 num_loading_workers"),
},held_out=True,note=H3+"; README.md:97; 8 processes = dp 4 x tp 2: world size left out (the plan's world size is data-parallel)")
PL=("Lightning-AI/pytorch-lightning","7f0c3436cd3f6ad3753125672024fc415cbcb414")
J("fabric-mnist-4gpu",*PL,["examples/fabric/image_classifier"],"examples/fabric/image_classifier",["--","fabric","run","train_fabric.py","--accelerator=gpu","--devices=4"],{
 "dist.world_size":T(4,"README.md:36 --devices=4"),
 "dist.sharding":T("ddp","fabric run --devices=4, strategy auto -> DDP"),
 "batch.micro":T(64,"train_fabric.py:170 --batch-size default 64 -> :89"),
 "precision.mode":T("fp32","train_fabric.py:76 Fabric() and no --precision: 32-true (src/lightning/fabric/connector.py:125)"),
 "model.num_parameters":T(1199882,"train_fabric.py:51-56 Conv2d(1,32,3), Conv2d(32,64,3), Linear(9216,128), Linear(128,10)",rel_tol=0.1),
 "optimizer.name":T("Adadelta","train_fabric.py:97 optim.Adadelta"),
 "data.image_size":T(28,"MNIST images, no resize (train_fabric.py:80)"),
 "data.num_workers":T(0,"train_fabric.py:87-90 DataLoader without num_workers"),
},held_out=True,note=H3)
# --- held out, fourth set (issue 15, jobs4): eight jobs from eight repositories none of whose jobs
# were in the benchmark before, each labelled from the code at the pinned commit before preflight
# was run on it.
H4="fourth held-out set"
QW=("QwenLM/Qwen","2df8e8ac450fa185c421a08b0090ef81826caa6e")
J("qwen-7b-lora-single-gpu",*QW,["finetune.py","finetune"],".",["finetune/finetune_lora_single_gpu.sh"],{
 "model.ref":T("Qwen/Qwen-7B","finetune/finetune_lora_single_gpu.sh:4 MODEL -> :40"),
 "dist.world_size":T(1,"finetune_lora_single_gpu.sh:37-39 CUDA_VISIBLE_DEVICES=0, python: one process"),
 "batch.micro":T(2,"finetune_lora_single_gpu.sh:45"),
 "batch.grad_accum":T(8,"finetune_lora_single_gpu.sh:47"),
 "data.seq_len":T(512,"finetune_lora_single_gpu.sh:59 --model_max_length -> finetune.py:359"),
 "precision.mode":T("amp_bf16","finetune_lora_single_gpu.sh:42 --bf16 True, no DeepSpeed; finetune.py:307 loads without torch_dtype (fp32)"),
 "memory.gradient_checkpointing":T(True,"finetune_lora_single_gpu.sh:61"),
 "peft.method":T("lora","finetune_lora_single_gpu.sh:62 --use_lora -> finetune.py:330-349 LoraConfig/get_peft_model"),
 "peft.rank":T(64,"finetune.py:55 lora_r default 64, not given"),
 "task.mode":T("lora","finetune.py:316 q_lora False (:63): no GPTQ quantization"),
 "optimizer.name":T("adamw_torch","finetune.py:43 optim default adamw_torch"),
},held_out=True,note=H4)
LV=("haotian-liu/LLaVA","c121f0432da27facab705978f83c4ada465e46fd")
J("llava-v1.5-13b-task-lora",*LV,["llava","scripts"],".",["scripts/v1_5/finetune_task_lora.sh"],{
 "model.ref":T("liuhaotian/llava-v1.5-13b","scripts/v1_5/finetune_task_lora.sh:6"),
 "batch.micro":T(16,"finetune_task_lora.sh:20"),
 "batch.grad_accum":T(1,"finetune_task_lora.sh:22"),
 "data.seq_len":T(2048,"finetune_task_lora.sh:33 --model_max_length"),
 "dist.sharding":T("zero3","finetune_task_lora.sh:5 -> scripts/zero3.json:17 stage 3"),
 "precision.mode":T("bf16","finetune_task_lora.sh:17 --bf16 True with zero3.json:10-12 bf16 auto: DeepSpeed bf16 (llava/train/train.py:831 loads bf16)"),
 "memory.gradient_checkpointing":T(True,"finetune_task_lora.sh:34"),
 "peft.method":T("lora","finetune_task_lora.sh:4 --lora_enable True -> llava/train/train.py:860-876"),
 "peft.rank":T(128,"finetune_task_lora.sh:4 --lora_r 128"),
 "task.mode":T("lora","train.py:101-104 bits default 16: no quantization"),
 "data.num_workers":T(4,"finetune_task_lora.sh:35"),
 "dist.stage3_max_live_parameters":T(1000000000,"scripts/zero3.json:24 1e9"),
 "optimizer.name":T("adamw_torch","llava/train/train.py:82 optim default adamw_torch"),
},held_out=True,note=H4+"; deepspeed without --num_gpus uses every GPU of the node: world size left out")
LC=("meta-llama/llama-cookbook","0e0033518623d03ac5c1654bf04b7e480f7d5e5a")
lcd="getting-started/finetuning/multigpu_finetuning.md:34"
J("llama-cookbook-fsdp-lora-8b",*LC,["getting-started/finetuning","src/llama_cookbook"],"getting-started/finetuning",
 ["--","torchrun","--nnodes","1","--nproc_per_node","4","finetuning.py","--enable_fsdp","--model_name","meta-llama/Llama-3.1-8B",
  "--use_peft","--peft_method","lora","--output_dir","out"],{
 "model.ref":T("meta-llama/Llama-3.1-8B",lcd+" --model_name (placeholder path filled by the user)"),
 "dist.world_size":T(4,lcd+" --nnodes 1 --nproc_per_node 4"),
 "dist.sharding":T("fsdp_full","--enable_fsdp -> src/llama_cookbook/configs/fsdp.py:13 FULL_SHARD -> finetuning.py:281"),
 "batch.micro":T(4,"src/llama_cookbook/configs/training.py:14 batch_size_training default 4"),
 "batch.grad_accum":T(1,"configs/training.py:17"),
 "data.seq_len":T(4096,"configs/training.py:15-16 batching_strategy packing, context_length 4096"),
 "precision.mode":T("amp_bf16","fsdp.py:11 mixed_precision True, pure_bf16 False -> fsdp_utils.py:112-113 bfSixteen FSDP MixedPrecision over weights loaded torch_dtype auto (finetuning.py:185)",any_of=["amp_bf16","bf16"]),
 "memory.gradient_checkpointing":T(True,"fsdp.py:18 fsdp_activation_checkpointing True -> finetuning.py:310"),
 "peft.method":T("lora",lcd+" --use_peft --peft_method lora -> finetuning.py:228"),
 "peft.rank":T(8,"src/llama_cookbook/configs/peft.py:9 r default 8"),
 "task.mode":T("lora","training.py:39 quantization None"),
 "data.num_workers":T(1,"training.py:23 num_workers_dataloader 1 -> finetuning.py:362"),
 "optimizer.name":T("AdamW","finetuning.py:409 optim.AdamW (fsdp.py:21 optimizer AdamW)",any_of=["AdamW","adamw","adamw_torch"]),
},held_out=True,note=H4)
AF=("tatsu-lab/alpaca_farm","30717ddae735365de756ee2085191b491a71788d")
J("alpaca-farm-sft-fsdp",*AF,["examples","src/alpaca_farm"],".",["examples/scripts/sft.sh","--","out","sft10k","huggyllama/llama-7b"],{
 "model.ref":T("huggyllama/llama-7b","README.md:191-194 third positional argument -> sft.sh:5,8"),
 "dist.world_size":T(8,"examples/scripts/sft.sh:7 --nproc_per_node=8"),
 "dist.sharding":T("fsdp_full","sft.sh:33 --fsdp full_shard auto_wrap"),
 "batch.micro":T(1,"sft.sh:14"),
 "batch.grad_accum":T(16,"sft.sh:16"),
 "data.seq_len":T(512,"sft.sh:31 --model_max_length"),
 "precision.mode":T("amp_bf16","sft.sh:9-10 --fp16 False --bf16 True under FSDP; common.py:120 from_pretrained without torch_dtype (fp32)"),
 "memory.gradient_checkpointing":T(False,"TrainingArguments default, not given"),
 "peft.method":T("none","no PEFT in examples/supervised.py"),
 "optimizer.name":T("adamw_torch","examples/supervised.py:73"),
},held_out=True,note=H4)
MC=("OpenBMB/MiniCPM","0fcc3d08330ee612d59d58e312a778ae78165d97")
J("minicpm-2b-lora-zero3-offload",*MC,["finetune"],"finetune",["lora_finetune.sh"],{
 "model.ref":T("openbmb/MiniCPM-2B-sft-bf16","finetune/lora_finetune.sh:6 (a local download of it; finetune.py:20 default openbmb/MiniCPM-2B-sft-bf16)",any_of=["openbmb/MiniCPM-2B-sft-bf16","MiniCPM-2B-sft-bf16"]),
 "dist.world_size":T(1,"lora_finetune.sh:5 deepspeed --include localhost:1 (one GPU)"),
 "batch.micro":T(32,"lora_finetune.sh:10"),
 "batch.grad_accum":T(1,"lora_finetune.sh:12"),
 "data.seq_len":T(384,"lora_finetune.sh:11 --model_max_length"),
 "dist.sharding":T("zero3","lora_finetune.sh:17 -> configs/ds_config_zero3_offload.json:14"),
 "dist.offload_optimizer":T("cpu","ds_config_zero3_offload.json:24-27"),
 "dist.offload_params":T("cpu","ds_config_zero3_offload.json:28-31"),
 "dist.allgather_bucket_size":T(500000000,"ds_config_zero3_offload.json:16 5e8"),
 "precision.mode":T("bf16","lora_finetune.sh:11 --bf16 with json bf16 auto: DeepSpeed bf16 (finetune.py:151-152 loads bf16)"),
 "memory.gradient_checkpointing":T(False,"TrainingArguments default, not given"),
 "peft.method":T("lora","lora_finetune.sh:11 --use_lora -> finetune.py:183-196"),
 "peft.rank":T(64,"finetune.py:194 r=64"),
 "task.mode":T("lora","finetune.py:46 qlora default False"),
 "optimizer.name":T("adamw_torch","finetune.py:38"),
},held_out=True,note=H4)
FF=("yangjianxin1/Firefly","e22b406ee440fda0b18a073c6325853de17741cb")
ffj="train_args/sft/qlora/qwen1.5-7b-sft-qlora.json"
J("firefly-qwen1.5-7b-qlora",*FF,["train.py","component","train_args"],".",["train.py","--","--train_args_file",ffj],{
 "model.ref":T("Qwen/Qwen1.5-7B-Chat",ffj+":3"),
 "dist.world_size":T(1,"README.md:293 python: one process"),
 "batch.micro":T(1,ffj+":7"),
 "batch.grad_accum":T(16,ffj+":8"),
 "data.seq_len":T(1024,ffj+":10 max_seq_length"),
 "precision.mode":T("amp_fp16",ffj+":25 fp16 true (train.py:262 compute dtype float16)"),
 "precision.weights_bits":T(4,"component/argument.py:19 train_mode default qlora -> train.py:263-266 load_in_4bit"),
 "memory.gradient_checkpointing":T(True,ffj+":21"),
 "peft.method":T("lora","train.py:302-316 LoraConfig for train_mode qlora"),
 "peft.rank":T(64,ffj+":16 lora_rank"),
 "task.mode":T("qlora","4-bit base + LoRA"),
 "optimizer.name":T("paged_adamw_32bit",ffj+":23"),
 "data.num_workers":T(0,ffj+":27"),
},held_out=True,note=H4+"; README.md:293 with the Qwen1.5 args file")
SC=("bigcode-project/starcoder","d72c7fe3dda81d47ad9b851f9567393fb6b551b9")
J("starcoder-lora-8bit",*SC,["finetune"],".",["finetune/finetune.py","--","--model_path=bigcode/starcoder",
 "--dataset_name=ArmelR/stack-exchange-instruction","--subset=data/finetune","--split=train","--size_valid_set","10000",
 "--streaming","--seq_length","2048","--max_steps","1000","--batch_size","1","--input_column_name=question",
 "--output_column_name=response","--gradient_accumulation_steps","16","--learning_rate","1e-4",
 "--lr_scheduler_type=cosine","--num_warmup_steps","100","--weight_decay","0.05","--output_dir=./checkpoints"],{
 "model.ref":T("bigcode/starcoder","README.md:141 --model_path"),
 "dist.world_size":T(1,"README.md:140 python: one process"),
 "batch.micro":T(1,"README.md:149 --batch_size -> finetune/finetune.py:276"),
 "batch.grad_accum":T(16,"README.md:152"),
 "data.seq_len":T(2048,"README.md:147 --seq_length"),
 "precision.mode":T("amp_bf16","finetune.py:80-81,283-284: --no_fp16 store_false default True -> fp16=False; --bf16 default True"),
 "precision.weights_bits":T(8,"finetune.py:244 load_in_8bit=True"),
 "memory.gradient_checkpointing":T(True,"finetune.py:82,282 not no_gradient_checkpointing (False) -> True; :247 prepare_model_for_int8_training"),
 "peft.method":T("lora","finetune.py:249-258 LoraConfig"),
 "peft.rank":T(16,"finetune.py:70 --lora_r default 16"),
 "task.mode":T("lora","8-bit base + LoRA",any_of=["lora","qlora"]),
 "optimizer.name":T("adamw_torch","finetune.py:266-289 TrainingArguments without optim: default"),
},held_out=True,note=H4+"; README.md:140-157 (its trailing '\\ ' after response breaks the shell line: argv given as meant)")
DL=("databrickslabs/dolly","e2d664ddf06e0723d818dc56d6c522ead4bd881d")
J("dolly-pythia-2.8b-zero3",*DL,["training","config"],".",["--","deepspeed","--num_gpus=8","--module","training.trainer",
 "--input-model","EleutherAI/pythia-2.8b","--deepspeed","config/a100_config.json","--epochs","2","--local-output-dir","out",
 "--per-device-train-batch-size","6","--per-device-eval-batch-size","6","--logging-steps","10","--save-steps","200",
 "--save-total-limit","20","--eval-steps","50","--warmup-steps","50","--test-size","200","--lr","5e-6","--bf16","true"],{
 "model.ref":T("EleutherAI/pythia-2.8b","train_dolly.py:157 --input-model (training/consts.py:3 suggested model)"),
 "dist.world_size":T(8,"train_dolly.py:155 --num_gpus=8"),
 "batch.micro":T(6,"train_dolly.py:132,162 a100 batch 6 -> trainer.py:243"),
 "batch.grad_accum":T(1,"TrainingArguments default (trainer.py:241-265 none given); a100_config.json auto"),
 "dist.sharding":T("zero3","config/a100_config.json:26 stage 3"),
 "precision.mode":T("bf16","a100_config.json:5-7 bf16 enabled, --bf16 true: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,"training/trainer.py:310-315 --gradient-checkpointing default True -> :250"),
 "dist.stage3_max_live_parameters":T(1000000000,"a100_config.json:33 stage3_max_live_parameters 1e9"),
 "optimizer.name":T("AdamW","a100_config.json:8-9 optimizer AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("none","no PEFT in training/trainer.py"),
},held_out=True,note=H4+"; train_dolly.py:155-172 with gpu_family a100, num_gpus 8")
# --- held out, fifth set (issue 15, jobs5): eight jobs from eight repositories none of whose jobs
# were in the benchmark before, each labelled from the code at the pinned commit before preflight
# was run on it.
H5="fifth held-out set"
CG=("THUDM/ChatGLM-6B","401bf3a8a7dd8a26fba189551dccfc61a7079b4e")
J("chatglm-6b-ds-finetune",*CG,["ptuning","requirements.txt"],"ptuning",["ds_train_finetune.sh"],{
 "model.ref":T("THUDM/chatglm-6b","ptuning/ds_train_finetune.sh:14"),
 "dist.world_size":T(4,"ds_train_finetune.sh:6 deepspeed --num_gpus=4"),
 "batch.micro":T(4,"ds_train_finetune.sh:19"),
 "batch.grad_accum":T(1,"ds_train_finetune.sh:21"),
 "data.seq_len":T(128,"ds_train_finetune.sh:17-18 max_source_length 64 + max_target_length 64 -> ptuning/main.py:188 max_seq_length"),
 "dist.sharding":T("zero2","ds_train_finetune.sh:7 -> ptuning/deepspeed.json:13 stage 2"),
 "precision.mode":T("fp16","ds_train_finetune.sh:27 --fp16 with deepspeed.json:4-5 fp16 auto: DeepSpeed fp16 (main.py:135 model.float() before)"),
 "memory.gradient_checkpointing":T(True,"ptuning/main.py:367 model.gradient_checkpointing_enable() under do_train (ds_train_finetune.sh:8)"),
 "peft.method":T("none","no --pre_seq_len: main.py:133-135 full fine-tuning (model.float())"),
 "dist.allgather_bucket_size":T(500000000,"deepspeed.json:15 5e8"),
 "dist.reduce_bucket_size":T(500000000,"deepspeed.json:18 5e8"),
 "optimizer.name":T("adamw_hf","requirements.txt:2 transformers==4.27.1: Seq2SeqTrainingArguments optim default adamw_hf; ptuning/trainer.py:1066 uses args.optim"),
},held_out=True,note=H5)
QVL=("QwenLM/Qwen-VL","aa00ed04091eea5fcdd32985e7915f1c53e7d599")
J("qwen-vl-chat-lora-zero2",*QVL,["finetune.py","finetune"],".",["finetune/finetune_lora_ds.sh"],{
 "model.ref":T("Qwen/Qwen-VL-Chat","finetune/finetune_lora_ds.sh:11 MODEL -> :25"),
 "dist.world_size":T(8,"finetune_lora_ds.sh:5-6 GPUS_PER_NODE=8 NNODES=1 -> :17-18"),
 "batch.micro":T(2,"finetune_lora_ds.sh:31"),
 "batch.grad_accum":T(8,"finetune_lora_ds.sh:33"),
 "data.seq_len":T(2048,"finetune_lora_ds.sh:45 --model_max_length -> finetune.py:352"),
 "dist.sharding":T("zero2","finetune_lora_ds.sh:49 -> finetune/ds_config_zero2.json:33 stage 2"),
 "precision.mode":T("bf16","finetune_lora_ds.sh:27 --bf16 True with ds_config_zero2.json:10-11 bf16 auto: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,"finetune_lora_ds.sh:48"),
 "peft.method":T("lora","finetune_lora_ds.sh:47 --use_lora -> finetune.py:326-345"),
 "peft.rank":T(64,"finetune.py:55 lora_r default 64"),
 "task.mode":T("lora","finetune.py:63 q_lora default False: no GPTQ (finetune.py:304-308)"),
 "dist.offload_optimizer":T("none","ds_config_zero2.json:34-36 device none"),
 "dist.allgather_bucket_size":T(200000000,"ds_config_zero2.json:39 2e8"),
 "optimizer.name":T("AdamW","ds_config_zero2.json:13-14 optimizer AdamW",any_of=["AdamW","adamw"]),
},held_out=True,note=H5)
MV=("OpenBMB/MiniCPM-V","0dbb566de090067266abb76e702fb289f09934c5")
J("minicpm-o-2.6-lora-zero2",*MV,["finetune"],"finetune",["finetune_lora.sh"],{
 "model.ref":T("openbmb/MiniCPM-o-2_6","finetune/finetune_lora.sh:9 MODEL -> :29"),
 "dist.world_size":T(8,"finetune_lora.sh:3-4 GPUS_PER_NODE=8 NNODES=1 -> :21-22"),
 "batch.micro":T(1,"finetune_lora.sh:53"),
 "batch.grad_accum":T(1,"finetune_lora.sh:55"),
 "data.seq_len":T(2048,"finetune_lora.sh:18 MODEL_MAX_Length -> :46 --model_max_length"),
 "dist.sharding":T("zero2","finetune_lora.sh:67 -> finetune/ds_config_zero2.json:35 stage 2"),
 "precision.mode":T("fp16","finetune_lora.sh:36,38 --bf16 false --fp16 true with ds_config_zero2.json:2-3 fp16 auto: DeepSpeed fp16 (finetune.py:183-203 loads float16)"),
 "memory.gradient_checkpointing":T(True,"finetune_lora.sh:66"),
 "peft.method":T("lora","finetune_lora.sh:44 --use_lora true -> finetune.py:229"),
 "peft.rank":T(64,"finetune.py:60 lora_r default 64"),
 "task.mode":T("lora","finetune.py:66 q_lora default False"),
 "dist.offload_optimizer":T("none","ds_config_zero2.json:36-38 device none"),
 "dist.allgather_bucket_size":T(200000000,"ds_config_zero2.json:41 2e8"),
 "optimizer.name":T("AdamW","ds_config_zero2.json:15-16 optimizer AdamW",any_of=["AdamW","adamw"]),
},held_out=True,note=H5)
MG=("karpathy/minGPT","37baab71b9abea1b76ab957409a1cc2fbfba8a26")
J("mingpt-chargpt",*MG,["mingpt","projects/chargpt"],"projects/chargpt",["chargpt.py","--","--trainer.batch_size=32"],{
 "dist.world_size":T(1,"python chargpt.py: one process"),
 "batch.micro":T(32,"mingpt/utils.py:70 --trainer.batch_size=32 -> chargpt.py:90 merge_from_args (default mingpt/trainer.py:24 64)"),
 "data.seq_len":T(128,"projects/chargpt/chargpt.py:50 block_size 128"),
 "precision.mode":T("fp32","no autocast, no half anywhere (mingpt/trainer.py:61-100)"),
 "memory.gradient_checkpointing":T(False,"none in mingpt/model.py"),
 "model.num_parameters":T(2700000,"chargpt.py:32 gpt-mini -> mingpt/model.py:139 n_layer 6 n_embd 192; ~2.7M with a tiny-shakespeare vocabulary of 65 (readme.md:7)",rel_tol=0.1),
 "optimizer.name":T("AdamW","mingpt/model.py:257 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"mingpt/trainer.py:21 -> :74"),
 "peft.method":T("none","no PEFT anywhere in minGPT"),
},held_out=True,note=H5)
CG3=("THUDM/ChatGLM3","732294f42e2625509000daa87a9c3748d0bbb957")
J("chatglm3-6b-lora-ddp",*CG3,["finetune_demo"],"finetune_demo",["--","torchrun","--standalone","--nnodes=1","--nproc_per_node=8",
 "finetune_hf.py","data/AdvertiseGen/","THUDM/chatglm3-6b","configs/lora.yaml"],{
 "model.ref":T("THUDM/chatglm3-6b","finetune_demo/README.md:194 second positional -> finetune_hf.py:445,459"),
 "dist.world_size":T(8,"README.md:194 --nnodes=1 --nproc_per_node=8"),
 "dist.sharding":T("ddp","torchrun, configs/lora.yaml:38 deepspeed commented out"),
 "batch.micro":T(4,"configs/lora.yaml:15"),
 "batch.grad_accum":T(1,"Seq2SeqTrainingArguments default, not in lora.yaml:8-40"),
 "data.seq_len":T(769,"lora.yaml:6-7 256 + 512 -> finetune_hf.py:323 max_length = in + out + 1",any_of=[768,769]),
 "memory.gradient_checkpointing":T(True,"finetune_hf.py:514 model.gradient_checkpointing_enable()"),
 "peft.method":T("lora","lora.yaml:42 peft_type LORA -> finetune_hf.py:399-406"),
 "peft.rank":T(8,"lora.yaml:44"),
 "task.mode":T("lora","no quantization in finetune_hf.py"),
 "data.num_workers":T(16,"lora.yaml:16 dataloader_num_workers"),
},held_out=True,note=H5+"; README.md:194 without its OMP_NUM_THREADS=1 prefix")
SM=("huggingface/smollm","a041759883ec7152d18fb985ea49be641a0bceef")
smr="text/finetuning/README.md"
J("smollm2-1.7b-lora",*SM,["text/finetuning"],"text/finetuning",["--","accelerate","launch","train.py","--model_id","HuggingFaceTB/SmolLM2-1.7B",
 "--dataset_name","bigcode/the-stack-smol","--subset","data/python","--dataset_text_field","content","--split","train",
 "--max_seq_length","2048","--max_steps","5000","--micro_batch_size","1","--gradient_accumulation_steps","8",
 "--learning_rate","3e-4","--warmup_steps","100","--num_proc","16"],{
 "model.ref":T("HuggingFaceTB/SmolLM2-1.7B",smr+":43 --model_id"),
 "batch.micro":T(1,smr+":50 --micro_batch_size -> train.py:99"),
 "batch.grad_accum":T(8,smr+":51 -> train.py:100"),
 "data.seq_len":T(2048,smr+":48 --max_seq_length -> train.py:98"),
 "precision.mode":T("amp_bf16","train.py:39 --bf16 default True -> :106; :73-78 from_pretrained without torch_dtype, LoRA"),
 "peft.method":T("lora","train.py:56-63,117 LoraConfig passed to SFTTrainer"),
 "peft.rank":T(16,"train.py:57"),
 "task.mode":T("lora","train.py:41 --use_bnb default False: bnb_config None (:64-70)"),
 "optimizer.name":T("paged_adamw_8bit","train.py:110"),
},held_out=True,note=H5+"; README.md:42-54 with $(nproc) as 16; accelerate launch with the user's own accelerate config: world size left out")
LF=("mosaicml/llm-foundry","8c8dd48f72168c5d51e2f7b151595892a8fba43d")
lfy="yamls/finetune/mpt-7b_dolly_sft.yaml"
J("llmfoundry-mpt-7b-dolly-sft",*LF,["scripts/train","llmfoundry"],"scripts/train",["--","composer","train.py",lfy],{
 "model.ref":T("mosaicml/mpt-7b",lfy+":15 pretrained_model_name_or_path"),
 "batch.micro":T(8,lfy+":102 device_train_microbatch_size"),
 "batch.global":T(48,lfy+":97 global_train_batch_size"),
 "data.seq_len":T(2048,lfy+":4,9 max_seq_len"),
 "dist.sharding":T("fsdp_full",lfy+":108 FULL_SHARD"),
 "precision.mode":T("amp_bf16",lfy+":104 precision amp_bf16 (:109 FSDP mixed_precision PURE: bf16 compute over fp32 sharded params)"),
 "memory.gradient_checkpointing":T(True,lfy+":110 activation_checkpointing true"),
 "optimizer.name":T("decoupled_adamw",lfy+":80",any_of=["decoupled_adamw","DecoupledAdamW"]),
 "data.num_workers":T(8,lfy+":49"),
 "data.pin_memory":T(False,lfy+":50"),
 "peft.method":T("none","no peft_config in "+lfy),
},held_out=True,note=H5+"; scripts/train/README.md:110 with the README's finetune YAML (:202); composer uses every GPU of the node: world size left out")
IV=("OpenGVLab/InternVL","2410d1dbf208f0e799459aff9376e5747dbf41a2")
ivs="shell/internvl2.5/2nd_finetune/internvl2_5_8b_dynamic_res_2nd_finetune_lora.sh"
J("internvl2.5-8b-lora-zero1",*IV,["internvl_chat/shell/internvl2.5/2nd_finetune","internvl_chat/internvl","internvl_chat/zero_stage1_config.json"],
 "internvl_chat",[ivs],{
 "model.ref":T("OpenGVLab/InternVL2_5-8B",ivs+":32"),
 "dist.world_size":T(2,ivs+":3 GPUS default 2 -> :26,29"),
 "batch.micro":T(4,ivs+":5 PER_DEVICE_BATCH_SIZE default 4 -> :50"),
 "batch.grad_accum":T(2,ivs+":6 16 / 4 / 2 -> :51"),
 "data.seq_len":T(8192,ivs+":61 --max_seq_length"),
 "data.image_size":T(448,ivs+":38 --force_image_size"),
 "dist.sharding":T("zero1",ivs+":68 -> zero_stage1_config.json:3 stage 1"),
 "precision.mode":T("bf16",ivs+":48 --bf16 True with zero_stage1_config.json:20-21 bf16 auto: DeepSpeed bf16 (internvl_chat_finetune.py:909-910 loads bf16)"),
 "memory.gradient_checkpointing":T(True,ivs+":63 --grad_checkpoint True -> internvl/train/internvl_chat_finetune.py:978"),
 "peft.method":T("lora",ivs+":45 --use_llm_lora 16 -> internvl_chat_finetune.py:1007-1008 wrap_llm_lora"),
 "peft.rank":T(16,ivs+":45 -> internvl_chat_finetune.py:1008 r=use_llm_lora"),
 "task.mode":T("lora","no quantization in internvl_chat_finetune.py"),
 "data.num_workers":T(4,ivs+":47"),
 "dist.allgather_bucket_size":T(1000000000,"zero_stage1_config.json:5 1e9"),
 "optimizer.name":T("AdamW","zero_stage1_config.json:23-24 optimizer AdamW",any_of=["AdamW","adamw"]),
},held_out=True,note=H5)
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
H7="seventh held-out set"
MG=("shibing624/MedicalGPT","2f1008cfa49cbba69ff6f138c3b5e2fb0646bdc7")
mgs="scripts/run_sft.sh"
mgp="training/supervised_finetuning.py"
J("medicalgpt-qwen-sft-lora-ddp",*MG,["scripts","training","requirements.txt"],".",[mgs],{
 "model.ref":T("Qwen/Qwen3.5-0.8B",mgs+":2"),
 "dist.world_size":T(2,mgs+":1 torchrun --nproc_per_node 2"),
 "dist.sharding":T("ddp",mgs+":1 two processes, no --deepspeed/--fsdp: Trainer DDP ("+mgp+":656-659)"),
 "batch.micro":T(2,mgs+":5"),
 "batch.grad_accum":T(8,mgs+":24"),
 "data.seq_len":T(512,mgs+":12 --model_max_length -> "+mgp+":440"),
 "precision.mode":T("amp_bf16",mgs+":33-34 --torch_dtype bfloat16 --bf16: Trainer bf16 autocast; trainable LoRA params cast to fp32 ("+mgp+":911-912)",any_of=["amp_bf16","bf16"]),
 "memory.gradient_checkpointing":T(True,mgs+":37 -> "+mgp+":917-918"),
 "peft.method":T("lora",mgs+":9 --use_peft True -> "+mgp+":899-907 LoraConfig + get_peft_model"),
 "peft.rank":T(8,mgs+":30"),
 "task.mode":T("lora",mgp+":76-77 load_in_4bit/8bit default False, not given: LoRA without quantization"),
},held_out=True,note=H7+"; bash scripts/run_sft.sh from the repository root")
DSC=("deepseek-ai/DeepSeek-Coder","2f9fd85927c669dae3c0fbb2d607274023af243e")
dsj="configs/ds_config_zero3.json"
J("deepseek-coder-6.7b-zero3-offload",*DSC,["finetune"],"finetune",
 ["--","deepspeed","finetune_deepseekcoder.py","--model_name_or_path","deepseek-ai/deepseek-coder-6.7b-instruct",
  "--data_path","data.json","--output_dir","out","--num_train_epochs","3","--model_max_length","1024",
  "--per_device_train_batch_size","16","--per_device_eval_batch_size","1","--gradient_accumulation_steps","4",
  "--evaluation_strategy","no","--save_strategy","steps","--save_steps","100","--save_total_limit","100",
  "--learning_rate","2e-5","--warmup_steps","10","--logging_steps","1","--lr_scheduler_type","cosine",
  "--gradient_checkpointing","True","--report_to","tensorboard","--deepspeed",dsj,"--bf16","True"],{
 "model.ref":T("deepseek-ai/deepseek-coder-6.7b-instruct","finetune/README.md:22,25"),
 "batch.micro":T(16,"README.md:30"),
 "batch.grad_accum":T(4,"README.md:32"),
 "data.seq_len":T(1024,"README.md:29 --model_max_length -> finetune_deepseekcoder.py:131 tokenizer model_max_length"),
 "dist.sharding":T("zero3",dsj+":25 stage 3"),
 "precision.mode":T("bf16",dsj+":2-3 bf16 auto + README.md:44 --bf16 True: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,"README.md:41"),
 "dist.offload_optimizer":T("cpu",dsj+":26-28"),
 "dist.offload_params":T("cpu",dsj+":30-32"),
 "dist.stage3_max_live_parameters":T(1000000000,dsj+":40 1e9"),
 "optimizer.name":T("AdamW",dsj+":5-6 optimizer AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("none","finetune_deepseekcoder.py: no PEFT, full fine-tuning (:144-147 from_pretrained, :185 Trainer)"),
},held_out=True,note=H7+"; finetune/README.md:21-45 with a data path and an output dir")
HL=("ContextualAI/HALOs","4831988636b4cbc1c30c0bce78df568cf0f8103b")
hls="scripts/launch_llama_dpo.sh"
hbm="config/model/base_model.yaml"
J("halos-llama3-8b-dpo-fsdp-sbatch",*HL,["scripts","config","accelerate_config","launch.py","train"],".",[hls,"--","0.1","5e-7"],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B",hls+":59 MODEL_PATH -> :68 ++model.name_or_path=$MODEL_PATH"),
 "dist.world_size":T(4,"accelerate_config/fsdp_4gpu.yaml:18 num_processes 4 (#SBATCH --gres=gpu:4, :6)"),
 "dist.nodes":T(1,hls+":3 --nodes=1; fsdp_4gpu.yaml:17 num_machines 1"),
 "dist.sharding":T("fsdp_full","accelerate_config/fsdp_4gpu.yaml:3,11 FSDP FULL_SHARD"),
 "dist.offload_params":T("none","accelerate_config/fsdp_4gpu.yaml:10 fsdp_offload_params false"),
 "batch.global":T(32,hls+":72 ++model.batch_size=32"),
 "batch.micro":T(8,"launch.py:65-66 32 / (4 processes * 1 accumulation step)"),
 "batch.grad_accum":T(1,hls+":72"),
 "data.seq_len":T(1250,hbm+":31 max_length"),
 "precision.mode":T("bf16",hbm+":19 policy_dtype bfloat16 -> launch.py:213 from_pretrained(torch_dtype=bfloat16), optimizer on those weights (:264); no mixed_precision in fsdp_4gpu.yaml: pure bf16"),
 "memory.gradient_checkpointing":T(True,hbm+":37 activation_checkpointing true -> launch.py:259-260"),
 "optimizer.name":T("AdamW","config/config.yaml:71 optimizer AdamW -> launch.py:264 getattr(torch.optim, ...)",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2","config/model/llama.yaml:6 (overrides base_model.yaml:51 eager) -> launch.py:214"),
 "peft.method":T("none",hbm+":54 use_peft false -> launch.py:224"),
},held_out=True,note=H7+"; sbatch scripts/launch_llama_dpo.sh 0.1 5e-7 (BETA, LR)")
DPO=("eric-mitchell/direct-preference-optimization","f8b8c0f49dc92a430bae41585f9d467d3618fe2f")
J("dpo-pythia-2.8b-sft-fsdp",*DPO,["."],".",
 ["--","python","-u","train.py","model=pythia28","datasets=[hh]","loss=sft","exp_name=anthropic_dpo_pythia28",
  "gradient_accumulation_steps=2","batch_size=64","eval_batch_size=32","trainer=FSDPTrainer","sample_during_eval=false",
  "model.fsdp_policy_mp=bfloat16"],{
 "model.ref":T("EleutherAI/pythia-2.8b","model=pythia28 -> config/model/pythia28.yaml:1"),
 "dist.sharding":T("fsdp_full","trainer=FSDPTrainer -> trainers.py:446 ShardingStrategy.FULL_SHARD"),
 "precision.mode":T("amp_bf16","config/model/pythia28.yaml:6 policy_dtype float32 + model.fsdp_policy_mp=bfloat16 -> trainers.py:457-459 FSDP MixedPrecision bf16 over fp32 params"),
 "batch.global":T(64,"README.md:75 batch_size=64 (config.yaml:7 the batch across GPUs and accumulation steps)"),
 "batch.grad_accum":T(2,"README.md:75 gradient_accumulation_steps=2"),
 "data.seq_len":T(512,"config/config.yaml:62 max_length"),
 "optimizer.name":T("RMSprop","config/config.yaml:80 -> trainers.py:276 getattr(torch.optim, 'RMSprop')",any_of=["RMSprop","rmsprop"]),
 "memory.gradient_checkpointing":T(False,"config/config.yaml:86 activation_checkpointing false"),
 "peft.method":T("none","no PEFT in train.py/trainers.py"),
},held_out=True,note=H7+"; README.md:75 (world size = torch.cuda.device_count(), train.py:106: not knowable)")
LL=("Lightning-AI/lit-llama","2a464de2a1d2f266614d15091d3d7f30330c3ede")
llf="finetune/lora.py"
J("lit-llama-7b-lora",*LL,["finetune","lit_llama","generate.py","generate","scripts","setup.py","pyproject.toml","howto"],".",
 ["--","python",llf],{
 "model.num_parameters":T(6740000000,llf+":71 LLaMAConfig.from_name('7B') -> lit_llama/model.py:44 32 layers, 32 heads, 4096 (LLaMA 7B, 6.74B)",rel_tol=0.1),
 "dist.world_size":T(1,llf+":62 Fabric(devices=1)"),
 "precision.mode":T("bf16",llf+":62 precision='bf16-true'"),
 "batch.micro":T(4,llf+":41 micro_batch_size -> :197"),
 "batch.grad_accum":T(32,llf+":40-42 128 // 4"),
 "data.seq_len":T(256,llf+":46 max_seq_length -> :72 block_size"),
 "peft.method":T("lora",llf+":76 lit_llama.lora.lora(r=8, ...)"),
 "peft.rank":T(8,llf+":47 lora_r"),
 "task.mode":T("lora",llf+":81 mark_only_lora_as_trainable"),
 "optimizer.name":T("AdamW",llf+":83 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in finetune/lora.py or lit_llama/model.py"),
 "data.pin_memory":T(True,llf+":250"),
 "data.num_workers":T(0,llf+":244-251 DataLoader default"),
},held_out=True,note=H7+"; howto/finetune_lora.md:23")
MLR=("microsoft/LoRA","c4593f060e6a368d7bb5af5273b8e42810cdef90")
mlf="src/gpt2_ft.py"
J("ms-lora-gpt2-medium-e2e",*MLR,["examples/NLG/src","examples/NLG/README.md","examples/NLG/requirement.txt","loralib"],"examples/NLG",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=1",mlf,"--train_data","./data/e2e/train.jsonl",
  "--valid_data","./data/e2e/valid.jsonl","--train_batch_size","8","--grad_acc","1","--valid_batch_size","4",
  "--seq_len","512","--model_card","gpt2.md","--init_checkpoint","./pretrained_checkpoints/gpt2-medium-pytorch_model.bin",
  "--platform","local","--clip","0.0","--lr","0.0002","--weight_decay","0.01","--correct_bias","--adam_beta2","0.999",
  "--scheduler","linear","--warmup_step","500","--max_epoch","5","--save_interval","1000","--lora_dim","4",
  "--lora_alpha","32","--lora_dropout","0.1","--label_smooth","0.1","--work_dir","./trained_models/GPT2_M/e2e",
  "--random_seed","110"],{
 "model.num_parameters":T(355000000,"--model_card gpt2.md -> "+mlf+":306-311 GPT2Config(n_embd=1024, n_layer=24, n_head=16): GPT-2 medium 355M",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:52 --nproc_per_node=1"),
 "dist.sharding":T("ddp","--platform local -> src/gpu.py:34-36 DistributedDataParallel (one process)",any_of=["ddp","none"]),
 "batch.micro":T(8,"README.md:55 --train_batch_size"),
 "batch.grad_accum":T(1,"README.md:56"),
 "data.seq_len":T(512,"README.md:58"),
 "precision.mode":T("fp32",mlf+":62 --fp16 store_true, not given: no apex amp (:335-336)"),
 "peft.method":T("lora","README.md:71 --lora_dim 4 -> "+mlf+":302-310 lora_attn_dim, :327-328 loralib mark_only_lora_as_trainable"),
 "peft.rank":T(4,"README.md:71"),
 "task.mode":T("lora",mlf+":327-328 only LoRA trainable"),
 "optimizer.name":T("AdamW","src/optimizer.py:316-320 the project's AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,mlf+":288"),
 "data.pin_memory":T(False,mlf+":289"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in src/model.py"),
},held_out=True,note=H7+"; examples/NLG/README.md:52-76")
SP=("uclaml/SPIN","a12ba808a51c23bb98c7cc892d261e9c2f71ff8e")
spc="configs/config.yaml"
spz="configs/deepspeed_zero3.yaml"
J("spin-zephyr-7b-iter0-zero3",*SP,["scripts","configs","spin","setup.py"],".",["scripts/finetune.sh"],{
 "model.ref":T("alignment-handbook/zephyr-7b-sft-full",spc+":2"),
 "dist.world_size":T(8,"scripts/finetune.sh:22 --num_processes=8 ("+spz+":16)"),
 "dist.sharding":T("zero3",spz+":9-10 zero_stage 3 under DEEPSPEED"),
 "batch.micro":T(8,spc+":32"),
 "batch.grad_accum":T(1,spc+":20"),
 "data.seq_len":T(1024,spc+":27 max_length"),
 "precision.mode":T("bf16",spz+":14 mixed_precision bf16 under DeepSpeed + "+spc+":15 bf16 true: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,spc+":21"),
 "optimizer.name":T("rmsprop",spc+":30 optim rmsprop (spin/alignment/configs.py:270 default too)"),
 "peft.method":T("none","spin/alignment/configs.py:151-152 use_peft default False, not set"),
 "dist.offload_optimizer":T("none",spz+":5"),
 "dist.offload_params":T("none",spz+":6"),
},held_out=True,note=H7+"; bash scripts/finetune.sh from the repository root")
YI=("01-ai/Yi","f73194cc16e82df438bc01240b8e4b622209f3eb")
yis="run_sft_lora_Yi_6b.sh"
J("yi-6b-sft-lora-zero2-offload",*YI,["finetune"],"finetune/scripts",[yis],{
 "batch.micro":T(4,yis+":8 -> sft/main.py:240"),
 "batch.grad_accum":T(1,yis+":15"),
 "data.seq_len":T(4096,yis+":10"),
 "dist.sharding":T("zero2",yis+":20 --zero_stage 2 -> sft/main.py:233-235 -> utils/ds_utils.py:24"),
 "precision.mode":T("fp16","utils/ds_utils.py:41 fp16 enabled (DeepSpeed fp16, fp32 master)"),
 "memory.gradient_checkpointing":T(True,yis+":19 -> sft/main.py:354"),
 "dist.offload_optimizer":T("cpu",yis+":22 --offload -> utils/ds_utils.py:22,26"),
 "peft.method":T("lora",yis+":23 --lora_dim 128 -> sft/main.py:261-263 convert_linear_layer_to_lora"),
 "peft.rank":T(128,yis+":23"),
},held_out=True,note=H7+"; the model path is a placeholder (run_sft_lora_Yi_6b.sh:7): model not knowable")
H8="eighth held-out set"
GL=("jiaweizzhao/GaLore","2cc66f88cce189e505affbb91042a8e77f5bf4e9")
gls="scripts/benchmark_c4/llama_350m.sh"
glm="torchrun_main.py"
J("galore-llama-350m-c4-ddp",*GL,["scripts","configs","torchrun_main.py","peft_pretraining","galore_torch","requirements.txt","setup.py"],".",[gls],{
 "model.num_parameters":T(367969280,gls+":3 configs/llama_350m.json:8-15 (hidden 1024, intermediate 2736, 24 layers, vocab 32000, untied head) -> "+glm+":202 LlamaForCausalLM(model_config): 368.0M",rel_tol=0.1),
 "dist.world_size":T(4,gls+":2 torchrun --standalone --nproc_per_node 4"),
 "dist.sharding":T("ddp",glm+":383-388 DistributedDataParallel (no --single_gpu)"),
 "batch.micro":T(128,gls+":8 --batch_size"),
 "batch.global":T(512,gls+":9 --total_batch_size"),
 "batch.grad_accum":T(1,glm+":147-150 512 // (128 * 4 processes)"),
 "data.seq_len":T(256,glm+":42 --max_length default 256, not given -> :183-195"),
 "precision.mode":T("bf16",gls+":13 --dtype bfloat16 -> "+glm+":238-239 model.to(dtype=bfloat16), no autocast, optimizer on bf16 weights"),
 "memory.gradient_checkpointing":T(False,glm+":47 store_true --activation_checkpointing absent from "+gls),
 "optimizer.name":T("galore_adamw",gls+":15 --optimizer galore_adamw -> "+glm+":294-296 GaLoreAdamW",any_of=["galore_adamw","GaLoreAdamW"]),
 "data.num_workers":T(8,glm+":61 --workers default 8 -> :196"),
 "data.pin_memory":T(False,glm+":196 DataLoader default"),
 "peft.method":T("none","GaLore projects optimizer states; all weights train (no LoRA/PEFT in "+glm+")"),
},held_out=True,note=H8+"; bash scripts/benchmark_c4/llama_350m.sh from the repository root")
OC=("mlfoundations/open_clip","89fb801f1e6087880e951fc8354b8a2077b79c6d")
ocs="docs/script_examples/stability_example.sh"
J("openclip-vit-b32-laion-sbatch",*OC,[ocs,"src","pyproject.toml","requirements-training.txt"],".",[ocs],{
 "model.ref":T("ViT-B-32",ocs+":51 --model ViT-B-32 (src/open_clip/model_configs/ViT-B-32.json)"),
 "model.num_parameters":T(151277313,"ViT-B-32.json: vision 12 layers width 768 patch 32, text 12 layers width 512 vocab 49408: CLIP ViT-B/32 151.3M",rel_tol=0.1),
 "dist.nodes":T(30,ocs+":4 #SBATCH --nodes 30"),
 "dist.devices_per_node":T(8,ocs+":5 --ntasks-per-node=8, one GPU per srun task (:37)"),
 "dist.world_size":T(240,ocs+":4-5 30 nodes x 8 tasks -> src/open_clip_train/distributed.py:72 SLURM_NTASKS"),
 "dist.sharding":T("ddp","src/open_clip_train/main.py:439-444 task.prepare_distributed -> src/open_clip/task/base_task.py:227 DistributedDataParallel (--fsdp not given, params.py:591)"),
 "batch.micro":T(375,ocs+":44 --batch-size=375 (per GPU, params.py:272)"),
 "batch.grad_accum":T(1,"src/open_clip_train/params.py:535 --accum-freq default 1, not given"),
 "precision.mode":T("amp_bf16",ocs+":57 --precision amp_bfloat16 -> src/open_clip_train/precision.py:12-13 autocast bf16"),
 "memory.gradient_checkpointing":T(True,ocs+":56 -> main.py:328-336 set_grad_checkpointing"),
 "optimizer.name":T("adamw","params.py:291 --opt default adamw, not given",any_of=["adamw","AdamW"]),
 "data.num_workers":T(8,ocs+":47 --workers=8"),
 "data.image_size":T(224,"src/open_clip/model_configs/ViT-B-32.json:4 vision_cfg image_size"),
 "peft.method":T("none","contrastive pretraining from scratch, no PEFT"),
},held_out=True,note=H8+"; sbatch docs/script_examples/stability_example.sh (srun python -m open_clip_train.main, no torchrun)")
TM=("huggingface/pytorch-image-models","aa4b5850c1543fa488abf260f18390eda46cf85d")
tmd="hfdocs/source/training_script.mdx"
J("timm-efficientnet-b2-rmsprop-2gpu",*TM,["distributed_train.sh","train.py","timm",tmd,"pyproject.toml","requirements.txt"],".",
 ["distributed_train.sh","--","2","--data-dir","/imagenet/","--model","efficientnet_b2","-b","128","--sched","step","--epochs","450",
  "--decay-epochs","2.4","--decay-rate",".97","--opt","rmsproptf","--opt-eps",".001","-j","8","--warmup-lr","1e-6",
  "--weight-decay","1e-5","--drop","0.3","--drop-path","0.2","--model-ema","--model-ema-decay","0.9999",
  "--aa","rand-m9-mstd0.5","--remode","pixel","--reprob","0.2","--amp","--lr",".016"],{
 "model.ref":T("efficientnet_b2",tmd+":46 --model efficientnet_b2"),
 "model.num_parameters":T(9110000,"timm/models/efficientnet.py:2093-2097 EfficientNet-B2 (width 1.1, depth 1.2, 1000 classes): 9.1M",rel_tol=0.1),
 "dist.world_size":T(2,tmd+":46 NUM_PROC=2 -> distributed_train.sh:2-4 torchrun --nproc_per_node=$NUM_PROC"),
 "dist.sharding":T("ddp","train.py:1025-1028 task.prepare_distributed (DistributedDataParallel)"),
 "batch.micro":T(128,tmd+":46 -b 128 (train.py:142, per process)"),
 "batch.grad_accum":T(1,"train.py:150 --grad-accum-steps default 1"),
 "precision.mode":T("amp_fp16",tmd+":46 --amp -> train.py:177 --amp-dtype default float16, :631 autocast + :634 NativeScaler (float16 only)"),
 "memory.gradient_checkpointing":T(False,"train.py:152 --grad-checkpointing not given"),
 "optimizer.name":T("rmsproptf",tmd+":46 --opt rmsproptf (train.py:191)",any_of=["rmsproptf","RMSpropTF"]),
 "data.num_workers":T(8,tmd+":46 -j 8 (train.py:377)"),
 "data.pin_memory":T(False,"train.py:381 --pin-mem not given -> :692"),
 "data.image_size":T(256,"train.py:587 resolve_data_config from the model's default cfg: timm/models/efficientnet.py:1416-1419 efficientnet_b2.ra_in1k input_size (3, 256, 256)"),
 "compile.enabled":T(False,"train.py:168 --torchcompile not given"),
 "peft.method":T("none","ImageNet training from scratch, no PEFT"),
},held_out=True,note=H8+"; ./distributed_train.sh 2 ... as "+tmd+":46")
TX=("CarperAI/trlx","3340c2f3a56d1d14fdd5f13ad575121fa26b6d92")
txz="../../configs/accelerate/zero2-bf16.yaml"
txp="ppo_hh.py"
J("trlx-ppo-hh-gptj-zero2",*TX,["examples/hh","configs/accelerate","trlx","setup.cfg","setup.py","requirements.txt"],"examples/hh",
 ["--","accelerate","launch","--num_processes","7","--config_file",txz,txp],{
 "model.ref":T("EleutherAI/gpt-j-6B",txp+":39 ModelConfig(model_path=...) (CONFIG_NAME unset, :70)"),
 "dist.world_size":T(7,"examples/hh/README.md:7 --num_processes 7 (overrides zero2-bf16.yaml:19 num_processes 8)"),
 "dist.sharding":T("zero2","configs/accelerate/zero2-bf16.yaml:9-10 zero_stage 2 under DEEPSPEED"),
 "dist.offload_optimizer":T("none","configs/accelerate/zero2-bf16.yaml:6"),
 "dist.offload_params":T("none","configs/accelerate/zero2-bf16.yaml:7"),
 "batch.micro":T(4,txp+":32 TrainConfig(batch_size=4) -> trlx/trainer/accelerate_ppo_trainer.py:231 create_loader(batch_size) per process"),
 "batch.grad_accum":T(1,"configs/accelerate/zero2-bf16.yaml:4"),
 "data.seq_len":T(1024,txp+":29 seq_length (prompt + generation)"),
 "precision.mode":T("bf16","configs/accelerate/zero2-bf16.yaml:17 mixed_precision bf16 under DeepSpeed: DeepSpeed bf16 (16-bit weights, fp32 master)"),
 "memory.gradient_checkpointing":T(False,"no gradient_checkpointing_enable in trlx/trainer"),
 "optimizer.name":T("adamw",txp+":41 OptimizerConfig(name='adamw') -> trlx/utils/__init__.py:102-103 torch.optim.AdamW",any_of=["adamw","AdamW"]),
 "peft.method":T("none",txp+":39 no peft_config (trlx/trainer/accelerate_base_trainer.py:157)"),
},held_out=True,note=H8+"; examples/hh/README.md:7 (GPT-J, all but the last 2 layers frozen: "+txp+":39 num_layers_unfrozen=2)")
MAE=("facebookresearch/mae","efb2a8062c206524e35e47d04501ed4f544c0ae8")
maf="main_finetune.py"
J("mae-vit-base-finetune-8gpu",*MAE,["."],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=8",maf,"--accum_iter","4","--batch_size","32",
  "--model","vit_base_patch16","--finetune","mae_pretrain_vit_base.pth","--epochs","100","--blr","5e-4","--layer_decay","0.65",
  "--weight_decay","0.05","--drop_path","0.1","--mixup","0.8","--cutmix","1.0","--reprob","0.25","--dist_eval",
  "--data_path","/data/imagenet"],{
 "model.ref":T("vit_base_patch16","FINETUNE.md:118 --model vit_base_patch16 -> "+maf+":227 models_vit.__dict__[args.model]"),
 "model.num_parameters":T(86600000,"models_vit.py:56-59 ViT-B/16 (depth 12, dim 768) + 1000-class head: 86.6M",rel_tol=0.1),
 "dist.world_size":T(8,"FINETUNE.md:115 --nproc_per_node=8"),
 "dist.sharding":T("ddp",maf+":279 DistributedDataParallel"),
 "batch.micro":T(32,"FINETUNE.md:117 --batch_size 32 (per GPU)"),
 "batch.grad_accum":T(4,"FINETUNE.md:116 --accum_iter 4"),
 "precision.mode":T("amp_fp16","engine_finetune.py:55 torch.cuda.amp.autocast() (fp16) + "+maf+":288 NativeScaler (GradScaler)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models_vit.py"),
 "optimizer.name":T("AdamW",maf+":287 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,maf+":141 default 10"),
 "data.pin_memory":T(True,maf+":145 set_defaults(pin_mem=True) -> :206"),
 "data.image_size":T(224,maf+":54 --input_size default 224"),
 "peft.method":T("none","full fine-tuning (layer-wise lr decay), no PEFT"),
},held_out=True,note=H8+"; FINETUNE.md:115-124 (OMP_NUM_THREADS=1 prefix dropped, checkpoint and data paths filled in)")
LMF=("OptimalScale/LMFlow","f3597dba134e8bb3d2cfedeaaae6fc7296ace924")
lms="scripts/run_finetune_with_lora.sh"
lmc="configs/accelerate_fsdp_config.yaml"
J("lmflow-llama3.2-3b-lora-fsdp",*LMF,["scripts/run_finetune_with_lora.sh","configs","examples/finetune.py","src/lmflow","setup.py","requirements.txt"],".",[lms],{
 "model.ref":T("meta-llama/Llama-3.2-3B-Instruct",lms+":2 -> :19"),
 "dist.world_size":T(8,lmc+":22 num_processes 8 ("+lms+":17)"),
 "dist.nodes":T(1,lmc+":21 num_machines 1"),
 "dist.sharding":T("fsdp_full",lmc+":3,12 FSDP FULL_SHARD"),
 "dist.offload_params":T("none",lmc+":11 fsdp_offload_params false"),
 "batch.micro":T(1,lms+":31"),
 "batch.grad_accum":T(1,lms+":32"),
 "data.seq_len":T(512,lms+":30 --block_size (src/lmflow/args.py:513)"),
 "precision.mode":T("amp_bf16",lms+":35-36 --bf16 --torch_dtype bfloat16 with "+lmc+":20 mixed_precision bf16: Trainer bf16 autocast, LoRA adapters trainable",any_of=["amp_bf16","bf16"]),
 "memory.gradient_checkpointing":T(False,lms+":43 --gradient_checkpointing 0"),
 "peft.method":T("lora",lms+":24 --use_lora 1 -> src/lmflow/models/hf_model_mixin.py:253-272 LoraConfig, :361-363 get_peft_model"),
 "peft.rank":T(8,lms+":8 lora_r=8 -> :25"),
 "task.mode":T("lora","src/lmflow/args.py:210-213 use_qlora default False: LoRA without quantization"),
 "optimizer.name":T("adamw_torch","TrainingArguments default optim (src/lmflow/args.py:626 FinetunerArguments; use_customized_optim default False, :651)",any_of=["adamw_torch","adamw_hf","adamw_torch_fused","AdamW","adamw"]),
 "data.num_workers":T(8,lms+":44 --dataloader_num_workers 8"),
},held_out=True,note=H8+"; bash scripts/run_finetune_with_lora.sh from the repository root")
BL=("LianjiaTech/BELLE","645084d36454cdeb4e7f1ce9b2f3426bac39f1f9")
bls="scripts/run_sft.sh"
blz="configs/deepspeed_config_stage3.json"
blp="src/entry_point/sft_train.py"
J("belle-llama-7b-lora-zero3-offload",*BL,["train/scripts","train/configs","train/src","train/requirements.txt"],"train",[bls],{
 "dist.world_size":T(8,bls+":83 torchrun --nproc_per_node 8 (CUDA_VISIBLE_DEVICES 0-7, :2)"),
 "dist.sharding":T("zero3",bls+":88 --deepspeed "+blz+" -> "+blz+":3 stage 3"),
 "dist.offload_optimizer":T("cpu",blz+":19-21"),
 "dist.offload_params":T("cpu",blz+":16-18"),
 "dist.stage3_max_live_parameters":T(0,blz+":13"),
 "dist.stage3_prefetch_bucket_size":T(0,blz+":11"),
 "batch.micro":T(1,bls+":92"),
 "batch.grad_accum":T(1,bls+":94"),
 "data.seq_len":T(1024,bls+":17 cutoff_len=1024 -> :96 --model_max_length -> "+blp+":339"),
 "precision.mode":T("bf16",blz+":41-43 bf16 enabled + "+bls+":105-106 --torch_dtype bfloat16 --bf16: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,bls+":108 -> "+blp+":313-314"),
 "optimizer.name":T("AdamW",blz+":44-45 optimizer AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("lora",bls+":87 --use_lora -> "+blp+":276-310 LoraConfig + get_peft_model"),
 "peft.rank":T(16,bls+":89 configs/lora_config_llama.json:2 lora_r 16 -> "+blp+":292"),
 "task.mode":T("lora",bls+":86-89 --use_int8_training not given ("+blp+":221): LoRA without quantization"),
},held_out=True,note=H8+"; bash scripts/run_sft.sh from train/ (PYTHONPATH .../BELLE/train, :7); the model path is a placeholder (:8 /path_to_llm/hf_llama_7b/): model not knowable")
S4=("state-spaces/s4","e757cef57d89e448c413de7325ed5601aceaac13")
s4e="configs/experiment/lm/s4-wt103.yaml"
J("s4-wt103-lm-hydra-lightning",*S4,["train.py","configs","src","requirements.txt","README.md"],".",
 ["--","python","-m","train","experiment=lm/s4-wt103"],{
 "dist.world_size":T(8,s4e+":3 pipeline wt103 -> configs/pipeline/wt103.yaml:3 trainer lm -> configs/trainer/lm.yaml:2 devices 8 (one node)"),
 "dist.devices_per_node":T(8,"configs/trainer/lm.yaml:2 devices 8"),
 "dist.sharding":T("ddp","train.py:657-659 devices > 1 -> strategy ddp"),
 "batch.micro":T(1,s4e+":11 loader.batch_size 1 (overrides configs/loader/lm.yaml:2)"),
 "batch.grad_accum":T(1,"configs/trainer/lm.yaml:3 accumulate_grad_batches"),
 "data.seq_len":T(8192,s4e+":12 loader.l_max (README.md:201 receptive field 8192)"),
 "precision.mode":T("amp_fp16","configs/trainer/lm.yaml:8 precision 16 -> Lightning 16-mixed (autocast fp16 + GradScaler)"),
 "optimizer.name":T("adamw","configs/pipeline/wt103.yaml:6 -> configs/optimizer/adamw.yaml:2 -> src/utils/registry.py:3 torch.optim.AdamW",any_of=["adamw","AdamW"]),
 "peft.method":T("none","language-model pretraining from scratch, no PEFT"),
},held_out=True,note=H8+"; README.md:201 python -m train experiment=lm/s4-wt103 (an S4 model, no HF checkpoint: model size not labelled)")
H9="ninth held-out set"
OL=("allenai/OLMo","59a53e3f68e546330ca5a99ec626e58f9ab96494")
olc="configs/official-0724/OLMo-1B.yaml"
olt="scripts/train.py"
J("olmo-1b-torchrun-fsdp",*OL,["scripts/train.py","configs/official-0724","olmo","pyproject.toml","README.md"],".",
 ["--","torchrun","--nproc_per_node=8",olt,olc],{
 "model.num_parameters":T(1176764416,olc+":10-14,31-32 d_model 2048, 16 layers, mlp_ratio 8 SwiGLU (olmo/model.py:421,457 ff_out half width), no biases, tied 50304-row embedding: 1.18B",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:67 torchrun --nproc_per_node=8 (one node)"),
 "dist.devices_per_node":T(8,"README.md:67 --nproc_per_node=8"),
 "dist.sharding":T("fsdp_full",olc+":75-77 fsdp block without sharding_strategy -> olmo/config.py:850 default FULL_SHARD -> "+olt+":210-212 FSDP(sharding_strategy=...)"),
 "batch.global":T(2048,olc+":70 global_train_batch_size"),
 "batch.micro":T(8,olc+":71 device_train_microbatch_size"),
 "batch.grad_accum":T(32,olt+":81-83 2048 // 8 processes = 256 per device, // microbatch 8 = 32"),
 "data.seq_len":T(2048,olc+":30 max_sequence_length (training instances are chunks of this length)"),
 "precision.mode":T("amp_bf16",olc+":73 precision amp_bf16 + :77 fsdp precision mixed -> olmo/config.py:1339-1343 bf16 params in compute, fp32 reduce; olmo/train.py:811 autocast bf16 (fp32 master weights)"),
 "memory.gradient_checkpointing":T(False,"olmo/config.py:1294 activation_checkpointing default None, not set in "+olc+" -> "+olt+":152"),
 "optimizer.name":T("adamw",olc+":40-41 optimizer name adamw -> olmo/optim.py AdamW",any_of=["adamw","AdamW"]),
 "compile.enabled":T(False,olc+":38 compile: null -> "+olt+":146"),
 "data.num_workers":T(0,olc+":191 data num_workers 0"),
 "data.pin_memory":T(True,olc+":193 data pin_memory true"),
 "peft.method":T("none","pretraining from scratch, all weights train"),
},held_out=True,note=H9+"; README.md:67 torchrun line with the OLMo-1B config the README lists (configs/official-0724/OLMo-1B.yaml)")
PT=("huggingface/parler-tts","d108732cd57788ec86bc857d99a6cabd66663d68")
ptj="helpers/training_configs/starting_point_v1.json"
ptr="training/run_parler_tts_training.py"
J("parler-tts-mini-v1-accelerate",*PT,["training","parler_tts","helpers/training_configs","setup.py","pyproject.toml"],".",
 ["--","accelerate","launch","./"+ptr,"./"+ptj],{
 "model.ref":T("./parler-tts-untrained-600M/parler-tts-untrained-600M/",ptj+":2 model_name_or_path (a local model made by helpers/model_init_scripts/init_model_600M.py, training/README.md:91)",
   any_of=["./parler-tts-untrained-600M/parler-tts-untrained-600M/","./parler-tts-untrained-600M/parler-tts-untrained-600M","parler-tts-untrained-600M/parler-tts-untrained-600M/","parler-tts-untrained-600M/parler-tts-untrained-600M"]),
 "batch.micro":T(6,ptj+":47 per_device_train_batch_size -> "+ptr+":713,997-1000"),
 "batch.grad_accum":T(4,ptj+":45 -> "+ptr+":114-115 Accelerator(gradient_accumulation_steps=...)"),
 "precision.mode":T("amp_bf16",ptj+":71 dtype bfloat16 -> "+ptr+":93-95 mixed_precision bf16 -> :116 Accelerator autocast; weights loaded fp32 (:333-340, no torch_dtype)"),
 "memory.gradient_checkpointing":T(False,ptj+":46 -> "+ptr+":343-344"),
 "optimizer.name":T("AdamW",ptr+":744 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,ptj+":74 dataloader_num_workers -> "+ptr+":1003"),
 "data.pin_memory":T(True,ptr+":1004 training_args.dataloader_pin_memory (TrainingArguments default True, not set)"),
 "model.attn_implementation":T("sdpa",ptj+":75 -> "+ptr+":339 decoder attention (text encoder eager)"),
 "compile.enabled":T(False,"torch_compile not set in "+ptj+" (TrainingArguments default False; "+ptr+":419)"),
 "peft.method":T("none","full training of the decoder, text encoder frozen ("+ptj+":58); no PEFT"),
},held_out=True,note=H9+"; training/README.md:188 (accelerate launch with no config file: the process count comes from the machine's default accelerate config, not knowable)")
BP=("salesforce/BLIP","056a169437371659074aa2732649d5de3bffb4a8")
bpc="configs/caption_coco.yaml"
bpt="train_caption.py"
J("blip-caption-coco-8gpu",*BP,["train_caption.py","configs","models","data","utils.py","README.md","requirements.txt"],".",
 ["--","python","-m","torch.distributed.run","--nproc_per_node=8",bpt],{
 "model.num_parameters":T(224000000,bpc+":9 vit base -> models/blip.py:95-99 ViT-B/16 at 384 (86.1M) + BertLMHeadModel with cross-attention (configs/med_config.json, 137.9M): 224M",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:68 --nproc_per_node=8"),
 "dist.sharding":T("ddp",bpt+":117-120 DistributedDataParallel"),
 "batch.micro":T(32,bpc+":12 batch_size -> "+bpt+":105-106 -> data/__init__.py:89-91 per-process DataLoader with DistributedSampler"),
 "batch.grad_accum":T(1,bpt+":44-48 backward and step every batch"),
 "precision.mode":T("fp32",bpt+":31-50 no autocast, no half(): fp32"),
 "memory.gradient_checkpointing":T(False,bpc+":10 vit_grad_ckpt False -> "+bpt+":111-112"),
 "optimizer.name":T("AdamW",bpt+":122 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,bpt+":106 num_workers=[4,4,4]"),
 "data.pin_memory":T(True,"data/__init__.py:93 pin_memory=True"),
 "data.image_size":T(384,bpc+":21 image_size 384"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H9+"; README.md:68 (COCO captioning fine-tune on 8 GPUs)")
WZ=("nlpxucan/WizardLM","cd4b4cc022b6426aee62d51f7ae99a4a6ec9aaef")
wzc="config/deepspeed_config.json"
wzt="train/train_wizardmath.py"
J("wizardmath-13b-deepspeed-zero3-offload",*WZ,["WizardMath/train","WizardMath/config","WizardMath/README.md"],"WizardMath",
 ["--","deepspeed",wzt,"--model_name_or_path","meta-llama/Llama-2-13b-hf","--data_path","data/math_instruction_data.json",
  "--output_dir","ckpt","--num_train_epochs","3","--model_max_length","2048","--per_device_train_batch_size","16",
  "--per_device_eval_batch_size","1","--gradient_accumulation_steps","1","--evaluation_strategy","no","--save_strategy","steps",
  "--save_steps","50","--save_total_limit","50","--learning_rate","2e-5","--warmup_steps","10","--logging_steps","2",
  "--lr_scheduler_type","cosine","--report_to","tensorboard","--gradient_checkpointing","True","--deepspeed",wzc,"--fp16","True"],{
 "model.ref":T("meta-llama/Llama-2-13b-hf","README.md:188 --model_name_or_path (placeholder /your/path/to/llama-2-13b filled by the user)"),
 "dist.sharding":T("zero3",wzc+":3 stage 3"),
 "dist.offload_optimizer":T("cpu",wzc+":4-6"),
 "dist.offload_params":T("cpu",wzc+":8-10"),
 "dist.stage3_max_live_parameters":T(0,wzc+":18"),
 "batch.micro":T(16,"README.md:193 --per_device_train_batch_size 16"),
 "batch.grad_accum":T(1,"README.md:195"),
 "data.seq_len":T(2048,"README.md:192 --model_max_length 2048 -> "+wzt+":62-65"),
 "precision.mode":T("fp16",wzc+":22-23 fp16 enabled + README.md:207 --fp16 True: DeepSpeed fp16 (16-bit weights, fp32 master)"),
 "memory.gradient_checkpointing":T(True,"README.md:205 --gradient_checkpointing True"),
 "optimizer.name":T("adamw_torch",wzt+":61 optim default adamw_torch; no optimizer block in "+wzc,any_of=["adamw_torch","AdamW","adamw"]),
 "peft.method":T("none","full fine-tuning ("+wzt+":180-183, no PEFT)"),
},held_out=True,note=H9+"; WizardMath/README.md:187-207 run from WizardMath/ (train_wizardmath.py at train/, config at config/; placeholder paths filled). The deepspeed launcher has no --num_gpus: world size is the machine's GPU count, not knowable")
VL=("volcengine/verl","b178a3cd56f58b2d502255daba591e92833930a7")
vls="examples/sft/gsm8k/run_qwen_05_peft.sh"
vly="verl/trainer/config/sft_trainer.yaml"
vlt="verl/trainer/fsdp_sft_trainer.py"
J("verl-sft-qwen2.5-0.5b-lora-fsdp2",*VL,["examples/sft","verl","pyproject.toml","setup.py","requirements.txt"],".",
 [vls,"--","4","/tmp/verl-sft"],{
 "model.ref":T("Qwen/Qwen2.5-0.5B-Instruct",vls+":26 model.partial_pretrain"),
 "dist.world_size":T(4,vls+":10,16 nproc_per_node=$1 = 4 (one node, --standalone --nnodes=1)"),
 "dist.nodes":T(1,vls+":16 --nnodes=1"),
 "dist.sharding":T("fsdp_full",vly+":49 strategy fsdp2 -> "+vlt+":325-337 fully_shard with reshard_after_forward True"),
 "dist.offload_params":T("none",vly+":40-41 cpu_offload/offload_params False"),
 "batch.micro":T(4,vls+":25 data.micro_batch_size_per_gpu=4 -> "+vlt+":484-488"),
 "batch.global":T(256,vly+":6 train_batch_size 256 (not overridden)"),
 "batch.grad_accum":T(16,vlt+":149-155 256 // dp 4 = 64 per rank, split into micro batches of 4 (:484-488): 16"),
 "data.seq_len":T(1024,vly+":24 max_length 1024"),
 "precision.mode":T("amp_bf16",vly+":37 model_dtype fp32 -> "+vlt+":222-243 fp32 weights; :327-329 MixedPrecisionPolicy bf16 params, fp32 reduce; :385 autocast bf16"),
 "memory.gradient_checkpointing":T(True,vly+":43 enable_gradient_checkpointing True -> "+vlt+":287-288"),
 "peft.method":T("lora",vls+":32 model.lora_rank=32 -> "+vlt+":259-285 LoraConfig + get_peft_model"),
 "peft.rank":T(32,vls+":32"),
 "task.mode":T("lora","fp32 base (no quantization) + LoRA"),
 "optimizer.name":T("AdamW","verl/trainer/config/optim/fsdp.yaml optimizer AdamW, optimizer_impl torch.optim -> "+vlt+":346",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",vlt+":244"),
 "data.num_workers":T(8,vlt+":188"),
 "data.pin_memory":T(True,vlt+":189"),
},held_out=True,note=H9+"; bash examples/sft/gsm8k/run_qwen_05_peft.sh 4 /tmp/verl-sft (torchrun -m verl.trainer.fsdp_sft_trainer, Hydra config sft_trainer.yaml)")
LT=("Vchitect/Latte","b27c24a17487e3c33ae4e92364521303d0f14845")
lts="slurm_scripts/ffs.slurm"
ltc="configs/ffs/ffs_train.yaml"
J("latte-xl2-ffs-slurm",*LT,["slurm_scripts","configs","train.py","utils.py","models","diffusion","datasets","README.md","environment.yml"],".",
 [lts],{
 "model.ref":T("Latte-XL/2",ltc+":12 model -> models/__init__.py get_models -> models/latte.py:464-465 Latte_XL_2"),
 "model.num_parameters":T(673994912,"models/latte.py:464-465 depth 28, hidden 1152, patch 2 (extras 1, learn_sigma): 674.0M",rel_tol=0.1),
 "dist.nodes":T(1,lts+":4 #SBATCH --nodes=1"),
 "dist.devices_per_node":T(8,lts+":5-6 --ntasks-per-node=8, gpu:8, one GPU per srun task"),
 "dist.world_size":T(8,lts+":4-5 -> :16 srun python (no torchrun) -> utils.py:223-225 SLURM_NTASKS"),
 "dist.sharding":T("ddp","train.py:125 DDP"),
 "batch.micro":T(5,ltc+":28 local_batch_size -> train.py:145"),
 "batch.grad_accum":T(1,ltc+":35 gradient_accumulation_steps 1 -> train.py:232"),
 "precision.mode":T("fp32","train.py:200-235 no autocast ("+ltc+":40 mixed_precision False is not read by train.py): fp32"),
 "memory.gradient_checkpointing":T(False,ltc+":42 False; no checkpointing in models/latte.py"),
 "optimizer.name":T("AdamW","train.py:128 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "compile.enabled":T(False,ltc+":39 use_compile False -> train.py:117-118"),
 "data.num_workers":T(8,ltc+":31 -> train.py:148"),
 "data.pin_memory":T(True,"train.py:149"),
 "data.image_size":T(256,ltc+":14 image_size 256 (train.py:87-89 latent 32)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H9+"; sbatch slurm_scripts/ffs.slurm from the repository root (README.md:137)")
LD=("CompVis/latent-diffusion","a506df5756472e2ebaf9078affdde2c4f1502cd4")
ldc="configs/latent-diffusion/celebahq-ldm-vq-4.yaml"
J("ldm-celebahq-vq4-lightning",*LD,["main.py","configs","ldm","README.md","environment.yaml","setup.py"],".",
 ["main.py","--","--base",ldc,"-t","--gpus","0,"],{
 "dist.world_size":T(1,"README.md:257 --gpus 0, (one GPU) -> main.py:524-530"),
 "batch.micro":T(48,ldc+":63 data batch_size -> main.py:203"),
 "batch.grad_accum":T(1,"main.py:679-682 accumulate_grad_batches not in "+ldc+":85-86 -> 1"),
 "precision.mode":T("fp32",ldc+":85-86 trainer sets no precision: Lightning default 32"),
 "memory.gradient_checkpointing":T(False,"ldm/modules/diffusionmodules/openaimodel.py:456 use_checkpoint default False, not set in "+ldc+":15-36"),
 "optimizer.name":T("AdamW","ldm/models/diffusion/ddpm.py:1370 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(5,ldc+":64 -> main.py:204"),
 "data.image_size":T(256,ldc+":69 train size 256 (the UNet runs on 64x64x3 latents, :18)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H9+"; README.md:257 (CUDA_VISIBLE_DEVICES prefix dropped) with celebahq-ldm-vq-4; old Lightning (Trainer.from_argparse_args). LDM size not labelled (UNet + frozen VQ first stage)")
PS=("philschmid/deep-learning-pytorch-huggingface","59b37973074de90004d10e5ff636f98160c9743a")
pss="scripts/example.slurm"
psr="receipes/dpo-llama-3-1-8b.yaml"
psz="configs/accelerate_configs/deepspeed_zero3.yaml"
J("philschmid-dpo-llama3.1-8b-slurm-zero3",*PS,["training/scripts","training/configs","training/receipes","training/utils"],"training",
 [pss,"--",psr],{
 "model.ref":T("philschmid/llama-3-1-8b-math-orca-spectrum-10k-ep1",psr+":2 -> scripts/dpo/run_dpo.py:176-177 (and a reference copy :180-183)"),
 "dist.nodes":T(1,pss+":1-7 no --nodes (one node) -> :18 NUM_NODES=$SLURM_NNODES"),
 "dist.world_size":T(8,pss+":3 --gres=gpu:8 -> :19-20 nvidia-smi count 8 x 1 node -> :33 --num_processes"),
 "dist.sharding":T("zero3",psz+":9-10 zero_stage 3 under DEEPSPEED"),
 "dist.offload_optimizer":T("none",psz+":5"),
 "dist.offload_params":T("none",psz+":6"),
 "batch.micro":T(2,psr+":21"),
 "batch.grad_accum":T(8,psr+":22"),
 "data.seq_len":T(1536,psr+":17 max_length (DPOConfig)"),
 "precision.mode":T("bf16",psz+":14 mixed_precision bf16 under DeepSpeed + "+psr+":5,8 torch_dtype bfloat16, bf16 true: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,psr+":23"),
 "optimizer.name":T("adamw_torch","DPOConfig optim default (not set in "+psr+")",any_of=["adamw_torch","adamw_torch_fused","adamw_hf","AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",psr+":6 -> scripts/dpo/run_dpo.py:147"),
 "peft.method":T("none","ModelConfig use_peft default False, not set in "+psr+" -> scripts/dpo/run_dpo.py:170-173 peft_config None"),
},held_out=True,note=H9+"; sbatch scripts/example.slurm receipes/dpo-llama-3-1-8b.yaml from training/ (srun bash -c accelerate launch, TRL DPO)")
H10="tenth held-out set"
MD=("kuleshov-group/mdlm","c112c526d193436838c98d81455ee51f90309470")
mds="scripts/train_owt_mdlm.sh"
mdc="configs/config.yaml"
J("mdlm-owt-small-sbatch-lightning",*MD,["scripts","configs","main.py","diffusion.py","dataloader.py","models","noise_schedule.py","utils.py","README.md","requirements.yaml"],".",
 [mds],{
 "model.num_parameters":T(169627218,mds+":21 model=small -> configs/model/small.yaml:3-9 hidden 768, 12 blocks, cond_dim 128, untied -> models/dit.py:324-350 DIT (vocab 50257 gpt2 + 1 mask token, diffusion.py:78-88): 169.6M",rel_tol=0.1),
 "dist.nodes":T(1,mds+":4 #SBATCH -N 1"),
 "dist.devices_per_node":T(4,mds+":11-12 --ntasks-per-node=4, --gres=gpu:4 -> "+mdc+":67 devices ${device_count:} = 4"),
 "dist.world_size":T(4,mds+":4,11-12 one node x 4 srun tasks (Lightning SLURM environment)"),
 "dist.sharding":T("ddp",mdc+":6 /strategy: ddp -> configs/strategy/ddp.yaml:1 DDPStrategy -> main.py:177-181"),
 "batch.micro":T(16,mds+":19 loader.batch_size=16 -> dataloader.py:573-575"),
 "batch.global":T(512,mdc+":21 loader.global_batch_size 512 (not overridden)"),
 "batch.grad_accum":T(8,mdc+":68 accumulate_grad_batches = div_up(512, devices 4 * batch 16 * nodes 1) = 8 (dataloader.py:528-532 asserts it)"),
 "data.seq_len":T(1024,mds+":25 model.length=1024 -> dataloader.py:552 block_size (train set)"),
 "precision.mode":T("amp_bf16",mdc+":70 trainer.precision 'bf16' (Lightning 2: alias of bf16-mixed; fp32 weights, bf16 autocast)"),
 "memory.gradient_checkpointing":T(False,"models/dit.py: no activation checkpointing anywhere"),
 "optimizer.name":T("AdamW","diffusion.py:454 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.pin_memory":T(True,mdc+":27 -> dataloader.py:577"),
 "compile.enabled":T(False,"no torch.compile in the repository (only TorchScript fusion flags, noise_schedule.py:6-10)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H10+"; sbatch scripts/train_owt_mdlm.sh from the repository root (srun python -u -m main, Hydra + Lightning). data.num_workers not labelled: config.yaml:26 len(os.sched_getaffinity(0)) is runtime")
F5=("SWivid/F5-TTS","2ae2c9bd9b64dab2cb069c4b97e5e7673c521e01")
f5c="src/f5_tts/configs/F5TTS_v1_Base.yaml"
f5t="src/f5_tts/model/trainer.py"
J("f5tts-v1-base-accelerate-hydra",*F5,["src/f5_tts","data/Emilia_ZH_EN_pinyin","pyproject.toml","README.md"],".",
 ["--","accelerate","launch","--mixed_precision=fp16","src/f5_tts/train/train.py","--config-name","F5TTS_v1_Base.yaml",
  "++datasets.batch_size_per_gpu=19200"],{
 "model.num_parameters":T(337096804,f5c+":24-37 DiT dim 1024, depth 22, heads 16 (dim_head 64), ff_mult 2, text_dim 512, 4 ConvNeXt layers -> src/f5_tts/model/backbones/dit.py:170-231 + modules.py (text vocab 2545, data/Emilia_ZH_EN_pinyin/vocab.txt): 337.1M",rel_tol=0.1),
 "batch.grad_accum":T(1,f5c+":16 grad_accumulation_steps 1 -> "+f5t+":66"),
 "precision.mode":T("amp_fp16","src/f5_tts/train/README.md:53 accelerate launch --mixed_precision=fp16 ("+f5t+":63-68 Accelerator without a mixed_precision argument): fp32 weights, fp16 autocast"),
 "memory.gradient_checkpointing":T(False,f5c+":37 checkpoint_activations False -> backbones/dit.py:233,358"),
 "optimizer.name":T("AdamW",f5c+":18 bnb_optimizer False -> "+f5t+":143 torch.optim.AdamW(fused=True)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(16,f5c+":10 -> src/f5_tts/train/train.py:75 -> "+f5t+":306"),
 "data.pin_memory":T(True,f5t+":307"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H10+"; src/f5_tts/train/README.md:53 from the repository root (Hydra --config-name with config_path from importlib.resources, train.py:17). Not labelled: world size and sharding (accelerate default config written by `accelerate config`, README.md:47), batch.micro and seq_len (frame-wise batches: 19200 mel frames per GPU, up to 64 samples, "+f5c+":7-9)")
SW=("microsoft/Swin-Transformer","f82860bfb5225915aca09c3227159ee9e1df874d")
swc="configs/swin/swin_base_patch4_window7_224.yaml"
J("swin-b-imagenet-8gpu-ddp",*SW,["main.py","config.py","configs/swin","models","data","optimizer.py","lr_scheduler.py","utils.py","logger.py","get_started.md","README.md"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node","8","--master_port","12345","main.py","--cfg",swc,
  "--data-path","/data/imagenet","--batch-size","64","--accumulation-steps","2","--use-checkpoint"],{
 "model.ref":T("swin_base_patch4_window7_224",swc+":3 MODEL.NAME (TYPE swin) -> models/build.py"),
 "model.num_parameters":T(87768224,swc+":6-9 embed 128, depths 2-2-18-2, heads 4-8-16-32, window 7, 1000 classes: 88M (README.md:116)",rel_tol=0.1),
 "dist.world_size":T(8,"get_started.md:192 --nproc_per_node 8 (one node)"),
 "dist.sharding":T("ddp","main.py:107 DistributedDataParallel"),
 "batch.micro":T(64,"get_started.md:193 --batch-size 64 -> config.py:296-297 -> data/build.py:68-71 per-process DataLoader with DistributedSampler"),
 "batch.grad_accum":T(2,"get_started.md:194 --accumulation-steps 2 -> config.py:308-309 -> main.py:199-203"),
 "precision.mode":T("amp_fp16","config.py:244 AMP_ENABLE True (no --disable_amp) -> main.py:193 torch.cuda.amp.autocast (fp16) + GradScaler (utils.py NativeScalerWithGradNormCount)"),
 "memory.gradient_checkpointing":T(True,"get_started.md:194 --use-checkpoint -> config.py:310-311 TRAIN.USE_CHECKPOINT"),
 "optimizer.name":T("AdamW","config.py:185 adamw -> optimizer.py:46-47 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"config.py:43 -> data/build.py:72"),
 "data.pin_memory":T(True,"config.py:41 -> data/build.py:73"),
 "data.image_size":T(224,"config.py:32 IMG_SIZE 224 (not set in "+swc+")"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H10+"; get_started.md:192-194 Swin-B on ImageNet-1K, 8 GPUs, with the optional --use-checkpoint chosen (data path filled)")
DW=("huggingface/distil-whisper","cc96130f6e4cc74cab4545f3c6e7e5c204ced871")
dwt="run_distillation.py"
J("distil-whisper-large-v3-distill-accelerate",*DW,["training"],"training",
 ["--","accelerate","launch",dwt,"--model_name_or_path","./distil-large-v3-init","--teacher_model_name_or_path","openai/whisper-large-v3",
  "--train_dataset_name","../common_voice_16_1_hi_pseudo_labelled+../common_voice_16_1_hi_pseudo_labelled","--train_split_name","train+validation",
  "--text_column_name","sentence+sentence","--train_dataset_samples","7+4","--eval_dataset_name","../common_voice_16_1_hi_pseudo_labelled",
  "--eval_split_name","test","--eval_text_column_name","sentence","--eval_steps","1000","--save_steps","1000","--warmup_steps","50",
  "--learning_rate","0.0001","--lr_scheduler_type","constant_with_warmup","--timestamp_probability","0.2","--condition_on_prev_probability","0.2",
  "--language","hi","--task","transcribe","--logging_steps","25","--save_total_limit","1","--max_steps","5000","--wer_threshold","20",
  "--per_device_train_batch_size","32","--per_device_eval_batch_size","32","--dataloader_num_workers","8","--preprocessing_num_workers","8",
  "--ddp_timeout","7200","--dtype","bfloat16","--attn_implementation","sdpa","--output_dir","./","--do_train","--do_eval",
  "--gradient_checkpointing","--overwrite_output_dir","--predict_with_generate","--freeze_encoder","--freeze_embed_positions",
  "--streaming","False","--push_to_hub"],{
 "model.ref":T("./distil-large-v3-init","README.md:250 --model_name_or_path (student made by create_student_model.py, README.md step 2)",any_of=["./distil-large-v3-init","distil-large-v3-init"]),
 "batch.micro":T(32,"README.md:272 -> "+dwt+":1345,1589-1592 per-process DataLoader"),
 "batch.grad_accum":T(1,"Seq2SeqTrainingArguments gradient_accumulation_steps default 1 (not given) -> "+dwt+":808-809"),
 "precision.mode":T("amp_bf16","README.md:277 --dtype bfloat16 -> "+dwt+":801-810 Accelerator(mixed_precision='bf16'): fp32 student weights, bf16 autocast (teacher frozen in bf16, :991)"),
 "memory.gradient_checkpointing":T(True,"README.md:282 -> "+dwt+":1014-1015; :1023-1025 --freeze_encoder turns it off for the encoder only; :1034-1039 (--freeze_embed_positions) only logs, the decoder keeps it"),
 "optimizer.name":T("AdamW",dwt+":1402 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"README.md:274 -> "+dwt+":1109,1593"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True -> "+dwt+":1595"),
 "model.attn_implementation":T("sdpa","README.md:278 -> "+dwt+":1003"),
 "peft.method":T("none","full training of the student decoder (encoder frozen, :1023-1024); no PEFT"),
},held_out=True,note=H10+"; training/README.md:249-288 run from training/ (speech distillation, Accelerate loop). Not labelled: world size (accelerate default config), model size (student config made locally by create_student_model.py), sequence lengths (audio)")
MC=("ise-uiuc/magicoder","3ef43f0feaa2a48c3bb86d0b1f0d4482912d2e18")
mcw="src/magicoder/llm_wrapper.py"
J("magicoder-ds-6.7b-accelerate-trainer",*MC,["src","pyproject.toml","README-DEV.md","README.md"],".",
 ["--","accelerate","launch","-m","magicoder.train","--model_key","deepseek-ai/deepseek-coder-6.7b-base","--use_flash_attention","True",
  "--max_training_seq_length","1216","--datafile_paths","data-oss_instruct-decontaminated.jsonl","--output_dir","magicoder-out","--bf16","True",
  "--num_train_epochs","2","--per_device_train_batch_size","2","--gradient_accumulation_steps","128","--group_by_length","False",
  "--ddp_find_unused_parameters","False","--logging_steps","1","--log_level","info","--optim","adafactor","--max_grad_norm","-1",
  "--warmup_steps","15","--learning_rate","5e-5","--lr_scheduler_type","linear"],{
 "model.ref":T("deepseek-ai/deepseek-coder-6.7b-base","README-DEV.md:65 --model_key $MODEL_KEY (filled with "+mcw+":347, the base of Magicoder-DS-6.7B, README.md:49) -> src/magicoder/train.py:141-143,177-183"),
 "batch.micro":T(2,"README-DEV.md:73"),
 "batch.grad_accum":T(128,"README-DEV.md:74"),
 "data.seq_len":T(1216,"README-DEV.md:67 --max_training_seq_length 1216 -> src/magicoder/train.py:63-65 truncation"),
 "precision.mode":T("bf16",mcw+":411,417-420 from_pretrained(torch_dtype=torch.bfloat16) trained as loaded (README-DEV.md:71 --bf16 True adds autocast): bf16 weights"),
 "memory.gradient_checkpointing":T(False,"TrainingArguments default, --gradient_checkpointing not given"),
 "optimizer.name":T("adafactor","README-DEV.md:79 --optim adafactor"),
 "model.attn_implementation":T("flash_attention_2","README-DEV.md:66 --use_flash_attention True -> src/magicoder/train.py:182 -> "+mcw+":415-416 use_flash_attention_2"),
 "peft.method":T("none","full fine-tuning (src/magicoder/train.py:189-197 Trainer on the whole model)"),
},held_out=True,note=H10+"; README-DEV.md:64-83 (accelerate launch -m magicoder.train, HF Trainer + HfArgumentParser dataclasses), $MODEL_KEY and paths filled. World size and sharding not labelled: accelerate default config (CUDA_VISIBLE_DEVICES chosen by the user, README-DEV.md:61)")
FA=("FlagAlpha/Llama2-Chinese","e789431453ecbee9d8c5d466351765bc3718ed60")
fas="finetune_lora.sh"
fap="finetune_clm_lora.py"
fad="ds_config_zero2.json"
J("llama2-chinese-7b-qlora-deepspeed-zero2",*FA,["train/sft"],"train/sft",
 [fas],{
 "model.ref":T("meta-llama/Llama-2-7b-chat-hf",fas+":8"),
 "dist.world_size":T(2,fas+":7 deepspeed --include localhost:1,0 --num_gpus 2"),
 "dist.sharding":T("zero2",fas+":43 --deepspeed "+fad+" -> "+fad+":32 stage 2"),
 "dist.offload_optimizer":T("cpu",fad+":33-36"),
 "dist.offload_params":T("none",fad+":37-40 offload_param is a ZeRO-3 setting; stage 2 ignores it"),
 "dist.allgather_bucket_size":T(500000000,fad+":42 5e8"),
 "dist.reduce_bucket_size":T(500000000,fad+":45 5e8"),
 "batch.micro":T(1,fas+":13"),
 "batch.grad_accum":T(8,fas+":22"),
 "data.seq_len":T(2048,fas+":40 --block_size 2048 -> "+fap+":502,507 truncation max_length=block_size"),
 "precision.mode":T("bf16",fas+":45 --bf16 with DeepSpeed ("+fad+" has only fp16 auto: off) and 4-bit weights computing in bf16 ("+fap+":440)",any_of=["bf16","amp_bf16"]),
 "precision.weights_bits":T(4,fas+":25 --load_in_bits 4 -> "+fap+":436-437,459"),
 "precision.quant_type":T("nf4",fap+":439"),
 "precision.double_quant":T(True,fap+":438"),
 "memory.gradient_checkpointing":T(True,fas+":46 --gradient_checkpointing (and "+fap+":477-478 prepare_model_for_kbit_training)"),
 "optimizer.name":T("AdamW",fad+":10-11 DeepSpeed optimizer AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("lora",fap+":423-434 LoraConfig -> :605 get_peft_model"),
 "peft.rank":T(8,fas+":26 --lora_r 8 -> "+fap+":424"),
 "task.mode":T("qlora","4-bit nf4 base + LoRA"),
},held_out=True,note=H10+"; bash finetune_lora.sh from train/sft (deepspeed launcher, HF Trainer + bitsandbytes 4-bit + PEFT LoRA, ZeRO-2 with CPU optimizer offload)")
VT=("jaywalnut310/vits","2e561ba58618d021b5b8323d3765880f7e0ecfdb")
vtc="configs/ljs_base.json"
J("vits-ljspeech-plain-python",*VT,["train.py","utils.py","models.py","modules.py","attentions.py","commons.py","data_utils.py","losses.py","mel_processing.py","transforms.py","text","configs","monotonic_align","README.md","requirements.txt"],".",
 ["--","python","train.py","-c",vtc,"-m","ljs_base"],{
 "dist.sharding":T("ddp","train.py:99-100 DDP on the generator and the discriminator (mp.spawn, one process per GPU, :45-50)"),
 "batch.micro":T(64,vtc+":10 batch_size -> train.py:67-76 DistributedBucketSampler batches of 64 per replica (data_utils.py:305-308)"),
 "batch.grad_accum":T(1,"train.py:137-194 backward and scaler.step every batch (:172-176, :189-193)"),
 "precision.mode":T("amp_fp16",vtc+":11 fp16_run true -> train.py:142 autocast + :113 GradScaler"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models.py"),
 "optimizer.name":T("AdamW","train.py:89-98 torch.optim.AdamW (generator and discriminator)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"train.py:75"),
 "data.pin_memory":T(True,"train.py:75"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H10+"; README.md:50 python train.py -c configs/ljs_base.json -m ljs_base (speech; world size = torch.cuda.device_count() at run time, train.py:45, not knowable; model size not labelled)")
EM=("baaivision/Emu3","f6ea9aaa44bd4ae5d7a048300cf0a16a863b0cae")
ems="scripts/t2i_sft.sh"
emz="scripts/zero3.json"
emt="emu3/train/train.py"
J("emu3-gen-t2i-sft-torchrun-zero3",*EM,["scripts","emu3","requirements.txt","README.md"],".",
 [ems],{
 "model.ref":T("BAAI/Emu3-Gen",ems+":20"),
 "dist.nodes":T(1,ems+":3 WORLD_SIZE default 1 -> :15 --nnodes"),
 "dist.sharding":T("zero3",ems+":21 --deepspeed "+emz+" -> "+emz+":17 stage 3"),
 "dist.offload_optimizer":T("none",emz+":16-27 no offload_optimizer"),
 "dist.offload_params":T("none",emz+":16-27 no offload_param"),
 "dist.stage3_max_live_parameters":T(1000000000,emz+":24 1e9"),
 "batch.micro":T(2,ems+":32"),
 "batch.grad_accum":T(4,ems+":33"),
 "data.seq_len":T(10240,ems+":27 --max_position_embeddings 10240 -> "+emt+":58,73 tokenizer model_max_length -> emu3/train/datasets.py:44-46 padding to max_length"),
 "precision.mode":T("bf16",ems+":29 --bf16 True -> "+emz+":10-11 bf16 auto (on) and "+emt+":68 torch_dtype bfloat16: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,ems+":48"),
 "optimizer.name":T("adamw_torch","TrainingArguments optim default; no optimizer block in "+emz,any_of=["adamw_torch","adamw_torch_fused","adamw_hf","AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",emt+":37 attn_type default fa2 -> :67"),
 "data.num_workers":T(4,ems+":49"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H10+"; bash scripts/t2i_sft.sh from the repository root (torchrun + HF Trainer + DeepSpeed ZeRO-3). World size not labelled: NGPUS=$(python -c 'torch.cuda.device_count()') at :7 is runtime; model size needs the hub config (BAAI/Emu3-Gen)")
H11="eleventh held-out set"
DT=("facebookresearch/detr","29901c51d7fe8712168b8d0d64351170bc0f83e0")
J("detr-r50-coco-8gpu-ddp",*DT,["main.py","engine.py","models","datasets","util","hubconf.py","requirements.txt","README.md"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=8","--use_env","main.py","--coco_path","/data/coco"],{
 "model.num_parameters":T(41524000,"main.py:35 backbone resnet50 (FrozenBatchNorm2d: BN weights are buffers, models/backbone.py:91) 23.45M + main.py:43-55 transformer 6+6 layers, d 256, ffn 2048, 100 queries, models/detr.py:313 91 classes (+1), input_proj 2048->256, box MLP: 41.5M (README.md:55 the R50 checkpoint is 159 MB = ~41.7M fp32 values)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:196 --nproc_per_node=8 (one node)"),
 "dist.nodes":T(1,"README.md:194-196 single node"),
 "dist.sharding":T("ddp","main.py:124-126 DistributedDataParallel (util/misc.py:408-411 env:// from the launcher, --use_env)"),
 "batch.micro":T(2,"main.py:24 --batch_size default 2 (not given) -> main.py:145-156 BatchSampler over a per-process DistributedSampler"),
 "batch.grad_accum":T(1,"engine.py:52-56 zero_grad, backward, step every batch"),
 "precision.mode":T("fp32","no autocast, GradScaler or .half() anywhere in main.py/engine.py/models: fp32 weights and activations"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models/ (run_with_submitit.py:52 `checkpoint` is a submitit requeue hook)"),
 "optimizer.name":T("AdamW","main.py:137-138 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(2,"main.py:96 --num_workers default 2 -> main.py:155-156"),
 "data.pin_memory":T(False,"main.py:155-156 DataLoader without pin_memory (default False)"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","full training (ImageNet-pretrained backbone, lr_backbone 1e-5, main.py:23)"),
},held_out=True,note=H11+"; README.md:196 python -m torch.distributed.launch --use_env main.py (raw PyTorch DDP, detection), COCO path filled. data.image_size not labelled: random multi-scale resize, shorter side 480-800 up to 1333 (datasets/coco.py)")
FQ=("AnswerDotAI/fsdp_qlora","05ed9f2a60f96a0795cb082bceab70a9b19fd213")
J("fsdp-qlora-llama2-70b-plain-python",*FQ,["train.py","scripts","README.md"],".",
 ["--","python","train.py","--model_name","meta-llama/Llama-2-70b-hf","--batch_size","2","--context_length","512","--precision","bf16",
  "--train_type","qlora","--use_gradient_checkpointing","true","--use_cpu_offload","true","--dataset","alpaca","--reentrant_checkpointing","true"],{
 "model.ref":T("meta-llama/Llama-2-70b-hf","README.md:32 --model_name -> train.py:1204 fastcore call_parse kwarg"),
 "batch.micro":T(2,"README.md:33 --batch_size -> train.py:410 DataLoader over a DistributedSampler (per GPU, train.py:1190)"),
 "batch.grad_accum":T(1,"train.py:1192 gradient_accumulation_steps default 1 (not given)"),
 "data.seq_len":T(512,"README.md:34 --context_length 512 -> train.py:397 truncation in the collate function"),
 "dist.nodes":T(1,"train.py:1146-1147,1179 mp.spawn on one machine"),
 "dist.sharding":T("fsdp_full","train.py:1196 sharding_strategy default full_shard -> train.py:740-741,753-766 FSDP FULL_SHARD"),
 "dist.offload_params":T("cpu","README.md:38 --use_cpu_offload true -> train.py:759 CPUOffload(offload_params=True)"),
 "precision.mode":T("bf16","README.md:35 --precision bf16 -> train.py:538-539 torch_dtype bfloat16, no MixedPrecision policy, train.py:826 no autocast: pure bf16"),
 "precision.weights_bits":T(4,"README.md:36 --train_type qlora -> train.py:615-616 bnb Linear4bit"),
 "precision.quant_type":T("nf4","train.py:616 quant_type='nf4'"),
 "precision.double_quant":T(True,"train.py:615-616 Linear4bit without compress_statistics: bitsandbytes default True"),
 "memory.gradient_checkpointing":T(True,"README.md:37 -> train.py:778-792 apply_activation_checkpointing on decoder layers"),
 "optimizer.name":T("AdamW","train.py:1217 optimizer default adamw -> train.py:459-461 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("sdpa","train.py:566 attn_impl = 'sdpa'"),
 "data.num_workers":T(0,"train.py:410 DataLoader without num_workers (default 0)"),
 "data.pin_memory":T(False,"train.py:410 DataLoader without pin_memory (default False)"),
 "peft.method":T("lora","train.py:669-684 peft LoraConfig + get_peft_model for train_type qlora"),
 "peft.rank":T(64,"train.py:1207 lora_rank default 64 (not given) -> train.py:674"),
 "task.mode":T("qlora","4-bit nf4 base (train.py:615-616) + LoRA (train.py:672-684)"),
},held_out=True,note=H11+"; README.md:31-41 python train.py from the repository root (fastcore call_parse, mp.spawn + FSDP + bitsandbytes QLoRA). World size not labelled: world_size -1 = torch.cuda.device_count() at run time (train.py:1146-1147); model size needs the hub config")
NC=("karpathy/nanochat","92d63d4e8bb4df75c3b71618f31ddde2378b2bcd")
ncs="runs/speedrun.sh"
nct="scripts/base_train.py"
J("nanochat-d24-speedrun-torchrun-m",*NC,["runs","scripts","nanochat","pyproject.toml","README.md"],".",
 [ncs],{
 "model.num_parameters":T(1384122000,ncs+":67 --depth=24 -> "+nct+":129-140 model_dim 24*64 = 1536, 12 heads of 128 -> nanochat/gpt.py:77-80,134-135 (12*1536^2 per layer), :174,177 wte + lm_head, :192 value embeddings on alternating layers (nanochat/gpt.py:53-55: 12 of 24) with the vocab 32768 of scripts/tok_train.py:19 ("+ncs+":57): 1.384B",rel_tol=0.1),
 "dist.world_size":T(8,ncs+":67 torchrun --standalone --nproc_per_node=8"),
 "dist.nodes":T(1,ncs+":67 --standalone"),
 "dist.devices_per_node":T(8,ncs+":67"),
 "batch.micro":T(16,ncs+":67 --device-batch-size=16 -> "+nct+":331 per-rank loader of 16 x 2048 tokens"),
 "data.seq_len":T(2048,nct+":53 --max-seq-len default 2048 (not given) -> "+nct+":331"),
 "batch.grad_accum":T(4,nct+":279-283 total batch auto: target tokens 8 x 729.8M scaling params (d24) vs 8 x 110.1M (d12 reference, "+nct+":272-274) -> 2^19 x 6.63^0.383 = 1.08M -> 2^20 tokens; "+nct+":407-410 2^20 / (16 x 2048 x 8) = 4"),
 "batch.global":T(512,nct+":283 2^20 tokens per step / 2048 = 512 sequences"),
 "compile.enabled":T(True,nct+":246 torch.compile(model, dynamic=False)"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in nanochat/gpt.py"),
 "optimizer.name":T("MuonAdamW",nct+":308 model.setup_optimizer -> nanochat/gpt.py:454 MuonAdamW (Muon for matrices, AdamW for embeddings/scalars, nanochat/optim.py:184)",any_of=["MuonAdamW","muon","Muon"]),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H11+"; bash runs/speedrun.sh from the repository root; the job labelled is the pretraining line "+ncs+":67 (torchrun -m scripts.base_train -- ...; raw PyTorch, no DDP wrapper: the optimizer reduces and shards itself). Not labelled: precision (--fp8 Float8Linear on top of a compute dtype auto-detected from the GPU, nanochat/common.py:17-32), sharding (no DDP/FSDP wrapper; the MuonAdamW optimizer reduce-scatters gradients and shards optimizer work, nanochat/optim.py:274-303: no plan value fits)")
ST=("yl4579/StyleTTS2","5cedc71c333f8d8b8551ca59378bdcc7af4c9529")
stt="train_finetune_accelerate.py"
J("styletts2-finetune-accelerate-1gpu",*ST,[stt,"meldataset.py","models.py","optimizers.py","losses.py","utils.py","text_utils.py","Configs","Modules","Utils","README.md","requirements.txt"],".",
 ["--","accelerate","launch","--mixed_precision=fp16","--num_processes=1",stt,"--config_path","./Configs/config_ft.yml"],{
 "dist.world_size":T(1,"README.md:86 --num_processes=1"),
 "dist.sharding":T("none","one process ("+stt+":246 accelerator.prepare on one GPU)"),
 "batch.micro":T(8,"Configs/config_ft.yml:6 batch_size 8 -> "+stt+":71,97-104 -> meldataset.py:246-247"),
 "batch.grad_accum":T(1,stt+":416-418,464-474 accelerator.backward and optimizer.step every batch"),
 "precision.mode":T("fp32",stt+":246-248 accelerator.prepare(model, optimizer, dataloader) gets a Munch dict of nets (models.py:672) and a MultiOptimizer, which Accelerate returns unprepared: no autocast wraps a forward, so README.md:86 --mixed_precision=fp16 only scales the loss in accelerator.backward; weights fp32 ("+stt+":133), activations fp32"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models.py or Modules/"),
 "optimizer.name":T("AdamW","optimizers.py:65-66 torch.optim.AdamW per sub-network",any_of=["AdamW","adamw"]),
 "data.num_workers":T(2,stt+":102"),
 "data.pin_memory":T(True,"meldataset.py:252 pin_memory=(device != 'cpu'), device = accelerator.device (cuda)"),
 "peft.method":T("none","full fine-tuning of all sub-networks from the LibriTTS checkpoint (Configs/config_ft.yml:8)"),
},held_out=True,note=H11+"; README.md:86 accelerate launch --mixed_precision=fp16 --num_processes=1 train_finetune_accelerate.py (speech, Accelerate). Not labelled: model size (several networks + PL-BERT from Utils/), sequence lengths (audio frames)")
FS=("fishaudio/fish-speech","3dd1f85c402ee6f0a17c2971d3b0dd8d881ca139")
fsc="fish_speech/configs/text2semantic_finetune.yaml"
fsb="fish_speech/configs/base.yaml"
J("fish-speech-lora-hydra-lightning",*FS,["fish_speech","tools","docs/en","pyproject.toml","README.md"],".",
 ["--","python","fish_speech/train.py","--config-name","text2semantic_finetune","project=myproject","+lora@model.model.lora_config=r_8_alpha_16"],{
 "model.ref":T("checkpoints/openaudio-s1-mini",fsc+":7,62 pretrained_ckpt_path (docs/en/finetune.md:95 downloaded from fishaudio/openaudio-s1-mini)",any_of=["checkpoints/openaudio-s1-mini","fishaudio/openaudio-s1-mini"]),
 "dist.nodes":T(1,fsb+":16 num_nodes 1"),
 "dist.sharding":T("ddp",fsb+":18-20 DDPStrategy"),
 "batch.micro":T(4,fsc+":53 data.batch_size 4 -> fish_speech/datasets/semantic.py:596-600 per-process DataLoader"),
 "batch.grad_accum":T(1,fsc+":11 accumulate_grad_batches 1"),
 "data.seq_len":T(4096,fsc+":6,55 max_length 4096 -> fish_speech/datasets/semantic.py:529 collator caps each batch at max_length"),
 "precision.mode":T("bf16",fsc+":15 trainer.precision bf16-true (overrides "+fsb+":22 bf16-mixed): bf16 weights, no fp32 master"),
 "optimizer.name":T("AdamW",fsc+":67-73 torch.optim.AdamW (Hydra _partial_)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,fsc+":52"),
 "peft.method":T("lora","docs/en/finetune.md:103 +lora@model.model.lora_config=r_8_alpha_16 -> fish_speech/models/text2semantic/llama.py:590-591 setup_lora (own LoRA, fish_speech/models/text2semantic/lora.py:32)"),
 "peft.rank":T(8,"fish_speech/configs/lora/r_8_alpha_16.yaml:2"),
 "task.mode":T("lora","LoRA on a bf16 base"),
},held_out=True,note=H11+"; docs/en/finetune.md:101-104 python fish_speech/train.py --config-name text2semantic_finetune with Hydra overrides ($project filled), Lightning + Hydra (speech LM). Not labelled: world size (trainer.devices auto), gradient checkpointing (use_gradient_checkpointing read from the downloaded checkpoint's config, fish_speech/models/text2semantic/llama.py:122, default True), model size (downloaded config)")
BC=("baichuan-inc/Baichuan-7B","6f3ef4633a90c2d8a3e0763d0dec1b8dc11588f5")
bcd="config/deepspeed.json"
J("baichuan-7b-pretrain-deepspeed-launcher",*BC,["scripts","config","train.py","models","README.md","requirements.txt"],".",
 ["scripts/train.sh"],{
 "model.num_parameters":T(7000559616,"train.py:114 BaiChuanConfig() defaults models/configuration_baichuan.py:47-51,60 (vocab 64000, hidden 4096, ffn 11008, 32 layers, untied) -> models/modeling_baichuan.py:164-166,189-190,558: 7.0B",rel_tol=0.1),
 "dist.devices_per_node":T(8,"scripts/train.sh:2 --hostfile config/hostfile -> config/hostfile:1-2 slots=8"),
 "dist.sharding":T("zero2",bcd+":23-24 stage 2 (train.py:110-114 also builds the model inside deepspeed.zero.Init)"),
 "dist.offload_optimizer":T("none",bcd+":23-30 no offload_optimizer"),
 "dist.offload_params":T("none",bcd+":23-30 no offload_param"),
 "dist.allgather_bucket_size":T(100000000,bcd+":26 1e8"),
 "dist.reduce_bucket_size":T(100000000,bcd+":27 1e8"),
 "dist.overlap_comm":T(True,bcd+":28"),
 "dist.contiguous_gradients":T(False,bcd+":25"),
 "batch.micro":T(1,bcd+":3 -> train.py:102,92 reshape(micro_batch_size, max_length + 1)"),
 "batch.grad_accum":T(1,bcd+":2"),
 "data.seq_len":T(4096,"train.py:38 --max_length default 4096 -> train.py:92 rows of 4097 tokens fed whole (labels=data, :129)",any_of=[4096,4097]),
 "precision.mode":T("bf16",bcd+":34-36 DeepSpeed bf16 (16-bit weights, fp32 master copies in the optimizer)"),
 "memory.gradient_checkpointing":T(False,"models/modeling_baichuan.py:391 gradient_checkpointing False, never enabled in train.py"),
 "optimizer.name":T("AdamW",bcd+":6-7 DeepSpeed optimizer AdamW",any_of=["AdamW","adamw"]),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","pretraining from scratch (train.py:114 random init)"),
},held_out=True,note=H11+"; bash scripts/train.sh from the repository root (deepspeed --hostfile launcher, raw deepspeed.initialize loop, pretraining). World size and nodes not labelled: config/hostfile:1-3 is a template ([master address] slots=8, [worker address] slots=8, ...)")
LF=("rasbt/LLMs-from-scratch","28c65cdfbc3338e2e040016eea4b7fdf556e4d57")
lfd="ch05/10_llm-training-speed"
lfs="02_opt_multi_gpu_ddp.py"
J("llms-from-scratch-gpt124m-torchrun-ddp",*LF,[lfd],lfd,
 ["--","torchrun","--nproc_per_node=4",lfs],{
 "model.num_parameters":T(163081728,lfs+":560-568 GPT_CONFIG_124M (vocab 50304, ctx 1024, emb 768, 12 heads, 12 layers, no qkv bias) -> "+lfs+":117-118,158-160,177-178,202-210 untied out_head: 163.1M",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:16 torchrun --nproc_per_node=4"),
 "dist.nodes":T(1,"README.md:16 single-node torchrun"),
 "dist.sharding":T("ddp",lfs+":491 DDP(model, device_ids=[rank])"),
 "batch.micro":T(32,lfs+":573 batch_size 32 -> "+lfs+":507,93,99 per-process DataLoader with DistributedSampler"),
 "batch.grad_accum":T(1,lfs+":344-350 zero_grad, backward, step every batch"),
 "data.seq_len":T(1024,lfs+":562 context_length 1024 -> "+lfs+":508 max_length"),
 "precision.mode":T("bf16",lfs+":489 model.to(torch.bfloat16), no autocast: pure bf16 weights"),
 "compile.enabled":T(True,lfs+":487 torch.compile(model)"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in "+lfs),
 "optimizer.name":T("AdamW",lfs+":492-495 torch.optim.AdamW(fused=True)",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("sdpa",lfs+":138 scaled_dot_product_attention"),
 "data.num_workers":T(4,lfs+":511"),
 "data.pin_memory":T(True,lfs+":97"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H11+"; "+lfd+"/README.md:16 torchrun --nproc_per_node=4 02_opt_multi_gpu_ddp.py from "+lfd+" (raw PyTorch DDP, single-file GPT pretraining)")
G4=("nomic-ai/gpt4all","cd70db29edaf0f02a567f5eea94f5e52240be3e9")
g4y="configs/train/finetune_gptj.yaml"
g4d="configs/deepspeed/ds_config_gptj.json"
J("gpt4all-j-accelerate-deepspeed-zero2",*G4,["gpt4all-training"],"gpt4all-training",
 ["--","accelerate","launch","--dynamo_backend=inductor","--num_processes=8","--num_machines=1","--machine_rank=0",
  "--deepspeed_multinode_launcher","standard","--mixed_precision=bf16","--use_deepspeed","--deepspeed_config_file="+g4d,
  "train.py","--config",g4y],{
 "model.ref":T("EleutherAI/gpt-j-6B",g4y+":2 model_name -> train.py:58 (the YAML is read by read.py:4-8, train.py:229)"),
 "dist.world_size":T(8,"README.md:44 --num_processes=8 --num_machines=1"),
 "dist.nodes":T(1,"README.md:44 --num_machines=1"),
 "dist.devices_per_node":T(8,"README.md:44 --num_processes=8 on one machine"),
 "dist.sharding":T("zero2",g4d+":16-17 stage 2 (README.md:44 --use_deepspeed --deepspeed_config_file)"),
 "dist.offload_optimizer":T("none",g4d+":21-23 device none"),
 "dist.offload_params":T("none",g4d+":18-20 device none (and stage 2)"),
 "dist.allgather_bucket_size":T(500000000,g4d+":25 5e8"),
 "dist.contiguous_gradients":T(True,g4d+":26"),
 "batch.micro":T(32,g4y+":12 batch_size 32 -> data.py:110-114 DataLoader (per process; "+g4d+":4 train_micro_batch_size_per_gpu auto is filled from it by Accelerate's DeepSpeed preparation)"),
 "batch.grad_accum":T(1,g4d+":3 auto and no --gradient_accumulation_steps on README.md:44 (accelerate launch: defaults to 1)"),
 "data.seq_len":T(1024,g4y+":11 max_length 1024 -> data.py:37 truncation, data.py:52 padding='max_length'"),
 "precision.mode":T("bf16","README.md:44 --mixed_precision=bf16 fills "+g4d+":12-14 bf16 auto (fp16 auto stays off): DeepSpeed bf16, 16-bit weights with fp32 master copies"),
 "memory.gradient_checkpointing":T(True,g4y+":4 -> train.py:56,61-62 gradient_checkpointing_enable()"),
 "optimizer.name":T("AdamW",g4d+":28-29 DeepSpeed optimizer AdamW (train.py:72-77 DummyOptim because the config has one)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,"data.py:110-115 DataLoader without num_workers (default 0)"),
 "data.pin_memory":T(False,"data.py:110-115 DataLoader without pin_memory (default False)"),
 "peft.method":T("none",g4y+":24 lora false -> train.py:64"),
},held_out=True,note=H11+"; gpt4all-training/README.md:44 accelerate launch --use_deepspeed --deepspeed_config_file ... train.py --config (raw Accelerate loop, DeepSpeed ZeRO-2, own YAML read with yaml.safe_load). Not labelled: compile (--dynamo_backend=inductor: whether Accelerate compiles a model it hands to DeepSpeed depends on the accelerate/deepspeed versions), model size (hub config of EleutherAI/gpt-j-6B)")
H12="twelfth held-out set"
CN=("lllyasviel/ControlNet","ed85cd1e25a5ed592f7d8178495b4483de0331bf")
cnt="tutorial_train.py"
J("controlnet-sd15-lightning-1gpu",*CN,["."],".",[cnt],{
 "model.ref":T("./models/control_sd15_ini.ckpt",cnt+":11,21 resume_path loaded into the model built from ./models/cldm_v15.yaml (:20; the checkpoint is made by tool_add_control.py from SD 1.5, docs/train.md:132)",any_of=["./models/control_sd15_ini.ckpt","models/control_sd15_ini.ckpt"]),
 "dist.world_size":T(1,cnt+":31 pl.Trainer(gpus=1)"),
 "dist.devices_per_node":T(1,cnt+":31 gpus=1"),
 "dist.sharding":T("none",cnt+":31 one GPU, no strategy"),
 "batch.micro":T(4,cnt+":12 batch_size = 4 -> :29 DataLoader(batch_size=batch_size)"),
 "batch.grad_accum":T(1,cnt+":31 no accumulate_grad_batches (Lightning default 1)"),
 "precision.mode":T("fp32",cnt+":31 precision=32"),
 "memory.gradient_checkpointing":T(True,"models/cldm_v15.yaml:35,52 use_checkpoint: True (ControlNet and the locked UNet) -> ldm/modules/diffusionmodules/openaimodel.py:249 ResBlock and ldm/modules/attention.py:269 BasicTransformerBlock -> ldm/modules/diffusionmodules/util.py:112-114 CheckpointFunction"),
 "optimizer.name":T("AdamW","cldm/cldm.py:422 torch.optim.AdamW in configure_optimizers",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,cnt+":29 num_workers=0"),
 "data.pin_memory":T(False,cnt+":29 DataLoader without pin_memory (default False)"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","cldm/cldm.py:416-422 full training of the ControlNet copy (control_model); sd_locked True ("+cnt+":15) freezes the SD UNet, no adapter"),
},held_out=True,note=H12+"; python tutorial_train.py from the repository root (docs/train.md:148-184; PyTorch Lightning with everything literal in the script, model from an OmegaConf YAML with _target_-style 'target' keys). Not labelled: model size (SD 1.5 UNet + ControlNet copy + VAE + CLIP text encoder from the YAML; not computed by hand), image size (the fill50k images, data not in the repository)")
KS=("kohya-ss/sd-scripts","48d368fa557731ad0488c07304dfeba8c07910eb")
ksd="docs/train_network.md"
J("sd-scripts-lora-sd15-accelerate",*KS,["."],".",
 ["--","accelerate","launch","--num_cpu_threads_per_process","1","train_network.py",
  "--pretrained_model_name_or_path=stable-diffusion-v1-5/stable-diffusion-v1-5","--dataset_config=my_dataset_config.toml",
  "--output_dir=output","--output_name=my_lora","--save_model_as=safetensors","--network_module=networks.lora",
  "--network_dim=16","--network_alpha=1","--learning_rate=1e-4","--optimizer_type=AdamW8bit","--lr_scheduler=constant",
  "--sdpa","--max_train_epochs=10","--save_every_n_epochs=1","--mixed_precision=fp16","--gradient_checkpointing"],{
 "model.ref":T("stable-diffusion-v1-5/stable-diffusion-v1-5",ksd+":74 --pretrained_model_name_or_path (placeholder filled by the user)"),
 "peft.method":T("lora",ksd+":79 --network_module=networks.lora (the project's own LoRA module, networks/lora.py)"),
 "peft.rank":T(16,ksd+":80 --network_dim=16"),
 "task.mode":T("lora","LoRA on a frozen fp16 base (no quantisation)"),
 "optimizer.name":T("AdamW8bit",ksd+":83 --optimizer_type=AdamW8bit -> library/train_util.py:4896-4898 bnb.optim.AdamW8bit",any_of=["AdamW8bit","adamw8bit","adamw_8bit","adamw_bnb_8bit"]),
 "memory.gradient_checkpointing":T(True,ksd+":89 --gradient_checkpointing -> train_network.py:901"),
 "precision.mode":T("amp_fp16",ksd+":88 --mixed_precision=fp16 -> library/train_util.py:5507-5510 weight_dtype fp16 for the frozen U-Net/text encoder, train_network.py:286 accelerator.autocast(); the LoRA network stays fp32 (no --full_fp16, :814-819)"),
 "batch.grad_accum":T(1,"library/train_util.py:3975-3977 --gradient_accumulation_steps default 1, not given"),
 "model.attn_implementation":T("sdpa",ksd+":85 --sdpa -> train_network.py:183 replace_unet_modules(..., args.sdpa)"),
 "compile.enabled":T(False,"library/train_util.py:3914 --torch_compile absent"),
},held_out=True,note=H12+"; "+ksd+":73-89 accelerate launch --num_cpu_threads_per_process 1 train_network.py ... (placeholders filled; Accelerate, kohya's own LoRA for SD 1.5). Not labelled: micro batch and resolution (in the user's my_dataset_config.toml, not in the repository), world size and sharding (accelerate launch with no config file or --num_processes: the user's default accelerate config decides), workers (min(--max_data_loader_n_workers 8, os.cpu_count()) at run time)")
FG=("AI4Finance-Foundation/FinGPT","ec315843886de0906692782090127d37f5400d60")
fgd="fingpt/FinGPT_Forecaster"
J("fingpt-forecaster-llama2-deepspeed-lora",*FG,[fgd],fgd,["train.sh"],{
 "model.ref":T("meta-llama/Llama-2-7b-chat-hf","train.sh:10 --base_model llama2 -> train_lora.py:84 parse_model_name -> utils.py:51-52"),
 "dist.world_size":T(2,"train.sh:6-7 deepspeed --include localhost:2,3 (two GPUs of one host)"),
 "dist.nodes":T(1,"train.sh:7 localhost only"),
 "dist.devices_per_node":T(2,"train.sh:7 localhost:2,3"),
 "dist.sharding":T("ddp","config.json:30-32 zero_optimization stage 0 (train.sh:21 --ds_config config.json -> train_lora.py:141): data parallel"),
 "batch.micro":T(1,"train.sh:13 --batch_size 1 -> train_lora.py:130 per_device_train_batch_size"),
 "batch.grad_accum":T(16,"train.sh:14 -> train_lora.py:132"),
 "data.seq_len":T(4096,"train.sh:12 --max_length 4096 -> utils.py:21-32 truncation, and examples reaching it dropped (train_lora.py:117)"),
 "precision.mode":T("fp16","config.json:27-29 fp16 enabled + train_lora.py:140 fp16=True: DeepSpeed fp16 (16-bit weights, fp32 master copies)"),
 "memory.gradient_checkpointing":T(True,"train_lora.py:148 model.gradient_checkpointing_enable()"),
 "optimizer.name":T("ZeroOneAdam","config.json:5-6 DeepSpeed optimizer ZeroOneAdam",any_of=["ZeroOneAdam","zerooneadam"]),
 "peft.method":T("lora","train_lora.py:157-166 LoraConfig + get_peft_model"),
 "peft.rank":T(8,"train_lora.py:160 r=8"),
 "task.mode":T("lora","fp16 base, no quantisation (train_lora.py:89 load_in_8bit commented out)"),
 "data.num_workers":T(8,"train_lora.py:210 --num_workers default 8, not given -> :133 dataloader_num_workers"),
 "compile.enabled":T(False,"train_lora.py:187-188 model = torch.compile(model) rebinds the local name AFTER Trainer(model=model) at :169; trainer.train() (:191) runs the uncompiled module"),
},held_out=True,note=H12+"; bash train.sh from "+fgd+" (bare deepspeed launcher with --include, HF Trainer + DeepSpeed JSON with auto values, PEFT LoRA). Model size needs the hub config (Llama-2-7b-chat-hf)")
S1=("simplescaling/s1","77272c6e925d610257a50b520bad15330b513389")
s1s="train/sft.sh"
J("s1-qwen2.5-32b-sft-torchrun-fsdp",*S1,["train","README.md","requirements.txt"],".",[s1s],{
 "model.ref":T("Qwen/Qwen2.5-32B-Instruct",s1s+":4,23 --model_name -> train/sft.py:41 from_pretrained"),
 "dist.nodes":T(1,s1s+":15 single-node torchrun (no --nnodes)"),
 "dist.sharding":T("fsdp_full",s1s+":25 --fsdp=\"full_shard auto_wrap\""),
 "batch.micro":T(1,s1s+":9,18"),
 "batch.grad_accum":T(1,s1s+":10,20"),
 "data.seq_len":T(32768,s1s+":17 --block_size=32768 -> train/sft.py:68 args.max_seq_length"),
 "precision.mode":T("amp_bf16",s1s+":27 --bf16=True under FSDP; train/sft.py:41 loads the model without torch_dtype (fp32 weights, transformers 4.46.1 requirements.txt:5): FSDP mixed precision bf16"),
 "memory.gradient_checkpointing":T(False,s1s+":39 --gradient_checkpointing commented out; SFTConfig default False (trl 0.12.0, requirements.txt:13)"),
 "optimizer.name":T("adamw_torch","TrainingArguments optim default (transformers 4.46.1), not given",any_of=["adamw_torch","adamw_torch_fused","AdamW","adamw"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0, not given"),
 "peft.method":T("none","full fine-tuning (train/sft.py:41,69 no PEFT config)"),
},held_out=True,note=H12+"; bash train/sft.sh from the repository root (README.md:216; torchrun + TRL SFTTrainer parsed by HfArgumentParser((TrainingConfig, trl.SFTConfig)), FSDP with a JSON fsdp_config). World size not labelled: --nproc-per-node $(nvidia-smi -L | wc -l) at :12 is runtime; model size needs the hub config; attention implementation depends on the installed torch (sdpa when available)")
OF=("mlfoundations/open_flamingo","655f693fbfa04cd6e9a987d960654624d48917cf")
oft="open_flamingo/train/train.py"
ofs="open_flamingo/scripts/run_train.sh"
of_common={
 "model.ref":T("anas-awadalla/mpt-1b-redpajama-200b","--lm_path -> "+oft+":260-264 create_model_and_transforms (ViT-L-14 vision encoder, :54-55 defaults)"),
 "dist.nodes":T(1,"one node"),
 "dist.sharding":T("ddp",oft+":312,364-366 no --fsdp -> DDP(model)"),
 "batch.micro":T(32,"--batch_size_mmc4 32 and --batch_size_laion 64: each step takes one batch of each (open_flamingo/train/train_utils.py:95-171); mmc4's sets the step count ("+oft+":425-427)",any_of=[32,64]),
 "batch.grad_accum":T(1,oft+":90 --gradient_accumulation_steps default 1, not given"),
 "data.seq_len":T(256,"open_flamingo/train/data.py:76,145 mmc4 max_tokens 256 (padding max_length, :119-121); LAION captions 32 (:56)",any_of=[256,32]),
 "precision.mode":T("fp32",oft+":103-108 --precision default fp32, not given -> train_utils.py:34-43 get_autocast returns suppress"),
 "optimizer.name":T("AdamW",oft+":406-414 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"--workers=4 -> open_flamingo/train/data.py:361,463 wds.WebLoader(num_workers=args.workers)"),
 "data.image_size":T(224,oft+":54-55 ViT-L-14 openai -> open_clip's 224x224 preprocessing (open_flamingo/src/factory.py:42)"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
}
J("open-flamingo-3b-torchrun-ddp",*OF,["."],".",
 ["--","torchrun","--nnodes=1","--nproc_per_node=4",oft,"--lm_path","anas-awadalla/mpt-1b-redpajama-200b",
  "--tokenizer_path","anas-awadalla/mpt-1b-redpajama-200b","--cross_attn_every_n_layers","1","--dataset_resampled",
  "--batch_size_mmc4","32","--batch_size_laion","64","--train_num_samples_mmc4","125000","--train_num_samples_laion","250000",
  "--loss_multiplier_laion","0.2","--workers=4","--run_name","OpenFlamingo-3B-vitl-mpt1b","--num_epochs","480",
  "--warmup_steps","1875","--mmc4_textsim_threshold","0.24","--laion_shards","/path/to/shards/shard-{0000..0999}.tar",
  "--mmc4_shards","/path/to/shards/shard-{0000..0999}.tar","--report_to_wandb"],{
 **of_common,
 "dist.world_size":T(4,"README.md:202 torchrun --nnodes=1 --nproc_per_node=4"),
 "dist.devices_per_node":T(4,"README.md:202"),
 "memory.gradient_checkpointing":T(False,oft+":109-113 --gradient_checkpointing absent from README.md:202-219"),
},held_out=True,note=H12+"; README.md:202-219 torchrun ... open_flamingo/train/train.py from the repository root (raw DDP loop over two webdataset loaders, argparse)")
J("open-flamingo-3b-sbatch-srun",*OF,["."],".",[ofs],{
 **of_common,
 "dist.world_size":T(8,ofs+":2-4 --nodes 1, --ntasks-per-node=8, one GPU per task -> :14 srun python -> open_flamingo/train/distributed.py:64-68 SLURM_NTASKS"),
 "dist.devices_per_node":T(8,ofs+":3-4"),
 "memory.gradient_checkpointing":T(True,ofs+":31 --gradient_checkpointing -> "+oft+":369-381 apply_activation_checkpointing"),
},held_out=True,note=H12+"; sbatch open_flamingo/scripts/run_train.sh (srun python, one process per GPU; the script names open_flamingo/open_flamingo/train/train.py, a path from the clone's parent directory, and sets PYTHONPATH=open_flamingo: the job is audited from the repository root as the harness runs every job)")
VR=("FoundationVision/VAR","78b95394fc5896192e3a003e4b295f8ea743c48f")
vra="utils/arg_util.py"
J("var-d16-imagenet-torchrun",*VR,["."],".",
 ["--","torchrun","--nproc_per_node=8","--nnodes=1","--node_rank=0","--master_addr=127.0.0.1","--master_port=29500","train.py",
  "--depth=16","--bs=768","--ep=200","--fp16=1","--alng=1e-3","--wpe=0.1","--data_path=/data/imagenet"],{
 "model.num_parameters":T(310000000,"README.md:91 VAR-d16 310M (--depth=16 -> train.py:85-88 build_vae_var; the frozen VQVAE not counted)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:133 --nproc_per_node=8 (--nnodes filled with 1)"),
 "dist.nodes":T(1,"--nnodes=1 (README.md:133 placeholder filled)"),
 "dist.devices_per_node":T(8,"README.md:133"),
 "dist.sharding":T("ddp","train.py:102 DDP(var_wo_ddp)"),
 "batch.micro":T(96,"README.md:134 --bs=768 is the GLOBAL batch ("+vra+":48) -> "+vra+":255-256 round(768 / ac 1 / 8 GPUs) = 96 per GPU -> train.py:54-59 DistInfiniteBatchSampler"),
 "batch.global":T(768,vra+":257 glb_batch_size = 96 x 8"),
 "batch.grad_accum":T(1,vra+":51 ac default 1, not given"),
 "precision.mode":T("amp_fp16","README.md:134 --fp16=1 -> train.py:124-125 AmpOptimizer(mixed_precision=1) -> utils/amp_sc.py:23-27 autocast fp16 + GradScaler"),
 "compile.enabled":T(False,vra+":30,32 vfast/tfast 0 -> :139-141 compile_model returns the module (train.py:100-101)"),
 "optimizer.name":T("AdamW",vra+":59 opt adamw -> train.py:117-119 torch.optim.AdamW(fused=True)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,vra+":76 workers default 0 -> :258 min(max(0, 0), 96) = 0 -> train.py:55"),
 "data.pin_memory":T(True,"train.py:55"),
 "data.image_size":T(256,vra+":68-69 pn 1_2_..._16 x patch_size 16 -> :250-252 data_load_reso 256"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models/"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H12+"; README.md:133-134 torchrun ... train.py --depth=16 --bs=768 ... (placeholders filled for one node; --data_path is required, "+vra+":223-224); raw DDP loop with a typed-argument-parser (tap) Args class. Attention not labelled: flash_attn_func when flash-attn is installed, else SDPA (models/basic_var.py:23-25,81)")
DP=("real-stanford/diffusion_policy","5ba07ac6661db573af695b419a7947ecb704690f")
dpy="image_pusht_diffusion_policy_cnn.yaml"
dpw="diffusion_policy/workspace/train_diffusion_unet_hybrid_workspace.py"
J("diffusion-policy-pusht-image-hydra",*DP,["train.py",dpy,"diffusion_policy","README.md","setup.py","conda_environment.yaml"],".",
 ["train.py","--","--config-dir=.","--config-name="+dpy,"training.seed=42","training.device=cuda:0",
  "hydra.run.dir=data/outputs/${now:%Y.%m.%d}/${now:%H.%M.%S}_${name}_${task_name}"],{
 "dist.world_size":T(1,dpy+":163 training.device cuda:0 (README.md:136) -> "+dpw+":132-133 one device, no DDP"),
 "dist.sharding":T("none","one process, no wrapper ("+dpw+":132-136)"),
 "batch.micro":T(64,dpy+":11 dataloader.batch_size -> "+dpw+":75 DataLoader(dataset, **cfg.dataloader)"),
 "batch.grad_accum":T(1,dpy+":164 gradient_accumulate_every 1 -> "+dpw+":171"),
 "precision.mode":T("fp32","no autocast or half cast in "+dpw+" or the policy: fp32"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in diffusion_policy/model/"),
 "optimizer.name":T("AdamW",dpy+":46-47 optimizer._target_ torch.optim.AdamW -> "+dpw+":54-55 hydra.utils.instantiate",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,dpy+":12"),
 "data.pin_memory":T(True,dpy+":14"),
 "data.image_size":T(96,dpy+":93-97 obs image 3x96x96 (random crop to 84x84 inside the policy, :58-60)",any_of=[96,84]),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H12+"; README.md:136 python train.py --config-dir=. --config-name=image_pusht_diffusion_policy_cnn.yaml with overrides (Hydra, a workspace class named by the config's _target_, raw loop). Model size not labelled (ConditionalUnet1D 512/1024/2048 + a ResNet-18 observation encoder with GroupNorm, not computed by hand)")
SA=("Stability-AI/stable-audio-tools","50049e379e2fe8e35bffc99e57f23ade1c3471b7")
sac="stable_audio_tools/configs/model_configs/autoencoders/stable_audio_2_0_vae.json"
J("stable-audio-vae-lightning",*SA,["."],".",
 ["train.py","--","--dataset-config","stable_audio_tools/configs/dataset_configs/local_training_example.json",
  "--model-config",sac,"--name","harmonai_train"],{
 "dist.nodes":T(1,"defaults.ini:21 num_nodes 1 -> train.py:151"),
 "batch.micro":T(4,"defaults.ini:11 batch_size 4 (prefigure defaults, not given) -> train.py:44 -> stable_audio_tools/data/dataset.py:852 DataLoader(train_set, batch_size)"),
 "batch.grad_accum":T(1,"defaults.ini:36 accum_batches 1 -> train.py:154"),
 "precision.mode":T("amp_fp16","defaults.ini:27 precision 16-mixed -> train.py:153 pl.Trainer(precision=...)"),
 "memory.gradient_checkpointing":T(True,sac+":9 oobleck encoder/decoder -> stable_audio_tools/models/autoencoders.py:233-240 ResidualUnit, whose forward checkpoints its layers whenever training (:77-79 torch.utils.checkpoint)"),
 "optimizer.name":T("AdamW",sac+":43-44 (and :62 for the discriminator) optimizer type AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(6,"defaults.ini:30 -> train.py:45 -> stable_audio_tools/data/dataset.py:853"),
 "data.pin_memory":T(True,"stable_audio_tools/data/dataset.py:853 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile in the training path (stable_audio_tools/models/blocks.py:295 commented out)"),
 "peft.method":T("none","autoencoder trained from scratch"),
},held_out=True,note=H12+"; README.md:66 python3 ./train.py --dataset-config ... --model-config ... --name harmonai_train with the repository's own example configs (PyTorch Lightning, prefigure: defaults.ini + argparse, JSON model config, manual optimisation of a VAE-GAN). Not labelled: world size and sharding (pl.Trainer(devices=\"auto\") with strategy \"auto\" from defaults.ini:24: every visible GPU, decided at run time), model size (oobleck VAE + discriminator, not computed by hand), audio lengths")
H13="thirteenth held-out set"
PV=("AntixK/PyTorch-VAE","a6896b944c918dd7030e7d795a8c13e5c6345ec7")
pvy="configs/vae.yaml"
J("pytorch-vae-vanilla-lightning",*PV,["."],".",["run.py","--","-c",pvy],{
 "model.num_parameters":T(3937635,"models/vanilla_vae.py:11-75 VanillaVAE(in_channels 3, latent_dim 128 ("+pvy+":2-4), hidden_dims [32,64,128,256,512]): five Conv2d+BatchNorm2d encoder blocks 1,570,560 + fc_mu/fc_var 524,544 + decoder_input 264,192 + four ConvTranspose2d+BN blocks 1,568,160 + final layer 10,179 (counted by hand)",rel_tol=0.05),
 "dist.world_size":T(1,pvy+":23 trainer_params gpus: [1] (one GPU, index 1) -> run.py:45-54 Trainer(**config['trainer_params'])"),
 "dist.devices_per_node":T(1,pvy+":23 gpus: [1]"),
 "dist.sharding":T("ddp","run.py:53 strategy=DDPPlugin(...) on one device (a one-process DDP wrapper; nothing sharded)",any_of=["ddp","none"]),
 "batch.micro":T(64,pvy+":9 train_batch_size -> run.py:42 VAEDataset(**data_params) -> dataset.py:155-158 DataLoader(batch_size=self.train_batch_size)"),
 "batch.grad_accum":T(1,pvy+":22-24 no accumulate_grad_batches (Lightning default 1)"),
 "precision.mode":T("fp32",pvy+":22-24 no precision (pytorch-lightning 1.5.6 default 32, requirements.txt:1)"),
 "optimizer.name":T("Adam","experiment.py:97 optim.Adam in configure_optimizers (no 'submodel' in exp_params, :101-106)",any_of=["Adam","adam"]),
 "data.num_workers":T(4,pvy+":12 -> dataset.py:159"),
 "data.pin_memory":T(True,"run.py:42 pin_memory=len(gpus) != 0 with gpus [1] -> dataset.py:161"),
 "data.image_size":T(64,pvy+":11 patch_size 64 -> dataset.py:129-131 CenterCrop(148) then Resize(64)"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models/"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","VAE trained from scratch"),
},held_out=True,note=H13+"; README.md:41 python run.py -c configs/<config-file-name.yaml> with configs/vae.yaml (PyTorch Lightning 1.5 with the whole trainer_params block of a yaml.safe_load-ed YAML splatted into Trainer(**...), model class picked from a registry dict by a YAML string, LightningDataModule)")
CL=("cloneofsimo/lora","d84074b3e3496f1cfa8a3f49b8b9972ef463b483")
cld="train_lora_dreambooth.py"
J("cloneofsimo-lora-dreambooth-text-accelerate",*CL,["."],"training_scripts",["run_lora_db_w_text.sh"],{
 "model.ref":T("stabilityai/stable-diffusion-2-1-base","training_scripts/run_lora_db_w_text.sh:2,7 MODEL_NAME -> "+cld+":580-594 from_pretrained"),
 "batch.micro":T(1,"run_lora_db_w_text.sh:13 --train_batch_size=1 -> "+cld+":720-722"),
 "batch.grad_accum":T(1,"run_lora_db_w_text.sh:14 -> "+cld+":489-490 Accelerator(gradient_accumulation_steps=...)"),
 "peft.method":T("lora",cld+":596-598,609-613 inject_trainable_lora (lora_diffusion/lora.py, the project's own LoRA) on the UNet and, with --train_text_encoder (run_lora_db_w_text.sh:11), the CLIP text encoder"),
 "peft.rank":T(4,cld+":320-323 --lora_rank default 4, not given"),
 "task.mode":T("lora","frozen fp32 base (:595,605-606 requires_grad_(False)), LoRA only, no quantisation"),
 "optimizer.name":T("AdamW",cld+":641-651 --use_8bit_adam absent -> torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,cld+":315-317,627 --gradient_checkpointing absent from run_lora_db_w_text.sh"),
 "data.num_workers":T(1,cld+":725 num_workers=1"),
 "data.pin_memory":T(False,cld+":720-726 DataLoader without pin_memory (default False)"),
 "data.image_size":T(512,"run_lora_db_w_text.sh:12 --resolution=512 -> "+cld+":688 DreamBoothDataset(size=...) crop to 512 (:96-103)"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
},held_out=True,note=H13+"; README.md:204-208 training_scripts/run_lora_db_w_text.sh, run from training_scripts/ (the script names train_lora_dreambooth.py relative to the working directory): accelerate launch of a DreamBooth fork with the project's own inject_trainable_lora. Not labelled: world size and sharding (accelerate launch with no config or --num_processes: the user's default accelerate config decides), precision (--mixed_precision default None, :408-418: the accelerate config decides), attention (--use_xformers absent: the installed diffusers decides)")
DT=("facebookresearch/deit","7e160fe43f0252d17191b71cbb5826254114ea5b")
J("deit-small-imagenet-ddp",*DT,["."],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=4","--use_env","main.py","--model","deit_small_patch16_224",
  "--batch-size","256","--data-path","/path/to/imagenet","--output_dir","/path/to/save"],{
 "model.ref":T("deit_small_patch16_224","README_deit.md:216 --model -> main.py:263-271 timm create_model of the model registered in models.py:77-78"),
 "model.num_parameters":T(22050664,"README_deit.md:39 DeiT-small 22M (ViT patch 16, dim 384, depth 12, heads 6: models.py:79-81; 1000 classes)",rel_tol=0.05),
 "dist.world_size":T(4,"README_deit.md:216 --nproc_per_node=4"),
 "dist.nodes":T(1,"one node (no --nnodes)"),
 "dist.devices_per_node":T(4,"README_deit.md:216"),
 "dist.sharding":T("ddp","utils.py:217-229 RANK/WORLD_SIZE from the launcher (--use_env) -> main.py:344-345 DistributedDataParallel"),
 "batch.micro":T(256,"README_deit.md:216 --batch-size 256 (per process) -> main.py:236-238"),
 "batch.global":T(1024,"256 x 4 processes (main.py:350 lr scaled by batch_size * world_size)"),
 "batch.grad_accum":T(1,"engine.py:63-68 one optimizer step per batch (loss_scaler steps every iteration)"),
 "precision.mode":T("amp_fp16","engine.py:46 torch.cuda.amp.autocast() (fp16) + main.py:353 timm NativeScaler (GradScaler)"),
 "optimizer.name":T("AdamW","main.py:56 --opt default adamw -> :352 timm create_optimizer",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,"main.py:176 --num_workers default 10 -> :239"),
 "data.pin_memory":T(True,"main.py:177-181 pin_mem default True -> :240"),
 "data.image_size":T(224,"main.py:42 --input-size default 224"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models.py/main.py"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","training from scratch (pretrained=False, main.py:265)"),
},held_out=True,note=H13+"; README_deit.md:216 python -m torch.distributed.launch --nproc_per_node=4 --use_env main.py --model deit_small_patch16_224 --batch-size 256 ... (raw DDP loop, argparse, a timm model registered by the project, timm optimizer/scaler factories)")
HG=("jik876/hifi-gan","4769534d45265d52a904b850da5a622601885777")
J("hifi-gan-v1-ljspeech",*HG,["."],".",["train.py","--","--config","config_v1.json"],{
 "dist.nodes":T(1,"config_v1.json:32-36 dist_config world_size 1 (nodes) -> train.py:26-27 world_size * num_gpus; mp.spawn on one host (:264-265)"),
 "batch.global":T(16,"config_v1.json:4 batch_size 16 is split over the GPUs: train.py:258-259 h.batch_size = int(16 / device_count) per process"),
 "batch.grad_accum":T(1,"train.py:126-156 optimizer steps every batch"),
 "precision.mode":T("fp32","no autocast or half cast in train.py"),
 "optimizer.name":T("AdamW","train.py:63-65 torch.optim.AdamW (generator and discriminators)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"config_v1.json:30 -> train.py:83"),
 "data.pin_memory":T(True,"train.py:86"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in models.py"),
 "compile.enabled":T(False,"no torch.compile in the repository"),
 "peft.method":T("none","GAN vocoder trained from scratch"),
},held_out=True,note=H13+"; README.md:35 python train.py --config config_v1.json (speech: raw loop, JSON config read into an AttrDict, mp.spawn over torch.cuda.device_count() GPUs with DDP when more than one). Not labelled: world size, devices, sharding and micro batch (all from torch.cuda.device_count() at run time, train.py:258-265), model size (generator + multi-period and multi-scale discriminators, not computed by hand), audio segment length")
PL=("princeton-nlp/ProLong","907dcf4b833a3510e39ce8355e45db4175648a49")
pls="train_sft.sh"
plt="training/train_language_model.py"
J("prolong-llama3-8b-sft-sbatch-fsdp",*PL,["."],".",[pls],{
 "model.ref":T("princeton-nlp/Llama-3-8B-ProLong-512k-Base",pls+":13 model=${MODEL:-...} -> :102 --model_name -> "+plt+":161 from_pretrained"),
 "dist.nodes":T(1,pls+":3 #SBATCH -N 1 -> :43-47 num_nodes from scontrol (1) -> :82-87 single-node torchrun"),
 "dist.devices_per_node":T(8,pls+":5 #SBATCH --gres=gpu:8 -> :36-41 num_gpus from CUDA_VISIBLE_DEVICES (8 under the allocation) -> :86 --nproc-per-node"),
 "dist.world_size":T(8,pls+":5,86 8 GPUs x 1 node"),
 "dist.sharding":T("fsdp_full",pls+":59,145-147 fsdp=1 -> FSDP_SHARDING_STRATEGY=1 (FULL_SHARD) and --fsdp auto_wrap"),
 "batch.micro":T(1,pls+":25 seq=1 -> :109 --per_device_train_batch_size"),
 "batch.grad_accum":T(8,pls+":50 accu = bsz 64 / seq 1 / 8 GPUs / 1 node -> :108"),
 "batch.global":T(64,pls+":24 bsz=64"),
 "data.seq_len":T(65536,pls+":19 prolong-ultrachat-64K packed sequences, :135 --per_device_max_tokens 65536 (training/dataset.py:23,47)"),
 "precision.mode":T("amp_bf16",pls+":112 --bf16 under FSDP; "+plt+":161-168 loads without torch_dtype (fp32 weights)"),
 "memory.gradient_checkpointing":T(True,pls+":60,152-153 gc=1 -> --gradient_checkpointing"),
 "optimizer.name":T("adamw_torch",pls+":121 --optim adamw_torch",any_of=["adamw_torch","AdamW","adamw"]),
 "data.num_workers":T(1,pls+":128 --dataloader_num_workers 1"),
 "model.attn_implementation":T("flash_attention_2",plt+":16 the project's training/modeling_flash_llama.py LlamaForCausalLM, whose attention calls flash_attn_kvpacked_func / flash_attn_varlen_kvpacked_func (:41,325; flash-attn 2.6.1 pinned, requirements.txt)"),
 "peft.method":T("none","full fine-tuning (no PEFT in training/)"),
},held_out=True,note=H13+"; sbatch train_sft.sh (README.md:176; #SBATCH header, GPU count and accumulation computed in shell, torchrun -m training.train_language_model under srun only for several nodes, HF Trainer subclass with HfArgumentParser and the project's own flash-attention Llama)")
TD=("nicklashansen/tdmpc2","e9f59321933cbc8e11a002b842adc7d4ffae8ff1")
tdc="tdmpc2/config.yaml"
J("tdmpc2-dog-run-hydra",*TD,["tdmpc2","README.md"],"tdmpc2",["train.py","--","task=dog-run","steps=7000000"],{
 "dist.world_size":T(1,"one process on cuda:0 (tdmpc2/train.py:46-60; no distributed code)"),
 "dist.sharding":T("none","no DDP/FSDP wrapper in the repository"),
 "batch.micro":T(256,tdc+":16 batch_size 256 -> tdmpc2/common/buffer.py:18 SliceSampler(num_slices=256) of horizon+1 = 4 steps (:25, 1024 transitions)",any_of=[256,1024]),
 "batch.grad_accum":T(1,"one optimizer step per update (tdmpc2/tdmpc2.py _update)"),
 "precision.mode":T("fp32","no autocast; tdmpc2/train.py:23 set_float32_matmul_precision('high') only allows TF32 matmuls"),
 "optimizer.name":T("Adam","tdmpc2/tdmpc2.py:22-31 torch.optim.Adam(..., capturable=True)",any_of=["Adam","adam"]),
 "compile.enabled":T(True,tdc+":74 compile: true -> tdmpc2/tdmpc2.py:41-43 torch.compile(self._update, mode='reduce-overhead')"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in tdmpc2/common/"),
 "peft.method":T("none","RL agent trained from scratch"),
},held_out=True,note=H13+"; README.md:117 python train.py task=dog-run steps=7000000, run from tdmpc2/ (Hydra @hydra.main(config_name='config', config_path='.'), config turned into a dataclass, online RL with a torchrl replay buffer, no DataLoader). Not labelled: model size (about 5M, README.md:121, but the encoder/actor sizes depend on the environment's observation and action dimensions read at run time), workers (no DataLoader)")
VC=("mbzuai-oryx/Video-ChatGPT","659e04b2ce4bb518b663eb06f7db27b4971e8bde")
vcd="docs/train_video_chatgpt.md"
vct="video_chatgpt/train/train.py"
J("video-chatgpt-7b-torchrun",*VC,["."],".",
 ["--","torchrun","--nproc_per_node=8","--master_port","29001","video_chatgpt/train/train_mem.py",
  "--model_name_or_path","mmaaz60/LLaVA-7B-Lightening-v1-1","--version","v1","--data_path","video_chatgpt_training.json",
  "--video_folder","/path/to/clip_features","--tune_mm_mlp_adapter","True","--mm_use_vid_start_end","--bf16","True",
  "--output_dir","./Video-ChatGPT_7B-1.1_Checkpoints","--num_train_epochs","3","--per_device_train_batch_size","4",
  "--per_device_eval_batch_size","4","--gradient_accumulation_steps","1","--evaluation_strategy","no","--save_strategy","steps",
  "--save_steps","3000","--save_total_limit","3","--learning_rate","2e-5","--weight_decay","0.","--warmup_ratio","0.03",
  "--lr_scheduler_type","cosine","--logging_steps","100","--tf32","True","--model_max_length","2048",
  "--gradient_checkpointing","True","--lazy_preprocess","True"],{
 "model.ref":T("mmaaz60/LLaVA-7B-Lightening-v1-1",vcd+":64 --model_name_or_path (placeholder filled with the ready weights named at :21) -> "+vct+":484-488"),
 "dist.world_size":T(8,vcd+":63 --nproc_per_node=8"),
 "dist.nodes":T(1,"one node"),
 "dist.devices_per_node":T(8,vcd+":63"),
 "dist.sharding":T("ddp","no --fsdp or --deepspeed in "+vcd+":63-88: Trainer DDP"),
 "batch.micro":T(4,vcd+":73"),
 "batch.grad_accum":T(1,vcd+":75"),
 "batch.global":T(32,"4 x 8 GPUs x 1"),
 "data.seq_len":T(2048,vcd+":86 --model_max_length 2048 -> "+vct+":53-59,497"),
 "precision.mode":T("amp_bf16",vcd+":70 --bf16 True; "+vct+":487 torch_dtype commented out: fp32 weights, bf16 autocast"),
 "memory.gradient_checkpointing":T(True,vcd+":87"),
 "optimizer.name":T("adamw_torch",vct+":49 optim default adamw_torch (the project's TrainingArguments subclass)",any_of=["adamw_torch","AdamW","adamw"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0, not given"),
 "model.attn_implementation":T("flash_attention_2","video_chatgpt/train/train_mem.py:2-4 replace_llama_attn_with_flash_attn() patches LlamaAttention.forward with flash_attn_unpadded_qkvpacked_func (video_chatgpt/train/llama_flash_attn_monkey_patch.py:8,97-99)"),
 "peft.method":T("none",vct+":512-516 --tune_mm_mlp_adapter True freezes the model and trains the mm_projector only; no LoRA"),
 "compile.enabled":T(False,"no torch.compile; TrainingArguments torch_compile default False"),
},held_out=True,note=H13+"; "+vcd+":63-88 torchrun --nproc_per_node=8 video_chatgpt/train/train_mem.py ... (placeholders filled; LLaVA-style HF Trainer subclass over HfArgumentParser dataclasses, flash-attention monkey patch imported by a wrapper script)")
VG=("THUDM/VisualGLM-6B","e314fb9c4e778851414f39784317c72765acec47")
vgs="finetune/finetune_visualglm.sh"
vgp="finetune_visualglm.py"
J("visualglm-6b-lora-deepspeed-sat",*VG,["."],".",[vgs],{
 "model.ref":T("visualglm-6b",vgp+":177-178 FineTuneVisualGLMModel.from_pretrained('visualglm-6b') (SwissArmyTransformer model name)"),
 "dist.nodes":T(1,vgs+":18-19,54 deepspeed --hostfile hostfile_single (no such file in the repository: DeepSpeed runs on the local host)"),
 "batch.micro":T(4,vgs+":46 --batch-size 4 (SAT: per GPU) -> SAT arguments.py train_micro_batch_size_per_gpu"),
 "batch.grad_accum":T(1,"SAT --gradient-accumulation-steps default 1, not given (written into the generated DeepSpeed config)"),
 "data.seq_len":T(320,vgs+":10-11 max_source_length 64 + max_target_length 256 -> "+vgp+":110,134-135 padded to 320"),
 "dist.sharding":T("zero1",vgs+":44 --zero-stage 1 -> SAT's deepspeed_zero1.json"),
 "precision.mode":T("fp16",vgs+":48 --fp16 -> SAT DeepSpeed fp16 (16-bit weights, fp32 master copies); "+vgp+":70-71 images cast to half"),
 "memory.gradient_checkpointing":T(True,vgs+":37 --checkpoint-activations"),
 "peft.method":T("lora",vgs+":49 --use_lora -> "+vgp+":16-17 SAT LoraMixin"),
 "peft.rank":T(10,vgs+":12 --lora_rank 10"),
 "task.mode":T("lora",vgp+":34-47 everything but the LoRA matrices (and p-tuning when used) frozen; fp16 base, no quantisation (--use_qlora absent)"),
 "data.image_size":T(224,vgp+":158 BlipImageEvalProcessor(224)"),
 "data.num_workers":T(1,"SAT --num-workers default 1, not given"),
},held_out=True,note=H13+"; README.md:121 bash finetune/finetune_visualglm.sh from the repository root (the bare deepspeed launcher assembled in a shell string and run with eval, SwissArmyTransformer's own argument parser and training loop, SAT LoRA mixin). Not labelled: world size (NUM_GPUS_PER_WORKER=8 at :3 is not used by the launch line; without the hostfile DeepSpeed takes every local GPU), optimizer (in SAT's bundled DeepSpeed JSON, a library file), model size (VisualGLM-6B from SAT's model zoo)")
H14="fourteenth held-out set"
RW=("BlinkDL/RWKV-LM","524481d5099b38d9bc8ef1e89209161b86c8011b")
rws="demo-training-run.sh"
rwm="src/model.py"
J("rwkv7-l12-d768-lightning-deepspeed2",*RW,["RWKV-v7/train_temp"],"RWKV-v7/train_temp",[rws],{
 "model.num_parameters":T(191000000,rws+":16-17 n_layer 12 n_embd 768, :60 vocab 65536 -> "+rwm+":786-791 embedding + head 2x50.3M, per layer (:496-575 time-mix 4 C^2 + LoRA matrices, :706-720 channel-mix 8 C^2) ~7.55M x 12 (counted by hand; RWKV-7 0.1B is 191M)",rel_tol=0.1),
 "batch.micro":T(16,rws+":38 M_BSZ=16 -> :59 --micro_bsz -> train.py:261 DataLoader(batch_size=args.micro_bsz)"),
 "batch.grad_accum":T(1,"Lightning Trainer accumulate_grad_batches default 1, not given (train.py:60 Trainer.add_argparse_args)"),
 "data.seq_len":T(512,rws+":19 CTX_LEN=512 -> :57 --ctx_len"),
 "dist.nodes":T(1,rws+":51 N_NODE=1 -> :59 --num_nodes"),
 "dist.devices_per_node":T(1,rws+":52 GPU_PER_NODE=1 -> :62 --devices"),
 "dist.world_size":T(1,rws+":51-52 one node x one GPU"),
 "dist.sharding":T("zero2",rws+":62 --strategy deepspeed_stage_2 (Lightning DeepSpeedStrategy, ZeRO stage 2)"),
 "precision.mode":T("bf16",rws+":62 --precision bf16 -> train.py:197 'bf16' under the DeepSpeed strategy: DeepSpeed bf16 (16-bit weights, fp32 master copies)"),
 "memory.gradient_checkpointing":T(True,rws+":41 GRAD_CP=1 -> :62 --grad_cp -> "+rwm+":850-851 deepspeed.checkpointing.checkpoint per block"),
 "optimizer.name":T("FusedAdam",rwm+":823-827 weight_decay 0.001 > 0 ("+rws+":61) and no offload -> DeepSpeed FusedAdam(adam_w_mode=True)",any_of=["FusedAdam","fused_adam","adamw","AdamW"]),
 "data.num_workers":T(1,"train.py:261 num_workers=1"),
 "data.pin_memory":T(True,"train.py:261 pin_memory=True"),
 "dist.allgather_bucket_size":T(200000000,"train.py:50 --ds_bucket_mb default 200 (commented out at "+rws+":62) -> train.py:257 allgather_bucket_size = 200e6"),
 "dist.reduce_bucket_size":T(200000000,"train.py:258 reduce_bucket_size = ds_bucket_mb * 1e6"),
 "compile.enabled":T(False,"no torch.compile ("+rwm+":31-33 TorchScript only)"),
 "peft.method":T("none","full pretraining from rwkv-init.pth"),
},held_out=True,note=H14+"; RWKV-v7/train_temp/README.md:34 cd RWKV-v7/train_temp; sh ./demo-training-run.sh (shell variables into python train.py, PyTorch Lightning 1.9 Trainer.from_argparse_args with strategy deepspeed_stage_2 and precision bf16; ds bucket sizes patched into trainer.strategy.config after the Trainer is built)")
DL=("facebookresearch/dlrm","090956ee2319ddd349a42232958aefccfe3f7b0a")
dls="bench/run_and_time.sh"
J("dlrm-mlperf-terabyte-gpu",*DL,["."],".",[dls,"--","--use-gpu"],{
 "batch.global":T(2048,dls+":17 --mini-batch-size=2048 (one process; dlrm_s_pytorch.py:1394-1395 logs it as the MLPerf global batch size)"),
 "batch.grad_accum":T(1,"dlrm_s_pytorch.py:1017 --mlperf-grad-accum-iter default 1, not given"),
 "precision.mode":T("fp32","no autocast or half in dlrm_s_pytorch.py; --quantize-mlp/emb-with-bit default 32 (:985-986)"),
 "optimizer.name":T("sgd","dlrm_s_pytorch.py:972 --optimizer default sgd -> :1343 torch.optim.SGD",any_of=["sgd","SGD"]),
 "data.num_workers":T(0,dls+":17 --mlperf-bin-loader -> dlrm_data_pytorch.py:441-449 DataLoader(num_workers=0)"),
 "data.pin_memory":T(False,"dlrm_data_pytorch.py:448 pin_memory=False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H14+"; README.md:337 ./bench/run_and_time.sh [--use-gpu] from the repository root ($1 forwarded to python dlrm_s_pytorch.py as $dlrm_extra_option; recommendation model, MLPerf terabyte settings). Not labelled: world size and per-GPU batch (one process that spreads embeddings and MLP replicas over every visible GPU, dlrm_s_pytorch.py:1085-1087,1278), model size (embedding rows from the dataset's feature counts capped at --max-ind-range 40M)")
XF=("XLabs-AI/x-flux","47495425dbed499be1e8e5a6e52628b07349cba2")
xfy="train_configs/test_lora.yaml"
xft="train_flux_lora_deepspeed.py"
J("xflux-dev-lora-accelerate",*XF,["."],".",["--","accelerate","launch",xft,"--config",xfy],{
 "model.ref":T("black-forest-labs/FLUX.1-dev",xfy+":1 model_name flux-dev -> "+xft+":54 load_flow_model2 -> src/flux/util.py:167-170 repo_id",any_of=["black-forest-labs/FLUX.1-dev","flux-dev"]),
 "batch.micro":T(1,xfy+":3 data_config.train_batch_size -> "+xft+":161 loader(**data_config) -> image_datasets/dataset.py:92"),
 "batch.grad_accum":T(2,xfy+":26 -> "+xft+":81 Accelerator(gradient_accumulation_steps=...)"),
 "precision.mode":T("amp_bf16",xfy+":21 mixed_precision bf16 -> "+xft+":82 Accelerator autocast over a DiT cast to fp32 at :144 (no accelerate config file given)"),
 "peft.method":T("lora",xft+":109-139 DoubleStream/SingleStreamBlockLoraProcessor on blocks 1-4 ("+xfy+":28); :147-150 everything else frozen"),
 "peft.rank":T(16,xfy+":27 rank 16 -> "+xft+":129,134"),
 "task.mode":T("lora","bf16-autocast base, LoRA processors only trained; no quantisation"),
 "optimizer.name":T("AdamW",xft+":146 torch.optim.AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "data.num_workers":T(4,xfy+":4 -> image_datasets/dataset.py:92"),
 "data.image_size":T(512,xfy+":5 img_size 512 -> image_datasets/dataset.py:72 image_resize"),
 "memory.gradient_checkpointing":T(False,"src/flux/model.py:78 gradient_checkpointing = False, never enabled by the script"),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H14+"; README.md:57 accelerate launch train_flux_lora_deepspeed.py --config train_configs/test_lora.yaml (OmegaConf YAML read by the script, Accelerate without a config file). Not labelled: world size and DeepSpeed stage (the user's default accelerate config; the script name says DeepSpeed but no DeepSpeed config is in the repository), seq len (text tokens 512 for T5, image tokens from the crop)")
S2=("facebookresearch/sam2","2b90b9f5ceec907a1c18123530e92e794ad901a4")
s2y="sam2/configs/sam2.1_training/sam2.1_hiera_b+_MOSE_finetune.yaml"
J("sam2.1-b+-mose-finetune-hydra-8gpu",*S2,["training","sam2","README.md","setup.py","pyproject.toml"],".",
 ["training/train.py","--","-c","configs/sam2.1_training/sam2.1_hiera_b+_MOSE_finetune.yaml","--use-cluster","0","--num-gpus","8"],{
 "model.num_parameters":T(80800000,"README.md:169 sam2.1_hiera_base_plus 80.8M ("+s2y+":64-146 the Hiera b+ model)",rel_tol=0.1),
 "dist.world_size":T(8,"training/README.md:40-43 --num-gpus 8 -> training/train.py:154-155 gpus_per_node -> :46,60 one spawned process per GPU"),
 "dist.nodes":T(1,s2y+":325 num_nodes 1 (no --num-nodes; train.py:45 asserts one node without a cluster)"),
 "dist.devices_per_node":T(8,"--num-gpus 8"),
 "dist.sharding":T("ddp","training/trainer.py:295 nn.parallel.DistributedDataParallel"),
 "batch.micro":T(1,s2y+":5 train_batch_size 1 -> :206-207 batch_sizes"),
 "batch.grad_accum":T(1,"training/trainer.py has no gradient accumulation"),
 "precision.mode":T("amp_bf16",s2y+":237-239 amp enabled, amp_dtype bfloat16 -> training/trainer.py:861 torch.cuda.amp.autocast"),
 "optimizer.name":T("AdamW",s2y+":242 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,s2y+":6 num_train_workers -> :228"),
 "data.pin_memory":T(True,s2y+":229"),
 "data.image_size":T(1024,s2y+":4 resolution 1024 -> :146 image_size"),
 "compile.enabled":T(False,s2y+":177 compile_image_encoder commented out -> sam2/modeling/sam2_base.py:95 default False"),
 "peft.method":T("none","full fine-tune from the SAM 2.1 checkpoint ("+s2y+":321)"),
},held_out=True,note=H14+"; training/README.md:40-43 python training/train.py -c configs/sam2.1_training/sam2.1_hiera_b+_MOSE_finetune.yaml --use-cluster 0 --num-gpus 8 from the repository root (Hydra compose from the sam2 package's config module, initialize_config_module('sam2') at train.py:245; mp spawn launcher; submitit when --use-cluster 1; video segmentation)")
ED=("NVlabs/edm","008a4e5316c8e3bfe61a62f874bddba254295afb")
edl="training/training_loop.py"
J("edm-cifar10-ddpmpp-torchrun-8gpu",*ED,["."],".",["--","torchrun","--standalone","--nproc_per_node=8","train.py","--outdir=training-runs",
 "--data=datasets/cifar10-32x32.zip","--cond=1","--arch=ddpmpp"],{
 "dist.world_size":T(8,"README.md:192 --nproc_per_node=8"),
 "dist.sharding":T("ddp",edl+":89 DistributedDataParallel"),
 "batch.global":T(512,"train.py:52 --batch default 512, not given (README.md:196)"),
 "batch.micro":T(64,edl+":60-62 batch_gpu = 512 // 8 (README.md:196 '64 images per GPU')"),
 "batch.grad_accum":T(1,edl+":63 num_accumulation_rounds = 64 // 64 (--batch-gpu not given)"),
 "precision.mode":T("fp32","train.py:63 --fp16 default False -> :147 use_fp16=False"),
 "optimizer.name":T("Adam","train.py:101 torch.optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(1,"train.py:67 --workers default 1 -> :98"),
 "data.pin_memory":T(True,"train.py:98 pin_memory=True"),
 "model.num_parameters":T(56000000,"train.py:116-118 DDPM++ SongUNet model_channels 128, channel_mult [2,2,2] (EDM paper: 55.7M for CIFAR-10 DDPM++)",rel_tol=0.1),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H14+"; README.md:192-193 torchrun --standalone --nproc_per_node=8 train.py ... (click options, raw DDP, per-GPU batch derived from the total batch and the world size)")
J("edm-ffhq64-ddpmpp-batch256-torchrun-8gpu",*ED,["."],".",["--","torchrun","--standalone","--nproc_per_node=8","train.py","--outdir=training-runs",
 "--data=datasets/ffhq-64x64.zip","--cond=0","--arch=ddpmpp","--batch=256","--cres=1,2,2,2","--lr=2e-4","--dropout=0.05","--augment=0.15"],{
 "dist.world_size":T(8,"README.md:208 8xV100 with README.md:192's torchrun --nproc_per_node=8"),
 "dist.sharding":T("ddp",edl+":89"),
 "batch.global":T(256,"README.md:208 --batch=256"),
 "batch.micro":T(32,edl+":60-62 256 // 8"),
 "batch.grad_accum":T(1,edl+":63"),
 "precision.mode":T("fp32","--fp16 not given (train.py:63)"),
 "optimizer.name":T("Adam","train.py:101",any_of=["Adam","adam"]),
 "data.num_workers":T(1,"train.py:67"),
},held_out=True,note=H14+"; README.md:208 table row ffhq-64x64-uncond-vp options on README.md:192's torchrun command (8 GPUs)")
TC=("NVIDIA/tacotron2","185cd24e046cc1304b4f8e564734d2498c6e2e6f")
tcn=("model.num_parameters",T(28200000,"hparams.py:47-75 encoder 3 conv 512 + BiLSTM, decoder LSTMCells 1024 (attention rnn 7.3M, decoder rnn 10.5M), postnet 5 conv 512 (counted by hand: ~28.2M)",rel_tol=0.1))
J("tacotron2-ljspeech-multiproc-fp16",*TC,["."],".",["--","python","-m","multiproc","train.py","--output_directory=outdir","--log_directory=logdir",
 "--hparams=distributed_run=True,fp16_run=True"],{
 tcn[0]:tcn[1],
 "batch.micro":T(64,"hparams.py:84 batch_size 64 -> train.py:55-57 DataLoader per process"),
 "batch.grad_accum":T(1,"train.py: no gradient accumulation"),
 "precision.mode":T("fp16","--hparams fp16_run=True -> train.py:173-176 apex amp.initialize(opt_level='O2'): fp16 model weights, fp32 master copies"),
 "optimizer.name":T("Adam","train.py:170 torch.optim.Adam",any_of=["Adam","adam"]),
 "dist.sharding":T("ddp","--hparams distributed_run=True -> train.py:179 apply_gradient_allreduce (distributed.py: all-reduce of gradients, full replicas)"),
 "dist.nodes":T(1,"multiproc.py:13-18 local subprocesses only"),
 "data.num_workers":T(1,"train.py:55"),
 "data.pin_memory":T(False,"train.py:57"),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H14+"; README.md:44 python -m multiproc train.py --output_directory=outdir --log_directory=logdir --hparams=distributed_run=True,fp16_run=True (a Python launcher that spawns one train.py per torch.cuda.device_count(); tf.contrib HParams string; speech). Not labelled: world size (every visible GPU, multiproc.py:7)")
J("tacotron2-ljspeech-1gpu",*TC,["."],".",["train.py","--","--output_directory=outdir","--log_directory=logdir"],{
 tcn[0]:tcn[1],
 "batch.micro":T(64,"hparams.py:84 -> train.py:57"),
 "precision.mode":T("fp32","hparams.py:16 fp16_run False"),
 "optimizer.name":T("Adam","train.py:170",any_of=["Adam","adam"]),
 "dist.world_size":T(1,"python: one process; hparams.py:17 distributed_run False"),
 "data.num_workers":T(1,"train.py:55"),
},held_out=True,note=H14+"; README.md:33 python train.py --output_directory=outdir --log_directory=logdir")
CO=("corl-team/CORL","eeeeef2671235fcce3a3eb255576a207d78840e6")
coy="configs/offline/dt/halfcheetah/medium_v2.yaml"
cot="algorithms/offline/dt.py"
J("corl-dt-halfcheetah-pyrallis",*CO,["algorithms","configs/offline/dt","requirements","README.md"],".",[cot,"--","--config_path="+coy],{
 "model.num_parameters":T(730000,cot+":280-318 DecisionTransformer(embedding_dim 128, num_layers 3 ("+coy+":10,22), episode_len 1000 + seq_len 20 timestep embeddings 130,560; three blocks of nn.MultiheadAttention + 4x MLP ~198k each; halfcheetah state 17 / action 6) counted by hand ~0.73M",rel_tol=0.1),
 "batch.micro":T(4096,coy+":2 batch_size -> "+cot+":440-445 DataLoader(batch_size=config.batch_size)"),
 "batch.grad_accum":T(1,cot+": one optimizer step per batch"),
 "data.seq_len":T(60,coy+":27 seq_len 20 transitions -> "+cot+":306-316 blocks see 3 * seq_len = 60 tokens (return, state, action)",any_of=[60,20]),
 "precision.mode":T("fp32","no autocast or half in "+cot),
 "optimizer.name":T("AdamW",cot+":470 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,coy+":23 -> "+cot+":444"),
 "data.pin_memory":T(True,cot+":443"),
 "dist.world_size":T(1,"python: one process, "+coy+":9 device cuda"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H14+"; python algorithms/offline/dt.py --config_path=configs/offline/dt/halfcheetah/medium_v2.yaml (docs/algorithms/dt.md:78-88 usage; pyrallis dataclass config from YAML; offline RL, Decision Transformer)")
MP=("open-mmlab/mmpretrain","ee7f2e88501f61aa95c742dd5f429f039935ee90")
mps="tools/slurm_train.sh"
mpc="configs/resnet/resnet50_8xb32_in1k.py"
J("mmpretrain-resnet50-in1k-slurm-amp",*MP,["tools","configs/_base_","configs/resnet","mmpretrain","requirements","requirements.txt","setup.py","README.md"],".",
 [mps,"--","dev","r50",mpc,"work_dirs/r50","--amp"],{
 "model.num_parameters":T(25557032,mpc+":2 ../_base_/models/resnet50.py ResNet depth 50 + LinearClsHead 1000 classes (configs/resnet/metafile.yml:142 Parameters 25560000)",rel_tol=0.1),
 "dist.world_size":T(8,mps+":9 GPUS default 8 -> :19 srun --ntasks 8 (launcher slurm)"),
 "dist.nodes":T(1,mps+":9-10 GPUS 8 / GPUS_PER_NODE 8"),
 "dist.devices_per_node":T(8,mps+":10,20 --ntasks-per-node 8"),
 "dist.sharding":T("ddp","mmengine Runner: MMDistributedDataParallel under --launcher slurm (no model_wrapper_cfg)"),
 "batch.micro":T(32,"configs/_base_/datasets/imagenet_bs32.py:27 train_dataloader batch_size 32 (per GPU)"),
 "batch.global":T(256,"32 x 8 GPUs (config name 8xb32; configs/_base_/schedules/imagenet_bs256.py:16)"),
 "batch.grad_accum":T(1,"configs/_base_/schedules/imagenet_bs256.py:2-3 optim_wrapper without accumulative_counts"),
 "precision.mode":T("amp_fp16","--amp ($5 -> "+mps+":13 PY_ARGS) -> tools/train.py:93-94 AmpOptimWrapper (fp16 autocast, loss scaling)"),
 "optimizer.name":T("SGD","configs/_base_/schedules/imagenet_bs256.py:3",any_of=["SGD","sgd"]),
 "data.num_workers":T(5,"configs/_base_/datasets/imagenet_bs32.py:28"),
 "data.image_size":T(224,"configs/_base_/datasets/imagenet_bs32.py:14 RandomResizedCrop scale 224"),
 "compile.enabled":T(False,"configs/_base_/default_runtime.py: no compile setting"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H14+"; docs/en/user_guides/train.md:101 ./tools/slurm_train.sh ${PARTITION} ${JOB_NAME} ${CONFIG_FILE} ${WORK_DIR} [PY_ARGS] with defaults GPUS=8 (srun python -u tools/train.py --launcher slurm; MMEngine Python config with _base_ inheritance; vision)")
# --- held out, fifteenth set (issue 15, jobsheld15): eight jobs from eight repositories in none of the
# jobs, configs and launch-scripts benchmarks, each labelled from the code at the pinned commit before
# preflight was run on any of them.
H15="fifteenth held-out set"
SR=("pmixer/SASRec.pytorch","fde8a9c08febc2c898dc269b1d98ab762c50d2be")
J("sasrec-ml1m-maxlen200",*SR,["python","README.md"],"python",["main.py","--","--dataset=ml-1m","--train_dir=default",
 "--maxlen=200","--dropout_rate=0.2","--device=cuda"],{
 "batch.micro":T(128,"main.py:17 --batch_size default 128, not given -> :56 WarpSampler(batch_size=args.batch_size) -> one optimizer step per sampled batch (:102-116)"),
 "batch.grad_accum":T(1,"main.py:108-116 zero_grad, backward, step on every batch"),
 "data.seq_len":T(200,"README.md:12 --maxlen=200 -> main.py:56 WarpSampler(maxlen=...) -> model.py:37,68-75 positions and causal mask over maxlen items"),
 "precision.mode":T("fp32","no autocast or half in main.py / model.py"),
 "optimizer.name":T("Adam","main.py:94 torch.optim.Adam",any_of=["Adam","adam"]),
 "dist.world_size":T(1,"python: one process, --device=cuda"),
 "dist.sharding":T("none","one process, no DDP/DataParallel in the repository"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H15+"; README.md:12 python main.py --dataset=ml-1m --train_dir=default --maxlen=200 --dropout_rate=0.2 --device=cuda, run from python/ (argparse at module level, raw loop; sequential recommendation). Not labelled: model size (item embedding rows = the item count of data/ml-1m.txt, read at run time, model.py:36), workers (WarpSampler's 3 multiprocessing sampler processes, main.py:56, not a DataLoader)")
DQ=("facebookresearch/drqv2","c0c650b76c6e5d22a7eb5f2edffd1440fe94f8ef")
J("drqv2-quadruped-walk-hydra",*DQ,["."],".",["train.py","--","task=quadruped_walk"],{
 "batch.micro":T(256,"cfgs/config.yaml:21 batch_size -> train.py:68-71 make_replay_loader -> replay_buffer.py:185-186 DataLoader(batch_size=batch_size)"),
 "batch.grad_accum":T(1,"drqv2.py update: one optimizer step per sampled batch"),
 "data.num_workers":T(4,"cfgs/config.yaml:19 replay_buffer_num_workers -> replay_buffer.py:187"),
 "data.pin_memory":T(True,"replay_buffer.py:188 pin_memory=True"),
 "data.image_size":T(84,"dmc.py:206 render_kwargs height=84, width=84 (pixels observations)"),
 "precision.mode":T("fp32","no autocast or half in the repository"),
 "optimizer.name":T("Adam","drqv2.py:148-150 torch.optim.Adam (encoder, actor, critic)",any_of=["Adam","adam"]),
 "dist.world_size":T(1,"python train.py without -m: one Hydra run, one process (the submitit_local launcher of cfgs/config.yaml:4 only serves --multirun)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H15+"; README.md:89 python train.py task=quadruped_walk (Hydra @hydra.main(config_path='cfgs', config_name='config') at train.py:207, task group file cfgs/task/quadruped_walk.yaml chosen by the override, agent built by hydra.utils.instantiate; pixel-based RL on the DeepMind Control Suite). Not labelled: model size (actor/critic input and output sizes from the environment's specs at run time, train.py:28-31)")
MR=("LTH14/mar","fe470ac24afbee924668d8c5c83e9fec60af3a73")
J("mar-large-imagenet256-torchrun-4x8",*MR,["."],".",["--","torchrun","--nproc_per_node=8","--nnodes=4","--node_rank=0",
 "--master_addr=10.0.0.1","--master_port=29500","main_mar.py","--img_size","256","--vae_path","pretrained_models/vae/kl16.ckpt",
 "--vae_embed_dim","16","--vae_stride","16","--patch_size","1","--model","mar_large","--diffloss_d","3","--diffloss_w","1024",
 "--epochs","400","--warmup_epochs","100","--batch_size","64","--blr","1.0e-4","--diffusion_batch_mul","4",
 "--output_dir","out","--resume","out","--data_path","/data/imagenet"],{
 "model.num_parameters":T(426000000,"--model mar_large -> models/mar.py:340-345 encoder and decoder 16 blocks each at 1024 (32 x 12.6M = 403M) + embeddings 3M + DiffLoss MLP --diffloss_d 3 --diffloss_w 1024 (models/diffloss.py: 3 AdaLN res blocks ~5.25M + time/cond/final ~4.5M = 20M), trainable only (VAE frozen, main_mar.py:188-190); counted by hand, the same count gives README.md:62's 479M for MAR-L with d8 w1280",rel_tol=0.1),
 "dist.world_size":T(32,"README.md:94 --nproc_per_node=8 --nnodes=4"),
 "dist.nodes":T(4,"README.md:94 --nnodes=4"),
 "dist.devices_per_node":T(8,"README.md:94 --nproc_per_node=8"),
 "dist.sharding":T("ddp","main_mar.py:227-228 DistributedDataParallel"),
 "batch.micro":T(64,"README.md:98 --batch_size 64 (per GPU, main_mar.py:27-28) -> :179-185 DataLoader"),
 "batch.global":T(2048,"main_mar.py:218 eff_batch_size = 64 x 32"),
 "batch.grad_accum":T(1,"engine_mar.py:77-78 loss_scaler steps the optimizer on every batch (update_grad=True)"),
 "precision.mode":T("amp_fp16","engine_mar.py:68 torch.cuda.amp.autocast() (fp16 by default) + main_mar.py:235 NativeScaler (GradScaler)"),
 "optimizer.name":T("AdamW","main_mar.py:233 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,"main_mar.py:113 --num_workers default 10"),
 "data.pin_memory":T(True,"main_mar.py:114-117 pin_mem default True -> :183"),
 "data.image_size":T(256,"README.md:96 --img_size 256 -> main_mar.py:162 center_crop_arr"),
 "memory.gradient_checkpointing":T(False,"main_mar.py:65 --grad_checkpointing store_true, not given (README.md:104 optional)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H15+"; README.md:94-100 torchrun --nproc_per_node=8 --nnodes=4 --node_rank=${NODE_RANK} ... main_mar.py ... (node 0 of 4; master address, output dir and ImageNet path filled). Raw DDP loop in a local module (engine_mar.train_one_epoch), model from mar.__dict__[args.model]; image generation")
IPA=("tencent-ailab/IP-Adapter","62e4af9d0c1ac7d5f8dd386a0ccf2211346af1a2")
ipt="tutorial_train.py"
J("ip-adapter-sd15-accelerate-8gpu-fp16",*IPA,["."],".",["--","accelerate","launch","--num_processes","8","--multi_gpu","--mixed_precision","fp16",
 ipt,"--pretrained_model_name_or_path=runwayml/stable-diffusion-v1-5/","--image_encoder_path=models/image_encoder",
 "--data_json_file=data.json","--data_root_path=images","--mixed_precision=fp16","--resolution=512","--train_batch_size=8",
 "--dataloader_num_workers=4","--learning_rate=1e-04","--weight_decay=0.01","--output_dir=out","--save_steps=10000"],{
 "model.ref":T("runwayml/stable-diffusion-v1-5","README.md:127 --pretrained_model_name_or_path -> "+ipt+":279-283 DDPMScheduler/CLIPTextModel/AutoencoderKL/UNet2DConditionModel.from_pretrained",any_of=["runwayml/stable-diffusion-v1-5","runwayml/stable-diffusion-v1-5/"]),
 "dist.world_size":T(8,"README.md:125 --num_processes 8 --multi_gpu"),
 "dist.sharding":T("ddp","README.md:125 --multi_gpu -> "+ipt+":350 accelerator.prepare (DDP)"),
 "batch.micro":T(8,"README.md:133 --train_batch_size=8 -> "+ipt+":341-347 DataLoader(batch_size=...)"),
 "batch.grad_accum":T(1,ipt+":268-272 Accelerator without gradient_accumulation_steps; :357 accelerator.accumulate is a pass-through, step every batch (:396)"),
 "precision.mode":T("amp_fp16","README.md:125,131 mixed_precision fp16 -> "+ipt+":268-272 Accelerator autocast; the UNet with the trained adapter stays fp32 (:330 unet.to(dtype) commented out), frozen VAE/text/image encoders cast to fp16 (:325-333)"),
 "optimizer.name":T("AdamW",ipt+":337 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"README.md:134 --dataloader_num_workers=4 -> "+ipt+":346"),
 "data.image_size":T(512,"README.md:132 --resolution=512 -> "+ipt+":340 MyDataset(size=...) -> :44-45 Resize + CenterCrop"),
 "memory.gradient_checkpointing":T(False,"never enabled in "+ipt),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H15+"; README.md:125-138 accelerate launch --num_processes 8 --multi_gpu --mixed_precision fp16 tutorial_train.py ... (placeholders {image_encoder_path}, {data.json}, {image_path}, {output_dir} filled). Raw Accelerate loop; only the image projection and the new to_k_ip/to_v_ip attention processors train (:286-289,336). Not labelled: peft.method / task.mode (an adapter that is neither LoRA nor a full fine-tune), text length (CLIP tokenizer 77)")
AST=("asteroid-team/asteroid","92c8d83a9dbe7c3afd1cd097e31254e0b4f82881")
ars="run.sh"
J("asteroid-convtasnet-librimix-lightning-2gpu",*AST,["egs/librimix/ConvTasNet","asteroid","requirements","requirements.txt","setup.py","pyproject.toml"],
 "egs/librimix/ConvTasNet",[ars,"--","--stage","2","--tag","my_tag","--id","0,1"],{
 "model.num_parameters":T(5050000,"local/conf.yml:2-13 ConvTasNet n_filters 512, kernel 16, bn_chan 128, hid_chan 512, skip_chan 128, 8 blocks x 3 repeats, n_src 2 ("+ars+":29-31,45) -> train.py:61-63; counted by hand from asteroid/masknn/convolutional.py: 24 Conv1DBlocks x 201k + bottleneck, mask conv and the two 512x16 filterbanks ~5.05M (Conv-TasNet paper: 5.1M)",rel_tol=0.1),
 "batch.micro":T(24,ars+":34 batch_size=24 -> :102 --batch_size overrides local/conf.yml:17 (6) -> train.py:44-50 DataLoader, per process"),
 "batch.grad_accum":T(1,"train.py:98-107 pl.Trainer without accumulate_grad_batches (default 1)"),
 "data.num_workers":T(4,ars+":35 -> :103 --num_workers -> train.py:48"),
 "data.pin_memory":T(False,"train.py:44-50 DataLoader without pin_memory (default False)"),
 "precision.mode":T("fp32","train.py:98-107 pl.Trainer without precision (default 32-true)"),
 "optimizer.name":T("Adam",ars+":39 optimizer=adam -> :106 -> train.py:64 make_optimizer -> asteroid/engine/optimizers.py:68,82-100 torch.optim.Adam by name",any_of=["Adam","adam"]),
 "dist.world_size":T(2,"--id 0,1 -> "+ars+":25,97 CUDA_VISIBLE_DEVICES=0,1 -> train.py:103-104 strategy ddp, devices auto: two processes"),
 "dist.devices_per_node":T(2,"two visible GPUs, devices='auto' (train.py:104)"),
 "dist.nodes":T(1,"train.py:98-107 no num_nodes (default 1)"),
 "dist.sharding":T("ddp","train.py:103 strategy='ddp'"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H15+"; ./run.sh --stage 2 --tag my_tag --id 0,1 from egs/librimix/ConvTasNet (run.sh:19 usage; Kaldi-style utils/parse_options.sh overrides shell variables from --name value pairs; train.py builds an argparse parser from local/conf.yml, prepare_parser_from_dict, and a PyTorch Lightning 2 Trainer over the library's System LightningModule; speech separation). Not labelled: audio lengths (3 s segments at 8 kHz)")
VC=("OpenGVLab/Ask-Anything","4dd8210b030374bb0c510a57dfbe916f70d3ef71")
vcs="scripts/videochat_mistral/slurm_run_7b_stage3.sh"
vcc="scripts/videochat_mistral/config_7b_stage3.py"
vcm="models/videochat_mistra/videochat2_it_mistral.py"
J("videochat2-mistral-7b-stage3-srun-4x8",*VC,["video_chat2"],"video_chat2",[vcs],{
 "model.ref":T("mistralai/Mistral-7B-Instruct-v0.2",vcc+":38 mistral_model_path (a local copy named by its hub name) -> "+vcm+":126-131 AutoModelForCausalLM.from_pretrained",
  any_of=["mistralai/Mistral-7B-Instruct-v0.2","Mistral-7B-Instruct-v0.2","your_model_path/llm//Mistral-7B-Instruct-v0.2"]),
 "dist.nodes":T(4,vcs+":13 NNODE=4 -> :18 srun -n4 --ntasks-per-node=1 -> :23 --nnodes=4"),
 "dist.devices_per_node":T(8,vcs+":14 NUM_GPUS=8 -> :24 --nproc_per_node=8 (torchrun.sh:13 passes $@ to torchrun)"),
 "dist.world_size":T(32,"4 nodes x 8"),
 "dist.sharding":T("ddp","tasks/shared_utils.py:49-54 DistributedDataParallel"),
 "batch.micro":T(4,vcc+":15 batch_size -> :30 inputs.batch_size image/video -> tasks/train_it.py:114-118 -> dataset/__init__.py:325-327 DataLoader(batch_size=bs), per process"),
 "batch.grad_accum":T(1,"tasks/train_it.py:62-70 zero_grad, backward, step on every batch"),
 "precision.mode":T("amp_fp16",vcc+":107 fp16=True -> tasks/train_it.py:59 torch.cuda.amp.autocast(enabled=config.fp16) + tasks/shared_utils.py:58 GradScaler (the frozen LLM is loaded in fp16, "+vcm+":128)"),
 "optimizer.name":T("AdamW",vcc+":87 opt adamW -> utils/optimizer.py:131-132 optim.AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("lora",vcc+":79 use_lora -> "+vcm+":144-151 LoraConfig + get_peft_model"),
 "peft.rank":T(16,vcc+":80 lora_r 16"),
 "task.mode":T("lora","fp16 frozen LLM + LoRA; vision encoder and Q-Former trained (freeze_vit/freeze_qformer False, "+vcc+":40-41)"),
 "model.attn_implementation":T("flash_attention_2",vcc+":78 use_flash_attention -> "+vcm+":125-131 attn_implementation='flash_attention_2'"),
 "data.num_workers":T(6,vcc+":8 -> tasks/train_it.py:118 -> dataset/__init__.py:328"),
 "data.pin_memory":T(False,"dataset/__init__.py:329 pin_memory=False"),
 "data.image_size":T(224,vcc+":21 image_res 224"),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H15+"; bash scripts/videochat_mistral/slurm_run_7b_stage3.sh from video_chat2/ (srun -n4 ... bash torchrun.sh --nnodes=4 --nproc_per_node=8 tasks/train_it.py <python config> output_dir X: a shell wrapper that hands $@ to torchrun; a Python config file read by the project's Config loader with key/value overrides; raw DDP loop; video LLM). Not labelled: gradient checkpointing (config :108 gradient_checkpointing is read by nothing; the vision encoder checkpoints 18 of 24 blocks, :56-57, the LLM none), sequence length (512 text tokens + 96 query tokens per clip), model size (hub config + UMT-L + Q-Former)")
GL=("mbzuai-oryx/groundingLMM","e74865f207d02c8cbb54795758b855acd6bb51bb")
J("glamm-gcg-finetune-deepspeed",*GL,["train.py","model","dataset","tools","docs","requirements.txt","README.md"],".",["--","deepspeed","--master_port","29500","train.py",
 "--version","MBZUAI/GLaMM-GranD-Pretrained","--dataset_dir","./data/","--vision_pretrained","./checkpoints/sam_vit_h_4b8939.pth",
 "--exp_name","glamm_gcg","--lora_r","8","--lr","3e-4","--pretrained","--use_segm_data",
 "--seg_dataset","Semantic_Segm||RefCoco_GCG||PSG_GCG||Flickr_GCG||GranDf_GCG","--segm_sample_rates","1,3,3,3,1",
 "--val_dataset","FlickrGCGVal|RefCocoGCGVal|PsgGCGVal","--epochs","10","--steps_per_epoch","500","--mask_validation"],{
 "model.ref":T("MBZUAI/GLaMM-GranD-Pretrained","docs/training.md:13,23 --version $PRETRAINED_HF_PATH -> train.py:167-169 GLaMMForCausalLM.from_pretrained(args.version)"),
 "batch.micro":T(2,"train.py:85 --batch_size default 2, not given -> :382 train_micro_batch_size_per_gpu and :339 DataLoader"),
 "batch.grad_accum":T(10,"train.py:86 --grad_accumulation_steps default 10 -> :383 gradient_accumulation_steps"),
 "data.seq_len":T(1536,"train.py:48 --model_max_length default 1536 -> :130-132 AutoTokenizer(model_max_length=...)"),
 "dist.sharding":T("zero2","train.py:391-393 zero_optimization stage 2 in the DeepSpeed dict"),
 "dist.offload_optimizer":T("none","train.py:391-393 no offload_optimizer"),
 "dist.reduce_bucket_size":T(500000000,"train.py:392 reduce_bucket_size 5e8"),
 "dist.allgather_bucket_size":T(500000000,"train.py:393 allgather_bucket_size 5e8"),
 "dist.overlap_comm":T(True,"train.py:391"),
 "dist.contiguous_gradients":T(True,"train.py:391"),
 "precision.mode":T("bf16","train.py:53 --precision default bf16 -> :389 DeepSpeed bf16 enabled (16-bit weights, fp32 master); model loaded bf16 at :168"),
 "optimizer.name":T("AdamW","train.py:384 DeepSpeed optimizer type AdamW (FusedAdam in AdamW mode)",any_of=["AdamW","adamw","FusedAdam"]),
 "memory.gradient_checkpointing":T(True,"train.py:183 model.gradient_checkpointing_enable()"),
 "peft.method":T("lora","--lora_r 8 > 0 -> train.py:229-231 get_peft_model(LoraConfig) on q_proj,v_proj"),
 "peft.rank":T(8,"docs/training.md:23 --lora_r 8"),
 "task.mode":T("lora","bf16 base + LoRA (mask decoder, text projection, embeddings and lm_head also trained, train.py:266-272)"),
 "data.num_workers":T(2,"train.py:88 --workers default 2 -> :339"),
 "data.pin_memory":T(False,"train.py:340 pin_memory False"),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H15+"; docs/training.md:23 deepspeed --master_port $MASTER_PORT train.py --version $PRETRAINED_HF_PATH ... (GCG fine-tune; $MASTER_PORT, $PRETRAINED_HF_PATH=MBZUAI/GLaMM-GranD-Pretrained (:13), $GROUNDING_ENC_CKPT_PATH (:14) and $OUTPUT_DIR_PATH filled). Raw deepspeed.initialize loop with the DeepSpeed config built as a Python dict from argparse values; LLaVA-based grounding VLM with a SAM mask decoder. Not labelled: world size (the deepspeed launcher with no --num_gpus or hostfile takes every local GPU; train.py:285 torch.cuda.device_count() at run time), image size (CLIP 336 for the global encoder, 1024 for the SAM grounding encoder), model size (hub config)")
LS=("princeton-nlp/LESS","8abf9628b9a814ac3045445eebc8ba3c908fdc78")
lsb="less/scripts/train/base_training_args.sh"
lsw="less/scripts/train/warmup_lora_train.sh"
J("less-warmup-lora-llama2-7b",*LS,["less","README.md","requirement.txt","setup.py"],".",[lsw,"--","../data","meta-llama/Llama-2-7b-hf","0.05","3","llama2-7b-p0.05-lora-seed3"],{
 "model.ref":T("meta-llama/Llama-2-7b-hf","README.md:47,53 MODEL_PATH as $2 -> "+lsw+":6,29 --model_name_or_path $model_path -> less/train/train.py:75-76"),
 "batch.micro":T(1,lsb+":33 --per_device_train_batch_size 1 (sourced at "+lsw+":3)"),
 "batch.grad_accum":T(32,lsb+":34 --gradient_accumulation_steps 32"),
 "data.seq_len":T(2048,lsb+":9 --max_seq_length 2048 -> less/train/train.py:69-73 get_training_dataset(max_seq_length=...)"),
 "precision.mode":T("amp_bf16",lsb+":18 --bf16 True with no torch_dtype (less/train/model_arguments.py:54-55 default None: fp32 weights) -> HF Trainer bf16 autocast"),
 "optimizer.name":T("adamw_torch",lsb+":23 --optim adamw_torch",any_of=["adamw_torch","AdamW","adamw"]),
 "peft.method":T("lora",lsb+":27 --lora True -> less/train/train.py:88-97 LoraConfig + get_peft_model"),
 "peft.rank":T(128,lsb+":28 --lora_r 128"),
 "task.mode":T("lora","fp32 base + LoRA"),
 "memory.gradient_checkpointing":T(False,"--gradient_checkpointing not given (TrainingArguments default False; train.py:103-109 only makes inputs require grad)"),
 "dist.world_size":T(1,lsb+":4 torchrun --nproc_per_node 1 --nnodes 1"),
 "dist.nodes":T(1,lsb+":4 --nnodes 1"),
 "dist.sharding":T("none","one process; the FSDP branch ("+lsw+":21-26) is only for Llama-2-13b and Mistral-7B",any_of=["none","ddp"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0, not given"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"TrainingArguments torch_compile default False, not given"),
},held_out=True,note=H15+"; README.md:46-53 ./less/scripts/train/warmup_lora_train.sh \"$DATA_DIR\" \"$MODEL_PATH\" \"$PERCENTAGE\" \"$DATA_SEED\" \"$JOB_NAME\" with the README's values (the script sources base_training_args.sh, whose exported strings hold the torchrun header and the Trainer flags, appends per-model flags in shell and runs eval \"$header\" \"$training_args\"; HF Trainer + HfArgumentParser + PEFT LoRA)")
H16="sixteenth held-out set"
SCA=("bigcode-project/starcoder2-self-align","0b19dbcdccb4db0601a9a77ac0df53c7abcfb8cc")
sct="src/star_align/train.py"
scw="src/star_align/llm_wrapper.py"
J("starcoder2-15b-instruct-accelerate-sft",*SCA,["src","README.md","pyproject.toml","requirements.txt"],".",["--","accelerate","launch","-m","star_align.train",
 "--model_key","bigcode/starcoder2-15b","--model_name_or_path","bigcode/starcoder2-15b","--use_flash_attention","True",
 "--datafile_paths","data/50k-dataset.jsonl","--output_dir","out/sc2-15b-instruct","--bf16","True","--num_train_epochs","4",
 "--max_training_seq_length","1280","--pad_to_max_length","False","--per_device_train_batch_size","1",
 "--gradient_accumulation_steps","64","--group_by_length","False","--ddp_find_unused_parameters","False","--logging_steps","1",
 "--log_level","info","--optim","adafactor","--max_grad_norm","-1","--warmup_ratio","0.05","--learning_rate","1e-5",
 "--lr_scheduler_type","linear","--attention_dropout","0.0","--residual_dropout","0.0","--embedding_dropout","0.0"],{
 "model.ref":T("bigcode/starcoder2-15b","README.md:233,242 MODEL_KEY -> --model_name_or_path -> "+scw+":452-457 AutoModelForCausalLM.from_pretrained"),
 "batch.micro":T(1,"README.md:250 --per_device_train_batch_size 1 (HfArgumentParser TrainingArguments, "+sct+":148)"),
 "batch.grad_accum":T(64,"README.md:251 --gradient_accumulation_steps 64"),
 "data.seq_len":T(1280,"README.md:236,248 SEQ_LEN=1280 -> --max_training_seq_length -> "+sct+":66-72 truncation; README.md:215 Sequence length 1280"),
 "precision.mode":T("bf16",scw+":427,452-454 from_pretrained(torch_dtype=torch.bfloat16): the Trainer's optimizer holds bf16 weights (no fp32 master) + README.md:246 --bf16 True"),
 "optimizer.name":T("adafactor","README.md:256 --optim adafactor (TrainingArguments -> transformers Adafactor)",any_of=["adafactor","Adafactor"]),
 "model.attn_implementation":T("flash_attention_2","README.md:243 --use_flash_attention True -> "+sct+":196 -> "+scw+":431-440 attn_implementation='flash_attention_2'"),
 "memory.gradient_checkpointing":T(False,"--gradient_checkpointing not given (TrainingArguments default False)"),
 "peft.method":T("none","full fine-tune: "+sct+":211-219 Trainer on the whole model, no PEFT"),
 "dist.sharding":T("none","no FSDP/DeepSpeed flag and no accelerate config; README.md:219 one A100 80GB",any_of=["none","ddp"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0, not given"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"TrainingArguments torch_compile default False, not given"),
},held_out=True,note=H16+"; README.md:232-263 accelerate launch -m star_align.train ... with MODEL_KEY=bigcode/starcoder2-15b, SEQ_LEN=1280, EPOCH=4, LR=1e-5, WARMUP_RATIO=0.05 expanded and the dataset/output placeholders filled (a package module under src/ run by accelerate launch -m; HfArgumentParser over ModelArguments, TrainingArguments and Args dataclasses; HF Trainer). Not labelled: world size (accelerate launch with no config file and no --num_processes takes every visible GPU; README.md:219 says one A100)")
LLMC=("karpathy/llm.c","f1e2ace651495b74ae22d45d1723443fd00ecd3a")
lcs="scripts/pyrun_gpt2_124M.sh"
lct="train_gpt2.py"
J("llmc-gpt2-124m-torchrun-zero1",*LLMC,["train_gpt2.py","scripts","README.md","requirements.txt"],".",[lcs],{
 "model.num_parameters":T(124439808,lcs+":14 --model d12 -> "+lct+":655 GPTConfig(block_size 1024, vocab 50257, n_layer 12, n_head 12, n_embd 768), tied wte/lm_head: GPT-2 124M",rel_tol=0.05),
 "dist.world_size":T(8,lcs+":7 torchrun --standalone --nproc_per_node=8"),
 "dist.nodes":T(1,lcs+":7 --standalone"),
 "dist.devices_per_node":T(8,lcs+":7"),
 "dist.sharding":T("zero1",lcs+":24 --zero_stage 1 -> "+lct+":262-265 ZeroRedundancyOptimizer(AdamW) under DDP (:707): optimizer states sharded, weights and gradients replicated"),
 "batch.micro":T(32,lcs+":15 --batch_size 32 (B, per process) -> "+lct+":581"),
 "data.seq_len":T(1024,lcs+":16 --sequence_length 1024"),
 "batch.grad_accum":T(2,lct+":622-624 total_batch_size 524288 ("+lcs+":17) // (32 x 1024 x 8)"),
 "batch.global":T(512,"32 sequences x 8 processes x 2 accumulation steps = 524288 tokens / 1024"),
 "precision.mode":T("amp_bf16",lcs+":18 --dtype bfloat16 -> "+lct+":629-630 torch.amp.autocast(bfloat16) over fp32 weights"),
 "compile.enabled":T(True,lcs+":19 --compile 1 -> "+lct+":667-670 torch.compile"),
 "optimizer.name":T("AdamW",lct+":264 ZeroRedundancyOptimizer(optimizer_class=torch.optim.AdamW, fused)",any_of=["AdamW","adamw","ZeroRedundancyOptimizer"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in "+lct),
 "peft.method":T("none","trained from scratch ("+lct+":651-658 random init)"),
},held_out=True,note=H16+"; bash scripts/pyrun_gpt2_124M.sh from the repo root (torchrun --standalone --nproc_per_node=8 train_gpt2.py ... the PyTorch reference of llm.c, a nanoGPT-like raw DDP loop with argparse; the accumulation is computed from a token budget). Not labelled: loader workers (a custom DistributedDataLoader over .bin shards, no torch DataLoader)")
CNX=("facebookresearch/ConvNeXt","048efcea897d999aed302f2639b6270aedf8d4c8")
J("convnext-small-in1k-distlaunch-amp",*CNX,["main.py","engine.py","optim_factory.py","utils.py","datasets.py","models","TRAINING.md","README.md","INSTALL.md"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=8","main.py","--model","convnext_small","--drop_path","0.4",
  "--batch_size","128","--lr","4e-3","--update_freq","4","--model_ema","true","--model_ema_eval","true",
  "--data_path","/datasets/imagenet-1k","--output_dir","out/convnext_small","--use_amp","true"],{
 "model.num_parameters":T(50220000,"--model convnext_small -> models/convnext.py:168-169 ConvNeXt(depths [3,3,27,3], dims [96,192,384,768]), 1000 classes (main.py:151); README.md:37 ConvNeXt-S 50M",rel_tol=0.1),
 "dist.world_size":T(8,"TRAINING.md:61 --nproc_per_node=8"),
 "dist.nodes":T(1,"one machine (TRAINING.md:59 Single-machine)"),
 "dist.devices_per_node":T(8,"TRAINING.md:61"),
 "dist.sharding":T("ddp","main.py:347 DistributedDataParallel"),
 "batch.micro":T(128,"TRAINING.md:63 --batch_size 128 (per GPU, TRAINING.md:26) -> main.py:250-253 DataLoader"),
 "batch.grad_accum":T(4,"TRAINING.md:63 --update_freq 4 -> engine.py:68-73 loss / update_freq, step every 4"),
 "batch.global":T(4096,"8 x 128 x 4 (TRAINING.md:40)"),
 "precision.mode":T("amp_fp16","--use_amp true (TRAINING.md:23) -> engine.py:52 torch.cuda.amp.autocast() (fp16) + main.py:355 NativeScaler (GradScaler)"),
 "optimizer.name":T("AdamW","main.py:74 --opt default adamw -> optim_factory.py:149-150 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,"main.py:179 --num_workers default 10 -> :253"),
 "data.pin_memory":T(True,"main.py:180 --pin_mem default True -> :254"),
 "data.image_size":T(224,"main.py:62 --input_size default 224"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/convnext.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch (main.py:278-279 pretrained=False)"),
},held_out=True,note=H16+"; TRAINING.md:59-67 ConvNeXt-S single-machine command (python -m torch.distributed.launch --nproc_per_node=8 main.py ...) with --use_amp true added as TRAINING.md:23 suggests and the data/output placeholders filled (argparse with str2bool flags, timm create_model by name, raw DDP loop in engine.py with accumulation; vision). Not labelled: the EMA copy of the weights (model_ema, no plan field)")
IJ=("facebookresearch/ijepa","52c1ae95d05f743e000e8f10a1f3a79b10cff048")
ijc="configs/in1k_vith14_ep300.yaml"
J("ijepa-vith14-in1k-3gpu-mp",*IJ,["."],".",["main.py","--","--fname",ijc,"--devices","cuda:0","cuda:1","cuda:2"],{
 "dist.world_size":T(3,"README.md:116-119 --devices cuda:0 cuda:1 cuda:2 -> main.py:58-65 one mp.Process per device, init_distributed(world_size 3)"),
 "dist.nodes":T(1,"main.py: local processes on one machine"),
 "dist.devices_per_node":T(3,"main.py:58 len(args.devices)"),
 "dist.sharding":T("ddp","src/train.py:221-223 DistributedDataParallel(encoder/predictor/target_encoder)"),
 "batch.micro":T(128,ijc+":2 data.batch_size -> src/train.py:93 -> src/datasets/imagenet1k.py:52-59 DataLoader(batch_size=...), per process"),
 "batch.grad_accum":T(1,"src/train.py:322-330 scaler.step/optimizer.step on every batch"),
 "precision.mode":T("amp_bf16",ijc+":40 meta.use_bfloat16 true -> src/train.py:316 torch.cuda.amp.autocast(dtype=bfloat16) + src/helper.py:155 GradScaler; fp32 weights"),
 "optimizer.name":T("AdamW","src/helper.py:142 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,ijc+":9 -> src/train.py:95 -> imagenet1k.py:59"),
 "data.pin_memory":T(True,ijc+":10 -> src/train.py:94 -> imagenet1k.py:58"),
 "data.image_size":T(224,ijc+":7 crop_size 224"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in src/models/vision_transformer.py or src/train.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pre-training from scratch ("+ijc+":35 load_checkpoint false)"),
},held_out=True,note=H16+"; README.md:116-119 python main.py --fname configs/in1k_vith14_ep300.yaml --devices cuda:0 cuda:1 cuda:2 (a YAML config read with yaml.load into a dict of sections; main.py spawns one multiprocessing.Process per device, no torchrun; raw loop with a context encoder, a predictor and an EMA target encoder; self-supervised vision). Not labelled: model size (ViT-H/14 encoder + 12-layer predictor trained, plus an EMA target encoder)")
OLM=("mlfoundations/open_lm","9bb92ef1689333534b7057942a20d18a46d1fa52")
J("open-lm-3b-torchrun-fsdp",*OLM,["open_lm","README.md","requirements.txt","setup.py"],".",["--","torchrun","--nproc-per-node","4","-m","open_lm.main",
 "--model","open_lm_3b","--train-data","/preproc_data/shard-{0000000..0000099}.tar","--train-num-samples","1000000000",
 "--workers","8","--dataset-resampled","--precision","amp_bfloat16","--global-batch-size","32","--grad-checkpointing",
 "--log-every-n-steps","100","--grad-clip-norm","1","--data-key","txt","--lr","3e-4","--fsdp","--fsdp-amp","--warmup","2000",
 "--wd","0.1","--beta2","0.95","--epochs","100","--report-to","wandb","--wandb-project-name","open_lm_example",
 "--name","open_lm_ex_1","--resume","latest","--logs","logs/"],{
 "model.num_parameters":T(2796000000,"--model open_lm_3b -> open_lm/model_configs/open_lm_3b.json:2-8 hidden 2560, 32 layers, vocab 50432, untied; open_lm/model.py:248-251 SwiGLU hidden 6912: 32 x 79.3M + 2 x 129.1M embeddings ~2.80B",rel_tol=0.05),
 "dist.world_size":T(4,"README.md:82 torchrun --nproc-per-node 4 (README.md:81 CUDA_VISIBLE_DEVICES=0,1,2,3)"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.devices_per_node":T(4,"README.md:82"),
 "dist.sharding":T("fsdp_full","--fsdp -> open_lm/main.py:548-557 FSDP with no sharding_strategy (default FULL_SHARD; --fsdp-hybrid not given)"),
 "batch.micro":T(8,"--global-batch-size 32 / 4 processes -> open_lm/main.py:326 per_gpu_batch_size (README.md:89 --batch-size 8 per GPU)"),
 "batch.global":T(32,"--global-batch-size 32"),
 "batch.grad_accum":T(1,"open_lm/params.py:553-556 --accum-freq default 1, not given"),
 "data.seq_len":T(2048,"open_lm/model_configs/open_lm_3b.json:5 seq_len 2048 -> open_lm/main.py:478 args.seq_len = model.seq_len"),
 "precision.mode":T("amp_bf16","README.md:88 --precision amp_bfloat16 -> open_lm/precision.py:7-10 autocast(bfloat16) + --fsdp-amp -> open_lm/main.py:518-524 FSDP MixedPrecision(param_dtype bf16, reduce fp32) over fp32 sharded weights"),
 "memory.gradient_checkpointing":T(True,"README.md:90 --grad-checkpointing -> open_lm/main.py:491-492 model.set_grad_checkpointing()"),
 "optimizer.name":T("AdamW","open_lm/params.py:373 --optimizer default adamw -> open_lm/main.py:644 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"README.md:86 --workers 8 -> open_lm/data.py:509-513 wds.WebLoader(num_workers=...)"),
 "compile.enabled":T(False,"--torchcompile not given (open_lm/params.py:436-439)"),
 "peft.method":T("none","pre-training from scratch"),
},held_out=True,note=H16+"; README.md:81-105 torchrun --nproc-per-node 4 -m open_lm.main ... with --batch-size 8 written as --global-batch-size 32: the README's --batch-size no longer exists in open_lm/params.py (argparse would refuse it; 8 per GPU x 4 GPUs kept); $RANDOM and the log path filled (a package module launched by torchrun -m, argparse, model sizes from JSON files named by --model, FSDP)")
NV=("huggingface/nanoVLM","4e0c0961846135c2217f95e54cb4c2d66eb55e42")
nvs="slurm/train_job_distributed.slurm"
J("nanovlm-450m-sbatch-torchrun-8gpu",*NV,["."],".",[nvs],{
 "model.num_parameters":T(460000000,"models/config.py:6-15 SigLIP2-base/16-512 ViT (~93M) + :17-33 SmolLM2-360M decoder (~362M, tied) + :37 pixel-shuffle 4 projector 12288->960 (~12M); README.md:22 nanoVLM-450M",rel_tol=0.1),
 "dist.world_size":T(8,nvs+":7,18 #SBATCH --gpus=8, torchrun --nproc_per_node=8"),
 "dist.nodes":T(1,nvs+":6 #SBATCH --nodes=1"),
 "dist.devices_per_node":T(8,nvs+":18"),
 "dist.sharding":T("ddp","train.py:100,343-345 DistributedDataParallel"),
 "batch.micro":T(2,"models/config.py:63 TrainConfig.batch_size 2 -> train.py:213-215 DataLoader(batch_size=...) per device"),
 "batch.grad_accum":T(8,"models/config.py:64 gradient_accumulation_steps 8 -> train.py:375,402-403"),
 "batch.global":T(128,"2 x 8 GPUs x 8 steps (train.py:103)"),
 "data.seq_len":T(4096,"models/config.py:30 lm_max_length 4096 -> train.py:199 ConstantLengthDataset(seq_length=...) packing"),
 "precision.mode":T("amp_bf16","train.py:394-397 torch.autocast(bfloat16) on cuda; weights loaded fp32 (no torch_dtype anywhere)"),
 "optimizer.name":T("AdamW","train.py:326 optim.AdamW(param_groups)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(3,"train.py:217"),
 "data.pin_memory":T(True,"train.py:218"),
 "data.image_size":T(512,"models/config.py:9 vit_img_size 512 (images split into 512 tiles)"),
 "compile.enabled":T(False,"models/config.py:73 compile False; train.py:341-342"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/ or train.py"),
 "peft.method":T("none","full training of projector, vision and language backbones (models/config.py:59-61 all learning rates > 0, train.py:310-326)"),
},held_out=True,note=H16+"; sbatch slurm/train_job_distributed.slurm (#SBATCH --nodes=1 --gpus=8; cd to the author's checkout, source .venv, torchrun --nproc_per_node=8 train.py with no arguments: every setting from the VLMConfig/TrainConfig dataclass defaults in models/config.py; raw DDP loop with bf16 autocast; vision-language model)")
IDF=("openai/improved-diffusion","1bc7bbbdc414d83d4abf2ad8cc1446dc36c4e4d5")
J("improved-diffusion-cifar10-mpiexec-4",*IDF,["."],".",["--","mpiexec","-n","4","python","scripts/image_train.py","--data_dir","cifar_train",
 "--image_size","32","--num_channels","128","--num_res_blocks","3","--learn_sigma","True","--dropout","0.3",
 "--diffusion_steps","4000","--noise_schedule","cosine","--lr","1e-4","--batch_size","32"],{
 "model.num_parameters":T(50000000,"README.md:95 MODEL_FLAGS image_size 32, num_channels 128, 3 res blocks, learn_sigma -> improved_diffusion/script_util.py UNetModel; README.md:92 checkpoint cifar10_uncond_50M",rel_tol=0.1),
 "dist.world_size":T(4,"README.md:53 mpiexec -n $NUM_GPUS with 4 -> improved_diffusion/dist_util.py setup_dist over MPI.COMM_WORLD"),
 "dist.sharding":T("ddp","improved_diffusion/train_util.py:97 DDP"),
 "batch.micro":T(32,"--batch_size 32 (README.md:56: divide the 128 of README.md:97 by the 4 ranks) -> scripts/image_train.py:35 load_data(batch_size) -> improved_diffusion/image_datasets.py:49-51; train_util.py:53 microbatch -1 -> the whole batch"),
 "batch.grad_accum":T(1,"scripts/image_train.py:68 microbatch default -1: one forward/backward per batch (train_util.py:53)"),
 "batch.global":T(128,"32 x 4 ranks"),
 "precision.mode":T("fp32","scripts/image_train.py:73 use_fp16 default False, not given"),
 "optimizer.name":T("AdamW","improved_diffusion/train_util.py:10,82 AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(1,"improved_diffusion/image_datasets.py:49-51 DataLoader(num_workers=1)"),
 "data.image_size":T(32,"README.md:95 --image_size 32"),
 "memory.gradient_checkpointing":T(False,"improved_diffusion/script_util.py:33 use_checkpoint default False, not given"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","trained from scratch"),
},held_out=True,note=H16+"; README.md:53 mpiexec -n $NUM_GPUS python scripts/image_train.py --data_dir ... $MODEL_FLAGS $DIFFUSION_FLAGS $TRAIN_FLAGS with the CIFAR-10 flags of README.md:95-97 expanded, NUM_GPUS=4 and --batch_size 128/4 as README.md:56 asks (MPI launcher, argparse built from a defaults dict by add_dict_to_argparser; diffusion)")
DP=("tdrussell/diffusion-pipe","8f83dbf25d03219df705570ec03e62be04bc402f")
dpc="examples/main_example.toml"
J("diffusion-pipe-hunyuan-video-lora-deepspeed",*DP,["train.py","examples","utils","models","README.md","requirements.txt","docs"],".",["--","deepspeed","--num_gpus=1","train.py","--deepspeed","--config",dpc],{
 "dist.world_size":T(1,"README.md:118 deepspeed --num_gpus=1"),
 "dist.sharding":T("none","train.py:423-428 DeepSpeed config without zero_optimization (stage 0) and "+dpc+":23 pipeline_stages 1 on one GPU",any_of=["none","ddp"]),
 "batch.micro":T(1,dpc+":19 micro_batch_size_per_gpu 1 -> train.py:424"),
 "batch.grad_accum":T(1,dpc+":26 -> train.py:425"),
 "memory.gradient_checkpointing":T(True,dpc+":76 activation_checkpointing true -> train.py:587-594"),
 "peft.method":T("lora",dpc+":134-135 [adapter] type lora"),
 "peft.rank":T(32,dpc+":136"),
 "task.mode":T("lora","LoRA on a float8 HunyuanVideo transformer (bf16 adapters)",any_of=["lora","qlora"]),
 "precision.weights_bits":T(8,dpc+":129 transformer_dtype float8 (fp8 e4m3 base weights)"),
 "precision.mode":T("bf16",dpc+":127,138 dtype bfloat16, adapter dtype bfloat16; train.py:423-428 no DeepSpeed fp16/bf16 section: the LoRA weights are trained in bf16 directly (optimi AdamW with Kahan summation, "+dpc+":154)"),
 "optimizer.name":T("adamw_optimi",dpc+":156 type adamw_optimi -> train.py:676-678 optimi.AdamW",any_of=["adamw_optimi","AdamW","adamw"]),
 "compile.enabled":T(False,dpc+":100 compile commented out -> train.py:142 default False"),
},held_out=True,note=H16+"; README.md:118 NCCL_P2P_DISABLE=1 NCCL_IB_DISABLE=1 deepspeed --num_gpus=1 train.py --deepspeed --config examples/hunyuan_video.toml; that file is gone at this commit and examples/main_example.toml is the HunyuanVideo example (README.md:112), so it is named instead (TOML config with a [model]/[adapter]/[optimizer] table and a dataset TOML; DeepSpeed pipeline engine; video diffusion LoRA). Not labelled: model size (local ComfyUI safetensors paths), resolution and frames (dataset.toml buckets)")
OVLA=("openvla/openvla","c8f03f48af692657d3060c19588038c7220e9af9")
ovf="vla-scripts/finetune.py"
J("openvla-7b-lora-finetune-torchrun",*OVLA,["vla-scripts","prismatic","README.md","pyproject.toml","requirements-min.txt"],".",["--","torchrun","--standalone","--nnodes","1","--nproc-per-node","1",ovf,
 "--vla_path","openvla/openvla-7b","--data_root_dir","datasets/open-x-embodiment","--dataset_name","bridge_orig",
 "--run_root_dir","runs","--adapter_tmp_dir","adapter-tmp","--lora_rank","32","--batch_size","16",
 "--grad_accumulation_steps","1","--learning_rate","5e-4","--image_aug","True","--wandb_project","openvla",
 "--wandb_entity","me","--save_steps","5000"],{
 "model.ref":T("openvla/openvla-7b","README.md:185 --vla_path -> "+ovf+":158-164 AutoModelForVision2Seq.from_pretrained(cfg.vla_path)"),
 "dist.world_size":T(1,"README.md:184 torchrun --standalone --nnodes 1 --nproc-per-node 1"),
 "dist.nodes":T(1,"README.md:184 --nnodes 1"),
 "dist.devices_per_node":T(1,"README.md:184 --nproc-per-node 1"),
 "dist.sharding":T("ddp",ovf+":185 DDP(vla) (one process)",any_of=["ddp","none"]),
 "batch.micro":T(16,"README.md:191 --batch_size 16 (draccus FinetuneConfig, "+ovf+":87) -> :232-234 DataLoader(batch_size=...)"),
 "batch.grad_accum":T(1,"README.md:192 --grad_accumulation_steps 1 -> "+ovf+":264,315"),
 "precision.mode":T("amp_bf16",ovf+":158-161 from_pretrained(torch_dtype=bfloat16) frozen base + :254 torch.autocast(bfloat16); LoRA adapters trainable (PEFT get_peft_model keeps them fp32 by default)",any_of=["amp_bf16","bf16"]),
 "peft.method":T("lora",ovf+":99 use_lora default True -> :172-181 LoraConfig(target_modules all-linear) + get_peft_model"),
 "peft.rank":T(32,"README.md:190 --lora_rank 32 -> "+ovf+":175"),
 "task.mode":T("lora","bf16 base + LoRA; "+ovf+":102 use_quantization default False (no 4-bit)"),
 "precision.weights_bits":T(16,ovf+":102,143-148 no quantization_config: bf16 weights"),
 "optimizer.name":T("AdamW",ovf+":35,189 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,ovf+":237 num_workers=0"),
 "memory.gradient_checkpointing":T(False,"never enabled in "+ovf),
 "compile.enabled":T(False,"no torch.compile"),
},held_out=True,note=H16+"; README.md:184-197 torchrun --standalone --nnodes 1 --nproc-per-node 1 vla-scripts/finetune.py ... with the placeholders (data/run/adapter dirs, image_aug, wandb, save_steps) filled (a draccus dataclass config parsed by @draccus.wrap, HF AutoModelForVision2Seq with trust_remote_code, PEFT LoRA on all linear layers, raw DDP loop with bf16 autocast; vision-language-action model). Not labelled: image size (224 from the hub config's image_sizes, read at run time, :219), sequence length (prompt + 7 action tokens, no fixed length), model size (hub config)")
YV7=("WongKinYiu/yolov7","a207844b1ce82d204ab36d87d496728d3d2348e7")
J("yolov7-coco-distlaunch-4gpu",*YV7,["train.py","cfg","data","models","utils","README.md","requirements.txt"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node","4","--master_port","9527","train.py","--workers","8",
  "--device","0,1,2,3","--sync-bn","--batch-size","128","--data","data/coco.yaml","--img","640","640",
  "--cfg","cfg/training/yolov7.yaml","--weights","","--name","yolov7","--hyp","data/hyp.scratch.p5.yaml"],{
 "dist.world_size":T(4,"README.md:107 --nproc_per_node 4 -> train.py:568 WORLD_SIZE"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes"),
 "dist.devices_per_node":T(4,"README.md:107 --nproc_per_node 4, --device 0,1,2,3"),
 "dist.sharding":T("ddp","train.py:277 DDP"),
 "batch.micro":T(32,"--batch-size 128 is the total for all GPUs (train.py:534) -> train.py:594,601-602 batch_size = 128 // 4 -> :245 create_dataloader"),
 "batch.global":T(128,"train.py:594 total_batch_size 128"),
 "batch.grad_accum":T(1,"train.py:110-111 accumulate = max(round(64 / 128), 1) = 1 (the warmup interpolation at :344 also rounds to at most 1)"),
 "precision.mode":T("amp_fp16","train.py:19,360 torch.cuda.amp.autocast(enabled=cuda) (fp16) + :299 GradScaler"),
 "optimizer.name":T("SGD","--adam not given -> train.py:183 optim.SGD(nesterov=True)",any_of=["SGD","sgd"]),
 "data.pin_memory":T(True,"utils/datasets.py:89 pin_memory=True"),
 "data.image_size":T(640,"README.md:107 --img 640 640 (argparse prefix of --img-size, train.py:535)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/ or train.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","--weights '' : trained from scratch"),
},held_out=True,note=H16+"; README.md:107 python -m torch.distributed.launch --nproc_per_node 4 --master_port 9527 train.py ... --sync-bn --batch-size 128 --img 640 640 --cfg cfg/training/yolov7.yaml --hyp data/hyp.scratch.p5.yaml (argparse with a total batch size divided by the world size in code, a YAML model definition and a YAML hyperparameter file; raw DDP loop with AMP; object detection). Not labelled: loader workers (min(cpu_count // world, batch, 8) at run time, utils/datasets.py:81), model size (built from the YAML layer list, cfg/training/yolov7.yaml)")
H17="seventeenth held-out set"
MMD=("jingyaogong/minimind","d65ef2c00ebc6082f9df11541e1b191655eddb00")
mmp="train_pretrain.py"
J("minimind-64m-pretrain-torchrun-2gpu",*MMD,["trainer","model","dataset","README.md","README_en.md","requirements.txt"],"trainer",
 ["--","torchrun","--nproc_per_node","2",mmp],{
 "model.num_parameters":T(64000000,"model/model_minimind.py:12-26 MiniMindConfig defaults (hidden 768, 8 layers, 8 heads / 4 kv heads, intermediate ceil(768*pi/64)*64=2432, vocab 6400, tied embeddings) -> ~63.9M; README_en.md:103 minimind-3 64M",rel_tol=0.1),
 "dist.world_size":T(2,"invocation torchrun --nproc_per_node 2 (README_en.md:352 torchrun --nproc_per_node N train_xxx.py, :679 'set >=2')"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp",mmp+":154 DistributedDataParallel when torchrun set RANK (trainer_utils.py:44-51)"),
 "batch.micro":T(32,mmp+":88 --batch_size default 32 -> :161-162 SkipBatchSampler(batch_size)"),
 "batch.grad_accum":T(8,mmp+":93 --accumulation_steps default 8 -> train loop step % accumulation_steps"),
 "data.seq_len":T(340,mmp+":99 --max_seq_len default 340 -> PretrainDataset(max_length)"),
 "precision.mode":T("amp_bf16",mmp+":91 --dtype default bfloat16 -> :121-122 torch.cuda.amp.autocast(dtype=bfloat16); :137 GradScaler disabled (only for float16); fp32 weights"),
 "optimizer.name":T("AdamW",mmp+":138 optim.AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "data.num_workers":T(8,mmp+":92 --num_workers default 8 -> :162"),
 "data.pin_memory":T(True,mmp+":162 pin_memory=True"),
 "compile.enabled":T(False,mmp+":106 --use_compile default 0 -> :150"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in model/model_minimind.py or the trainer"),
 "peft.method":T("none","full pretraining from scratch (:102 --from_weight none)"),
},held_out=True,note=H17+"; README_en.md:670,679 cd trainer && torchrun --nproc_per_node 1 train_pretrain.py with N=2 as the comment asks (argparse defaults only, a custom Qwen3-like model class built from a config class with keyword defaults, raw DDP loop with bf16 autocast and a GradScaler that is off for bf16)")
BNG=("karpathy/build-nanogpt","6104ab1b53920f6e2159749676073ff7d815c1fa")
bn="train_gpt2.py"
J("build-nanogpt-124m-torchrun-8gpu",*BNG,["."],".",["--","torchrun","--standalone","--nproc_per_node=8",bn],{
 "model.num_parameters":T(124500000,bn+":339 GPT(GPTConfig(vocab_size=50304)) with :72-77 defaults n_layer 12 n_head 12 n_embd 768 block 1024, :94 lm_head tied to wte -> ~124.5M",rel_tol=0.1),
 "dist.world_size":T(8,bn+":281 torchrun --standalone --nproc_per_node=8"),
 "dist.nodes":T(1,"--standalone"),
 "dist.sharding":T("ddp",bn+":345-346 DDP(model) when RANK is set"),
 "batch.micro":T(64,bn+":325 B = 64"),
 "data.seq_len":T(1024,bn+":326 T = 1024"),
 "batch.grad_accum":T(1,bn+":324,328 grad_accum_steps = 524288 // (64 * 1024 * 8) = 1"),
 "batch.global":T(512,"64 sequences x 1 step x 8 ranks (524288 tokens / 1024)"),
 "precision.mode":T("amp_bf16",bn+":492 torch.autocast(bfloat16) around the forward; fp32 weights, no scaler"),
 "optimizer.name":T("AdamW",bn+":201 torch.optim.AdamW(fused=use_fused)",any_of=["AdamW","adamw","adamw_torch","adamw_torch_fused"]),
 "compile.enabled":T(False,bn+":342 use_compile = False"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "model.attn_implementation":T("sdpa",bn+":36 F.scaled_dot_product_attention(is_causal=True)",any_of=["sdpa","flash_attention_2"]),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H17+"; "+bn+":281 torchrun --standalone --nproc_per_node=8 train_gpt2.py (a single module-level script, no argparse: hyperparameters are module constants, the accumulation is derived from a token budget divided by B*T*world size; a custom DataLoaderLite, no torch DataLoader)")
LIN=("facebookresearch/lingua","437d680e521873bb5971067148a69587790da853")
lcd="apps/main/configs/debug.yaml"
J("lingua-debug-fsdp2-torchrun-8gpu",*LIN,["apps","lingua","setup","README.md","requirements.txt"],".",
 ["--","torchrun","--nproc-per-node","8","-m","apps.main.train","config="+lcd],{
 "model.num_parameters":T(103300000,lcd+":23-25 dim 1024, 8 layers, 8 heads; lingua/transformer.py:442-445 FFN hidden 2816; :38 tokenizer bytes -> lingua/tokenizer.py:52 258 words; apps/main/transformer.py:69 untied output -> ~103M",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:43 torchrun --nproc-per-node 8"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_full",lcd+":15 fsdp_type full_shard -> apps/main/train.py:147-159 dp_replicate = 8 (dp_shard 1) -> lingua/distributed.py:434-463 fully_shard on every layer and the root over the 8-rank 1-D mesh (FSDP2: parameters sharded over all 8 ranks)"),
 "precision.mode":T("amp_bf16",lcd+":17 model_dtype bf16 -> lingua/distributed.py:436-439 MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32): fp32 sharded parameters, bf16 compute"),
 "batch.micro":T(32,lcd+":31 data.batch_size 32 (per rank)"),
 "batch.grad_accum":T(1,"apps/main/train.py:84 grad_acc_steps default 1, not set in "+lcd),
 "batch.global":T(256,"32 x 1 x 8 ranks"),
 "data.seq_len":T(2048,lcd+":33 seq_len 2048"),
 "compile.enabled":T(True,lcd+":16 compile: true -> lingua/distributed.py:476-480 model.compile()"),
 "memory.gradient_checkpointing":T(False,lcd+":19 selective_activation_checkpointing false"),
 "optimizer.name":T("AdamW","lingua/optim.py:151-157 torch AdamW(fused=True)",any_of=["AdamW","adamw","adamw_torch_fused"]),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H17+"; README.md:42-43 torchrun --nproc-per-node 8 -m apps.main.train config=apps/main/configs/debug.yaml (OmegaConf dataclass config from a YAML named as key=value on the command line, python -m module launch, FSDP2 fully_shard with a mixed-precision policy and model.compile())")
QVL=("2U1/Qwen2-VL-Finetune","6695161adfbd1da24a2a12fb172f005b59e723e3")
qsh="scripts/finetune_lora.sh"
qts="src/train/train_sft.py"
J("qwen25-vl-3b-lora-deepspeed-zero3-offload",*QVL,["scripts","src","README.md","requirements.txt","environment.yaml"],".",[qsh],{
 "model.ref":T("Qwen/Qwen2.5-VL-3B-Instruct",qsh+":6 MODEL_NAME -> :28 --model_id -> "+qts+":136-142 Qwen2_5_VLForConditionalGeneration.from_pretrained"),
 "dist.world_size":T(8,qsh+":13 NUM_DEVICES=8 (the deepspeed launcher at :18 without --num_gpus uses every GPU of the node; the script sizes the accumulation for 8)"),
 "dist.nodes":T(1,"deepspeed launcher without a hostfile"),
 "batch.micro":T(4,qsh+":12 BATCH_PER_DEVICE=4 -> :40"),
 "batch.grad_accum":T(4,qsh+":11-14 GRAD_ACCUM_STEPS=$((128 / (4 * 8))) = 4 -> :41"),
 "batch.global":T(128,qsh+":11 GLOBAL_BATCH_SIZE=128"),
 "dist.sharding":T("zero3",qsh+":27 --deepspeed scripts/zero3_offload.json -> zero3_offload.json:23 stage 3"),
 "dist.offload_optimizer":T("cpu","scripts/zero3_offload.json:24-27"),
 "dist.offload_params":T("cpu","scripts/zero3_offload.json:28-31"),
 "dist.stage3_max_live_parameters":T(1000000000,"scripts/zero3_offload.json:38 1e9"),
 "dist.overlap_comm":T(True,"scripts/zero3_offload.json:32"),
 "dist.contiguous_gradients":T(True,"scripts/zero3_offload.json:33"),
 "dist.save_16bit_weights":T(True,"scripts/zero3_offload.json:40 gather_16bit_weights_on_model_save"),
 "precision.mode":T("bf16",qsh+":35 --bf16 True -> zero3_offload.json:10-12 bf16 auto (DeepSpeed bf16: 16-bit weights, fp32 master); "+qts+":118,139,184-186 model loaded and cast to bf16"),
 "optimizer.name":T("AdamW","scripts/zero3_offload.json:13-21 DeepSpeed optimizer AdamW (replaces TrainingArguments optim; with CPU offload DeepSpeed runs it as DeepSpeedCPUAdam)",any_of=["AdamW","adamw","cpu_adam","DeepSpeedCPUAdam"]),
 "memory.gradient_checkpointing":T(True,qsh+":52 --gradient_checkpointing True -> "+qts+":162-167"),
 "model.attn_implementation":T("flash_attention_2",qsh+":37 --disable_flash_attn2 False -> "+qts+":140"),
 "peft.method":T("lora",qsh+":20 --lora_enable True -> "+qts+":175-190 LoraConfig + get_peft_model"),
 "peft.rank":T(64,qsh+":23 --lora_rank 64"),
 "precision.weights_bits":T(16,"src/params.py:136-138 bits default 16 (no 4/8-bit): "+qts+":121 skips BitsAndBytesConfig"),
 "loss.implementation":T("fused",qsh+":19 --use_liger True -> "+qts+":86-87 apply_liger_kernel_to_qwen2_5_vl (fused linear cross-entropy by default)",any_of=["fused","chunked"]),
 "data.num_workers":T(4,qsh+":58 --dataloader_num_workers 4"),
},held_out=True,note=H17+"; README.md:296 bash scripts/finetune_lora.sh (shell variables with $(( )) arithmetic, a deepspeed launcher line, HfArgumentParser dataclasses subclassing TrainingArguments, a ZeRO-3 config with CPU offload and 'auto' values, Liger kernels, PEFT LoRA on the LLM while the vision tower is trained in full (:32 --freeze_vision_tower False), vision-language model). Not labelled: sequence length (src/params.py:120 max_seq_length 32768 but the truncation is commented out, src/dataset/sft_dataset.py:182), task.mode (LoRA LLM plus fully trained vision tower and merger)")
AIT=("ostris/ai-toolkit","27a03a91f23eb1b757d5ec2e80ee3e129cfcc350")
aiy="config/examples/train_lora_flux_24gb.yaml"
J("ai-toolkit-flux-dev-lora-24gb",*AIT,["run.py","config","jobs","toolkit","extensions_built_in","requirements.txt","README.md"],".",["run.py","--",aiy],{
 "model.ref":T("black-forest-labs/FLUX.1-dev",aiy+":66 model.name_or_path"),
 "dist.world_size":T(1,"python run.py: one process; "+aiy+":12 device cuda:0"),
 "batch.micro":T(1,aiy+":41 train.batch_size 1"),
 "batch.grad_accum":T(1,aiy+":43"),
 "memory.gradient_checkpointing":T(True,aiy+":46"),
 "optimizer.name":T("adamw8bit",aiy+":48 -> toolkit/optimizer.py:70-71 bitsandbytes AdamW8bit",any_of=["adamw8bit","AdamW8bit","adamw_bnb_8bit","paged_adamw_8bit"]),
 "peft.method":T("lora",aiy+":16-18 network type lora"),
 "peft.rank":T(16,aiy+":18 linear 16"),
 "task.mode":T("qlora",aiy+":68 quantize: true: LoRA over an 8-bit (qfloat8) quantized FLUX transformer",any_of=["qlora","lora"]),
 "precision.weights_bits":T(8,aiy+":68 quantize true -> toolkit/config_modules.py:687 qtype default qfloat8 -> toolkit/stable_diffusion_model.py:799 optimum.quanto quantize"),
 "precision.mode":T("bf16",aiy+":63 train dtype bf16: frozen base in bf16 (quantized), jobs/process/BaseSDTrainProcess.py:1983 LoRA network kept in fp32, no autocast for FLUX (toolkit/accelerator.py:10 Accelerator() without mixed precision)",any_of=["bf16","amp_bf16"]),
},held_out=True,note=H17+"; README.md:196-198 python run.py config/whatever_you_want.yml with the example config/examples/train_lora_flux_24gb.yaml (a YAML job file read by a job runner, config -> process list -> train/model/network sections; diffusion LoRA on FLUX.1-dev with an 8-bit quanto base). Not labelled: image size (buckets 512/768/1024, :39), model size (hub model)")
FAT=("Dao-AILab/flash-attention","0251105a2fb19d2957484b7f023cd8c115286ced")
fab="configs/experiment/owt/base.yaml"
fas="configs/experiment/owt/gpt2s-flash.yaml"
J("flash-attn-training-gpt2s-hydra-lightning-8gpu",*FAT,["training"],"training",["run.py","--","experiment=owt/gpt2s-flash","trainer.devices=8"],{
 "model.num_parameters":T(124400000,"configs/model/gpt2model/gpt2-small.yaml n_layer 12 n_embd 768 + "+fas+":15 vocab padded to 50264, tied embeddings (flash_attn GPTLMHeadModel) -> ~124M (README.md:139 '# 125M')",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:139 trainer.devices=8, "+fab+":26 num_nodes 1"),
 "dist.nodes":T(1,fab+":26 num_nodes 1"),
 "dist.devices_per_node":T(8,"trainer.devices=8"),
 "dist.sharding":T("ddp",fab+":33 strategy null -> src/train.py:97-101 DDPStrategy for more than one device"),
 "batch.micro":T(64,fas+":19 batch_size = 64 when train.gpu_mem >= 40 (GB of GPU 0 read with nvidia-smi, "+fab+":43); the benchmark's a100-80gb gives 64 (README.md:144 defaults set for 8 x A100 80GB)"),
 "batch.grad_accum":T(1,fab+":27 accumulate_grad_batches = div_up(512, 8 * 64 * 1) = 1"),
 "batch.global":T(512,fab+":44 global_batch_size 512"),
 "data.seq_len":T(1024,fab+":38 datamodule.max_length 1024"),
 "precision.mode":T("amp_fp16",fab+":31 trainer.precision 16 (Lightning native AMP fp16)"),
 "optimizer.name":T("FusedAdam",fab+":9 optimizer adamw-apex -> configs/optimizer/adamw-apex.yaml apex.optimizers.FusedAdam(adam_w_mode=True)",any_of=["FusedAdam","apex_fused_adam","adamw_apex_fused","AdamW","adamw"]),
 "data.num_workers":T(1,"src/datamodules/language_modeling_hf.py:285 num_workers=1 in the DataLoader (the config's num_workers 32 is for preprocessing)"),
 "data.pin_memory":T(True,"configs/datamodule/openwebtext.yaml pin_memory True -> language_modeling_hf.py:289"),
 "memory.gradient_checkpointing":T(False,"configs/experiment/owt/gpt2m-flash.yaml:6-9 mlp_checkpoint_lvl only in a comment; none set for gpt2s"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H17+"; training/README.md:139 python run.py experiment=owt/gpt2s-flash trainer.devices=8 (Hydra with experiment configs that override defaults lists, OmegaConf ${eval:} resolvers (batch size chosen from the GPU memory read at run time), instantiated PyTorch Lightning Trainer and LightningModule, apex FusedAdam, flash-attn's own GPT model)")
FEM=("FlagOpen/FlagEmbedding","7ed43d67ec03fbe5c31c0992dbfa941fb1860549")
fer="examples/finetune/embedder/README.md"
J("flagembedding-bge-large-embedder-torchrun-ds0",*FEM,["examples/finetune","FlagEmbedding","setup.py","README.md"],"examples/finetune/embedder",
 ["--","torchrun","--nproc_per_node","2","-m","FlagEmbedding.finetune.embedder.encoder_only.base","--model_name_or_path","BAAI/bge-large-en-v1.5",
  "--cache_dir","./cache/model","--train_data","./example_data/retrieval","./example_data/sts/sts.jsonl","./example_data/classification-no_in_batch_neg",
  "./example_data/clustering-no_in_batch_neg","--cache_path","./cache/data","--train_group_size","8","--query_max_len","512","--passage_max_len","512",
  "--pad_to_multiple_of","8","--query_instruction_for_retrieval","Represent this sentence for searching relevant passages: ","--query_instruction_format","{}{}",
  "--knowledge_distillation","False","--output_dir","./test_encoder_only_base_bge-large-en-v1.5","--overwrite_output_dir","--learning_rate","1e-5","--fp16",
  "--num_train_epochs","2","--per_device_train_batch_size","2","--dataloader_drop_last","True","--warmup_ratio","0.1","--gradient_checkpointing",
  "--deepspeed","../ds_stage0.json","--logging_steps","1","--save_steps","1000","--negatives_cross_device","--temperature","0.02",
  "--sentence_pooling_method","cls","--normalize_embeddings","True","--kd_loss_type","kl_div"],{
 "model.ref":T("BAAI/bge-large-en-v1.5",fer+":172 --model_name_or_path -> FlagEmbedding/finetune/embedder/encoder_only/base/runner.py:32 AutoModel.from_pretrained"),
 "dist.world_size":T(2,fer+":170 torchrun --nproc_per_node 2"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp",fer+":195 --deepspeed ../ds_stage0.json -> examples/finetune/ds_stage0.json:2-4 stage 0 (data parallel)"),
 "batch.micro":T(2,fer+":191 --per_device_train_batch_size 2 (queries; each with 8 passages, :179)"),
 "batch.grad_accum":T(1,"TrainingArguments default 1, not given (ds_stage0.json gradient_accumulation_steps auto)"),
 "data.seq_len":T(512,fer+":180-181 --query_max_len 512 --passage_max_len 512"),
 "precision.mode":T("fp16",fer+":189 --fp16 -> ds_stage0.json:6-13 fp16 enabled auto: DeepSpeed fp16 (16-bit weights, fp32 master, dynamic loss scale)"),
 "optimizer.name":T("AdamW","examples/finetune/ds_stage0.json:19-27 DeepSpeed optimizer AdamW (replaces TrainingArguments optim)",any_of=["AdamW","adamw","FusedAdam"]),
 "memory.gradient_checkpointing":T(True,fer+":194 --gradient_checkpointing -> encoder_only/base/modeling.py:183 gradient_checkpointing_enable"),
 "peft.method":T("none","encoder_only.base trains the full model (no LoRA arguments)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0, not given"),
},held_out=True,note=H17+"; examples/finetune/embedder/README.md:170-202 torchrun --nproc_per_node 2 -m FlagEmbedding.finetune.embedder.encoder_only.base ... run from examples/finetune/embedder (python -m launch of a package module at the repository root, HfArgumentParser dataclasses subclassing TrainingArguments, DeepSpeed stage-0 config with 'auto' values; contrastive embedding fine-tune with train_group_size passages per query)")
PXS=("PixArt-alpha/PixArt-sigma","1ce521afddcc2fab329b35b7374aa86d654e12f7")
pxc="configs/pixart_sigma_config/PixArt_sigma_xl2_img512_internalms.py"
pxt="train_scripts/train.py"
J("pixart-sigma-512-ms-distlaunch",*PXS,["train_scripts","configs","diffusion","tools","README.md","requirements.txt"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node=1","--master_port=12345",pxt,pxc,
  "--load-from","output/pretrained_models/PixArt-Sigma-XL-2-512-MS.pth","--work-dir","output/your_first_pixart-exp","--debug"],{
 "model.num_parameters":T(611000000,pxc+":12 PixArtMS_XL_2 -> diffusion/model/nets/PixArtMS.py:292-293 depth 28 hidden 1152 (README.md:260 PixArt-Σ-512 0.6B)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:163 --nproc_per_node=1"),
 "dist.nodes":T(1,"torch.distributed.launch without --nnodes"),
 "dist.sharding":T("ddp",pxt+":304-311 use_fsdp False (configs/PixArt_xl2_internal.py:6) -> Accelerator DDP (one process)",any_of=["ddp","none"]),
 "batch.micro":T(2,pxc+":24 train_batch_size 2 (and --debug sets 2, "+pxt+":294-296) -> :440-441 AspectRatioBatchSampler(batch_size)"),
 "batch.grad_accum":T(1,pxc+":26 -> "+pxt+":318-320 Accelerator(gradient_accumulation_steps)"),
 "precision.mode":T("amp_fp16",pxc+":13 mixed_precision fp16 -> "+pxt+":318-319 Accelerator(mixed_precision='fp16')"),
 "memory.gradient_checkpointing":T(True,pxc+":27 grad_checkpointing True -> "+pxt+":410-412 build_model"),
 "optimizer.name":T("CAMEWrapper",pxc+":29 optimizer type CAMEWrapper (CAME)",any_of=["CAMEWrapper","CAME","came"]),
 "data.num_workers":T(10,pxc+":23 num_workers 10 -> "+pxt+":443"),
 "data.pin_memory":T(True,"diffusion/data/builder.py:49 pin_memory=True"),
 "data.image_size":T(512,pxc+":9 image_size 512"),
 "peft.method":T("none","full fine-tune of the DiT from the pretrained checkpoint (--load-from)"),
},held_out=True,note=H17+"; README.md:163-168 python -m torch.distributed.launch --nproc_per_node=1 --master_port=12345 train_scripts/train.py configs/pixart_sigma_config/PixArt_sigma_xl2_img512_internalms.py --load-from ... --work-dir ... --debug (an mmcv-style Python config file with _base_ inheritance, Accelerate mixed precision, CAME optimizer; T5-XXL text encoder and SDXL VAE loaded frozen for on-the-fly features; diffusion transformer fine-tune)")
VRF=("willccbb/verifiers","39f0675a858fb803f4d910466580cb87f60892fb")
vtw="examples/grpo/train_wordle.py"
J("verifiers-grpo-wordle-qwen3-1.7b-zero3",*VRF,["examples","configs","verifiers","README.md","pyproject.toml"],".",
 ["--","accelerate","launch","--num-processes","2","--config-file","configs/zero3.yaml",vtw,"--size","1.7B"],{
 "model.ref":T("willcb/Qwen3-1.7B-Wordle","README.md:266 --size 1.7B -> "+vtw+":31-33 f'willcb/Qwen3-{size}-Wordle' -> verifiers/utils/model_utils.py:75-94 from_pretrained"),
 "dist.world_size":T(2,"README.md:265 --num-processes 2 (overrides configs/zero3.yaml:16 num_processes 8)"),
 "dist.nodes":T(1,"configs/zero3.yaml:15 num_machines 1"),
 "dist.sharding":T("zero3","configs/zero3.yaml:9-10 zero_stage 3, DEEPSPEED"),
 "dist.offload_optimizer":T("none","configs/zero3.yaml:5"),
 "dist.offload_params":T("none","configs/zero3.yaml:6"),
 "dist.save_16bit_weights":T(True,"configs/zero3.yaml:8 zero3_save_16bit_model"),
 "precision.mode":T("bf16","configs/zero3.yaml:14 mixed_precision bf16 under DeepSpeed (bf16 weights, fp32 master); verifiers/utils/model_utils.py:82 torch_dtype bfloat16; verifiers/trainers/__init__.py:22 bf16=True"),
 "batch.micro":T(8,vtw+":37 per_device_train_batch_size 8"),
 "batch.grad_accum":T(8,vtw+":39 gradient_accumulation_steps 8"),
 "data.seq_len":T(4096,vtw+":41 max_seq_len 4096 (verifiers/trainers/__init__.py:25 the same)"),
 "memory.gradient_checkpointing":T(True,"verifiers/trainers/__init__.py:29 grpo_defaults gradient_checkpointing=True"),
 "model.attn_implementation":T("flash_attention_2","verifiers/utils/model_utils.py:83"),
 "optimizer.name":T("adamw_torch","TrainingArguments optim default (GRPOConfig subclasses TrainingArguments, verifiers/trainers/grpo_config.py:12; no optimizer in the DeepSpeed config)",any_of=["adamw_torch","adamw_torch_fused","AdamW","adamw"]),
 "peft.method":T("none",vtw+":54 lora_config commented out"),
},held_out=True,note=H17+"; README.md:265-266 CUDA_VISIBLE_DEVICES=6,7 accelerate launch --num-processes 2 --config-file configs/zero3.yaml examples/grpo/train_wordle.py --size 1.7B (an env-var prefix, an accelerate DeepSpeed ZeRO-3 YAML, the model id built with an f-string from argparse, a config object from a defaults function then attribute assignments; GRPO with a separate vLLM server). Not labelled: the generation length per turn (max_tokens 1024) and num_generations 16 (GRPO group size)")
XTU=("InternLM/xtuner","b934f462095c1e750229de35367c50ae36caa786")
xhr="examples/huggingface_trainer/README.md"
xqm="xtuner/apis/model.py"
J("xtuner-hf-trainer-qlora-internlm-7b",*XTU,["examples/huggingface_trainer","xtuner/apis","xtuner/model","xtuner/dataset","xtuner/utils","xtuner/__init__.py","xtuner/registry.py","pyproject.toml","requirements"],
 "examples/huggingface_trainer",["train_qlora_hf.py","--","--model_name_or_path","internlm/internlm-7b","--dataset_name_or_path","tatsu-lab/alpaca"],{
 "model.ref":T("internlm/internlm-7b",xhr+":15 --model_name_or_path -> train_qlora_hf.py:15-17 build_qlora_model -> "+xqm+":32-37 AutoModelForCausalLM.from_pretrained"),
 "dist.world_size":T(1,"python launch: one process"),
 "batch.micro":T(1,"xtuner/apis/training_args.py:26,44-47 per_device_train_batch_size default 1 (HfArgumentParser DefaultTrainingArguments, train_qlora_hf.py:11-12)"),
 "batch.grad_accum":T(1,"TrainingArguments default 1, not given"),
 "data.seq_len":T(2048,"train_qlora_hf.py:18-20 alpaca_dataset -> xtuner/apis/datasets/alpaca.py:83,86 max_length 2048, pack_to_max_length True"),
 "peft.method":T("lora",xqm+":27-30 LoraConfig -> xtuner/model/sft.py:128-130,161-169 get_peft_model"),
 "peft.rank":T(64,xqm+":29 r=64"),
 "task.mode":T("qlora",xqm+":18-26 4-bit base + LoRA"),
 "precision.weights_bits":T(4,xqm+":19 load_in_4bit=True"),
 "precision.quant_type":T("nf4",xqm+":25 bnb_4bit_quant_type nf4"),
 "precision.double_quant":T(True,xqm+":24 bnb_4bit_use_double_quant=True"),
 "memory.gradient_checkpointing":T(True,"xtuner/model/sft.py:90,107-117 use_activation_checkpointing default True -> gradient_checkpointing_enable(); :162-163 prepare_model_for_kbit_training(use_gradient_checkpointing)"),
 "optimizer.name":T("adamw_torch","TrainingArguments optim default, not given",any_of=["adamw_torch","adamw_torch_fused","AdamW","adamw"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "dist.sharding":T("none","one process, no DeepSpeed/FSDP",any_of=["none","ddp"]),
},held_out=True,note=H17+"; examples/huggingface_trainer/README.md:8-15 cd ./examples (the huggingface_trainer folder) && python train_qlora_hf.py --model_name_or_path internlm/internlm-7b --dataset_name_or_path tatsu-lab/alpaca (a TrainingArguments subclass whose defaults are class attributes, a library helper build_qlora_model that holds the BitsAndBytesConfig and LoraConfig, gradient checkpointing switched on inside the library's model wrapper). Not labelled: precision mode (fp16 4-bit compute dtype and fp16 torch_dtype, no --fp16/--bf16 given so the Trainer runs no autocast; LoRA weights fp32 after prepare_model_for_kbit_training)")
VMA=("MCG-NJU/VideoMAE","14ef8d856287c94ef1f985fe30f958eb4ec2c55d")
vsh="scripts/kinetics/videomae_vit_base_patch16_224_tubemasking_ratio_0.9_epoch_800/finetune.sh"
vrf="run_class_finetuning.py"
J("videomae-vitb-k400-finetune-8x8-deepspeed",*VMA,["."],".",[vsh,"--","0","10.0.0.1"],{
 "model.num_parameters":T(87000000,vsh+":13 --model vit_base_patch16_224 -> modeling_finetune.py:298-301 ViT-B/16 (depth 12, dim 768) with a 2x16x16 tubelet Conv3d patch embedding and a 400-class head (:15) -> ~87M",rel_tol=0.1),
 "dist.world_size":T(64,vsh+":9-11 --nproc_per_node=8 --nnodes=8 (8 nodes x 8 GPUs)"),
 "dist.nodes":T(8,vsh+":11 --nnodes=8"),
 "dist.devices_per_node":T(8,vsh+":10 --nproc_per_node=8"),
 "dist.sharding":T("ddp",vsh+":35 --enable_deepspeed -> utils.py:482-509 generated DeepSpeed config without zero_optimization (stage 0: data parallel)"),
 "batch.micro":T(8,vsh+":20 --batch_size 8 -> utils.py:487 train_micro_batch_size_per_gpu"),
 "batch.grad_accum":T(1,vrf+":31 --update_freq default 1"),
 "batch.global":T(512,"utils.py:486 train_batch_size = 8 x 1 x 64"),
 "precision.mode":T("fp16","utils.py:503-508 DeepSpeed fp16 enabled (16-bit weights, fp32 master, dynamic loss scale)"),
 "optimizer.name":T("AdamW","utils.py:489-491 DeepSpeed optimizer Adam with adam_w_mode True (FusedAdam in AdamW mode)",any_of=["AdamW","adamw","Adam","FusedAdam"]),
 "data.num_workers":T(10,vrf+":175 --num_workers default 10"),
 "data.pin_memory":T(True,vrf+":176-179 pin_mem default True -> :267"),
 "data.image_size":T(224,vsh+":22 --input_size 224"),
 "memory.gradient_checkpointing":T(False,vrf+":133-134 --use_checkpoint not given"),
 "peft.method":T("none","full fine-tune from the pretrained checkpoint (--finetune)"),
},held_out=True,note=H17+"; FINETUNE.md:44-80 / "+vsh+" run on node 0 of 8 with $1=0 (node rank) and $2 the master address (OMP_NUM_THREADS=1 python -m torch.distributed.launch --nproc_per_node=8 --nnodes=8 --node_rank=$1 --master_addr=$2 run_class_finetuning.py ... --enable_deepspeed; the DeepSpeed config is a dict written to a JSON file in code from argparse values; timm-registered video ViT; video classification). Not labelled: frames per clip 16 (video input, not a plan field)")
H18="eighteenth held-out set"
DSM=("deepseek-ai/DeepSeek-MoE","66edeee5a4f75cbd76e0316229ad101805a90e01")
dsf="finetune/finetune.py"
dsz3="finetune/configs/ds_config_zero3.json"
dsz2="finetune/configs/ds_config_zero2_no_offload.json"
dsm_common=["--data_path","train.parquet","--output_dir","out","--num_train_epochs","3","--model_max_length","1024",
 "--per_device_train_batch_size","16","--per_device_eval_batch_size","1","--gradient_accumulation_steps","4",
 "--evaluation_strategy","no","--save_strategy","steps","--save_steps","100","--save_total_limit","100",
 "--learning_rate","2e-5","--warmup_steps","10","--logging_steps","1","--lr_scheduler_type","cosine",
 "--gradient_checkpointing","True","--report_to","tensorboard"]
J("deepseek-moe-16b-full-zero3-offload-8gpu",*DSM,["finetune","README.md","requirements.txt"],"finetune",
 ["--","deepspeed","--num_gpus","8","finetune.py","--model_name_or_path","deepseek-ai/deepseek-moe-16b-base",*dsm_common,
  "--deepspeed","configs/ds_config_zero3.json","--bf16","True","--use_lora","False"],{
 "model.ref":T("deepseek-ai/deepseek-moe-16b-base","README.md:202,206 MODEL_PATH placeholder filled with the base model -> "+dsf+":185 AutoModelForCausalLM.from_pretrained"),
 "dist.world_size":T(8,"README.md:197 'we run it on eight A100 40 GPUs' -> deepspeed --num_gpus 8"),
 "dist.nodes":T(1,"deepspeed launcher without a hostfile"),
 "batch.micro":T(16,"README.md:211 --per_device_train_batch_size 16 (ds json 'auto')"),
 "batch.grad_accum":T(4,"README.md:213"),
 "batch.global":T(512,"16 x 4 x 8 ranks"),
 "data.seq_len":T(1024,"README.md:210 --model_max_length 1024 -> "+dsf+":264-265 tokenizer model_max_length -> :121-122 truncation at max_length"),
 "dist.sharding":T("zero3",dsz3+":24 stage 3"),
 "dist.offload_optimizer":T("cpu",dsz3+":25-28"),
 "dist.offload_params":T("cpu",dsz3+":29-32"),
 "dist.stage3_max_live_parameters":T(1000000000,dsz3+":40 1e9"),
 "dist.overlap_comm":T(True,dsz3+":33"),
 "dist.contiguous_gradients":T(True,dsz3+":34"),
 "dist.save_16bit_weights":T(True,dsz3+":42"),
 "precision.mode":T("bf16","README.md:225 --bf16 True -> "+dsz3+":2-4 bf16 auto (DeepSpeed bf16: 16-bit weights, fp32 master); "+dsf+":184,198 torch_dtype bf16"),
 "precision.weights_bits":T(16,dsf+":49-52 bits default 16; :183 asserted 16/32 without LoRA"),
 "optimizer.name":T("AdamW",dsz3+":5-13 DeepSpeed optimizer AdamW (replaces TrainingArguments optim; with CPU offload DeepSpeed runs DeepSpeedCPUAdam)",any_of=["AdamW","adamw","cpu_adam","DeepSpeedCPUAdam"]),
 "memory.gradient_checkpointing":T(True,"README.md:222 --gradient_checkpointing True"),
 "peft.method":T("none","README.md:226 --use_lora False -> "+dsf+":215 no LoRA"),
},held_out=True,note=H18+"; README.md:199-227 cd finetune && deepspeed finetune.py ... --deepspeed configs/ds_config_zero3.json --bf16 True --use_lora False on the 8 GPUs the README names (HfArgumentParser with a TrainingArguments subclass, a ZeRO-3 JSON with CPU offload and 'auto' values, a trust_remote_code MoE model; the attn_implementation field is declared but never passed to from_pretrained, so it is not labelled)")
J("deepseek-moe-16b-qlora-zero2-1gpu",*DSM,["finetune","README.md","requirements.txt"],"finetune",
 ["--","deepspeed","--num_gpus","1","finetune.py","--model_name_or_path","deepseek-ai/deepseek-moe-16b-base",*dsm_common,
  "--deepspeed","configs/ds_config_zero2_no_offload.json","--bf16","True","--use_lora","True","--bits","4",
  "--max_grad_norm","0.3","--double_quant","--lora_r","64","--lora_alpha","16","--quant_type","nf4"],{
 "model.ref":T("deepseek-ai/deepseek-moe-16b-base","README.md:233,237 MODEL_PATH placeholder filled"),
 "dist.world_size":T(1,"README.md:229 'possible to run on a single A100 80G GPU' -> deepspeed --num_gpus 1"),
 "batch.micro":T(16,"README.md:242"),
 "batch.grad_accum":T(4,"README.md:244"),
 "data.seq_len":T(1024,"README.md:241 --model_max_length 1024 -> "+dsf+":121-122"),
 "dist.sharding":T("zero2",dsz2+":6 stage 2"),
 "dist.allgather_bucket_size":T(100000000,dsz2+":8 1e8"),
 "dist.reduce_bucket_size":T(100000000,dsz2+":11 1e8"),
 "dist.offload_optimizer":T("none",dsz2+" no offload_optimizer"),
 "precision.mode":T("bf16","README.md:256 --bf16 True + "+dsz2+":2-4 bf16 enabled; "+dsf+":240-241 LoRA layers cast to bf16"),
 "precision.weights_bits":T(4,"README.md:258 --bits 4 -> "+dsf+":187-197 BitsAndBytesConfig(load_in_4bit)"),
 "precision.quant_type":T("nf4","README.md:263 --quant_type nf4 -> "+dsf+":196"),
 "precision.double_quant":T(True,"README.md:260 --double_quant (bool field, flag form = True) -> "+dsf+":195"),
 "peft.method":T("lora","README.md:257 --use_lora True -> "+dsf+":229-236 LoraConfig + get_peft_model"),
 "peft.rank":T(64,"README.md:261 --lora_r 64: argparse prefix of --lora_rank ("+dsf+":34; HfArgumentParser keeps allow_abbrev) -> :226,233"),
 "task.mode":T("qlora","4-bit base + LoRA (modules_to_save embed_tokens,lm_head trained in full, "+dsf+":37)",any_of=["qlora","lora"]),
 "memory.gradient_checkpointing":T(True,"README.md:253 --gradient_checkpointing True -> "+dsf+":213 prepare_model_for_kbit_training(use_gradient_checkpointing=True)"),
 "optimizer.name":T("adamw_torch",dsf+":63 optim default adamw_torch; no optimizer block in "+dsz2,any_of=["adamw_torch","AdamW","adamw"]),
},held_out=True,note=H18+"; README.md:229-264 the 4-bit QLoRA command with configs/ds_config_zero2_no_offload.json on one GPU (flag spelled --lora_r on the command line while the dataclass field is lora_rank: argparse prefix matching; --double_quant as a bare flag; quantization config built only when use_lora)")
PCT=("huggingface/picotron","59714b1bf25541dbeb6f5a721ed15f6d0768e786")
pcc="template/base_config.json"
J("picotron-smollm-16layer-template-torchrun-1gpu",*PCT,["."],".",["--","torchrun","--nproc_per_node","1","train.py","--config",pcc],{
 "model.num_parameters":T(249200000,pcc+":12-15 HuggingFaceTB/SmolLM-360M-Instruct config (hidden 960, intermediate 2560, vocab 49152) with 16 layers, 16 heads / 4 kv heads -> train.py:154-159 overrides -> picotron/model.py:271-273 untied embedding + final_proj: 16 x 9.68M + 2 x 47.2M ~ 249M",rel_tol=0.1),
 "dist.world_size":T(1,"torchrun --nproc_per_node 1; "+pcc+":3-6 tp/cp/pp/dp all 1 (train.py:86 asserts world_size equals their product)"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("none","dp_size 1: train.py:192 DataParallelBucket only when dp_world_size > 1",any_of=["none","ddp"]),
 "batch.micro":T(32,pcc+":25 micro_batch_size"),
 "batch.grad_accum":T(1,pcc+":26"),
 "batch.global":T(32,"picotron/data.py:17 micro 32 x accumulation 1 x dp 1"),
 "data.seq_len":T(1024,pcc+":24 seq_length"),
 "precision.mode":T("bf16","train.py:76 dtype bfloat16 on a bf16 GPU -> :190 model.to(dtype): bf16 weights, bf16 AdamW states, no autocast, no fp32 master"),
 "optimizer.name":T("AdamW","train.py:204-209 torch AdamW(fused=True) ("+pcc+":18 use_fused_adam)",any_of=["AdamW","adamw","adamw_torch_fused","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",pcc+":49 FLASH_ATTEN 1 -> picotron/model.py:152-154 flash_attn_func",any_of=["flash_attention_2","flash_attn"]),
 "data.num_workers":T(0,pcc+":33"),
 "data.pin_memory":T(True,"picotron/data.py:13 pin_memory=True default -> :51"),
 "compile.enabled":T(False,"no torch.compile"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in picotron/model.py"),
 "peft.method":T("none","pretraining"),
},held_out=True,note=H18+"; README.md:26-30 torchrun --nproc_per_node N train.py --config <json>, here with the repository's own template/base_config.json on one GPU (a nested JSON config read by json.load, a HF AutoConfig whose layers/heads are overridden from the JSON, a hand-written Llama with flash-attn kernels, the whole model cast to bf16 with no master copy)")
CNV=("facebookresearch/ConvNeXt-V2","2553895753323c6fe0b2bf390683f5ea358a42b9")
cmf="main_finetune.py"
J("convnextv2-base-in1k-finetune-8gpu",*CNV,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8",cmf,
 "--model","convnextv2_base","--batch_size","32","--update_freq","4","--blr","6.25e-4","--epochs","100","--warmup_epochs","20",
 "--layer_decay_type","group","--layer_decay","0.6","--weight_decay","0.05","--drop_path","0.1","--reprob","0.25","--mixup","0.8",
 "--cutmix","1.0","--smoothing","0.1","--model_ema","True","--model_ema_eval","True","--use_amp","True",
 "--finetune","/ckpt/convnextv2_base_1k_224_fcmae.pt","--data_path","/data/imagenet-1k","--output_dir","out"],{
 "model.num_parameters":T(88700000,"TRAINING.md:70 --model convnextv2_base -> models/convnextv2.py:128-129 depths 3,3,27,3 dims 128..1024 with a 1000-class head -> ~89M (README: 89M)",rel_tol=0.1),
 "dist.world_size":T(8,"TRAINING.md:69 --nproc_per_node=8"),
 "dist.nodes":T(1,"single machine"),
 "dist.sharding":T("ddp",cmf+":330 DistributedDataParallel"),
 "batch.micro":T(32,"TRAINING.md:71 --batch_size 32 (per GPU)"),
 "batch.grad_accum":T(4,"TRAINING.md:71 --update_freq 4 -> engine_finetune.py:61-66 step every 4 iterations"),
 "batch.global":T(1024,"32 x 4 x 8"),
 "data.image_size":T(224,cmf+":45 --input_size default 224"),
 "precision.mode":T("amp_fp16","TRAINING.md:84 --use_amp True -> engine_finetune.py:46-48 torch.cuda.amp.autocast() (fp16) + NativeScaler; fp32 weights"),
 "optimizer.name":T("AdamW",cmf+":76 --opt default adamw -> optim_factory.py:174-175 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,cmf+":165 --num_workers default 10"),
 "data.pin_memory":T(True,cmf+":166 --pin_mem default True -> :228"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/convnextv2.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tune from the FCMAE checkpoint"),
},held_out=True,note=H18+"; TRAINING.md:66-88 the single-machine ImageNet-1K fine-tuning of ConvNeXt V2-Base (python -m torch.distributed.launch, argparse with str2bool flags, a timm-style layer-decay optimizer factory, update_freq as the accumulation, model EMA, fp16 autocast with a scaler)")
MC3=("facebookresearch/moco-v3","c349e6e24f40d3fedb22d973f92defa4cedf37a7")
mcm="main_moco.py"
J("moco-v3-vit-small-1node-8gpu",*MC3,["."],".",[mcm,"--","-a","vit_small","-b","1024","--optimizer=adamw","--lr=1.5e-4","--weight-decay=.1",
 "--epochs=300","--warmup-epochs=40","--stop-grad-conv1","--moco-m-cos","--moco-t=.2","--dist-url","tcp://localhost:10001",
 "--multiprocessing-distributed","--world-size","1","--rank","0","/data/imagenet"],{
 "model.ref":T("vit_small","README.md:116 -a vit_small -> "+mcm+":180-183 vits.__dict__[args.arch]"),
 "dist.nodes":T(1,"README.md:121 --world-size 1 (nodes, multiplied by the GPUs per node at "+mcm+":147)"),
 "dist.world_size":T(8,"README.md:112 '1-node (8-GPU) training' -> mp.spawn one process per GPU ("+mcm+":143-147)"),
 "dist.sharding":T("ddp",mcm+":208 DistributedDataParallel"),
 "batch.global":T(1024,"README.md:116 -b 1024 (the total over all GPUs)"),
 "batch.micro":T(128,mcm+":206 batch_size = 1024 / 8 per process"),
 "batch.grad_accum":T(1,"no accumulation in the train loop"),
 "data.image_size":T(224,mcm+":263,275 RandomResizedCrop(224) (two crops per image)"),
 "precision.mode":T("amp_fp16",mcm+":352 torch.cuda.amp.autocast(True) (fp16) + :232 GradScaler; fp32 weights"),
 "optimizer.name":T("AdamW","README.md:117 --optimizer=adamw -> "+mcm+":229 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,mcm+":54 --workers default 32 -> :207 (32 + 8 - 1) / 8 = 4 per process"),
 "data.pin_memory":T(True,mcm+":299"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in vits.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pretraining from scratch"),
},held_out=True,note=H18+"; README.md:112-123 python main_moco.py -a vit_small -b 1024 ... --multiprocessing-distributed --world-size 1 --rank 0 (pytorch/examples-style argparse with mp.spawn, the batch and workers divided per process in code, a MoCo wrapper holding a base and a momentum ViT-S; self-supervised vision). Not labelled: parameter count (two encoders, one without gradients, plus projector/predictor MLPs)")
SGR=("lsdefine/simple_GRPO","4ab94c64765a33f73a2c285d1285f935fd299ef2")
sgv="grpo_vllm_one.py"
J("simple-grpo-qwen25-7b-zero2-offload-deepspeed",*SGR,["."],".",["--","deepspeed","--include","localhost:2,3,4,5,6",sgv],{
 "model.ref":T("Qwen/Qwen2.5-7B",sgv+":11 model_path '/data2/Qwen/Qwen2.5-7B' (a local copy of the hub model) -> :220-221 from_pretrained",any_of=["Qwen/Qwen2.5-7B","/data2/Qwen/Qwen2.5-7B"]),
 "dist.world_size":T(5,"README.md:73 CUDA_VISIBLE_DEVICES=2,3,4,5,6 deepspeed "+sgv+" (written here as the launcher's equivalent --include localhost:2,3,4,5,6): five training ranks; the vLLM generator (:217) and the reference server (README.md:65) run outside them"),
 "dist.nodes":T(1,"deepspeed launcher on localhost"),
 "dist.sharding":T("zero2",sgv+":33-34 zero_optimization stage 2"),
 "dist.offload_optimizer":T("cpu",sgv+":42 offload_optimizer cpu"),
 "dist.allgather_bucket_size":T(200000000,sgv+":36 2e8"),
 "dist.reduce_bucket_size":T(200000000,sgv+":39 2e8"),
 "dist.overlap_comm":T(True,sgv+":37"),
 "dist.contiguous_gradients":T(True,sgv+":40"),
 "batch.micro":T(8,sgv+":17,26 train_micro_batch_size_per_gpu = train_batch_size = 8 (each engine() call gets a group slice of 8 completions, :183-185)"),
 "batch.grad_accum":T(4,sgv+":27 gradient_accumulation_steps 4 (engine.step at :236 steps the optimizer every 4th call)"),
 "precision.mode":T("bf16",sgv+":32 DeepSpeed bf16 enabled (16-bit weights, fp32 master) and :221 torch_dtype bf16"),
 "optimizer.name":T("AdamW",sgv+":28-31 DeepSpeed optimizer AdamW (with CPU offload DeepSpeed runs DeepSpeedCPUAdam)",any_of=["AdamW","adamw","cpu_adam","DeepSpeedCPUAdam"]),
 "model.attn_implementation":T("sdpa",sgv+":221 _attn_implementation='sdpa'"),
 "memory.gradient_checkpointing":T(False,"gradient_checkpointing_enable never called; no activation_checkpointing in ds_config"),
 "peft.method":T("none","full-parameter GRPO"),
},held_out=True,note=H18+"; README.md:62-73 the training half of the job: CUDA_VISIBLE_DEVICES=2,3,4,5,6 deepspeed grpo_vllm_one.py (a module-level script with constants and a DeepSpeed config dict passed to deepspeed.initialize(config=...), a hand-written GRPO loss, vLLM generation in a spawned process, the reference model in a separate HTTP server). Not labelled: sequence length (prompt plus up to 700 generated tokens, :101)")
SIT=("willisma/SiT","947f95bd3a510e9af441d38c1e9f72e0eee873c5")
J("sit-xl2-imagenet256-torchrun-8gpu",*SIT,["."],".",["--","torchrun","--nnodes=1","--nproc_per_node=8","train.py","--model","SiT-XL/2","--data-path","/data/imagenet/train"],{
 "model.num_parameters":T(675000000,"README.md:96 --model SiT-XL/2 -> models.py:327-328 depth 28, hidden 1152, patch 2, 16 heads (the DiT-XL/2 backbone, ~675M)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:96 --nproc_per_node=N with N=8"),
 "dist.nodes":T(1,"README.md:96 --nnodes=1"),
 "dist.sharding":T("ddp","train.py:168 DDP(model)"),
 "batch.global":T(256,"train.py:325 --global-batch-size default 256"),
 "batch.micro":T(32,"train.py:125 local_batch_size = 256 // world size 8"),
 "batch.grad_accum":T(1,"train.py:249-252 zero_grad/backward/step every batch"),
 "data.image_size":T(256,"train.py:322 --image-size default 256 (the model sees 32x32x4 VAE latents, :149)"),
 "precision.mode":T("fp32","no autocast or half anywhere in train.py; fp32 weights"),
 "optimizer.name":T("AdamW","train.py:181 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"train.py:328 --num-workers default 4"),
 "data.pin_memory":T(True,"train.py:204"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H18+"; README.md:93-97 torchrun --nnodes=1 --nproc_per_node=N train.py --model SiT-XL/2 --data-path ... with N=8 (argparse, the per-rank batch derived from a global batch divided by the world size, a frozen VAE encoding images to latents under no_grad, an EMA copy; class-conditional latent flow/diffusion transformer)")
MLO=("myshell-ai/MeloTTS","209145371cff8fc3bd60d7be902ea69cbdb7965a")
mtp="train.py"
J("melotts-vits2-train-sh-2gpu",*MLO,["melo","docs","requirements.txt","setup.py"],"melo",["train.sh","--","configs/config.json","2"],{
 "dist.world_size":T(2,"docs/training.md:31 bash train.sh <config> <num_of_gpus> with 2 -> train.sh:2,9 torchrun --nproc_per_node=$GPUS"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp",mtp+":166-167,191 DDP(net_g), DDP(net_d), DDP(net_dur_disc) (gloo backend, :52-56)"),
 "batch.micro":T(6,"configs/config.json:13 train.batch_size 6 -> "+mtp+":70-77 DistributedBucketSampler(batch_size) per rank"),
 "batch.grad_accum":T(1,"one optimizer step per batch in train_and_evaluate"),
 "precision.mode":T("fp32","configs/config.json:14 fp16_run false -> "+mtp+":252 GradScaler(enabled=False), :342,420 autocast(enabled=False); fp32 weights"),
 "optimizer.name":T("AdamW",mtp+":145-163 torch.optim.AdamW for generator, discriminator and duration discriminator",any_of=["AdamW","adamw"]),
 "data.num_workers":T(16,mtp+":81"),
 "data.pin_memory":T(True,mtp+":83"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training of the VITS2-style generator and discriminators"),
},held_out=True,note=H18+"; docs/training.md:5-32 cd melo && bash train.sh <path/to/config.json> <num_of_gpus>, here with the repository's configs/config.json (the template preprocess_text.py copies) and 2 GPUs (positional shell arguments, an auto-restart while loop around torchrun, a JSON hparams file read by a helper given -c, a GAN with three DDP-wrapped networks and three optimizers, a bucket batch sampler; speech synthesis). Not labelled: model size (VITS2 generator + BERT features), segment length (configs/config.json:16 segment_size 16384 samples)")
ADM=("zyushun/Adam-mini","402aadfed23719f3b92c8e78b5d49ad499ff7ada")
agp="train_gpt2.py"
agc="config/train_gpt2_small.py"
J("adam-mini-gpt2-small-torchrun-4gpu",*ADM,["examples/gpt2","adam_mini","README.md","setup.py"],"examples/gpt2",["run_gpt2.sh"],{
 "model.num_parameters":T(124000000,agc+":7-9 n_layer 12 n_head 12 n_embd 768, :11 bias False; "+agp+":199 vocab 50304; model.py:166 tied embeddings -> ~124M",rel_tol=0.1),
 "dist.world_size":T(4,"run_gpt2.sh:4 torchrun --standalone --nproc_per_node=4"),
 "dist.nodes":T(1,"--standalone"),
 "dist.sharding":T("ddp",agp+":272 DDP(model)"),
 "batch.micro":T(60,agc+":3 batch_size = 60 (read by configurator.py exec)"),
 "batch.grad_accum":T(2,agc+":5 gradient_accumulation_steps = 8 -> "+agp+":128-129 divided by world size 4 = 2"),
 "batch.global":T(480,"60 x 2 x 4 ranks (labelled 240 by an arithmetic slip before the first scoring; corrected after it, see docs/realworld.md Set 18)"),
 "data.seq_len":T(1024,agc+":4 block_size"),
 "precision.mode":T("amp_bf16",agp+":87 dtype bfloat16 on a bf16 GPU -> :146 torch.amp.autocast(bfloat16); :246 GradScaler off; fp32 weights"),
 "optimizer.name":T("adam_mini",agc+":27 algorithm = 'adam_mini' -> "+agp+":251-260 Adam_mini(named_parameters, ...)",any_of=["adam_mini","Adam_mini","adam-mini","adammini"]),
 "model.attn_implementation":T("sdpa",agp+":82 flash_attn True -> model.py:85-87 F.scaled_dot_product_attention",any_of=["sdpa","flash_attention_2"]),
 "compile.enabled":T(False,"no torch.compile in "+agp+" (only a docstring mention at :6)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in model.py"),
 "peft.method":T("none","pretraining from scratch ("+agp+":53 init_from scratch)"),
},held_out=True,note=H18+"; examples/gpt2/run_gpt2.sh (conda activate, then torchrun --standalone --nproc_per_node=4 train_gpt2.py config/train_gpt2_small.py: a nanoGPT fork whose config override file is exec'd, the accumulation divided by the world size in code, and the Adam-mini optimizer in place of AdamW)")
FQV=("zhangfaen/finetune-Qwen2-VL","c5385c5ee8cacf141a1aa4555184f1f56fe750cf")
fqd="finetune_distributed.py"
J("finetune-qwen2-vl-2b-accelerate-deepspeed-zero3-2gpu",*FQV,["."],".",["finetune_distributed.sh"],{
 "model.ref":T("Qwen/Qwen2-VL-2B-Instruct",fqd+":194-196 Qwen2VLForConditionalGeneration.from_pretrained"),
 "dist.world_size":T(2,"finetune_distributed.sh:3 accelerate launch --num_processes=2"),
 "dist.nodes":T(1,"finetune_distributed.sh:3 --num_machines=1"),
 "dist.sharding":T("zero3","finetune_distributed.sh:3 --use_deepspeed + "+fqd+":18-19 DeepSpeedPlugin(zero_stage=3) passed to Accelerator (:33)"),
 "dist.offload_optimizer":T("none","DeepSpeedPlugin without offload_optimizer_device (the generated config quoted at "+fqd+":45-48: device none)"),
 "dist.offload_params":T("none",fqd+":49-52 device none"),
 "dist.save_16bit_weights":T(True,fqd+":26 zero3_save_16bit_model=True"),
 "batch.micro":T(1,fqd+":220 DataLoader batch_size=1"),
 "batch.grad_accum":T(2,fqd+":25 DeepSpeedPlugin gradient_accumulation_steps=2 (+ :232 accelerator.accumulate)"),
 "batch.global":T(4,"1 x 2 x 2 ranks ("+fqd+":40 train_batch_size 4)"),
 "precision.mode":T("bf16","finetune_distributed.sh:3 --mixed_precision=bf16 under DeepSpeed -> bf16 enabled (16-bit weights, fp32 master, "+fqd+":57-59,69-71); :195 torch_dtype bfloat16"),
 "optimizer.name":T("AdamW",fqd+":9,226 torch.optim.AdamW passed through accelerator.prepare (zero_allow_untested_optimizer, :63)",any_of=["AdamW","adamw","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",fqd+":195"),
 "memory.gradient_checkpointing":T(False,"gradient_checkpointing_enable never called"),
 "compile.enabled":T(False,"finetune_distributed.sh:3 --dynamo_backend=no"),
 "data.num_workers":T(0,fqd+":218-222 DataLoader without num_workers"),
 "peft.method":T("none","full fine-tune of the whole VLM"),
},held_out=True,note=H18+"; README.md:51-53 ./finetune_distributed.sh (CUDA_VISIBLE_DEVICES=\"0,1\" accelerate launch --mixed_precision=bf16 --dynamo_backend=no --num_machines=1 --num_processes=2 --use_deepspeed finetune_distributed.py: accelerate flags on the launch line with a DeepSpeedPlugin built in code instead of a config file, a plain Accelerate loop with accelerator.accumulate, vision-language model). Not labelled: sequence length (images of 256-512 x 28x28 pixels become variable visual tokens, no truncation)")
WSF=("vasistalodagala/whisper-finetune","718ad18b669d7ed5290a4c1c3577b0b141621555")
wft="train/fine-tune_on_hf_dataset.py"
J("whisper-finetune-hindi-base-hf-torchrun-4gpu",*WSF,["."],".",["--","torchrun","--nproc_per_node=4",wft,
 "--model_name","vasista22/whisper-hindi-base","--language","Hindi","--sampling_rate","16000","--num_proc","2",
 "--train_strategy","steps","--learning_rate","3e-3","--warmup","1000","--train_batchsize","16","--eval_batchsize","8",
 "--num_steps","10000","--resume_from_ckpt","None","--output_dir","op_dir_steps",
 "--train_datasets","mozilla-foundation/common_voice_11_0","mozilla-foundation/common_voice_11_0",
 "--train_dataset_configs","hi","hi","--train_dataset_splits","train","validation",
 "--train_dataset_text_columns","sentence","sentence","--eval_datasets","google/fleurs",
 "--eval_dataset_configs","hi_in","--eval_dataset_splits","test","--eval_dataset_text_columns","transcription"],{
 "model.ref":T("vasista22/whisper-hindi-base","README.md:116 --model_name -> "+wft+":214 WhisperForConditionalGeneration.from_pretrained(args.model_name)"),
 "dist.world_size":T(4,"README.md:113-115 ngpu=4, torchrun --nproc_per_node=${ngpu}"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("ddp","Seq2SeqTrainer under torchrun, no DeepSpeed/FSDP"),
 "batch.micro":T(16,"README.md:123 --train_batchsize 16 -> "+wft+":382 per_device_train_batch_size"),
 "batch.grad_accum":T(1,wft+":383"),
 "batch.global":T(64,"16 x 1 x 4"),
 "precision.mode":T("amp_fp16",wft+":387 fp16=True (Trainer autocast fp16 + GradScaler, fp32 weights)"),
 "optimizer.name":T("adamw_bnb_8bit",wft+":402 optim",any_of=["adamw_bnb_8bit","adamw8bit","AdamW8bit"]),
 "memory.gradient_checkpointing":T(True,wft+":199 gradient_checkpointing = True -> :386"),
 "data.num_workers":T(0,"Seq2SeqTrainingArguments dataloader_num_workers default 0"),
 "compile.enabled":T(False,"torch_compile not set"),
 "peft.method":T("none",wft+":200-201 nothing frozen; full fine-tune"),
},held_out=True,note=H18+"; README.md:112-136 ngpu=4; torchrun --nproc_per_node=${ngpu} train/fine-tune_on_hf_dataset.py ... (a shell variable on the launch line, argparse with nargs='+' lists, module-level constants passed into Seq2SeqTrainingArguments built in one of two branches chosen by --train_strategy; speech recognition, encoder-decoder). Not labelled: sequence length (audio up to 30 s, :281, labels up to the model's max_length, :279)")
H19="nineteenth held-out set"
GZ=("policy-gradient/GRPO-Zero","d41bb486cfe4d58bf8dbb0b8f62b3c3102af9e74")
gzc="config_24GB.yaml"
J("grpo-zero-qwen25-3b-24gb-1gpu",*GZ,["."],".",["train.py","--","--config",gzc],{
 "model.ref":T("Qwen/Qwen2.5-3B-Instruct",gzc+":2 pretrained_model_path 'Qwen2.5-3B-Instruct' (README.md:80 git clone https://huggingface.co/Qwen/Qwen2.5-3B-Instruct) -> train.py:91 Transformer.from_pretrained",any_of=["Qwen/Qwen2.5-3B-Instruct","Qwen2.5-3B-Instruct"]),
 "dist.world_size":T(1,"README.md:84 uv run train.py: one process, no torch.distributed anywhere"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP/DeepSpeed",any_of=["none"]),
 "batch.micro":T(2,gzc+":15 micro_batch_size -> grpo.py:158-164 update_policy slices episodes in micro batches"),
 "batch.grad_accum":T(128,gzc+":12 batch_size 256 episodes per step / micro 2 -> grpo.py:154-211 one backward per micro batch, one optimizer.step at :217"),
 "batch.global":T(256,gzc+":12 batch_size (32 questions x 8 answers, :13, train.py:70)"),
 "precision.mode":T("bf16","qwen2_model.py:307-346 weights loaded from the bf16 safetensors with load_state_dict(assign=True) (no fp32 copy) + grpo.py:190 autocast bf16 ("+gzc+":4); the AdamW states follow the bf16 params"),
 "optimizer.name":T("AdamW","train.py:93 MemoryEfficientAdamW (optimizer.py:7 subclass of torch AdamW)",any_of=["AdamW","adamw","MemoryEfficientAdamW"]),
 "dist.offload_optimizer":T("cpu",gzc+":26 memory_efficient_adamw true -> optimizer.py:7-10 optimizer states kept on CPU"),
 "memory.gradient_checkpointing":T(True,"qwen2_model.py:263 forward runs checkpoint_sequential over every layer"),
 "model.attn_implementation":T("sdpa","qwen2_model.py:139,148 F.scaled_dot_product_attention"),
 "data.num_workers":T(0,"train.py:83-89 DataLoader without num_workers"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full-parameter GRPO"),
},held_out=True,note=H19+"; README.md:82-84 uv run train.py --config config_24GB.yaml (written as train.py with its arguments; uv run runs it with the project's Python): a YAML config read with yaml.safe_load into a dict, a hand-written Qwen2 with checkpoint_sequential, an AdamW subclass that keeps its states on CPU, a GRPO loop whose accumulation is the episode batch split in micro batches. Not labelled: sequence length (prompt up to 256 plus up to 1024 generated tokens, :10-11, no fixed length)")
NAM=("McGill-NLP/nano-aha-moment","6cd0306dd994674f98ec2f0b07732c00c0bfe125")
nas="nano_r1_script.py"
J("nano-aha-moment-qwen25-3b-grpo-zero2-4gpu",*NAM,["."],".",[nas,"--","--nproc","4"],{
 "model.ref":T("Qwen/Qwen2.5-3B",nas+":49 --model_name default -> :792-796 AutoModelForCausalLM.from_pretrained"),
 "dist.world_size":T(4,"README.md:64 --nproc 4 -> "+nas+":1161 torch.multiprocessing.spawn(main, nprocs=4)"),
 "dist.nodes":T(1,"mp.spawn on one machine"),
 "dist.sharding":T("zero2",nas+":700 zero_optimization stage 2 -> :809-813 deepspeed.initialize(config=...)"),
 "dist.offload_optimizer":T("none","no offload_optimizer in the dict at "+nas+":698-716"),
 "dist.overlap_comm":T(False,nas+":700"),
 "batch.micro":T(8,nas+":50 --per_device_batch_size default 8 -> :702"),
 "batch.grad_accum":T(2,nas+":673-674 64 episodes // 4 ranks = 16 per rank -> :703 16 // 8"),
 "batch.global":T(64,nas+":701 train_batch_size = EPISODES_PER_ITERATION 64"),
 "precision.mode":T("bf16",nas+":699 DeepSpeed bf16 enabled (16-bit weights, fp32 master) and :795 torch_dtype bf16"),
 "optimizer.name":T("AdamW",nas+":705-714 DeepSpeed optimizer AdamW (torch_adam, fused)",any_of=["AdamW","adamw","adamw_torch_fused","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",nas+":794"),
 "memory.gradient_checkpointing":T(True,nas+":804 gradient_checkpointing_enable"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full-parameter GRPO"),
},held_out=True,note=H19+"; README.md:62-65 python nano_r1_script.py --nproc 4 (argparse, a script that spawns its own processes with torch.multiprocessing.spawn, a DeepSpeed config dict built from module constants and argparse values, a frozen reference model in a second DeepSpeed engine moved to CPU, vLLM generation on every rank). Not labelled: sequence length (prompt plus up to 1024 generated tokens, :51)")
SVC=("Plachtaa/seed-vc","d334fb72407ca4abfb929f50f9067ff6ccd13bb0")
svy="configs/presets/config_dit_mel_seed_uvit_whisper_small_wavenet.yml"
J("seed-vc-v1-whisper-small-wavenet-finetune-1gpu",*SVC,["."],".",["train.py","--","--config","./"+svy,"--dataset-dir","/data/my_voice",
 "--run-name","my_run","--batch-size","2","--max-steps","1000","--max-epochs","1000","--save-every","500","--num-workers","0"],{
 "dist.world_size":T(1,"README.md:179 python train.py; train.py:431-436 one --gpu device, no torch.distributed"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP (train.py:113 is_distributed=False)",any_of=["none"]),
 "batch.micro":T(2,"README.md:183 --batch-size 2 -> train.py:40,57 -> data/ft_dataset.py:74-76 DataLoader batch_size"),
 "batch.grad_accum":T(1,"train.py:333-338 zero_grad/backward/step every batch"),
 "precision.mode":T("fp32","no autocast or half in train.py or the DiT/length-regulator modules; fp32 weights"),
 "optimizer.name":T("AdamW","train.py:80 build_optimizer -> optimizers.py:70-80 torch AdamW per sub-model",any_of=["AdamW","adamw"]),
 "data.num_workers":T(0,"README.md:187 --num-workers 0 -> data/ft_dataset.py:78"),
 "data.pin_memory":T(False,"data/ft_dataset.py:74-80 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in the trained cfm/length_regulator modules"),
 "compile.enabled":T(False,"no torch.compile in train.py"),
 "peft.method":T("none","full fine-tune of the DiT and length regulator (train.py:80)"),
},held_out=True,note=H19+"; README.md:177-188 python train.py --config <preset> --dataset-dir ... --batch-size 2 ... --num-workers 0 with the offline voice-conversion preset of README.md:174 and the placeholders filled (argparse with dashed flags, a YAML model config, a DiT built from the YAML plus frozen Whisper-small, CAMPPlus, RMVPE, OpenVoice and BigVGAN helpers loaded from the hub; speech/voice conversion). Not labelled: model size (DiT 512 x 13 plus a WaveNet and a length regulator from the YAML, weights from Plachta/Seed-VC), audio length (1-30 s clips)")
PVL=("TRI-ML/prismatic-vlms","874c5bbff52b248294a3ab97006491a7faa698e6")
pcm="prismatic/conf/models.py"
pfs="prismatic/training/strategies/fsdp.py"
pbs="prismatic/training/strategies/base_strategy.py"
J("prismatic-dinosiglip-vicuna7b-fsdp-8gpu",*PVL,["."],".",["--","torchrun","--standalone","--nnodes","1","--nproc-per-node","8","scripts/pretrain.py",
 "--model.type","one-stage+7b","--model.model_id","prism-dinosiglip+7b","--model.vision_backbone_id","dinosiglip-vit-so-384px",
 "--model.image_resize_strategy","letterbox","--model.llm_backbone_id","vicuna-v15-7b"],{
 "model.ref":T("lmsys/vicuna-7b-v1.5","README.md:185 --model.llm_backbone_id vicuna-v15-7b -> prismatic/models/backbones/llm/llama2.py:44-45 hf_hub_path (the trained LLM; the vision backbone is frozen in the finetune stage)"),
 "dist.world_size":T(8,"README.md:180 --nproc-per-node 8"),
 "dist.nodes":T(1,"README.md:180 --standalone --nnodes 1"),
 "dist.sharding":T("fsdp_full","scripts/pretrain.py:65 stage finetune -> "+pcm+":114 fsdp-full-shard -> prismatic/training/materialize.py:18 -> "+pfs+":85-86 HYBRID_SHARD, which is a full shard within the one node",any_of=["fsdp_full","fsdp_hybrid"]),
 "batch.micro":T(16,pcm+":106 finetune_per_device_batch_size (one-stage+7b inherits LLaVa_v15_Reproduction_7B)"),
 "batch.global":T(128,pcm+":105 finetune_global_batch_size"),
 "batch.grad_accum":T(1,pbs+":83 128 // 16 // 8"),
 "data.seq_len":T(2048,pcm+":86 llm_max_length -> prismatic/models/backbones/llm/base_llm.py:150 tokenizer model_max_length"),
 "data.image_size":T(384,"README.md:183 dinosiglip-vit-so-384px -> prismatic/models/materialize.py:49 default_image_size 384"),
 "precision.mode":T("amp_bf16",pcm+":70 enable_mixed_precision_training -> "+pfs+":137-142 FSDP MixedPrecision(param_dtype bf16) over fp32 params + "+pbs+":177 autocast bf16"),
 "optimizer.name":T("AdamW",pfs+":30,210 torch AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,pcm+":67 enable_gradient_checkpointing True -> "+pfs+":167-179 apply_activation_checkpointing on the LLM layers"),
 "model.attn_implementation":T("flash_attention_2","prismatic/models/backbones/llm/llama2.py:62 use_flash_attention_2 True",any_of=["flash_attention_2","flash_attn"]),
 "data.num_workers":T(2,pbs+":144"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","finetune stage: projector + full LLM trained, vision backbone frozen"),
},held_out=True,note=H19+"; README.md:178-186 torchrun --standalone --nnodes 1 --nproc-per-node 8 scripts/pretrain.py --model.type one-stage+7b ... with the model_id placeholder filled (draccus dataclass configs chosen by a registry key and overridden with dotted flags, a training stage that picks the batch sizes and strategy, FSDP with a bf16 MixedPrecision policy and activation checkpointing; vision-language model)")
MRF=("cloneofsimo/minRF","4fc10e0cc8ba976152c7936a1af9717209f03e18")
J("minrf-dit-llama-cifar10-1gpu",*MRF,["."],".",["rf.py","--","--cifar"],{
 "model.num_parameters":T(13300000,"rf.py:78-80 DiT_Llama(3, 32, dim=256, n_layers=10, n_heads=8) -> dit.py: 10 blocks x 1.25M (attention 4x256^2, SwiGLU 3x256x768, adaLN 256x1536) + conv stem, embedders and final layer ~0.8M",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:34 python rf.py --cifar: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP",any_of=["none"]),
 "batch.micro":T(256,"rf.py:105 DataLoader batch_size=256"),
 "batch.grad_accum":T(1,"rf.py:114-117 zero_grad/backward/step every batch"),
 "data.image_size":T(32,"rf.py:72 RandomCrop(32) on CIFAR-10"),
 "precision.mode":T("fp32","no autocast or half in rf.py/dit.py"),
 "optimizer.name":T("Adam","rf.py:101 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(0,"rf.py:105 DataLoader without num_workers"),
 "data.pin_memory":T(False,"rf.py:105"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in dit.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H19+"; README.md:33-35 python rf.py --cifar (a single-file rectified-flow trainer with a store_true flag choosing the dataset and the model size in code, a Llama-style DiT; image generation)")
CSV=("FunAudioLLM/CosyVoice","ace7c47f41bbd303aa6bf1ea80e6f9fbd595cd40")
cvy="conf/cosyvoice2.yaml"
cvt="cosyvoice/utils/train_utils.py"
pmd="../../../pretrained_models/CosyVoice2-0.5B"
J("cosyvoice2-llm-torchrun-ddp-4gpu",*CSV,["cosyvoice","examples/libritts/cosyvoice2","README.md","requirements.txt"],"examples/libritts/cosyvoice2",
 ["--","torchrun","--nnodes=1","--nproc_per_node=4","--rdzv_id=1986","--rdzv_backend=c10d","--rdzv_endpoint=localhost:1234",
  "../../../cosyvoice/bin/train.py","--train_engine","torch_ddp","--config",cvy,"--train_data","data/train.data.list",
  "--cv_data","data/dev.data.list","--qwen_pretrain_path",pmd+"/CosyVoice-BlankEN","--onnx_path",pmd,"--model","llm",
  "--checkpoint",pmd+"/llm.pt","--model_dir","exp/cosyvoice2/llm/torch_ddp","--tensorboard_dir","tensorboard/cosyvoice2/llm/torch_ddp",
  "--ddp.dist_backend","nccl","--num_workers","2","--prefetch","100","--pin_memory","--use_amp",
  "--deepspeed_config","./conf/ds_stage2.json","--deepspeed.save_states","model+optimizer"],{
 "model.num_parameters":T(506000000,cvy+":23-31 Qwen2LM around a Qwen2 encoder from --qwen_pretrain_path CosyVoice-BlankEN (Qwen2.5-0.5B size, hidden 896, :9) ~494M + speech embedding and decoder over 6561 speech tokens (:26, cosyvoice/llm/llm.py) ~12M",rel_tol=0.1),
 "dist.world_size":T(4,"run.sh:56-57,71 CUDA_VISIBLE_DEVICES=0,1,2,3 -> num_gpus 4 -> --nproc_per_node=$num_gpus"),
 "dist.nodes":T(1,"run.sh:71 --nnodes=1"),
 "dist.sharding":T("ddp","run.sh:62 train_engine=torch_ddp -> "+cvt+":100 DistributedDataParallel (ds_stage2.json is passed but only read for the deepspeed engine)"),
 "batch.grad_accum":T(2,cvy+":219 accum_grad 2 -> cosyvoice/utils/executor.py:64,79"),
 "precision.mode":T("amp_bf16","run.sh:88 --use_amp -> "+cvt+":74 dtype bf16 for torch_ddp -> :250 autocast(bf16); fp32 weights (a GradScaler is also made, cosyvoice/bin/train.py:177)"),
 "optimizer.name":T("Adam",cvy+":211 optim adam -> "+cvt+":114 optim.Adam",any_of=["Adam","adam"]),
 "data.num_workers":T(2,"run.sh:60,85 -> "+cvt+":62"),
 "data.pin_memory":T(True,"run.sh:87 --pin_memory -> "+cvt+":61"),
 "memory.gradient_checkpointing":T(False,"no gradient checkpointing in cosyvoice/llm"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tune of the LLM stage from llm.pt"),
},held_out=True,note=H19+"; examples/libritts/cosyvoice2/run.sh:55-91 stage 5, the torchrun line for --model llm with the shell variables expanded (run.sh as committed stops at stage 3, so the training line is named instead; argparse with dotted flags, a HyperPyYAML config with !new: constructors, a train engine chosen by a flag so that the DeepSpeed JSON given on the line is not used, dynamic batches by frame count; speech LLM of a TTS system). Not labelled: micro batch (dynamic, max_frames_in_batch 2000, "+cvy+":174-175), sequence length (text plus speech tokens, variable)")
LGN=("FoundationVision/LlamaGen","ce98ec41803a74a90ce68c40ababa9eaeffeb4ec")
lgt="autoregressive/train/train_c2i_fsdp.py"
J("llamagen-gpt-xxl-c2i-384-fsdp-8gpu",*LGN,["."],".",["--","torchrun","--nnodes=1","--nproc_per_node=8","--node_rank=0","--master_addr=127.0.0.1",
 "--master_port=12345",lgt,"--cloud-save-path","/ckpt/cloud","--code-path","/data/imagenet_code_c2i_flip_ten_crop","--image-size","384","--gpt-model","GPT-XXL"],{
 "model.num_parameters":T(1400000000,"GETTING_STARTED.md:37 --gpt-model GPT-XXL -> autoregressive/models/gpt.py:451-452 n_layer 48, n_head 24, dim 1536 ('# 1.4B'): 48 x 28.3M + 16384-token embedding and head",rel_tol=0.1),
 "dist.world_size":T(8,"scripts/autoregressive/train_c2i_fsdp.sh:4-7 torchrun with $nproc_per_node, which GETTING_STARTED.md:35 asks the user to set: 8 here"),
 "dist.nodes":T(1,"--nnodes=1 as set by the user"),
 "dist.sharding":T("fsdp_full",lgt+":385 --data-parallel default fsdp -> :41-45 ShardingStrategy.FULL_SHARD"),
 "batch.global":T(256,lgt+":378 --global-batch-size default 256"),
 "batch.micro":T(32,lgt+":224 global 256 // world size 8"),
 "batch.grad_accum":T(1,lgt+":383 --gradient-accumulation-steps is parsed but never used; :270-284 one optimizer step per batch"),
 "data.seq_len":T(576,lgt+":164-167 block_size (384 // 16)^2 = 576 image tokens; input = 1 class token + 575 tokens (:277)",any_of=[576,577]),
 "data.image_size":T(384,"GETTING_STARTED.md:37 --image-size 384 (the model sees precomputed VQ codes, --code-path)"),
 "precision.mode":T("amp_bf16",lgt+":384 --mixed-precision default bf16 -> :46-55 FSDP MixedPrecision(param_dtype bf16) over fp32 params + :272 autocast bf16"),
 "optimizer.name":T("AdamW",lgt+":94-96 torch.optim.AdamW (fused when available)",any_of=["AdamW","adamw","adamw_torch_fused"]),
 "model.attn_implementation":T("sdpa","autoregressive/models/gpt.py:232 F.scaled_dot_product_attention"),
 "data.num_workers":T(24,lgt+":380 --num-workers default 24 -> :227"),
 "data.pin_memory":T(True,lgt+":228"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in gpt.py or the FSDP setup"),
 "compile.enabled":T(False,"no torch.compile in "+lgt),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H19+"; GETTING_STARTED.md:34-38 bash scripts/autoregressive/train_c2i_fsdp.sh --cloud-save-path ... --code-path ... --image-size 384 --gpt-model GPT-XXL, written as the torchrun line of that script with the $nnodes/$nproc_per_node/$node_rank/$master_addr/$master_port the user must set (1 node, 8 GPUs) and the path placeholders filled (argparse, a model size chosen from a dict of constructors, FSDP with a MixedPrecision policy chosen by a string, an accumulation flag that is never used; class-conditional autoregressive image generation)")
VCR=("jasonppy/VoiceCraft","a702dfd2ced6d4fd6b04bdc160c832c6efc8f6c5")
vcs="e830M.sh"
J("voicecraft-830m-gigaspeech-torchrun-4gpu",*VCR,["."],"z_scripts",[vcs],{
 "model.num_parameters":T(830000000,vcs+":34-37 d_model 2048, 16 decoder layers, nhead 16 -> models/voicecraft.py:166-177 TransformerEncoderLayer with dim_feedforward 4 x d_model: 16 x 50.3M + 4 codebook embeddings and prediction heads ~34M (the script is named e830M)",rel_tol=0.1),
 "dist.world_size":T(4,vcs+":4-5 CUDA_VISIBLE_DEVICES=0,1,2,3, WORLD_SIZE=4 -> :17 --nproc_per_node=${WORLD_SIZE}"),
 "dist.nodes":T(1,vcs+":17 --nnodes=1"),
 "dist.sharding":T("ddp","steps/trainer.py:46 DistributedDataParallel"),
 "batch.grad_accum":T(26,vcs+":39 --gradient_accumulation_steps 26 -> steps/trainer.py:87-88 each loader batch split into 26 slices, one backward each, one step"),
 "precision.mode":T("amp_fp16","config.py:8 --precision default float16 -> steps/trainer.py:90 autocast(float16) + :45 GradScaler; fp32 weights"),
 "optimizer.name":T("ScaledAdam",vcs+":29 --optimizer_name ScaledAdam -> steps/trainer.py:421-424 (steps/optim.py, from icefall)",any_of=["ScaledAdam","scaledadam","scaled_adam"]),
 "data.num_workers":T(2,vcs+":66 --num_workers 8 -> steps/trainer.py:349 8 // world size 4 per process"),
 "data.pin_memory":T(False,"steps/trainer.py:347-350 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/voicecraft.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H19+"; README.md:205-209 cd ./z_scripts && bash e830M.sh (conda activate, exported CUDA_VISIBLE_DEVICES and WORLD_SIZE used on the torchrun line, ../main.py relative to the script folder, argparse with ~60 flags, dynamic batching by token count split into accumulation slices in the trainer, the ScaledAdam optimizer with an Eden scheduler; speech editing/TTS codec language model). Not labelled: micro batch (dynamic: --max_num_tokens 100000 per loader batch, :38, divided into 26 slices), sequence length (audio up to 20 s at 50 Hz plus up to 400 phonemes, variable)")
OLC=("allenai/OLMo-core","fa6c5014c9f6e9ee789da2d9c20d5126fee8df0d")
olt="src/examples/llm/train.py"
J("olmo-core-llama2-271m-c4-fsdp-torchrun-4gpu",*OLC,["src","README.md","pyproject.toml"],".",["--","torchrun","--nproc-per-node=4",olt,"run01"],{
 "model.num_parameters":T(271000000,olt+":284 --model-factory default llama2_271M -> src/olmo_core/nn/transformer/config.py:1129-1140 d_model 1024, 16 layers, 8 heads, vocab padded from GPT-2 ('A 271M Llama2-like model'; my count 257M with a tied head, 309M untied)",rel_tol=0.15),
 "dist.world_size":T(4,olt+":6 torchrun --nproc-per-node=4 (the launch line in the module docstring)"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_full",olt+":188-190 TransformerDataParallelConfig(name=DataParallelType.fsdp) (full sharding)"),
 "data.seq_len":T(2048,olt+":289-291 --sequence-length default 2048 -> :167,180"),
 "batch.global":T(128,olt+":173 global_batch_size 256*1024 tokens / 2048 = 128 sequences"),
 "batch.micro":T(8,olt+":179 rank_microbatch_size 16*1024 tokens / 2048 = 8 sequences"),
 "batch.grad_accum":T(4,"128 sequences / (8 per micro batch x 4 ranks)"),
 "precision.mode":T("amp_bf16",olt+":189 FSDP param_dtype bfloat16, reduce_dtype float32 over fp32 params"),
 "optimizer.name":T("AdamW",olt+":181 AdamWConfig",any_of=["AdamW","adamw"]),
 "compile.enabled":T(True,olt+":187 compile_model=True"),
 "data.num_workers":T(4,olt+":175"),
 "memory.gradient_checkpointing":T(False,"no ac_config in the train module config ("+olt+":178-193)"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H19+"; src/examples/llm/train.py:4-6 torchrun --nproc-per-node=4 src/examples/llm/train.py run_name (a library's own config dataclasses built in code, a model chosen by a factory-method name, batch sizes given in tokens, FSDP2 with a bf16 param dtype, compiled model; LLM pretraining on C4 streamed over HTTP)")
DHS=("pacman100/DHS-LLM-Workshop","0ba41561ce6ea16d3993069c03ec1dca3ab6769d")
dds="run_dpo.sh"
J("dhs-workshop-mistral-dpo-qlora-1gpu",*DHS,["chat_assistant/dpo"],"chat_assistant/dpo",[dds],{
 "model.ref":T("smangrul/mistral-sft",dds+":3 --model_name_or_path -> utils.py:181-201 (a PEFT adapter repo is resolved to its base at run time)",any_of=["smangrul/mistral-sft","mistralai/Mistral-7B-v0.1"]),
 "dist.world_size":T(1,dds+":1 CUDA_VISIBLE_DEVICES=0 python train.py"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process, no DeepSpeed/FSDP",any_of=["none"]),
 "batch.micro":T(2,dds+":31"),
 "batch.grad_accum":T(8,dds+":33"),
 "batch.global":T(16,"2 x 8 x 1"),
 "data.seq_len":T(1024,dds+":11 --max_seq_len 1024: argparse prefix of the max_seq_length field (train.py:113; HfArgumentParser keeps allow_abbrev) -> train.py:187 DPOTrainer max_length"),
 "precision.mode":T("amp_bf16",dds+":22 --bf16 True (Trainer autocast bf16) with a 4-bit base computing in bf16 (:44); LoRA weights fp32",any_of=["amp_bf16","bf16"]),
 "precision.weights_bits":T(4,dds+":42 --use_4bit_quantization True -> utils.py:141-146 BitsAndBytesConfig(load_in_4bit)"),
 "precision.quant_type":T("nf4","train.py:64-66 bnb_4bit_quant_type default nf4 -> utils.py:143"),
 "precision.double_quant":T(True,dds+":43 --use_nested_quant True -> utils.py:145"),
 "peft.method":T("lora",dds+":37 --use_peft_lora True -> utils.py:202-212 LoraConfig passed to DPOTrainer"),
 "task.mode":T("qlora","4-bit base + LoRA",any_of=["qlora","lora"]),
 "memory.gradient_checkpointing":T(True,dds+":34 --gradient_checkpointing True"),
 "optimizer.name":T("paged_adamw_32bit",dds+":26 --optim"),
 "model.attn_implementation":T("flash_attention_2",dds+":45 --use_flash_attn True -> utils.py:177"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "compile.enabled":T(False,"torch_compile not set"),
},held_out=True,note=H19+"; chat_assistant/dpo/run_dpo.sh (CUDA_VISIBLE_DEVICES=0 WANDB_PROJECT=rlhf python train.py with ~45 flags: HfArgumentParser over two dataclasses and TrainingArguments, a flag abbreviated by the script (--max_seq_len for max_seq_length), the model passed to TRL's DPOTrainer as a string with model_init_kwargs holding the BitsAndBytesConfig, PEFT LoRA on all linear layers; DPO on a chat model). Not labelled: LoRA rank (--lora_r 8, :38, applies only when the SFT checkpoint is not itself an adapter, utils.py:181-199, which is known only from the hub at run time)")
DAV=("DepthAnything/Depth-Anything-V2","a561b849ebae10a6f5ef49e26c83cbbcd36c71bf")
dat="train.py"
J("depth-anything-v2-metric-vitl-hypersim-8gpu",*DAV,["metric_depth","README.md"],"metric_depth",["dist_train.sh"],{
 "model.num_parameters":T(335300000,"dist_train.sh:8 encoder=vitl -> train.py:85,88 DepthAnythingV2(vitl, features 256) (README.md:41 Depth-Anything-V2-Large 335.3M)",rel_tol=0.1),
 "dist.world_size":T(8,"dist_train.sh:6,19 --nproc_per_node=$gpus with gpus=8"),
 "dist.nodes":T(1,"dist_train.sh:20 --nnodes 1"),
 "dist.sharding":T("ddp",dat+":95 DistributedDataParallel (SyncBatchNorm, :93)"),
 "batch.micro":T(4,"dist_train.sh:5 bs=4 -> --bs -> "+dat+":69 DataLoader batch_size per rank"),
 "batch.grad_accum":T(1,dat+":121-136 zero_grad/backward/step every batch"),
 "batch.global":T(32,"4 x 8 ranks"),
 "data.image_size":T(518,"dist_train.sh:10 img_size=518 -> "+dat+":61 crop size"),
 "precision.mode":T("fp32","no autocast or half in "+dat+" or depth_anything_v2/"),
 "optimizer.name":T("AdamW",dat+":100-102 torch AdamW (two groups, head lr x10)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,dat+":69"),
 "data.pin_memory":T(True,dat+":69"),
 "memory.gradient_checkpointing":T(False,"torch.utils.checkpoint imported in depth_anything_v2/dinov2.py:17 but never called"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tune from the relative-depth checkpoint (--pretrained-from, encoder weights only)"),
},held_out=True,note=H19+"; metric_depth/README.md:89-93 bash dist_train.sh (shell variables, python3 -m torch.distributed.launch, a --epoch flag that argparse completes to --epochs, a DINOv2 ViT-L encoder with a DPT head, SyncBatchNorm, DDP; metric depth estimation, vision)")
H20="twentieth held-out set"
LQL=("georgesung/llm_qlora","cc6683effd218717502e15cac0f3901d73415c1d")
lqc="configs/llama3_8b_chat_uncensored.yaml"
lqt="QloraTrainer.py"
J("llm-qlora-llama3-8b-yaml-1gpu",*LQL,["."],".",["train.py","--",lqc],{
 "model.ref":T("meta-llama/Meta-Llama-3-8B",lqc+":2 base_model -> train.py:21-25 yaml.safe_load dict -> "+lqt+":23,37 AutoModelForCausalLM.from_pretrained(config['base_model'])"),
 "dist.world_size":T(1,"README.md:15 python train.py <config>: one process; "+lqt+":37 device_map={'':0}"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP/DeepSpeed",any_of=["none"]),
 "batch.micro":T(1,lqc+":21 trainer.batch_size -> "+lqt+":81 per_device_train_batch_size"),
 "batch.grad_accum":T(4,lqc+":22 -> "+lqt+":82"),
 "batch.global":T(4,"1 x 4 x 1"),
 "data.seq_len":T(8192,lqc+":4 model_context_window -> data_processor/VicunaDataProcessor.py:13-24 tokenizer max_length with truncation"),
 "precision.mode":T("amp_fp16",lqt+":86 TrainingArguments fp16=True (autocast fp16 + GradScaler) over a 4-bit base; LoRA weights fp32 (prepare_model_for_kbit_training, :45)"),
 "precision.weights_bits":T(4,lqt+":25-30 BitsAndBytesConfig(load_in_4bit=True)"),
 "precision.quant_type":T("nf4",lqt+":28"),
 "precision.double_quant":T(True,lqt+":27 bnb_4bit_use_double_quant=True"),
 "peft.method":T("lora",lqt+":57-66 LoraConfig from the YAML lora section -> get_peft_model"),
 "peft.rank":T(8,lqc+":11 lora.r -> "+lqt+":59"),
 "task.mode":T("qlora","4-bit base + LoRA",any_of=["qlora","lora"]),
 "memory.gradient_checkpointing":T(True,lqt+":44 model.gradient_checkpointing_enable() (+ :45 prepare_model_for_kbit_training)"),
 "optimizer.name":T("adamw_torch",lqt+":77-91 TrainingArguments without optim (:90 commented out): the Trainer default",any_of=["adamw_torch","adamw_hf","adamw_torch_fused"]),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "compile.enabled":T(False,"torch_compile not set"),
},held_out=True,note=H20+"; README.md:9-16 python train.py configs/llama3_8b_chat_uncensored.yaml (a positional YAML config read with yaml.safe_load into a dict that a trainer class indexes; the model a Hub id under base_model in the YAML; QLoRA with a hard-coded BitsAndBytesConfig and fp16=True in code)")
DAC=("descriptinc/descript-audio-codec","c7cfc5d2647e26471dc394f95846a0830e7bec34")
dct="scripts/train.py"
J("dac-44khz-baseline-argbind-1gpu",*DAC,["."],".",[dct,"--","--args.load","conf/ablations/baseline.yml","--save_path","runs/baseline/"],{
 "model.num_parameters":T(76650000,"conf/base.yml:2-12 DAC encoder_dim 64, rates [2,4,8,8], decoder_dim 1536, 9 codebooks of 1024x8 -> dac/model/dac.py:145-197 (weight-normed convs; my count: encoder 22.3M + quantizer 0.24M + decoder 54.1M = 76.7M, the generator only; the discriminators, dac/model/discriminator.py, are not counted)",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:168-169 export CUDA_VISIBLE_DEVICES=0; python scripts/train.py: audiotools ml.Accelerator world_size = device_count 1, no LOCAL_RANK -> neither DDP nor DP"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one GPU: Accelerator.prepare_model wraps nothing",any_of=["none"]),
 "batch.micro":T(12,"conf/ablations/baseline.yml:1-3 includes conf/1gpu.yml:4 batch_size 12 (after base.yml's 72) -> "+dct+":386 (not divided: no DDP)"),
 "batch.grad_accum":T(1,dct+":226-275 train_loop steps both optimizers every batch"),
 "batch.global":T(12,"12 x 1 x 1"),
 "precision.mode":T("fp32","conf/base.yml:31 amp: false -> audiotools Accelerator(amp=False): accel.autocast() disabled, DummyScaler"),
 "optimizer.name":T("AdamW",dct+":31 argbind.bind(torch.optim.AdamW) for generator and discriminator",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,"conf/1gpu.yml:6 num_workers 4 -> "+dct+":385"),
 "data.pin_memory":T(False,dct+":382-388 prepare_dataloader without pin_memory (DataLoader default)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in dac/"),
 "compile.enabled":T(False,"no torch.compile (only a torch.jit.script snake function, dac/nn/layers.py:17)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H20+"; README.md:166-170 export CUDA_VISIBLE_DEVICES=0; python scripts/train.py --args.load conf/ablations/baseline.yml --save_path runs/baseline/ (argbind: a YAML of dotted Class.arg keys with $include chains, later files overriding earlier ones, bound to constructors; the audiotools Accelerator; a GAN audio codec; speech/audio). Not labelled: audio segment length (train/AudioDataset.duration 0.38 s at 44.1 kHz, conf/base.yml:73)")
YV9=("WongKinYiu/yolov9","5b1ea9a8b3f0ffe4fe0e203ec6232d788bb3fcff")
yvt="train_dual.py"
J("yolov9-c-coco-ddp-8gpu",*YV9,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node","8","--master_port","9527",yvt,
 "--workers","8","--device","0,1,2,3,4,5,6,7","--sync-bn","--batch","128","--data","data/coco.yaml","--img","640","--cfg","models/detect/yolov9-c.yaml",
 "--weights","","--name","yolov9-c","--hyp","hyp.scratch-high.yaml","--min-items","0","--epochs","500","--close-mosaic","15"],{
 "model.num_parameters":T(51300000,"--cfg models/detect/yolov9-c.yaml (depth/width multiples 1.0, nc 80) built with its auxiliary branch for training: 51.3M per the maintainer (issue #122: '51.3M is model for training, 25.3M is model for inference', the README table's 25.3M being the re-parameterized model)",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:184 --nproc_per_node 8"),
 "dist.nodes":T(1,"torch.distributed.launch on one machine"),
 "dist.devices_per_node":T(8,"README.md:184"),
 "dist.sharding":T("ddp",yvt+":233 smart_DDP(model)"),
 "batch.micro":T(16,yvt+":190 batch_size // WORLD_SIZE = 128 // 8 (--batch is the total for all GPUs, :447)"),
 "batch.grad_accum":T(1,yvt+":140-141 accumulate = max(round(64 / 128), 1) = 1 (warmup interpolates to the same 1)"),
 "batch.global":T(128,"README.md:184 --batch 128"),
 "data.image_size":T(640,"README.md:184 --img 640"),
 "precision.mode":T("amp_fp16",yvt+":119 check_amp -> :313 torch.cuda.amp.autocast(amp) fp16 + :255 GradScaler; fp32 weights"),
 "optimizer.name":T("SGD",yvt+":462 --optimizer default SGD -> :143 smart_optimizer",any_of=["SGD","sgd"]),
 "data.pin_memory":T(True,"utils/dataloaders.py:39 PIN_MEMORY default True -> :148"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (--weights '')"),
},held_out=True,note=H20+"; README.md:180-185 python -m torch.distributed.launch --nproc_per_node 8 --master_port 9527 train_dual.py ... --batch 128 --cfg models/detect/yolov9-c.yaml (argparse, a model built from a layer-list YAML whose size is in the YAML, the batch given for all GPUs and divided in code, AMP chosen by a runtime check; object detection, vision). Not labelled: workers (min(cpu_count // 8, 16, 8), utils/dataloaders.py:137, depends on the machine)")
FLM=("fla-org/flame","e11e7be75b9e45e84dbecbe8f0efa27d6af7d101")
flt="flame/models/fla.toml"
J("flame-transformer-340m-fineweb-fsdp-8gpu",*FLM,["."],".",["train.sh","--","--job.config_file",flt,
 "--job.dump_folder","exp/transformer-340M-10B/batch32.seqlen2048.warmup1024.update1.steps20480.lr3e-4",
 "--model.config","configs/transformer_340M.json","--model.tokenizer_path","fla-hub/transformer-1.3B-100B",
 "--optimizer.name","AdamW","--optimizer.eps","1e-15","--optimizer.lr","3e-4","--lr_scheduler.warmup_steps","1024",
 "--lr_scheduler.lr_min","0.1","--lr_scheduler.decay_type","cosine","--training.batch_size","32","--training.seq_len","2048",
 "--training.gradient_accumulation_steps","1","--training.steps","20480","--training.max_norm","1.0","--training.skip_nan_inf",
 "--training.dataset","HuggingFaceFW/fineweb-edu","--training.dataset_name","default","--training.dataset_split","train",
 "--training.streaming","--training.num_workers","32","--training.prefetch_factor","2","--training.seed","42","--training.compile",
 "--training.tensor_parallel_degree","1","--training.disable_loss_parallel","--checkpoint.interval","2048",
 "--checkpoint.load_step","-1","--metrics.log_freq","1"],{
 "model.num_parameters":T(357000000,"--model.config configs/transformer_340M.json (hidden 1024, 24 layers, 16 heads, vocab 32000, untied) -> flame/train.py:185,214 AutoModelForCausalLM.from_config (fla 'transformer'); my count 374M with fla's GatedMLP (intermediate 2816), the file name says 340M",rel_tol=0.1),
 "dist.world_size":T(8,"train.sh:12 NGPU default 8 -> :99-100 torchrun --nproc_per_node=${NGPU}"),
 "dist.nodes":T(1,"train.sh:11 NNODE default 1"),
 "dist.sharding":T("fsdp_full",flt+":18 data_parallel_shard_degree = -1 (all 8 ranks) -> flame/models/parallelize_fla.py:80 apply_fsdp (FSDP2 fully_shard)"),
 "batch.micro":T(32,"--training.batch_size 32 (per rank: flame/train.py:174 dataloader batch_size, :362-365 global = batch x dp x accumulation)"),
 "batch.grad_accum":T(1,"--training.gradient_accumulation_steps 1"),
 "batch.global":T(256,"32 x 8 x 1 (flame/train.py:362-365)"),
 "data.seq_len":T(2048,"--training.seq_len 2048 (context_len 2048, "+flt+":12)"),
 "precision.mode":T("amp_bf16","flame/config_manager.py:417-420 mixed_precision_param default bfloat16, reduce float32 -> FSDP2 MixedPrecisionPolicy over fp32 params"),
 "optimizer.name":T("AdamW","--optimizer.name AdamW",any_of=["AdamW","adamw"]),
 "compile.enabled":T(True,"--training.compile -> flame/models/parallelize_fla.py:69-70 apply_compile per block"),
 "data.num_workers":T(32,"--training.num_workers 32"),
 "data.pin_memory":T(False,flt+":24 pin_memory = false"),
 "memory.gradient_checkpointing":T(False,flt+":66-67 activation_checkpoint mode none"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H20+"; train.sh:29-58 NNODE=1 NGPU=8 LOG_RANK=0 bash train.sh --job.config_file flame/models/fla.toml ... (the usage block in the script; the README's example uses the same script): a torchtitan-style TOML job config overridden by dotted flags, the model chosen by a JSON config path whose size is in the file (the TOML's own [model] config is a Hub id that the flag replaces), FSDP2 with a bf16 param dtype, per-block compile; LLM pretraining with a linear-attention library)")
COC=("facebookresearch/coconut","27273cb8cca4bb763c041a63b036d0c3b7cbbb48")
J("coconut-gsm-cot-gpt2-fsdp-4gpu",*COC,["."],".",["--","torchrun","--nnodes","1","--nproc_per_node","4","run.py","args/gsm_cot.yaml"],{
 "model.ref":T("openai-community/gpt2","args/gsm_cot.yaml:21 model_id -> run.py:54,103 AutoModelForCausalLM.from_pretrained(configs.model_id)",any_of=["openai-community/gpt2","gpt2"]),
 "dist.world_size":T(4,"README.md:112 --nproc_per_node 4"),
 "dist.nodes":T(1,"--nnodes 1"),
 "dist.sharding":T("fsdp_full","run.py:188-190 FSDP(model, auto_wrap_policy=LlamaDecoderLayer only) with the default FULL_SHARD: for GPT-2 the whole model is one FSDP unit (the comment at :175 calls it DDP-like), parameters, gradients and optimizer states still sharded over 4 ranks"),
 "batch.micro":T(32,"args/gsm_cot.yaml:29 batch_size_training -> run.py:284 DataLoader per rank"),
 "batch.grad_accum":T(1,"args/gsm_cot.yaml:31"),
 "batch.global":T(128,"32 x 1 x 4"),
 "precision.mode":T("fp32","args/gsm_cot.yaml:25 bf16: False -> run.py:180-181 no cast; no autocast in run.py"),
 "optimizer.name":T("AdamW","run.py:232 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(1,"run.py:281"),
 "data.pin_memory":T(True,"run.py:283"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in run.py or coconut.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tune"),
},held_out=True,note=H20+"; README.md:109-113 torchrun --nnodes 1 --nproc_per_node 4 run.py args/gsm_cot.yaml (a positional YAML read into a namespace-like Config, the model a Hub id in the YAML, FSDP with a Llama-only wrap policy on GPT-2; the CoT stage of Coconut latent reasoning). Not labelled: sequence length (no truncation; GSM8K question + steps + answer)")
MSF=("kyutai-labs/moshi-finetune","2acc879fe7c48f885a18f6cc9548bccb2674d87b")
msy="example/moshi_7B.yaml"
msw="finetune/wrapped_model.py"
J("moshi-finetune-7b-lora-fsdp-8gpu",*MSF,["."],".",["--","torchrun","--nproc-per-node","8","-m","train",msy],{
 "model.ref":T("kyutai/moshiko-pytorch-bf16",msy+":8-9 moshi_paths.hf_repo_id -> train.py:128 CheckpointInfo.from_hf_repo"),
 "dist.world_size":T(8,"README.md:169 torchrun --nproc-per-node 8"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_full",msw+":193-195 FullyShardedDataParallel(sharding_strategy=FULL_SHARD) when world size > 1"),
 "batch.micro":T(16,msy+":23 batch_size -> train.py:171 -> finetune/data/data_loader.py:37 batches of batch_size per rank (data sharded by rank)"),
 "batch.grad_accum":T(1,"finetune/args.py:79 num_microbatches default 1 -> train.py:244"),
 "batch.global":T(128,"16 x 1 x 8"),
 "precision.mode":T("bf16","finetune/args.py:111 param_dtype bfloat16 -> "+msw+":116-165 weights in bf16; train.py:191-192,227 prepare_mixed_precision keeps fp32 copies (optim_dtype float32) of the trainable params"),
 "peft.method":T("lora",msy+":11-13 full_finetuning false, lora.enable true -> "+msw+":168-175 only lora params trainable"),
 "peft.rank":T(128,msy+":14 -> train.py:142"),
 "task.mode":T("lora","bf16 base + LoRA",any_of=["lora"]),
 "memory.gradient_checkpointing":T(True,msy+":25 -> "+msw+":126"),
 "optimizer.name":T("AdamW","train.py:12,197 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "compile.enabled":T(False,"no torch.compile in the repository"),
},held_out=True,note=H20+"; README.md:166-170 torchrun --nproc-per-node 8 --master_port $RANDOM -m train example/moshi_7B.yaml, written without the random port (a module entry point given a positional YAML parsed into simple_parsing dataclasses, the model a Hub repo id in the YAML, FSDP with hand-made bf16/fp32 mixed precision, LoRA; speech-text foundation model). Not labelled: sequence length (duration_sec 100 at the codec's 12.5 Hz frame rate = 1250 steps of 17 streams, "+msy+":22), model size (the Hub checkpoint's config)")
OCR=("allenai/olmocr","f7cfe4c22098b154c76b6ec950d1c0a464eecf8d")
occ="olmocr/train/configs/v0.4.0/qwen25_vl_olmocrv4_rotation_1epoch_mix_1025_filtered.yaml"
oct_="olmocr/train/train.py"
J("olmocr-qwen25-vl-7b-yaml-1gpu",*OCR,["olmocr","pyproject.toml","README.md"],".",["--","python","-m","olmocr.train.train","--config",occ],{
 "model.ref":T("Qwen/Qwen2.5-VL-7B-Instruct",occ+":9 model.name -> "+oct_+":335-341 Qwen2_5_VLForConditionalGeneration.from_pretrained"),
 "dist.world_size":T(1,"olmocr/train/README.md:103 python -m olmocr.train.train: one process, no torch.distributed in "+oct_),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP/DeepSpeed; "+oct_+":430-431 model.to(cuda)",any_of=["none"]),
 "batch.micro":T(1,occ+":80 -> "+oct_+":283"),
 "batch.grad_accum":T(32,occ+":82 -> "+oct_+":644 loss / accumulation, optimizer.step every 32 batches"),
 "batch.global":T(32,"1 x 32 x 1"),
 "data.seq_len":T(8192,occ+":86 collator_max_token_len -> "+oct_+":97-101 truncation"),
 "precision.mode":T("bf16",occ+":11 torch_dtype bfloat16 -> "+oct_+":327 weights in bf16 + :642 autocast bf16; AdamW on the bf16 params (no fp32 copy)"),
 "optimizer.name":T("AdamW",occ+":94 optim adamw_torch -> "+oct_+":450-466 torch.optim.AdamW",any_of=["AdamW","adamw","adamw_torch"]),
 "model.attn_implementation":T("flash_attention_2",occ+":12-13 -> "+oct_+":330"),
 "memory.gradient_checkpointing":T(False,occ+":84"),
 "compile.enabled":T(True,occ+":99 torch_compile true -> "+oct_+":434-441"),
 "data.num_workers":T(16,"olmocr/train/config.py:263 dataloader_num_workers default 16 -> "+oct_+":286"),
 "peft.method":T("none",occ+":16 use_lora false"),
},held_out=True,note=H20+"; olmocr/train/README.md:100-104 python -m olmocr.train.train --config olmocr/train/configs/v0.4.0/... (a nested YAML loaded into dataclasses, the model a Hub id in the YAML, a hand-written loop with bf16 weights and autocast, torch.compile; a 7B vision-language OCR model)")
SR1=("PeterGriffinJin/Search-R1","a14dc3a4ffc6fe88c1e95038d9738e21ba3f7a06")
srf="verl/workers/fsdp_workers.py"
J("search-r1-ppo-llama32-3b-verl-8gpu",*SR1,["."],".",["train_ppo.sh"],{
 "model.ref":T("meta-llama/Llama-3.2-3B","train_ppo.sh:6 export BASE_MODEL -> :42 actor_rollout_ref.model.path=$BASE_MODEL (and :64 critic)"),
 "dist.world_size":T(8,"train_ppo.sh:1 CUDA_VISIBLE_DEVICES=0..7, :77-78 trainer.n_gpus_per_node=8 nnodes=1 (Ray workers, one per GPU)"),
 "dist.nodes":T(1,"train_ppo.sh:78"),
 "dist.sharding":T("fsdp_full",srf+":200-218 actor FSDP with a transformer wrap policy -> ShardingStrategy.FULL_SHARD"),
 "batch.micro":T(8,"train_ppo.sh:48 ppo_micro_batch_size=64 -> "+srf+":98 divided by 8 ranks"),
 "batch.grad_accum":T(4,"train_ppo.sh:47 ppo_mini_batch_size=256 / 8 ranks = 32 per rank ("+srf+":97), in micro batches of 8: verl/workers/actor/dp_actor.py:207-208 gradient_accumulation = 32 // 8, :220-286 one optimizer step per mini batch"),
 "batch.global":T(256,"train_ppo.sh:47 ppo_mini_batch_size (sequences per actor optimizer step; rollout.n 1)"),
 "precision.mode":T("amp_bf16",srf+":132-134 actor weights fp32 + :184-192 FSDP MixedPrecision(param_dtype bf16, reduce fp32)"),
 "optimizer.name":T("AdamW",srf+":229 optim.AdamW",any_of=["AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",srf+":167"),
 "memory.gradient_checkpointing":T(True,"train_ppo.sh:44 enable_gradient_checkpointing=true -> "+srf+":172-173"),
 "peft.method":T("none","full-parameter PPO"),
},held_out=True,note=H20+"; README.md:125-129 bash train_ppo.sh (exported CUDA_VISIBLE_DEVICES and BASE_MODEL, then python3 -m verl.trainer.main_ppo with ~60 Hydra key=value overrides on a vendored verl 0.1, PPO with a critic, vLLM rollouts, batch sizes given globally and divided per rank in the worker; RL post-training with a search tool). Not labelled: sequence length (prompt up to 4096 plus 500-token turns), offload (fsdp_config param/optimizer_offload are verl's manual offload between phases, not during the update)")
AMB=("LLM360/amber-train","64bc595600324ebb7d6d559af76a8702f0872776")
J("amber-7b-pretrain-fabric-fsdp-sbatch-56nodes",*AMB,["."],".",["run.sh"],{
 "model.num_parameters":T(6738000000,"main.py:30,147-148 LlamaForCausalLM(config=AutoConfig.from_pretrained('huggyllama/llama-7b')): LLaMA-7B shape, trained from scratch",rel_tol=0.1),
 "model.ref":T("huggyllama/llama-7b","main.py:27,30 HF_MODEL_NAME_OR_PATH = f'huggyllama/llama-{MODEL_SIZE}' (the config only; weights initialised from scratch)"),
 "dist.nodes":T(56,"run.sh:4 #SBATCH --nodes=56, :12 --n_nodes 56 -> main.py:126 Fabric(num_nodes)"),
 "dist.devices_per_node":T(4,"run.sh:5,7 4 tasks and 4 GPUs per node; main.py:120 n_devices_per_node default 4"),
 "dist.world_size":T(224,"56 x 4"),
 "dist.sharding":T("fsdp_full","main.py:129-135 Fabric FSDPStrategy (default FULL_SHARD)"),
 "dist.offload_params":T("cpu","main.py:134 cpu_offload=True"),
 "batch.micro":T(10,"main.py:121 per_device_batch_size default 10 (fire, not given by run.sh)"),
 "batch.grad_accum":T(1,"main.py:122 accumulate_grad_batches default 1"),
 "batch.global":T(2240,"10 x 1 x 224"),
 "precision.mode":T("amp_bf16","main.py:42 PRECISION = 'bf16-mixed' -> Fabric autocast bf16 over fp32 params"),
 "optimizer.name":T("AdamW","main.py:149-154 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"main.py:133 activation_checkpointing_policy={LlamaDecoderLayer}"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H20+"; run.sh (an sbatch script: #SBATCH --nodes=56 --ntasks-per-node=4 --gres=gpu:4, then srun python main.py --n_nodes 56 --run_wandb; fire.Fire over main's keyword defaults, module constants for precision and the model name, Lightning Fabric with FSDP, CPU offload and activation checkpointing; LLM pretraining of Amber-7B). Not labelled: sequence length (the pre-tokenised jsonl examples' length, main.py:50-53)")
PFM=("sail-sg/poolformer","a075575b8b3dc3c76ecc5c49985d156167372bfa")
J("poolformer-s12-imagenet-apex-8gpu",*PFM,["distributed_train.sh","train.py","models","README.md"],".",["distributed_train.sh","--","8","/path/to/imagenet",
 "--model","poolformer_s12","-b","128","--lr","1e-3","--drop-path","0.1","--apex-amp"],{
 "model.ref":T("poolformer_s12","README.md:127,130 --model $MODEL with MODEL=poolformer_s12 -> models/poolformer.py:424-425 @register_model (timm create_model)"),
 "model.num_parameters":T(12000000,"models/poolformer.py:427 'Params: 12M'; README.md:89",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:129 ./distributed_train.sh 8 -> distributed_train.sh:4 torch.distributed.launch --nproc_per_node=$NUM_PROC"),
 "dist.nodes":T(1,"torch.distributed.launch on one machine"),
 "dist.devices_per_node":T(8,"README.md:129"),
 "dist.sharding":T("ddp","train.py:472 ApexDDP (apex AMP) / :476 NativeDDP"),
 "batch.micro":T(128,"README.md:130 -b 128 (per process, timm-style)"),
 "batch.grad_accum":T(1,"no accumulation in train.py"),
 "batch.global":T(1024,"128 x 8"),
 "data.image_size":T(224,"the model's default input size (README.md:89 resolution 224; --img-size not given)"),
 "precision.mode":T("amp_fp16","README.md:130 --apex-amp -> train.py:361-362,435 apex amp.initialize(opt_level='O1') (apex listed in README.md:63 for fp16)"),
 "optimizer.name":T("adamw","train.py:122 --opt default adamw (timm create_optimizer)",any_of=["adamw","AdamW"]),
 "data.num_workers":T(8,"train.py:271 --workers default 8"),
 "data.pin_memory":T(False,"train.py:285 --pin-mem not given"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models/poolformer.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H20+"; README.md:125-131 MODEL=poolformer_s12 DROP_PATH=0.1 CUDA_VISIBLE_DEVICES=0,...,7 ./distributed_train.sh 8 /path/to/imagenet --model $MODEL -b 128 --lr 1e-3 --drop-path $DROP_PATH --apex-amp, with the shell variables expanded (a timm-derived train.py, the model a timm registry key registered by the project, apex AMP; image classification, vision)")
H21="twenty-first held-out set"
E2M=("NVlabs/edm2","4bf8162f601bcc09472ce8a32dd0cbe8889dc8fc")
e2t="train_edm2.py"
e2l="training/training_loop.py"
J("edm2-img512-xs-diffusion-torchrun-8gpu",*E2M,["."],".",["--","torchrun","--standalone","--nproc_per_node=8",e2t,
 "--outdir=training-runs/00000-edm2-img512-xs","--data=datasets/img512-sd.zip","--preset=edm2-img512-xs","--batch-gpu=32"],{
 "model.num_parameters":T(125000000,e2t+":27 preset edm2-img512-xs channels=128 -> :75 network_kwargs class_name training.networks_edm2.Precond(model_channels=128) built by dnnlib.util.construct_class_by_name ("+e2l+":112); the EDM2 paper's XS model has 125M parameters",rel_tol=0.1),
 "dist.world_size":T(8,"README.md:197 torchrun --standalone --nproc_per_node=8"),
 "dist.nodes":T(1,"--standalone"),
 "dist.sharding":T("ddp",e2l+":126 DistributedDataParallel"),
 "batch.micro":T(32,"README.md:201 --batch-gpu=32 -> "+e2t+":80 -> "+e2l+":93-94,145 DataLoader batch_size=batch_gpu"),
 "batch.grad_accum":T(8,e2t+":27 batch 2048 -> "+e2l+":92 2048 // 8 = 256 per GPU, :95 num_accumulation_rounds 256 // 32 = 8, :219"),
 "batch.global":T(2048,e2t+":27 batch=2048 ("+e2l+":96 asserts 32 x 8 x 8)"),
 "data.image_size":T(512,"--data=datasets/img512-sd.zip (ImageNet 512x512 encoded by the SD VAE: the network sees 64x64x4 latents, README.md:169-186)"),
 "precision.mode":T("amp_fp16",e2t+":162 --fp16 default True -> :81 use_fp16 -> training/networks_edm2.py:299 the UNet runs in float16 (inputs cast, fp32 weights cast in each layer); the optimizer updates fp32 weights (loss scaling 1, no GradScaler)"),
 "optimizer.name":T("Adam",e2l+":64 torch.optim.Adam (betas 0.9, 0.99)",any_of=["Adam","adam"]),
 "data.num_workers":T(2,e2l+":61"),
 "data.pin_memory":T(True,e2l+":61"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in training/networks_edm2.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README.md:196-201 torchrun --standalone --nproc_per_node=8 train_edm2.py --outdir=... --data=datasets/img512-sd.zip --preset=edm2-img512-xs --batch-gpu=32 (click options, a preset dict sizing the model, the network, loss, optimizer and loader built by dnnlib.util.construct_class_by_name from class-name strings, a total batch divided by world size and the per-GPU limit into accumulation rounds, fp16 by explicit casts; latent diffusion, image generation)")
VIM=("hustvl/Vim","dd0358ad1e42701f22afbefa0717cc8825cf9f45")
vms="vim/scripts/pt-vim-t.sh"
vmm="vim/main.py"
J("vim-tiny-imagenet-ddp-script-8gpu",*VIM,["vim","README.md"],".",[vms],{
 "model.ref":T("vim_tiny_patch16_224_bimambav2_final_pool_mean_abs_pos_embed_with_midclstok_div2",vms+":5 --model -> "+vmm+":301 timm create_model -> vim/models_mamba.py:555-558 @register_model (VisionMamba embed_dim 192, depth 24)"),
 "model.num_parameters":T(7000000,"README.md:77 Vim-tiny 7M (vim/models_mamba.py:557-558 embed_dim 192 x 24 bidirectional Mamba blocks)",rel_tol=0.15),
 "dist.world_size":T(8,vms+":5 CUDA_VISIBLE_DEVICES=0..7 python -m torch.distributed.launch --nproc_per_node=8 --use_env"),
 "dist.nodes":T(1,"torch.distributed.launch on one machine"),
 "dist.devices_per_node":T(8,vms+":5"),
 "dist.sharding":T("ddp",vmm+":383 DistributedDataParallel"),
 "batch.micro":T(128,vms+":5 --batch-size 128 (per process: "+vmm+":274-279 DataLoader batch_size=args.batch_size with a DistributedSampler)"),
 "batch.grad_accum":T(1,"no accumulation in vim/engine.py"),
 "batch.global":T(1024,"128 x 8"),
 "data.image_size":T(224,vmm+":46 --input-size default 224"),
 "precision.mode":T("fp32",vms+":5 --no_amp -> "+vmm+":194-196 if_amp False -> :394 amp_autocast = suppress (no autocast)"),
 "optimizer.name":T("adamw",vmm+":60 --opt default adamw -> :391 timm create_optimizer",any_of=["adamw","AdamW"]),
 "data.num_workers":T(25,vms+":5 --num_workers 25"),
 "data.pin_memory":T(True,vmm+":185 set_defaults(pin_mem=True) -> :278"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in vim/models_mamba.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README.md:68 bash vim/scripts/pt-vim-t.sh (a launch script with conda activate and cd to placeholder paths, then CUDA_VISIBLE_DEVICES=0..7 python -m torch.distributed.launch --nproc_per_node=8 --use_env main.py ... --no_amp; a DeiT-derived main.py, the model a timm registry key registered by the project's models_mamba.py, a store_false flag turning AMP off; Vision Mamba image classification, vision)")
BVG=("NVIDIA/BigVGAN","7d2b454564a6c7d014227f635b7423881f14bdac")
bvc="configs/bigvgan_v2_24khz_100band_256x.json"
J("bigvgan-v2-24khz-vocoder-json-config",*BVG,["."],".",["train.py","--","--config",bvc,
 "--input_wavs_dir","filelists/LibriTTS","--input_training_file","filelists/LibriTTS/train-full.txt",
 "--input_validation_file","filelists/LibriTTS/val-full.txt",
 "--list_input_unseen_wavs_dir","filelists/LibriTTS","filelists/LibriTTS",
 "--list_input_unseen_validation_file","filelists/LibriTTS/dev-clean.txt","filelists/LibriTTS/dev-other.txt",
 "--checkpoint_path","exp/bigvgan_v2_24khz_100band_256x"],{
 "model.num_parameters":T(112000000,"README.md:193 bigvgan_v2_24khz_100band_256x 112M: train.py:72 BigVGAN(h) sized by "+bvc+":11-15 (upsample_initial_channel 1536, rates [4,4,2,2,2,2], resblocks [3,7,11]); the generator only, the discriminators (train.py:75,89) not counted",rel_tol=0.1),
 "batch.global":T(4,bvc+":4 batch_size 4 -> train.py:758 divided by the number of visible GPUs into the per-GPU batch (so 4 images in all whatever the GPU count)"),
 "batch.grad_accum":T(1,"train.py: one optimizer step per batch for the generator and for the discriminators, no accumulation"),
 "precision.mode":T("fp32","no autocast, half or GradScaler in train.py"),
 "optimizer.name":T("AdamW","train.py:146-151 torch.optim.AdamW for generator and discriminators",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,bvc+":54 -> train.py:199"),
 "data.pin_memory":T(True,"train.py:203"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in bigvgan.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README.md:110-118 python train.py --config configs/bigvgan_v2_24khz_100band_256x.json --input_wavs_dir ... --checkpoint_path ... (argparse; a JSON config read into an AttrDict that sizes the generator and the discriminators, a total batch divided by torch.cuda.device_count() in code, torch.multiprocessing.spawn over all visible GPUs; a GAN neural vocoder, speech). Not labelled: world size and per-GPU batch (the number of visible GPUs, train.py:757-758), audio segment length (segment_size 65536 samples, "+bvc+":41)")
MLM=("facebookresearch/MobileLLM","8b9769db377dc1f67ab967cfc11b08cb06feeffc")
J("mobilellm-125m-pretrain-torchrun-script-8gpu",*MLM,["."],".",["pretrain.sh"],{
 "model.num_parameters":T(124640000,"pretrain.sh:9 --input_model_filename ./configs/125M/ -> pretrain.py:166-171 AutoConfig.from_pretrained + the project's LlamaForCausalLM(config) from scratch; configs/125M/config.json hidden 576, 30 layers, 9 heads, 3 KV heads, intermediate 1536, vocab 32000, with --share_embedding True (pretrain.sh:40, utils/modeling_llama.py:1134,1235 lm_head tied to the embedding): my count 30 x 3.54M + 18.4M = 124.6M",rel_tol=0.1),
 "dist.world_size":T(8,"pretrain.sh:8 torchrun --nnodes=1 --nproc_per_node=8"),
 "dist.nodes":T(1,"pretrain.sh:8 --nnodes=1"),
 "dist.devices_per_node":T(8,"pretrain.sh:8"),
 "dist.sharding":T("ddp","HF Trainer under torchrun without --fsdp or --deepspeed: DistributedDataParallel"),
 "batch.micro":T(32,"pretrain.sh:20 --per_device_train_batch_size 32 -> pretrain.py:206 get_iterable_dataloader(batch_size)"),
 "batch.grad_accum":T(1,"pretrain.sh:22"),
 "batch.global":T(256,"32 x 1 x 8"),
 "precision.mode":T("amp_bf16","pretrain.sh:15-16 --fp16 False --bf16 True (HF Trainer autocast bf16 over fp32 weights)"),
 "optimizer.name":T("adamw_torch","utils/process_args.py:48 optim default adamw_torch",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"pretrain.sh:36 --gradient_checkpointing False"),
 "data.num_workers":T(0,"pretrain.py:103 DataLoader without num_workers, returned as is by utils/pretrain_trainer.py:116-127"),
 "data.pin_memory":T(False,"pretrain.py:103 DataLoader default"),
 "compile.enabled":T(False,"no torch_compile flag, no torch.compile"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H21+"; README.md:48-52 bash pretrain.sh (a torchrun script with ~35 HfArgumentParser flags over three dataclasses, one a TrainingArguments subclass; the model a local config directory read with AutoConfig into the project's own LlamaForCausalLM with a tied-embedding flag, so its size is in configs/125M/config.json; a Trainer subclass whose train loader is a plain DataLoader over pre-tokenised JSONL; LLM pretraining). Not labelled: sequence length (the pre-tokenised JSONL lines' length; --model_max_length 2048 only sets the tokenizer's limit)")
ARI=("rhymes-ai/Aria","9b25fecb02553a24832c26617d4e034517f71260")
arc="recipes/config_full.yaml"
arz="recipes/accelerate_configs/zero2.yaml"
J("aria-moe-vlm-full-sft-trl-zero2",*ARI,["aria","recipes","pyproject.toml","README.md"],".",["--","accelerate","launch","--config_file",arz,"aria/train.py","--config",arc],{
 "model.ref":T("rhymes-ai/Aria",arc+":1 model_name_or_path -> aria/train.py:61 AriaForConditionalGeneration.from_pretrained"),
 "dist.world_size":T(2,arz+":17 num_processes 2 (README.md:175 gives no --num_processes; README.md:172 says it was tested on 8 GPUs)"),
 "dist.nodes":T(1,arz+":16 num_machines 1"),
 "dist.sharding":T("zero2",arz+":9-10 DEEPSPEED zero_stage 2"),
 "dist.offload_optimizer":T("none",arz+":6"),
 "dist.offload_params":T("none",arz+":7"),
 "batch.micro":T(8,arc+":12 per_device_train_batch_size (TrlParser YAML config, aria/train.py:213-214)"),
 "batch.grad_accum":T(2,arc+":13"),
 "batch.global":T(32,"8 x 2 x 2"),
 "data.seq_len":T(2048,arc+":32 max_seq_length -> aria/train.py:239 collate_fn truncation max_length"),
 "precision.mode":T("bf16",arc+":15-16 bf16 true, torch_dtype bfloat16 (aria/train.py:47-56 weights loaded in bf16) under DeepSpeed with "+arz+":15 mixed_precision bf16: DeepSpeed bf16 (16-bit weights, fp32 master copies)"),
 "optimizer.name":T("adamw_torch","SFTConfig (transformers 4.46.3, pyproject.toml:16) optim default adamw_torch; the DeepSpeed config names no optimizer",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,arc+":17 -> aria/train.py:215 use_reentrant False"),
 "data.num_workers":T(8,arc+":9 dataloader_num_workers"),
 "peft.method":T("none",arc+" sets no use_peft (trl ModelConfig default False) -> aria/train.py:77"),
 "compile.enabled":T(False,"no torch_compile in the config"),
},held_out=True,note=H21+"; README.md:174-176 accelerate launch --config_file recipes/accelerate_configs/zero2.yaml aria/train.py --config recipes/config_full.yaml (TrlParser over three dataclasses filled from a YAML given by --config, TRL 0.9.6 SFTTrainer with a custom collator, an accelerate DeepSpeed ZeRO-2 config, a Hub-only 25B mixture-of-experts vision-language model with its vision tower frozen; multimodal SFT). Not labelled: model size (the Hub checkpoint's config; MoE, about 25B parameters, 3.9B active), image size (max_image_size 980, split into 490 crops by the processor)")
OSR=("hpcaitech/Open-Sora","7ad6a96a135feb81f755c84fb391818718f6beb2")
osc="configs/vae/train/video_dc_ae.py"
ost="scripts/vae/train.py"
J("opensora-video-dc-ae-colossalai-zero2-8gpu",*OSR,["."],".",["--","torchrun","--nproc_per_node","8",ost,osc],{
 "model.ref":T("dc-ae-f32t4c128",osc+":4-9 model type dc_ae, model_name dc-ae-f32t4c128, from_scratch -> "+ost+":146 build_module(cfg.model, MODELS) -> opensora/models/dc_ae/ae_model_zoo.py:51-70 the registered DC_AE builds DCAE_HF from the named config (opensora/models/dc_ae/models/dc_ae.py:790-803)",any_of=["dc-ae-f32t4c128","dc_ae"]),
 "dist.world_size":T(8,"docs/ae.md:18 torchrun --nproc_per_node 8"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("zero2",osc+":46 plugin zero2 -> opensora/utils/train.py:100-106 ColossalAI LowLevelZeroPlugin(stage=2)"),
 "batch.micro":T(1,osc+":21-23 bucket_config 256px_ar1:1 {32 frames: (1.0, batch 1)} -> "+ost+":134-135 prepare_dataloader(bucket_config) (one 32-frame clip per rank; some ranks use a single frame, :381-385)"),
 "batch.grad_accum":T(1,ost+":322 accumulation_steps default 1, not in the config"),
 "batch.global":T(8,"1 x 1 x 8"),
 "data.image_size":T(256,osc+":22 256px bucket"),
 "precision.mode":T("bf16",osc+":45 dtype bf16 -> "+ost+":146 model built in bf16 + opensora/utils/train.py:91 LowLevelZeroPlugin(precision=bf16) keeps fp32 master weights"),
 "optimizer.name":T("HybridAdam",osc+":32-38 cls HybridAdam, adamw_mode True -> opensora/utils/optimizer.py:21-26 (ColossalAI HybridAdam)",any_of=["HybridAdam","AdamW","adamw"]),
 "data.num_workers":T(12,osc+":26 -> "+ost+":124"),
 "data.pin_memory":T(True,ost+":128"),
 "memory.gradient_checkpointing":T(False,osc+":53 grad_checkpoint False -> "+ost+":149"),
 "compile.enabled":T(False,"no torch.compile in "+ost),
 "peft.method":T("none","training from scratch ("+osc+":7)"),
},held_out=True,note=H21+"; docs/ae.md:17-19 torchrun --nproc_per_node 8 scripts/vae/train.py configs/vae/train/video_dc_ae.py (an mmengine-style Python config of dicts, the model, dataset and optimizer built from a registry by type name, ColossalAI Booster with a ZeRO-2 plugin in bf16, bucketed video batches; a video autoencoder for a text-to-video model, vision/video generation). Not labelled: model size (a DC-AE config string of widths and depths, opensora/models/dc_ae/models/dc_ae.py:791-803, not counted), frames per clip (32, a video dimension the plan has no field for)")
FOURM=("apple/ml-4m","cda590faa3b9f022c28537193d3e1650527646a3")
fmc="cfgs/default/4m/models/main/4m-l_mod7_500b.yaml"
fmt="run_training_4m_fsdp.py"
J("4m-l-multimodal-fsdp-yaml-8gpu",*FOURM,["."],".",["--","torchrun","--nproc_per_node=8",fmt,"--config",fmc],{
 "model.ref":T("fm_large_24e_24d_swiglu_nobias",fmc+":14 model -> "+fmt+":384 fourm.utils.create_model (timm-style registry) -> fourm/models/fm.py:1011-1023 FourM encoder 24 + decoder 24, dim 1024"),
 "model.num_parameters":T(705000000,"README_TRAINING.md:61 4M-L 705M (the config of that row is "+fmc+")",rel_tol=0.1),
 "dist.world_size":T(8,"README_TRAINING.md:51 torchrun --nproc_per_node=8 (with <config> filled by the 4M-L row of README_TRAINING.md:61)"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_grad_op",fmt+":524 ShardingStrategy.SHARD_GRAD_OP -> :533-539 FSDP"),
 "batch.micro":T(64,fmc+":28 batch_size 64 (YAML read into argparse defaults, "+fmt+":233-236) -> :315-318 per-GPU loader batch"),
 "batch.grad_accum":T(1,fmt+":66 --accum_iter default 1"),
 "batch.global":T(512,"64 x 1 x 8 ("+fmt+":501; the YAML's 8192 assumes 128 GPUs, "+fmc+":5)"),
 "data.image_size":T(224,fmc+":16 input_size"),
 "precision.mode":T("amp_bf16",fmc+":17 dtype bfloat16 -> "+fmt+":758 torch.cuda.amp.autocast(bf16) over fp32 params, :526-528 FSDP MixedPrecision(reduce_dtype bf16) only"),
 "optimizer.name":T("adamw",fmc+":23 opt adamw -> "+fmt+":541 create_optimizer",any_of=["adamw","AdamW"]),
 "memory.gradient_checkpointing":T(False,fmt+":70-72 use_act_checkpoint default False, not in the YAML"),
 "compile.enabled":T(False,"no torch.compile in "+fmt),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README_TRAINING.md:50-53 OMP_NUM_THREADS=1 torchrun --nproc_per_node=8 run_training_4m_fsdp.py --config cfgs/default/4m/models/<config>.yaml with <config> filled by the 4M-L row of the table at :61 (a YAML that sets argparse defaults, the model a name in a timm-style registry built with modality embeddings, FSDP SHARD_GRAD_OP with autocast bf16; a multimodal any-to-any masked model, vision). Not labelled: data workers (min of the dataset's shard count and --num_workers 10, :310), token budgets (128 input + 128 target tokens per sample, not a sequence length)")
BSD=("HazyResearch/based","32c1bd4e09c8f7f718b0ed3f2e0a333908297879")
bse="configs/experiment/example/based-360m.yaml"
bsb="configs/experiment/pile/base.yaml"
J("based-360m-wikitext-hydra-lightning-8gpu",*BSD,["train","based","setup.py","README.md"],"train",["run.py","--","experiment=example/based-360m","trainer.devices=8"],{
 "model.num_parameters":T(362000000,bse+":44-111 model _target_ based.models.gpt.GPTLMHeadModel with GPT2MixerConfig n_embd 1024, n_layer 27 (17 BaseConv expand 4, 5 Taylor linear-attention, 5 sliding-window layers), SwiGLU n_inner 2048, GPT-2 vocab padded to 50264, tied embedding, instantiated by hydra (training.py:121 -> train/tasks/seq.py); my count 107M + 13M + 21M mixers + 170M MLP + 51.5M embedding = 362M (the name says 360m)",rel_tol=0.1),
 "dist.world_size":T(8,"train/README.md:31 trainer.devices=8 on the command line ("+bsb+":22-23 num_nodes 1)"),
 "dist.nodes":T(1,bsb+":23 num_nodes 1"),
 "dist.devices_per_node":T(8,"trainer.devices=8"),
 "dist.sharding":T("ddp",bsb+":30 strategy null + devices 8 -> training.py:170-175 DDPStrategy"),
 "batch.micro":T(8,bse+":31 datamodule.batch_size 8 per GPU (overrides gpt3m-flash.yaml:12's GPU-memory formula and wikitext103.yaml's 4)"),
 "batch.grad_accum":T(4,bsb+":24 accumulate_grad_batches = div_up(global_batch_size 256 (:41), devices 8 x batch 8 x nodes 1) = 4"),
 "batch.global":T(256,bsb+":41 train.global_batch_size"),
 "data.seq_len":T(2048,"configs/datamodule/wikitext103.yaml:7 max_length 2048 (also "+bsb+":35)"),
 "precision.mode":T("amp_bf16",bsb+":28 trainer.precision bf16 (pytorch-lightning 1.8.6, setup.py:46: bf16 autocast over fp32 weights)"),
 "optimizer.name":T("FusedAdam",bse+":10-11 apex.optimizers.FusedAdam with adam_w_mode true (AdamW)",any_of=["FusedAdam","AdamW","adamw"]),
 "data.num_workers":T(1,"train/datamodules/language_modeling_hf.py:285 num_workers=1 (the datamodule's num_workers 64 is for preprocessing only)"),
 "data.pin_memory":T(True,"configs/datamodule/wikitext103.yaml:14 -> train/datamodules/language_modeling_hf.py:289"),
 "memory.gradient_checkpointing":T(False,"no mlp_checkpoint_lvl in the config (configs/experiment/pile/gpt3m-flash.yaml:6-9 comments it out); based/models/gpt.py:299 default 0"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H21+"; train/README.md:29-32 cd train/; python run.py experiment=example/based-360m trainer.devices=8 (Hydra with a four-deep chain of experiment defaults, values from ${eval:...} and ${div_up:...} resolvers, the model, task, optimizer and trainer built by hydra.utils.instantiate from _target_ strings, PyTorch Lightning 1.8 DDP; a linear-attention LLM pretrained on WikiText-103)")
RAR=("bytedance/1d-tokenizer","942a96fbdd873780179d1b78d5462911528bf8c8")
rry="configs/training/generator/rar.yaml"
J("rar-l-imagenet-ar-accelerate-4nodes",*RAR,["."],".",["--","accelerate","launch","--num_machines=4","--num_processes=32","--machine_rank=0",
 "--main_process_ip=10.0.0.1","--main_process_port=9999","--same_network","scripts/train_rar.py","config="+rry,
 "experiment.project=rar","experiment.name=rar_l","experiment.output_dir=rar_l","model.generator.hidden_size=1024",
 "model.generator.num_hidden_layers=24","model.generator.num_attention_heads=16","model.generator.intermediate_size=4096"],{
 "model.num_parameters":T(461000000,"README_RAR.md:179-186 overrides model.generator.hidden_size=1024, num_hidden_layers=24, intermediate_size=4096 on "+rry+":20-29 -> modeling/rar.py:186 RAR(config): 24 blocks of attention + MLP (12.6M) + adaLN modulation (6.3M, :173-180); my count about 455M plus embeddings, the RAR paper's RAR-L is 461M",rel_tol=0.1),
 "dist.world_size":T(32,"README_RAR.md:179 accelerate launch --num_processes=32"),
 "dist.nodes":T(4,"--num_machines=4"),
 "dist.devices_per_node":T(8,"32 processes / 4 machines"),
 "dist.sharding":T("ddp","scripts/train_rar.py:56-60,105 plain Accelerator (no DeepSpeed/FSDP plugin): DDP over 32 processes"),
 "batch.micro":T(64,rry+":71 per_gpu_batch_size 64 (OmegaConf CLI config=, utils/train_utils.py:328)"),
 "batch.grad_accum":T(1,rry+":70 -> scripts/train_rar.py:57"),
 "batch.global":T(2048,"64 x 1 x 32 ("+rry+":71 comment: total batch size 2048)"),
 "data.image_size":T(256,rry+":48-49 resize 256, crop 256 (the generator sees 256 VQ tokens of a 16x16 grid)"),
 "precision.mode":T("amp_bf16",rry+":72 mixed_precision bf16 -> scripts/train_rar.py:58 Accelerator(mixed_precision) autocast over fp32 weights"),
 "optimizer.name":T("AdamW",rry+":54 name adamw -> utils/train_utils.py:224-242 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,rry+":35 use_checkpoint False -> modeling/rar.py:244"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H21+"; README_RAR.md:178-186 WANDB_MODE=offline accelerate launch --num_machines=4 --num_processes=32 --machine_rank=${MACHINE_RANK} --main_process_ip=${ROOT_IP} --main_process_port=${ROOT_PORT} --same_network scripts/train_rar.py config=configs/training/generator/rar.yaml ... (RAR-L), written with the environment variable removed and the three shell variables filled for the first machine (OmegaConf YAML given as config= and overridden by dotted key=value arguments that size the model, a frozen MaskGIT VQ tokenizer downloaded from the Hub, webdataset loaders; class-conditional autoregressive image generation, vision). Not labelled: data workers (num_workers_per_gpu 12 inside a webdataset loader, "+rry+":46)")
TGR=("open-thought/tiny-grpo","eafedd78ff86dbb724a3dd21bb04ab6523ac8f3c")
J("tiny-grpo-llama32-1b-single-gpu",*TGR,["."],".",["train.py"],{
 "model.ref":T("meta-llama/Llama-3.2-1B-Instruct","train.py:198 model_name (a local in main) -> :221 load_model -> :31-36 LlamaForCausalLM.from_pretrained"),
 "dist.world_size":T(1,"README.md:24 python train.py: one process, train.py:197,216 cuda device 0"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP/DeepSpeed",any_of=["none"]),
 "batch.micro":T(16,"train.py:201 train_batch_size 16 -> :317-323 DataLoader over the replay buffer (16 sampled completions per optimizer step)"),
 "batch.grad_accum":T(1,"train.py:333-351 zero_grad, backward and step on every batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "precision.mode":T("bf16","train.py:26,35 bf16 True -> torch_dtype bfloat16 weights; :222 Adam directly on the bf16 parameters (no autocast, no fp32 copy)"),
 "optimizer.name":T("Adam","train.py:222 optim.Adam",any_of=["Adam","adam"]),
 "model.attn_implementation":T("flash_attention_2","train.py:34"),
 "memory.gradient_checkpointing":T(True,"train.py:225-227 gradient_checkpointing_enable"),
 "data.num_workers":T(0,"train.py:317-323 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:317-323 DataLoader default (the prompt loader, :239-245, sets pin_memory=False too)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full-parameter GRPO"),
},held_out=True,note=H21+"; README.md:24 python train.py (no command-line arguments: every hyperparameter a local variable of main(), a frozen reference copy of the policy on the same GPU, rollouts with HF generate, a hand-written GRPO loss over a replay buffer; RL post-training). Not labelled: sequence length (prompt plus up to max_length 1024 tokens, train.py:212, variable)")
R1S=("RUCAIBox/R1-Searcher","631167cbb3c2464f805730e3e364a690f5b136d4")
r1s="scripts/qwen_reinforce_plus_train.sh"
r1o="OpenRLHF-RAG/openrlhf"
J("r1-searcher-qwen25-7b-reinforce-openrlhf-ray",*R1S,["scripts","OpenRLHF-RAG/openrlhf","OpenRLHF-RAG/setup.py","README.md"],".",[r1s],{
 "model.ref":T("/opt/aps/workdir/model/Qwen2.5-7B",r1s+":19 TOKENIZER_PATH -> :52 --pretrain (a local copy of Qwen2.5-7B)",any_of=["/opt/aps/workdir/model/Qwen2.5-7B","Qwen/Qwen2.5-7B","Qwen2.5-7B"]),
 "dist.world_size":T(4,r1s+":47-48 actor_num_nodes 1 x actor_num_gpus_per_node 4 (the reference model colocated on the same 4 GPUs, :51; vLLM on 2 more, :49-50): the DeepSpeed training group is 4 ranks"),
 "dist.nodes":T(1,r1s+":47"),
 "dist.sharding":T("zero2",r1s+":68 --zero_stage 2 -> "+r1o+"/utils/deepspeed/deepspeed_utils.py get_train_ds_config stage"),
 "dist.offload_optimizer":T("none","--adam_offload absent ("+r1o+"/cli/train_ppo_ray.py:236)"),
 "dist.overlap_comm":T(True,r1s+":82 --overlap_comm"),
 "batch.micro":T(1,r1s+":56 --micro_train_batch_size 1"),
 "batch.grad_accum":T(64,r1s+":24,57 train_batch_size 256 -> "+r1o+"/utils/deepspeed/deepspeed.py:86-88 256 // 1 // 4 ranks = 64"),
 "batch.global":T(256,r1s+":24 TBS=256 --train_batch_size (samples per actor optimizer step)"),
 "precision.mode":T("bf16",r1s+":69 --bf16 -> "+r1o+"/models/actor.py:78 bf16 weights + DeepSpeed bf16 (fp32 master copies)"),
 "optimizer.name":T("FusedAdam",r1o+"/utils/deepspeed/deepspeed.py:121 FusedAdam when not --adam_offload",any_of=["FusedAdam","AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",r1s+":76 --flash_attn -> "+r1o+"/models/actor.py:53"),
 "memory.gradient_checkpointing":T(True,r1s+":77 --gradient_checkpointing"),
 "peft.method":T("none","--lora_rank absent, default 0 ("+r1o+"/cli/train_ppo_ray.py:249)"),
},held_out=True,note=H21+"; README.md:158 bash scripts/qwen_reinforce_plus_train.sh (shell variables, exported CUDA_VISIBLE_DEVICES, then ray job submit --address=... -- python3 -m openrlhf.cli.train_ppo_ray with ~40 flags into a vendored OpenRLHF fork installed from OpenRLHF-RAG/, REINFORCE++ with a remote reward server and vLLM rollouts over a retrieval tool; RL post-training of a 7B model). Not labelled: sequence length (prompt up to 1024 plus up to 29000 generated tokens, packed, :28,66-67)")
PRL=("PrimeIntellect-ai/prime-rl","559b44772e471d1538537b8805cc77f3824a5e64")
prt="examples/basic/reverse-text/sft.toml"
prc="packages/prime-rl-configs/src/prime_rl/configs/trainer.py"
J("prime-rl-sft-qwen3-0.6b-toml-torchrun-2gpu",*PRL,["."],".",["--","torchrun","--local-ranks-filter","0","--nproc-per-node","2",
 "src/prime_rl/trainer/sft/train.py","@",prt],{
 "model.ref":T("PrimeIntellect/Qwen3-0.6B",prt+":5-6 [model] name (TOML read by pydantic-settings from the @ argument)"),
 "dist.world_size":T(2,"examples/basic/reverse-text/README.md:55-58 torchrun --nproc-per-node ... with the placeholder filled as 2"),
 "dist.nodes":T(1,"torchrun without --nnodes"),
 "dist.sharding":T("fsdp_full","src/prime_rl/trainer/model.py:824-871 FSDP2 fully_shard over all ranks (dp_replicate 1, reshard_after_forward True, "+prc+":206-209)"),
 "dist.offload_optimizer":T("cpu",prc+":200 optim_cpu_offload default True -> src/prime_rl/trainer/sft/train.py:191-195 optimizer states on CPU, weights on GPU"),
 "batch.micro":T(1,"packages/prime-rl-configs/src/prime_rl/configs/sft.py:46 data.micro_batch_size default 1 (one packed sequence)"),
 "batch.grad_accum":T(16,"src/prime_rl/trainer/sft/train.py:113-119 batch_size 32 x cp 1 // (world 2 x micro 1) = 16"),
 "batch.global":T(32,prt+":11 [data] batch_size 32 (global, packages/prime-rl-configs/src/prime_rl/configs/sft.py:40-41)"),
 "data.seq_len":T(4096,prt+":10 [data] seq_len 4096 (samples packed to this length)"),
 "precision.mode":T("amp_bf16",prc+":233 optimization_dtype default float32 (src/prime_rl/trainer/model.py:1332 fp32 weights) + model.py:824 MixedPrecisionPolicy(param_dtype bf16, reduce fp32)"),
 "optimizer.name":T("AdamW",prc+":607 optim default AdamWConfig (type adamw)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,prc+":191 ac default ActivationCheckpointConfig() (mode full, every layer)"),
 "compile.enabled":T(True,prc+":188 compile default CompileConfig()"),
 "data.num_workers":T(1,"packages/prime-rl-configs/src/prime_rl/configs/sft.py:49 data.num_workers default 1"),
 "peft.method":T("none","no [model.lora] section ("+prc+":256 lora default None)"),
},held_out=True,note=H21+"; examples/basic/reverse-text/README.md:52-60 uv run torchrun --local-ranks-filter 0 --nproc-per-node ... src/prime_rl/trainer/sft/train.py @ examples/basic/reverse-text/sft.toml, written without uv run and the wandb flags, with 2 processes (pydantic-settings configs read from a TOML given after @, defaults in a separate configs package that turn on compile, activation checkpointing and CPU optimizer-state offload, FSDP2 with a bf16 param dtype, packed SFT; LLM post-training)")
with open(__import__("pathlib").Path(__file__).with_name("manifest.json"), "w") as fh:
    json.dump({"version": 1, "gpu": "a100-80gb", "jobs": jobs}, fh, indent=1)
print(len(jobs), sum(len(j["truth"]) for j in jobs), sum(j["held_out"] for j in jobs), sum(len(j["truth"]) for j in jobs if j["held_out"]))
