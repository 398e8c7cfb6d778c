"""The tenth held-out set of the jobs benchmark (run.py --set held-out-10): expert truth
written by hand, one J(...) per job."""
from .core import J, T

H10="tenth held-out set"
MD=("kuleshov-group/mdlm","c112c526d193436838c98d81455ee51f90309470")
mds="scripts/train_owt_mdlm.sh"
mdc="configs/config.yaml"
J("mdlm-owt-small-sbatch-lightning",*MD,["scripts","configs","main.py","diffusion.py","dataloader.py","models","noise_schedule.py","utils.py","README.md","requirements.yaml"],".",
 [mds],{
 "model.num_parameters":T(169627218,mds+":21 model=small -> configs/model/small.yaml:3-9 hidden 768, 12 blocks, cond_dim 128, untied -> models/dit.py:324-350 DIT (vocab 50257 gpt2 + 1 mask token, diffusion.py:78-88): 169.6M",rel_tol=0.1),
 "dist.nodes":T(1,mds+":4 #SBATCH -N 1"),
 "dist.devices_per_node":T(4,mds+":11-12 --ntasks-per-node=4, --gres=gpu:4 -> "+mdc+":67 devices ${device_count:} = 4"),
 "dist.world_size":T(4,mds+":4,11-12 one node x 4 srun tasks (Lightning SLURM environment)"),
 "dist.sharding":T("ddp",mdc+":6 /strategy: ddp -> configs/strategy/ddp.yaml:1 DDPStrategy -> main.py:177-181"),
 "batch.micro":T(16,mds+":19 loader.batch_size=16 -> dataloader.py:573-575"),
 "batch.global":T(512,mdc+":21 loader.global_batch_size 512 (not overridden)"),
 "batch.grad_accum":T(8,mdc+":68 accumulate_grad_batches = div_up(512, devices 4 * batch 16 * nodes 1) = 8 (dataloader.py:528-532 asserts it)"),
 "data.seq_len":T(1024,mds+":25 model.length=1024 -> dataloader.py:552 block_size (train set)"),
 "precision.mode":T("amp_bf16",mdc+":70 trainer.precision 'bf16' (Lightning 2: alias of bf16-mixed; fp32 weights, bf16 autocast)"),
 "memory.gradient_checkpointing":T(False,"models/dit.py: no activation checkpointing anywhere"),
 "optimizer.name":T("AdamW","diffusion.py:454 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.pin_memory":T(True,mdc+":27 -> dataloader.py:577"),
 "compile.enabled":T(False,"no torch.compile in the repository (only TorchScript fusion flags, noise_schedule.py:6-10)"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H10+"; sbatch scripts/train_owt_mdlm.sh from the repository root (srun python -u -m main, Hydra + Lightning). data.num_workers not labelled: config.yaml:26 len(os.sched_getaffinity(0)) is runtime")
F5=("SWivid/F5-TTS","2ae2c9bd9b64dab2cb069c4b97e5e7673c521e01")
f5c="src/f5_tts/configs/F5TTS_v1_Base.yaml"
f5t="src/f5_tts/model/trainer.py"
J("f5tts-v1-base-accelerate-hydra",*F5,["src/f5_tts","data/Emilia_ZH_EN_pinyin","pyproject.toml","README.md"],".",
 ["--","accelerate","launch","--mixed_precision=fp16","src/f5_tts/train/train.py","--config-name","F5TTS_v1_Base.yaml",
  "++datasets.batch_size_per_gpu=19200"],{
 "model.num_parameters":T(337096804,f5c+":24-37 DiT dim 1024, depth 22, heads 16 (dim_head 64), ff_mult 2, text_dim 512, 4 ConvNeXt layers -> src/f5_tts/model/backbones/dit.py:170-231 + modules.py (text vocab 2545, data/Emilia_ZH_EN_pinyin/vocab.txt): 337.1M",rel_tol=0.1),
 "batch.grad_accum":T(1,f5c+":16 grad_accumulation_steps 1 -> "+f5t+":66"),
 "precision.mode":T("amp_fp16","src/f5_tts/train/README.md:53 accelerate launch --mixed_precision=fp16 ("+f5t+":63-68 Accelerator without a mixed_precision argument): fp32 weights, fp16 autocast"),
 "memory.gradient_checkpointing":T(False,f5c+":37 checkpoint_activations False -> backbones/dit.py:233,358"),
 "optimizer.name":T("AdamW",f5c+":18 bnb_optimizer False -> "+f5t+":143 torch.optim.AdamW(fused=True)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(16,f5c+":10 -> src/f5_tts/train/train.py:75 -> "+f5t+":306"),
 "data.pin_memory":T(True,f5t+":307"),
 "peft.method":T("none","pretraining from scratch"),
},held_out=True,note=H10+"; src/f5_tts/train/README.md:53 from the repository root (Hydra --config-name with config_path from importlib.resources, train.py:17). Not labelled: world size and sharding (accelerate default config written by `accelerate config`, README.md:47), batch.micro and seq_len (frame-wise batches: 19200 mel frames per GPU, up to 64 samples, "+f5c+":7-9)")
SW=("microsoft/Swin-Transformer","f82860bfb5225915aca09c3227159ee9e1df874d")
swc="configs/swin/swin_base_patch4_window7_224.yaml"
J("swin-b-imagenet-8gpu-ddp",*SW,["main.py","config.py","configs/swin","models","data","optimizer.py","lr_scheduler.py","utils.py","logger.py","get_started.md","README.md"],".",
 ["--","python","-m","torch.distributed.launch","--nproc_per_node","8","--master_port","12345","main.py","--cfg",swc,
  "--data-path","/data/imagenet","--batch-size","64","--accumulation-steps","2","--use-checkpoint"],{
 "model.ref":T("swin_base_patch4_window7_224",swc+":3 MODEL.NAME (TYPE swin) -> models/build.py"),
 "model.num_parameters":T(87768224,swc+":6-9 embed 128, depths 2-2-18-2, heads 4-8-16-32, window 7, 1000 classes: 88M (README.md:116)",rel_tol=0.1),
 "dist.world_size":T(8,"get_started.md:192 --nproc_per_node 8 (one node)"),
 "dist.sharding":T("ddp","main.py:107 DistributedDataParallel"),
 "batch.micro":T(64,"get_started.md:193 --batch-size 64 -> config.py:296-297 -> data/build.py:68-71 per-process DataLoader with DistributedSampler"),
 "batch.grad_accum":T(2,"get_started.md:194 --accumulation-steps 2 -> config.py:308-309 -> main.py:199-203"),
 "precision.mode":T("amp_fp16","config.py:244 AMP_ENABLE True (no --disable_amp) -> main.py:193 torch.cuda.amp.autocast (fp16) + GradScaler (utils.py NativeScalerWithGradNormCount)"),
 "memory.gradient_checkpointing":T(True,"get_started.md:194 --use-checkpoint -> config.py:310-311 TRAIN.USE_CHECKPOINT"),
 "optimizer.name":T("AdamW","config.py:185 adamw -> optimizer.py:46-47 optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"config.py:43 -> data/build.py:72"),
 "data.pin_memory":T(True,"config.py:41 -> data/build.py:73"),
 "data.image_size":T(224,"config.py:32 IMG_SIZE 224 (not set in "+swc+")"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H10+"; get_started.md:192-194 Swin-B on ImageNet-1K, 8 GPUs, with the optional --use-checkpoint chosen (data path filled)")
DW=("huggingface/distil-whisper","cc96130f6e4cc74cab4545f3c6e7e5c204ced871")
dwt="run_distillation.py"
J("distil-whisper-large-v3-distill-accelerate",*DW,["training"],"training",
 ["--","accelerate","launch",dwt,"--model_name_or_path","./distil-large-v3-init","--teacher_model_name_or_path","openai/whisper-large-v3",
  "--train_dataset_name","../common_voice_16_1_hi_pseudo_labelled+../common_voice_16_1_hi_pseudo_labelled","--train_split_name","train+validation",
  "--text_column_name","sentence+sentence","--train_dataset_samples","7+4","--eval_dataset_name","../common_voice_16_1_hi_pseudo_labelled",
  "--eval_split_name","test","--eval_text_column_name","sentence","--eval_steps","1000","--save_steps","1000","--warmup_steps","50",
  "--learning_rate","0.0001","--lr_scheduler_type","constant_with_warmup","--timestamp_probability","0.2","--condition_on_prev_probability","0.2",
  "--language","hi","--task","transcribe","--logging_steps","25","--save_total_limit","1","--max_steps","5000","--wer_threshold","20",
  "--per_device_train_batch_size","32","--per_device_eval_batch_size","32","--dataloader_num_workers","8","--preprocessing_num_workers","8",
  "--ddp_timeout","7200","--dtype","bfloat16","--attn_implementation","sdpa","--output_dir","./","--do_train","--do_eval",
  "--gradient_checkpointing","--overwrite_output_dir","--predict_with_generate","--freeze_encoder","--freeze_embed_positions",
  "--streaming","False","--push_to_hub"],{
 "model.ref":T("./distil-large-v3-init","README.md:250 --model_name_or_path (student made by create_student_model.py, README.md step 2)",any_of=["./distil-large-v3-init","distil-large-v3-init"]),
 "batch.micro":T(32,"README.md:272 -> "+dwt+":1345,1589-1592 per-process DataLoader"),
 "batch.grad_accum":T(1,"Seq2SeqTrainingArguments gradient_accumulation_steps default 1 (not given) -> "+dwt+":808-809"),
 "precision.mode":T("amp_bf16","README.md:277 --dtype bfloat16 -> "+dwt+":801-810 Accelerator(mixed_precision='bf16'): fp32 student weights, bf16 autocast (teacher frozen in bf16, :991)"),
 "memory.gradient_checkpointing":T(True,"README.md:282 -> "+dwt+":1014-1015; :1023-1025 --freeze_encoder turns it off for the encoder only; :1034-1039 (--freeze_embed_positions) only logs, the decoder keeps it"),
 "optimizer.name":T("AdamW",dwt+":1402 torch.optim.AdamW",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"README.md:274 -> "+dwt+":1109,1593"),
 "data.pin_memory":T(True,"TrainingArguments dataloader_pin_memory default True -> "+dwt+":1595"),
 "model.attn_implementation":T("sdpa","README.md:278 -> "+dwt+":1003"),
 "peft.method":T("none","full training of the student decoder (encoder frozen, :1023-1024); no PEFT"),
},held_out=True,note=H10+"; training/README.md:249-288 run from training/ (speech distillation, Accelerate loop). Not labelled: world size (accelerate default config), model size (student config made locally by create_student_model.py), sequence lengths (audio)")
MC=("ise-uiuc/magicoder","3ef43f0feaa2a48c3bb86d0b1f0d4482912d2e18")
mcw="src/magicoder/llm_wrapper.py"
J("magicoder-ds-6.7b-accelerate-trainer",*MC,["src","pyproject.toml","README-DEV.md","README.md"],".",
 ["--","accelerate","launch","-m","magicoder.train","--model_key","deepseek-ai/deepseek-coder-6.7b-base","--use_flash_attention","True",
  "--max_training_seq_length","1216","--datafile_paths","data-oss_instruct-decontaminated.jsonl","--output_dir","magicoder-out","--bf16","True",
  "--num_train_epochs","2","--per_device_train_batch_size","2","--gradient_accumulation_steps","128","--group_by_length","False",
  "--ddp_find_unused_parameters","False","--logging_steps","1","--log_level","info","--optim","adafactor","--max_grad_norm","-1",
  "--warmup_steps","15","--learning_rate","5e-5","--lr_scheduler_type","linear"],{
 "model.ref":T("deepseek-ai/deepseek-coder-6.7b-base","README-DEV.md:65 --model_key $MODEL_KEY (filled with "+mcw+":347, the base of Magicoder-DS-6.7B, README.md:49) -> src/magicoder/train.py:141-143,177-183"),
 "batch.micro":T(2,"README-DEV.md:73"),
 "batch.grad_accum":T(128,"README-DEV.md:74"),
 "data.seq_len":T(1216,"README-DEV.md:67 --max_training_seq_length 1216 -> src/magicoder/train.py:63-65 truncation"),
 "precision.mode":T("bf16",mcw+":411,417-420 from_pretrained(torch_dtype=torch.bfloat16) trained as loaded (README-DEV.md:71 --bf16 True adds autocast): bf16 weights"),
 "memory.gradient_checkpointing":T(False,"TrainingArguments default, --gradient_checkpointing not given"),
 "optimizer.name":T("adafactor","README-DEV.md:79 --optim adafactor"),
 "model.attn_implementation":T("flash_attention_2","README-DEV.md:66 --use_flash_attention True -> src/magicoder/train.py:182 -> "+mcw+":415-416 use_flash_attention_2"),
 "peft.method":T("none","full fine-tuning (src/magicoder/train.py:189-197 Trainer on the whole model)"),
},held_out=True,note=H10+"; README-DEV.md:64-83 (accelerate launch -m magicoder.train, HF Trainer + HfArgumentParser dataclasses), $MODEL_KEY and paths filled. World size and sharding not labelled: accelerate default config (CUDA_VISIBLE_DEVICES chosen by the user, README-DEV.md:61)")
FA=("FlagAlpha/Llama2-Chinese","e789431453ecbee9d8c5d466351765bc3718ed60")
fas="finetune_lora.sh"
fap="finetune_clm_lora.py"
fad="ds_config_zero2.json"
J("llama2-chinese-7b-qlora-deepspeed-zero2",*FA,["train/sft"],"train/sft",
 [fas],{
 "model.ref":T("meta-llama/Llama-2-7b-chat-hf",fas+":8"),
 "dist.world_size":T(2,fas+":7 deepspeed --include localhost:1,0 --num_gpus 2"),
 "dist.sharding":T("zero2",fas+":43 --deepspeed "+fad+" -> "+fad+":32 stage 2"),
 "dist.offload_optimizer":T("cpu",fad+":33-36"),
 "dist.offload_params":T("none",fad+":37-40 offload_param is a ZeRO-3 setting; stage 2 ignores it"),
 "dist.allgather_bucket_size":T(500000000,fad+":42 5e8"),
 "dist.reduce_bucket_size":T(500000000,fad+":45 5e8"),
 "batch.micro":T(1,fas+":13"),
 "batch.grad_accum":T(8,fas+":22"),
 "data.seq_len":T(2048,fas+":40 --block_size 2048 -> "+fap+":502,507 truncation max_length=block_size"),
 "precision.mode":T("bf16",fas+":45 --bf16 with DeepSpeed ("+fad+" has only fp16 auto: off) and 4-bit weights computing in bf16 ("+fap+":440)",any_of=["bf16","amp_bf16"]),
 "precision.weights_bits":T(4,fas+":25 --load_in_bits 4 -> "+fap+":436-437,459"),
 "precision.quant_type":T("nf4",fap+":439"),
 "precision.double_quant":T(True,fap+":438"),
 "memory.gradient_checkpointing":T(True,fas+":46 --gradient_checkpointing (and "+fap+":477-478 prepare_model_for_kbit_training)"),
 "optimizer.name":T("AdamW",fad+":10-11 DeepSpeed optimizer AdamW",any_of=["AdamW","adamw"]),
 "peft.method":T("lora",fap+":423-434 LoraConfig -> :605 get_peft_model"),
 "peft.rank":T(8,fas+":26 --lora_r 8 -> "+fap+":424"),
 "task.mode":T("qlora","4-bit nf4 base + LoRA"),
},held_out=True,note=H10+"; bash finetune_lora.sh from train/sft (deepspeed launcher, HF Trainer + bitsandbytes 4-bit + PEFT LoRA, ZeRO-2 with CPU optimizer offload)")
VT=("jaywalnut310/vits","2e561ba58618d021b5b8323d3765880f7e0ecfdb")
vtc="configs/ljs_base.json"
J("vits-ljspeech-plain-python",*VT,["train.py","utils.py","models.py","modules.py","attentions.py","commons.py","data_utils.py","losses.py","mel_processing.py","transforms.py","text","configs","monotonic_align","README.md","requirements.txt"],".",
 ["--","python","train.py","-c",vtc,"-m","ljs_base"],{
 "dist.sharding":T("ddp","train.py:99-100 DDP on the generator and the discriminator (mp.spawn, one process per GPU, :45-50)"),
 "batch.micro":T(64,vtc+":10 batch_size -> train.py:67-76 DistributedBucketSampler batches of 64 per replica (data_utils.py:305-308)"),
 "batch.grad_accum":T(1,"train.py:137-194 backward and scaler.step every batch (:172-176, :189-193)"),
 "precision.mode":T("amp_fp16",vtc+":11 fp16_run true -> train.py:142 autocast + :113 GradScaler"),
 "memory.gradient_checkpointing":T(False,"no checkpointing in models.py"),
 "optimizer.name":T("AdamW","train.py:89-98 torch.optim.AdamW (generator and discriminator)",any_of=["AdamW","adamw"]),
 "data.num_workers":T(8,"train.py:75"),
 "data.pin_memory":T(True,"train.py:75"),
 "peft.method":T("none","training from scratch"),
},held_out=True,note=H10+"; README.md:50 python train.py -c configs/ljs_base.json -m ljs_base (speech; world size = torch.cuda.device_count() at run time, train.py:45, not knowable; model size not labelled)")
EM=("baaivision/Emu3","f6ea9aaa44bd4ae5d7a048300cf0a16a863b0cae")
ems="scripts/t2i_sft.sh"
emz="scripts/zero3.json"
emt="emu3/train/train.py"
J("emu3-gen-t2i-sft-torchrun-zero3",*EM,["scripts","emu3","requirements.txt","README.md"],".",
 [ems],{
 "model.ref":T("BAAI/Emu3-Gen",ems+":20"),
 "dist.nodes":T(1,ems+":3 WORLD_SIZE default 1 -> :15 --nnodes"),
 "dist.sharding":T("zero3",ems+":21 --deepspeed "+emz+" -> "+emz+":17 stage 3"),
 "dist.offload_optimizer":T("none",emz+":16-27 no offload_optimizer"),
 "dist.offload_params":T("none",emz+":16-27 no offload_param"),
 "dist.stage3_max_live_parameters":T(1000000000,emz+":24 1e9"),
 "batch.micro":T(2,ems+":32"),
 "batch.grad_accum":T(4,ems+":33"),
 "data.seq_len":T(10240,ems+":27 --max_position_embeddings 10240 -> "+emt+":58,73 tokenizer model_max_length -> emu3/train/datasets.py:44-46 padding to max_length"),
 "precision.mode":T("bf16",ems+":29 --bf16 True -> "+emz+":10-11 bf16 auto (on) and "+emt+":68 torch_dtype bfloat16: DeepSpeed bf16"),
 "memory.gradient_checkpointing":T(True,ems+":48"),
 "optimizer.name":T("adamw_torch","TrainingArguments optim default; no optimizer block in "+emz,any_of=["adamw_torch","adamw_torch_fused","adamw_hf","AdamW","adamw"]),
 "model.attn_implementation":T("flash_attention_2",emt+":37 attn_type default fa2 -> :67"),
 "data.num_workers":T(4,ems+":49"),
 "peft.method":T("none","full fine-tuning"),
},held_out=True,note=H10+"; bash scripts/t2i_sft.sh from the repository root (torchrun + HF Trainer + DeepSpeed ZeRO-3). World size not labelled: NGPUS=$(python -c 'torch.cuda.device_count()') at :7 is runtime; model size needs the hub config (BAAI/Emu3-Gen)")
