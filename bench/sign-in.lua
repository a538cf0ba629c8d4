-- POST /api/v1/auth/password/sign-in as a client, rotating over users (emails in BENCH_EMAILS, one password).
package.path = "bench/?.lua;" .. package.path
local common = require("common")
local emails = common.lines(os.getenv("BENCH_EMAILS"))
local project, pck, password = os.getenv("BENCH_PROJECT"), os.getenv("BENCH_PCK"), os.getenv("BENCH_PASSWORD")
local i = math.random(1, #emails)
local headers = {
  ["content-type"] = "application/json", ["x-stack-project-id"] = project,
  ["x-stack-access-type"] = "client", ["x-stack-publishable-client-key"] = pck,
}
request = function()
  i = i % #emails + 1
  return wrk.format("POST", "/api/v1/auth/password/sign-in", headers,
    '{"email":"' .. emails[i] .. '","password":"' .. password .. '"}')
end
done = common.summary
