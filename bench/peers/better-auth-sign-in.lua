-- Better Auth's POST /api/auth/sign-in/email, rotating over users (emails in BENCH_EMAILS, one password): the
-- pattern of bench/sign-in.lua.
package.path = "bench/?.lua;" .. package.path
local common = require("common")
local emails = common.lines(os.getenv("BENCH_EMAILS"))
local password = os.getenv("BENCH_PASSWORD")
local i = math.random(1, #emails)
local headers = { ["content-type"] = "application/json" }
request = function()
  i = i % #emails + 1
  return wrk.format("POST", "/api/auth/sign-in/email", headers, '{"email":"' .. emails[i] .. '","password":"' .. password .. '"}')
end
done = common.summary
