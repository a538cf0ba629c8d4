-- Random primary keys over the ceiling table (1..10000).
package.path = "bench/?.lua;" .. package.path
local common = require("common")
math.randomseed(os.time())
request = function()
  return wrk.format("GET", "/item/" .. math.random(1, 10000))
end
done = common.summary
