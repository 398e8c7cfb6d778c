"""The forty-fifth held-out set of the jobs benchmark (run.py --set held-out-45): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set's
manifest (bench/realworld/jobs/manifest.json); each owner/name was grepped in bench/, docs/, tests/,
calibration/, preflight/ and adapters/ (none found there as owner/name) and each bare name as a word
(docs/realworld.md 'Set 45, first scoring' lists where a bare name appears). Parameter counts are
labelled only where the repository states them or a published checkpoint's shape gives them."""
from .core import J, T

H45="forty-fifth held-out set"

XC=("facebookresearch/xcit","82f5291f412604970c39a912586e008ec009cdca")
J("xcit-s12-16-imagenet-deit-style-distributed-launch-8gpu",*XC,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","--use_env","main.py",
 "--model","xcit_small_12_p16","--batch-size","128","--drop-path","0.05","--output_dir","/experiments/xcit_small_12_p16/","--epochs","400"],{
 "model.num_parameters":T(26000000,"README.md:169-170 xcit_small_12_p16 params 26M",rel_tol=0.1),
 "dist.world_size":T(8,"--nproc_per_node=8 -> utils.py:229-232 RANK/WORLD_SIZE from the launcher"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","utils.py:241 distributed True under the launcher -> main.py:303-304 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(128,"--batch-size 128 -> main.py:230-232 DataLoader(batch_size=128) per process"),
 "batch.grad_accum":T(1,"engine.py:44-59 one loss_scaler step (backward + optimizer step) per batch"),
 "batch.global":T(1024,"128 x 1 x 8"),
 "data.image_size":T(224,"main.py:42 --input-size default 224"),
 "precision.mode":T("amp_fp16","engine.py:44 torch.cuda.amp.autocast() with timm NativeScaler (main.py:23, engine.py:59)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","main.py:56 --opt default adamw -> main.py:311 timm create_optimizer",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in xcit.py or main.py"),
 "data.num_workers":T(10,"main.py:164 --num_workers default 10 -> :233"),
 "data.pin_memory":T(True,"main.py:165-169 set_defaults(pin_mem=True) -> :234"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H45+"; README.md:381-388 'the XCiT-S12/16 model can be trained using the following command: python -m torch.distributed.launch --nproc_per_node=8 --use_env main.py --model xcit_small_12_p16 --batch-size 128 --drop-path 0.05 --output_dir /experiments/xcit_small_12_p16/ --epochs [NUM_EPOCHS]' with the epochs filled as main.py:37's default 400 (a DeiT-style main.py: argparse with set_defaults, timm create_model/create_optimizer/NativeScaler, repeated-augmentation sampler, model EMA, DDP when RANK/WORLD_SIZE are set; XCiT-S12/16 on ImageNet-1k, vision classification)")

GF=("TencentARC/GFPGAN","7552a7791caad982045a7bbe5634bbf1cd5c8679")
gfo="options/train_gfpgan_v1.yml"
J("gfpgan-v1-ffhq-basicsr-train-pipeline-distributed-launch-4gpu",*GF,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=4","--master_port=22021",
 "gfpgan/train.py","-opt",gfo,"--launcher","pytorch"],{
 "dist.world_size":T(4,"--nproc_per_node=4 with --launcher pytorch (BasicSR init_dist); "+gfo+":4 num_gpu auto ('officially, we use 4 GPUs')"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(4,"--nproc_per_node=4"),
 "dist.sharding":T("ddp","--launcher pytorch: BasicSR's BaseModel.model_to_device wraps networks in DistributedDataParallel when opt['dist']"),
 "batch.micro":T(3,gfo+":50 datasets.train.batch_size_per_gpu 3"),
 "batch.grad_accum":T(1,"gfpgan/models/gfpgan_model.py:287-400 optimize_parameters steps optimizer_g once per iteration"),
 "batch.global":T(12,"3 x 1 x 4"),
 "data.image_size":T(512,gfo+":21 datasets.train.out_size 512"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() in gfpgan/models/gfpgan_model.py; BasicSR trains in fp32"),
 "optimizer.name":T("Adam",gfo+":120-122 train.optim_g.type Adam -> gfpgan/models/gfpgan_model.py:160-163",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in gfpgan/"),
 "data.num_workers":T(6,gfo+":49 num_worker_per_gpu 6"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","GFPGAN trained from scratch around a StyleGAN2 prior (path.pretrain_network_g ~)"),
},held_out=True,note=H45+"; README.md:183-185 'Training: python -m torch.distributed.launch --nproc_per_node=4 --master_port=22021 gfpgan/train.py -opt options/train_gfpgan_v1.yml --launcher pytorch' (gfpgan/train.py imports the project's archs/data/models for BasicSR's registries and calls basicsr.train.train_pipeline: a BasicSR options YAML with num_gpu auto, per-GPU batch and workers, a GFPGANModel with generator, three facial-component discriminators and an ArcFace identity network, each with its own Adam; blind face restoration on FFHQ 512x512, image restoration). Related code: BasicSR (XPixelGroup/BasicSR, an earlier set's repository) is the library the job runs through (not vendored). Not labelled: data.pin_memory (inside BasicSR's build_dataloader), model.num_parameters (not stated)")

SF=("NVlabs/SegFormer","65fa8cfa9b52b6ee7e8897a98705abf8570f9e32")
sfc="local_configs/segformer/B1/segformer.b1.512x512.ade.160k.py"
sfd="local_configs/_base_/datasets/ade20k_repeat.py"
J("segformer-b1-ade20k-mmseg-dist-train-sh-8gpu",*SF,["."],".",["tools/dist_train.sh","--",sfc,"8"],{
 "dist.world_size":T(8,"tools/dist_train.sh:8 torch.distributed.launch --nproc_per_node=$GPUS with GPUS=8 (the README's <GPU_NUM> filled as 8)"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","tools/dist_train.sh:9 --launcher pytorch -> mmseg/apis/train.py:57-65 MMDistributedDataParallel"),
 "batch.micro":T(2,sfc+":47 data samples_per_gpu=2 (overrides "+sfd+":35 4) -> mmseg/datasets/builder.py:120"),
 "batch.grad_accum":T(1,"local_configs/_base_/schedules/schedule_160k_adamw.py:3 optimizer_config dict(): mmcv's OptimizerHook steps every iteration"),
 "batch.global":T(16,"2 x 1 x 8"),
 "data.image_size":T(512,sfd+":6 crop_size (512, 512)"),
 "precision.mode":T("fp32","no fp16 section in "+sfc+" or its _base_ files; optimizer_config dict() (no Fp16OptimizerHook)"),
 "optimizer.name":T("AdamW",sfc+":34 optimizer type AdamW (_delete_ over the base AdamW)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in mmseg/models/backbones/mix_transformer.py (load_checkpoint only)"),
 "data.num_workers":T(4,sfd+":36 workers_per_gpu 4 -> mmseg/datasets/builder.py:121"),
 "data.pin_memory":T(True,"mmseg/datasets/builder.py:86 build_dataloader pin_memory=True default"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning from the ImageNet-1k mit_b1 backbone ("+sfc+":13 pretrained)"),
},held_out=True,note=H45+"; README.md:76-84 'Example: train SegFormer-B1 on ADE20K ... # Multi-gpu training ./tools/dist_train.sh local_configs/segformer/B1/segformer.b1.512x512.ade.160k.py <GPU_NUM>' with <GPU_NUM> filled as 8 (a shell script around torch.distributed.launch and tools/train.py --launcher pytorch, a vendored MMSegmentation 0.x (mmseg/) with mmcv Config files chained through _base_ lists, an IterBasedRunner for 160k iterations, a Mix Transformer backbone and an all-MLP head with SyncBN; SegFormer-B1 on ADE20K 512x512, semantic segmentation). Related code: mmseg/ is a vendored MMSegmentation (open-mmlab). Not labelled: model.num_parameters (not stated in the repository)")

YO=("hustvl/YOLOS","5717fc29d727dab84ad585c56457b4de1225eddc")
J("yolos-ti-coco-detr-style-distributed-launch-8gpu",*YO,["."],".",["--","python","-m","torch.distributed.launch","--nproc_per_node=8","--use_env","main.py",
 "--coco_path","/path/to/coco","--batch_size","2","--lr","5e-5","--epochs","300","--backbone_name","tiny","--pre_trained","/path/to/deit-tiny.pth",
 "--eval_size","512","--init_pe_size","800","1333","--output_dir","/output/path/box_model"],{
 "dist.world_size":T(8,"--nproc_per_node=8 -> util/misc.py:406-410 RANK/WORLD_SIZE from the launcher"),
 "dist.nodes":T(1,"no --nnodes: one node"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","main.py:130 torch.nn.parallel.DistributedDataParallel when distributed"),
 "batch.micro":T(2,"--batch_size 2 -> main.py:172-176 BatchSampler(sampler_train, 2) per process"),
 "batch.grad_accum":T(1,"engine.py:115-118 backward and optimizer.step every batch"),
 "batch.global":T(16,"2 x 1 x 8"),
 "precision.mode":T("fp32","engine.py:27,33,56 the GradScaler/autocast lines are commented out; plain losses.backward() at :115"),
 "optimizer.name":T("AdamW","main.py:154 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no --use_checkpoint (main.py:35 store_true)"),
 "data.num_workers":T(2,"main.py:101 --num_workers default 2 -> :175-176"),
 "data.pin_memory":T(False,"main.py:175-176 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning from the ImageNet DeiT-Ti checkpoint (--pre_trained)"),
},held_out=True,note=H45+"; README.md:88-105 'To train the YOLOS-Ti model in the paper, run this command: python -m torch.distributed.launch --nproc_per_node=8 --use_env main.py --coco_path /path/to/coco --batch_size 2 --lr 5e-5 --epochs 300 --backbone_name tiny --pre_trained /path/to/deit-tiny.pth --eval_size 512 --init_pe_size 800 1333 --output_dir /output/path/box_model' (README.md:96 lacks the line-continuation backslash after --coco_path; the job is the command as intended, one line) (a DETR-style main.py: argparse, DDP from RANK/WORLD_SIZE, a BatchSampler with drop_last, AdamW over three parameter groups, a DeiT-Tiny ViT with detection tokens and Hungarian matching; YOLOS-Ti on COCO, object detection). Related code: main.py, engine.py, util/ and datasets/ follow facebookresearch/detr (an earlier set's repository). Not labelled: data.image_size (multi-scale DETR augmentation, shorter side 480-800 resized for the tiny model), model.num_parameters (not stated in the repository)")

ST=("autonomousvision/stylegan-t","36ab80ce76237fefe03e65e9b3161c040ae888e3")
J("stylegan-t-full-64px-click-torch-distributed-run-1gpu-accum",*ST,["."],".",["--","python","-m","torch.distributed.run","--standalone","--nproc_per_node","1","train.py",
 "--outdir","./training-runs/","--cfg","full","--data","./data/MYDATASET.zip","--img-resolution","64","--batch","128","--batch-gpu","8","--kimg","25000","--metrics","fid50k_full"],{
 "dist.world_size":T(1,"--nproc_per_node 1"),
 "dist.nodes":T(1,"--standalone: one node"),
 "dist.devices_per_node":T(1,"--nproc_per_node 1"),
 "dist.sharding":T("none","one process (gradients all-reduced by hand at training/training_loop.py:177 only across ranks; no DDP wrapper)"),
 "batch.micro":T(8,"--batch-gpu 8 -> train.py:137 -> training/training_loop.py:216-217 split(real_img, batch_gpu)"),
 "batch.grad_accum":T(16,"training/training_loop.py:276-280 batch_gpu_total = 128 // 1, n_batch_acc = 128 // 8 = 16 rounds per step"),
 "batch.global":T(128,"--batch 128 (train.py:136, 'Total batch size'); training/training_loop.py:280 asserts 128 == 8 x 16 x 1"),
 "data.image_size":T(64,"--img-resolution 64 -> train.py:124"),
 "optimizer.name":T("Adam","train.py:111-112 G_opt_kwargs and D_opt_kwargs class_name torch.optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in networks/ or training/"),
 "data.num_workers":T(3,"train.py:123 data_loader_kwargs num_workers=3 -> training/training_loop.py:289"),
 "data.pin_memory":T(True,"train.py:123 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","generator and discriminator trained from scratch (the CLIP text encoder and the discriminator's DINO features frozen)"),
},held_out=True,note=H45+"; README.md:64-70 'Training StyleGAN-T with full capacity on MYDATASET.zip at a resolution of 64x64 pixels: python -m torch.distributed.run --standalone --nproc_per_node 1 train.py --outdir ./training-runs/ --cfg full --data ./data/MYDATASET.zip --img-resolution 64 --batch 128 --batch-gpu 8 --kimg 25000 --metrics fid50k_full' (a StyleGAN3-lineage click CLI with dnnlib.EasyDict specs naming classes by string, a total --batch split into --batch-gpu rounds inside the loop, hand-written gradient all-reduce, a frozen CLIP text encoder and a projected discriminator on frozen DINO features; text-to-image GAN, image generation). Related code: dnnlib/, torch_utils/ and training/training_loop.py follow NVlabs/stylegan3 (an earlier set's repository). Not labelled: precision.mode (fp32 weights with fp16 activations in the highest resolutions by explicit casts, networks/generator.py:396,445-467, no autocast, the same choice set 24 made for stylegan3), data.num_workers is train.py's hard-coded 3 (the --workers option is unused), model.num_parameters (not stated)")

DS=("facebookresearch/DeepSDF","48c19b8d49ed5293da4edd7da8c3941444bc5cd7")
dss="examples/sofas/specs.json"
J("deepsdf-sofas-specs-json-dataparallel-auto-decoder",*DS,["."],".",["train_deep_sdf.py","--","-e","examples/sofas"],{
 "dist.world_size":T(1,"python train_deep_sdf.py: one process (train_deep_sdf.py:334 nn.DataParallel over the visible GPUs inside it)"),
 "dist.nodes":T(1,"one process"),
 "batch.micro":T(64,dss+":37 ScenesPerBatch 64 -> train_deep_sdf.py:318,349-351 DataLoader(batch_size=64) (each scene carries "+dss+":36 SamplesPerScene 16384 points)"),
 "batch.grad_accum":T(1,"train_deep_sdf.py:576-579 --batch_split default 1 -> :477-523 one chunk, one optimizer_all.step() per batch"),
 "batch.global":T(64,"64 x 1 x 1"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() in train_deep_sdf.py or networks/deep_sdf_decoder.py"),
 "optimizer.name":T("Adam","train_deep_sdf.py:380 torch.optim.Adam over the decoder and the latent codes",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint"),
 "data.num_workers":T(16,dss+":38 DataLoaderThreads 16 -> train_deep_sdf.py:346,353"),
 "data.pin_memory":T(False,"train_deep_sdf.py:349-355 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch (auto-decoder with per-shape latent codes)"),
},held_out=True,note=H45+"; README.md:113-118 'python train_deep_sdf.py -e <experiment_directory> ... Parameters of training are stored in a specification file in the experiment directory' with the directory filled as README.md:176's example examples/sofas (argparse with -e, a specs.json read by deep_sdf/workspace.py, the network module imported by name from NetworkArch, nn.DataParallel always applied, an Adam over two parameter groups (decoder and an nn.Embedding of latent codes), --batch_split as manual accumulation; DeepSDF auto-decoder on ShapeNet sofas, 3D shape representation). Not labelled: dist.sharding (nn.DataParallel over however many GPUs are visible: machine-dependent), model.num_parameters (the latent-code table grows with the number of training shapes)")

VQ=("rosinality/vq-vae-2-pytorch","ef5f67c46f93624163776caec9e0d95063910eca")
J("vq-vae-2-ffhq-stage1-argparse-mp-spawn-4gpu",*VQ,["."],".",["train_vqvae.py","--","--n_gpu","4","/data/ffhq"],{
 "dist.world_size":T(4,"--n_gpu 4 -> train_vqvae.py:152 dist.launch(main, 4, 1, 0, ...) -> distributed/launch.py:22-23,41-44 mp.spawn of 4 processes"),
 "dist.nodes":T(1,"train_vqvae.py:152 n_machine 1"),
 "dist.devices_per_node":T(4,"--n_gpu 4 (n_gpu_per_machine)"),
 "dist.sharding":T("ddp","train_vqvae.py:87 distributed when world size > 1 -> :106-111 nn.parallel.DistributedDataParallel"),
 "batch.micro":T(32,"train_vqvae.py:100-101 DataLoader(batch_size=128 // args.n_gpu) = 32 per process"),
 "batch.grad_accum":T(1,"train_vqvae.py:30-42 zero_grad, backward and optimizer.step every batch"),
 "batch.global":T(128,"32 x 1 x 4"),
 "data.image_size":T(256,"train_vqvae.py:142 --size default 256 -> :91-92 Resize and CenterCrop"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() in train_vqvae.py or vqvae.py"),
 "optimizer.name":T("Adam","train_vqvae.py:113 optim.Adam",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint"),
 "data.num_workers":T(2,"train_vqvae.py:101 num_workers=2"),
 "data.pin_memory":T(False,"train_vqvae.py:100-102 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H45+"; README.md:7-9,22-24 'You can use --n_gpu [NUM_GPUS] arguments for train_vqvae.py to use [NUM_GPUS] during training' and 'Stage 1 (VQ-VAE): python train_vqvae.py [DATASET PATH]' combined, with 4 GPUs and an FFHQ image folder (argparse with a positional path, a detectron2-style distributed/launch.py calling mp.spawn over n_gpu processes with a tcp dist_url, the per-process batch computed as 128 // n_gpu in code, DDP, Adam with an optional cycle scheduler; VQ-VAE-2 stage 1 on FFHQ 256x256, image generation). Related code: rosinality/stylegan2-pytorch (an earlier set's repository) is by the same author with its own distributed helpers. Not labelled: model.num_parameters (not stated)")

RL=("Guitaricet/relora","176f37633fe02019835387258ddabcf6d91e328d")
rlc="training_configs/1B_v1.0.yaml"
J("relora-pythia-1b-pile-torchrun-training-config-yaml-8gpu",*RL,["."],".",["--","torchrun","--nproc-per-node","8","--nnodes","1","torchrun_main.py","--training_config",rlc],{
 "model.ref":T("EleutherAI/pythia-1b",rlc+":7 model_name_or_path (revision step1000 at :8) -> torchrun_main.py:495 GPTNeoXForCausalLM.from_pretrained"),
 "model.num_parameters":T(1011781632,"Pythia-1B (16 layers, hidden 2048, vocab 50304, untied embeddings): 1.01B",rel_tol=0.1),
 "dist.world_size":T(8,"--nproc-per-node 8 --nnodes 1"),
 "dist.nodes":T(1,"--nnodes 1"),
 "dist.devices_per_node":T(8,"--nproc-per-node 8"),
 "dist.sharding":T("ddp",rlc+":39 distributed_type ddp -> torchrun_main.py:617-622 torch.nn.parallel.DistributedDataParallel"),
 "batch.micro":T(8,rlc+":25 batch_size 8 -> torchrun_main.py:282 train_micro_batch_size_per_gpu for the Megatron loader"),
 "batch.grad_accum":T(16,"torchrun_main.py:357-360 gradient_accumulation = total_batch_size 1024 // (8 x 8) = 16 -> :796-799"),
 "batch.global":T(1024,rlc+":26 total_batch_size 1024 (8 x 16 x 8)"),
 "data.seq_len":T(2048,rlc+":3 max_length 2048 (configs/pile_megatron_dataset.yaml seq_length 2048)"),
 "precision.mode":T("bf16",rlc+":38 dtype bfloat16 -> torchrun_main.py:598-599 model.to(dtype=torch.bfloat16): pure bf16 weights, no autocast",any_of=["bf16","bf16_pure","pure_bf16"]),
 "optimizer.name":T("AdamW",rlc+":24 optimizer adam -> torchrun_main.py:664-666 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no gradient_checkpointing_enable or torch.utils.checkpoint in torchrun_main.py"),
 "data.num_workers":T(8,rlc+":4 workers 8 -> torchrun_main.py:285 num_workers"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora",rlc+":15-18 use_peft true, lora_r 128, relora 1000 -> torchrun_main.py:531-553 ReLoRaModel (LoRA layers merged and re-initialised every 1000 steps, peft_pretraining/relora.py)",any_of=["lora","relora"]),
},held_out=True,note=H45+"; README.md:25-28 'torchrun --nproc-per-node 8 --nnodes 1 torchrun_main.py --training_config training_configs/1B_v1.0.yaml' (argparse whose --training_config YAML overwrites every argument by setattr (peft_pretraining/args_utils.py:9-21, refusing other flags), a Megatron/NeoX indexed-dataset loader fed the per-GPU and total batch from the YAML, gradient accumulation computed from the total batch and world size, the model cast to bfloat16, DDP, a hand-written ReLoRA wrapper with optimizer magnitude pruning at each restart; ReLoRA pre-training of Pythia-1B from its step1000 checkpoint on the Pile, LLM pre-training). Related code: peft_pretraining/megatron_dataset/ is vendored from EleutherAI/gpt-neox (an earlier set's repository). Not labelled: data.pin_memory (inside the vendored NeoX loader)")

UC=("thunlp/UltraChat","1f613e1b8dfc6d1e3a02efb6905de608ed06645b")
J("ultralm-llama-ultrachat-bmtrain-zero3-torchrun-8gpu",*UC,["."],"train",["--","torchrun","--nnodes=1","--nproc_per_node=8","--rdzv_id=1","--rdzv_backend=c10d",
 "--rdzv_endpoint=localhost:50003","train_bm.py","--tensorboard","./ultrachat_llama_tb_2","--save_step","5000","--logging_step","100"],{
 "dist.world_size":T(8,"--nnodes=1 --nproc_per_node=8"),
 "dist.nodes":T(1,"--nnodes=1"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("zero3","train/train_bm.py:76-79 bmt.init_distributed(zero_level=3) with the model wrapped by bmt.BMTrainModelWrapper (:19): parameters, gradients and optimizer states partitioned",any_of=["zero3","zero_3","bmtrain_zero3"]),
 "dist.offload_optimizer":T("cpu","train/train_bm.py:23-25 bmt.optim.AdamOffloadOptimizer keeps the Adam states and update on the CPU"),
 "batch.micro":T(2,"train/train_bm.py:203 --batch_size_per_device default 2 -> :118 DataLoader(batch_size=2)"),
 "batch.grad_accum":T(1,"train/train_bm.py:207 --gradient_accumulation_steps default 1 -> :138"),
 "batch.global":T(16,"2 x 1 x 8"),
 "data.seq_len":T(2048,"train/ultrachat_dataset.py:139 PromptIterableDataset(max_seq_length=2048) (train/train_bm.py:202 --max_seq_length default 2048 too)"),
 "optimizer.name":T("Adam","train/train_bm.py:23-25 bmt.optim.AdamOffloadOptimizer (weight decay 0.0 from :213)",any_of=["Adam","adam","AdamW","adamw","AdamOffload"]),
 "memory.gradient_checkpointing":T(False,"no gradient_checkpointing_enable or checkpointing in train/train_bm.py"),
 "data.num_workers":T(0,"train/train_bm.py:118 DataLoader without num_workers"),
 "data.pin_memory":T(False,"train/train_bm.py:118 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning of LLaMA (every parameter to AdamOffloadOptimizer, :23-24)"),
},held_out=True,note=H45+"; README.md:245-249 'Run train_bm.py, for example: WANDB_MODE=\"offline\" torchrun --nnodes=1 --nproc_per_node=8 --rdzv_id=1 --rdzv_backend=c10d --rdzv_endpoint=localhost:50003 train_bm.py --tensorboard ./ultrachat_llama_tb_2 --save_step 5000 --logging_step 100' run from train/ (the WANDB_MODE prefix dropped) (argparse, OpenBMB's BMTrain: bmt.init_distributed with ZeRO level 3, a Hugging Face LlamaForCausalLM wrapped by BMTrainModelWrapper, AdamOffloadOptimizer under an OptimManager with a loss scale, each rank slicing its share of the data by hand; UltraLM, LLaMA fine-tuned on UltraChat dialogues, LLM fine-tuning). Not labelled: model.ref and model.num_parameters (train/train_bm.py:198 --model_name_or_path default '/path/to/huggingface/llama', a placeholder, and the command does not set it), precision.mode (LlamaForCausalLM.from_pretrained without torch_dtype under BMTrain's loss-scaled optimizer manager: the weights' dtype depends on the transformers version)")

PR=("stanfordnlp/pyreft","dafd0995a366d7b47160a337dcc388eda7431821")
prt="examples/alpaca/train.py"
J("pyreft-loreft-llama7b-alpaca-hf-trainer-single-gpu",*PR,["."],"examples/alpaca",["train.py","--","--model_name_or_path","yahma/llama-7b-hf","--data_path","./alpaca_data.json",
 "--output_dir","./test/","--layers","8;19","--rank","4","--position","f1+l1","--num_train_epochs","1","--per_device_train_batch_size","4","--per_device_eval_batch_size","4",
 "--gradient_accumulation_steps","8","--evaluation_strategy","no","--save_strategy","no","--learning_rate","2e-5","--weight_decay","0.","--warmup_ratio","0.03",
 "--lr_scheduler_type","cosine","--logging_steps","1"],{
 "model.ref":T("yahma/llama-7b-hf","--model_name_or_path yahma/llama-7b-hf -> "+prt+":100-102 AutoModelForCausalLM.from_pretrained"),
 "model.num_parameters":T(6740000000,"LLaMA-7B (32 layers, hidden 4096, vocab 32000): 6.74B",rel_tol=0.1),
 "dist.world_size":T(1,"python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.sharding":T("none","one process, no DeepSpeed or FSDP arguments"),
 "batch.micro":T(4,"--per_device_train_batch_size 4"),
 "batch.grad_accum":T(8,"--gradient_accumulation_steps 8"),
 "batch.global":T(32,"4 x 8 x 1"),
 "data.seq_len":T(512,prt+":35-37 model_max_length default 512"),
 "precision.mode":T("bf16",prt+":100-102 from_pretrained(torch_dtype=torch.bfloat16), no --bf16/--fp16: bf16 weights without autocast",any_of=["bf16","bf16_pure","pure_bf16"]),
 "optimizer.name":T("AdamW",prt+":34 optim default adamw_torch",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(False,"no --gradient_checkpointing: TrainingArguments default False"),
 "data.num_workers":T(0,"no --dataloader_num_workers: TrainingArguments default 0"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("reft",prt+":103-114 LoreftIntervention at layers 8 and 19, rank 4, via pyreft.get_reft_model: the base model frozen, only the interventions train",any_of=["reft","loreft"]),
},held_out=True,note=H45+"; examples/alpaca/README.md:7-27 'You can train Alpaca (i.e., instruction-tuning LLaMA-1 7B) with ReFT using a single training script: python train.py --model_name_or_path yahma/llama-7b-hf --data_path ./alpaca_data.json ...' run from examples/alpaca (HfArgumentParser over ModelArguments, DataArguments and a TrainingArguments subclass with model_max_length/layers/position/rank, the model loaded in bfloat16, pyreft's LoReFT interventions on two layers' block outputs via pyvene, a ReftTrainer subclass of transformers.Trainer; LoReFT instruction tuning of LLaMA-7B on Alpaca, LLM fine-tuning). Related code: pyreft/ is the library itself (the repository is the package), examples/loreft follows LLM-Adapters (AGI-Edgerunners/LLM-Adapters, an earlier set's repository). Not labelled: data.pin_memory (the installed transformers' default)")

SC=("Stability-AI/StableCascade","7a7d341f729ccaa042920a1fac3e7b9326079aca")
scc="configs/training/finetune_c_3b_lora.yaml"
J("stable-cascade-stage-c-3b-lora-sbatch-srun-warpcore-8gpu",*SC,["."],".",["train/example_train.sh"],{
 "model.num_parameters":T(3600000000,scc+":5 model_version 3.6B -> train/train_c_lora.py:171-172 StageC() (the generator the LoRA adapts)",rel_tol=0.1),
 "dist.world_size":T(8,"train/example_train.sh:3-5 --nodes=1, --gpus-per-node=8, --ntasks-per-node=8 -> core/__init__.py:147 world_size = SLURM_NNODES 1 x 8 visible GPUs"),
 "dist.nodes":T(1,"train/example_train.sh:3 #SBATCH --nodes=1"),
 "dist.devices_per_node":T(8,"train/example_train.sh:4-5 --gpus-per-node=8, --ntasks-per-node=8"),
 "dist.sharding":T("none",scc+":21-22 use_fsdp False -> train/train_c_lora.py:242-245 the LoRA module is not wrapped; no DDP anywhere in core/ or train/ (each rank updates its own copy)"),
 "batch.micro":T(1,"train/base.py:117-119 real_batch_size = batch_size 32 // (world 8 x grad_accum_steps 4) = 1 ("+scc+":13,16)"),
 "batch.grad_accum":T(4,scc+":16 grad_accum_steps 4 -> train/base.py:256-258 an update every 4 iterations"),
 "batch.global":T(32,scc+":13 batch_size 32 (1 x 4 x 8)"),
 "data.image_size":T(768,scc+":14 image_size 768 (multi-aspect buckets at :15)"),
 "precision.mode":T("amp_bf16","train/train_c_lora.py:42,148 dtype None -> float32 weights; :273 torch.cuda.amp.autocast(dtype=torch.bfloat16) around the generator",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("AdamW","train/train_c_lora.py:255 optim.AdamW over the LoRA parameters",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no torch.utils.checkpoint in modules/ or train/"),
 "data.num_workers":T(8,"train/base.py:119 DataLoader(num_workers=8)"),
 "data.pin_memory":T(True,"train/base.py:119 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("lora",scc+":27-29 module_filters ['.attn'], rank 4 -> train/train_c_lora.py:200-239 modules/lora.py LoRA on the frozen Stage C (plus trained new tokens)",any_of=["lora"]),
},held_out=True,note=H45+"; train/readme.md:83-96 'python3 train/train_c_lora.py configs/training/finetune_c_3b_lora.yaml ... Moreover, we also provide a bash script (example_train.sh) for working with slurm': the job is that sbatch script, whose body is srun python3 train/train_c_lora.py configs/training/finetune_c_3b_lora.yaml (the Würstchen 'WarpCore' framework: dataclass Config fields filled from a YAML, ranks and world size read from SLURM_LOCALID/SLURM_PROCID/SLURM_NNODES with a file:// init method, the per-GPU batch computed from the total batch, world size and accumulation, a webdataset loader with aspect-ratio buckets, LoRA and new text tokens on a frozen 3.6B Stage C with bf16 autocast; Stable Cascade Stage C LoRA fine-tuning, text-to-image diffusion). Not labelled: model.ref (a local safetensors path, models/stage_c_bf16.safetensors)")

BR=("ZhengPeng7/BiRefNet","25cb9309bacf3dde954e4584594e16e142c51de5")
J("birefnet-swin-l-dis5k-train-test-sh-torchrun-accelerate-8gpu",*BR,["."],".",["train_test.sh","--","tmp-proj","0,1,2,3,4,5,6,7","0"],{
 "dist.world_size":T(8,"train_test.sh:7 bash train.sh tmp-proj 0,...,7 -> train.sh:17 nproc_per_node = 7 commas -> :28 torchrun --standalone --nproc_per_node $((7+1)) = 8"),
 "dist.nodes":T(1,"train.sh:28 --standalone"),
 "dist.devices_per_node":T(8,"train.sh:27-28 CUDA_VISIBLE_DEVICES=0,...,7, --nproc_per_node 8"),
 "dist.sharding":T("ddp","train.sh:32 --use_accelerate -> train.py:42-46 Accelerator with DistributedDataParallelKwargs, :157 accelerator.prepare(model) under torchrun"),
 "batch.micro":T(8,"config.py:8 batch_size 8 -> train.py:99-101 DataLoader(batch_size=8) per process"),
 "batch.grad_accum":T(1,"train.py:44 Accelerator(gradient_accumulation_steps=1)"),
 "batch.global":T(64,"8 x 1 x 8"),
 "data.image_size":T(1024,"config.py:20 task DIS5K -> :42 size (1024, 1024) (dynamic_size None at :43)"),
 "precision.mode":T("amp_bf16","config.py:10 mixed_precision 'bf16' -> train.py:34,42-43 Accelerator(mixed_precision='bf16')",any_of=["amp_bf16","bf16"]),
 "optimizer.name":T("AdamW","config.py:119 optimizer 'AdamW' -> train.py:136-137 optim.AdamW",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"config.py:91 backbone swin_v1_l -> models/backbones/swin_v1.py:626-627 SwinTransformer without use_checkpoint (default False, :505)"),
 "data.num_workers":T(8,"config.py:77 num_workers max(4, 8) = 8 -> train.py:87-92 min(8, batch 8)"),
 "data.pin_memory":T(True,"train.py:87,92 pin_memory=True"),
 "compile.enabled":T(True,"config.py:9 compile True -> train.py:130-131 torch.compile(model)"),
 "peft.method":T("none","full training (config.py:92 freeze_bb only for DINOv3 backbones; the Swin-L backbone starts from ImageNet weights and trains)"),
},held_out=True,note=H45+"; README.md:367-372 '# Train & Test & Evaluation ./train_test.sh RUN_NAME GPU_NUMBERS_FOR_TRAINING GPU_NUMBERS_FOR_TEST # Example: ./train_test.sh tmp-proj 0,1,2,3,4,5,6,7 0' (the README's example: train_test.sh runs train.sh, which asks `python3 config.py --print_task` for the task, counts the commas of the device list with grep -o and wc -l, then torchrun --standalone --nproc_per_node $((n+1)) train.py --use_accelerate; a plain Python Config class whose attributes pick from inline lists by index ([...][2], [...][0], [...][3]), Accelerate with bf16 mixed precision and DDP kwargs, torch.compile, AdamW; BiRefNet with a Swin-L backbone on DIS5K at 1024x1024, dichotomous image segmentation; test.sh afterwards evaluates). Not labelled: model.num_parameters (not stated)")
