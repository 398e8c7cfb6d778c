"""The twenty-third held-out set of the jobs benchmark (run.py --set held-out-23): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H23="twenty-third held-out set"
BAD=("Ledzy/BAdam","bf989dcb8c1a7bbcf7360034b323e1b5616bf3e4")
bas="src/llmtuner/tuner/sft/trainer.py"
J("badam-llama2-7b-alpaca-gpt4-block-1gpu",*BAD,["llama-alpaca","readme.md","requirements.txt","src"],"llama-alpaca",["src/train_bash.py","--",
 "--stage","sft","--model_name_or_path","meta-llama/Llama-2-7b-hf","--do_train","--dataset","alpaca_gpt4_en","--template","default",
 "--finetuning_type","block","--output_dir","./outputs/llama2-7b","--overwrite_cache","--per_device_train_batch_size","2",
 "--per_device_eval_batch_size","2","--gradient_accumulation_steps","8","--lr_scheduler_type","cosine","--logging_steps","1",
 "--save_steps","1000","--val_size","500","--eval_steps","20","--evaluation_strategy","steps","--learning_rate","1e-6",
 "--num_train_epochs","3","--overwrite_output_dir","--plot_loss","--switch_block_every","100","--switch_mode","random","--bf16","True"],{
 "model.ref":T("meta-llama/Llama-2-7b-hf","readme.md:231 --model_name_or_path -> llama-alpaca/src/llmtuner/tuner/core/loader.py:150 AutoModelForCausalLM.from_pretrained"),
 "dist.world_size":T(1,"readme.md:229 CUDA_VISIBLE_DEVICES=0 python (one process)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process, no deepspeed/fsdp"),
 "batch.micro":T(2,"readme.md:238 --per_device_train_batch_size 2"),
 "batch.grad_accum":T(8,"readme.md:240 --gradient_accumulation_steps 8"),
 "batch.global":T(16,"2 x 8 x 1"),
 "data.seq_len":T(1024,"llama-alpaca/src/llmtuner/hparams/data_args.py:70-77 max_source_length 512 + max_target_length 512 -> llama-alpaca/src/llmtuner/dsets/preprocess.py:57 max_length 1024"),
 "precision.mode":T("amp_bf16","readme.md:253 --bf16 True (HF Trainer autocast) over fp32 weights: llama-alpaca/src/llmtuner/tuner/core/loader.py:60-65,150-155 from_pretrained without torch_dtype (the line is commented out)"),
 "optimizer.name":T("BlockOptimizer","llama-alpaca/"+bas+":229-241 --finetuning_type block wraps the Trainer's optimizer (transformers 4.35.2 optim default adamw_torch) in BAdam's BlockOptimizer, one block of layers updated at a time",any_of=["BlockOptimizer","BAdam","badam","adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"llama-alpaca/"+bas+":172-173 Seq2SeqPeftTrainer.__init__ calls model.gradient_checkpointing_enable() unconditionally"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","--finetuning_type block: full-parameter block-coordinate updates, no adapter (llama-alpaca/"+bas+":231-241)"),
},held_out=True,note=H23+"; readme.md:224-254 cd llama-alpaca; CUDA_VISIBLE_DEVICES=0 python src/train_bash.py --stage sft --model_name_or_path meta-llama/Llama-2-7b-hf ... --finetuning_type block --per_device_train_batch_size 2 --gradient_accumulation_steps 8 ... --bf16 True (an old LLaMA-Factory fork: HfArgumentParser over five dataclasses, a project Trainer subclass that forces gradient checkpointing and wraps the optimizer in a block-coordinate BlockOptimizer; LLM SFT with BAdam)")
ODT=("NUS-HPC-AI-Lab/OpenDiT","5cbadd03ea961c75b78e7ccbc0e2677d8198bc9b")
J("opendit-dit-xl2-cifar10-colossalai-zero2-torchrun-script-2gpu",*ODT,["."],".",["train_img.sh"],{
 "model.ref":T("DiT-XL/2","train_img.sh:2 --model DiT-XL/2 -> train.py:154 DiT_models[args.model] -> opendit/models/dit.py:290-291,362"),
 "model.num_parameters":T(674000000,"opendit/models/dit.py:290-291 DiT_XL_2 depth 28, hidden 1152, patch 2, 16 heads, mlp_ratio 4, learn_sigma (8 output channels), 32x32x4 latents (train.py:125 image_size 256 // 8): the DiT-XL/2 size of 675M less the class table (train_img.sh:4 --num_classes 10: 11 x 1152 rows instead of 1001 x 1152, about 1.1M fewer)",rel_tol=0.1),
 "dist.world_size":T(2,"train_img.sh:1 torchrun --standalone --nproc_per_node=2"),
 "dist.nodes":T(1,"--standalone"),
 "dist.sharding":T("zero2","train.py:350 --plugin default zero2 -> :87-93 ColossalAI LowLevelZeroPlugin(stage=2): optimizer states and gradients sharded over the 2 processes",any_of=["zero2","fsdp_grad_op"]),
 "batch.micro":T(2,"train_img.sh:3 --batch_size 2 -> train.py:221-229 prepare_dataloader per data-parallel rank (sequence_parallel_size default 1, :376)"),
 "batch.grad_accum":T(1,"train.py:290-296 one optimizer step per batch"),
 "batch.global":T(4,"2 x 1 x 2"),
 "data.image_size":T(256,"train.py:358 --image_size default 256 (CIFAR10 images resized, train.py:218)"),
 "precision.mode":T("bf16","train.py:368 --mixed_precision default bf16 -> :128-129,161-168 model built and cast to bfloat16 + :88-91 LowLevelZeroPlugin(precision bf16) keeping fp32 master copies of the sharded parameters"),
 "optimizer.name":T("HybridAdam","train.py:191-193 colossalai.nn.optimizer.HybridAdam(adamw_mode=True)",any_of=["HybridAdam","AdamW","adamw"]),
 "data.num_workers":T(4,"train.py:364 --num_workers default 4 -> :221-228"),
 "data.pin_memory":T(True,"train.py:226 pin_memory=True"),
 "memory.gradient_checkpointing":T(False,"train.py:371 --grad_checkpoint not given (store_true)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H23+"; README.md:94-104 bash train_img.sh (torchrun --standalone --nproc_per_node=2 train.py --model DiT-XL/2 --batch_size 2 --num_classes 10; argparse, a ColossalAI Booster whose plugin is chosen by name, LowLevelZero ZeRO-2 with bf16 weights, the model a key into a dict of constructors sized by name, HybridAdam; class-conditional latent diffusion on CIFAR10, vision). Pinned at the last commit before the repository became VideoSys (fcec5a6), when train_img.sh and train.py still existed")
D2=("facebookresearch/detectron2","02b5c4e295e990042a714712c21dc79b731e8833")
d2c="configs/new_baselines/mask_rcnn_R_50_FPN_100ep_LSJ.py"
J("detectron2-maskrcnn-r50-fpn-lsj-lazyconfig-8gpu",*D2,["."],".",["tools/lazyconfig_train_net.py","--","--config-file",d2c,"--num-gpus","8"],{
 "model.num_parameters":T(46300000,d2c+":8,14-39 configs/common/models/mask_rcnn_fpn.py (LazyCall GeneralizedRCNN: ResNet-50 + FPN 256, RPN, mask head) with a 4conv1fc box head (4 x 3x3x256 convs + fc 12544->1024) and two RPN convs: Mask R-CNN R50-FPN (44.4M) + 1.3M box head + 0.6M RPN conv; 80 COCO classes",rel_tol=0.1),
 "dist.world_size":T(8,"--num-gpus 8 -> tools/lazyconfig_train_net.py:130-136 detectron2.engine.launch spawns 8 processes"),
 "dist.nodes":T(1,"--num-machines default 1 (detectron2/engine/defaults.py)"),
 "dist.devices_per_node":T(8,"--num-gpus is per machine"),
 "dist.sharding":T("ddp","tools/lazyconfig_train_net.py:75 create_ddp_model -> DistributedDataParallel ("+d2c+":15 fp16 gradient compression hook)"),
 "batch.micro":T(8,d2c+":54 dataloader.train.total_batch_size 64 -> detectron2/data/build.py:339-345 64 // 8 processes = 8 images per GPU"),
 "batch.grad_accum":T(1,"detectron2/engine/train_loop.py SimpleTrainer/AMPTrainer: one optimizer step per batch"),
 "batch.global":T(64,d2c+":54 total_batch_size"),
 "data.image_size":T(1024,d2c+":43-49 image_size 1024: ResizeScale then FixedSizeCrop 1024x1024 (large-scale jitter)"),
 "precision.mode":T("amp_fp16",d2c+":14 train.amp.enabled True -> tools/lazyconfig_train_net.py:76 AMPTrainer -> detectron2/engine/train_loop.py:448,490 autocast float16 + GradScaler over fp32 weights"),
 "optimizer.name":T("SGD",d2c+":9 configs/common/optim.py SGD (torch.optim.SGD, momentum 0.9), lr 0.1",any_of=["SGD","sgd"]),
 "data.num_workers":T(4,"configs/common/data/coco.py:29 num_workers 4"),
 "data.pin_memory":T(False,"detectron2/data/build.py:306 build_batch_data_loader pin_memory default False (build_detection_train_loader does not pass it)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",d2c+":12 training from scratch (init_checkpoint empty)"),
},held_out=True,note=H23+"; MODEL_ZOO.md:15 (new baselines, python config files) tools/lazyconfig_train_net.py --config-file configs/new_baselines/mask_rcnn_R_50_FPN_100ep_LSJ.py --num-gpus 8 (detectron2.engine.default_argument_parser; a LazyConfig Python file that imports its model, data loader, optimizer and train dicts from sibling Python files and overrides them by attribute assignment, the model built by instantiate() from LazyCall trees, the per-GPU batch the total over the world size in code; instance segmentation, vision)")
DDT=("fundamentalvision/Deformable-DETR","11169a60c33333af00a4849f1808023eba96a931")
J("deformable-detr-r50-coco-srun-slurm-script-16gpu",*DDT,["."],".",["tools/run_dist_slurm.sh","--","dev","deformable_detr","16","configs/r50_deformable_detr.sh"],{
 "model.num_parameters":T(40000000,"README.md:49 Deformable DETR 40M params (main.py defaults: resnet50 backbone, 4 feature levels, 6+6 layers, hidden 256, feed-forward 1024, 300 queries, no box refinement or two-stage)",rel_tol=0.1),
 "dist.world_size":T(16,"README.md:155 run_dist_slurm.sh <partition> deformable_detr 16 -> tools/run_dist_slurm.sh:14,27 srun --ntasks=16, one process per task (util/misc.py:430-433 SLURM_PROCID/SLURM_NTASKS)"),
 "dist.nodes":T(2,"tools/run_dist_slurm.sh:16-19 GPUS 16 >= 8 -> GPUS_PER_NODE default 8 -> --ntasks-per-node=8: 16 / 8 = 2 nodes"),
 "dist.devices_per_node":T(8,"tools/run_dist_slurm.sh:19 GPUS_PER_NODE default 8 (--gres=gpu:8)"),
 "dist.sharding":T("ddp","main.py:213 DistributedDataParallel"),
 "batch.micro":T(2,"main.py:36 --batch_size default 2 (per process, :166-167 BatchSampler over a DistributedSampler)"),
 "batch.grad_accum":T(1,"engine.py one optimizer step per batch"),
 "batch.global":T(32,"2 x 1 x 16"),
 "precision.mode":T("fp32","no autocast or half precision in main.py/engine.py"),
 "optimizer.name":T("AdamW","main.py:45 --sgd not given -> :208 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(2,"main.py:123 --num_workers default 2 -> :169-171"),
 "data.pin_memory":T(True,"main.py:171"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training (ImageNet-pretrained backbone)"),
},held_out=True,note=H23+"; README.md:149-156 GPUS_PER_NODE=8 ./tools/run_dist_slurm.sh <partition> deformable_detr 16 configs/r50_deformable_detr.sh (a Slurm launch script taking partition, job name and GPU count positionally, srun with --ntasks and --ntasks-per-node from shell defaults, running a second script that runs python -u main.py with all-default argparse options; the README's GPUS_PER_NODE=8 is also the script's default for 16 GPUs; object detection, vision). Not labelled: image size (multi-scale short side 480-800, max 1333)")
MUS=("kohya-ss/musubi-tuner","30c658c4f4b0bf05038b3346eff9670259b10fc7")
mst="src/musubi_tuner/training/"
J("musubi-tuner-wan21-t2v-1.3b-lora-fp8-accelerate",*MUS,["."],".",["--","accelerate","launch","--num_cpu_threads_per_process","1","--mixed_precision","bf16","src/musubi_tuner/wan_train_network.py",
 "--task","t2v-1.3B","--dit","models/wan2.1_t2v_1.3B_bf16.safetensors","--dataset_config","dataset.toml","--sdpa","--mixed_precision","bf16","--fp8_base",
 "--optimizer_type","adamw8bit","--learning_rate","2e-4","--gradient_checkpointing","--max_data_loader_n_workers","2","--persistent_data_loader_workers",
 "--network_module","networks.lora_wan","--network_dim","32","--timestep_sampling","shift","--discrete_flow_shift","3.0",
 "--max_train_epochs","16","--save_every_n_epochs","1","--seed","42","--output_dir","output","--output_name","my-lora"],{
 "model.ref":T("t2v-1.3B","docs/wan.md:171 --task t2v-1.3B -> src/musubi_tuner/wan/configs/__init__.py WAN_CONFIGS -> src/musubi_tuner/wan/configs/wan_t2v_1_3B.py (Wan2.1 T2V 1.3B; the DiT weights a local file named by --dit)",any_of=["t2v-1.3B","Wan2.1-T2V-1.3B","Wan-AI/Wan2.1-T2V-1.3B"]),
 "model.num_parameters":T(1420000000,"src/musubi_tuner/wan/configs/wan_t2v_1_3B.py:24-33 dim 1536, ffn 8960, 30 layers: per block self- and cross-attention 2 x 9.44M + FFN 27.5M = 46.4M, x 30 = 1.393B, + text (8.7M), time (2.8M + 14.2M projection) embeddings = 1.42B (the model called 1.3B); the frozen base, the LoRA adds about 1% (T5 and VAE outputs are cached beforehand, not loaded)",rel_tol=0.1),
 "peft.method":T("lora","docs/wan.md:176 --network_module networks.lora_wan (the project's own LoRA)"),
 "peft.rank":T(32,"docs/wan.md:176 --network_dim 32"),
 "task.mode":T("lora","LoRA on a frozen fp8 DiT (fp8 e4m3 cast, not bitsandbytes quantisation)",any_of=["lora","qlora"]),
 "precision.weights_bits":T(8,"docs/wan.md:173 --fp8_base -> "+mst+"trainer_base.py:1475,1698-1700 the DiT cast to float8_e4m3fn"),
 "precision.mode":T("amp_bf16","docs/wan.md:170,173 --mixed_precision bf16 (accelerate autocast); "+mst+"trainer_base.py:1681-1682 the LoRA network stays fp32 (full_bf16 disabled)"),
 "batch.grad_accum":T(1,mst+"parser_common.py:192-195 --gradient_accumulation_steps default 1"),
 "optimizer.name":T("AdamW8bit","docs/wan.md:174 --optimizer_type adamw8bit -> "+mst+"trainer_base.py:186 bitsandbytes AdamW8bit",any_of=["AdamW8bit","adamw8bit","adamw_8bit","adamw_bnb_8bit"]),
 "memory.gradient_checkpointing":T(True,"docs/wan.md:174 --gradient_checkpointing"),
 "data.num_workers":T(2,"docs/wan.md:175 --max_data_loader_n_workers 2 -> "+mst+"trainer_base.py:1628-1636 min(2, cpu count)"),
 "data.pin_memory":T(False,mst+"trainer_base.py:1630-1637 DataLoader without pin_memory"),
 "model.attn_implementation":T("sdpa","docs/wan.md:173 --sdpa -> "+mst+"trainer_base.py:1501-1502 attn_mode torch (scaled_dot_product_attention)"),
 "compile.enabled":T(False,"--compile not given ("+mst+"parser_common.py:87)"),
},held_out=True,note=H23+"; docs/wan.md:169-180 accelerate launch --num_cpu_threads_per_process 1 --mixed_precision bf16 src/musubi_tuner/wan_train_network.py --task t2v-1.3B --dit path/to/wan2.1_xxx_bf16.safetensors --dataset_config path/to/toml --sdpa --mixed_precision bf16 --fp8_base --optimizer_type adamw8bit ... --network_module networks.lora_wan --network_dim 32 ... with the paths filled (argparse assembled from shared parser modules, the model's shape an EasyDict config chosen by --task, LoRA on an fp8 base, batch and resolution in the user's dataset TOML; video diffusion LoRA). Not labelled: micro batch and resolution (the user's dataset TOML, not in the repository), world size (accelerate launch with no config file and no --num_processes)")
LMR=("TideDra/lmm-r1","f917f186dc327fb2dadfe54f56c0bf409f9414e2")
lms="examples/scripts/lmm_r1/train_direct_rl_geo.sh"
J("lmm-r1-qwen25-vl-3b-geo-ppo-openrlhf-ray-script-8gpu",*LMR,["."],".",[lms],{
 "model.ref":T("./models/Qwen2.5-VL-3B-Instruct",lms+":9 PRETRAIN_MODEL_PATH (a local copy of Qwen2.5-VL-3B-Instruct) -> :82 --pretrain -> openrlhf/models/actor.py:85-92 from_pretrained",any_of=["./models/Qwen2.5-VL-3B-Instruct","models/Qwen2.5-VL-3B-Instruct","Qwen/Qwen2.5-VL-3B-Instruct","Qwen2.5-VL-3B-Instruct"]),
 "dist.world_size":T(8,lms+":71-72 actor_num_nodes 1 x actor_num_gpus_per_node 8 (reference, critic and 8 vLLM engines colocated on the same 8 GPUs, :68-77 --colocate_all_models): the actor's DeepSpeed group is 8 ranks"),
 "dist.nodes":T(1,lms+":71 --actor_num_nodes 1 (ray start --num-gpus 8 on one head node, :53)"),
 "dist.sharding":T("zero3",lms+":96 --zero_stage 3"),
 "dist.offload_optimizer":T("none","--adam_offload absent (openrlhf/cli/train_ppo_ray.py:261)"),
 "batch.micro":T(2,lms+":84 --micro_train_batch_size 2"),
 "batch.grad_accum":T(16,lms+":85 --train_batch_size 256 -> openrlhf/utils/deepspeed/deepspeed.py:92-94 256 // 2 // 8 ranks = 16"),
 "batch.global":T(256,lms+":85 --train_batch_size (samples per actor optimizer step)"),
 "precision.mode":T("bf16",lms+":97 --bf16 -> openrlhf/models/actor.py:91 bf16 weights + DeepSpeed bf16 (fp32 master copies)"),
 "optimizer.name":T("FusedAdam","openrlhf/utils/deepspeed/deepspeed.py:131 FusedAdam when not --adam_offload",any_of=["FusedAdam","AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",lms+":104 --flash_attn -> openrlhf/models/actor.py:65"),
 "memory.gradient_checkpointing":T(True,lms+":107 --gradient_checkpointing"),
 "peft.method":T("none","--lora_rank absent, default 0 (openrlhf/cli/train_ppo_ray.py:281)"),
},held_out=True,note=H23+"; README.md:146 bash examples/scripts/lmm_r1/train_direct_rl_geo.sh (exported shell variables, ray start, a background remote reward server, then ray job submit ... -- python -m openrlhf.cli.train_ppo_ray with ~45 flags: PPO with a GAE critic, actor, reference, critic and vLLM engines colocated on 8 GPUs, ZeRO-3; a multimodal OpenRLHF fork; RL post-training of a vision-language model). Not labelled: sequence length (prompt up to 4096 plus up to 4096 generated tokens, :92-94), model size (a Hub config, about 3.8B)")
L1=("cmu-l3/l1","93dd330102f49450e1bc8227ad8979f8b5482e44")
l1s="scripts/train/run_l1_exact.sh"
J("l1-deepscaler-1.5b-grpo-length-control-verl-hydra-script-8gpu",*L1,["."],".",[l1s],{
 "model.ref":T("agentica-org/DeepScaleR-1.5B-Preview",l1s+":22-24 MODEL_PATH default (no --model given) -> :35 actor_rollout_ref.model.path"),
 "dist.world_size":T(8,l1s+":61-62 trainer.n_gpus_per_node=8 x trainer.nnodes=1 (Ray workers, one per GPU; the actor, reference and vLLM rollout share them)"),
 "dist.nodes":T(1,l1s+":62"),
 "dist.sharding":T("fsdp_full","config/ppo_trainer.yaml:25,63 actor strategy fsdp, fsdp_size -1 -> verl's FSDP workers (pip install git+https://github.com/volcengine/verl, README.md:23): FULL_SHARD over all 8 ranks"),
 "dist.offload_params":T("none",l1s+":46 actor param_offload=False"),
 "dist.offload_optimizer":T("none",l1s+":47 actor optimizer_offload=False"),
 "batch.global":T(1024,l1s+":38,53 ppo_mini_batch_size 64 prompts x rollout.n 16 responses = 1024 sequences per actor optimizer step (verl multiplies the mini batch by n)"),
 "precision.mode":T("amp_bf16","verl FSDP actor: fp32 parameters with FSDP MixedPrecision(param_dtype bf16, reduce fp32, buffers fp32) (no mixed_precision override in "+l1s+" or config/ppo_trainer.yaml)"),
 "optimizer.name":T("AdamW","verl FSDP workers build torch.optim.AdamW from actor.optim (config/ppo_trainer.yaml:50-57)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,l1s+":45 enable_gradient_checkpointing=True"),
 "peft.method":T("none","full-parameter GRPO (no lora_rank)"),
},held_out=True,note=H23+"; README.md:52-54 scripts in scripts/train (bash scripts/train/run_l1_exact.sh: a --model flag parsed in shell with a Hub default, then python3 main_ppo.py with ~45 Hydra key=value overrides on a @hydra.main entry point whose config/ppo_trainer.yaml is a copy of verl's; verl itself is a pip dependency, not in the repository; GRPO with a length-controlled reward, vLLM rollouts; RL post-training). Not labelled: micro batch and accumulation steps (use_dynamic_bsz: each rank's 128 sequences of a mini batch packed into micro batches of up to ppo_max_token_len_per_gpu 32768 tokens, :39-40, so the count varies), sequence length (prompt up to 1024 plus up to 4096 generated), model size (a Hub config, about 1.8B)")
L32V=("2U1/Llama3.2-Vision-Finetune","d50aedf00ef23d7042d8a1796509eae5d201cf85")
lvs="scripts/finetune.sh"
lvz="scripts/zero3_offload.json"
lvt="src/train/train_sft.py"
J("llama32-vision-11b-sft-deepspeed-zero3-offload-script",*L32V,["."],".",[lvs],{
 "model.ref":T("meta-llama/Llama-3.2-11B-Vision-Instruct",lvs+":3 MODEL_NAME -> :13 --model_id -> "+lvt+":107-112 MllamaForConditionalGeneration.from_pretrained"),
 "dist.sharding":T("zero3",lvs+":12 --deepspeed "+lvz+" -> "+lvz+":31 stage 3"),
 "dist.offload_optimizer":T("cpu",lvz+":32-33 offload_optimizer device cpu"),
 "dist.offload_params":T("cpu",lvz+":36-37 offload_param device cpu"),
 "batch.micro":T(1,lvs+":23 --per_device_train_batch_size 1"),
 "batch.grad_accum":T(1,lvs+":24 --gradient_accumulation_steps 1"),
 "precision.mode":T("bf16",lvs+":20 --bf16 True -> "+lvt+":89,109 weights loaded in bfloat16 + DeepSpeed bf16 auto (fp32 master copies)"),
 "optimizer.name":T("adamw_torch","src/train/params.py:15 optim default adamw_torch (no optimizer in "+lvz+"; the HF Trainer builds it and DeepSpeed wraps it)",any_of=["adamw_torch","AdamW","adamw"]),
 "model.attn_implementation":T("sdpa",lvt+":111 attn_implementation sdpa (fixed in code)"),
 "memory.gradient_checkpointing":T(True,lvs+":34 --gradient_checkpointing True -> "+lvt+":130-133"),
 "loss.implementation":T("fused",lvs+":11 --use_liger True -> "+lvt+":66-67 apply_liger_kernel_to_mllama (fused linear cross-entropy by default)",any_of=["fused","chunked"]),
 "data.num_workers":T(4,lvs+":40 --dataloader_num_workers 4"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none",lvs+":16 --lora_enable False (full fine-tuning of LLM, vision tower and projector, :17-19)"),
},held_out=True,note=H23+"; README.md:232 bash scripts/finetune.sh (shell variables, PYTHONPATH exported, deepspeed src/train/train_sft.py --use_liger True --deepspeed scripts/zero3_offload.json --model_id $MODEL_NAME ... with HfArgumentParser dataclasses that subclass TrainingArguments, a project Trainer subclass with per-module learning rates, Liger kernels patched into Mllama; vision-language SFT of an 11B model with ZeRO-3 offloading everything to CPU). Not labelled: world size (deepspeed launcher with no --num_gpus/--include: every GPU of the machine), sequence length (max_seq_length default 131072 is never used to truncate, src/train/params.py:23)")
MNL=("MoonshotAI/Moonlight","c2ad5b20c605086526a179d36901bfc41b52b44b")
mnt="examples/toy_train.py"
J("moonlight-toy-qwen2-muon-openwebtext-1gpu",*MNL,["."],".",[mnt,"--","--model","qwen","--optimizer","muon","--dataset","openwebtext-100k","--hidden_size","896","--lr","1e-3"],{
 "model.num_parameters":T(331600000,"README.md:133 --hidden_size 896 -> "+mnt+":257-281 Qwen2Config(hidden 896, 12 layers, 16 heads and 16 KV heads, intermediate 4864, vocab 151936, tied embeddings) -> Qwen2ForCausalLM from scratch: 12 x 16.29M (q/k/v with bias 2.41M, o 0.80M, MLP 13.07M) + 136.1M embedding = 331.6M",rel_tol=0.1),
 "dist.world_size":T(1,"python3, no launcher; "+mnt+":336-337 one device"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/FSDP"),
 "batch.micro":T(16,mnt+":254 DataLoader(batch_size=16)"),
 "batch.grad_accum":T(1,mnt+":348-356 one optimizer step per batch"),
 "batch.global":T(16,"16 x 1 x 1"),
 "data.seq_len":T(512,mnt+":17,253 MoonDataset max_length default 512 (fixed 512-token slices)"),
 "precision.mode":T("fp32",mnt+":257-282 Qwen2ForCausalLM(config) built in the default fp32 (the config's torch_dtype bfloat16 is not applied by the constructor), no autocast in the loop"),
 "optimizer.name":T("Muon","README.md:133 --optimizer muon -> "+mnt+":292-312 the file's Muon class (Newton-Schulz orthogonalised momentum for matrices, AdamW for embeddings, head and 1-D parameters)",any_of=["Muon","muon"]),
 "data.num_workers":T(0,mnt+":254 DataLoader without num_workers"),
 "data.pin_memory":T(False,mnt+":254 DataLoader default"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,mnt+":48 @torch.compile decorates only the Newton-Schulz helper function; the model is not compiled"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H23+"; README.md:131-134 python3 examples/toy_train.py --model qwen --optimizer muon --dataset openwebtext-100k --hidden_size 896 --lr 1e-3 (argparse, a Qwen2 model built from a Qwen2Config literal whose width comes from the command line, a hand-written Muon optimizer class, a plain training loop on one device; small-LM pretraining for an optimizer comparison)")
FS2=("ming024/FastSpeech2","d4e79eb52e8b01d24703b2dfc0385544092958f3")
fsc="config/LJSpeech/"
J("fastspeech2-ljspeech-three-yaml-dataparallel",*FS2,["."],".",["train.py","--","-p",fsc+"preprocess.yaml","-m",fsc+"model.yaml","-t",fsc+"train.yaml"],{
 "model.num_parameters":T(35160000,fsc+"model.yaml:1-33 (encoder 4 and decoder 6 FFT blocks, hidden 256, conv filter 1024 kernel 9, variance predictors 256, 256 pitch/energy bins, single speaker) + "+fsc+"preprocess.yaml (80 mel channels, the symbol set) -> utils/model.py:15 FastSpeech2(preprocess_config, model_config): 35.16M counted (34.65M trainable; the sinusoid position tables are frozen parameters) including the 5-layer 512-channel postnet",rel_tol=0.1),
 "batch.micro":T(16,fsc+"train.yaml:6 batch_size 16 -> train.py:30-38 DataLoader(batch_size 16 x group_size 4) whose collate_fn (dataset.py:125-145) sorts by length and splits each load into 4 batches of 16, train.py:77-82 one forward per batch of 16"),
 "batch.grad_accum":T(1,fsc+"train.yaml:11 grad_acc_step 1 -> train.py:63,89-97"),
 "precision.mode":T("fp32","no autocast or half precision in train.py or model/"),
 "optimizer.name":T("Adam","utils/model.py:24 ScheduledOptim -> model/optimizer.py:10 torch.optim.Adam (betas 0.9, 0.98, with a Noam warm-up schedule)",any_of=["Adam","adam"]),
 "data.num_workers":T(0,"train.py:33-38 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:33-38 DataLoader default"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H23+"; README.md:114-118 python3 train.py -p config/LJSpeech/preprocess.yaml -m config/LJSpeech/model.yaml -t config/LJSpeech/train.yaml (argparse naming three YAML files read as plain dicts, a project model class sized from two of them, a data loader that loads four batches at once and splits them in its collate_fn, nn.DataParallel over every visible GPU in one process; text-to-speech, speech). Not labelled: world size and sharding (torch.nn.DataParallel in one process over however many GPUs are visible, train.py:42), sequence length (mel frames vary, max_seq_len 1000 is the position table)")
QW3=("QwenLM/Qwen3","7a2f61ffc7a20d47efcd2bf97f6f2bf52729042e")
qwy="qwen2-7b-qlora-sft.yaml"
J("qwen3-repo-llamafactory-qwen2-7b-qlora-sft-yaml",*QW3,["examples/llama-factory"],"examples/llama-factory",["--","llamafactory-cli","train",qwy],{
 "model.ref":T("Qwen/Qwen2-7B-Instruct","examples/llama-factory/"+qwy+":2 model_name_or_path"),
 "peft.method":T("lora","examples/llama-factory/"+qwy+":7 finetuning_type lora (lora_target all, :8)"),
 "peft.rank":T(16,"examples/llama-factory/"+qwy+":11 lora_rank"),
 "precision.weights_bits":T(4,"examples/llama-factory/"+qwy+":9-10 quantization_bit 4, bitsandbytes"),
 "task.mode":T("qlora","4-bit bitsandbytes base + LoRA"),
 "precision.quant_type":T("nf4","LLaMA-Factory ModelArguments quantization_type default nf4 (not set in the YAML)"),
 "precision.double_quant":T(True,"LLaMA-Factory ModelArguments double_quantization default True (not set in the YAML)"),
 "data.seq_len":T(1024,"examples/llama-factory/"+qwy+":18 cutoff_len"),
 "batch.micro":T(1,"examples/llama-factory/"+qwy+":30 per_device_train_batch_size"),
 "batch.grad_accum":T(16,"examples/llama-factory/"+qwy+":31 gradient_accumulation_steps"),
 "precision.mode":T("amp_bf16","examples/llama-factory/"+qwy+":36 bf16 true (Trainer autocast over the 4-bit base; LLaMA-Factory upcasts the trainable LoRA parameters to fp32)"),
 "optimizer.name":T("adamw_torch","no optim in the YAML: the TrainingArguments default (adamw_torch; adamw_torch_fused in the newest transformers)",any_of=["adamw_torch","adamw_torch_fused","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"LLaMA-Factory disable_gradient_checkpointing default False: checkpointing on (and prepare for k-bit training)"),
 "data.num_workers":T(0,"no dataloader_num_workers in the YAML (TrainingArguments default 0; preprocessing_num_workers 16 at :20 is for datasets.map)"),
 "compile.enabled":T(False,"no torch_compile"),
},held_out=True,note=H23+"; examples/llama-factory/finetune-zh.md:124 llamafactory-cli train qwen2-7b-qlora-sft.yaml run from examples/llama-factory (a LLaMA-Factory YAML kept in the Qwen repository, LLaMA-Factory itself an installed package not in the repository; QLoRA SFT of a 7B model). Not labelled: world size (llamafactory-cli starts torchrun by itself when more than one GPU is visible)")
MLM=("NVIDIA/Megatron-LM","d98e8a64ddf34856e74b24714e3bedb2f5a39553")
mls="examples/llama/train_llama3_8b_h100_fp8.sh"
J("megatron-lm-llama3-8b-fp8-mock-torchrun-script-8gpu",*MLM,["."],".",[mls,"--","checkpoints","tensorboard_logs"],{
 "model.num_parameters":T(8030000000,mls+":38,55-78 32 layers, hidden 4096, FFN 14336 (SwiGLU), 32 heads with 8 query groups of 128 channels, RMSNorm, untied embeddings, no linear biases, :139 vocab 128256 -> pretrain_gpt.py builds the Megatron-core GPTModel from the arguments: the Llama-3-8B shape, 8.03B",rel_tol=0.1),
 "dist.world_size":T(8,mls+":22-27 GPUS_PER_NODE 8 x NUM_NODES 1 -> :47-53 torchrun --nproc_per_node 8 --nnodes 1"),
 "dist.nodes":T(1,mls+":23"),
 "dist.devices_per_node":T(8,mls+":22"),
 "dist.sharding":T("zero1",mls+":33-35,117-121 TP 1, CP 1, no pipeline parallelism: 8-way data parallel, with :126 --use-distributed-optimizer sharding the fp32 main parameters and optimizer states over the data-parallel ranks (ZeRO-1-like)",any_of=["zero1","ddp"]),
 "batch.micro":T(1,mls+":36 MICRO_BATCH_SIZE 1 -> :81"),
 "batch.grad_accum":T(16,mls+":36-37 global 128 / (micro 1 x data-parallel 8) = 16 micro batches per step (megatron/training/arguments.py:448 data_parallel_size = world // (TP x PP x CP))"),
 "batch.global":T(128,mls+":37 GLOBAL_BATCH_SIZE 128 -> :82"),
 "data.seq_len":T(8192,mls+":40 SEQ_LENGTH 8192 -> :64"),
 "precision.mode":T("bf16",mls+":95-96 --bf16 --grad-reduce-in-bf16: bf16 parameters with fp32 main copies in the distributed optimizer; :39,105-113 DTYPE fp8 adds Transformer Engine fp8 (hybrid) GEMMs and fp8 parameter all-gather on top",any_of=["bf16","fp8"]),
 "optimizer.name":T("adam","megatron/training/arguments.py:2913 --optimizer default adam (decoupled weight decay, :92 0.1)",any_of=["adam","Adam","AdamW","adamw","FusedAdam"]),
 "data.num_workers":T(1,mls+":135-145 no tokenizer/data arguments given -> mock data with --num-workers 1"),
 "memory.gradient_checkpointing":T(False,"no --recompute-granularity/--recompute-activations in "+mls),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pretraining from scratch on mock data"),
},held_out=True,note=H23+"; examples/llama/README.md:39-51 bash examples/llama/train_llama3_8b_h100_fp8.sh /workspace/checkpoints /workspace/tensorboard_logs (the mock-data form, run from the repository root; shell variables and bash arrays of flags, a conditional block of fp8 flags, torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py ${MODEL_ARGS[@]} ...; the model a Megatron-core GPTModel sized entirely by flags, gradient accumulation computed from global, micro and data-parallel sizes; LLM pretraining)")
