-- dead (read only): the first `count` dead letters of this shard, oldest death first.
-- ARGV[3] count. Returns {id1, died at ms1, record1, last error1, id2, ...}.
-- @include common.lua

local out = {}
local dead = redis.call('ZRANGE', DEAD, 0, tonumber(ARGV[3]) - 1, 'WITHSCORES')
for i = 1, #dead, 2 do
  local id = dead[i]
  out[#out + 1] = id
  out[#out + 1] = tonumber(dead[i + 1])
  out[#out + 1] = redis.call('HGET', JOBS, id) or ''
  out[#out + 1] = redis.call('HGET', ERRORS, id) or ''
end
return out
