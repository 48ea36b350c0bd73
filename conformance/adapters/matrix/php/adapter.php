<?php
// Conformance adapter (protocol 2, with batches) for PHP's UTF-8 decoding, utf-8 only;
// four decoders, chosen with --decoder:
//
// mbstring (the default): `lossy` from mb_scrub($s, 'UTF-8') with
//   mb_substitute_character(0xFFFD); `valid`, `result` from mb_check_encoding($s,
//   'UTF-8'). encode: mb_chr($cp, 'UTF-8') (false: `error: null`).
// convert: `lossy` from mb_convert_encoding($s, 'UTF-32BE', 'UTF-8') (the same
//   substitute character); it has no strict mode. encode: mb_convert_encoding(the code
//   point as UTF-32BE, 'UTF-8', 'UTF-32BE'), as produced.
// iconv: `valid`, `result` from iconv('UTF-8', 'UTF-32BE', $s) (false on an invalid or
//   incomplete sequence). encode: iconv('UTF-32BE', 'UTF-8', the code point as UTF-32BE)
//   (false: `error: null`).
// preg: `valid`, `result` from preg_match('//u', $s) (false with PREG_BAD_UTF8_ERROR:
//   PCRE2's UTF check). No encode.
// A code point above 32 bits cannot be passed as UTF-32: `error: null`.
// Protocol: conformance/adapters/README.md. Needs the mbstring extension (php-mbstring);
// json, iconv and pcre are built in.
ini_set('display_errors', 'stderr');
error_reporting(E_ALL);

$decoder = 'mbstring';
for ($i = 1; $i < count($argv) - 1; $i++) {
    if ($argv[$i] === '--decoder') $decoder = $argv[$i + 1];
}
if (!in_array($decoder, ['mbstring', 'convert', 'iconv', 'preg'], true)) {
    fwrite(STDERR, "usage: adapter.php [--decoder mbstring|convert|iconv|preg]\n");
    exit(2);
}
mb_substitute_character(0xFFFD);
const BATCH = 4096;

function hello(string $decoder): array {
    [$fields, $encode, $api] = [
        'mbstring' => [['lossy', 'result', 'valid'], true, 'mb_scrub / mb_check_encoding / mb_chr'],
        'convert' => [['lossy'], true, "mb_convert_encoding (UTF-8 <-> UTF-32BE)"],
        'iconv' => [['result', 'valid'], true, 'iconv (UTF-8 <-> UTF-32BE)'],
        'preg' => [['result', 'valid'], false, "preg_match('//u') (PCRE2 " . PCRE_VERSION . ')'],
    ][$decoder];
    $supports = [['encoding' => 'utf-8', 'op' => 'decode', 'fields' => $fields]];
    if ($encode) $supports[] = ['encoding' => 'utf-8', 'op' => 'encode', 'fields' => ['bytes', 'error']];
    return ['protocol' => 2, 'name' => 'PHP ' . PHP_VERSION . ' ' . $api, 'supports' => $supports, 'batch' => BATCH];
}

function cps_of_utf32(string $utf32): array {
    return $utf32 === '' ? [] : array_map(fn($cp) => sprintf('U+%04X', $cp), array_values(unpack('N*', $utf32)));
}

function validity(bool $ok): array {
    return ['valid' => $ok, 'result' => $ok ? 'valid' : 'invalid'];
}

function decode_fields(string $decoder, string $s): array {
    switch ($decoder) {
        case 'mbstring':
            $clean = mb_scrub($s, 'UTF-8');
            $lossy = array_map(fn($c) => sprintf('U+%04X', mb_ord($c, 'UTF-8')), mb_str_split($clean, 1, 'UTF-8'));
            return ['lossy' => $lossy] + validity(mb_check_encoding($s, 'UTF-8'));
        case 'convert':
            return ['lossy' => cps_of_utf32(mb_convert_encoding($s, 'UTF-32BE', 'UTF-8'))];
        case 'iconv':
            return validity(@iconv('UTF-8', 'UTF-32BE', $s) !== false);
        default:
            return validity(@preg_match('//u', $s) !== false);
    }
}

function encode_fields(string $decoder, string $digits): array {
    $digits = ltrim($digits, '0');
    if (strlen($digits) > 8) return ['error' => null];
    $cp = $digits === '' ? 0 : hexdec($digits);
    switch ($decoder) {
        case 'mbstring':
            $bytes = @mb_chr($cp, 'UTF-8');
            break;
        case 'convert':
            $bytes = mb_convert_encoding(pack('N', $cp), 'UTF-8', 'UTF-32BE');
            break;
        default:
            $bytes = @iconv('UTF-32BE', 'UTF-8', pack('N', $cp));
    }
    return $bytes === false ? ['error' => null] : ['bytes' => bin2hex($bytes)];
}

function respond(string $decoder, array $hello, $req): array {
    $id = property_exists($req, 'id') ? $req->id : null;
    $op = $req->op ?? null;
    $enc = $req->encoding ?? null;
    $fields = null;
    if ($op === 'hello') {
        $fields = $hello;
    } elseif ($enc === 'utf-8' && $op === 'decode' && is_string($req->input ?? null)
              && preg_match('/\A(?:[0-9a-fA-F]{2})*\z/', $req->input)) {
        $fields = decode_fields($decoder, hex2bin($req->input));
    } elseif ($enc === 'utf-8' && $op === 'encode' && count($hello['supports']) > 1
              && is_string($req->codepoint ?? null) && preg_match('/\AU\+([0-9A-Fa-f]+)\z/', $req->codepoint, $m)) {
        $fields = encode_fields($decoder, $m[1]);
    }
    return ['id' => $id] + ($fields ?? ['unsupported' => true]);
}

function handle(string $decoder, array $hello, string $line): array {
    $req = json_decode($line);
    if (!($req instanceof stdClass)) return ['id' => null, 'unsupported' => true];
    if (($req->op ?? null) !== 'batch') return respond($decoder, $hello, $req);
    $id = property_exists($req, 'id') ? $req->id : null;
    if (!is_array($req->requests ?? null)) return ['id' => $id, 'unsupported' => true];
    $responses = [];
    foreach ($req->requests as $r) {
        $responses[] = $r instanceof stdClass ? respond($decoder, $hello, $r) : ['id' => null, 'unsupported' => true];
    }
    return ['id' => $id, 'responses' => $responses];
}

$hello = hello($decoder);
while (($line = fgets(STDIN)) !== false) {
    try {
        $answer = handle($decoder, $hello, rtrim($line, "\r\n"));
    } catch (Throwable $e) {
        fwrite(STDERR, 'php adapter: ' . $e->getMessage() . "\n");
        $answer = ['id' => null, 'unsupported' => true];
    }
    echo json_encode($answer, JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION), "\n";
    fflush(STDOUT);
}
