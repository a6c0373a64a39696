use crate::dataset::{is_validation, Dataset, Split};
use crate::record::*;
use crate::selfplay::SelfPlay;
use crate::shard;
use crate::trainer::{self, Sample, Settings};
use tama_engine::eval::pattern::{Layout, PatternParams, PatternTable};
use tama_engine::eval::{self, hand, Model, VariantWeights, Weights};
use tama_engine::game::Game;
use tama_engine::movegen;
use tama_engine::position::Position;
use tama_engine::rng::Rng;
use tama_engine::rules::{CaptureRemoval, Rules, Variant};
use tama_engine::search::{SearchControl, SearchLimits, Searcher};
use tama_engine::testutil::random_position;
use tama_shard::Shard;

fn header() -> DataHeader {
    DataHeader {
        rules: Rules {
            variant: Variant::Turkish,
            capture_removal: CaptureRemoval::Deferred,
            mid_capture_promotion: true,
        },
        seed: 0x1234_5678_9abc,
        nodes: Some(5000),
        depth: None,
        random_plies: 4,
        shard: None,
    }
}

/// The header of shard `k` of `n` of a `games`-game run with `header()`'s settings.
fn shard_header(k: u32, n: u32, games: u64) -> DataHeader {
    DataHeader {
        shard: Some(ShardTag {
            shard: Shard { index: k, count: n },
            games,
            hash_mb: 16,
            weights: 0xfeed_beef,
        }),
        ..header()
    }
}

fn random_games(rng: &mut Rng, rules: Rules, n: usize) -> Vec<GameRecord> {
    let results = [
        GameResult::WhiteWins,
        GameResult::Draw,
        GameResult::BlackWins,
    ];
    let endings = [
        Ending::NoMove,
        Ending::Mate,
        Ending::MaxLength,
        Ending::Tables,
    ];
    (0..n)
        .map(|_| GameRecord {
            result: results[rng.below(3) as usize],
            ending: endings[rng.below(endings.len() as u64) as usize],
            positions: (0..rng.below(6))
                .map(|_| Record {
                    position: random_position(rng, rules),
                    score: rng.below(65535) as i16,
                    ply: rng.below(256) as u8,
                })
                .collect(),
        })
        .collect()
}

#[test]
fn data_header_round_trips() {
    let h = header();
    assert_eq!(DataHeader::decode(&h.encode()), Ok(h));
    let h = DataHeader {
        nodes: None,
        depth: Some(9),
        ..header()
    };
    assert_eq!(DataHeader::decode(&h.encode()), Ok(h));
    let mut bad = h.encode();
    bad[0] = b'X';
    let not_data = DataHeader::decode(&bad).unwrap_err();
    assert_eq!(not_data, RecordError::NotData);
    assert_eq!(
        not_data.to_string(),
        "not a Tama training-data file (no TAMADATA header)"
    );
    assert_eq!(
        DataHeader::decode(&h.encode()[..31]),
        Err(RecordError::NotData)
    );
    let mut bad = h.encode();
    bad[10] = 8; // no such rules
    let e = DataHeader::decode(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "training-data header names unknown rules (8)"
    );
    // A shard's header: the whole run's, version 2, and the tag.
    let s = shard_header(2, 3, 10);
    assert_eq!(s.encode().len(), SHARD_HEADER_BYTES);
    assert_eq!(DataHeader::decode(&s.encode()), Ok(s));
    assert_eq!(s.whole(), header());
    assert_eq!(s.encode()[10..HEADER_BYTES], header().encode()[10..]);
    assert!(DataHeader::decode(&s.encode()[..SHARD_HEADER_BYTES - 1]).is_err());
    for index in [0, 4] {
        // Shard 0/3 and 4/3 do not exist.
        let mut bad = s.encode();
        bad[32] = index;
        let e = DataHeader::decode(&bad).unwrap_err();
        let text = format!("a shard's header is malformed (shard {index}/3)");
        assert_eq!(e.to_string(), text);
    }
}

/// A scratch directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tama-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn file_of(header: &DataHeader, games: &[GameRecord]) -> Vec<u8> {
    let mut bytes = header.encode();
    for g in games {
        g.encode(&mut bytes);
    }
    bytes
}

#[test]
fn merged_shards_are_the_whole_run_and_unfinished_ones_are_refused() {
    let dir = scratch("merge");
    let games = random_games(&mut Rng::new(5), header().rules, 7);
    // 7 games in 3 shards: {0, 3, 6}, {1, 4}, {2, 5}.
    let part = |k: u64| -> Vec<GameRecord> {
        games
            .iter()
            .skip(k as usize - 1)
            .step_by(3)
            .cloned()
            .collect()
    };
    let paths: Vec<_> = (1..=3).map(|k| dir.join(format!("s{k}.data"))).collect();
    for k in 1..=3 {
        let bytes = file_of(&shard_header(k as u32, 3, 7), &part(k));
        std::fs::write(&paths[k as usize - 1], bytes).unwrap();
    }
    let out = dir.join("merged.data");
    let given = [paths[2].clone(), paths[0].clone(), paths[1].clone()];
    let m = shard::merge(&out, &given).unwrap();
    let whole = file_of(&header(), &games);
    assert_eq!(std::fs::read(&out).unwrap(), whole);
    assert_eq!((m.games, m.bytes), (7, whole.len() as u64));
    let positions: usize = games.iter().map(|g| g.positions.len()).sum();
    assert_eq!(m.positions, positions as u64);
    std::fs::remove_file(&out).unwrap();

    // Shard 2 stopped after its first game, cut in mid-game, or given a
    // game too many: refused, and no file is left behind.
    let two = file_of(&shard_header(2, 3, 7), &part(2));
    let first_game = SHARD_HEADER_BYTES + part(2)[0].encoded_len();
    let mut longer = part(2);
    longer.push(games[0].clone());
    for (bytes, why) in [
        (
            two[..first_game].to_vec(),
            "holds 1 of the 2 games of shard 2/3",
        ),
        (two[..two.len() - 1].to_vec(), "ends in a partial game"),
        (
            file_of(&shard_header(2, 3, 7), &longer),
            "holds more than the 2 games of shard 2/3",
        ),
    ] {
        std::fs::write(&paths[1], bytes).unwrap();
        let e = shard::merge(&out, &paths).unwrap_err();
        assert!(e.to_string().contains(why), "{e}");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 3, "a refused merge left a file");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The samples of `files` (each a list of games) under `split`.
fn samples_of(
    split: Split,
    valid_percent: u32,
    files: &[&[GameRecord]],
) -> (Vec<Sample>, Vec<Sample>) {
    let mut d = Dataset::new(split, valid_percent);
    for f in files {
        d.add_file(f);
    }
    let s = d.finish();
    (s.train, s.valid)
}

fn game(result: GameResult, positions: &[(Position, i16)]) -> GameRecord {
    GameRecord {
        result,
        ending: Ending::NoMove,
        positions: positions
            .iter()
            .map(|&(position, score)| Record {
                position,
                score,
                ply: 10,
            })
            .collect(),
    }
}

/// Two training games share a position: one sample, the mean of the two
/// scores and results. A validation game shares another with a training
/// game: a validation sample only, from the validation game alone.
#[test]
fn a_position_is_one_sample_and_never_on_both_sides() {
    let rules = Rules::ARMENIAN;
    let mut rng = Rng::new(9);
    // A position whose game (it first) goes to the validation set or not.
    let mut start = |valid: bool| loop {
        let p = random_position(&mut rng, rules);
        if is_validation(&position_key(&p), 50) == valid {
            return p;
        }
    };
    let (t0, t1, v0) = (start(false), start(false), start(true));
    let (twice, shared) = (start(false), start(false));
    let games = [
        game(
            GameResult::WhiteWins,
            &[(t0, 0), (twice, 10), (shared, 100)],
        ),
        game(GameResult::Draw, &[(t1, 0), (twice, 31)]),
        game(GameResult::BlackWins, &[(v0, 0), (shared, 300)]),
    ];
    let (train, valid) = samples_of(Split::Position, 50, &[&games]);
    let find = |set: &[Sample], p: Position| -> Vec<Sample> {
        set.iter().filter(|s| s.position == p).copied().collect()
    };
    assert_eq!(train.len(), 3, "{train:?}");
    assert_eq!(valid.len(), 2, "{valid:?}");
    assert!(find(&train, shared).is_empty(), "shared is trained on");
    let s = find(&valid, shared)[0];
    let black_won = GameResult::BlackWins.points_for(shared.side_to_move()) as f32;
    assert_eq!((s.score, s.result), (300, black_won));
    // (10 + 31) / 2 = 20.5, rounded away from zero: 21; the result the
    // mean of a win (or loss) and a draw.
    let s = find(&train, twice)[0];
    let won = GameResult::WhiteWins.points_for(twice.side_to_move()) as f32;
    assert_eq!((s.score, s.result), (21, (won + 0.5) / 2.0));
    for p in [t0, t1] {
        assert_eq!(find(&train, p).len(), 1);
    }
}

/// The same games, in one file or cut into three and read backwards, with
/// some games twice: the same samples on the same sides, in the same
/// order. The split of 0.2.0 depends on the order.
#[test]
fn the_split_depends_on_the_games_not_on_their_files_or_order() {
    let mut games = random_games(&mut Rng::new(11), Rules::ARMENIAN, 80);
    games.extend(games[..10].to_vec());
    let mut backwards = games.clone();
    backwards.reverse();
    let cut: Vec<&[GameRecord]> = backwards.chunks(30).collect();
    let one = samples_of(Split::Position, 30, &[&games]);
    assert!(!one.0.is_empty() && !one.1.is_empty());
    assert_eq!(one, samples_of(Split::Position, 30, &cut));
    let positions: usize = games[..80].iter().map(|g| g.positions.len()).sum();
    assert!(one.0.len() + one.1.len() <= positions);
    assert_ne!(
        samples_of(Split::FileOrder, 30, &[&games]),
        samples_of(Split::FileOrder, 30, &cut)
    );
}

#[test]
fn games_round_trip_and_a_cut_tail_is_left_out() {
    let rules = header().rules;
    let games = random_games(&mut Rng::new(1), rules, 40);
    let mut body = Vec::new();
    let mut ends = vec![0];
    for g in &games {
        g.encode(&mut body);
        assert_eq!(body.len() - ends.last().unwrap(), g.encoded_len());
        ends.push(body.len());
    }
    let scan = scan(&body, rules).unwrap();
    assert_eq!(scan.games, games);
    assert_eq!(scan.whole_bytes, body.len());
    // Cut anywhere: exactly the games that are whole come back.
    for cut in 0..body.len() {
        let s = crate::record::scan(&body[..cut], rules).unwrap();
        let whole = ends.iter().rposition(|&e| e <= cut).unwrap();
        assert_eq!(s.games.len(), whole, "cut at {cut}");
        assert_eq!(s.whole_bytes, ends[whole]);
        assert_eq!(s.games[..], games[..whole]);
    }
}

#[test]
fn damaged_games_are_refused() {
    let rules = Rules::ARMENIAN;
    let games = random_games(&mut Rng::new(2), rules, 3);
    let mut body = Vec::new();
    for g in &games {
        g.encode(&mut body);
    }
    let mut bad = body.clone();
    bad[2] = 3; // a result that does not exist
    let Err(e) = scan(&bad, rules) else {
        panic!("a damaged game was read")
    };
    let at = HEADER_BYTES;
    assert_eq!(
        e.to_string(),
        format!("damaged game at byte {at}: result 3")
    );
    let mut bad = body.clone();
    bad[3] = 9; // an ending that does not exist
    let Err(e) = scan(&bad, rules) else {
        panic!("a damaged game was read")
    };
    assert_eq!(
        e.to_string(),
        format!("damaged game at byte {at}: ending 9")
    );
    if !games[0].positions.is_empty() {
        let mut bad = body.clone();
        bad[GAME_HEADER_BYTES + 18] = 2; // side to move
        let Err(e) = scan(&bad, rules) else {
            panic!("a damaged game was read")
        };
        let text = format!("damaged game at byte {at}: a position record is malformed");
        assert_eq!(e.to_string(), text);
    }
}

fn playout(rng: &mut Rng, rules: Rules, plies: u64) -> Position {
    let mut p = Position::startpos(rules);
    for _ in 0..plies {
        let moves = movegen::legal_moves(&p);
        if moves.is_empty() {
            break;
        }
        p = p.play(&moves[rng.below(moves.len() as u64) as usize]);
    }
    p
}

#[test]
fn self_play_keeps_quiet_positions_and_is_deterministic() {
    let play = SelfPlay::new(SearchLimits {
        nodes: Some(400),
        ..SearchLimits::default()
    });
    let mut rng = Rng::new(3);
    for rules in [Rules::ARMENIAN, Rules::TURKISH] {
        let start = playout(&mut rng, rules, 6);
        let mut searcher = Searcher::new(1);
        let control = SearchControl::new();
        let a = play
            .play(&mut searcher, Game::new(start), 6, &control)
            .unwrap();
        let b = play
            .play(&mut Searcher::new(1), Game::new(start), 6, &control)
            .unwrap();
        assert_eq!(a, b, "same start, same budget: same game");
        assert!(a.positions.len() > 10, "{}", a.positions.len());
        assert_eq!(a.positions[0].ply, 6);
        for r in &a.positions {
            assert!(!movegen::has_capture(&r.position));
            // No mate score: those are beyond any material count.
            assert!(r.score.abs() < 10_000);
        }
        // Each kept position is followed by a later one with a greater ply.
        assert!(a.positions.windows(2).all(|w| w[0].ply < w[1].ply));
    }
}

#[test]
fn self_play_ends_with_the_right_result() {
    let play = SelfPlay::new(SearchLimits {
        nodes: Some(2000),
        ..SearchLimits::default()
    });
    let control = SearchControl::new();
    // Two kings against one man: White wins, by a mate both sides see or
    // by Black running out of moves.
    let p = Position::from_fen("W:WKd4,Ke4:Bb6", Rules::ARMENIAN).unwrap();
    let g = play
        .play(&mut Searcher::new(1), Game::new(p), 0, &control)
        .unwrap();
    assert_eq!(g.result, GameResult::WhiteWins);
    assert!(
        matches!(g.ending, Ending::Mate | Ending::NoMove),
        "{:?}",
        g.ending
    );
    // A lone king each: a draw (repetition or no progress).
    let p = Position::from_fen("W:WKa1:BKh8", Rules::TURKISH).unwrap();
    let g = play
        .play(&mut Searcher::new(1), Game::new(p), 0, &control)
        .unwrap();
    assert_eq!(g.result, GameResult::Draw);
    // Stopped: no game.
    control.stop();
    let p = Position::startpos(Rules::ARMENIAN);
    assert!(play
        .play(&mut Searcher::new(1), Game::new(p), 0, &control)
        .is_none());
}

/// Positions from random games, each labelled by `known`'s evaluation (as
/// the search score) and a result drawn with the odds that score gives.
fn labelled(seed: u64, n: usize, rules: Rules, known: &Weights) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let plies = rng.below(90);
        let p = playout(&mut rng, rules, plies);
        if movegen::has_capture(&p) || movegen::count(&p) == 0 {
            continue;
        }
        let score = eval::evaluate_with_mobility(&p, known).0;
        let win = 1.0 / (1.0 + (-(score as f64) / 200.0).exp());
        let u = rng.below(1 << 20) as f64 / (1 << 20) as f64;
        out.push(Sample {
            position: p,
            score: score.clamp(-32000, 32000) as i16,
            result: if u < win { 1.0 } else { 0.0 },
            exact: None,
        });
    }
    out
}

/// A training set of `n` positions (seed `seed`) and a validation set of a
/// fifth as many (seed `seed + 1`), labelled by the known set `target`.
fn known_data(
    target: VariantWeights,
    rules: Rules,
    seed: u64,
    n: usize,
) -> (Vec<Sample>, Vec<Sample>) {
    let mut known = Weights::DEFAULT;
    known.replace(target);
    (
        labelled(seed, n, rules, &known),
        labelled(seed + 1, n / 5, rules, &known),
    )
}

#[test]
fn trainer_recovers_known_hand_weights() {
    // The known model: the hand terms with other values than the hand-set
    // ones the trainer starts from. Trained on the score alone (lambda 0),
    // the loss is lowest where the model equals the known one, so the
    // weights of the terms the positions exercise come back.
    let rules = Rules::ARMENIAN;
    let mut target = VariantWeights::hand_set(Variant::Armenian);
    let cm = hand::ONE;
    let changes = [
        ("man", 110),
        ("king", 270),
        ("advancement.3", 12),
        ("advancement.5", 5),
        ("guard", 9),
        ("man_mobility", 5),
        ("king_mobility", 3),
        ("tempo", 20),
    ];
    for (name, v) in changes {
        let i = hand::term_index(name).unwrap();
        target.hand[i] = v * cm;
    }
    let (train, valid) = known_data(target, rules, 1, 20000);
    let settings = Settings {
        model: Model::Hand,
        epochs: 40,
        lambda: 0.0,
        learning_rate: 2.0,
        batch: 256,
        threads: 2,
        ..Settings::default()
    };
    let start = VariantWeights::hand_set(Variant::Armenian);
    let fit = trainer::train(&train, &valid, &start, &settings, &mut |_| {});
    assert!((150.0..260.0).contains(&fit.k), "K {}", fit.k);
    assert!(fit.valid_loss_after < fit.valid_loss_before);
    for (name, v) in changes {
        let i = hand::term_index(name).unwrap();
        let got = fit.weights.hand[i] as f64 / cm as f64;
        assert!((got - v as f64).abs() <= 1.5, "{name}: {got}, known {v}");
    }
}

#[test]
fn a_fixed_term_keeps_its_value_while_the_others_are_fitted() {
    // The known model gives tempo 20 cm and the man 110. Held at 3 cm,
    // tempo must come out exactly 3 cm (not near 20, and not the hand-set
    // start of 8), while the man still moves towards 110.
    let rules = Rules::ARMENIAN;
    let cm = hand::ONE;
    let term = |name: &str| hand::term_index(name).unwrap();
    let mut target = VariantWeights::hand_set(Variant::Armenian);
    target.hand[term("tempo")] = 20 * cm;
    target.hand[term("man")] = 110 * cm;
    let (train, valid) = known_data(target, rules, 6, 8000);
    let settings = Settings {
        model: Model::Hand,
        epochs: 15,
        lambda: 0.0,
        learning_rate: 2.0,
        batch: 256,
        fixed: vec![(term("tempo"), 3.0)],
        ..Settings::default()
    };
    let start = VariantWeights::hand_set(Variant::Armenian);
    let fit = trainer::train(&train, &valid, &start, &settings, &mut |_| {});
    assert_eq!(fit.weights.hand[term("tempo")], 3 * cm);
    let man = fit.weights.hand[term("man")] as f64 / cm as f64;
    assert!(man > 104.0, "man {man}: the free terms are still fitted");
}

#[test]
fn trainer_recovers_known_pattern_weights() {
    // The known model: the hand-set terms plus weights on the pattern
    // configurations the positions show most often. The fit starts from
    // the hand-set terms and zero patterns and must find a model that
    // scores as the known one does. (The weights themselves are not unique:
    // the men on a rank are also the sum of the configurations that hold
    // them, so only the predictions are compared.)
    let rules = Rules::TURKISH;
    let layout = Layout::get();
    let probe = labelled(3, 3000, rules, &Weights::DEFAULT);
    let mut seen = vec![0u32; layout.params()];
    for s in &probe {
        let p = &s.position;
        tama_engine::eval::pattern::for_each_config(
            p.men(tama_engine::Color::White).0,
            p.men(tama_engine::Color::Black).0,
            |r, c| {
                if let Some((i, _)) = layout.slot(r, c).get() {
                    seen[i] += 1;
                }
            },
        );
    }
    let mut common: Vec<usize> = (0..seen.len()).collect();
    common.sort_by_key(|&i| std::cmp::Reverse(seen[i]));
    let planted: Vec<(usize, i16, i16)> = common[..30]
        .iter()
        .enumerate()
        .map(|(k, &i)| (i, (k as i16 % 7 - 3) * 96, (k as i16 % 5 - 2) * 128))
        .collect();
    let mut params = PatternParams::zero();
    for &(i, o, e) in &planted {
        params.opening[i] = o;
        params.endgame[i] = e;
    }
    let mut target = VariantWeights::hand_set(Variant::Turkish);
    target.patterns = Some(PatternTable::new(params));
    let (train, valid) = known_data(target, rules, 4, 20000);
    let settings = Settings {
        model: Model::Patterns,
        epochs: 12,
        lambda: 0.0,
        learning_rate: 0.5,
        batch: 1024,
        l2: 0.0,
        threads: 2,
        ..Settings::default()
    };
    let start = VariantWeights::hand_set(Variant::Turkish);
    let fit = trainer::train(&train, &valid, &start, &settings, &mut |_| {});
    let mut fitted = Weights::DEFAULT;
    fitted.replace(fit.weights);
    let mean_error = |w: &Weights| {
        valid
            .iter()
            .map(|s| (eval::evaluate_with_mobility(&s.position, w).0 - s.score as i32).abs())
            .sum::<i32>() as f64
            / valid.len() as f64
    };
    let before = mean_error(&Weights::DEFAULT);
    let after = mean_error(&fitted);
    assert!(before > 10.0, "the planted patterns matter: {before} cm");
    assert!(after < 2.0, "mean error {after} cm (from {before})");
}
