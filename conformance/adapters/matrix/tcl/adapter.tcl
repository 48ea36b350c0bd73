# Conformance adapter (protocol 2, with batches) for Tcl's utf-8 encoding, utf-8 only.
#
# decode: `lossy` from [encoding convertfrom utf-8 $bytes], Tcl's default (and, in Tcl
#   8.6, only) profile: it never fails, so its output is what it gives for ill-formed
#   input (no `valid`: nothing says whether the input was well-formed). Tcl 8.7 and 9.0
#   add `-profile strict`; Debian 12 has Tcl 8.6, where the option does not exist.
#   Tcl 8.6.13 reads past the end of its input when it ends inside a 4-byte sequence:
#   `F0 90 BF` at the end of a buffer decodes as if the byte after the buffer (whatever
#   the allocator left there) were part of it, so the answer changes from run to run
#   (docs/matrix-findings.md). To keep the matrix deterministic the adapter appends a 00
#   to every input and drops the U+0000 it decodes to (no UTF-8 decoder joins 00 to the
#   bytes before it); `--no-pad` decodes the bare input and shows the bug.
# encode: [encoding convertto utf-8 [format %c $cp]] as produced; a value above 64 bits
#   cannot be passed to format: `error: null`.
# Protocol: conformance/adapters/README.md. JSON from tcllib's json package (json2dict);
# the answers are written by hand.
package require json

set BATCH 4096
set PAD [expr {[lsearch -exact $argv --no-pad] < 0}]
fconfigure stdin -translation binary -encoding binary
fconfigure stdout -translation lf -encoding binary -buffering line

proc q {s} { return "\"[string map {\\ \\\\ \" \\\"} $s]\"" }

set HELLO [format {"protocol":2,"name":%s,"supports":[{"encoding":"utf-8","op":"decode","fields":["lossy"]},{"encoding":"utf-8","op":"encode","fields":["bytes","error"]}],"batch":%d} \
    [q "Tcl [info patchlevel] encoding convertfrom / convertto utf-8"] $BATCH]

proc id_of {req} {
    if {[catch {dict exists $req id} has] || !$has} { return null }
    set id [dict get $req id]
    if {$id eq "null"} { return null }
    return [q $id]
}

proc decode {hex} {
    global PAD
    if {$PAD} {
        # A 00 after the input, its U+0000 dropped from the answer: see the header.
        set s [string range [encoding convertfrom utf-8 [binary format H* ${hex}00]] 0 end-1]
    } else {
        set s [encoding convertfrom utf-8 [binary format H* $hex]]
    }
    set cps {}
    foreach c [split $s ""] { lappend cps [format {"U+%04X"} [scan $c %c]] }
    return "\"lossy\":\[[join $cps ,]\]"
}

proc encode {digits} {
    if {[catch {format %c 0x$digits} c]} { return {"error":null} }
    binary scan [encoding convertto utf-8 $c] H* hex
    return "\"bytes\":\"$hex\""
}

# One request (a dict); the answer's JSON text.
proc respond {req} {
    global HELLO
    if {[catch {dict size $req}]} { return {{"id":null,"unsupported":true}} }
    set id [id_of $req]
    set op [expr {[dict exists $req op] ? [dict get $req op] : ""}]
    set enc [expr {[dict exists $req encoding] ? [dict get $req encoding] : ""}]
    set fields ""
    if {$op eq "hello"} {
        set fields $HELLO
    } elseif {$enc eq "utf-8" && $op eq "decode" && [dict exists $req input]} {
        set input [dict get $req input]
        if {[regexp {^(?:[0-9a-fA-F]{2})*$} $input]} { set fields [decode $input] }
    } elseif {$enc eq "utf-8" && $op eq "encode" && [dict exists $req codepoint]} {
        if {[regexp {^U\+([0-9A-Fa-f]+)$} [dict get $req codepoint] -> digits]} {
            set fields [encode $digits]
        }
    }
    if {$fields eq ""} { set fields {"unsupported":true} }
    return "{\"id\":$id,$fields}"
}

proc handle {line} {
    # json2dict reads a JSON object as a dict and a string as its text: a top-level
    # value that is not an object must be told apart before.
    if {![regexp {^\s*\{} $line] || [catch {json::json2dict $line} req]} {
        return {{"id":null,"unsupported":true}}
    }
    if {[catch {dict size $req}]} { return {{"id":null,"unsupported":true}} }
    if {!([dict exists $req op] && [dict get $req op] eq "batch")} { return [respond $req] }
    set id [id_of $req]
    if {![dict exists $req requests] || ![regexp {"requests"\s*:\s*\[} $line]} {
        return "{\"id\":$id,\"unsupported\":true}"
    }
    set out {}
    foreach r [dict get $req requests] {
        # An item that is not an object (a number, a string) is no dict of an even size.
        if {[catch {dict size $r}] || [llength $r] == 1} {
            lappend out {{"id":null,"unsupported":true}}
        } elseif {[catch {respond $r} answer]} {
            lappend out "{\"id\":[id_of $r],\"unsupported\":true}"
        } else {
            lappend out $answer
        }
    }
    return "{\"id\":$id,\"responses\":\[[join $out ,]\]}"
}

while {[gets stdin line] >= 0} {
    set line [string trimright $line "\r"]
    if {[catch {handle $line} answer]} {
        puts stderr "tcl adapter: $answer"
        set answer {{"id":null,"unsupported":true}}
    }
    puts $answer
}
