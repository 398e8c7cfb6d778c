--[[
preflight gate for Slurm: job_submit/lua (runs inside slurmctld for every submission).

Install (see docs/gate.md): `preflight gate --write-lua DIR --cluster CLUSTER.yaml` writes this
file with the settings below filled in; copy it beside slurm.conf, set
`JobSubmitPlugins=lua` and run `scontrol reconfigure`.

For each batch job it writes the script to a temporary file and runs
`preflight gate` on it with the job's resolved options (partition, constraint, nodes,
tasks, GPUs) and its working directory. Exit 0 admits; exit 1 rejects and the reasons
reach the user through slurm.log_user (sbatch prints them on stderr); anything else (a
crash, a timeout, exit 2) rejects too unless FAIL_OPEN is true.
--]]

local PREFLIGHT = "@PREFLIGHT@"   -- the command that runs preflight
local CLUSTER = "@CLUSTER@"       -- the cluster description file ("" = none)
local TIMEOUT = @TIMEOUT@         -- seconds before the gate gives up (coreutils `timeout`)
local FAIL_OPEN = @FAIL_OPEN@     -- admit when the gate itself fails (default: reject)

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
  if work_dir ~= nil then cmd = cmd .. " --root " .. quote(work_dir) end
  cmd = cmd .. " " .. quote(script_path) .. " --"
  for _, o in ipairs(opts) do cmd = cmd .. " " .. quote(o) end
  if work_dir ~= nil then cmd = "cd " .. quote(work_dir) .. " 2>/dev/null; " .. cmd end
  local pipe = io.popen("(" .. cmd .. ") 2>&1; echo \"preflight-exit=$?\"")
  local output = pipe:read("*a")
  pipe:close()
  local code = tonumber(output:match("preflight%-exit=(%d+)%s*$")) or 255
  output = output:gsub("preflight%-exit=%d+%s*$", "")
  return code, output
end

function slurm_job_submit(job_desc, part_list, submit_uid)
  if job_desc.script == nil or job_desc.script == "" then
    return slurm.SUCCESS -- salloc / srun: no batch script to read
  end
  local path = os.tmpname()
  local f = io.open(path, "w")
  f:write(job_desc.script)
  f:close()
  local code, output = run_gate(path, job_desc.work_dir, options(job_desc))
  os.remove(path)
  output = output:gsub(path:gsub("%p", "%%%0"), "batch script")
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
  local why = (code == 124) and ("timed out after " .. TIMEOUT .. " s") or ("exit " .. code)
  if FAIL_OPEN then
    slurm.log_user("preflight gate could not check this job (%s); admitted", why)
    return slurm.SUCCESS
  end
  slurm.log_user("preflight gate could not check this job (%s):\n%s", why, output)
  return slurm.ERROR
end

function slurm_job_modify(job_desc, job_rec, part_list, modify_uid)
  return slurm.SUCCESS
end

return slurm.SUCCESS
