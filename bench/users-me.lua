-- GET /api/v1/users/me as a client, rotating over many users' access tokens (one per line in BENCH_TOKENS).
package.path = "bench/?.lua;" .. package.path
local common = require("common")
local tokens = common.lines(os.getenv("BENCH_TOKENS"))
local project, pck = os.getenv("BENCH_PROJECT"), os.getenv("BENCH_PCK")
local i = math.random(1, #tokens)
request = function()
  i = i % #tokens + 1
  return wrk.format("GET", "/api/v1/users/me", {
    ["x-stack-project-id"] = project, ["x-stack-access-type"] = "client",
    ["x-stack-publishable-client-key"] = pck, ["x-stack-access-token"] = tokens[i],
  })
end
done = common.summary
