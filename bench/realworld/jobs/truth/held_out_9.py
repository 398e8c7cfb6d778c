"""The ninth held-out set of the jobs benchmark (run.py --set held-out-9): expert truth
written by hand, one J(...) per job."""
from .core import J, T

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
