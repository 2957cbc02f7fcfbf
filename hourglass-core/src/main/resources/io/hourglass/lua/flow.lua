-- Flow control, a fragment pulled in by claim.lua and config.lua (not a script of its own): a shard's share of its
-- topic's rate limit, a token bucket on Redis's clock, and of its concurrency cap, kept in the shard's `flow` hash:
--   rate, burst, cap  the topic-wide settings as configured (per second, tokens, jobs); absent when off
--   r, b              this shard's refill rate in tokens per ms (rate / shards / 1000) and bucket size (burst / shards)
--   tokens, at        the bucket: tokens left at time `at` (ms)
--   m                 this shard's cap: cap / shards, the remainder going to the first shards
-- Each shard enforces its share on its own keys inside the claim, so the limits need no key of another Redis Cluster
-- slot and cost no extra round trip; the shares add up to the topic's limits. Other settings of a topic (retention,
-- dead-letter limits) can join the hash as fields of their own.

-- A fraction as stored in `flow` (tokens, tokens per ms), at full precision.
local function real(n)
  return string.format('%.17g', n)
end

-- The bucket's tokens at `now`: those left at `at`, refilled at `r` per ms up to `b`.
local function refill(r, b, tokens, at, now)
  if now <= at then return tokens end
  return math.min(b, tokens + (now - at) * r)
end
