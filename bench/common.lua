-- Shared by every bench/*.lua script: read a file of lines, and print a JSON summary line that run.sh parses.
local M = {}

function M.lines(path)
  local t = {}
  local f = assert(io.open(path, "r"), "cannot open " .. path)
  for line in f:lines() do if #line > 0 then t[#t + 1] = line end end
  f:close()
  assert(#t > 0, "no lines in " .. path)
  return t
end

function M.summary(summary, latency)
  local e = summary.errors
  local secs = summary.duration / 1e6
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"rps":%.1f,"p50_ms":%.3f,"p99_ms":%.3f,"max_ms":%.3f,"non2xx":%d,"errors":%d}\n',
    summary.requests, summary.requests / secs, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end

return M
