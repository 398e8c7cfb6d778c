"""The forty-third held-out set of the jobs benchmark (run.py --set held-out-43): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json and /work/wt/all_repos.txt); each owner/name and bare name
was grepped in bench/, docs/, tests/, calibration/, preflight/ and adapters/ before it was taken, and
where a name appears there (other corpora) the set's docs section says so. The scored drafts of sets
28 and 31 were not checked before labelling: rosinality/stylegan2-pytorch was a job of the set-31
draft and hiyouga/ChatGLM-Efficient-Tuning one of the set-28 draft (found after the first scoring;
docs/realworld.md 'Set 43, first scoring' gives the figure with and without them).
Parameter counts are labelled only where the repository states them or a published checkpoint's
size gives them."""
from .core import J, T

H43="forty-third held-out set"
MN=("KellerJordan/modded-nanogpt","f411b3d346aa52d3504324ca93c230fd84c6c07f")
J("modded-nanogpt-speedrun-run-sh-torchrun-8gpu-hand-rolled-comms",*MN,["."],".",["run.sh"],{
 "dist.world_size":T(8,"run.sh:1 torchrun --standalone --nproc_per_node=8: 8 processes"),
 "dist.nodes":T(1,"run.sh:1 --standalone"),
 "dist.devices_per_node":T(8,"run.sh:1 --nproc_per_node=8"),
 "batch.grad_accum":T(1,"train_gpt.py:55-57 grad_accum_steps = 8 // world_size = 1"),
 "precision.mode":T("bf16","train_gpt.py:2242-2254 every Embedding/Linear weight and the parameter banks cast to bfloat16 (no autocast; train_gpt.py:2258 the MLP matmuls additionally quantized to fp8)",any_of=["bf16","amp_bf16","fp8"]),
 "optimizer.name":T("NorMuonAndAdam","train_gpt.py:374 class NorMuonAndAdam (NorMuon for the projection matrices, Adam for embeddings/scalars/gates) built at :2078",any_of=["NorMuonAndAdam","NorMuon","Muon","normuon"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in train_gpt.py"),
 "compile.enabled":T(True,"train_gpt.py:2260 torch.compile(model, dynamic=False, fullgraph=True)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H43+"; README.md:76 './run.sh' (run.sh is one line: torchrun --standalone --nproc_per_node=8 train_gpt.py; a single 2,400-line record script with no argparse, a Hyperparameters class of constants, hand-written all-reduce/reduce-scatter inside a combined NorMuon+Adam optimizer instead of a DDP wrapper, a staged schedule whose batch size and sequence length grow across training stages, bf16 weights with fp8 MLP matmuls, custom Triton kernels; the GPT-2 small (124M-class) FineWeb speedrun, language modelling). Not labelled: dist.sharding (no DDP/FSDP wrapper: gradients reduced by hand, the Adam state sharded across ranks by the optimizer), batch.micro, batch.global and data.seq_len (train_gpt.py:1980-1987 change per training stage: 896 then 2048 tokens, 8 to 24 x 2048 x 8 tokens a step), data.num_workers and data.pin_memory (no DataLoader: a generator over .bin shards), model.num_parameters (not stated for this record's architecture)")
SG=("rosinality/stylegan2-pytorch","bef283a1c24087da704d16c30abc8e36e63efa0e")
J("stylegan2-pytorch-ffhq-256-torch-distributed-launch-8gpu",*SG,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","--master_port=29500",
 "train.py","--batch","16","/data/ffhq_lmdb"],{
 "dist.world_size":T(8,"README.md:26 python -m torch.distributed.launch --nproc_per_node=8 -> train.py:433 WORLD_SIZE 8"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","train.py:497-510 generator and discriminator each wrapped in DistributedDataParallel when WORLD_SIZE > 1"),
 "batch.micro":T(16,"--batch 16 (train.py:343 'batch sizes for each gpus') -> :520-526 MultiResolutionDataset and DataLoader(batch_size=16)"),
 "batch.grad_accum":T(1,"train.py:193-195 and :236-238 zero_grad, backward and step of the discriminator and the generator every iteration"),
 "batch.global":T(128,"16 x 1 x 8"),
 "data.image_size":T(256,"train.py:352 --size default 256 -> :520 MultiResolutionDataset(path, transform, 256)"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() in train.py"),
 "optimizer.name":T("Adam","train.py:467-476 optim.Adam for the generator and the discriminator (betas from the lazy-regularization ratio)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"train.py:521-526 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train.py:521-526 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H43+"; README.md:24-26 'Then you can train model in distributed settings: python -m torch.distributed.launch --nproc_per_node=N_GPU --master_port=PORT train.py --batch BATCH_SIZE LMDB_PATH' with N_GPU=8, PORT=29500, BATCH_SIZE=16 (the --batch default) and an LMDB path filled (argparse in __main__ with a --local_rank argument for the legacy launcher, WORLD_SIZE read from the environment, generator/discriminator/EMA generator, two Adam optimizers with lazy R1 and path-length regularization every 16/4 steps, an infinite sampler loop, optional adaptive augmentation; StyleGAN2 config-f on 256x256 FFHQ from an LMDB, image generation). Not labelled: model.num_parameters (not stated in the repository)")
NF=("megvii-research/NAFNet","2b4af71ebe098a92a75910c233a3965a3e93ede4")
nfo="options/train/GoPro/NAFNet-width32.yml"
J("nafnet-width32-gopro-deblur-basicsr-yaml-distributed-launch-8gpu",*NF,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","--master_port=4321",
 "basicsr/train.py","-opt",nfo,"--launcher","pytorch"],{
 "dist.world_size":T(8,"docs/GoPro.md:25 --nproc_per_node=8: 8 processes"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8 ("+nfo+":11 num_gpu 8)"),
 "dist.sharding":T("ddp","--launcher pytorch -> basicsr/train.py:46-55 opt['dist'] True -> basicsr/models/base_model.py:72-78 DistributedDataParallel"),
 "batch.micro":T(4,nfo+":32 batch_size_per_gpu 4 -> basicsr/data/__init__.py:87-88 (distributed) -> DataLoader(batch_size=4)"),
 "batch.grad_accum":T(1,"basicsr/models/image_restoration_model.py:190-231 zero_grad, backward and step every iteration"),
 "batch.global":T(32,"4 x 1 x 8"),
 "data.image_size":T(256,nfo+":25 gt_size 256 (random 256x256 crops of the GoPro pairs)"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() in basicsr/models/image_restoration_model.py"),
 "optimizer.name":T("AdamW",nfo+":60-64 optim_g type AdamW -> basicsr/models/image_restoration_model.py:88,95-96 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in basicsr/models/archs/NAFNet_arch.py"),
 "data.num_workers":T(4,nfo+":31 num_worker_per_gpu 4 -> basicsr/data/__init__.py:89"),
 "data.pin_memory":T(False,"no pin_memory in "+nfo+": basicsr/data/__init__.py:115 default False"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch ("+nfo+":54 pretrain_network_g ~)"),
},held_out=True,note=H43+"; docs/GoPro.md:23-25 'NAFNet-GoPro-width32: python -m torch.distributed.launch --nproc_per_node=8 --master_port=4321 basicsr/train.py -opt options/train/GoPro/NAFNet-width32.yml --launcher pytorch' (a vendored BasicSR: argparse for the option file and launcher, a YAML options tree with !!float tags parsed into an ordered dict, the network class found in a registry from network_g.type, a model class from model_type, an optimizer picked by name from optim_g.type, per-GPU batch and worker counts that are multiplied by num_gpu only when not distributed, iteration-based training with a TrueCosineAnnealingLR; NAFNet-width32 image deblurring on GoPro, image restoration). Not labelled: model.num_parameters (not stated in the repository)")
MF=("facebookresearch/MaskFormer","da3e60d85fdeedcb31476b5edd7d328826ce56cc")
mfc="configs/ade20k-150/maskformer_R50_bs16_160k.yaml"
mfb="configs/ade20k-150/Base-ADE20K-150.yaml"
J("maskformer-r50-ade20k-semseg-detectron2-launch-8gpu",*MF,["."],".",["train_net.py","--","--num-gpus","8","--config-file",mfc],{
 "dist.world_size":T(8,"--num-gpus 8 -> train_net.py:264-271 detectron2 launch(main, 8): 8 processes"),
 "dist.nodes":T(1,"no --num-machines: detectron2 default 1"),
 "dist.devices_per_node":T(8,"--num-gpus 8"),
 "dist.sharding":T("ddp","train_net.py:44 Trainer(DefaultTrainer): detectron2 wraps the model in DistributedDataParallel when the world size is above 1"),
 "batch.micro":T(2,mfb+":20 SOLVER.IMS_PER_BATCH 16 is the total over all processes: 16 // 8 = 2 images per GPU"),
 "batch.grad_accum":T(1,"detectron2 SimpleTrainer: one optimizer step per iteration, no accumulation in train_net.py"),
 "batch.global":T(16,mfb+":20 SOLVER.IMS_PER_BATCH 16"),
 "data.image_size":T(512,mfb+":40-43 INPUT.CROP SIZE (512, 512)"),
 "precision.mode":T("fp32","no SOLVER.AMP in "+mfc+" or "+mfb+": detectron2 default AMP off"),
 "optimizer.name":T("AdamW",mfb+":26 SOLVER.OPTIMIZER ADAMW -> train_net.py:197-198 torch.optim.AdamW with full-model gradient clipping",any_of=["AdamW","adamw","ADAMW"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in the ResNet-50 backbone or the MaskFormer head (only mask_former/modeling/backbone/swin.py:372 has use_checkpoint, default False, for Swin backbones)"),
 "data.num_workers":T(4,mfb+":58 DATALOADER.NUM_WORKERS 4"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training from an ImageNet-pretrained ResNet-50 ("+mfb+":5 MODEL.WEIGHTS)"),
},held_out=True,note=H43+"; GETTING_STARTED.md:36-43 './train_net.py --num-gpus 8 --config-file configs/ade20k-150/maskformer_R50_bs16_160k.yaml' (detectron2: default_argument_parser, launch() spawning one process per GPU, a yacs CfgNode extended by add_mask_former_config and merged from a _BASE_ chain of YAML files with a !!python/object/apply:eval tag, a DefaultTrainer subclass overriding build_optimizer/build_train_loader, SOLVER.IMS_PER_BATCH as the total batch; MaskFormer R50 semantic segmentation on ADE20K-150, vision). Not labelled: model.num_parameters (not stated in the repository), data.pin_memory (inside the installed detectron2's loader)")
IP=("timothybrooks/instruct-pix2pix","0dffd1eeb02611c35088462d1df88714ce2b52f4")
ipc="configs/train.yaml"
J("instruct-pix2pix-sd15-ldm-lightning-main-py-8gpu",*IP,["."],".",["main.py","--","--name","default","--base",ipc,"--train","--gpus","0,1,2,3,4,5,6,7"],{
 "dist.world_size":T(8,"--gpus 0,1,2,3,4,5,6,7 with main.py:585 accelerator 'ddp': 8 processes"),
 "dist.nodes":T(1,"no num_nodes: Lightning default 1"),
 "dist.devices_per_node":T(8,"--gpus 0,1,2,3,4,5,6,7"),
 "dist.sharding":T("ddp","main.py:584-585 trainer accelerator 'ddp' (:717 DDPPlugin(find_unused_parameters=False))"),
 "batch.micro":T(32,ipc+":80 data.params.batch_size 32 -> main.py:207-209 DataLoader(batch_size=32) per process"),
 "batch.grad_accum":T(4,ipc+":112 lightning.trainer.accumulate_grad_batches 4 -> main.py:737-742"),
 "batch.global":T(1024,"32 x 4 x 8 (main.py:744 learning_rate = accumulate_grad_batches * ngpu * bs * base_lr)"),
 "data.image_size":T(256,ipc+":87-89 min/max_resize_res 256, crop_res 256"),
 "precision.mode":T("fp32","no precision in "+ipc+" or main.py: Lightning default 32"),
 "optimizer.name":T("AdamW","stable_diffusion/ldm/models/diffusion/ddpm_edit.py:1375-1384 LatentDiffusion.configure_optimizers torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,ipc+":48 unet_config use_checkpoint True (the UNet's attention/res blocks checkpointed)"),
 "data.num_workers":T(2,ipc+":81 data.params.num_workers 2 -> main.py:207-208"),
 "data.pin_memory":T(False,"main.py:207-209 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning of the Stable Diffusion v1.5 UNet ("+ipc+":8 ckpt_path; :18 cond_stage_trainable false)"),
},held_out=True,note=H43+"; README.md:82-84 'python main.py --name default --base configs/train.yaml --train --gpus 0,1,2,3,4,5,6,7' (the CompVis latent-diffusion main.py: argparse merged with Trainer.add_argparse_args, OmegaConf configs with model/data/lightning sections and target/params instantiation, the trainer config defaulting to accelerator 'ddp' when --gpus is given, a DataModuleFromConfig, learning rate scaled by accumulation x GPUs x batch; InstructPix2Pix fine-tuning of Stable Diffusion v1.5 with an 8-channel input UNet on generated image-edit pairs, image editing). Not labelled: model.num_parameters (not stated), model.ref (a local ckpt path)")
CF=("atong01/conditional-flow-matching","cacd4dc8a5b6f50de63780e8f73754c9371f15db")
cfe="runner/configs/experiment/image_otcfm.yaml"
J("torchcfm-runner-otcfm-cifar10-hydra-lightning-ddp-spawn-2gpu",*CF,["."],"runner",["src/train.py","--","experiment=image_otcfm"],{
 "dist.world_size":T(2,cfe+":10 trainer ddp.yaml and :31 trainer.devices 2: 2 processes"),
 "dist.nodes":T(1,"runner/configs/trainer/ddp.yaml:36 num_nodes 1"),
 "dist.devices_per_node":T(2,cfe+":31 trainer.devices 2 (runner/configs/trainer/ddp.yaml:34 accelerator gpu)"),
 "dist.sharding":T("ddp","runner/configs/trainer/ddp.yaml:32 strategy ddp_spawn",any_of=["ddp","ddp_spawn"]),
 "batch.micro":T(128,cfe+":15-16 datamodule.batch_size 128 (runner/configs/datamodule/cifar.yaml:4 too) per process"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches in runner/configs/trainer/: Lightning default 1"),
 "batch.global":T(256,"128 x 1 x 2"),
 "data.image_size":T(32,cfe+":9 datamodule cifar.yaml: CIFAR-10 32x32 images"),
 "precision.mode":T("fp32","runner/configs/trainer/default.yaml:12 precision commented out: Lightning default 32"),
 "optimizer.name":T("Adam","runner/configs/model/image_cfm.yaml:4-7 optimizer _target_ torch.optim.Adam (lr 5e-4) -> runner/src/models/cfm_module.py:519-521",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,"runner/configs/datamodule/cifar.yaml:6 num_workers 0"),
 "data.pin_memory":T(True,"runner/configs/datamodule/cifar.yaml:10 pin_memory True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H43+"; runner/README.md:18 'python src/train.py experiment=experiment_name' with the image_otcfm experiment, run from runner/ (the lightning-hydra-template: pyrootutils.setup_root finding runner/README.md, @hydra.main with config_path root/'configs', a @package _global_ experiment overriding the model/datamodule/trainer/logger/callbacks groups, optimizer and scheduler given as _partial_ targets, a datamodule subclassing pl_bolts' CIFAR10DataModule, ddp_spawn; exact optimal-transport conditional flow matching of a UNet on CIFAR-10, image generation). Not labelled: model.num_parameters (not stated)")
CG=("hiyouga/ChatGLM-Efficient-Tuning","3c12daaa36779c4b45f890699c9aa36311a9ad14")
cga="examples/accelerate_config.yaml"
cgs="src/glmtuner"
J("chatglm-efficient-tuning-6b-lora-sft-accelerate-deepspeed-zero2-4gpu",*CG,["."],".",["--","accelerate","launch","--config_file",cga,"src/train_bash.py",
 "--stage","sft","--model_name_or_path","THUDM/chatglm-6b","--do_train","--dataset","alpaca_gpt4_en","--finetuning_type","lora",
 "--output_dir","path_to_sft_checkpoint","--per_device_train_batch_size","4","--gradient_accumulation_steps","4","--lr_scheduler_type","cosine",
 "--logging_steps","10","--save_steps","1000","--learning_rate","5e-5","--num_train_epochs","3.0","--plot_loss","--fp16"],{
 "model.ref":T("THUDM/chatglm-6b","--model_name_or_path THUDM/chatglm-6b (also "+cgs+"/hparams/model_args.py:11-12 default)",any_of=["THUDM/chatglm-6b"]),
 "model.num_parameters":T(6173286400,"ChatGLM-6B (THUDM/ChatGLM-6B: 6.2B parameters)",rel_tol=0.1),
 "dist.world_size":T(4,cga+":15 num_processes 4"),
 "dist.nodes":T(1,cga+":14 num_machines 1"),
 "dist.devices_per_node":T(4,cga+":14-15 4 processes on one machine"),
 "dist.sharding":T("zero2",cga+":8-9 distributed_type DEEPSPEED, zero_stage 2",any_of=["zero2","zero_2","deepspeed_zero2"]),
 "dist.offload_optimizer":T("none",cga+":5 offload_optimizer_device none"),
 "batch.micro":T(4,"--per_device_train_batch_size 4"),
 "batch.grad_accum":T(4,"--gradient_accumulation_steps 4 ("+cga+":3 the same)"),
 "batch.global":T(64,"4 x 4 x 4"),
 "precision.mode":T("amp_fp16","--fp16 with "+cga+":13 mixed_precision fp16; "+cgs+"/tuner/core/loader.py:111 the model loaded without torch_dtype (fp32 weights)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","no --optim: the Seq2SeqTrainingArguments default AdamW",any_of=["AdamW","adamw","adamw_hf","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,cgs+"/tuner/core/loader.py:133 prepare_model_for_training -> "+cgs+"/extras/misc.py:69,77-80 use_gradient_checkpointing default True -> gradient_checkpointing_enable()"),
 "data.num_workers":T(0,"no --dataloader_num_workers: Trainer default 0"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("lora","--finetuning_type lora -> "+cgs+"/tuner/core/adapter.py:86-94 LoraConfig + get_peft_model",any_of=["lora"]),
 "peft.rank":T(8,cgs+"/hparams/finetuning_args.py:31-32 lora_rank default 8"),
 "task.mode":T("lora","fp32/fp16-autocast base + LoRA on query_key_value ("+cgs+"/hparams/finetuning_args.py:43-44)"),
},held_out=True,note=H43+"; README.md:166-172 'Distributed Fine-tuning with Multiple GPUs: accelerate config; accelerate launch src/train_bash.py # arguments (same as above)' with the arguments of README.md:145-162 (path_to_your_chatglm_model filled with THUDM/chatglm-6b, the model_args default) and the repository's own examples/accelerate_config.yaml as the accelerate config (DeepSpeed ZeRO-2, 4 processes, fp16); an HfArgumentParser over model/data/finetuning/general arguments and Seq2SeqTrainingArguments, a stage switch to the SFT workflow, a ChatGLM remote-code model with layer norms upcast to fp32 and gradient checkpointing on by default, PEFT LoRA on query_key_value, a ChatGLM data collator; LoRA instruction tuning of ChatGLM-6B on Alpaca-GPT4, LLM fine-tuning). Not labelled: data.seq_len (max_source_length 512 and max_target_length 512 truncate source and target separately, padded per batch), data.pin_memory (the installed transformers' default)")
II=("OpenGVLab/InternImage","31c962dc6c1ceb23e580772f7daaa6944694fbe6")
iic="configs/internimage_t_1k_224.yaml"
J("internimage-t-imagenet1k-slurm-srun-script-4x8",*II,["classification"],"classification",["--","GPUS=32","sh","train_in1k.sh","mypartition","internimage_t",iic,"--batch-size","128"],{
 "model.num_parameters":T(30000000,"README.md:217 InternImage-T (IN-1K, 224x224) 30M",rel_tol=0.1),
 "dist.world_size":T(32,"GPUS=32 -> train_in1k.sh:8,17 srun --ntasks=32 -> main.py:602 world_size = SLURM_NTASKS"),
 "dist.nodes":T(4,"train_in1k.sh:9,18 --ntasks-per-node=8 (GPUS_PER_NODE default 8): 32 / 8 = 4 nodes"),
 "dist.devices_per_node":T(8,"train_in1k.sh:9,16 --gres=gpu:8"),
 "dist.sharding":T("ddp","main.py:220-221 torch.nn.parallel.DistributedDataParallel (config.py:126 USE_ZERO False)"),
 "batch.micro":T(128,"--batch-size 128 -> config.py:236-237 DATA.BATCH_SIZE -> dataset/build.py:107-113 DataLoader(batch_size=128) per process"),
 "batch.grad_accum":T(1,"train_in1k.sh:25 --accumulation-steps 1 -> config.py:250-251 -> main.py:425 the accumulation branch not taken"),
 "batch.global":T(4096,"128 x 1 x 32 (README.md:279,281 the same 4096 as 8 x 512)"),
 "data.image_size":T(224,"config.py:28 DATA.IMG_SIZE 224 (not set in "+iic+")"),
 "precision.mode":T("amp_fp16","main.py:104-109 --amp-opt-level default O1 -> config.py:254-255 -> main.py:182-186,209-210 native torch.cuda.amp.autocast with config.py:211 AMP_TYPE float16 (main.py:405,419) over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","config.py:118 TRAIN.OPTIMIZER.NAME 'adamw' -> optimizer.py:34,73-74 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"config.py:106 TRAIN.USE_CHECKPOINT False, --use-checkpoint not passed"),
 "data.num_workers":T(8,"config.py:39 DATA.NUM_WORKERS 8 -> dataset/build.py:111"),
 "data.pin_memory":T(True,"config.py:37 DATA.PIN_MEMORY True -> dataset/build.py:112"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H43+"; classification/README.md:279-281 'GPUS=32 sh train_in1k.sh <partition> <job-name> configs/internimage_t_1k_224.yaml --batch-size 128' with the partition and job name filled, run from classification/ (a SLURM srun wrapper with GPUS/GPUS_PER_NODE/CPUS_PER_TASK environment defaults and --ntasks/--ntasks-per-node/--gres, the rank and world size read from SLURM_PROCID/SLURM_NTASKS inside main.py, a Swin-style yacs config with argparse overrides, per-GPU --batch-size, native AMP chosen through an apex-style opt level, EMA, DCNv3 custom CUDA ops; InternImage-T supervised ImageNet-1k classification, vision)")
PV=("whai362/PVT","57e2dfaa5a46f9050d76f306a4fcd9a7c061f520")
J("pvt-small-imagenet-dist-train-sh-mmcv-config-8gpu",*PV,["classification"],"classification",["dist_train.sh","--","configs/pvt/pvt_small.py","8","--data-path","/path/to/imagenet"],{
 "model.num_parameters":T(24500000,"configs/pvt/pvt_small.py:2 model pvt_small; README.md:89 PVT-Small #Params 24.5M",rel_tol=0.1),
 "dist.world_size":T(8,"dist_train.sh:5,8-9 torch.distributed.launch --nproc_per_node=8 (second argument) --use_env"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","main.py:293 torch.nn.parallel.DistributedDataParallel(model, device_ids=[args.gpu]) (utils.py:216-220 RANK/WORLD_SIZE from --use_env)"),
 "batch.micro":T(128,"main.py:34 --batch-size default 128 -> :226-230 DataLoader(batch_size=128) per process"),
 "batch.grad_accum":T(1,"engine.py:50-56 zero_grad and loss_scaler step every iteration"),
 "batch.global":T(1024,"128 x 1 x 8"),
 "data.image_size":T(224,"main.py:41 --input-size default 224"),
 "precision.mode":T("amp_fp16","engine.py:41 torch.cuda.amp.autocast(enabled=not fp32) with fp32 False (main.py:33 --fp32-resume default False) and main.py:301 timm NativeScaler over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","main.py:55 --opt default 'adamw' -> :300 timm create_optimizer",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in pvt.py"),
 "data.num_workers":T(10,"main.py:163 --num_workers default 10 -> :229"),
 "data.pin_memory":T(True,"main.py:164-168 set_defaults(pin_mem=True) -> :230"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H43+"; classification/README.md:105-108 'To train PVT-Small on ImageNet on a single node with 8 gpus for 300 epochs run: sh dist_train.sh configs/pvt/pvt_small.py 8 --data-path /path/to/imagenet' run from classification/ (a shell wrapper taking the config and the GPU count as positional arguments around torch.distributed.launch --use_env, the DeiT main.py argparse whose values are then overwritten by the keys of an mmcv Config python file (utils.py:241-246), timm create_optimizer/create_model by name, repeated augmentation, mixup and a distillation-loss wrapper; Pyramid Vision Transformer Small on ImageNet-1k, vision)")
VJ=("facebookresearch/jepa","51c59d518fc63c08464af6de585f78ac0c7ed4d5")
vjc="configs/pretrain/vitl16.yaml"
vjt="app/vjepa/train.py"
J("v-jepa-vitl16-video-pretrain-submitit-slurm-16x8",*VJ,["."],".",["--","python","-m","app.main_distributed","--fname",vjc,"--folder","/checkpoint/vjepa/submitit","--partition","learnlab"],{
 "dist.world_size":T(128,vjc+":2-3 nodes 16, tasks_per_node 8 -> app/main_distributed.py:124-130,144-145 submitit with 16 x 8 tasks"),
 "dist.nodes":T(16,vjc+":2 nodes 16"),
 "dist.devices_per_node":T(8,vjc+":3 tasks_per_node 8 -> app/main_distributed.py:86-89 gpus_per_node=tasks_per_node"),
 "dist.sharding":T("ddp",vjt+":295-297 encoder, predictor and target encoder wrapped in DistributedDataParallel"),
 "batch.micro":T(24,vjc+":11 data.batch_size 24 -> "+vjt+":111,255 per process"),
 "batch.grad_accum":T(1,vjt+":461-480 backward, optimizer step and zero_grad every iteration"),
 "batch.global":T(3072,"24 x 1 x 128"),
 "data.image_size":T(224,vjc+":16 data.crop_size 224 (16-frame clips)"),
 "precision.mode":T("amp_bf16",vjc+":69 meta.dtype bfloat16 -> "+vjt+":79-83 mixed_precision True -> :453 torch.cuda.amp.autocast(dtype=bfloat16) over fp32 weights (app/vjepa/utils.py:209 a GradScaler as well)",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("AdamW","app/vjepa/utils.py:193-194 torch.optim.AdamW with weight-decay groups",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in src/models"),
 "data.num_workers":T(12,vjc+":19 data.num_workers 12 -> "+vjt+":120"),
 "data.pin_memory":T(True,vjc+":18 data.pin_mem true -> "+vjt+":119 -> src/datasets/video_dataset.py:77-83"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pre-training from scratch"),
},held_out=True,note=H43+"; README.md:342-350 'To launch a distributed pre-training experiment using the config configs/pretrain/vitl16.yaml, type the command: python -m app.main_distributed --fname configs/pretrain/vitl16.yaml --folder $path_to_save_stderr_and_stdout --partition $slurm_partition' with the folder and partition filled (a submitit SLURM launcher whose node and task counts come from the experiment YAML, not the command line, the app chosen by name from the YAML's app key, a plain yaml.load config dict read section by section, three DDP-wrapped networks with an EMA target encoder, multi-block 3D masks, bf16 autocast with a GradScaler; V-JEPA ViT-L/16 self-supervised video pre-training on Kinetics-710, SSv2 and HowTo100M, video representation learning). Not labelled: model.num_parameters (a ViT-L encoder with a 12-layer predictor whose total the repository does not state)")
MK=("Yuliang-Liu/Monkey","498e1d92baffad55ced3f661ecaa9c4c53b400c6")
mks="finetune/finetune_ds_debug.sh"
mkd="finetune/ds_config_zero2.json"
J("monkey-qwen-vl-finetune-torchrun-hf-trainer-deepspeed-zero2-8gpu",*MK,["."],".",[mks],{
 "model.ref":T("Qwen/Qwen-VL",mks+":11,24 --model_name_or_path Qwen/Qwen-VL (finetune_multitask.py:313-323 MonkeyLMHeadModel.from_pretrained with the local monkey_model config)",any_of=["Qwen/Qwen-VL"]),
 "dist.world_size":T(8,mks+":5-6,16-23 torchrun --nproc_per_node 8 --nnodes 1"),
 "dist.nodes":T(1,mks+":6 NNODES=1"),
 "dist.devices_per_node":T(8,mks+":5 GPUS_PER_NODE=8"),
 "dist.sharding":T("zero2",mks+":47 --deepspeed "+mkd+" -> "+mkd+":19-20 zero_optimization stage 2",any_of=["zero2","zero_2","deepspeed_zero2"]),
 "dist.offload_optimizer":T("none","no offload_optimizer in "+mkd),
 "dist.overlap_comm":T(True,mkd+":21"),
 "dist.contiguous_gradients":T(True,mkd+":22"),
 "batch.micro":T(1,mks+":30 --per_device_train_batch_size 1"),
 "batch.grad_accum":T(16,mks+":32 --gradient_accumulation_steps 16"),
 "batch.global":T(128,"1 x 16 x 8"),
 "data.seq_len":T(2048,mks+":44 --model_max_length 2048 -> finetune_multitask.py:162-166 every sample padded and cut to 2048"),
 "data.padding":T("max_length","finetune_multitask.py:162-166 input_ids padded with pad_token_id to max_len"),
 "precision.mode":T("bf16",mks+":26 --bf16 True -> "+mkd+":10-11 bf16 auto",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW","finetune_multitask.py:44 optim default 'adamw_torch' ("+mkd+" has no optimizer section)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,mks+":45 --gradient_checkpointing"),
 "data.num_workers":T(0,"no --dataloader_num_workers: Trainer default 0"),
 "compile.enabled":T(False,"no --torch_compile"),
},held_out=True,note=H43+"; README.md:109 'You can execute the training code through executing finetune_ds_debug.sh for Monkey', run from the repository root (a shell script with GPUS_PER_NODE/NNODES/MASTER_* variables expanded into torchrun arguments, the Qwen-VL finetune.py recipe: HfArgumentParser over four dataclasses with a TrainingArguments subclass, a remote-code QWen tokenizer and MonkeyLMHeadModel loaded from the local monkey_model/ config over Qwen/Qwen-VL weights, the ViT frozen except attn_pool and its own lora-named parameters while the language model is trained in full, DeepSpeed ZeRO-2 with 'auto' values filled by the Trainer; Monkey high-resolution document/scene-text multimodal instruction tuning, multimodal LLM). Not labelled: model.num_parameters (the Monkey variant of Qwen-VL's size is not stated in the repository), peft.method (the language model is fully trained but the vision encoder trains only Monkey's built-in per-window LoRA modules and attn_pool), data.pin_memory (the installed transformers' default)")
MS=("OpenLMLab/MOSS","c810e0b428bb209522dcde12f58daa318cf83027")
J("moss-moon-003-16b-sft-accelerate-deepspeed-zero3-4x8",*MS,["."],".",["--","accelerate","launch","--config_file","./configs/sft.yaml","--num_processes","32",
 "--num_machines","4","--machine_rank","0","--deepspeed_multinode_launcher","standard","finetune_moss.py","--model_name_or_path","fnlp/moss-moon-003-base",
 "--data_dir","./sft_data","--output_dir","./ckpts/moss-moon-003-sft","--log_dir","./train_logs/moss-moon-003-sft","--n_epochs","2",
 "--train_bsz_per_gpu","4","--eval_bsz_per_gpu","4","--learning_rate","0.000015","--eval_step","200","--save_step","2000"],{
 "model.ref":T("fnlp/moss-moon-003-base","README_en.md:472 --model_name_or_path",any_of=["fnlp/moss-moon-003-base"]),
 "model.num_parameters":T(16000000000,"README_en.md:63 'moss-moon models have 16B parameters'",rel_tol=0.1),
 "dist.world_size":T(32,"README_en.md:462-463,468 --num_processes $((4 * 8)) = 32"),
 "dist.nodes":T(4,"README_en.md:462,469 --num_machines 4"),
 "dist.devices_per_node":T(8,"32 processes over 4 machines"),
 "dist.sharding":T("zero3","configs/sft.yaml:11-12 distributed_type DEEPSPEED, zero_stage 3",any_of=["zero3","zero_3","deepspeed_zero3"]),
 "dist.offload_optimizer":T("none","configs/sft.yaml:7 offload_optimizer_device none"),
 "dist.offload_params":T("none","configs/sft.yaml:8 offload_param_device none"),
 "batch.micro":T(4,"--train_bsz_per_gpu 4 -> finetune_moss.py:175,202 DataLoader(batch_size=4) and train_micro_batch_size_per_gpu 4"),
 "batch.grad_accum":T(1,"configs/sft.yaml:5 gradient_accumulation_steps 1; finetune_moss.py:221-230 zero_grad, backward and step every batch"),
 "batch.global":T(128,"4 x 1 x 32"),
 "data.padding":T("dynamic","finetune_moss.py:120-122 pad_sequence to the longest sample of the batch"),
 "precision.mode":T("fp16","finetune_moss.py:169 Accelerator(mixed_precision='fp16') with configs/sft.yaml:22 mixed_precision fp16 under DeepSpeed",any_of=["fp16","amp_fp16"]),
 "optimizer.name":T("AdamW","finetune_moss.py:199 torch.optim.AdamW with decay/no-decay groups",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"finetune_moss.py:182 model.transformer.gradient_checkpointing = True"),
 "data.num_workers":T(0,"finetune_moss.py:202 DataLoader without num_workers"),
 "data.pin_memory":T(False,"finetune_moss.py:202 DataLoader without pin_memory"),
 "compile.enabled":T(False,"configs/sft.yaml:14 dynamo_backend NO"),
 "peft.method":T("none","full supervised fine-tuning"),
},held_out=True,note=H43+"; README_en.md:459-482 the run.sh snippet 'num_machines=4; num_processes=$((num_machines * 8)); machine_rank=0; accelerate launch --config_file ./configs/sft.yaml --num_processes $num_processes --num_machines $num_machines --machine_rank $machine_rank --deepspeed_multinode_launcher standard finetune_moss.py ...' with the shell arithmetic expanded (accelerate launch whose command-line process and machine counts override the config file's 8 and 1, an accelerate DeepSpeed ZeRO-3 config with zero3_init_flag, argparse in the script, Accelerator(mixed_precision='fp16') built in code, the DeepSpeed micro batch patched into the plugin's config dict, a remote-code MOSS (CodeGen) model with gradient checkpointing switched on by attribute, a hand-written training loop; MOSS-003 supervised fine-tuning of the 16B base model on multi-turn conversations, LLM fine-tuning). Not labelled: data.seq_len (finetune_moss.py:285 --max_seq_len is parsed but never used: samples are not truncated)")
