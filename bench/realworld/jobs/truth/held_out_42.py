"""The forty-second held-out set of the jobs benchmark (run.py --set held-out-42): expert truth
written by hand, one J(...) per job, labelled by reading the code and configs at the pinned
commits before preflight was first run on any of them. No repository is used by another jobs set
(bench/realworld/jobs/manifest.json, /work/wt/all_repos.txt, and the dropped drafts of sets 28 and
31); each owner/name and bare name was grepped in bench/, docs/, tests/, calibration/, preflight/
and adapters/ before it was taken, and where a name appears there (other corpora) the set's docs
section says so.
Parameter counts are labelled only where the repository states them, a published checkpoint's
size gives them, or they follow by arithmetic from the shapes the code builds."""
from .core import J, T

H42="forty-second held-out set"
GA=("eriklindernoren/PyTorch-GAN","36d3c77e5ff20ebe0aeefd322326a134a279b93e")
gad="implementations/dcgan"
J("pytorch-gan-dcgan-mnist-module-level-script-1gpu",*GA,[gad],gad,["dcgan.py"],{
 "model.num_parameters":T(1148098,gad+"/dcgan.py:45-99 with --latent_dim 100, --img_size 32, --channels 1 (:26-28): generator 1,049,985 (Linear 100->8192, convs 128->128->64->1, three BatchNorms) + discriminator 98,113 (convs 1->16->32->64->128, Linear 512->1), both trained",rel_tol=0.1),
 "dist.world_size":T(1,"one process, no launcher"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,gad+"/dcgan.py:33,109-112 generator/discriminator .cuda() when available (the default device)"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(64,gad+"/dcgan.py:21 --batch_size default 64 -> :120-131 DataLoader(batch_size=64)"),
 "batch.grad_accum":T(1,gad+"/dcgan.py:157-183 zero_grad, backward and step of each optimizer every batch"),
 "batch.global":T(64,"64 x 1 x 1"),
 "data.image_size":T(32,gad+"/dcgan.py:27 --img_size default 32 -> :126 Resize(32)"),
 "precision.mode":T("fp32","no autocast or half(); :137 torch.cuda.FloatTensor"),
 "optimizer.name":T("Adam",gad+"/dcgan.py:134-135 torch.optim.Adam for the generator and the discriminator (betas 0.5, 0.999)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(0,gad+"/dcgan.py:120-131 DataLoader without num_workers (--n_cpu at :25 is never used)"),
 "data.pin_memory":T(False,gad+"/dcgan.py:120-131 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H42+"; README.md:318-319 '$ cd implementations/dcgan/ $ python3 dcgan.py' (argparse parsed at module level into a global opt that the model classes read in __init__, a bare script with no main(), two models and two Adam optimizers stepped alternately each batch, torch.cuda.FloatTensor as the tensor factory, MNIST resized to 32x32; DCGAN on MNIST, image generation)")
RC=("akamaster/pytorch_resnet_cifar10","d5489e8995e81e91ce6b1d69dcc98ad579b0b153")
J("resnet-cifar10-resnet56-dataparallel-run-sh-line",*RC,["."],".",["trainer.py","--","--arch=resnet56","--save-dir=save_resnet56"],{
 "model.num_parameters":T(850000,"--arch=resnet56 -> trainer.py:70 resnet.resnet56(); README.md:13 ResNet56 0.85M params",rel_tol=0.1),
 "dist.world_size":T(1,"one process, no launcher (trainer.py:70 nn.DataParallel inside that process)"),
 "dist.nodes":T(1,"one process"),
 "batch.grad_accum":T(1,"trainer.py:190-192 zero_grad, backward and step every batch"),
 "batch.global":T(128,"trainer.py:34 --batch-size default 128 -> :91-99 DataLoader(batch_size=128) (one DataLoader; nn.DataParallel splits each batch over the visible GPUs)"),
 "data.image_size":T(32,"trainer.py:94 RandomCrop(32, 4) of CIFAR-10's 32x32 images"),
 "precision.mode":T("fp32","--half not passed (trainer.py:50,112-114)"),
 "optimizer.name":T("SGD","trainer.py:116-118 torch.optim.SGD(lr 0.1, momentum 0.9, weight_decay 1e-4)",any_of=["SGD","sgd"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(4,"trainer.py:28 --workers default 4 -> :99"),
 "data.pin_memory":T(True,"trainer.py:99 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H42+"; run.sh:3-6 loops 'python -u trainer.py --arch=$model --save-dir=save_$model' over the six depths; the job is the resnet56 line, flags given with '=' (argparse with a global args, the architecture picked from resnet.__dict__ by name, an unconditional nn.DataParallel over every visible GPU, MultiStepLR; ResNet-56 on CIFAR-10, vision). Not labelled: dist.devices_per_node, dist.sharding and batch.micro (nn.DataParallel over however many GPUs are visible, not knowable from the repository)")
FG=("LTH14/fractalgen","c7d099043dd987ae7742a7f8c8f1cab71023ba0e")
J("fractalgen-fractalmar-large-in256-torchrun-ddp-4x8",*FG,["."],".",["--","torchrun","--nproc_per_node=8","--nnodes=4","--node_rank=0",
 "--master_addr=10.0.0.1","--master_port=29500","main_fractalgen.py","--model","fractalmar_large_in256","--img_size","256","--num_conds","5","--guiding_pixel",
 "--batch_size","32","--eval_freq","40","--save_last_freq","10","--epochs","800","--warmup_epochs","40",
 "--blr","5.0e-5","--weight_decay","0.05","--attn_dropout","0.1","--proj_dropout","0.1","--lr_schedule","cosine",
 "--gen_bsz","256","--num_images","8000","--num_iter_list","64,16,16","--cfg","21.0","--cfg_schedule","linear","--temperature","1.1",
 "--output_dir","output","--resume","output","--data_path","data/imagenet","--grad_checkpointing","--online_eval"],{
 "model.num_parameters":T(438000000,"--model fractalmar_large_in256 -> models/fractalgen.py:178-187; README.md:61 FractalMAR-Large (IN256) 438M",rel_tol=0.1),
 "dist.world_size":T(32,"README.md:100 torchrun --nproc_per_node=8 --nnodes=4: 32 processes"),
 "dist.nodes":T(4,"--nnodes=4"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp","main_fractalgen.py:207 DistributedDataParallel(model, device_ids=[args.gpu])"),
 "batch.micro":T(32,"--batch_size 32 -> main_fractalgen.py:166-172 DataLoader(batch_size=32) per process (main_fractalgen.py:25 'Batch size per GPU')"),
 "batch.grad_accum":T(1,"engine_fractalgen.py:47-48 loss_scaler(... update_grad=True) and zero_grad every iteration"),
 "batch.global":T(1024,"32 x 1 x 32 (main_fractalgen.py:199 eff_batch_size = batch_size * world_size)"),
 "data.image_size":T(256,"--img_size 256 -> main_fractalgen.py:147 center_crop_arr(pil_image, 256)"),
 "precision.mode":T("amp_fp16","engine_fractalgen.py:39 torch.cuda.amp.autocast() (fp16) with main_fractalgen.py:214 NativeScalerWithGradNormCount (util/misc.py:253 GradScaler) over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","main_fractalgen.py:212 torch.optim.AdamW(betas=(0.9, 0.95))",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,"--grad_checkpointing -> main_fractalgen.py:190 -> models/mar.py:202-204 and models/ar.py:421-423 torch.utils.checkpoint per block"),
 "data.num_workers":T(10,"main_fractalgen.py:32 --num_workers default 10 -> :169"),
 "data.pin_memory":T(True,"main_fractalgen.py:33-36 pin_mem default True -> :170"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H42+"; README.md:98-108 'Example script for training FractalMAR-L on ImageNet 256x256 for 800 epochs' with ${NODE_RANK}/${MASTER_ADDR}/${MASTER_PORT}/${OUTPUT_DIR}/${IMAGENET_PATH} filled (torchrun on 4x8 GPUs, argparse with set_defaults for pin_mem, the model picked from fractalgen.__dict__ by name, a recursive fractal of MAR and AR transformer generators, DDP, per-iteration LR schedule, fp16 autocast with a grad-norm loss scaler; FractalMAR-Large pixel-by-pixel image generation on ImageNet 256x256, vision)")
CX=("microsoft/ClimaX","6d5d354ffb4b91bb684f430b98e8f6f8af7c7f7c")
cxc="configs/global_forecast_climax.yaml"
cxd="src/climax/global_forecast/datamodule.py"
J("climax-global-forecast-5-625deg-lightningcli-yaml-ddp-8gpu",*CX,["."],".",["src/climax/global_forecast/train.py","--","--config",cxc,
 "--trainer.strategy=ddp","--trainer.devices=8","--trainer.max_epochs=50","--data.root_dir=/mnt/data/5.625deg_npz",
 "--data.predict_range=72","--data.out_variables=['z_500','t_850','t2m']","--data.batch_size=16",
 "--model.pretrained_path=https://huggingface.co/tungnd/climax/resolve/main/5.625deg.ckpt",
 "--model.lr=5e-7","--model.beta_1=0.9","--model.beta_2=0.99","--model.weight_decay=1e-5"],{
 "dist.world_size":T(8,"--trainer.devices=8 with "+cxc+":10 num_nodes 1 and --trainer.strategy=ddp: 8 processes"),
 "dist.nodes":T(1,cxc+":10 trainer.num_nodes 1"),
 "dist.devices_per_node":T(8,"--trainer.devices=8 ("+cxc+":11 accelerator gpu)"),
 "dist.sharding":T("ddp","--trainer.strategy=ddp (also "+cxc+":12)"),
 "batch.micro":T(16,"--data.batch_size=16 (over "+cxc+":196's 128) -> "+cxd+":170-175 DataLoader(batch_size=16) per process"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches in "+cxc+" or on the command line: Lightning default 1"),
 "batch.global":T(128,"16 x 1 x 8"),
 "precision.mode":T("amp_fp16",cxc+":7 trainer.precision 16 -> Lightning 1.8 (docker/environment.yml:178) native fp16 autocast with a GradScaler over fp32 weights",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW","src/climax/global_forecast/module.py:197-206 torch.optim.AdamW with a decay and a no-decay group (betas 0.9, 0.99 from --model.beta_1/--model.beta_2)",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in src/climax/arch.py"),
 "data.num_workers":T(1,cxc+":197 data.num_workers 1 -> "+cxd+":174"),
 "data.pin_memory":T(False,cxc+":198 data.pin_memory False -> "+cxd+":175"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","full fine-tuning of the pre-trained ClimaX checkpoint (--model.pretrained_path)"),
},held_out=True,note=H42+"; docs/usage.md:95-105 'For example, to finetune ClimaX on 8 GPUs use python src/climax/global_forecast/train.py --config configs/global_forecast_climax.yaml --trainer.strategy=ddp --trainer.devices=8 ...' (LightningCLI with run=False and parser_mode omegaconf over a YAML with trainer/model/data sections, ${oc.env:OUTPUT_DIR,...} interpolation, dotted --trainer./--data./--model. overrides, the network given as class_path/init_args under model.net, an IterableDataset of shuffled .npz shards, trainer.fit then trainer.test; ClimaX fine-tuning for 72-hour global weather forecasting on ERA5 5.625 degrees, climate / weather). Not labelled: model.num_parameters (not stated in the repository), data.image_size (a 32x64 latitude-longitude grid of 48 variables, not an image)")
R4=("ai4co/rl4co","7a1539678b6a81cc68b4069440aa5e98f6931f6c")
r4b="rl4co/models/rl/common/base.py"
J("rl4co-attention-model-tsp50-hydra-lightning-reinforce",*R4,["."],".",["run.py","--","experiment=routing/am","logger=none","~callbacks.learning_rate_monitor"],{
 "dist.nodes":T(1,"no num_nodes in configs/trainer/default.yaml or rl4co/utils/trainer.py:47-115: Lightning default 1"),
 "batch.micro":T(512,"experiment=routing/am -> configs/experiment/routing/am.yaml:23 model.batch_size 512 -> "+r4b+":128-134 train_batch_size -> :306-315 DataLoader(batch_size=512) per process (512 TSP-50 instances)"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches in configs/trainer/default.yaml: Lightning default 1"),
 "precision.mode":T("amp_fp16","configs/trainer/default.yaml:8 precision '16-mixed' -> rl4co/utils/trainer.py:113",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("Adam",r4b+":59 optimizer default 'Adam' (configs/model/am.yaml names none) -> :175-180 built by name with optimizer_kwargs lr 1e-4, weight_decay 1e-6 (am.yaml:29-31)",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in rl4co/models"),
 "data.num_workers":T(0,r4b+":70 dataloader_num_workers default 0 -> :314"),
 "data.pin_memory":T(False,r4b+":310-316 DataLoader without pin_memory"),
 "compile.enabled":T(False,"configs/main.yaml:46 compile False -> rl4co/tasks/train.py:69-71"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H42+"; README.md:124-126 'Disable logging: python run.py experiment=routing/am logger=none ~callbacks.learning_rate_monitor' (README.md:112's variant passes env.num_loc=50, a key configs/env/tsp.yaml does not have; Hydra @hydra.main inside the installed package rl4co/tasks/train.py called from a two-line run.py, a global-package experiment config overriding model/env/trainer/logger groups, hydra.utils.instantiate of an RL4COTrainer subclass of the Lightning Trainer that turns on DDP itself when devices='auto' finds several GPUs, a LightningModule that generates its TSP instances in setup(); Attention Model trained with REINFORCE and a greedy rollout baseline on TSP-50, combinatorial optimisation / reinforcement learning). Not labelled: dist.world_size, dist.devices_per_node, dist.sharding and batch.global (configs/trainer/default.yaml:7 accelerator auto and rl4co/utils/trainer.py:55,73-87 devices 'auto': every visible GPU, with DDP when there are several, not knowable from the repository), model.num_parameters (not stated)")
QL=("jondurbin/qlora","cc471bbc2c802dbac67ca32bfc54a2ab875543cf")
J("jondurbin-qlora-llama-2-70b-airoboros-accelerate-launch-nf4",*QL,["."],".",["--","accelerate","launch","train.py",
 "--model_name_or_path","/workspace/llama-2-70b-hf","--working_dir","/workspace/airoboros-l2-70b-3.0-checkpoints",
 "--output_dir","/workspace/airoboros-l2-70b-3.0-peft","--merged_output_dir","/workspace/airoboros-l2-70b-3.0",
 "--num_train_epochs","5","--logging_steps","1","--save_strategy","steps","--save_steps","75","--save_total_limit","3",
 "--data_seed","11422","--evaluation_strategy","steps","--per_device_eval_batch_size","2","--eval_dataset_size","0.01",
 "--eval_steps","75","--max_new_tokens","4096","--dataloader_num_workers","3","--logging_strategy","steps","--do_train",
 "--lora_r","64","--lora_alpha","16","--lora_modules","all","--bf16","--bits","4","--double_quant","--quant_type","nf4",
 "--lr_scheduler_type","constant","--dataset","/workspace/conversations.json","--dataset_format","airoboros_chat",
 "--model_max_len","4096","--per_device_train_batch_size","2","--learning_rate","0.00008","--adam_beta2","0.999",
 "--max_grad_norm","0.3","--lora_dropout","0.0","--weight_decay","0.0","--seed","11422","--report_to","wandb",
 "--gradient_checkpointing","--use_flash_attention_2","--ddp_find_unused_parameters","False"],{
 "model.num_parameters":T(68976648192,"--model_name_or_path .../llama-2-70b-hf (README.md:105, a local copy of Llama-2-70B): 69.0B parameters",rel_tol=0.1),
 "batch.micro":T(2,"README.md:134 --per_device_train_batch_size 2"),
 "batch.grad_accum":T(16,"no --gradient_accumulation_steps on the command line: train.py:246-247 the TrainingArguments subclass's default 16"),
 "data.seq_len":T(4096,"--model_max_len 4096 -> train.py:1040-1054 examples longer than model_max_len dropped, the collator truncating source+target to 4096 (train.py:595-624) with right padding to the longest in the batch"),
 "precision.mode":T("bf16","--bf16 -> train.py:463-465 compute dtype bfloat16 for the 4-bit base and :481-485 torch_dtype bfloat16",any_of=["bf16","amp_bf16"]),
 "precision.weights_bits":T(4,"--bits 4 -> train.py:467-476 BitsAndBytesConfig(load_in_4bit=True)"),
 "precision.quant_type":T("nf4","--quant_type nf4 -> train.py:475"),
 "precision.double_quant":T(True,"--double_quant -> train.py:474"),
 "optimizer.name":T("paged_adamw_32bit","no --optim: train.py:233-234 default 'paged_adamw_32bit' (--radam/--nadam not passed, :1135)",any_of=["paged_adamw_32bit","PagedAdamW32bit","PagedAdamW"]),
 "memory.gradient_checkpointing":T(True,"--gradient_checkpointing (train.py:269-270 default True as well) -> :516-523"),
 "data.num_workers":T(3,"--dataloader_num_workers 3"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("lora","--bits 4 without --full_finetune -> train.py:537-555 LoraConfig on every linear layer (--lora_modules all) over the 4-bit base: QLoRA",any_of=["lora","qlora"]),
 "peft.rank":T(64,"--lora_r 64 -> train.py:547"),
 "task.mode":T("qlora","4-bit NF4 base + LoRA adapters"),
},held_out=True,note=H42+"; README.md:95-143 'QLoRA example: Script used for llama-2 70b airoboros, version 3.0: accelerate launch $BASE_DIR/qlora/train.py ...' with $BASE_DIR=/workspace and $WANDB_PROJECT=airoboros-l2-70b-3.0 filled and run from the repository root (an HfArgumentParser over four dataclasses with return_remaining_strings=True, so README's --use_flash_attention_2 is silently dropped, a Seq2SeqTrainingArguments subclass whose field defaults differ from transformers' (gradient_accumulation_steps 16, optim paged_adamw_32bit, gradient_checkpointing True), bitsandbytes NF4 loading with a device_map from LOCAL_RANK, LoRA on every linear layer found by name, NEFTune noise; QLoRA fine-tuning of Llama-2-70B on the airoboros conversations, LLM fine-tuning). Not labelled: dist.world_size, dist.nodes, dist.devices_per_node, dist.sharding and batch.global (accelerate launch with no --config_file and no process count: the machine's saved accelerate config or every visible GPU, not knowable from the repository), model.attn_implementation (train.py:322 attn_implementation default None: the installed transformers' default), data.pin_memory (the installed transformers' dataloader_pin_memory default)")
LA=("THUDM/LongAlign","450ecc8c9faeafd83a169610fad94d4b7fac1357")
las="scripts/llama_sort.sh"
lad="ds_config/stage3.json"
J("longalign-7b-64k-sorted-batching-deepspeed-zero3-offload-8gpu",*LA,["."],".",[las],{
 "model.ref":T("THUDM/LongAlign-7B-64k-base",las+":2 --model_name_or_path -> main.py:108-111 modeling_llama.LlamaForCausalLM.from_pretrained(torch_dtype=torch.bfloat16)",any_of=["THUDM/LongAlign-7B-64k-base"]),
 "model.num_parameters":T(6738415616,"LongAlign-7B-64k-base is Llama-2-7B with a 64k context (README.md:57): 6.74B parameters",rel_tol=0.1),
 "dist.world_size":T(8,las+":1 deepspeed --include localhost:0,1,2,3,4,5,6,7: 8 processes"),
 "dist.nodes":T(1,"--include localhost:..."),
 "dist.devices_per_node":T(8,"--include localhost:0,...,7"),
 "dist.sharding":T("zero3",las+":19 --deepspeed ds_config/stage3.json -> "+lad+":18-19 zero_optimization stage 3",any_of=["zero3","zero_3","deepspeed_zero3"]),
 "dist.offload_optimizer":T("cpu",lad+":20-23 offload_optimizer device cpu"),
 "dist.offload_params":T("cpu",lad+":24-27 offload_param device cpu"),
 "dist.overlap_comm":T(True,lad+":28"),
 "dist.contiguous_gradients":T(True,lad+":29"),
 "dist.stage3_max_live_parameters":T(500000000,lad+":34 5e8"),
 "batch.micro":T(1,las+":6 --per_device_train_batch_size 1"),
 "batch.grad_accum":T(12,las+":8 --gradient_accumulation_steps 12"),
 "batch.global":T(96,"1 x 12 x 8"),
 "data.seq_len":T(65536,"pre_tokenize.py:12,78-85 every example padded or cut to max_length 65536 (main.py:41-57 the collator then trims each batch to its longest sequence)"),
 "precision.mode":T("bf16",las+":20 --bf16 -> "+lad+":2-3 bf16 enabled auto, main.py:110 weights loaded in bfloat16",any_of=["bf16","amp_bf16"]),
 "optimizer.name":T("AdamW","main.py:38 optim default 'adamw_torch' ("+lad+" has no optimizer section, so the Trainer builds it; betas 0.9, 0.95 from :22-23)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,las+":21 --gradient_checkpointing 1"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H42+"; README.md:57-59 'We provide training scripts under scripts/ for the ChatGLM3 and Llama-2 model series' and 'we recommend ... sorted batching for Llama': bash scripts/llama_sort.sh from the repository root (deepspeed launcher with --include, an HfArgumentParser over three dataclasses with a Seq2SeqTrainingArguments subclass whose optim default is adamw_torch, a Trainer subclass TrainerNoShuffle with a SequentialSampler over batches grouped in advance by sort_and_group.py, a repository-local modeling_llama.py with flash-attention varlen kernels, a ZeRO-3 config with CPU offload of parameters and optimizer and 'auto' batch keys; long-context supervised fine-tuning of Llama-2-7B-64k, LLM fine-tuning). Not labelled: data.num_workers / data.pin_memory (the installed transformers' defaults), model.attn_implementation (modeling_llama.py:39-45 flash_attn when importable)")
TV=("showlab/Tune-A-Video","7d4a89a2b90067e8d805ef1287beb4e4adf37e18")
tvc="configs/man-skiing.yaml"
tvt="train_tuneavideo.py"
J("tune-a-video-sd-1-4-man-skiing-accelerate-omegaconf-kwargs",*TV,["."],".",["--","accelerate","launch",tvt,"--config=configs/man-skiing.yaml"],{
 "batch.micro":T(1,tvc+":28 train_batch_size 1 -> "+tvt+":367 main(**OmegaConf.load(...)) -> :165-167 DataLoader(batch_size=1) (one 24-frame clip)"),
 "batch.grad_accum":T(1,"no gradient_accumulation_steps in "+tvc+": "+tvt+":61 main() default 1 -> :72-73 Accelerator(gradient_accumulation_steps=1)"),
 "data.image_size":T(512,tvc+":8-9 train_data width 512, height 512"),
 "precision.mode":T("amp_fp16",tvc+":38 mixed_precision fp16 -> "+tvt+":72-74 Accelerator(mixed_precision='fp16'): fp16 autocast over the fp32 UNet (:193-201 the frozen VAE and text encoder cast to fp16)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("AdamW",tvc+":39 use_8bit_adam False -> "+tvt+":146-154 torch.optim.AdamW(unet.parameters())",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(True,tvc+":40 gradient_checkpointing True -> "+tvt+":127-128 unet.enable_gradient_checkpointing()"),
 "data.num_workers":T(0,tvt+":165-167 DataLoader without num_workers"),
 "data.pin_memory":T(False,tvt+":165-167 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none",tvt+":115-119 the UNet frozen except the modules named in "+tvc+":32-35 (attn1.to_q, attn2.to_q, attn_temp), trained in place: partial fine-tuning, no adapters"),
},held_out=True,note=H42+"; README.md:60-65 'To fine-tune the text-to-image diffusion models for text-to-video generation, run this command: accelerate launch train_tuneavideo.py --config=\"configs/man-skiing.yaml\"' (argparse for the config path only, the YAML splatted into main(**OmegaConf.load(...)) whose keyword defaults fill what the YAML leaves out, a 2D Stable Diffusion UNet inflated to a UNet3DConditionModel with temporal attention, trainable modules chosen by name suffix, xformers attention, a one-video dataset; Tune-A-Video one-shot text-to-video tuning of Stable Diffusion v1-4, video generation). Not labelled: dist.world_size, dist.nodes, dist.devices_per_node, dist.sharding and batch.global (accelerate launch with no config file or process count: the machine's saved accelerate config or every visible GPU), model.ref and model.num_parameters ("+tvc+":1 a local ./checkpoints/stable-diffusion-v1-4, and the inflated 3D UNet's size is not stated)")
DP=("YanjieZe/3D-Diffusion-Policy","47385d9d6f5bde3f2ebdf2400ecb8261cc9e6b97")
dpd="3D-Diffusion-Policy"
dpc=dpd+"/diffusion_policy_3d/config/dp3.yaml"
dpt=dpd+"/train.py"
J("dp3-adroit-hammer-point-cloud-diffusion-policy-hydra-script-1gpu",*DP,["."],".",["scripts/train_policy.sh","--","dp3","adroit_hammer","0112","0","0"],{
 "dist.world_size":T(1,"scripts/train_policy.sh:42 plain python train.py: one process"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"scripts/train_policy.sh:22,41 CUDA_VISIBLE_DEVICES=0 (the fifth argument) and :47 training.device=cuda:0 -> "+dpt+":168-172 model/EMA/optimizer .to(cuda:0)"),
 "dist.sharding":T("none","no DDP/DataParallel"),
 "batch.micro":T(128,dpc+":80 dataloader.batch_size 128 -> "+dpt+":104 DataLoader(dataset, **cfg.dataloader)"),
 "batch.grad_accum":T(1,dpc+":108 training.gradient_accumulate_every 1 -> "+dpt+":196-204"),
 "batch.global":T(128,"128 x 1 x 1"),
 "precision.mode":T("fp32","no autocast, GradScaler or half()"),
 "optimizer.name":T("AdamW",dpc+":93-98 optimizer _target_ torch.optim.AdamW (lr 1e-4, betas 0.95, 0.999) -> "+dpt+":64-65 hydra.utils.instantiate",any_of=["AdamW","adamw"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,dpc+":81 dataloader.num_workers 8"),
 "data.pin_memory":T(True,dpc+":83 dataloader.pin_memory True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H42+"; README.md:101-105 'Train and evaluate a policy with behavior cloning. For example: bash scripts/train_policy.sh dp3 adroit_hammer 0112 0 0' (a shell script that cds into 3D-Diffusion-Policy/, sets CUDA_VISIBLE_DEVICES from its fifth argument and calls python train.py --config-name=dp3.yaml task=adroit_hammer hydra.run.dir=... training.seed=0 training.device=cuda:0 ...; @hydra.main with config_path built from pathlib.Path(__file__), an eval resolver registered on OmegaConf, a workspace class, policy/EMA/optimizer/dataset built by hydra.utils.instantiate, DataLoader(**cfg.dataloader), gradient accumulation by global_step modulo; 3D Diffusion Policy (point-cloud-conditioned DDIM policy) on the Adroit hammer task, robot learning / imitation). Not labelled: model.num_parameters (not stated)")
TS=("threestudio-project/threestudio","28d9d80d9d00f308244adfcf3be8b17ca0cb6465")
tsc="configs/dreamfusion-sd.yaml"
J("threestudio-dreamfusion-sd-nerf-sds-lightning-omegaconf-1gpu",*TS,["."],".",["launch.py","--","--config",tsc,"--train","--gpu","0",
 "system.prompt_processor.prompt=a zoomed out DSLR photo of a baby bunny sitting on top of a stack of pancakes"],{
 "dist.world_size":T(1,"--gpu 0 -> launch.py:118-121 CUDA_VISIBLE_DEVICES=0 and :114,228-233 Trainer(accelerator='gpu', devices=-1): the one visible GPU, one process"),
 "dist.nodes":T(1,"one process"),
 "dist.devices_per_node":T(1,"--gpu 0 -> launch.py:121 CUDA_VISIBLE_DEVICES=0"),
 "dist.sharding":T("none","one GPU"),
 "batch.micro":T(1,tsc+":8 data.batch_size 1 -> threestudio/data/uncond.py:72-73 one random camera view per step (the loader at :489-502 has batch_size=None and the dataset collates its own batch)"),
 "batch.grad_accum":T(1,"no accumulate_grad_batches in "+tsc+":102-108: Lightning default 1"),
 "batch.global":T(1,"1 x 1 x 1"),
 "precision.mode":T("amp_fp16",tsc+":108 trainer.precision 16-mixed -> launch.py:228-235 Trainer(**cfg.trainer)",any_of=["amp_fp16","fp16"]),
 "optimizer.name":T("Adam",tsc+":90-100 optimizer name Adam -> threestudio/systems/base.py:101-102 parse_optimizer -> threestudio/systems/utils.py:51-52 getattr(torch.optim, 'Adam') with geometry and background groups",any_of=["Adam","adam"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing in the NeRF geometry or the frozen Stable Diffusion guidance"),
 "data.num_workers":T(0,"threestudio/data/uncond.py:494 num_workers=0"),
 "data.pin_memory":T(False,"threestudio/data/uncond.py:490-497 DataLoader without pin_memory"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","a NeRF (hash-grid implicit volume) optimised from scratch; the Stable Diffusion 2.1 base guidance is frozen"),
},held_out=True,note=H42+"; README.md:156-157 'otherwise you could try with the Stable Diffusion model, which fits in 6GB VRAM: python launch.py --config configs/dreamfusion-sd.yaml --train --gpu 0 system.prompt_processor.prompt=\"a zoomed out DSLR photo of a baby bunny sitting on top of a stack of pancakes\"' (argparse with parse_known_args whose leftover dotlist overrides go to an OmegaConf structured ExperimentConfig with custom resolvers, CUDA_VISIBLE_DEVICES set from --gpu before Lightning is imported and devices=-1, system/geometry/guidance classes found in a string registry, an iterable random-camera dataset that builds its own batches, optimizer built by name with per-module parameter groups; DreamFusion text-to-3D by score distillation from Stable Diffusion 2.1 base into a NeRF, 3D generation). Not labelled: model.num_parameters (a hash-grid NeRF whose size follows from the encoding config, not stated), model.ref (the pre-trained model is only the frozen guidance), data.image_size (64x64 renders of a 3D scene, not images from a dataset)")
SK=("keyu-tian/SparK","a63e386f8e5186bc07ad7fce86e06b08f48a61ea")
skd="pretrain"
J("spark-resnet50-imagenet-sparse-masked-pretrain-tap-torchrun-8gpu",*SK,[skd],skd,["--","torchrun","--nproc_per_node=8","--nnodes=1","--node_rank=0",
 "--master_addr=localhost","--master_port=29500","main.py","--data_path=/path/to/imagenet","--exp_name=spark_r50","--exp_dir=/path/to/logdir",
 "--model=resnet50","--bs=512"],{
 "dist.world_size":T(8,skd+"/README.md:55 torchrun --nproc_per_node=8 --nnodes=1: 8 processes"),
 "dist.nodes":T(1,"--nnodes=1"),
 "dist.devices_per_node":T(8,"--nproc_per_node=8"),
 "dist.sharding":T("ddp",skd+"/main.py:70 DistributedDataParallel(model_without_ddp, device_ids=[local_rank])"),
 "batch.micro":T(64,"--bs=512 is the global batch ("+skd+"/README.md:50, utils/arg_util.py:33) -> utils/arg_util.py:120 batch_size_per_gpu = 512 // 8 -> sampler.py:22-27 DistInfiniteBatchSampler batch_size = glb_batch_size // world_size = 64"),
 "batch.grad_accum":T(1,skd+"/main.py:158-168 zero_grad, backward and step every iteration"),
 "batch.global":T(512,"64 x 1 x 8 ("+skd+"/utils/arg_util.py:121 glb_batch_size)"),
 "data.image_size":T(224,skd+"/utils/arg_util.py:29 input_size default 224"),
 "precision.mode":T("fp32","no autocast, GradScaler or half() in "+skd+"/main.py"),
 "optimizer.name":T("LAMB",skd+"/utils/arg_util.py:44 opt default 'lamb' -> main.py:76-81 lamb.TheSameAsTimmLAMB(betas=(0.9, 0.95 from arg_util.py:124))",any_of=["LAMB","Lamb","lamb","TheSameAsTimmLAMB"]),
 "memory.gradient_checkpointing":T(False,"no checkpointing"),
 "data.num_workers":T(8,skd+"/utils/arg_util.py:34 dataloader_workers default 8 -> main.py:47"),
 "data.pin_memory":T(True,skd+"/main.py:47 pin_memory=True"),
 "compile.enabled":T(False,"no torch.compile"),
 "peft.method":T("none","self-supervised pre-training from scratch"),
},held_out=True,note=H42+"; pretrain/README.md:52-58 'Here is an example to pretrain a ResNet50 on an 8-GPU single machine (we use DistributedDataParallel), overwriting the default batch size to 512: cd /path/to/SparK/pretrain; torchrun --nproc_per_node=8 --nnodes=1 --node_rank=0 --master_addr=localhost --master_port=<some_port> main.py --data_path=... --exp_name=... --exp_dir=... --model=resnet50 --bs=512' with the placeholders filled (a typed-argument-parser Tap class with '=' flags, --bs as the GLOBAL batch divided by the world size inside arg_util, an infinite distributed batch sampler, the encoder wrapped to run sparse convolutions on masked patches, an optimizer chosen from a dict by name; SparK sparse masked-modelling pre-training of a ResNet-50 on ImageNet-1k, vision self-supervised). Not labelled: model.num_parameters (a ResNet-50 encoder plus a light decoder whose size the repository does not state)")
VL=("PKU-YuanGroup/Video-LLaVA","984e65bf8e8fd97072258547c4c8061fdd2416b7")
vls="scripts/v1_5/finetune_lora.sh"
vlt="videollava/train/train.py"
vld="scripts/zero2_offload.json"
vlj="llava_all_image_video/ft_json"
J("video-llava-vicuna-7b-lora-stage2-deepspeed-zero2-offload",*VL,["."],".",["--","deepspeed","videollava/train/train_mem.py",
 "--lora_enable","True","--lora_r","128","--lora_alpha","256","--mm_projector_lr","2e-5","--deepspeed","./scripts/zero2_offload.json",
 "--model_name_or_path","lmsys/vicuna-7b-v1.5","--version","v1",
 "--data_path",vlj+"/llava_image_tune_.json",vlj+"/videochatgpt_tune_.json",vlj+"/nlp_tune.json",
 "--image_folder","llava_all_image_video","--image_tower","LanguageBind/LanguageBind_Image","--video_folder","llava_all_image_video",
 "--video_tower","LanguageBind/LanguageBind_Video_merge","--mm_projector_type","mlp2x_gelu",
 "--pretrain_mm_mlp_adapter","./checkpoints/videollava-7b-pretrain/mm_projector.bin","--mm_vision_select_layer","-2",
 "--mm_use_im_start_end","False","--mm_use_im_patch_token","False","--image_aspect_ratio","pad","--group_by_modality_length","True",
 "--bf16","True","--output_dir","./checkpoints/videollava-7b-lora","--num_train_epochs","1","--per_device_train_batch_size","16",
 "--per_device_eval_batch_size","4","--gradient_accumulation_steps","1","--evaluation_strategy","no","--save_strategy","steps",
 "--save_steps","50000","--save_total_limit","1","--learning_rate","2e-4","--weight_decay","0.","--warmup_ratio","0.03",
 "--lr_scheduler_type","cosine","--logging_steps","1","--tf32","True","--model_max_length","2048","--tokenizer_model_max_length","3072",
 "--gradient_checkpointing","True","--dataloader_num_workers","4","--lazy_preprocess","True","--report_to","tensorboard","--cache_dir","./cache_dir"],{
 "model.ref":T("lmsys/vicuna-7b-v1.5",vls+":11 --model_name_or_path",any_of=["lmsys/vicuna-7b-v1.5"]),
 "model.num_parameters":T(6738415616,"Vicuna-7B v1.5 (a Llama-2-7B fine-tune): 6.74B parameters in the language model (the LanguageBind image/video towers are frozen encoders on top)",rel_tol=0.1),
 "dist.sharding":T("zero2",vls+":10 --deepspeed ./scripts/zero2_offload.json -> "+vld+":16-17 zero_optimization stage 2",any_of=["zero2","zero_2","deepspeed_zero2"]),
 "dist.offload_optimizer":T("cpu",vld+":18-20 offload_optimizer device cpu"),
 "dist.overlap_comm":T(True,vld+":21"),
 "dist.contiguous_gradients":T(True,vld+":22"),
 "batch.micro":T(16,vls+":28 --per_device_train_batch_size 16"),
 "batch.grad_accum":T(1,vls+":30 --gradient_accumulation_steps 1"),
 "precision.mode":T("bf16",vls+":25 --bf16 True -> "+vlt+":960-962 the model cast to bfloat16 before the LoRA adapters (bits 16, :105-106), "+vld+":10-11 bf16 auto",any_of=["bf16","amp_bf16"]),
 "precision.weights_bits":T(16,vlt+":105-106 bits default 16 (no 4/8-bit loading)"),
 "optimizer.name":T("AdamW",vlt+":86 optim default 'adamw_torch' ("+vld+" has no optimizer section, so the Trainer builds it)",any_of=["AdamW","adamw","adamw_torch"]),
 "memory.gradient_checkpointing":T(True,vls+":42 --gradient_checkpointing True -> "+vlt+":942"),
 "data.num_workers":T(4,vls+":43 --dataloader_num_workers 4"),
 "compile.enabled":T(False,"no --torch_compile"),
 "peft.method":T("lora",vls+":9 --lora_enable True -> "+vlt+":950-966 LoraConfig on every linear layer of the language model + get_peft_model",any_of=["lora"]),
 "peft.rank":T(128,vls+":9 --lora_r 128"),
 "task.mode":T("lora","16-bit base + LoRA"),
},held_out=True,note=H42+"; TRAIN_AND_VALIDATE.md:149-151 'Stage 2 tuning script: finetune.sh or finetune_lora.sh': the deepspeed command of scripts/v1_5/finetune_lora.sh:8-46 with its JSON_FOLDER/IMAGE_FOLDER/VIDEO_FOLDER variables filled, run from the repository root (the script's own 'cd /path/to/Video-LLaVA' is a placeholder; deepspeed launcher with no --num_gpus/--include, train_mem.py monkey-patching LLaMA attention with flash-attn before importing the LLaVA-style train(), an HfArgumentParser over three dataclasses with a TrainingArguments subclass, LanguageBind image and video towers with an MLP projector loaded from stage 1, a LLaVATrainer with a modality-length grouped sampler and its own projector learning rate, ZeRO-2 with CPU optimizer offload; Video-LLaVA stage-2 visual instruction tuning of Vicuna-7B with LoRA on image, video and text instructions, multimodal LLM). Not labelled: dist.world_size, dist.nodes, dist.devices_per_node and batch.global (the deepspeed launcher with no --num_gpus or --include: every visible GPU), data.seq_len (--model_max_length 2048 text tokens while image/video patches are spliced in up to --tokenizer_model_max_length 3072, "+vlt+":1027-1028), data.pin_memory (the installed transformers' default), model.attn_implementation (videollava/train/llama_flash_attn_monkey_patch.py replaces LLaMA attention)")
