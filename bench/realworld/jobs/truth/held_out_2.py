"""The second held-out set of the jobs benchmark (run.py --set held-out-2): expert truth
written by hand, one J(...) per job."""
from .core import AX, DSE, HB, LG, NX, J, T

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
