# Conformance adapter (protocol 2, with batches) for Ruby's UTF-8 decoding, utf-8 only;
# four decoders, chosen with --decoder:
#
# scrub (the default): `lossy` from String#scrub("\uFFFD") on the bytes as a UTF-8
#   string; `valid`, `result` from String#valid_encoding?. encode: Integer#chr(UTF_8)
#   (RangeError for a surrogate or a value above U+10FFFF: `error: null`).
# converter: Encoding::Converter UTF-8 -> UTF-32BE, driven by primitive_convert, fed
#   chunk by chunk with PARTIAL_INPUT (streaming). Each :invalid_byte_sequence or
#   :incomplete_input becomes one U+FFFD (`lossy`); `valid`, `result`; `strict` from
#   primitive_errinfo: the error's bytes (its length) and where they end (the bytes fed
#   so far less the unread source and the bytes to be read again). No encode.
# encode: String#encode('UTF-32LE', invalid: :replace, replace: "\uFFFD") for `lossy`
#   (String#encode to UTF-8 itself does not convert), the same without invalid: (it
#   raises Encoding::InvalidByteSequenceError) for `valid`, `result`. No encode.
# unpack: String#unpack('U*') (raises ArgumentError on malformed input) for `valid`,
#   `result`; encode: Array#pack('U') as produced (RangeError: `error: null`).
# Protocol: conformance/adapters/README.md. Standard library only (json).
require 'json'

DECODER = ARGV[0] == '--decoder' ? ARGV[1].to_s : 'scrub'
abort 'usage: adapter.rb [--decoder scrub|converter|encode|unpack]' unless %w[scrub converter encode unpack].include?(DECODER)
BATCH = 4096

def cp_name(cp) = format('U+%04X', cp)

def hello
  fields, encode, streaming, api = case DECODER
    when 'scrub' then [%w[lossy result valid], true, false, 'String#scrub / valid_encoding? / Integer#chr']
    when 'converter' then [%w[lossy result valid strict], false, true, 'Encoding::Converter#primitive_convert']
    when 'encode' then [%w[lossy result valid], false, false, "String#encode(invalid: :replace)"]
    else [%w[result valid], true, false, "String#unpack('U*') / Array#pack('U')"]
  end
  decode = { encoding: 'utf-8', op: 'decode', fields: fields }
  decode[:streaming] = true if streaming
  supports = [decode]
  supports << { encoding: 'utf-8', op: 'encode', fields: %w[bytes error] } if encode
  { protocol: 2, name: "Ruby #{RUBY_VERSION} #{api}", supports: supports, batch: BATCH }
end

HELLO = hello.freeze
STREAMING = HELLO[:supports][0][:streaming] == true
ENCODES = HELLO[:supports].size > 1

def validity(ok)
  { 'valid' => ok, 'result' => ok ? 'valid' : 'invalid' }
end

# The converter fed chunk by chunk; the last call without PARTIAL_INPUT ends the input.
def converter(chunks)
  ec = Encoding::Converter.new('UTF-8', 'UTF-32BE')
  cps = []
  first = nil
  fed = 0
  chunks.each_with_index do |chunk, k|
    flags = k == chunks.size - 1 ? 0 : Encoding::Converter::PARTIAL_INPUT
    src = chunk.b
    fed += src.bytesize
    loop do
      dst = String.new
      res = ec.primitive_convert(src, dst, nil, nil, flags)
      cps.concat(dst.unpack('N*'))
      break unless %i[invalid_byte_sequence incomplete_input].include?(res)
      _, _, _, err, again = ec.primitive_errinfo
      finish = fed - src.bytesize - again.bytesize
      first ||= { 'offset' => finish - err.bytesize, 'length' => err.bytesize }
      cps << 0xFFFD
      break if res == :incomplete_input
    end
  end
  { 'lossy' => cps.map { cp_name(_1) }, 'strict' => first }.merge(validity(first.nil?))
end

def decode(bytes, chunks)
  s = bytes.dup.force_encoding(Encoding::UTF_8)
  case DECODER
  when 'scrub'
    { 'lossy' => s.scrub("\uFFFD").codepoints.map { cp_name(_1) } }.merge(validity(s.valid_encoding?))
  when 'converter'
    converter(chunks || [bytes])
  when 'encode'
    lossy = s.encode('UTF-32LE', invalid: :replace, replace: "\uFFFD").unpack('V*')
    ok = begin
      s.encode('UTF-32LE')
      true
    rescue Encoding::InvalidByteSequenceError, Encoding::UndefinedConversionError
      false
    end
    { 'lossy' => lossy.map { cp_name(_1) } }.merge(validity(ok))
  else
    ok = begin
      s.unpack('U*')
      true
    rescue ArgumentError
      false
    end
    validity(ok)
  end
end

def encode(cp)
  bytes = DECODER == 'unpack' ? [cp].pack('U') : cp.chr(Encoding::UTF_8)
  { 'bytes' => bytes.unpack1('H*') }
rescue RangeError
  { 'error' => nil }
end

HEX = /\A(?:[0-9a-fA-F]{2})*\z/.freeze

def respond(req)
  answer = { 'id' => req['id'] }
  op, enc = req['op'], req['encoding']
  fields = nil
  if op == 'hello'
    fields = HELLO
  elsif enc == 'utf-8' && op == 'decode' && req['input'].is_a?(String) && req['input'] =~ HEX
    chunks = req['chunks']
    if chunks.nil? || (chunks.is_a?(Array) && chunks.all? { _1.is_a?(String) && _1 =~ HEX })
      if chunks.nil? || STREAMING
        fields = decode([req['input']].pack('H*'), chunks&.map { [_1].pack('H*') })
      end
    end
  elsif enc == 'utf-8' && op == 'encode' && ENCODES &&
        req['codepoint'].is_a?(String) && req['codepoint'] =~ /\AU\+([0-9A-Fa-f]+)\z/
    fields = encode(Regexp.last_match(1).to_i(16))
  end
  fields ? answer.merge(fields) : answer.merge('unsupported' => true)
end

def handle(line)
  req = JSON.parse(line)
  return { 'id' => nil, 'unsupported' => true } unless req.is_a?(Hash)
  return respond(req) unless req['op'] == 'batch'
  reqs = req['requests']
  return { 'id' => req['id'], 'unsupported' => true } unless reqs.is_a?(Array)
  responses = reqs.map do |r|
    next { 'id' => nil, 'unsupported' => true } unless r.is_a?(Hash)
    begin
      respond(r)
    rescue StandardError
      { 'id' => r['id'], 'unsupported' => true }
    end
  end
  { 'id' => req['id'], 'responses' => responses }
rescue JSON::ParserError
  { 'id' => nil, 'unsupported' => true }
end

$stdin.binmode
$stdout.binmode
$stdout.sync = true
$stdin.each_line do |line|
  answer = begin
    handle(line.chomp)
  rescue StandardError => e
    warn "ruby adapter: #{e.class}: #{e.message}"
    { 'id' => nil, 'unsupported' => true }
  end
  $stdout.write(JSON.generate(answer) + "\n")
end
