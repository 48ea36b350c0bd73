-- Conformance adapter (protocol 2, with batches) for Lua 5.4's utf8 library, utf-8
-- only; two decoders, chosen with --decoder:
--
-- strict (the default): `valid` from utf8.len(s) (nil and the position of the first
--   invalid byte, without a length, so no `strict`), `result` from iterating
--   utf8.codes(s) (raises "invalid UTF-8 code"): two APIs, each checked on its own.
-- lax: the same with lax = true (utf8.len(s, 1, -1, true), utf8.codes(s, true)), which
--   the manual says accepts the original UTF-8 of up to 31 bits and surrogates; encode:
--   utf8.char(cp) as produced (it has no strict mode; above 0x7FFFFFFF it raises "value
--   out of range": `error: null`).
-- Protocol: conformance/adapters/README.md. Lua has no JSON library: a small reader
-- for the requests and a writer for the answers are below.

local decoder = "strict"
for i = 1, #arg - 1 do
  if arg[i] == "--decoder" then decoder = arg[i + 1] end
end
if decoder ~= "strict" and decoder ~= "lax" then
  io.stderr:write("usage: adapter.lua [--decoder strict|lax]\n")
  os.exit(2)
end
local lax = decoder == "lax"
local BATCH = 4096

-- ---- JSON: a reader of any JSON text (objects become tables with a marker) and a writer.
local NULL = setmetatable({}, { __tostring = function() return "null" end })
local OBJECT, ARRAY = {}, {}

local function reader(text)
  local pos = 1
  local function fail() error({ json = true }) end
  local function ws() pos = text:find("[^ \t\r\n]", pos) or #text + 1 end
  local value
  local function str()
    pos = pos + 1
    local parts = {}
    while true do
      local s, e = text:find('["\\%c]', pos)
      if not s then fail() end
      parts[#parts + 1] = text:sub(pos, s - 1)
      local c = text:sub(s, s)
      if c == '"' then pos = e + 1; return table.concat(parts) end
      if c ~= "\\" then fail() end
      local esc = text:sub(s + 1, s + 1)
      local simple = { ['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f", n = "\n", r = "\r", t = "\t" }
      if simple[esc] then
        parts[#parts + 1] = simple[esc]; pos = s + 2
      elseif esc == "u" then
        local hex = text:match("^%x%x%x%x", s + 2)
        if not hex then fail() end
        local cp = tonumber(hex, 16)
        pos = s + 6
        if cp >= 0xD800 and cp <= 0xDBFF then
          local low = text:match("^\\u(%x%x%x%x)", pos)
          local lo = low and tonumber(low, 16)
          if lo and lo >= 0xDC00 and lo <= 0xDFFF then
            cp = 0x10000 + (cp - 0xD800) * 0x400 + (lo - 0xDC00); pos = pos + 6
          end
        end
        parts[#parts + 1] = utf8.char(cp)
      else
        fail()
      end
    end
  end
  function value()
    ws()
    local c = text:sub(pos, pos)
    if c == "{" then
      local t = { [OBJECT] = true }
      pos = pos + 1; ws()
      if text:sub(pos, pos) == "}" then pos = pos + 1; return t end
      while true do
        ws()
        if text:sub(pos, pos) ~= '"' then fail() end
        local k = str(); ws()
        if text:sub(pos, pos) ~= ":" then fail() end
        pos = pos + 1
        t[k] = value(); ws()
        c = text:sub(pos, pos); pos = pos + 1
        if c == "}" then return t end
        if c ~= "," then fail() end
      end
    elseif c == "[" then
      local t = { [ARRAY] = true }
      pos = pos + 1; ws()
      if text:sub(pos, pos) == "]" then pos = pos + 1; return t end
      while true do
        t[#t + 1] = value(); ws()
        c = text:sub(pos, pos); pos = pos + 1
        if c == "]" then return t end
        if c ~= "," then fail() end
      end
    elseif c == '"' then
      return str()
    else
      local lit = text:match("^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
      if lit and #lit > 0 then pos = pos + #lit; return tonumber(lit) or fail() end
      for word, v in pairs({ ["true"] = true, ["false"] = false, null = NULL }) do
        if text:sub(pos, pos + #word - 1) == word then pos = pos + #word; return v end
      end
      fail()
    end
  end
  local v = value(); ws()
  if pos <= #text then fail() end
  return v
end

local function decode_json(text)
  local ok, v = pcall(reader, text)
  if ok then return v end
  return nil
end

local write
local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"'
end
function write(v, out)
  local t = type(v)
  if v == NULL or v == nil then out[#out + 1] = "null"
  elseif t == "boolean" then out[#out + 1] = tostring(v)
  elseif t == "number" then out[#out + 1] = string.format(math.type(v) == "integer" and "%d" or "%.17g", v)
  elseif t == "string" then out[#out + 1] = quote(v)
  elseif v[ARRAY] then
    out[#out + 1] = "["
    for i, x in ipairs(v) do
      if i > 1 then out[#out + 1] = "," end
      write(x, out)
    end
    out[#out + 1] = "]"
  else -- an object: keys in the order given by v[1..n] as {key, value} pairs, or any order
    out[#out + 1] = "{"
    local first = true
    for _, kv in ipairs(v) do
      if not first then out[#out + 1] = "," end
      first = false
      out[#out + 1] = quote(kv[1]) .. ":"
      write(kv[2], out)
    end
    out[#out + 1] = "}"
  end
end
local function arr(t) t[ARRAY] = true; return t end
local function obj(...) return { [OBJECT] = true, ... } end

-- ---- the decoders
local function hello()
  local supports = arr({ obj({ "encoding", "utf-8" }, { "op", "decode" }, { "fields", arr({ "result", "valid" }) }) })
  if lax then
    supports[2] = obj({ "encoding", "utf-8" }, { "op", "encode" }, { "fields", arr({ "bytes", "error" }) })
  end
  local name = _VERSION .. (lax and " utf8.len / utf8.codes (lax), utf8.char" or " utf8.len / utf8.codes")
  return { { "protocol", 2 }, { "name", name }, { "supports", supports }, { "batch", BATCH } }
end

local function decode(bytes)
  local valid = utf8.len(bytes, 1, -1, lax) ~= nil
  local walked = pcall(function()
    for _ in utf8.codes(bytes, lax) do end
  end)
  return { { "valid", valid }, { "result", walked and "valid" or "invalid" } }
end

local function encode(digits)
  digits = digits:gsub("^0+(.)", "%1")
  if #digits > 8 then return { { "error", NULL } } end
  local ok, bytes = pcall(utf8.char, tonumber(digits, 16))
  if not ok then return { { "error", NULL } } end
  return { { "bytes", (bytes:gsub(".", function(c) return string.format("%02x", c:byte()) end)) } }
end

local HELLO = hello()

local function respond(req)
  local id = req.id
  if id == nil then id = NULL end
  local fields
  if req.op == "hello" then
    fields = HELLO
  elseif req.encoding == "utf-8" and req.op == "decode" and type(req.input) == "string"
      and #req.input % 2 == 0 and not req.input:find("%X") then
    fields = decode((req.input:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end)))
  elseif req.encoding == "utf-8" and req.op == "encode" and lax and type(req.codepoint) == "string" then
    local digits = req.codepoint:match("^U%+(%x+)$")
    if digits then fields = encode(digits) end
  end
  local answer = obj({ "id", id })
  for _, kv in ipairs(fields or { { "unsupported", true } }) do answer[#answer + 1] = kv end
  return answer
end

local function handle(line)
  local req = decode_json(line)
  if type(req) ~= "table" or not req[OBJECT] then return obj({ "id", NULL }, { "unsupported", true }) end
  if req.op ~= "batch" then return respond(req) end
  local id = req.id
  if id == nil then id = NULL end
  if type(req.requests) ~= "table" or not req.requests[ARRAY] then
    return obj({ "id", id }, { "unsupported", true })
  end
  local responses = arr({})
  for i, r in ipairs(req.requests) do
    if type(r) == "table" and r[OBJECT] then
      responses[i] = respond(r)
    else
      responses[i] = obj({ "id", NULL }, { "unsupported", true })
    end
  end
  return obj({ "id", id }, { "responses", responses })
end

io.stdout:setvbuf("no")
for line in io.stdin:lines("L") do
  line = line:gsub("[\r\n]+$", "")
  local ok, answer = pcall(handle, line)
  if not ok then
    io.stderr:write("lua adapter: " .. tostring(answer) .. "\n")
    answer = obj({ "id", NULL }, { "unsupported", true })
  end
  local out = {}
  write(answer, out)
  out[#out + 1] = "\n"
  io.stdout:write(table.concat(out))
end
