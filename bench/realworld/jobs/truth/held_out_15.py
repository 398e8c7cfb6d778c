"""The fifteenth held-out set of the jobs benchmark (run.py --set held-out-15): expert truth
written by hand, one J(...) per job."""
from .core import J, T

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
