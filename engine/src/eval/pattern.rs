//! Board patterns in the manner of Scan: the board is covered by small
//! overlapping regions, and every configuration of the men in a region has
//! its own weight, one for the opening and one for the endgame, blended by
//! the number of pieces on the board.
//!
//! A region is two ranks by four files (8 squares, each empty, a white man
//! or a black man: 3^8 = 6561 configurations); its lower-left corner runs
//! over ranks 1-7 and files a-e, so 35 regions overlap on every square.
//! Kings are left out (they are counted by the hand terms): a pattern says
//! how the men stand.
//!
//! Two symmetries tie the weights, so the evaluation has them by
//! construction and the data teaches each shape once:
//! - left-right: the rules do not tell the a-file from the h-file, so a
//!   region and its mirror image share the weight;
//! - colour: a configuration seen from Black's side (ranks flipped, colours
//!   swapped) is worth the negative for White. A configuration that is its
//!   own colour-flipped image is worth nothing.
//!
//! `Layout` maps every (region, configuration) to a free parameter and a
//! sign; a weights file stores the parameters, and `PatternTable` holds the
//! expanded table the evaluation reads: one lookup per region, the opening
//! and endgame weights side by side.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// A region's height in ranks.
pub const REGION_RANKS: usize = 2;
/// A region's width in files.
pub const REGION_FILES: usize = 4;
const REGION_SQUARES: usize = REGION_RANKS * REGION_FILES;
/// 3^8: every square of a region empty, white man or black man.
pub const CONFIGS: usize = 3usize.pow(REGION_SQUARES as u32);
/// Where a region's lower-left corner can stand: ranks 0..=6, files 0..=4.
pub(super) const CORNER_RANKS: usize = 8 - REGION_RANKS + 1;
const CORNER_FILES: usize = 8 - REGION_FILES + 1;
/// The regions: every placement on the board.
pub const REGIONS: usize = CORNER_RANKS * CORNER_FILES;
/// The weight's phase runs from an empty board (0) to a full one.
pub const PHASES: i64 = 32;

/// Configurations of one rank of a region: 3^4 = 81.
const ROW_CONFIGS: usize = 3usize.pow(REGION_FILES as u32);

/// `ROW[white | black << 8]`: a region's four squares on one rank (its
/// white men in bits 0-3, its black men in bits 8-11, the other bits 0) as
/// base-3 digits, the region's `j`-th file the digit of 3^j: 0 empty, 1 a
/// white man, 2 a black man. (Entries with a square both white and black
/// are never read: men do not share squares.) The colours a byte apart
/// let one shift and one mask cut a region's window out of a whole rank.
static ROW: [u16; 1 << (8 + REGION_FILES)] = {
    let mut t = [0u16; 1 << (8 + REGION_FILES)];
    let mut bits = 0;
    while bits < t.len() {
        let mut v = 0u16;
        let mut j = REGION_FILES;
        while j > 0 {
            j -= 1;
            let digit = ((bits >> j) & 1) + 2 * ((bits >> (8 + j)) & 1);
            v = v * 3 + digit as u16;
        }
        t[bits] = v;
        bits += 1;
    }
    t
};

/// Every rank's row configuration (`ROW`) of every region file:
/// `[rank][file]`.
#[inline(always)]
fn row_configs(white: u64, black: u64) -> [[u16; CORNER_FILES]; 8] {
    let window = (1usize << REGION_FILES) - 1;
    let mask = window | window << 8;
    // Loops rather than `array::from_fn`, which the compiler left out of
    // line (a call per evaluation, measured with cachegrind).
    let mut rows = [[0u16; CORNER_FILES]; 8];
    for (rank, row) in rows.iter_mut().enumerate() {
        let both = ((white >> (8 * rank)) & 0xff) | ((black >> (8 * rank)) & 0xff) << 8;
        for (file, x) in row.iter_mut().enumerate() {
            *x = ROW[(both >> file) as usize & mask];
        }
    }
    rows
}

/// Calls `visit(region, configuration)` for every region, White's men `white`
/// and Black's men `black`. A region's configuration is its squares as
/// base-3 digits (0 empty, 1 a white man, 2 a black man), the square on its
/// `i`-th rank and `j`-th file the digit of 3^(4i + j): its lowest rank's
/// row configuration plus 81 times the next one's, so each rank's rows are
/// read once for all the regions that hold them.
#[inline(always)]
#[allow(clippy::needless_range_loop)] // constant bounds: see below
pub fn for_each_config(white: u64, black: u64, mut visit: impl FnMut(usize, usize)) {
    let rows = row_configs(white, black);
    // Constant bounds rather than `windows`, so that the compiler unrolls
    // the loops and the region numbers become constants (measured with
    // cachegrind: a third fewer instructions per evaluation).
    for band in 0..CORNER_RANKS {
        for file in 0..CORNER_FILES {
            let mut config = 0;
            for rank in (band..band + REGION_RANKS).rev() {
                config = config * ROW_CONFIGS + rows[rank][file] as usize;
            }
            visit(band * CORNER_FILES + file, config);
        }
    }
}

/// The regions' weights summed, per phase, before the phase blend: what an
/// incremental evaluation carries from a position to the next.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Sums {
    /// The opening weights' sum.
    pub opening: i32,
    /// The endgame weights' sum.
    pub endgame: i32,
}

impl Sums {
    /// The blend by the number of pieces on the board, White's view, in
    /// 1/(32 * `PHASES`) centi-men.
    #[inline(always)]
    pub fn blend(self, pieces: u32) -> i64 {
        let phase = (pieces as i64).min(PHASES);
        self.opening as i64 * phase + self.endgame as i64 * (PHASES - phase)
    }
}

/// A parameter and the sign it is read with, or none (a configuration that
/// is its own colour-flipped image).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slot(u32);

impl Slot {
    const NONE: Slot = Slot(u32::MAX);

    /// `(parameter, negated)`.
    #[inline(always)]
    pub fn get(self) -> Option<(usize, bool)> {
        (self != Slot::NONE).then_some(((self.0 >> 1) as usize, self.0 & 1 == 1))
    }
}

/// The tying of (region, configuration) pairs to free parameters.
pub struct Layout {
    slots: Vec<Slot>,
    params: usize,
}

fn digits(config: usize) -> [u8; REGION_SQUARES] {
    let mut d = [0u8; REGION_SQUARES];
    let mut c = config;
    for x in d.iter_mut() {
        *x = (c % 3) as u8;
        c /= 3;
    }
    d
}

fn undigits(d: &[u8; REGION_SQUARES]) -> usize {
    d.iter().rev().fold(0, |c, &x| c * 3 + x as usize)
}

/// The region and configuration seen in the left-right mirror.
fn mirrored(region: usize, config: usize) -> (usize, usize) {
    let (rank, file) = (region / CORNER_FILES, region % CORNER_FILES);
    let d = digits(config);
    let mut m = [0u8; REGION_SQUARES];
    for i in 0..REGION_RANKS {
        for j in 0..REGION_FILES {
            m[i * REGION_FILES + (REGION_FILES - 1 - j)] = d[i * REGION_FILES + j];
        }
    }
    let file = CORNER_FILES - 1 - file;
    (rank * CORNER_FILES + file, undigits(&m))
}

/// The region and configuration seen from the other side: ranks flipped,
/// colours swapped.
fn colour_flipped(region: usize, config: usize) -> (usize, usize) {
    let (rank, file) = (region / CORNER_FILES, region % CORNER_FILES);
    let d = digits(config);
    let mut m = [0u8; REGION_SQUARES];
    for i in 0..REGION_RANKS {
        for j in 0..REGION_FILES {
            let x = d[i * REGION_FILES + j];
            m[(REGION_RANKS - 1 - i) * REGION_FILES + j] = [0, 2, 1][x as usize];
        }
    }
    let rank = CORNER_RANKS - 1 - rank;
    (rank * CORNER_FILES + file, undigits(&m))
}

impl Layout {
    /// The one layout (built on first use, a few milliseconds).
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::build)
    }

    fn build() -> Layout {
        let key = |(r, c): (usize, usize)| r * CONFIGS + c;
        let mut slots = vec![Slot::NONE; REGIONS * CONFIGS];
        let mut params = 0u32;
        for region in 0..REGIONS {
            for config in 0..CONFIGS {
                let me = key((region, config));
                let mirror = key(mirrored(region, config));
                let flipped = colour_flipped(region, config);
                let flip = key(flipped);
                let flip_mirror = key(mirrored(flipped.0, flipped.1));
                if flip == me || flip_mirror == me {
                    continue;
                }
                let same_sign = me.min(mirror);
                let other_sign = flip.min(flip_mirror);
                let (canonical, negated) = if same_sign < other_sign {
                    (same_sign, 0)
                } else {
                    (other_sign, 1)
                };
                // Keys are visited in ascending order and the canonical key
                // is the orbit's smallest, so it already has its parameter.
                let id = if canonical == me {
                    params += 1;
                    params - 1
                } else {
                    slots[canonical].0 >> 1
                };
                slots[me] = Slot(id << 1 | negated);
            }
        }
        Layout {
            slots,
            params: params as usize,
        }
    }

    /// The number of free parameters (per phase).
    pub fn params(&self) -> usize {
        self.params
    }

    /// The parameter (and sign) of a configuration of a region.
    #[inline(always)]
    pub fn slot(&self, region: usize, config: usize) -> Slot {
        self.slots[region * CONFIGS + config]
    }
}

/// The free parameters, in 1/32 centi-men: per parameter an opening and an
/// endgame weight.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PatternParams {
    /// The weights on a full board.
    pub opening: Vec<i16>,
    /// The weights on an empty board.
    pub endgame: Vec<i16>,
}

impl PatternParams {
    /// Every weight 0.
    pub fn zero() -> PatternParams {
        let n = Layout::get().params();
        PatternParams {
            opening: vec![0; n],
            endgame: vec![0; n],
        }
    }
}

/// Room for a region's configurations in `PatternTable`: the power of two
/// above `CONFIGS`, so that a configuration masked to it is in bounds by
/// construction. (A configuration is always below `CONFIGS`, and the mask
/// changes nothing, but the compiler cannot see that through `ROW`: each
/// of the evaluation's lookups paid a bounds check.) The slots from
/// `CONFIGS` on are never read, so they cost address space, not cache.
const CONFIG_ROOM: usize = CONFIGS.next_power_of_two();

/// The expanded table: `[opening, endgame]` per (region, configuration).
/// Regions are its outer indices (band, then file), of fixed size, so that
/// reading a region needs no bounds check for its file and one per band.
#[derive(Clone)]
pub struct PatternTable {
    params: PatternParams,
    table: Box<[[[[i16; 2]; CONFIG_ROOM]; CORNER_FILES]; CORNER_RANKS]>,
    /// Unique to the weights: tables made apart have different ids, a
    /// clone (the same weights) the same.
    id: u64,
}

impl PatternTable {
    /// The table these parameters expand to.
    pub fn new(params: PatternParams) -> PatternTable {
        let layout = Layout::get();
        assert_eq!(params.opening.len(), layout.params());
        assert_eq!(params.endgame.len(), layout.params());
        let mut table: Box<[[[[i16; 2]; CONFIG_ROOM]; CORNER_FILES]; CORNER_RANKS]> =
            vec![[[[0i16; 2]; CONFIG_ROOM]; CORNER_FILES]; CORNER_RANKS]
                .into_boxed_slice()
                .try_into()
                .expect("CORNER_RANKS bands");
        for region in 0..REGIONS {
            let configs = &mut table[region / CORNER_FILES][region % CORNER_FILES];
            for (config, entry) in configs[..CONFIGS].iter_mut().enumerate() {
                if let Some((p, negated)) = layout.slot(region, config).get() {
                    // Parameters keep to -32767..=32767, so negation cannot overflow.
                    let (o, e) = (params.opening[p], params.endgame[p]);
                    *entry = if negated { [-o, -e] } else { [o, e] };
                }
            }
        }
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        PatternTable { params, table, id }
    }

    /// Which weights these are, for those who keep sums read from them
    /// (`accumulator`): never 0.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The parameters it was made from.
    pub fn params(&self) -> &PatternParams {
        &self.params
    }

    /// The patterns' score, White's view, in 1/(32 * `PHASES`) centi-men.
    #[inline(always)]
    pub fn score(&self, white_men: u64, black_men: u64, pieces: u32) -> i64 {
        self.sums(white_men, black_men).blend(pieces)
    }

    /// The sums of every region's weights: the whole board read.
    #[inline(always)]
    pub fn sums(&self, white_men: u64, black_men: u64) -> Sums {
        let mut s = Sums::default();
        for_each_config(white_men, black_men, |region, config| {
            let w = self.table[region / CORNER_FILES][region % CORNER_FILES]
                [config & (CONFIG_ROOM - 1)];
            s.opening += w[0] as i32;
            s.endgame += w[1] as i32;
        });
        s
    }

    /// The sums of one band's regions: the five on ranks `band` and
    /// `band + 1` (`band` below `CORNER_RANKS`).
    #[inline(always)]
    pub fn band_sums(&self, band: usize, white_men: u64, black_men: u64) -> Sums {
        let window = (1usize << REGION_FILES) - 1;
        let mask = window | window << 8;
        let rank = |r: usize| {
            (((white_men >> (8 * r)) & 0xff) | ((black_men >> (8 * r)) & 0xff) << 8) as usize
        };
        let (lower, upper) = (rank(band), rank(band + 1));
        let mut s = Sums::default();
        for file in 0..CORNER_FILES {
            let config = ROW[(lower >> file) & mask] as usize
                + ROW_CONFIGS * ROW[(upper >> file) & mask] as usize;
            let w = self.table[band][file][config & (CONFIG_ROOM - 1)];
            s.opening += w[0] as i32;
            s.endgame += w[1] as i32;
        }
        s
    }
}

impl std::fmt::Debug for PatternTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nonzero = self.params.opening.iter().filter(|&&x| x != 0).count()
            + self.params.endgame.iter().filter(|&&x| x != 0).count();
        write!(f, "PatternTable({nonzero} non-zero weights)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_configs_read_four_files_of_a_rank() {
        // A white man on b1 (bit 1) and a black man on c1 (bit 2): in the
        // region files from a1, b1 is file 1 (digit 1 at 3^1) and c1 file 2
        // (digit 2 at 3^2); from b1, they are files 0 and 1.
        let rows = row_configs(1 << 1, 1 << 2);
        assert_eq!(rows[0][0], 3 + 2 * 9);
        assert_eq!(rows[0][1], 1 + 2 * 3);
        assert_eq!(rows[0][2], 2);
        assert_eq!(rows[0][3], 0);
        assert_eq!(rows[1], [0; CORNER_FILES]);
        // h8 is file 3 of the last window of rank 8.
        assert_eq!(row_configs(0, 1 << 63)[7][4], 2 * 27);
    }

    #[test]
    fn symmetries_are_involutions() {
        for (region, config) in [(0, 0), (3, 1234), (17, 6560), (34, 4000)] {
            let m = mirrored(region, config);
            assert_eq!(mirrored(m.0, m.1), (region, config));
            let f = colour_flipped(region, config);
            assert_eq!(colour_flipped(f.0, f.1), (region, config));
        }
        // A lone white man on a1 of the a1 region, mirrored: on h1, square 3
        // of the region cornered on e1 (region 4), digit 1 at 3^3.
        assert_eq!(mirrored(0, 1), (4, 27));
        // Colour-flipped: a black man on a8, square 4 of region 30 (a7).
        assert_eq!(colour_flipped(0, 1), (30, 2 * 81));
    }

    #[test]
    fn layout_ties_mirror_images_and_negates_colour_flips() {
        let layout = Layout::get();
        // About a quarter of the table is free, less the self-images.
        assert!(layout.params() > REGIONS * CONFIGS / 4 - 2000);
        assert!(layout.params() < REGIONS * CONFIGS / 4 + 2000);
        for (region, config) in [(0, 1), (7, 100), (12, 5000), (33, 2)] {
            let me = layout.slot(region, config).get().unwrap();
            let m = mirrored(region, config);
            assert_eq!(layout.slot(m.0, m.1).get(), Some(me));
            let f = colour_flipped(region, config);
            assert_eq!(layout.slot(f.0, f.1).get(), Some((me.0, !me.1)));
        }
        // The empty middle region (ranks 4-5) is its own colour-flipped image.
        assert_eq!(layout.slot(3 * CORNER_FILES + 1, 0).get(), None);
    }
}
