use super::*;

fn corrected(bytes: &[u8]) -> Vec<Segment> {
    explain(bytes, Encoding::CorrectedUtf8, None)
}

#[test]
fn table_rows_agree_with_the_codec_at_every_row_edge() {
    // First and last sequence of every row of Corrected UTF-8, *Putting it all together*.
    let edges: [(&[u8], u32); 14] = [
        (b"\x00", 0x0),
        (b"\x7F", 0x7F),
        (b"\xC0\x80", 0xA0),
        (b"\xDF\xBF", 0x89F),
        (b"\xE0\x80\x80", 0x8A0),
        (b"\xEC\xBD\x9F", 0xD7FF),
        (b"\xEC\xBD\xA0", 0xE000),
        (b"\xEF\xBF\xBF", 0x1_109F),
        (b"\xF0\x80\x80\x80", 0x1_10A0),
        (b"\xF7\xBF\xBF\xBF", 0x21_109F),
        (b"\xF8\x80\x80\x80\x80", 0x21_10A0),
        (b"\xFB\xBF\xBF\xBF\xBF", 0x421_109F),
        (b"\xFC\x80\x80\x80\x80\x80", 0x421_10A0),
        (b"\xFD\xBF\xBF\xBF\xBF\xBF", 0x8421_109F),
    ];
    for (seq, cp) in edges {
        assert_eq!(corrected::decode(seq), Ok(vec![cp]));
        // `explain` asserts raw + offset == the codec's code point.
        let segments = corrected(seq);
        assert_eq!(segments.len(), 1);
        assert_eq!(segments[0].short, format!("U+{cp:04X}"));
        let row = segments[0].row.as_ref().expect("a code point has a row");
        assert_eq!(
            row.raw.unwrap() + row.offset.unwrap(),
            cp,
            "{seq:02X?}: raw + offset"
        );
    }
    let (_, raw) = raw_bits(b"\xEC\xBD\xA0");
    assert_eq!(raw, 0xCF60);
    assert_eq!(row(3, raw).offset, 4_256);
    assert_eq!(row(3, raw - 1).offset, 2_208);
}

#[test]
fn every_two_and_three_byte_sequence_explains_as_the_codec_decodes() {
    let conts = 0x80..=0xBFu8;
    let two = (0xC0..=0xDFu8).flat_map(|a| conts.clone().map(move |b| vec![a, b]));
    let three = (0xE0..=0xEFu8).flat_map(|a| {
        conts
            .clone()
            .flat_map(move |b| (0x80..=0xBFu8).map(move |c| vec![a, b, c]))
    });
    for seq in two.chain(three) {
        let cp = corrected::decode(&seq).unwrap()[0];
        let (bits, raw) = raw_bits(&seq);
        assert_eq!(raw + row(seq.len(), raw).offset, cp, "{seq:02X?}");
        // Payload bits plus one space between bytes.
        assert_eq!(
            bits.len(),
            7 - seq.len() + 7 * (seq.len() - 1),
            "{seq:02X?}"
        );
    }
}

#[test]
fn bits_split_marker_from_payload() {
    assert_eq!(byte_bits(0x41), "0 1000001");
    assert_eq!(byte_bits(0xAF), "10 101111");
    assert_eq!(byte_bits(0xC0), "110 00000");
    assert_eq!(byte_bits(0xFD), "1111110 1");
    assert_eq!(byte_bits(0xFE), "11111110");
    assert_eq!(byte_bits(0xFF), "11111111");
    assert_eq!(raw_bits(b"\xC0\xAF"), ("00000 101111".to_string(), 0x2F));
}

#[test]
fn byte_roles_follow_each_encoding_s_lead_bytes() {
    use Encoding::*;
    let role = |e, b| byte_role(e, b);
    assert_eq!(role(CorrectedUtf8, 0x41), "ASCII");
    assert_eq!(role(Utf8, 0xBF), "continuation");
    assert_eq!(role(CorrectedUtf8, 0xC0), "lead of 2");
    assert_eq!(role(Utf8, 0xC0), "never valid (overlong)");
    assert_eq!(role(UtfInf8, 0xC1), "lead of 2");
    assert_eq!(role(CorrectedUtf8, 0xEC), "lead of 3");
    assert_eq!(role(Utf8, 0xF4), "lead of 4");
    assert_eq!(role(Utf8, 0xF5), "never valid (above U+10FFFF)");
    assert_eq!(role(CorrectedUtf8, 0xF7), "lead of 4");
    assert_eq!(role(CorrectedUtf8, 0xF8), "lead of 5");
    assert_eq!(role(CorrectedUtf8, 0xFD), "lead of 6");
    assert_eq!(role(CorrectedUtf8, 0xFE), "reserved");
    assert_eq!(role(Utf8, 0xFF), "never valid");
    assert_eq!(role(UtfInf8, 0xFE), "lead of 7");
    assert_eq!(role(UtfInf8, 0xFF), "lead of 13 or more");
    for e in Encoding::ALL {
        for b in 0..=255u8 {
            assert!(!role(e, b).is_empty(), "{e} {b:02X}");
        }
    }
}

#[test]
fn offsets_group_like_the_source_table() {
    assert_eq!(group_digits(0), "0");
    assert_eq!(group_digits(160), "160");
    assert_eq!(group_digits(2_208), "2 208");
    assert_eq!(group_digits(69_275_808), "69 275 808");
}

#[test]
fn segments_cover_the_input_in_every_encoding() {
    let input = b"A\xC0\xAF\xFE\xFE\x80\xE0\x80\xED\xA0\x80\xF4\x90\x80\x80\xFF\xB4\xA0\xFF";
    for e in Encoding::ALL {
        let mut at = 0;
        for s in explain(input, e, None) {
            assert_eq!(s.offset, at, "{e}");
            assert!(!s.lines.is_empty());
            at += s.length;
        }
        assert_eq!(at, input.len());
    }
}

/// The segments are the codec's events: same offsets, lengths, kinds and code points.
#[test]
fn segments_are_the_codec_s_events() {
    let input =
        b"A\xC0\xAF\xFE\xFE\x80\xE0\x80\xED\xA0\x80\xF4\x90\x80\x80\xFF\xB4\xA0\xFF\xEF\xB7\x9D";
    for e in Encoding::ALL {
        let events: Vec<_> = e.events_located(input).collect();
        let segments = explain(input, e, None);
        assert_eq!(segments.len(), events.len(), "{e}");
        for (s, l) in segments.iter().zip(&events) {
            assert_eq!(
                (s.offset as u64, s.length as u64),
                (l.offset, l.length),
                "{e}"
            );
            let want = match &l.event {
                Event::CodePoint(cp) => SegmentEvent::CodePoint {
                    codepoint: cp.clone(),
                },
                Event::Error(err) => SegmentEvent::Error { error: err.kind },
                Event::Reserved(_) => SegmentEvent::Reserved,
            };
            assert_eq!(s.event, want, "{e} at {}", s.offset);
        }
        let decoding = Decoding::new(input, e, None);
        assert_eq!(decoding.validity(), e.validity(input), "{e}");
        let lossy: Vec<BigCodePoint> = decoding.lossy().collect();
        assert_eq!(lossy, e.decode_lossy(input), "{e}");
        let stop = decoding.strict_stop().map(|s| s.offset as u64);
        let want = e.decode(input).err().map(|stop| stop.offset());
        assert_eq!(stop, want, "{e}");
    }
}

#[test]
fn verdicts_count_errors_and_reserved_spans_apart() {
    let verdict = |bytes: &[u8], e| Decoding::new(bytes, e, None).verdict();
    assert_eq!(verdict(b"A", Encoding::Utf8), "valid");
    assert_eq!(verdict(b"\x80", Encoding::Utf8), "1 error");
    assert_eq!(verdict(b"\x80\x80", Encoding::Utf8), "2 errors");
    assert_eq!(
        verdict(b"\xFE", Encoding::CorrectedUtf8),
        "0 errors, 1 reserved"
    );
    assert_eq!(
        verdict(b"\xFEA\xFE\xC3", Encoding::CorrectedUtf8),
        "1 error, 2 reserved"
    );
    assert_eq!(
        Decoding::new(b"\xFE", Encoding::CorrectedUtf8, None).result(),
        "reserved"
    );
}

/// Every encoding explains any bytes without a panic (this build's debug assertions
/// check each code point against the codec), covering them exactly.
#[test]
fn every_encoding_covers_arbitrary_bytes() {
    // Bytes that begin every UTF-∞-8 form, then pseudo-random continuations.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..3000 {
        let mut bytes = vec![[0xFF, 0xFE, 0xF4, 0xED, 0xE0, 0xC1][round % 6]];
        let len = 1 + round % 37;
        for _ in 0..len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Mostly continuation bytes, often the length bytes A0–AF and B4.
            let b = match state % 8 {
                0 => 0xB4,
                1..=3 => 0xA0 | (state >> 8) as u8 & 0x0F,
                4 => (state >> 8) as u8,
                _ => 0x80 | (state >> 8) as u8 & 0x3F,
            };
            bytes.push(b);
        }
        for e in Encoding::ALL {
            let covered: usize = explain(&bytes, e, Some(40)).iter().map(|s| s.length).sum();
            assert_eq!(covered, bytes.len(), "{e} {bytes:02X?}");
        }
    }
}

#[test]
fn row_labels_name_the_split_of_the_3_byte_class() {
    let labels: Vec<String> = TABLE.iter().map(row_label).collect();
    assert_eq!(labels[0], "1-byte row, offset 0");
    assert_eq!(labels[2], "3-byte row (raw < CF60), offset 2 208");
    assert_eq!(labels[3], "3-byte row (raw ≥ CF60), offset 4 256");
    assert_eq!(labels[6], "6-byte row, offset 69 275 808");
}

#[test]
fn segments_serialize_with_the_vectors_names() {
    let segments = corrected(b"\xEC\xBD\xA0\xC3\xFE");
    let json = serde_json::to_value(&segments).unwrap();
    assert_eq!(json[0]["class"], "codepoint");
    assert_eq!(json[0]["codepoint"], "U+E000");
    assert_eq!(json[0]["row"]["offset"], 4256);
    assert_eq!(json[0]["row"]["raw"], 0xCF60);
    assert_eq!(json[1]["class"], "error");
    assert_eq!(json[1]["error"], "truncated");
    assert_eq!(json[1].get("row"), None);
    assert_eq!(json[2]["class"], "reserved");
    assert_eq!(
        (json[2]["offset"].as_u64(), json[2]["length"].as_u64()),
        (Some(4), Some(1))
    );
}
