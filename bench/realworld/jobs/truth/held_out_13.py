"""The thirteenth held-out set of the jobs benchmark (run.py --set held-out-13): expert truth
written by hand, one J(...) per job."""
from .core import J, T

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
