package.path = "bench/?.lua;" .. package.path
local common = require("common")
done = common.summary
