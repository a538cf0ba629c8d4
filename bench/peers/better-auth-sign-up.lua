-- Better Auth's POST /api/auth/sign-up/email, a new email address per request (one password): the pattern of
-- bench/sign-up.lua (Better Auth requires a name).
package.path = "bench/?.lua;" .. package.path
local common = require("common")
local password = os.getenv("BENCH_PASSWORD")
local prefix = "signup-" .. os.time() .. "-" .. (os.getenv("BENCH_SIGNUP_TAG") or "x") .. "-"
local n = 0
local headers = { ["content-type"] = "application/json" }
request = function()
  n = n + 1
  return wrk.format("POST", "/api/auth/sign-up/email", headers,
    '{"email":"' .. prefix .. n .. '@bench.local","password":"' .. password .. '","name":"User ' .. n .. '"}')
end
done = common.summary
