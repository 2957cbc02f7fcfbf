-- expired (read only): how many of this shard's jobs expired before delivery (dead-lettered or dropped), since the
-- first; counted by take_due in common.lua, in the history hash's 'expired' field.
-- Returns {count}.
-- @include common.lua

return { tonumber(redis.call('HGET', HISTORY, EXPIRED) or '0') }
