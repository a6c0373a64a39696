//! Material signatures: how many men and kings each side has, named from the
//! side to move's point of view (one table serves both colours, see `Placement`).

use std::fmt;

/// The most pieces a signature may hold: the index's tables of canonical
/// piece sets grow with it (and 7 pieces would need terabytes anyway).
pub const MAX_PIECES: u32 = 6;

/// Men and kings of the side to move ("us") and of the other side ("them").
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Signature {
    /// Men of the side to move.
    pub us_men: u8,
    /// Kings of the side to move.
    pub us_kings: u8,
    /// Men of the other side.
    pub them_men: u8,
    /// Kings of the other side.
    pub them_kings: u8,
}

impl Signature {
    /// A signature from its four counts.
    pub const fn new(us_men: u8, us_kings: u8, them_men: u8, them_kings: u8) -> Signature {
        Signature {
            us_men,
            us_kings,
            them_men,
            them_kings,
        }
    }

    /// Pieces on the board.
    pub const fn pieces(self) -> u32 {
        (self.us_men + self.us_kings + self.them_men + self.them_kings) as u32
    }

    /// Men of both sides.
    pub const fn men(self) -> u32 {
        (self.us_men + self.them_men) as u32
    }

    /// The same material with the other side to move: where a quiet move leads.
    pub const fn flipped(self) -> Signature {
        Signature::new(self.them_men, self.them_kings, self.us_men, self.us_kings)
    }

    /// A small dense number for array lookups, below `Signature::ID_LIMIT`.
    pub const fn id(self) -> usize {
        let n = MAX_PIECES as usize + 1;
        ((self.us_men as usize * n + self.us_kings as usize) * n + self.them_men as usize) * n
            + self.them_kings as usize
    }

    /// One more than the largest `id`.
    pub const ID_LIMIT: usize = (MAX_PIECES as usize + 1).pow(4);

    /// Every signature with 2..=`max_pieces` pieces and at least one piece a
    /// side, in build order: fewer pieces first (captures lead there), then
    /// fewer men (promotions turn a man into a king at equal piece count).
    /// A signature and its flipped twin are adjacent: they are built together.
    pub fn build_order(max_pieces: u32) -> Vec<Signature> {
        let mut all = Vec::new();
        for us in 1..max_pieces.min(MAX_PIECES) {
            for them in 1..=(max_pieces.min(MAX_PIECES) - us) {
                for us_men in 0..=us {
                    for them_men in 0..=them {
                        all.push(Signature::new(
                            us_men as u8,
                            (us - us_men) as u8,
                            them_men as u8,
                            (them - them_men) as u8,
                        ));
                    }
                }
            }
        }
        // The pair key (the smaller of a signature and its twin) keeps twins together.
        all.sort_by_key(|s| (s.pieces(), s.men(), (*s).min(s.flipped()), *s));
        all
    }

    /// Parses a name like `KKMvK` (kings and men of the side to move, `v`,
    /// then the other side's).
    pub fn parse(text: &str) -> Result<Signature, SignatureError> {
        let (us, them) = text
            .split_once('v')
            .ok_or_else(|| SignatureError::NoSides(text.to_string()))?;
        let side = |s: &str| -> Result<(u8, u8), SignatureError> {
            let kings = s.bytes().take_while(|&b| b == b'K').count();
            let men = s.len() - kings;
            if s.is_empty() || !s.bytes().skip(kings).all(|b| b == b'M') {
                return Err(SignatureError::BadSide(text.to_string()));
            }
            Ok((men as u8, kings as u8))
        };
        let (us_men, us_kings) = side(us)?;
        let (them_men, them_kings) = side(them)?;
        let sig = Signature::new(us_men, us_kings, them_men, them_kings);
        if sig.pieces() > MAX_PIECES {
            return Err(SignatureError::TooManyPieces(text.to_string()));
        }
        Ok(sig)
    }
}

/// Why a signature name was refused (each variant holds the name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignatureError {
    /// No `v` between the two sides.
    NoSides(String),
    /// A side is empty or not kings then men (`KKM`).
    BadSide(String),
    /// More pieces than any table holds (`MAX_PIECES`).
    TooManyPieces(String),
}

impl fmt::Display for SignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignatureError::NoSides(text) => {
                write!(f, "bad signature {text:?} (expected like KKvK or KMvM)")
            }
            SignatureError::BadSide(text) => write!(
                f,
                "bad signature {text:?} (each side: K for kings, then M for men, at least one piece)"
            ),
            SignatureError::TooManyPieces(text) => {
                write!(f, "signature {text:?} has more than {MAX_PIECES} pieces")
            }
        }
    }
}

impl std::error::Error for SignatureError {}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |men: u8, kings: u8| "K".repeat(kings as usize) + &"M".repeat(men as usize);
        write!(
            f,
            "{}v{}",
            side(self.us_men, self.us_kings),
            side(self.them_men, self.them_kings)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sig in Signature::build_order(MAX_PIECES) {
            assert_eq!(Signature::parse(&sig.to_string()), Ok(sig));
        }
        assert_eq!(Signature::parse("KKvK"), Ok(Signature::new(0, 2, 0, 1)));
        assert_eq!(Signature::parse("KMMvM"), Ok(Signature::new(2, 1, 1, 0)));
        for bad in ["", "v", "Kv", "vK", "MKvK", "KxvK", "KKKKvKKK", "KK"] {
            assert!(Signature::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            Signature::parse("KK"),
            Err(SignatureError::NoSides("KK".into()))
        );
        assert_eq!(
            Signature::parse("MKvK"),
            Err(SignatureError::BadSide("MKvK".into()))
        );
        let e = Signature::parse("KKKKvKKK").unwrap_err();
        assert_eq!(e, SignatureError::TooManyPieces("KKKKvKKK".into()));
        assert_eq!(
            e.to_string(),
            format!("signature \"KKKKvKKK\" has more than {MAX_PIECES} pieces")
        );
    }

    #[test]
    fn build_order_puts_what_a_table_needs_first() {
        // Counted by hand: with 2 pieces each side has one, a man or a
        // king: 2 * 2 = 4. With 3 pieces one side has one (2 ways) and the
        // other two (MM, KM, KK: 3 ways), either side first: 12. 16 in all.
        assert_eq!(Signature::build_order(2).len(), 4);
        assert_eq!(Signature::build_order(3).len(), 16);
        let order = Signature::build_order(5);
        let pos = |s: Signature| order.iter().position(|&t| t == s).unwrap();
        for (i, &s) in order.iter().enumerate() {
            // A promotion (one man fewer, one king more) is built before.
            if s.us_men > 0 {
                let promoted =
                    Signature::new(s.us_men - 1, s.us_kings + 1, s.them_men, s.them_kings);
                assert!(pos(promoted.flipped()) < i, "{promoted} before {s}");
            }
            // The flipped twin is next to it.
            let j = pos(s.flipped());
            assert!(i.abs_diff(j) <= 1, "{s} and its twin apart");
            assert!(s.id() < Signature::ID_LIMIT);
        }
    }
}
