// Conformance adapter (protocol 2, with batches) for Go's UTF-8 decoding, utf-8 only;
// two decoders, chosen with -decoder:
//
// runes (the default): `lossy` from the conversion []rune(string(b)) (each byte of an
// invalid sequence becomes its own U+FFFD: utf8.DecodeRune returns (RuneError, 1));
// `valid`, `result` from utf8.Valid; `strict` from the first utf8.DecodeRune that
// returns (RuneError, 1): offset there, length 1, as the package reports it.
// encode: utf8.AppendRune, reported as produced (it writes U+FFFD's EF BF BD for a
// surrogate or a value above U+10FFFF); a value that does not fit a rune (int32) cannot
// be passed: `error: null`.
//
// tovalid: `lossy` from strings.ToValidUTF8(s, "\uFFFD") (one U+FFFD per run of invalid
// bytes), `valid`, `result` from utf8.ValidString. No encode.
//
// Protocol: conformance/adapters/README.md. Standard library only.
package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"
)

const batchMax = 4096

var codepointRE = regexp.MustCompile(`^U\+([0-9A-Fa-f]+)$`)

type answer map[string]interface{}

func cpName(r rune) string { return fmt.Sprintf("U+%04X", r) }

func lossyOf(s string) []string {
	out := []string{}
	for _, r := range []rune(s) {
		out = append(out, cpName(r))
	}
	return out
}

func decodeRunes(b []byte, a answer) {
	a["lossy"] = lossyOf(string(b))
	valid := utf8.Valid(b)
	a["valid"] = valid
	if valid {
		a["result"] = "valid"
		a["strict"] = nil
		return
	}
	a["result"] = "invalid"
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			a["strict"] = map[string]int{"offset": i, "length": 1}
			return
		}
		i += size
	}
}

func decodeToValid(b []byte, a answer) {
	s := string(b)
	out := []string{}
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		out = append(out, cpName(r))
	}
	a["lossy"] = out
	valid := utf8.ValidString(s)
	a["valid"] = valid
	if valid {
		a["result"] = "valid"
	} else {
		a["result"] = "invalid"
	}
}

func encodeRune(digits string, a answer) {
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		digits = "0"
	}
	cp, err := strconv.ParseUint(digits, 16, 64)
	if err != nil || cp > 0x7FFFFFFF {
		a["error"] = nil
		return
	}
	a["bytes"] = hex.EncodeToString(utf8.AppendRune(nil, rune(cp)))
}

type adapter struct{ decoder string }

func (ad adapter) hello(a answer) {
	a["protocol"] = 2
	a["batch"] = batchMax
	if ad.decoder == "tovalid" {
		a["name"] = "Go " + runtime.Version() + " strings.ToValidUTF8 / utf8.ValidString"
		a["supports"] = []interface{}{
			map[string]interface{}{"encoding": "utf-8", "op": "decode", "fields": []string{"lossy", "result", "valid"}},
		}
		return
	}
	a["name"] = "Go " + runtime.Version() + " []rune(string) / utf8.DecodeRune / utf8.AppendRune"
	a["supports"] = []interface{}{
		map[string]interface{}{"encoding": "utf-8", "op": "decode", "fields": []string{"lossy", "result", "valid", "strict"}},
		map[string]interface{}{"encoding": "utf-8", "op": "encode", "fields": []string{"bytes", "error"}},
	}
}

// respond answers one request object (not a batch).
func (ad adapter) respond(req map[string]interface{}) answer {
	a := answer{"id": req["id"]}
	op, _ := req["op"].(string)
	enc, _ := req["encoding"].(string)
	switch {
	case op == "hello":
		ad.hello(a)
		return a
	case enc == "utf-8" && op == "decode":
		text, ok := req["input"].(string)
		b, err := hex.DecodeString(text)
		if ok && err == nil {
			if ad.decoder == "tovalid" {
				decodeToValid(b, a)
			} else {
				decodeRunes(b, a)
			}
			return a
		}
	case enc == "utf-8" && op == "encode" && ad.decoder != "tovalid":
		cp, _ := req["codepoint"].(string)
		if m := codepointRE.FindStringSubmatch(cp); m != nil {
			encodeRune(m[1], a)
			return a
		}
	}
	a["unsupported"] = true
	return a
}

func (ad adapter) handleLine(line []byte) interface{} {
	var req map[string]interface{}
	if err := json.Unmarshal(line, &req); err != nil || req == nil {
		return answer{"id": nil, "unsupported": true}
	}
	if req["op"] != "batch" {
		return ad.respond(req)
	}
	reqs, ok := req["requests"].([]interface{})
	if !ok {
		return answer{"id": req["id"], "unsupported": true}
	}
	responses := make([]interface{}, 0, len(reqs))
	for _, r := range reqs {
		if m, ok := r.(map[string]interface{}); ok {
			responses = append(responses, ad.respond(m))
		} else {
			responses = append(responses, answer{"id": nil, "unsupported": true})
		}
	}
	return answer{"id": req["id"], "responses": responses}
}

func main() {
	decoder := flag.String("decoder", "runes", "runes or tovalid")
	flag.Parse()
	if *decoder != "runes" && *decoder != "tovalid" {
		fmt.Fprintln(os.Stderr, "usage: go-adapter [-decoder runes|tovalid]")
		os.Exit(2)
	}
	ad := adapter{*decoder}
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "go-adapter:", err)
			}
			return
		}
		if enc.Encode(ad.handleLine(line)) != nil || out.Flush() != nil {
			return
		}
	}
}
