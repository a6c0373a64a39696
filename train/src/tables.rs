//! Training taught by the endgame databases (`tama train --egtb DIR`):
//! every sample whose position the tables hold takes their exact value
//! for the side to move (win 1, draw 1/2, loss 0) as its target, instead
//! of the blend of the search's score and the game's result. The tables
//! know these positions; a search at a few thousand nodes and the result
//! of a game played on from there only guess. (`tama datagen --egtb`
//! opens its tables here too, to end games with their value: `selfplay`.)

use crate::error::DataError;
use crate::trainer::Sample;
use std::path::Path;
use tama_engine::egtb::{PositionSampler, Signature, Tablebase, Wdl, MAX_PIECES};
use tama_engine::eval::{endgame, hand};
use tama_engine::movegen::{has_capture, legal_moves};
use tama_engine::rng::Rng;
use tama_engine::rules::Rules;

/// How many samples took the tables' value, by value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relabelled {
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
}

impl Relabelled {
    /// Every relabelled sample.
    pub fn total(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Counts a value and gives it as a target for the side to move.
    pub fn count(&mut self, wdl: Wdl) -> f32 {
        match wdl {
            Wdl::Win => {
                self.wins += 1;
                1.0
            }
            Wdl::Draw => {
                self.draws += 1;
                0.5
            }
            Wdl::Loss => {
                self.losses += 1;
                0.0
            }
        }
    }

    /// `W/D/L for the side to move: w/d/l`, as the reports give it.
    pub fn wdl(&self) -> String {
        format!(
            "W/D/L for the side to move: {}/{}/{}",
            self.wins, self.draws, self.losses
        )
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: Relabelled) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

impl std::fmt::Display for Relabelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} positions relabelled by the endgame databases ({})",
            self.total(),
            self.wdl()
        )
    }
}

/// The tables of `rules` in `dir`: a missing directory, or one without a
/// table for these rules, is an error naming it (every probe would fail,
/// and the training would quietly be the one without tables).
pub fn open(dir: &Path, rules: Rules) -> Result<Tablebase, DataError> {
    Tablebase::open(dir, rules).map_err(|e| format!("--egtb: {e}").into())
}

/// Gives every sample of `samples` whose position `tables` hold their
/// exact value (`Sample::exact`), and counts them.
pub fn relabel(tables: &Tablebase, samples: &mut [Sample]) -> Relabelled {
    let mut counts = Relabelled::default();
    for s in samples.iter_mut() {
        let Some(value) = tables.probe(&s.position) else {
            continue;
        };
        s.exact = Some(counts.count(value.wdl));
    }
    counts
}

/// Positions drawn from the tables with their exact value, split into
/// training and validation samples.
#[derive(Clone, Debug, Default)]
pub struct Drawn {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    /// Their values, both sets together.
    pub counts: Relabelled,
}

/// `n` positions of the tables that hold two pieces a side at least (4
/// pieces and more), drawn
/// uniformly over the tables' entries (`PositionSampler`), each with the
/// tables' value as its target: what a game rarely reaches, the tables
/// teach in any number. Kept only where the evaluation is what the search
/// reads: the side to move has a move and no capture (a capture is played
/// out before anything is evaluated), and the weights alone score it (no
/// known draw, no lone-piece rule). About `valid_percent` of them, by the
/// draw, are held out for validation. The same `seed`, the same samples.
pub fn draw(
    tables: &Tablebase,
    n: usize,
    valid_percent: u32,
    seed: u64,
) -> Result<Drawn, DataError> {
    // A side with one piece left is scored by the lone-piece rule, not
    // the weights: two pieces a side at least.
    let signatures: Vec<Signature> = Signature::build_order(MAX_PIECES)
        .into_iter()
        .filter(|s| s.us_men + s.us_kings >= 2 && s.them_men + s.them_kings >= 2)
        .filter(|&s| tables.table(s).is_some())
        .collect();
    if signatures.is_empty() {
        return Err(
            "--egtb-positions: the tables hold no table with two pieces a side (4 pieces and more)"
                .into(),
        );
    }
    let sampler = PositionSampler::new(signatures);
    let mut rng = Rng::new(seed);
    let mut drawn = Drawn::default();
    while drawn.train.len() + drawn.valid.len() < n {
        let Some(position) = sampler.draw(&mut rng, tables.rules()) else {
            continue;
        };
        let f = hand::features(&position);
        if f.known_draw
            || endgame::overrides_the_weights(&position)
            || has_capture(&position)
            || legal_moves(&position).is_empty()
        {
            continue;
        }
        let Some(value) = tables.probe(&position) else {
            return Err(format!("--egtb-positions: no table holds {}", position.fen()).into());
        };
        let exact = drawn.counts.count(value.wdl);
        // No search scored it and no game was played from it: the target
        // is the exact value, and `trainer::fit_scale` leaves it out.
        let sample = Sample {
            position,
            score: 0,
            result: exact,
            exact: Some(exact),
        };
        match rng.below(100) < u64::from(valid_percent) {
            true => drawn.valid.push(sample),
            false => drawn.train.push(sample),
        }
    }
    Ok(drawn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Split;
    use crate::record::{DataHeader, Ending, GameRecord, GameResult, Record};
    use crate::selfplay::SelfPlay;
    use crate::train;
    use crate::trainer::{self, Objective};
    use std::path::PathBuf;
    use std::sync::Arc;
    use tama_engine::egtb::{self, BuildOptions, Placement};
    use tama_engine::eval::Model;
    use tama_engine::game::Game;
    use tama_engine::position::Position;
    use tama_engine::search::{SearchControl, SearchLimits, Searcher};

    /// A scratch directory, removed when dropped.
    struct Scratch(std::path::PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir()
                .join(format!("tama-train-tables-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Builds the Armenian tables of up to 3 pieces in `dir`, with the
    /// options that built them.
    fn three_pieces(dir: &Path) -> BuildOptions {
        let opts = BuildOptions {
            rules: Rules::ARMENIAN,
            max_pieces: 3,
            distance_pieces: 4,
            threads: 1,
            compress: None,
        };
        egtb::build(dir, &opts, &mut |_| {}).expect("3-piece tables");
        opts
    }

    /// The Armenian tables of up to 3 pieces, and KK v KK (whose inputs
    /// those are: two kings a side have no man to crown): seconds.
    fn tables(dir: &Path) -> Tablebase {
        let opts = three_pieces(dir);
        let job = egtb::find_job("KKvKK").expect("a job");
        let opts = BuildOptions {
            max_pieces: 4,
            ..opts
        };
        egtb::build_job(dir, &opts, &job, &mut |_| {}).expect("KKvKK");
        open(dir, Rules::ARMENIAN).expect("the tables open")
    }

    fn sample(fen: &str, score: i16, result: f32) -> Sample {
        Sample {
            position: Position::from_fen(fen, Rules::ARMENIAN).unwrap(),
            score,
            result,
            exact: None,
        }
    }

    #[test]
    fn a_position_the_tables_hold_is_fitted_to_their_value() {
        let dir = Scratch::new("relabel");
        let tb = tables(&dir.0);
        // White's king d1 takes Black's king d3 up the d-file, lands on d4
        // and turns to take f4 along the fourth rank: both black pieces
        // gone at once, Black has no move, White has won. The search's
        // score said equal and the game was drawn; the table knows better.
        let won = sample("W:WKd1,Ka4:BKd3,Kf4", 0, 0.5);
        // A king each, on no common rank or file: no capture at once, so a
        // draw (eval::endgame), whatever the game said.
        let drawn = sample("W:WKa1:BKh8", 50, 1.0);
        // Six pieces: beyond these tables, left as the search scored it.
        let beyond = sample("W:Wa2,b2,c2:Bf7,g7,h7", 30, 1.0);
        let mut samples = [won, drawn, beyond];
        let counts = relabel(&tb, &mut samples);
        assert_eq!(
            counts,
            Relabelled {
                wins: 1,
                draws: 1,
                losses: 0
            }
        );
        assert_eq!(
            counts.to_string(),
            "2 positions relabelled by the endgame databases (W/D/L for the side to move: 1/1/0)"
        );
        let objective = Objective {
            k: 200.0,
            lambda: 0.5,
            model: Model::Hand,
        };
        assert_eq!(objective.target(&samples[0]), 1.0);
        assert_eq!(objective.target(&samples[1]), 0.5);
        assert_eq!(samples[2].exact, None);
        let blend = 0.5 * 1.0 + 0.5 / (1.0 + (-30.0f64 / 200.0).exp());
        assert!((objective.target(&samples[2]) - blend).abs() < 1e-12);

        // The same through `tama train`: 20 drawn games of the won position
        // and the six pieces, every won one relabelled.
        let games: Vec<GameRecord> = (0..20)
            .map(|_| GameRecord {
                result: GameResult::Draw,
                ending: Ending::MaxLength,
                positions: [won, beyond]
                    .iter()
                    .map(|s| Record {
                        position: s.position,
                        score: s.score,
                        ply: 40,
                    })
                    .collect(),
            })
            .collect();
        let data = write_data(&dir.0, Rules::ARMENIAN, &games);
        let summary = train::run(&settings(&data, &dir.0), &mut |_| {}).expect("trained");
        assert_eq!(
            summary.relabelled,
            Some(Relabelled {
                wins: 20,
                draws: 0,
                losses: 0
            })
        );

        // Self-play with the tables ends where it enters them, with their
        // value; the position is kept when quiet (a king each is).
        let tb = Arc::new(tb);
        let play = |s: &Sample, tables: Option<&Arc<Tablebase>>| {
            let limits = SearchLimits {
                nodes: Some(2000),
                ..SearchLimits::default()
            };
            SelfPlay {
                tables: tables.cloned(),
                ..SelfPlay::new(limits)
            }
            .play(
                &mut Searcher::new(1),
                Game::new(s.position),
                0,
                &SearchControl::new(),
            )
            .expect("a whole game")
        };
        let g = play(&drawn, Some(&tb));
        assert_eq!((g.result, g.ending), (GameResult::Draw, Ending::Tables));
        assert_eq!(g.positions.len(), 1);
        let g = play(&won, Some(&tb));
        assert_eq!(
            (g.result, g.ending),
            (GameResult::WhiteWins, Ending::Tables)
        );
        // Without them the double capture is played out.
        let g = play(&won, None);
        assert_eq!(
            (g.result, g.ending),
            (GameResult::WhiteWins, Ending::NoMove)
        );
    }

    /// A data file of `games` under `rules` in `dir`.
    fn write_data(dir: &Path, rules: Rules, games: &[GameRecord]) -> PathBuf {
        let header = DataHeader {
            rules,
            seed: 1,
            nodes: Some(1000),
            depth: None,
            random_plies: 0,
            shard: None,
        };
        let mut bytes = header.encode();
        for g in games {
            g.encode(&mut bytes);
        }
        let path = dir.join(format!("{}.data", rules.variant));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// `tama train --egtb DIR` of one file, one epoch, every game kept apart
    /// by its number (`--split file-order`), half of them for validation.
    fn settings(data: &Path, egtb: &Path) -> train::Settings {
        train::Settings {
            data: vec![data.to_path_buf()],
            out: data.with_extension("tew"),
            init: None,
            valid_percent: 50,
            split: Split::FileOrder,
            egtb: Some(egtb.to_path_buf()),
            egtb_positions: 0,
            fit: trainer::Settings {
                model: Model::Hand,
                epochs: 1,
                ..trainer::Settings::default()
            },
            command: "tama train".into(),
        }
    }

    /// Every position drawn is one the search would evaluate and the
    /// weights alone score (two pieces a side, a move to make and none a
    /// capture, no known draw), with the tables' value as its target; the
    /// same seed draws the same samples, and about the share asked for is
    /// held out. The tables here hold one such table, KK v KK.
    #[test]
    fn positions_drawn_carry_the_tables_value() {
        let dir = Scratch::new("draw");
        let tb = tables(&dir.0);
        let d = draw(&tb, 400, 25, 5).expect("drawn");
        assert_eq!(d.train.len() + d.valid.len(), 400);
        assert_eq!(d.counts.total(), 400);
        assert!(
            (60..140).contains(&d.valid.len()),
            "{} held out",
            d.valid.len()
        );
        for s in d.train.iter().chain(&d.valid) {
            let p = &s.position;
            assert_eq!(Placement::of(p).signature().pieces(), 4, "{}", p.fen());
            assert!(!has_capture(p) && !legal_moves(p).is_empty(), "{}", p.fen());
            assert!(!endgame::overrides_the_weights(p), "{}", p.fen());
            let want = match tb.probe(p).expect("held").wdl {
                Wdl::Win => 1.0,
                Wdl::Draw => 0.5,
                Wdl::Loss => 0.0,
            };
            assert_eq!(s.exact, Some(want), "{}", p.fen());
            assert_eq!(s.result, want);
        }
        let again = draw(&tb, 400, 25, 5).expect("drawn");
        assert_eq!(again.train, d.train);
        assert_eq!(again.valid, d.valid);
        // Both values occur in KK v KK, so the targets are not one constant.
        assert!(
            d.counts.draws > 0 && d.counts.wins + d.counts.losses > 0,
            "{:?}",
            d.counts
        );
        // Only 3-piece tables: nothing to draw, and it is said.
        let small = Scratch::new("draw-small");
        three_pieces(&small.0);
        let tb = open(&small.0, Rules::ARMENIAN).expect("the tables open");
        let e = draw(&tb, 10, 25, 5).unwrap_err();
        assert!(e.to_string().contains("two pieces a side"), "{e}");
    }

    #[test]
    fn a_directory_without_tables_is_refused_before_the_data_is_read() {
        let dir = Scratch::new("empty");
        let e = open(&dir.0, Rules::ARMENIAN).err().expect("refused");
        let text = e.to_string();
        assert!(text.starts_with("--egtb: "), "{text}");
        assert!(text.contains("no tables for"), "{text}");
        let missing = dir.0.join("missing");
        let e = open(&missing, Rules::ARMENIAN).err().expect("refused");
        assert!(e.to_string().contains("missing"), "{e}");
        // A file with no game would be "too little data", once read; the
        // tables are refused first.
        let data = write_data(&dir.0, Rules::TURKISH, &[]);
        for egtb in [&dir.0, &missing] {
            let e = train::run(&settings(&data, egtb), &mut |_| {}).unwrap_err();
            assert!(e.to_string().starts_with("--egtb: "), "{e}");
        }
    }
}
