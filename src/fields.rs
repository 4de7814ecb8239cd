//! Value codes and their two-bit WDL fields: how a value is split into a
//! field (draw, win, loss, and in WDL-only tables the loss in 0) and a
//! distance, and the fields packed four to a byte, counted, copied and
//! decoded in bulk.
//!
//! This is the packing the solver's lookups and the table files share; it
//! sits below both (`solve` reads lower tiers' fields with it, `table`
//! lays files out around it) and knows nothing of either.

/// The 2-bit WDL field of a value code: 0 draw, 1 win, 2 loss. With no
/// branch on the code: the values of a tier come mixed, and a branch on
/// each mispredicts often where tiers are counted or packed.
#[inline]
pub(crate) fn wdl_bits(code: u16) -> u8 {
    u8::from(code != 0) * (2 - (code & 1) as u8)
}

/// The 2-bit WDL field of a value code in a WDL-only table: as
/// [`wdl_bits`], but 3 for a loss in 0 plies (the side to move has no move
/// and loses), the one distance the rules themselves look at.
#[inline]
pub(crate) fn wdl_only_bits(code: u16) -> u8 {
    wdl_bits(code) + u8::from(code == 2)
}

/// The plies a WDL-only table stands in for every win and every loss but
/// a loss in 0: their distance is not known.
pub(crate) const UNKNOWN_PLIES: u16 = 1;

/// The value code a WDL-only table reads back for a WDL field: a draw, a
/// win or a loss in [`UNKNOWN_PLIES`], or a loss in 0 plies (field 3).
#[inline]
pub(crate) const fn wdl_only_code(w: u8) -> u16 {
    match w {
        0 => 0,
        1 => 2 * UNKNOWN_PLIES + 1,
        2 => 2 * UNKNOWN_PLIES + 2,
        _ => 2,
    }
}

/// The value code of each WDL-only field, by field.
pub(crate) const WDL_ONLY_FIELD_CODES: [u16; 4] = [
    wdl_only_code(0),
    wdl_only_code(1),
    wdl_only_code(2),
    wdl_only_code(3),
];

/// The distance of a value code.
#[inline]
pub(crate) fn distance(code: u16) -> u16 {
    code.saturating_sub(1) / 2
}

/// The value code of a WDL field and a distance, if they fit a code.
#[inline]
pub(crate) fn code_of(wdl: u8, d: u16) -> Option<u16> {
    match wdl {
        0 if d == 0 => Some(0),
        1 if d <= 32767 => Some(2 * d + 1),
        2 if d <= 32766 => Some(2 * d + 2),
        _ => None,
    }
}

/// The WDL field of position `j` of a decoded WDL block.
#[inline]
pub(crate) fn wdl_at(raw: &[u8], j: usize) -> u8 {
    (raw[j / 4] >> (2 * (j % 4))) & 3
}

/// How many of the `n` packed two-bit fields from field `start` of
/// `fields` on hold each of the four values: 32 fields a word by counting
/// bits (a field is 3 where both its bits are set, 1 or 2 where one is),
/// the odd fields at each end one at a time.
pub(crate) fn count_fields(fields: &[u8], start: usize, n: usize) -> [u64; 4] {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let mut counts = [0u64; 4];
    let end = start + n;
    let head = start.next_multiple_of(32).min(end);
    for j in start..head {
        counts[wdl_at(fields, j) as usize] += 1;
    }
    let mut j = head;
    while j + 32 <= end {
        let w = u64::from_le_bytes(fields[j / 4..j / 4 + 8].try_into().expect("8 bytes"));
        let (lo, hi) = (w & LOW, w >> 1 & LOW);
        let (one, two, three) = (
            (lo & !hi).count_ones(),
            (hi & !lo).count_ones(),
            (lo & hi).count_ones(),
        );
        counts[0] += u64::from(32 - one - two - three);
        counts[1] += u64::from(one);
        counts[2] += u64::from(two);
        counts[3] += u64::from(three);
        j += 32;
    }
    for j in j..end {
        counts[wdl_at(fields, j) as usize] += 1;
    }
    counts
}

/// Copy `n` packed two-bit fields from field `start` of `src` to field
/// `at` of `dst`, whose fields `at..at + n` are zero: whole bytes at a
/// time (shifted when the two do not start at the same place in a byte),
/// the odd fields at each end one at a time (the hot loop of reading a
/// WDL-only tier's fields in place).
pub(crate) fn copy_fields(src: &[u8], start: usize, dst: &mut [u8], at: usize, n: usize) {
    let set = |dst: &mut [u8], i: usize, w: u8| dst[i / 4] |= w << (2 * (i % 4));
    let head = ((4 - at % 4) % 4).min(n);
    for j in 0..head {
        set(dst, at + j, wdl_at(src, start + j));
    }
    let bytes = (n - head) / 4;
    let (s0, d0) = (start + head, (at + head) / 4);
    let out = &mut dst[d0..d0 + bytes];
    if bytes == 0 {
    } else if s0 % 4 == 0 {
        out.copy_from_slice(&src[s0 / 4..s0 / 4 + bytes]);
    } else {
        // Each byte's four fields: the top of one source byte and the
        // bottom of the next (which holds fields of the span, so exists).
        let shift = 2 * (s0 % 4);
        let from = &src[s0 / 4..s0 / 4 + bytes + 1];
        for (o, two) in out.iter_mut().zip(from.windows(2)) {
            *o = two[0] >> shift | two[1] << (8 - shift);
        }
    }
    for j in head + 4 * bytes..n {
        set(dst, at + j, wdl_at(src, start + j));
    }
}

/// The four WDL-only codes a byte of packed fields holds, for every byte.
const WDL_ONLY_CODES: [[u16; 4]; 256] = {
    let mut t = [[0u16; 4]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 4 {
            t[b][i] = wdl_only_code(((b >> (2 * i)) & 3) as u8);
            i += 1;
        }
        b += 1;
    }
    t
};

/// The codes of a WDL-only block's fields `start..start + out.len()`:
/// `out[j] = wdl_only_code(wdl_at(raw, start + j))`, the whole bytes among
/// them four fields at a time (the hot loop of reading a WDL-only tier).
pub(crate) fn decode_wdl_only(raw: &[u8], start: usize, out: &mut [u16]) {
    let n = out.len();
    let head = ((4 - start % 4) % 4).min(n);
    let bytes = (n - head) / 4;
    let (lead, rest) = out.split_at_mut(head);
    let (body, tail) = rest.split_at_mut(4 * bytes);
    for (j, slot) in lead.iter_mut().enumerate() {
        *slot = wdl_only_code(wdl_at(raw, start + j));
    }
    let first_byte = (start + head) / 4;
    for (four, &b) in body
        .chunks_exact_mut(4)
        .zip(&raw[first_byte..first_byte + bytes])
    {
        four.copy_from_slice(&WDL_ONLY_CODES[b as usize]);
    }
    let t0 = start + head + 4 * bytes;
    for (j, slot) in tail.iter_mut().enumerate() {
        *slot = wdl_only_code(wdl_at(raw, t0 + j));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Value;

    /// The branch-free field and distance of every code, against the
    /// codes' definition: 0 a draw, an odd code a win, an even one a loss
    /// (2 the loss in 0 plies), the distance `(code - 1) / 2`.
    #[test]
    fn the_field_and_distance_of_every_code() {
        for code in 0..=u16::MAX {
            let (field, only, d) = match code {
                0 => (0, 0, 0),
                c if c % 2 == 1 => (1, 1, (c - 1) / 2),
                2 => (2, 3, 0),
                c => (2, 2, (c - 1) / 2),
            };
            assert_eq!(wdl_bits(code), field, "{code}");
            assert_eq!(wdl_only_bits(code), only, "{code}");
            assert_eq!(distance(code), d, "{code}");
        }
    }

    #[test]
    fn codes_split_and_join() {
        for c in 0..=u16::MAX {
            let v = Value::from_code(c);
            let w = wdl_bits(c);
            let d = distance(c);
            assert_eq!(d, v.plies());
            assert_eq!(
                w,
                match v {
                    Value::Draw => 0,
                    Value::Win(_) => 1,
                    Value::Loss(_) => 2,
                }
            );
            assert_eq!(code_of(w, d), Some(c));
        }
        assert_eq!(code_of(3, 0), None);
        assert_eq!(code_of(0, 1), None);
    }

    /// The byte-at-a-time decoding against the field-at-a-time
    /// definition, at every alignment of the first and last field.
    #[test]
    fn wdl_only_decoding_agrees_with_each_field_read_alone() {
        let raw: Vec<u8> = (0..64u32).map(|i| (i * 97 + 13) as u8).collect();
        for start in 0..12 {
            for len in 0..(4 * raw.len() - start).min(90) {
                let mut out = vec![u16::MAX; len];
                decode_wdl_only(&raw, start, &mut out);
                let slow: Vec<u16> = (start..start + len)
                    .map(|j| wdl_only_code(wdl_at(&raw, j)))
                    .collect();
                assert_eq!(out, slow, "start {start}, len {len}");
            }
        }
        // The whole block, every byte value among its fields.
        let all: Vec<u8> = (0..=255).collect();
        let mut out = vec![0; 4 * all.len()];
        decode_wdl_only(&all, 0, &mut out);
        for (j, &c) in out.iter().enumerate() {
            assert_eq!(c, wdl_only_code(wdl_at(&all, j)));
        }
    }

    /// Fields counted a word at a time against each field read alone, at
    /// every start within two words and lengths past two words, every
    /// field value among them.
    #[test]
    fn fields_count_as_each_field_read_alone() {
        let src: Vec<u8> = (0..40u32).map(|i| (i * 151 + 7) as u8).collect();
        for start in 0..70 {
            for n in 0..=(4 * src.len() - start).min(100) {
                let mut want = [0u64; 4];
                for j in start..start + n {
                    want[wdl_at(&src, j) as usize] += 1;
                }
                assert_eq!(count_fields(&src, start, n), want, "start {start}, n {n}");
            }
        }
        // The whole slice, each byte value once.
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(count_fields(&all, 0, 4 * all.len()), [256; 4]);
    }

    /// Fields copied a byte at a time against each field copied alone, at
    /// every alignment of source and destination, up to the source's end.
    #[test]
    fn fields_copy_as_each_field_read_alone() {
        let src: Vec<u8> = (0..16u32).map(|i| (i * 151 + 7) as u8).collect();
        for start in 0..9 {
            for at in 0..9 {
                for n in 0..=(4 * src.len() - start).min(70) {
                    let mut dst = vec![0u8; (at + n).div_ceil(4) + 1];
                    copy_fields(&src, start, &mut dst, at, n);
                    for j in 0..4 * dst.len() {
                        let want = if (at..at + n).contains(&j) {
                            wdl_at(&src, start + j - at)
                        } else {
                            0
                        };
                        assert_eq!(
                            wdl_at(&dst, j),
                            want,
                            "start {start}, at {at}, n {n}, j {j}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn wdl_only_fields_keep_the_loss_in_0() {
        for c in 0..=2000u16 {
            let v = Value::from_code(c);
            let back = Value::from_code(wdl_only_code(wdl_only_bits(c)));
            assert_eq!(crate::Wdl::from(back), crate::Wdl::from(v));
            assert_eq!(back == Value::Loss(0), v == Value::Loss(0), "{v:?}");
        }
    }
}
