--[[
preflight gate for Slurm: cli_filter/lua (runs in sbatch, as the user, before submission).

Install (see docs/gate.md): `preflight gate --write-lua DIR --cluster CLUSTER.yaml` writes this
file; copy it beside slurm.conf and set `CliFilterPlugins=lua`. It runs on the client,
so a user can bypass it (another SLURM_CONF); job_submit.lua is the enforcing gate, this
one gives the same answer earlier, with the submitting shell's files and options.

sbatch has already merged its command line, SBATCH_* variables and the script's
#SBATCH directives into `options`; they are passed to `preflight gate` as command-line
options (which win over the directives it reads again from the script).
--]]

local PREFLIGHT = "@PREFLIGHT@"
local CLUSTER = "@CLUSTER@"
local TIMEOUT = @TIMEOUT@
local FAIL_OPEN = @FAIL_OPEN@     -- the cluster file's policy.on_failure: admit
local CONTACT = "@CONTACT@"       -- the cluster file's contact

local OPTIONS = { "partition", "constraint", "nodes", "ntasks", "ntasks-per-node", "gres", "gpus",
                  "gpus-per-node", "gpus-per-task" }

local function quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

function slurm_cli_setup_defaults(options, early_pass)
  return slurm.SUCCESS
end

function slurm_cli_pre_submit(options, pack_offset)
  if options.type ~= "sbatch" then return slurm.SUCCESS end
  local argv = options.argv
  local script = argv and argv[1]
  if script == nil or options.wrap ~= nil then
    return slurm.SUCCESS -- --wrap or a script on stdin: job_submit.lua reads those
  end
  local cmd = "timeout " .. TIMEOUT .. " " .. PREFLIGHT .. " gate --kind slurm"
  if CLUSTER ~= "" then cmd = cmd .. " --cluster " .. quote(CLUSTER) end
  cmd = cmd .. " " .. quote(script) .. " --"
  for _, name in ipairs(OPTIONS) do
    local value = options[name]
    if value ~= nil and value ~= "" and value ~= "0" then
      value = tostring(value):gsub("^gres:", ""):gsub(",gres:", ",")
      cmd = cmd .. " " .. quote("--" .. name .. "=" .. value)
    end
  end
  local pipe = io.popen("(" .. cmd .. ") 2>&1; echo \"preflight-exit=$?\"")
  if pipe == nil then return slurm.SUCCESS end -- advisory: job_submit.lua decides
  local output = pipe:read("*a") or ""
  pipe:close()
  local code = tonumber(output:match("preflight%-exit=(%d+)%s*$")) or 255
  output = output:gsub("preflight%-exit=%d+%s*$", "")
  if code == 0 then
    if output:find("warning: ", 1, true) then
      slurm.log_info("%s", output) -- admitted, with warnings the user should see
    end
    return slurm.SUCCESS
  end
  if code == 1 then
    slurm.log_error("%s", output)
    return slurm.ERROR
  end
  local why = (code == 124 or code == 137) and ("timed out after " .. TIMEOUT .. " s") or ("exit " .. code)
  local whom = CONTACT ~= "" and CONTACT or "the cluster's administrators"
  if FAIL_OPEN then
    slurm.log_error("preflight gate could not check this job (%s); submitting anyway (on_failure: admit). "
                    .. "If this persists, tell %s.", why, whom)
    return slurm.SUCCESS
  end
  slurm.log_error("preflight gate could not check this job (%s); not submitted (on_failure: reject). "
                  .. "If this persists, tell %s.\n%s", why, whom, output)
  return slurm.ERROR
end

function slurm_cli_post_submit(offset, job_id, step_id)
  return slurm.SUCCESS
end
