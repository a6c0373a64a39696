//! Adjudication: ending a game early when both engines agree it is won or
//! drawn (`-resign`, `-draw`), when nothing irreversible happens any more
//! (`-noprogress`), or when it is too long (`-maxmoves`). All off by default.

use tama_engine::notation::pdn::Outcome;
use tama_engine::{Move, Position};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdjudication {
    /// Not before this full-move number.
    pub movenumber: u32,
    /// For this many consecutive moves of each side.
    pub movecount: u32,
    /// |score| at most this (centi-men).
    pub score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignAdjudication {
    pub movecount: u32,
    pub score: i32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Draw after this many moves of each side with no capture and no man move.
    pub noprogress: Option<u32>,
    pub draw: Option<DrawAdjudication>,
    pub resign: Option<ResignAdjudication>,
    /// Draw when the game reaches this many moves of each side.
    pub maxmoves: Option<u32>,
}

impl std::fmt::Display for Adjudication {
    /// `noprogress=N draw=movenumber=N,movecount=N,score=CP
    /// resign=movecount=N,score=CP maxmoves=N`, `off` for a rule not in
    /// use (part of the schedule identity of results files: `shard`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let number = |n: Option<u32>| n.map_or("off".to_string(), |n| n.to_string());
        let draw = self.draw.map_or("off".to_string(), |d| {
            format!(
                "movenumber={},movecount={},score={}",
                d.movenumber, d.movecount, d.score
            )
        });
        let resign = self.resign.map_or("off".to_string(), |r| {
            format!("movecount={},score={}", r.movecount, r.score)
        });
        write!(
            f,
            "noprogress={} draw={draw} resign={resign} maxmoves={}",
            number(self.noprogress),
            number(self.maxmoves)
        )
    }
}

/// Adjudication state over the plies played so far.
pub struct Adjudicator {
    rules: Adjudication,
    /// Plies since the last capture or man move.
    quiet_plies: u32,
    /// Reported scores, White's view, one per ply (None: no score).
    scores: Vec<Option<i32>>,
}

impl Adjudicator {
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            quiet_plies: 0,
            scores: Vec::new(),
        }
    }

    pub fn record(&mut self, pos: &Position, mv: &Move, score_white: Option<i32>) {
        let man = pos.piece_at(mv.from).is_some_and(|p| !p.king);
        if mv.is_capture() || man {
            self.quiet_plies = 0;
        } else {
            self.quiet_plies += 1;
        }
        self.scores.push(score_white);
    }

    /// A verdict, if the game is to be adjudicated now (`plies` played, the
    /// full-move number of the next move).
    pub fn verdict(&self, plies: usize, fullmove: u32) -> Option<(Outcome, String)> {
        if let Some(n) = self.rules.noprogress {
            if n > 0 && self.quiet_plies >= 2 * n {
                return Some((
                    Outcome::Draw,
                    format!("adjudication: {n} moves without capture or man move"),
                ));
            }
        }
        if let Some(r) = self.rules.resign {
            let k = 2 * r.movecount as usize;
            if self.scores.len() >= k {
                let last = &self.scores[self.scores.len() - k..];
                if last.iter().all(|s| s.is_some_and(|v| v >= r.score)) {
                    return Some((
                        Outcome::WhiteWins,
                        "adjudication: black resigns (both scores agree)".into(),
                    ));
                }
                if last.iter().all(|s| s.is_some_and(|v| v <= -r.score)) {
                    return Some((
                        Outcome::BlackWins,
                        "adjudication: white resigns (both scores agree)".into(),
                    ));
                }
            }
        }
        if let Some(d) = self.rules.draw {
            let k = 2 * d.movecount as usize;
            if fullmove > d.movenumber && k > 0 && self.scores.len() >= k {
                let last = &self.scores[self.scores.len() - k..];
                if last.iter().all(|s| s.is_some_and(|v| v.abs() <= d.score)) {
                    return Some((
                        Outcome::Draw,
                        "adjudication: draw (both scores agree)".into(),
                    ));
                }
            }
        }
        if let Some(m) = self.rules.maxmoves {
            if plies >= 2 * m as usize {
                return Some((
                    Outcome::Draw,
                    format!("adjudication: maximum game length ({m} moves)"),
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tama_engine::Rules;

    #[test]
    fn no_progress_counts_king_moves_only() {
        let pos = Position::from_fen("W:WKa1,c2:BKh8,f7", Rules::default()).unwrap();
        let mut a = Adjudicator::new(Adjudication {
            noprogress: Some(2),
            ..Adjudication::default()
        });
        let king = pos.parse_move("a1-a2").unwrap();
        let man = pos.parse_move("c2-c3").unwrap();
        for _ in 0..3 {
            a.record(&pos, &king, None);
        }
        assert!(a.verdict(3, 2).is_none());
        a.record(&pos, &man, None);
        assert!(a.verdict(4, 3).is_none(), "a man move resets the count");
        for _ in 0..4 {
            a.record(&pos, &king, None);
        }
        let (o, why) = a.verdict(8, 5).unwrap();
        assert_eq!(o, Outcome::Draw);
        assert!(why.contains("without capture"), "{why}");
    }

    #[test]
    fn score_adjudication_needs_both_engines_to_agree() {
        let pos = Position::startpos(Rules::default());
        let mv = tama_engine::movegen::legal_moves(&pos)[0];
        let mut a = Adjudicator::new(Adjudication {
            resign: Some(ResignAdjudication {
                movecount: 2,
                score: 500,
            }),
            draw: Some(DrawAdjudication {
                movenumber: 10,
                movecount: 2,
                score: 5,
            }),
            ..Adjudication::default()
        });
        // White says +600, Black (white's view) only +400: no agreement.
        for s in [600, 400, 600, 400] {
            a.record(&pos, &mv, Some(s));
        }
        assert!(a.verdict(4, 3).is_none());
        for s in [-600, -700, -550, -900] {
            a.record(&pos, &mv, Some(s));
        }
        let (o, _) = a.verdict(8, 5).unwrap();
        assert_eq!(o, Outcome::BlackWins);
        // Near-zero scores: a draw, but only after move 10.
        let mut d = Adjudicator::new(a.rules);
        for s in [0, 3, -2, 1] {
            d.record(&pos, &mv, Some(s));
        }
        assert!(d.verdict(4, 3).is_none());
        assert_eq!(d.verdict(20, 11).unwrap().0, Outcome::Draw);
        // A missing score breaks the run.
        d.record(&pos, &mv, None);
        assert!(d.verdict(21, 11).is_none());
    }

    #[test]
    fn max_moves() {
        let a = Adjudicator::new(Adjudication {
            maxmoves: Some(3),
            ..Adjudication::default()
        });
        assert!(a.verdict(5, 3).is_none());
        assert!(a.verdict(6, 4).unwrap().1.contains("maximum game length"));
    }
}
