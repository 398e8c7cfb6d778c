"""The twenty-fourth held-out set of the jobs benchmark (run.py --set held-out-24): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them."""
from .core import J, T

H24="twenty-fourth held-out set"
YV5=("ultralytics/yolov5","5081342f04fb287fc2e5f2b5a4e06752b7937b1c")
J("yolov5s-coco-from-scratch-python-1gpu",*YV5,["."],".",["train.py","--","--data","coco.yaml","--epochs","300","--weights","","--cfg","yolov5s.yaml","--batch-size","64"],{
 "model.num_parameters":T(7235389,"README.md:155 --cfg yolov5s.yaml (models/yolov5s.yaml:9-11 nc 80, depth 0.33, width 0.50) --weights '' -> train.py:212 Model(cfg, nc=80) from scratch; README.md:228 YOLOv5s 7.2M params",rel_tol=0.1),
 "batch.micro":T(64,"README.md:155 --batch-size 64 -> train.py:277 create_dataloader(batch_size // WORLD_SIZE), WORLD_SIZE 1 (train.py:101, no launcher)"),
 "batch.grad_accum":T(1,"train.py:234-235 nbs 64: accumulate = max(round(64 / 64), 1) = 1 (:385 the warm-up interpolates between 1 and 64/64 = 1)"),
 "data.image_size":T(640,"train.py:560 --imgsz default 640"),
 "precision.mode":T("amp_fp16","train.py:213 amp = check_amp(model) (True on CUDA, utils/general.py:410-431) -> :344 GradScaler(enabled=amp), :401 smart_amp_autocast(amp) (float16 autocast) over fp32 weights"),
 "optimizer.name":T("SGD","train.py:578 --optimizer default SGD -> :237 smart_optimizer -> utils/torch_utils.py:280 torch.optim.SGD(momentum 0.937, nesterov)",any_of=["SGD","sgd"]),
 "data.num_workers":T(8,"train.py:580 --workers default 8 -> utils/dataloaders.py:148 min(cpu_count // devices, batch 64, 8) = 8 on a machine with 8 or more cores per GPU"),
 "data.pin_memory":T(True,"utils/dataloaders.py:59,160 PIN_MEMORY env default true"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","README.md:155 --weights '' training from scratch"),
},held_out=True,note=H24+"; README.md:154-155 python train.py --data coco.yaml --epochs 300 --weights '' --cfg yolov5s.yaml --batch-size 64 (argparse with a model YAML and a dataset YAML found under models/ and data/ by name, a hyperparameter YAML by default, automatic AMP after a check, gradient accumulation computed from a nominal batch of 64; object detection, vision). Not labelled: world size and sharding (one process; train.py:261-266 wraps the model in nn.DataParallel when more than one GPU is visible; the README's times are for one V100)")
IEV=("InternLM/InternEvo","c628a8c87411258e90c50f6a49f6a5e1f507ddb8")
iec="configs/7B_sft.py"
J("internevo-internlm-7b-python-config-srun-16gpu",*IEV,["."],".",["--","srun","-p","internllm","-N","2","-n","16","--ntasks-per-node=8","--gpus-per-task=1","python","train.py","--config","./"+iec],{
 "model.num_parameters":T(7320000000,iec+":4-9,133-149 hidden 4096, 32 layers, 32 heads, mlp_ratio 8/3, vocab 103168 -> internlm/model/modeling_internlm.py:118-127 SwiGLU MLP of int(4096 x 8/3) = 10922 rounded up to 11008 (internlm/model/modules/mlp.py:52 multiple_of 256): 32 x (67.1M attention + 135.3M MLP) + 2 x 422.6M untied embedding and head = 7.32B",rel_tol=0.1),
 "dist.world_size":T(16,"doc/en/usage.md:356 srun -N 2 -n 16"),
 "dist.nodes":T(2,"doc/en/usage.md:356 -N 2"),
 "dist.devices_per_node":T(8,"doc/en/usage.md:356 --ntasks-per-node=8 --gpus-per-task=1"),
 "dist.sharding":T("zero1",iec+":175-176 zero1 size -1: optimizer states sharded over the whole data-parallel group (tensor and pipeline 1, :177-178)"),
 "batch.micro":T(2,iec+":54 micro_bsz 2 (two 2048-token samples packed into one 4096-token row)"),
 "batch.grad_accum":T(4,iec+":52 micro_num 4 micro batches per gradient update"),
 "batch.global":T(128,"2 x 4 x 16"),
 "data.seq_len":T(2048,iec+":4,50 SEQ_LEN 2048"),
 "precision.mode":T("bf16",iec+":144 model dtype torch.bfloat16 + the hybrid ZeRO optimizer's fp32 master copies (hybrid_zero_optimizer, :95-103)"),
 "optimizer.name":T("AdamW",iec+":109-116 adam dict -> internlm/train/pipeline.py:305 torch.optim.AdamW wrapped in HybridZeroOptimizer",any_of=["AdamW","adamw","HybridZeroOptimizer"]),
 "memory.gradient_checkpointing":T(False,iec+":134 model checkpoint False"),
 "model.attn_implementation":T("flash_attention_2",iec+":147 use_flash_attn True (flash-attn kernels)"),
 "data.num_workers":T(4,"no num_worker in "+iec+" data -> internlm/data/build_dataloader.py:107 default 4"),
 "data.pin_memory":T(True,"internlm/data/build_dataloader.py:108"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full training"),
},held_out=True,note=H24+"; doc/en/usage.md:353-357 srun -p internllm -N 2 -n 16 --ntasks-per-node=8 --gpus-per-task=1 python train.py --config ./configs/7B_sft.py (Slurm typed on the command line, a Python config file of module-level constants and dicts read by the framework, its own hybrid ZeRO optimizer, packed sequences; LLM pretraining/SFT of InternLM-7B on random data when no folder is set)")
MMY=("open-mmlab/mmyolo","8c4d9dc503dc8e327bec8147e8dc97124052f693")
mmc="configs/rtmdet/rtmdet_l_syncbn_fast_8xb32-300e_coco.py"
J("mmyolo-rtmdet-l-coco-mmengine-dist-train-script-8gpu",*MMY,["."],".",["tools/dist_train.sh","--",mmc,"8"],{
 "model.num_parameters":T(52300000,"configs/rtmdet/README.md:34 RTMDet-l 52.3M params ("+mmc+":13,63-64 80 classes, deepen and widen 1.0: CSPNeXt-l backbone, CSPNeXtPAFPN, RTMDet head)",rel_tol=0.1),
 "dist.world_size":T(8,"tools/dist_train.sh:4,15 GPUS = the second argument 8 -> python -m torch.distributed.launch --nproc_per_node=8"),
 "dist.nodes":T(1,"tools/dist_train.sh:5 NNODES default 1"),
 "dist.devices_per_node":T(8,"tools/dist_train.sh:15"),
 "dist.sharding":T("ddp","tools/dist_train.sh:19 --launcher pytorch -> mmengine Runner wraps the model in MMDistributedDataParallel"),
 "batch.micro":T(32,mmc+":15 train_batch_size_per_gpu 32 -> :208-209 train_dataloader batch_size"),
 "batch.grad_accum":T(1,mmc+":250-252 OptimWrapper without accumulative_counts"),
 "batch.global":T(256,"32 x 1 x 8 (the 8xb32 of the file name)"),
 "data.image_size":T(640,mmc+":39 img_scale (640, 640)"),
 "precision.mode":T("fp32",mmc+":251 OptimWrapper (tools/train.py:84-96 switches to AmpOptimWrapper only with --amp, not given)"),
 "optimizer.name":T("AdamW",mmc+":252 optimizer type AdamW (lr 0.004, weight decay 0.05)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(10,mmc+":17 train_num_workers 10 -> :210"),
 "data.pin_memory":T(True,mmc+":212"),
 "memory.gradient_checkpointing":T(False,"no with_cp in the backbone or neck config"),
 "compile.enabled":T(False,"no compile in the config (mmengine Runner compile default off)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H24+"; docs/en/common_usage/specify_device.md:15 ./tools/dist_train.sh ${CONFIG} ${GPU_NUM} with the RTMDet-l COCO config and 8 GPUs (a launch script taking the config and GPU count positionally, python -m torch.distributed.launch tools/train.py CONFIG --launcher pytorch; an mmengine Python config with _base_ inheritance from ../_base_ files, module-level variables feeding dict(type=...) registries for the model, data loader and optimizer wrapper; real-time object detection, vision)")
SG3=("NVlabs/stylegan3","c233a919a6faee6e36a316ddd4eddababad1adf9")
J("stylegan3-t-afhqv2-512-click-cli-spawn-8gpu",*SG3,["."],".",["train.py","--","--outdir=~/training-runs","--cfg=stylegan3-t","--data=~/datasets/afhqv2-512x512.zip","--gpus=8","--batch=32","--gamma=8.2","--mirror=1"],{
 "dist.world_size":T(8,"README.md:188-189 --gpus=8 -> train.py:93-98 torch.multiprocessing.spawn(nprocs=8)"),
 "dist.nodes":T(1,"one machine (spawn)"),
 "dist.devices_per_node":T(8,"--gpus=8"),
 "dist.sharding":T("ddp","training/training_loop.py:283-287 every rank holds the whole G and D and all-reduces the flattened gradients by hand (data parallel, no wrapper)"),
 "batch.micro":T(4,"train.py:207 batch_gpu = --batch 32 // --gpus 8 = 4"),
 "batch.grad_accum":T(1,"training/training_loop.py:259-278 the 32 of a phase split into rounds of batch_gpu x gpus = 32: one round per step (train.py:226)"),
 "batch.global":T(32,"README.md:189 --batch=32 (total)"),
 "data.image_size":T(512,"README.md:188 --data afhqv2-512x512.zip (the dataset's resolution sets the generator's)"),
 "optimizer.name":T("Adam","train.py:192-193 G and D torch.optim.Adam (betas 0, 0.99)",any_of=["Adam","adam"]),
 "data.num_workers":T(3,"train.py:161 --workers default 3 -> :221"),
 "data.pin_memory":T(True,"train.py:195"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (no --resume)"),
},held_out=True,note=H24+"; README.md:186-189 python train.py --outdir=~/training-runs --cfg=stylegan3-t --data=~/datasets/afhqv2-512x512.zip --gpus=8 --batch=32 --gamma=8.2 --mirror=1 (a click CLI with --opt=value flags, dnnlib.EasyDict specs naming classes by string, torch.multiprocessing.spawn of one process per GPU, per-GPU batch computed from total and GPU count, gradients all-reduced by hand; GAN training, vision). Not labelled: model size (generator and discriminator built from channel_base/channel_max and the dataset's resolution, counted only by building them), precision (fp32 weights, fp16 activations in the 4 highest resolutions by explicit casts, training/networks_stylegan3.py:413,451, without autocast: none of the plan's precision values says that)")
CMS=("openai/consistency_models","e32b69ee436d518377db86fb2127a3972d0d8716")
cml=["--attention_resolutions","32,16,8","--class_cond","True","--use_scale_shift_norm","True","--dropout","0.1","--ema_rate","0.999,0.9999,0.9999432189950708",
 "--global_batch_size","4096","--image_size","64","--lr","0.0001","--num_channels","192","--num_head_channels","64","--num_res_blocks","3","--resblock_updown","True",
 "--schedule_sampler","lognormal","--use_fp16","True","--weight_decay","0.0","--weight_schedule","karras","--data_dir","/path/to/imagenet"]
J("consistency-models-edm-imagenet64-mpiexec-8gpu",*CMS,["."],".",["--","mpiexec","-n","8","python","scripts/edm_train.py",*cml],{
 "model.num_parameters":T(296000000,"scripts/launch.sh:5 --num_channels 192 --num_res_blocks 3 --attention_resolutions 32,16,8 --num_head_channels 64 --class_cond True --image_size 64 -> cm/script_util.py:129-130 channel_mult (1, 2, 3, 4): the ADM ImageNet-64 UNet of about 296M parameters",rel_tol=0.1),
 "dist.world_size":T(8,"scripts/launch.sh:5 mpiexec -n 8 (cm/dist_util.py: one MPI rank per GPU)"),
 "dist.nodes":T(1,"mpiexec without a host list: one machine"),
 "dist.sharding":T("ddp","cm/train_util.py:8,100 DistributedDataParallel"),
 "batch.micro":T(512,"scripts/edm_train.py:34-35,80 batch_size -1: global_batch_size 4096 // world size 8 = 512; :81 microbatch -1 -> cm/train_util.py:53 one micro batch of the whole 512"),
 "batch.grad_accum":T(1,"microbatch -1 (scripts/edm_train.py:81): no split, one optimizer step per batch"),
 "batch.global":T(4096,"scripts/launch.sh:5 --global_batch_size 4096"),
 "data.image_size":T(64,"scripts/launch.sh:5 --image_size 64"),
 "precision.mode":T("fp16","scripts/launch.sh:5 --use_fp16 True -> cm/train_util.py MixedPrecisionTrainer: the UNet's blocks converted to float16 (cm/unet.py:740 convert_to_fp16) with fp32 master parameters and a dynamic loss scale (cm/fp16_util.py:35-49)"),
 "optimizer.name":T("RAdam","cm/train_util.py:9,82-84 torch.optim.RAdam over the fp32 master parameters",any_of=["RAdam","radam"]),
 "data.num_workers":T(1,"cm/image_datasets.py:63-64 num_workers 1"),
 "data.pin_memory":T(False,"cm/image_datasets.py:63-64 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"cm/script_util.py:43 use_checkpoint default False, not given"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H24+"; scripts/launch.sh:5 mpiexec -n 8 python edm_train.py --attention_resolutions 32,16,8 --class_cond True ... --global_batch_size 4096 --image_size 64 ... --use_fp16 True ... --data_dir /path/to/imagenet, run from the repository root with the script's path (an MPI launcher, argparse filled from a defaults dict by add_dict_to_argparser, the per-rank batch the global over the MPI world size in code, guided-diffusion's hand-written fp16 master-weight trainer, RAdam; EDM diffusion training on ImageNet-64, vision). launch.sh is a list of commands, not a script to run, so the line is typed")
EVT=("mit-han-lab/efficientvit","de7d7733cc0329f391b33f1f459271562ec27bd5")
evr="applications/dc_ae/README.md"
evd="efficientvit/diffusioncore/"
J("efficientvit-dc-ae-f32-dit-xl-imagenet512-omegaconf-cli-torchrun-8gpu",*EVT,["."],".",["--","torchrun","--nnodes=1","--nproc_per_node=8","-m","applications.dc_ae.train_dc_ae_diffusion_model","resolution=512",
 "train_dataset=latent_imagenet","latent_imagenet.batch_size=32","latent_imagenet.data_dir=assets/data/latent/dc_ae_f32c32_in_1.0/imagenet_512",
 "evaluate_dataset=sample_class","sample_class.num_samples=50000","autoencoder=dc-ae-f32c32-in-1.0","scaling_factor=0.3189",
 "model=dit","dit.learn_sigma=True","dit.in_channels=32","dit.patch_size=1","dit.depth=28","dit.hidden_size=1152","dit.num_heads=16",
 "dit.train_scheduler=GaussianDiffusion","dit.eval_scheduler=GaussianDiffusion","optimizer.name=adamw","optimizer.lr=0.0001","optimizer.weight_decay=0",
 "optimizer.betas=[0.9,0.999]","lr_scheduler.name=constant","amp=fp16","max_steps=3000000","ema_decay=0.9999",
 "fid.ref_path=assets/data/fid/imagenet_512_train.npz","run_dir=.exp/diffusion/imagenet_512/dc_ae_f32c32_in_1.0/dit_xl_1/bs_256_lr_1e-4_fp16","log=False"],{
 "model.num_parameters":T(675000000,evr+":312 model=dit dit.depth=28 dit.hidden_size=1152 dit.num_heads=16 dit.patch_size=1 dit.in_channels=32 (learn_sigma) -> "+evd+"models/dit.py:20-34 (mlp_ratio 4, 1000 classes): the DiT-XL shape, about 675M (patch 1 on 32 latent channels changes only the embedding and final layers); the frozen DC-AE is used for evaluation only",rel_tol=0.1),
 "dist.world_size":T(8,evr+":309 torchrun --nnodes=1 --nproc_per_node=8"),
 "dist.nodes":T(1,"--nnodes=1"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp",evd+"evaluator.py:105-108 DistributedDataParallel"),
 "batch.micro":T(32,evr+":310 latent_imagenet.batch_size=32 (per process, "+evd+"data_provider/base.py:16,58)"),
 "batch.grad_accum":T(1,evd+"trainer.py one optimizer step per batch"),
 "batch.global":T(256,"32 x 1 x 8 (the run_dir's bs_256)"),
 "data.image_size":T(512,evr+":309 resolution=512 (DiT over the 16x16x32 DC-AE latents)"),
 "precision.mode":T("amp_fp16",evr+":315 amp=fp16 -> "+evd+"trainer.py:92-93 GradScaler, :344 autocast(float16) over fp32 weights"),
 "optimizer.name":T("AdamW",evr+":315 optimizer.name=adamw -> "+evd+"trainer.py:135-137 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,evd+"data_provider/base.py:17,60 n_worker default 8"),
 "data.pin_memory":T(True,evd+"data_provider/base.py:61"),
 "memory.gradient_checkpointing":T(True,evd+"models/dit.py:34,367-368 use_checkpoint default True: every block under torch.utils.checkpoint"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H24+"; "+evr+":308-318 torchrun --nnodes=1 --nproc_per_node=8 -m applications.dc_ae.train_dc_ae_diffusion_model resolution=512 ... model=dit dit.depth=28 ... amp=fp16 ... (python -m of a module whose config is an OmegaConf structured dataclass merged with dotted key=value arguments from the command line, no YAML; the model class chosen by model=dit and sized by dit.* keys; class-conditional latent diffusion on precomputed DC-AE latents, vision)")
ABN=("KellerJordan/cifar10-airbench","f1c599c4af24aca803e3e65a6a7e52a502e09d0e")
abf="airbench94_muon.py"
J("cifar10-airbench94-muon-fp16-compiled-1gpu",*ABN,["."],".",[abf],{
 "model.num_parameters":T(1970000,abf+":189-233 CifarNet: a 2x2 whitening conv (3 -> 24), three ConvGroups of two bias-free 3x3 convs (24 -> 64 -> 64, 64 -> 256 -> 256, 256 -> 256 -> 256) with BatchNorm, a 256 x 10 head: 13.8K + 36.9K + 147.5K + 589.8K + 2 x 589.8K + 2.6K = 1.97M",rel_tol=0.1),
 "dist.world_size":T(1,"README.md:24 python airbench94_muon.py, one process on one GPU ("+abf+":437 .cuda())"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","no DDP"),
 "batch.micro":T(2000,abf+":342,348 batch_size 2000"),
 "batch.grad_accum":T(1,abf+":398-405 one step of both optimizers per batch"),
 "batch.global":T(2000,"2000 x 1 x 1"),
 "data.image_size":T(32,"CIFAR-10 32x32 ("+abf+":123 torchvision CIFAR10, translate-2 augmentation keeps the size)"),
 "precision.mode":T("fp16",abf+":234-238 every module but BatchNorm cast to half (fp16 weights, no master copy, no autocast), :131 fp16 images"),
 "optimizer.name":T("Muon",abf+":361-362 torch.optim.SGD (nesterov, fused) for the whitening bias, norms and head + the file's Muon class for the conv filters",any_of=["Muon","muon","SGD","sgd"]),
 "data.num_workers":T(0,abf+":118-131 CifarLoader holds the whole dataset as a CUDA tensor and batches it in the main process (no DataLoader)"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(True,abf+":438 model.compile(mode='max-autotune')"),
 "peft.method":T("none","training from scratch (200 runs of 8 epochs, :440)"),
},held_out=True,note=H24+"; README.md:20-25 python airbench94_muon.py (no arguments: hyperparameters are literals inside main(), the network a project class with hand-set widths, a hand-written Muon plus fused SGD, the model cast to fp16 except BatchNorm, nn.Module.compile, the data a CUDA tensor batched by a custom loader; CIFAR-10 speedrun, vision)")
LNA=("Alpha-VLLM/Lumina-T2X","1c606962f95899da711633ee3a333d21c753e2d9")
lnd="Next-DiT-ImageNet/"
lne="exps/600M_bs256_lr5e-4_bf16_qknorm_lognorm.sh"
J("lumina-next-dit-600m-imagenet-nested-scripts-fsdp-sdp-8gpu",*LNA,["Next-DiT-ImageNet","requirements.txt","pyproject.toml"],"Next-DiT-ImageNet",["scripts/run_8gpus.sh"],{
 "model.num_parameters":T(600000000,lnd+lne+":5 model DiT_Llama_600M_patch2 -> "+lnd+"models/models.py:1042-1043 dim 1536, 16 layers, 32 heads: per block 9.4M attention + 18.9M SwiGLU FFN (hidden 4096, :435-439) + 9.4M adaLN modulation (:522-525), x 16 = 604M, the 600M of the name",rel_tol=0.1),
 "dist.world_size":T(8,lnd+"scripts/run_8gpus.sh:6 bash "+lne+" -> "+lnd+lne+":13 torchrun --nproc-per-node=8"),
 "dist.nodes":T(1,"torchrun without --nnodes (README.md: single node)"),
 "dist.devices_per_node":T(8,lnd+lne+":13"),
 "dist.sharding":T("fsdp_grad_op",lnd+lne+":19 --data_parallel sdp -> "+lnd+"train.py:150-153 ShardingStrategy.SHARD_GRAD_OP",any_of=["fsdp_grad_op","zero2"]),
 "batch.micro":T(32,lnd+lne+":17 --micro_batch_size 32"),
 "batch.grad_accum":T(1,lnd+"train.py:211-212,403 local batch 256 // 8 = 32 split into micro batches of 32: one"),
 "batch.global":T(256,lnd+lne+":6,18 --global_batch_size 256"),
 "data.image_size":T(256,lnd+"train.py:566 --image_size default 256"),
 "precision.mode":T("amp_bf16",lnd+lne+":8,22 --precision bf16 --grad_precision fp32 -> "+lnd+"train.py:154-166 FSDP MixedPrecision(param_dtype bf16, reduce fp32) over fp32 parameters + :413 autocast bf16"),
 "optimizer.name":T("AdamW",lnd+"train.py:323 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(4,lnd+"train.py:573 --num_workers default 4 -> :372"),
 "data.pin_memory":T(True,lnd+"train.py:373"),
 "memory.gradient_checkpointing":T(False,"no activation checkpointing in "+lnd+"train.py or models/models.py"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H24+"; Next-DiT-ImageNet/README.md:156 bash scripts/run_8gpus.sh run from Next-DiT-ImageNet (a launch script whose only line runs a second script, exps/600M_bs256_lr5e-4_bf16_qknorm_lognorm.sh, which sets shell variables and runs torchrun --nproc-per-node=8 train.py --model DiT_Llama_600M_patch2 --micro_batch_size 32 --global_batch_size 256 --data_parallel sdp --precision bf16 ...; argparse, the model a function name in a module, FSDP SHARD_GRAD_OP with a bf16 MixedPrecision policy; class-conditional flow-matching DiT on ImageNet latents, vision)")
VLE=("lifeiteng/vall-e","9c69096d603ce13174fb5cb025f185e2e9b36ac7")
vlt="valle/bin/trainer.py"
J("vall-e-libritts-ar-stage-lhotse-bf16-1gpu",*VLE,["."],"valle",["bin/trainer.py","--","--max-duration","80","--filter-min-duration","0.5","--filter-max-duration","14","--train-stage","1",
 "--num-buckets","6","--dtype","bfloat16","--save-every-n","10000","--valid-interval","20000","--model-name","valle","--share-embedding","true","--norm-first","true",
 "--add-prenet","false","--decoder-dim","1024","--nhead","16","--num-decoder-layers","12","--prefix-mode","1","--base-lr","0.05","--warmup-steps","200",
 "--average-period","0","--num-epochs","20","--start-epoch","1","--start-batch","0","--accumulate-grad-steps","4","--exp-dir","exp/valle"],{
 "dist.world_size":T(1,"README.md:93 'train the model on one GPU' -> "+vlt+":88-93 --world-size default 1"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none",vlt+":913-915 DDP only when world_size > 1"),
 "batch.grad_accum":T(4,"README.md:101 --accumulate-grad-steps 4 -> "+vlt+":675-692"),
 "precision.mode":T("amp_bf16","README.md:97 --dtype bfloat16 -> "+vlt+":639-641,659 torch.cuda.amp.autocast(bfloat16) over fp32 weights"),
 "optimizer.name":T("ScaledAdam",vlt+":145-149 --optimizer-name default ScaledAdam -> :923-943 valle/modules/optim.py ScaledAdam (icefall's)",any_of=["ScaledAdam","scaledadam"]),
 "data.num_workers":T(8,"valle/data/datamodule.py:186-188 --num-workers default 8 -> :355-359"),
 "data.pin_memory":T(False,"valle/data/datamodule.py:355-361 DataLoader without pin_memory"),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (--train-stage 1: the AR decoder, "+vlt+":917-919 stage_parameters)"),
},held_out=True,note=H24+"; README.md:86-102 cd egs/libritts; python3 bin/trainer.py --max-duration 80 ... --train-stage 1 --dtype bfloat16 ... --decoder-dim 1024 --nhead 16 --num-decoder-layers 12 ... --accumulate-grad-steps 4 --exp-dir exp/valle (the README's 'cd examples/libritts' is egs/libritts, whose bin is a git symlink to ../../valle/bin that the benchmark's fetch does not re-create, so the same script is run from valle/; icefall-style argparse over several add_*_arguments functions, lhotse dynamic bucketing by seconds of audio, ScaledAdam, a hand-rolled accumulation loop; VALL-E text-to-speech AR stage, speech). Not labelled: micro batch, global batch and sequence length (--max-duration 80 seconds of audio per batch, a count of utterances that varies), model size (VALLE holds both the AR and the NAR decoders, 12 layers of 1024 each, and stage 1 trains only the AR one: which count is meant is ambiguous)")
HYD=("Tencent/HunyuanDiT","368280ec35119ed2741a30cc5b40aafde34f8a8a")
hys="hydit/train.sh"
J("hunyuandit-g2-1024-full-finetune-nested-scripts-deepspeed-zero2-offload",*HYD,["."],".",[hys,"--","--index-file","dataset/porcelain/jsons/porcelain.json"],{
 "model.num_parameters":T(1500000000,"hydit/run_g.sh:1,4 --model DiT-g/2 -> README.md:368 Hunyuan-DiT 1.5B params (the trained DiT; the mT5 and CLIP text encoders and the VAE are frozen fp16 helpers, hydit/train_deepspeed.py:359-363)",rel_tol=0.1),
 "dist.sharding":T("zero2",hys+":44 --use-zero-stage 2 -> hydit/ds_config.py:6,22-23 the DeepSpeed dict built in code, stage 2"),
 "dist.offload_optimizer":T("cpu",hys+":46 --cpu-offloading -> hydit/ds_config.py:40-44 offload_optimizer device cpu"),
 "dist.offload_params":T("none","hydit/ds_config.py:45-48 writes 'offload_parameter' (not a DeepSpeed key; ZeRO-2 cannot offload parameters anyway)"),
 "dist.reduce_bucket_size":T(1000000000,"hydit/ds_config.py:25"),
 "batch.micro":T(1,hys+":6,26 --batch-size 1 (per GPU, hydit/config.py:22) -> hydit/ds_config.py:10"),
 "batch.grad_accum":T(1,hys+":8,29 --grad-accu-steps 1"),
 "data.image_size":T(1024,hys+":7,27 --image-size 1024"),
 "precision.mode":T("fp16",hys+":32 --use-fp16 -> hydit/train_deepspeed.py:326-327 Float16Module (fp16 weights) + hydit/ds_config.py:29-36 DeepSpeed fp16 with dynamic loss scale and fp32 master copies"),
 "optimizer.name":T("AdamW","hydit/ds_config.py:13-21 DeepSpeed optimizer AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,hys+":45 --gradient-checkpointing -> hydit/train_deepspeed.py:322-323"),
 "model.attn_implementation":T("flash_attention_2",hys+":31 --use-flash-attn (flash-attn kernels)"),
 "data.num_workers":T(4,"hydit/config.py:120 --num-workers default 4 -> hydit/train_deepspeed.py:425"),
 "data.pin_memory":T(True,"hydit/train_deepspeed.py:426"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning resumed from the released distilled weights ("+hys+":2-3,35-37)"),
},held_out=True,note=H24+"; README.md:468 PYTHONPATH=./ sh hydit/train.sh --index-file dataset/porcelain/jsons/porcelain.json (a launch script of shell variables that runs a second script, hydit/run_g.sh, with \"$@\" passed through, which runs the bare deepspeed launcher on hydit/train_deepspeed.py; argparse in hydit/config.py, the DeepSpeed config a Python dict built from the arguments in hydit/ds_config.py, fp16 through a Float16Module wrapper; full fine-tuning of a 1.5B text-to-image DiT, vision). Not labelled: world size and global batch (deepspeed with no --num_gpus/--include: every GPU of the machine)")
MZO=("princeton-nlp/MeZO","552cb1b710767f9a6e1dc8f9645d7640376f9941")
mzs="large_models/mezo.sh"
mzr="large_models/run.py"
J("mezo-opt-13b-sst2-zeroth-order-env-vars-script",*MZO,["large_models","README.md"],"large_models",["--","MODEL=facebook/opt-13b","TASK=SST2","MODE=ft","LR=1e-7","EPS=1e-3","bash","mezo.sh"],{
 "model.ref":T("facebook/opt-13b","large_models/README.md:48 MODEL=facebook/opt-13b -> "+mzs+":1,57 --model_name $MODEL -> "+mzr+":161-167 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(12850000000,"OPT-13B (40 layers, hidden 5120, vocab 50272, tied embeddings): 12.85B",rel_tol=0.1),
 "dist.world_size":T(1,mzs+":57 plain python run.py: one process ("+mzr+":164 device_map auto spreads the layers over the visible GPUs inside it)"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(16,mzs+":5 BS default 16 -> :60 --per_device_train_batch_size"),
 "batch.grad_accum":T(1,"no --gradient_accumulation_steps (TrainingArguments default 1)"),
 "data.seq_len":T(2048,mzr+":45 max_length default 2048 (the truncation cap of the encoded prompts)"),
 "precision.mode":T("fp16",mzs+":59 --load_float16 -> "+mzr+":157-158,165 torch_dtype float16: fp16 weights updated in place, no autocast, no master copy"),
 "optimizer.name":T("MeZO",mzs+":59 --trainer zo -> large_models/trainer.py:528-529,564-565,791-806 zeroth-order SGD: two forward passes with a seeded perturbation, parameters updated in place, no gradients and no optimizer state",any_of=["MeZO","ZO-SGD","zo","SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no gradient checkpointing (no backward pass at all)"),
 "data.num_workers":T(0,"TrainingArguments dataloader_num_workers default 0"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True"),
 "compile.enabled":T(False,"no torch_compile"),
 "peft.method":T("none","large_models/README.md:48 MODE=ft: "+mzs+":16-21 neither prefix tuning nor LoRA, all parameters updated"),
},held_out=True,note=H24+"; large_models/README.md:46-48 MODEL=facebook/opt-13b TASK=SST2 MODE=ft LR=1e-7 EPS=1e-3 bash mezo.sh run from large_models (environment assignments typed before the script, which derives flags from them with ${VAR:-default} and a case on $TASK, then python run.py with HfArgumentParser over a TrainingArguments subclass and a project Trainer subclass whose --trainer zo replaces backpropagation by zeroth-order updates; memory-efficient fine-tuning of a 13B LLM by forward passes only)")
OMU=("huggingface/open-muse","64e1afe033717d795866ab8204484705cd4dc3f7")
omy="configs/imagenet.yaml"
oms="slurm_scripts/imagenet.slurm"
omt="training/train_maskgit_imagenet.py"
J("open-muse-maskgit-imagenet-slurm-srun-torchrun-8gpu",*OMU,["."],".",[oms],{
 "model.num_parameters":T(230000000,omy+":23-40 MaskGitTransformer hidden 768, 24 layers, 16 heads, intermediate 3072, vocab 2048, no biases -> muse/modeling_transformer.py:1159-1176 TransformerLayer with the default GLU feed-forward (:755-772 wi_0, wi_1, wo): 24 x (2.36M attention + 7.08M FFN) = 226.5M + embeddings and MLM head about 4M = 230M (the pretrained MaskGIT VQGAN, "+omy+":19-21, is a frozen tokenizer)",rel_tol=0.1),
 "dist.world_size":T(8,oms+":3,35-36,42-49 #SBATCH --nodes=1, GPUS_PER_NODE 8 -> torch.distributed.run --nproc_per_node 8 --nnodes $SLURM_NNODES"),
 "dist.nodes":T(1,oms+":3 #SBATCH --nodes=1"),
 "dist.devices_per_node":T(8,oms+":6,35 --gres=gpu:8, GPUS_PER_NODE=8"),
 "dist.sharding":T("ddp",omt+":152-154 Accelerator without a DeepSpeed/FSDP plugin under torch.distributed.run: DistributedDataParallel"),
 "batch.micro":T(192,omy+":84 training.batch_size 192 (per GPU, "+omt+":283 per_gpu_batch_size)"),
 "batch.grad_accum":T(1,omy+":83 gradient_accumulation_steps 1"),
 "batch.global":T(1536,"192 x 1 x 8 ("+omt+":269-270)"),
 "data.image_size":T(256,omy+":55,59 resolution 256"),
 "precision.mode":T("amp_bf16",omy+":85 mixed_precision bf16 -> "+omt+":152-154 Accelerator(mixed_precision='bf16'): autocast over fp32 weights"),
 "optimizer.name":T("FusedAdam",omy+":65 optimizer fused_adamw -> "+omt+":245-247 apex.optimizers.FusedAdam (AdamW mode)",any_of=["FusedAdam","AdamW","adamw","fused_adamw"]),
 "data.num_workers":T(4,omy+":54 num_workers 4 -> "+omt+":285"),
 "data.pin_memory":T(True,omy+":56 -> "+omt+":290"),
 "memory.gradient_checkpointing":T(False,omy+":44 sets model.gradient_checkpointing True, but "+omt+" never reads it (no enable_gradient_checkpointing call; muse/modeling_transformer.py:1083-1200 self.gradient_checkpointing stays False)"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training the transformer from scratch"),
},held_out=True,note=H24+"; sbatch slurm_scripts/imagenet.slurm (the repository's Slurm batch file for this config: #SBATCH --nodes=1 --gres=gpu:8, pushd to the author's absolute checkout path, CMD and LAUNCHER strings, then srun ... bash -c \"$LAUNCHER --node_rank \\$SLURM_PROCID ... $CMD\" running python -u -m torch.distributed.run --nproc_per_node 8 training/train_maskgit_imagenet.py config=configs/imagenet.yaml with OmegaConf key=value overrides; accelerate with bf16 autocast, apex FusedAdam, a config flag for checkpointing that the script ignores; class-conditional MaskGIT on ImageNet VQ tokens, vision)")
