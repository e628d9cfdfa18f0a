-- Shared helper (included by the scripts that change custom statuses).
-- Cuts a UTF-8 text to at most 5000 UTF-16 units, as Java's String.length() counts them
-- (ShardStore.CUSTOM_STATUS_MAX_CHARS), without splitting a character.
local function cut_status(s)
  local max = 5000
  if #s <= max then
    return s -- every UTF-16 unit takes at least one byte
  end
  local units, i = 0, 1
  while i <= #s do
    local c = string.byte(s, i)
    local len, width = 1, 1
    if c >= 0xF0 then
      len, width = 4, 2 -- outside the BMP: a surrogate pair in Java
    elseif c >= 0xE0 then
      len = 3
    elseif c >= 0xC0 then
      len = 2
    end
    if units + width > max then
      return string.sub(s, 1, i - 1)
    end
    units = units + width
    i = i + len
  end
  return s
end
