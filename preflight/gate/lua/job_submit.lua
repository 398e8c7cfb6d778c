--[[
preflight gate for Slurm: job_submit/lua (runs inside slurmctld for every submission).

Install (see docs/gate.md): `preflight gate --write-lua DIR --cluster CLUSTER.yaml` writes this
file with the settings below filled in; copy it beside slurm.conf, set
`JobSubmitPlugins=lua` and run `scontrol reconfigure`.

For each batch job it writes the script to a temporary file and runs
`preflight gate` on it with the job's resolved options (partition, constraint, nodes,
tasks, GPUs); the job's working directory is passed with --root (the gate reads the
training script and configs there). The gate runs isolated from that directory: `python -I`
(no current directory, PYTHONPATH or user site on sys.path) started from `/`, so nothing the
submitter put beside the job (an `argparse.py`, a `*.dist-info` plugin) is imported.

Exit 0 admits; exit 1 rejects and the reasons reach the user through slurm.log_user
(sbatch prints them on stderr). Anything else (a crash, a timeout, exit 2, a temporary
file that cannot be written) is a gate failure: FAIL_OPEN (the cluster file's
`policy.on_failure`, filled in by --write-lua) decides; the default rejects, and the
message names CONTACT (the cluster file's `contact`).
--]]

local PREFLIGHT = "@PREFLIGHT@"   -- the command that runs preflight
local CLUSTER = "@CLUSTER@"       -- the cluster description file ("" = none)
local TIMEOUT = @TIMEOUT@         -- seconds before the gate gives up (coreutils `timeout`)
local FAIL_OPEN = @FAIL_OPEN@     -- admit when the gate itself fails (policy.on_failure: admit); default reject
local CONTACT = "@CONTACT@"       -- whom a user asks when the gate fails (the cluster file's `contact`)

local NO_VAL = 4294967294
local NO_VAL16 = 65534

local function quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

local function set(v)
  return v ~= nil and v ~= NO_VAL and v ~= NO_VAL16 and v ~= "" and v ~= 0
end

-- "gres:gpu:a100:2,gres:nic:1" -> {"gpu:a100:2", "nic:1"}
local function tres_items(value)
  local out = {}
  if value == nil then return out end
  for item in string.gmatch(value, "[^,]+") do
    out[#out + 1] = (item:gsub("^gres[:/]", ""))
  end
  return out
end

local function options(job_desc)
  local args = {}
  if job_desc.partition ~= nil then args[#args + 1] = "--partition=" .. job_desc.partition end
  if job_desc.features ~= nil then args[#args + 1] = "--constraint=" .. job_desc.features end
  if set(job_desc.min_nodes) then
    local nodes = tostring(job_desc.min_nodes)
    if set(job_desc.max_nodes) and job_desc.max_nodes ~= job_desc.min_nodes then
      nodes = nodes .. "-" .. tostring(job_desc.max_nodes)
    end
    args[#args + 1] = "--nodes=" .. nodes
  end
  if set(job_desc.ntasks_per_node) then args[#args + 1] = "--ntasks-per-node=" .. job_desc.ntasks_per_node end
  if set(job_desc.num_tasks) then args[#args + 1] = "--ntasks=" .. job_desc.num_tasks end
  for _, item in ipairs(tres_items(job_desc.tres_per_node)) do args[#args + 1] = "--gres=" .. item end
  for _, item in ipairs(tres_items(job_desc.tres_per_job)) do
    if item:match("^gpu") then args[#args + 1] = "--gpus=" .. item:gsub("^gpu:?", "") end
  end
  for _, item in ipairs(tres_items(job_desc.tres_per_task)) do
    if item:match("^gpu") then args[#args + 1] = "--gpus-per-task=" .. item:gsub("^gpu:?", "") end
  end
  return args
end

local function run_gate(script_path, work_dir, opts)
  local cmd = "timeout " .. TIMEOUT .. " " .. PREFLIGHT .. " gate --kind slurm"
  if CLUSTER ~= "" then cmd = cmd .. " --cluster " .. quote(CLUSTER) end
  cmd = cmd .. " --root " .. quote(work_dir)
  -- the script on standard input: its temporary directory is not one of the job's directories
  cmd = cmd .. " - --"
  for _, o in ipairs(opts) do cmd = cmd .. " " .. quote(o) end
  -- never from the job's directory: nothing there may shadow what preflight imports
  cmd = "cd / && " .. cmd .. " < " .. quote(script_path)
  local pipe = io.popen("(" .. cmd .. ") 2>&1; echo \"preflight-exit=$?\"")
  if pipe == nil then return 255, "cannot start the gate" end
  local output = pipe:read("*a") or ""
  pipe:close()
  local code = tonumber(output:match("preflight%-exit=(%d+)%s*$")) or 255
  output = output:gsub("preflight%-exit=%d+%s*$", "")
  return code, output
end

-- The gate did not answer (crash, timeout, exit 2, no temporary file): the failure policy decides.
local function gate_failed(why, output, submit_uid)
  local whom = CONTACT ~= "" and CONTACT or "the cluster's administrators"
  if FAIL_OPEN then
    slurm.log_user("preflight gate could not check this job (%s); admitted by the cluster's failure policy "
                   .. "(on_failure: admit). If this persists, tell %s.", why, whom)
    slurm.log_info("preflight gate: failed (%s) for job of uid %u; admitted (on_failure: admit)",
                   why, submit_uid or 0)
    return slurm.SUCCESS
  end
  slurm.log_user("preflight gate could not check this job (%s); rejected by the cluster's failure policy "
                 .. "(on_failure: reject). Submit again later; if this persists, tell %s.\n%s",
                 why, whom, output or "")
  slurm.log_info("preflight gate: failed (%s) for job of uid %u; rejected (on_failure: reject)",
                 why, submit_uid or 0)
  return slurm.ERROR
end

local function check(job_desc, submit_uid)
  local path = os.tmpname()
  local f = io.open(path, "w")
  if f == nil then
    return gate_failed("cannot write the batch script to a temporary file", "", submit_uid)
  end
  f:write(job_desc.script)
  f:close()
  local code, output = run_gate(path, job_desc.work_dir, options(job_desc))
  os.remove(path)
  output = output:gsub("<stdin>", "batch script")
  if code == 0 then
    if output:find("warning: ", 1, true) then
      slurm.log_user("%s", output) -- admitted, with warnings the user should see
    end
    slurm.log_info("preflight gate: admitted job of uid %u", submit_uid)
    return slurm.SUCCESS
  end
  if code == 1 then
    slurm.log_user("%s", output)
    slurm.log_info("preflight gate: rejected job of uid %u", submit_uid)
    return slurm.ERROR
  end
  local why = (code == 124 or code == 137) and ("timed out after " .. TIMEOUT .. " s") or ("exit " .. code)
  return gate_failed(why, output, submit_uid)
end

function slurm_job_submit(job_desc, part_list, submit_uid)
  if job_desc.script == nil or job_desc.script == "" then
    return slurm.SUCCESS -- salloc / srun: no batch script to read
  end
  if job_desc.work_dir == nil or job_desc.work_dir == "" then
    -- sbatch always sends one; without it the gate would have no directory to confine reads to
    return gate_failed("the job has no working directory", "", submit_uid)
  end
  local ok, result = pcall(check, job_desc, submit_uid)
  if ok then return result end
  return gate_failed("error in job_submit.lua: " .. tostring(result), "", submit_uid)
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  return slurm.SUCCESS
end

return slurm.SUCCESS
