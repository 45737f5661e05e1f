/**
 * The rate limiter's Lua scripts (libs/http rate-limit.ts runs them; the benchmark's raw-stack baseline runs
 * ADMIT_KNOWN too, to measure what one such round trip costs without the platform around it).
 */

/**
 * The sliding window, as Lua both scripts share. `admit` drops admissions older than the window, admits this request
 * if fewer than `limit` remain, and answers whether it was admitted, the count and when the oldest admission leaves
 * the window (then a slot frees up). Refused requests are not recorded: hammering while limited does not extend the
 * wait.
 */
const WINDOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local function oldestEnd(key)
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if oldest[2] then return tonumber(oldest[2]) + window end
  return now + window
end
local function admit(key, member)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local allowed = 0
  if count < limit then
    redis.call('ZADD', key, now, member)
    count = count + 1
    allowed = 1
  end
  redis.call('PEXPIRE', key, window)
  return allowed, count, oldestEnd(key)
end
`;

/** One admission in KEYS[1] (ARGV: window, limit, the admission's member). */
export const SLIDING_WINDOW = `${WINDOW}
local allowed, count, resetAt = admit(KEYS[1], ARGV[3])
return { allowed, count, resetAt, now }
`;

/**
 * The one Redis round trip of an identified credential's request (KEYS: the credential's window, then the workspace's
 * epoch keys, which share the workspace's hash tag, so one script serves a Redis Cluster too; ARGV: window, limit,
 * the admission's member): admits the request in the credential's window and answers the decision with the
 * workspace's authorization epoch and whether a change is pending (libs/redis authorization-epochs.ts).
 */
export const ADMIT_KNOWN = `${WINDOW}
local epoch = tonumber(redis.call('GET', KEYS[2]) or '0')
local pending = redis.call('EXISTS', KEYS[3])
local allowed, count, resetAt = admit(KEYS[1], ARGV[3])
return { allowed, count, resetAt, now, epoch, pending }
`;
