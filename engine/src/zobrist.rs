//! Zobrist keys, generated at compile time from a fixed seed so that hashes
//! (and with them the bench node count) are identical on every machine.

use crate::rules::Color;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Index 0/1: white man/king, 2/3: black man/king.
pub(crate) static PIECE: [[u64; 64]; 4] = {
    let mut keys = [[0u64; 64]; 4];
    let mut state = 0x7A3A_0000_0000_0001u64;
    let mut p = 0;
    while p < 4 {
        let mut sq = 0;
        while sq < 64 {
            let (s, k) = splitmix(state);
            state = s;
            keys[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    keys
};

pub(crate) const BLACK_TO_MOVE: u64 = splitmix(0xB1AC_0000_0000_0002).1;

/// One key per rule set, see `Rules::index`.
pub(crate) static RULES: [u64; 8] = {
    let mut keys = [0u64; 8];
    let mut state = 0x5275_1E50_0000_0003u64;
    let mut i = 1; // the default rules hash as 0, so default keys stay plain
    while i < 8 {
        let (s, k) = splitmix(state);
        state = s;
        keys[i] = k;
        i += 1;
    }
    keys
};

#[inline(always)]
pub(crate) fn piece(color: Color, king: bool, sq: usize) -> u64 {
    PIECE[color as usize * 2 + king as usize][sq]
}
