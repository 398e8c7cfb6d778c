"""The thirty-fourth held-out set of the jobs benchmark (run.py --set held-out-34): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. Every repository was grepped (owner/name and
the bare name) in bench/, docs/, tests/, calibration/, preflight/ and adapters/ and found nowhere
before it was taken."""
from .core import J, T

H34="thirty-fourth held-out set"
TL=("KimMeen/Time-LLM","0045cde1ae0a7e7960b8f2273404eabac0f9c5da")
tls="scripts/TimeLLM_ETTh1.sh"
tld="ds_config_zero2.json"
J("time-llm-llama7b-etth1-accelerate-deepspeed-plugin-zero2-8gpu",*TL,["."],".",[tls],{
 "model.ref":T("huggyllama/llama-7b","run_main.py:80 --llm_model default LLAMA -> :135 TimeLLM.Model(args) -> models/TimeLLM.py:43-57 LlamaModel.from_pretrained('huggyllama/llama-7b') with all 32 layers ("+tls+":4,36 --llm_layers 32)"),
 "model.num_parameters":T(6650000000,"LLaMA-7B without the LM head (LlamaModel: 6.61B, frozen at models/TimeLLM.py:163-164) plus the trained reprogramming layer, the 32,000 -> 1,000 word-embedding mapping (32M), the patch embedding and the output head: about 6.65B",rel_tol=0.05),
 "dist.world_size":T(8,tls+":7,14 accelerate launch --multi_gpu --num_processes 8"),
 "dist.nodes":T(1,"no --num_machines (one machine)"),
 "dist.devices_per_node":T(8,tls+":14 --num_processes 8 on one machine"),
 "dist.sharding":T("zero2","run_main.py:103-104 Accelerator(deepspeed_plugin=DeepSpeedPlugin(hf_ds_config='./ds_config_zero2.json')) turns DeepSpeed on inside the script -> "+tld+":6-7 zero_optimization stage 2"),
 "dist.offload_optimizer":T("none",tld+":6-15 no offload_optimizer"),
 "dist.overlap_comm":T(True,tld+":10"),
 "dist.contiguous_gradients":T(True,tld+":13"),
 "dist.reduce_bucket_size":T(200000000,tld+":12 reduce_bucket_size 2e8"),
 "dist.allgather_bucket_size":T(200000000,tld+":9 allgather_bucket_size 2e8"),
 "batch.micro":T(24,tls+":8,34 --batch_size 24 -> data_provider/data_factory.py:24,58-63 DataLoader(batch_size=24)"),
 "batch.grad_accum":T(1,tld+":16 gradient_accumulation_steps 'auto' filled by accelerate with 1 (no gradient_accumulation_steps anywhere); run_main.py:181,233-234 one step per batch"),
 "batch.global":T(192,"24 x 1 x 8"),
 "precision.mode":T("bf16",tld+":2-5 bf16 enabled (DeepSpeed bf16: 16-bit weights with fp32 master copies; "+tls+":14 --mixed_precision bf16 too)",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("Adam","run_main.py:153 optim.Adam over the trainable parameters (no optimizer block in "+tld+")",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(10,"run_main.py:85 --num_workers default 10 -> data_factory.py:62"),
 "data.pin_memory":T(False,"data_factory.py:58-63 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","models/TimeLLM.py:163-164 the LLM frozen (requires_grad False), no LoRA; the reprogramming and projection layers trained from scratch"),
},held_out=True,note=H34+"; README.md:104-105 bash ./scripts/TimeLLM_ETTh1.sh (shell variables, then four accelerate launch --multi_gpu --mixed_precision bf16 --num_processes $num_process ... run_main.py lines that differ only in --pred_len and the learning rate; argparse, an Accelerator given a DeepSpeedPlugin with a ZeRO-2 JSON in the code, a frozen LLaMA-7B reprogrammed for forecasting; long-term forecasting on ETTh1, time series with an LLM). Not labelled: data.seq_len (--seq_len 512 is the number of time steps in the input window; the LLM sees about 64 patch embeddings plus a text prompt)")
VL=("dandelin/ViLT","762fd3975c180db6fc88f577cf39549983fa373a")
J("vilt-b32-mlm-itm-pretrain-sacred-lightning-ddp-8gpu",*VL,["."],".",["run.py","--","with","data_root=/data2/dsets/dataset","num_gpus=8","num_nodes=1","task_mlm_itm","whole_word_masking=True","step200k","per_gpu_batchsize=64"],{
 "dist.world_size":T(8,"num_gpus=8 num_nodes=1 -> run.py:48-52 pl.Trainer(gpus=8, num_nodes=1, accelerator='ddp')"),
 "dist.nodes":T(1,"num_nodes=1"),
 "dist.devices_per_node":T(8,"num_gpus=8"),
 "dist.sharding":T("ddp","run.py:52 accelerator='ddp'"),
 "batch.micro":T(64,"per_gpu_batchsize=64 -> vilt/datamodules/datamodule_base.py:31 and multitask_datamodule.py:55-61 DataLoader(batch_size=64)"),
 "batch.grad_accum":T(8,"vilt/config.py:99 task_mlm_itm batch_size 4096 -> run.py:42-44,61 accumulate_grad_batches = 4096 // (64 x 8 x 1) = 8"),
 "batch.global":T(4096,"64 x 8 x 8 (vilt/config.py:99 the desired batch 4096)"),
 "data.image_size":T(384,"vilt/config.py:30 image_size 384 (pixelbert transform: shorter side 384)"),
 "precision.mode":T("amp_fp16","vilt/config.py:81 precision 16 -> run.py:51 pl.Trainer(precision=16): PyTorch Lightning 1.1.4 (requirements.txt:1) native AMP, fp16 autocast over fp32 weights",any_of=["amp_fp16"]),
 "optimizer.name":T("AdamW","vilt/config.py:54 optim_type 'adamw' -> vilt/modules/vilt_utils.py:4,234-236 transformers.optimization.AdamW",any_of=["AdamW","adamw","adamw_hf"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,"vilt/config.py:80 num_workers 8 -> multitask_datamodule.py:24,59"),
 "data.pin_memory":T(False,"vilt/datamodules/multitask_datamodule.py:55-61 the training DataLoader without pin_memory (the per-dataset loaders with pin_memory=True are not the ones trained on)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","pre-training: every parameter trained"),
},held_out=True,note=H34+"; TRAIN.md:8-11 python run.py with data_root=<ARROW_ROOT> num_gpus=<NUM_GPUS> num_nodes=<NUM_NODES> task_mlm_itm whole_word_masking=True step200k per_gpu_batchsize=<BS> (its example: 8 GPUs, 1 node, 64 per GPU); a sacred Experiment with a @ex.config function of defaults, named configs (task_mlm_itm, step200k) and KEY=VALUE updates after 'with', a Lightning 1.1 Trainer whose accumulation is computed from the desired batch; vision-and-language pre-training (MLM + image-text matching), multimodal). Not labelled: model.ref and model.num_parameters (a ViT-B/32 transformer built from the repository's copy of timm's vit_base_patch32_384 plus BERT text embeddings and MLM/ITM heads: no figure for this combination in the repository), data.seq_len (40 text tokens, config.py:38, plus up to 200 image patches, :101)")
GG=("rampasek/GraphGPS","28015707cbab7f8ad72bed0ee872d068ea59c94b")
ggc="configs/GPS/zinc-GPS+RWSE.yaml"
J("graphgps-zinc-gine-transformer-rwse-graphgym-yacs-1gpu",*GG,["."],".",["main.py","--","--cfg",ggc,"wandb.use","False"],{
 "dist.world_size":T(1,"main.py:135 auto_select_device(): one process, one device"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(32,ggc+":30 train.batch_size 32 -> torch_geometric.graphgym create_loader (main.py:142)"),
 "batch.grad_accum":T(1,"graphgps/config/optimizers_config.py:12 optim.batch_accumulation default 1 -> graphgps/train/custom_train.py:34-39 step every batch"),
 "batch.global":T(32,"32 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("AdamW",ggc+":59 optim.optimizer adamW -> graphgps/optimizer/extra_optimizers.py:21-24 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"not set in "+ggc+"; GraphGym's set_cfg default cfg.num_workers 0 (torch_geometric/graphgym/config.py, outside the repository)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H34+"; README.md:43-46 python main.py --cfg configs/GPS/zinc-GPS+RWSE.yaml wandb.use False (PyG GraphGym: a yacs cfg whose defaults live in torch_geometric.graphgym plus the repository's register_config extensions, a YAML --cfg and KEY VALUE overrides, registered optimizers and a custom training loop; GPS graph transformer (GINE + Transformer, 10 layers, width 64) with random-walk structural encodings on ZINC, GNN). Not labelled: model.num_parameters (no figure at this commit for this config), data.pin_memory (GraphGym's loader, outside the repository)")
MR=("seungeunrho/minimalRL","c8efed8481e3cd40e9739cfde220a55522555b57")
J("minimalrl-ppo-cartpole-single-file-cpu",*MR,["."],".",["ppo.py"],{
 "model.num_parameters":T(2051,"ppo.py:21-23 nn.Linear(4,256) 1,280 + nn.Linear(256,2) 514 + nn.Linear(256,1) 257 = 2,051"),
 "dist.world_size":T(1,"one process (no device placement at all: CPU)"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.grad_accum":T(1,"ppo.py:83-85 zero_grad/backward/step for every loss"),
 "precision.mode":T("fp32","no autocast or half(); tensors built with dtype=torch.float (ppo.py:53-55)"),
 "optimizer.name":T("Adam","ppo.py:24 optim.Adam(self.parameters(), lr=0.0005)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H34+"; README.md: each algorithm one file, run as python ppo.py (module-level hyper-parameters, an nn.Module that owns its optimizer, gym CartPole-v1 rollouts of T_horizon 20 steps turned into one batch per update with K_epoch 3 passes; PPO, RL). Not labelled: batch.micro and batch.global (up to 20 transitions per update, fewer at an episode's end), data.num_workers and data.pin_memory (no DataLoader)")
NS=("NATSpeech/NATSpeech","2e7084e4c76ee165de8d6ff7dacf6011514fbe7c")
nsc="egs/datasets/audio/lj/ps_flow_nips2021.yaml"
J("natspeech-portaspeech-ljspeech-yaml-chain-own-trainer-1gpu",*NS,["."],".",["tasks/run.py","--","--config",nsc,"--exp_name","ps_normal_exp","--reset"],{
 "dist.world_size":T(1,"docs/portaspeech.md:36 CUDA_VISIBLE_DEVICES=0 -> utils/commons/trainer.py:97-103 num_gpus 1, use_ddp False: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","trainer.py:103 DDP only when more than one GPU is visible"),
 "batch.grad_accum":T(1,"egs/egs_bases/config_base.yaml:26 accumulate_grad_batches 1 -> utils/commons/base_task.py:215"),
 "precision.mode":T("fp32","egs/egs_bases/config_base.yaml:5 amp false -> base_task.py:218 -> trainer.py:325 autocast(enabled=False)"),
 "optimizer.name":T("AdamW","egs/egs_bases/tts/ps_flow.yaml:20 two_stage with use_post_flow -> tasks/tts/ps_flow.py:112-124 two torch.optim.AdamW (main network and post-flow)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(1,"egs/egs_bases/tts/base.yaml:14 ds_workers 1 -> utils/commons/dataset_utils.py:214-215 (NUM_WORKERS unset) -> tasks/tts/speech_base.py:129,137"),
 "data.pin_memory":T(False,"tasks/tts/speech_base.py:134-138 DataLoader(pin_memory=False)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H34+"; docs/portaspeech.md:13-17,36 export CONFIG_NAME=egs/datasets/audio/lj/ps_flow_nips2021.yaml, MY_EXP_NAME=ps_normal_exp; CUDA_VISIBLE_DEVICES=0 python tasks/run.py --config $CONFIG_NAME --exp_name $MY_EXP_NAME --reset (the variables filled in; a chain of YAML files through base_config lists, relative and absolute, read into a global hparams dict; the task class named in the YAML and imported by string; its own Trainer with mp.spawn DDP when several GPUs are visible; PortaSpeech (normal) with a post-flow on LJSpeech, text-to-speech, speech). Not labelled: batch.micro and batch.global (batches built by a token budget, max_tokens 40000 and max_sentences 64 per batch), model.num_parameters (no figure in the repository for this config)")
SK=("shikras/shikra","ff79a4ced85d21739e1a4c5cec9e1e8f896b962c")
skc="config/shikra_pretrain_final19_stage2.py"
skt="config/_base_/train/shikra_fsdp.py"
J("shikra-7b-stage2-mmengine-config-hf-trainer-fsdp-accelerate-4gpu",*SK,["."],".",["--","accelerate","launch","--num_processes","4","--main_process_port","23786","mllm/pipeline/finetune.py",skc,"--cfg-options","model_args.model_name_or_path=/path/to/init/checkpoint"],{
 "dist.world_size":T(4,"README.md:111 accelerate launch --num_processes 4"),
 "dist.nodes":T(1,"no --num_machines"),
 "dist.devices_per_node":T(4,"--num_processes 4 on one machine"),
 "dist.sharding":T("fsdp_full",skt+":26-27 fsdp 'full_shard auto_wrap' with LlamaDecoderLayer (a TrainingArguments field; "+skc+":1 inherits it)"),
 "batch.micro":T(8,skt+":13 per_device_train_batch_size 8"),
 "batch.grad_accum":T(1,skt+":14 gradient_accumulation_steps 1"),
 "batch.global":T(32,"8 x 1 x 4"),
 "data.seq_len":T(4096,skc+":8-11 conv_args tokenize_kwargs truncation_size 4096 -> mllm/dataset/process_function/shikra_process_function.py:68,82-104 each conversation cut to 4096 tokens"),
 "precision.mode":T("amp_bf16",skt+":24 bf16 True with FSDP: Trainer bf16 mixed precision over fp32 sharded parameters (the model is loaded without torch_dtype, mllm/models/builder/build_shikra.py:18-22)",any_of=["amp_bf16"]),
 "optimizer.name":T("adamw_hf","no optim in the config; requirements.txt:3 transformers at cae78c46 (spring 2023), whose TrainingArguments optim default is adamw_hf",any_of=["adamw_hf","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,skt+":25 gradient_checkpointing True"),
 "data.num_workers":T(4,skt+":40 dataloader_num_workers 4"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","config/_base_/model/shikra.py:16-18 freeze_backbone False, no LoRA: full fine-tuning of the LLM and the projector"),
},held_out=True,note=H34+"; README.md:108-116 accelerate launch --num_processes 4 --main_process_port 23786 mllm/pipeline/finetune.py config/shikra_pretrain_final19_stage2.py --cfg-options model_args.model_name_or_path=/path/to/init/checkpoint (an mmengine Python config with _base_ lists whose training_args dict becomes Seq2SeqTrainingArguments, mmengine --cfg-options, a HF Trainer subclass with FSDP from TrainingArguments; Shikra referential-dialogue MLLM, a LLaMA-7B with a CLIP ViT-L/14 tower, stage-2 training, multimodal). Not labelled: model.ref and model.num_parameters (the init checkpoint is a placeholder path in the documented command; the 7B and 13B configs both exist)")
MD=("VSehwag/minimal-diffusion","ea0321eba164bfabe5562487cb5d1267b4881dad")
J("minimal-diffusion-unet-cifar10-dist-launch-ddp-4gpu",*MD,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=4","main.py","--arch","UNet","--dataset","cifar10","--class-cond","--epochs","500"],{
 "dist.world_size":T(4,"README.md:24 --nproc_per_node=4 (CUDA_VISIBLE_DEVICES=0,1,2,3)"),
 "dist.nodes":T(1,"no --nnodes"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("ddp","main.py:398-404 DistributedDataParallel when more than one GPU is visible"),
 "batch.micro":T(32,"main.py:326-327 --batch-size default 128 -> :402 divided by the 4 visible GPUs -> :433-440 DataLoader(batch_size=32)"),
 "batch.grad_accum":T(1,"main.py:215-217 zero_grad/backward/step every batch"),
 "batch.global":T(128,"32 x 1 x 4 (the 128 of --batch-size)"),
 "data.image_size":T(32,"data.py:32-35 cifar10 image_size 32 -> main.py:365-366"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("AdamW","main.py:376 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,"main.py:438 num_workers=4"),
 "data.pin_memory":T(True,"main.py:439 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H34+"; README.md:20-26 CUDA_VISIBLE_DEVICES=0,1,2,3 python -m torch.distributed.launch --nproc_per_node=4 main.py --arch UNet --dataset cifar10 --class-cond --epochs 500 (the launch line without its CUDA_VISIBLE_DEVICES prefix; argparse, unets.__dict__[args.arch], a per-process batch computed as the --batch-size divided by torch.cuda.device_count(), DDP with --local_rank; class-conditional DDPM on CIFAR-10, diffusion). Not labelled: model.num_parameters (no figure in the repository for the UNet at 32x32)")
PC=("huyvnphan/PyTorch_CIFAR10","641cac24371b17052b9bb6e56af1c83b5e97cd7f")
J("pytorch-cifar10-resnet18-lightning-1gpu",*PC,["."],".",["train.py","--","--classifier","resnet18"],{
 "model.num_parameters":T(11173962,"README.md:14 resnet18 11.174 M (cifar10_models/resnet.py: torchvision's ResNet-18 with a 3x3 stem and 10 classes: 11,173,962; torchvision's ImageNet ResNet-18 is 11.69M)",rel_tol=0.02),
 "dist.world_size":T(1,"train.py:19,76 CUDA_VISIBLE_DEVICES set to --gpu_id default '3' before the Trainer -> :31 gpus=-1 sees one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"one visible GPU"),
 "dist.sharding":T("none","one device: no DDP"),
 "batch.micro":T(256,"train.py:73 --batch_size default 256 -> data.py:58-64 DataLoader(batch_size=256)"),
 "batch.grad_accum":T(1,"train.py:28-38 no accumulate_grad_batches (Lightning default 1)"),
 "batch.global":T(256,"256 x 1 x 1"),
 "data.image_size":T(32,"data.py:51 RandomCrop(32, padding=4) of CIFAR-10's 32x32 images"),
 "precision.mode":T("fp32","train.py:72 --precision default 32 -> :37 Trainer(precision=32)"),
 "optimizer.name":T("SGD","module.py:62-69 torch.optim.SGD",any_of=["SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,"train.py:75 --num_workers default 8 -> data.py:61"),
 "data.pin_memory":T(True,"data.py:64 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (--pretrained 0)"),
},held_out=True,note=H34+"; README.md:58-62 python train.py --classifier resnet18 (argparse, a LightningModule that picks the network from a dict of instances by name, module.py:13-38, a LightningDataModule, Trainer(gpus=-1) after the script sets CUDA_VISIBLE_DEVICES itself; CIFAR-10 classification, vision). Not labelled: model.ref (resnet18 here is the repository's CIFAR variant, not torchvision's or timm's network)")
PL=("magic-research/PLLaVA","6f49fd281a855c4fa3103595ba2800a4dce7ec88")
pls="scripts/train_pllava_7b.sh"
plc="tasks/train/config_pllava_nframe.py"
pla="scripts/accel_config_multigpu.yaml"
J("pllava-7b-lora-video-accelerate-ddp-launch-script",*PL,["."],".",[pls],{
 "model.ref":T("llava-hf/llava-v1.6-vicuna-7b-hf",pls+":20,34 repo_id -> model.repo_id -> tasks/train/train_pllava_nframe_accel.py:112 PllavaForConditionalGeneration.from_pretrained"),
 "model.num_parameters":T(7060000000,"LLaVA-NeXT Vicuna-7B: a 6.74B LLaMA-family LLM, a CLIP ViT-L/14-336 tower (0.30B) and the projector: about 7.06B (LoRA r=128 on q/v adds about 1%)",rel_tol=0.05),
 "dist.world_size":T(4,pls+":21 --config_file "+pla+" -> :3,10 MULTI_GPU num_processes 4 (gpu_ids 2,3,4,5; the script's num_gpus=8 is only arithmetic)"),
 "dist.nodes":T(1,pla+":9 num_machines 1"),
 "dist.devices_per_node":T(4,pla+":10 num_processes 4"),
 "dist.sharding":T("ddp",pla+":3 distributed_type MULTI_GPU"),
 "batch.micro":T(8,pls+":14,30 batch_size 8 -> "+plc+":34 inputs.batch_size ${batch_size} -> dataset/__init__.py:145-147"),
 "batch.grad_accum":T(2,pls+":17,29 gradient_accumulation_steps=$[128/(8*8)] = 2 -> train_pllava_nframe_accel.py:310-311 Accelerator(gradient_accumulation_steps=2)"),
 "batch.global":T(64,"8 x 2 x 4"),
 "precision.mode":T("bf16",plc+":48 torch_dtype 'bfloat16' -> train_pllava_nframe_accel.py:88-89,112 from_pretrained(torch_dtype=torch.bfloat16): bf16 weights, with "+pla+":8 mixed_precision bf16"),
 "optimizer.name":T("AdamW",plc+":84-86 optimizer opt 'adamW' -> tasks/shared_utils.py create_optimizer -> utils/optimizer.py:128-129 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,pls+":35 gradient_checkpointing True -> train_pllava_nframe_accel.py:100-108 PllavaConfig(gradient_checkpointing=True) -> models/pllava/configuration_pllava.py:139-145 text_config.gradient_checkpointing (transformers 4.37 turns it on at post_init)"),
 "data.num_workers":T(8,pls+":27 num_workers 8 -> train_pllava_nframe_accel.py:77"),
 "data.pin_memory":T(False,"dataset/__init__.py:145-149 DataLoader(pin_memory=False)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora",pls+":32 model.use_lora True -> train_pllava_nframe_accel.py:140-150 LoraConfig -> get_peft_model(model.language_model)"),
 "peft.rank":T(128,plc+":54 lora_r 128"),
},held_out=True,note=H34+"; README.md:262 and the 7B script scripts/train_pllava_7b.sh run from the repository root (exports, bash arrays and $[...] arithmetic, accelerate launch --config_file scripts/accel_config_multigpu.yaml tasks/train/train_pllava_nframe_accel.py tasks/train/config_pllava_nframe.py followed by KEY VALUE overrides; a Python config with ${...} lazy references, LoRA on the language model of a LLaVA-NeXT checkpoint, frozen vision tower, pooled video tokens; video instruction tuning, multimodal). Not labelled: data.seq_len (max_txt_l 512 text tokens, plus 16 x 12 x 12 pooled video tokens), data.image_size (frames resized by the processor, shortest edge 336, longest 762)")
IE=("HKUNLP/instructor-embedding","bbf254d7a70c19938bf8fdfb45d606fb7a082a20")
J("instructor-gtr-t5-large-medi-hf-seq2seq-trainer-1proc",*IE,["."],".",["train.py","--","--model_name_or_path","sentence-transformers/gtr-t5-large","--output_dir","outputs","--cache_dir","cache","--max_source_length","512","--num_train_epochs","10","--save_steps","500","--cl_temperature","0.01","--warmup_ratio","0.1","--learning_rate","2e-5","--overwrite_output_dir"],{
 "model.ref":T("sentence-transformers/gtr-t5-large","--model_name_or_path -> train.py:389,488 INSTRUCTOR(real_name_or_path): a sentence-transformers model"),
 "model.num_parameters":T(335000000,"GTR-T5-large is T5-large's encoder (335M) with a 1024 -> 768 dense layer; INSTRUCTOR-large, trained by this command, is 335M (README)",rel_tol=0.05),
 "dist.world_size":T(1,"python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(8,"no --per_device_train_batch_size: TrainingArguments default 8"),
 "batch.grad_accum":T(1,"TrainingArguments default 1"),
 "data.seq_len":T(512,"--max_source_length 512 -> train.py:504-505 tokenizer(padding='max_length', max_length=512)"),
 "data.padding":T("max_length","train.py:504-505 padding='max_length' at preprocessing"),
 "precision.mode":T("fp32","no --fp16/--bf16"),
 "optimizer.name":T("adamw_hf","requirements.txt:1 transformers==4.20.0, whose TrainingArguments optim default is adamw_hf",any_of=["adamw_hf","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"transformers 4.20 has no torch_compile"),
 "peft.method":T("none","every parameter of the encoder trained"),
},held_out=True,note=H34+"; README.md:168-170 python train.py --model_name_or_path sentence-transformers/gtr-t5-large --output_dir {output_directory} --cache_dir {cache_directory} --max_source_length 512 --num_train_epochs 10 --save_steps 500 --cl_temperature 0.01 --warmup_ratio 0.1 --learning_rate 2e-5 --overwrite_output_dir (the two directories filled in; HfArgumentParser over two dataclasses and Seq2SeqTrainingArguments, a Seq2SeqTrainer subclass training a sentence-transformers model with a contrastive loss; instruction-finetuned text embeddings, NLP). Not labelled: dist.sharding and batch.global (HF Trainer under plain python wraps the model in DataParallel over however many GPUs are visible)")
RC=("THUwangcy/ReChorus","e58d752558634d42be60de561d6f74df748583cc")
J("rechorus-bprmf-grocery-runner-1gpu",*RC,["."],"src",["main.py","--","--model_name","BPRMF","--emb_size","64","--lr","1e-3","--l2","1e-6","--dataset","Grocery_and_Gourmet_Food"],{
 "dist.world_size":T(1,"src/main.py:22,51-54 --gpu default '0': one process on one GPU"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(256,"src/helpers/BaseRunner.py:33 --batch_size default 256 -> :182 DataLoader(batch_size=256)"),
 "batch.grad_accum":T(1,"BaseRunner.py:193-206 zero_grad/backward/step every batch"),
 "batch.global":T(256,"256 x 1 x 1"),
 "precision.mode":T("fp32","no autocast or half()"),
 "optimizer.name":T("Adam","BaseRunner.py:37 --optimizer default 'Adam' -> :112 eval('torch.optim.Adam')",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(5,"BaseRunner.py:39 --num_workers default 5 -> :182"),
 "data.pin_memory":T(False,"BaseRunner.py:41 --pin_memory default 0 -> :183"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H34+"; docs/Getting_Started.md:15-21 cd src; python main.py --model_name BPRMF --emb_size 64 --lr 1e-3 --l2 1e-6 --dataset Grocery_and_Gourmet_Food (a model class chosen by eval of --model_name, which names its reader and runner classes, each adding argparse options; BPR matrix factorisation, top-k recommendation). Not labelled: model.num_parameters (user and item embedding tables sized by the dataset)")
LQ=("yxli2123/LoftQ","ae33fd4fd05fd4ba146555cd77c13d307eb4e9b3")
J("loftq-llama2-7b-4bit-lora-gsm8k-hf-trainer-1proc",*LQ,["."],".",["train_gsm8k.py","--","--model_name_or_path","LoftQ/Llama-2-7b-hf-4bit-64rank","--learning_rate","3e-4","--seed","11","--expt_name","gsm8k_llama2_7b_4bit_64rank_loftq","--output_dir","exp_results/","--num_train_epochs","6","--per_device_train_batch_size","2","--gradient_accumulation_steps","8","--evaluation_strategy","no","--save_strategy","epoch","--weight_decay","0.1","--warmup_ratio","0.03","--lr_scheduler_type","cosine","--logging_steps","10","--do_train","--report_to","tensorboard"],{
 "model.ref":T("LoftQ/Llama-2-7b-hf-4bit-64rank","--model_name_or_path -> train_gsm8k.py:208-219 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6738415616,"Llama-2-7B: 6,738,415,616 (the 64-rank LoRA adds about 2%)",rel_tol=0.05),
 "task.mode":T("qlora","a 4-bit base with trainable LoRA adapters",any_of=["qlora","lora"]),
 "dist.world_size":T(1,"python train_gsm8k.py: one process"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(2,"--per_device_train_batch_size 2"),
 "batch.grad_accum":T(8,"--gradient_accumulation_steps 8"),
 "data.seq_len":T(512,"train_gsm8k.py:74-75 model_max_length default 512 -> :257-262 tokenizer -> :107-116 truncation at 512"),
 "data.padding":T("dynamic","train_gsm8k.py:168-178 DataCollatorForSupervisedDataset pads each batch to its longest sample"),
 "precision.mode":T("bf16","train_gsm8k.py:211 torch_dtype=torch.bfloat16 and :215 bnb_4bit_compute_dtype bfloat16, no --bf16/--fp16: bf16 compute and non-quantized weights, no autocast",any_of=["bf16"]),
 "precision.weights_bits":T(4,"train_gsm8k.py:213-214 BitsAndBytesConfig(load_in_4bit=True) (no --full_precision)"),
 "precision.quant_type":T("nf4","train_gsm8k.py:217"),
 "precision.double_quant":T(False,"train_gsm8k.py:216 bnb_4bit_use_double_quant=False"),
 "optimizer.name":T("adamw_torch","train_gsm8k.py:73 a TrainingArguments subclass with optim default 'adamw_torch'",any_of=["adamw_torch","AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing and no prepare_model_for_kbit_training"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("lora","no --lora_init, no --adapter_name_or_path -> train_gsm8k.py:248-255 PeftModel.from_pretrained(model, name, subfolder='loftq_init', is_trainable=True)"),
 "peft.rank":T(64,"the LoftQ-initialised adapter of LoftQ/Llama-2-7b-hf-4bit-64rank has rank 64 (the 64rank of its name; README.md:126)"),
},held_out=True,note=H34+"; README.md:120-142 python train_gsm8k.py --model_name_or_path LoftQ/Llama-2-7b-hf-4bit-64rank ... --per_device_train_batch_size 2 --gradient_accumulation_steps 8 ... (HfArgumentParser over three dataclasses, one a TrainingArguments subclass with its own defaults; a 4-bit NF4 base whose LoRA adapter is loaded from the Hub repository's loftq_init subfolder; LoftQ fine-tuning of Llama-2-7B on GSM8K, LLM). Not labelled: dist.sharding and batch.global (HF Trainer under plain python: DataParallel over the visible GPUs is decided at run time)")
