-- The refresh grant exactly as the SDK sends it (form-encoded, client_secret_post), rotating refresh tokens.
package.path = "bench/?.lua;" .. package.path
local common = require("common")
local tokens = common.lines(os.getenv("BENCH_TOKENS"))
local project, pck = os.getenv("BENCH_PROJECT"), os.getenv("BENCH_PCK")
local i = math.random(1, #tokens)
local headers = { ["accept"] = "application/json", ["content-type"] = "application/x-www-form-urlencoded;charset=UTF-8" }
request = function()
  i = i % #tokens + 1
  local body = "grant_type=refresh_token&refresh_token=" .. tokens[i] .. "&client_id=" .. project .. "&client_secret=" .. pck
  return wrk.format("POST", "/api/v1/auth/oauth/token", headers, body)
end
done = common.summary
