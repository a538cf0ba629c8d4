-- POST /api/v1/auth/password/sign-up as a client, a new email address per request (one password for all).
-- BENCH_SIGNUP_CALLBACK: the verification_callback_url to send (the client library sends one by default; then
-- the service queues a verification mail per sign-up), empty for none.
package.path = "bench/?.lua;" .. package.path
local common = require("common")
local project, pck, password = os.getenv("BENCH_PROJECT"), os.getenv("BENCH_PCK"), os.getenv("BENCH_PASSWORD")
local callback = os.getenv("BENCH_SIGNUP_CALLBACK") or ""
-- Unique across the warm-up and the measured run (each is its own wrk process, started seconds apart).
local prefix = "signup-" .. os.time() .. "-" .. (os.getenv("BENCH_SIGNUP_TAG") or "x") .. "-"
local n = 0
local headers = {
  ["content-type"] = "application/json", ["x-stack-project-id"] = project,
  ["x-stack-access-type"] = "client", ["x-stack-publishable-client-key"] = pck,
}
request = function()
  n = n + 1
  local extra = callback ~= "" and (',"verification_callback_url":"' .. callback .. '"') or ""
  return wrk.format("POST", "/api/v1/auth/password/sign-up", headers,
    '{"email":"' .. prefix .. n .. '@bench.local","password":"' .. password .. '"' .. extra .. '}')
end
done = common.summary
