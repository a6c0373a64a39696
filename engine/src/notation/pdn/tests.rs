use super::*;

#[test]
fn write_and_read_back() {
    let rules = Rules::default();
    let start = Position::startpos(rules);
    let mut pos = start;
    let mut moves = Vec::new();
    // A few plies of a game, taking the first legal move each time.
    for _ in 0..30 {
        let list = crate::movegen::legal_moves(&pos);
        let Some(m) = list.last().copied() else { break };
        moves.push(m);
        pos = pos.play(&m);
    }
    let rec = GameRecord {
        event: "test \"quoted\"".into(),
        date: "2026.01.02".into(),
        round: "1.1".into(),
        white: "A".into(),
        black: "B".into(),
        outcome: Outcome::Draw,
        termination: "adjudication: max game length".into(),
        start,
        opening: String::new(),
        moves: moves.clone(),
        time_control: "10+0.1".into(),
    };
    let text = rec.to_pdn() + &rec.to_pdn();
    assert!(text.contains("[GameType \"Armenian\"]"));
    assert!(text.contains("[Result \"1-1\"]"));
    let games = read_pdn(&text, Rules::TURKISH).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.moves, moves);
        assert_eq!(g.result.as_deref(), Some("1-1"));
        assert_eq!(g.start.rules(), rules);
        assert_eq!(g.tag("termination"), Some("adjudication: max game length"));
        assert_eq!(g.end(), pos);
    }
}

#[test]
fn date_format() {
    let d = today();
    assert_eq!(d.len(), 10);
    assert_eq!(&d[4..5], ".");
    assert!(d.starts_with("20"));
}

#[test]
fn outcome_points() {
    assert_eq!(Outcome::WhiteWins.points(Color::White), 2);
    assert_eq!(Outcome::WhiteWins.points(Color::Black), 0);
    assert_eq!(Outcome::Draw.points(Color::Black), 1);
}

#[test]
fn reads_black_to_move_turkish_and_comments() {
    let text =
        "[GameType \"30\"]\n[FEN \"B:Wd3:Bd5,e6\"]\n\n1... d5-d4 {a comment} 2. d3xd5 e6-e5 *\n";
    let games = read_pdn(text, Rules::default()).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].start.rules().variant, Variant::Turkish);
    assert_eq!(games[0].moves.len(), 3);
    assert_eq!(games[0].result.as_deref(), Some("*"));
    let again = movetext(&games[0].start, &games[0].moves, "*");
    assert_eq!(again, "1... d5-d4 2. d3xd5 e6-e5 *");
}

#[test]
fn illegal_moves_and_bad_tags_are_errors() {
    let e = read_pdn("[Event \"x\"]\n1. d3-d4 *\n\n1. d3-d6 *", Rules::default()).unwrap_err();
    assert!(
        matches!(e, PdnError::Move { game: 2, ply: 1, ref text, .. } if text == "d3-d6"),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("game 2, move 1. (ply 1): d3-d6: "),
        "{e}"
    );
    assert_eq!(
        read_pdn("[GameType \"20\"]\n1. d3-d4 *", Rules::default())
            .unwrap_err()
            .to_string(),
        "game 1: GameType \"20\" is not a game Tama plays"
    );
    assert_eq!(
        read_pdn("[Variant \"russian\"]\n*", Rules::default())
            .unwrap_err()
            .to_string(),
        "game 1: unknown variant \"russian\" (expected armenian or turkish)"
    );
    assert!(matches!(
        read_pdn("[FEN \"W:Wz9\"]\n*", Rules::default()),
        Err(PdnError::Fen { game: 1, .. })
    ));
    assert!(matches!(
        read_pdn("[Event \"x\"\n", Rules::default()),
        Err(PdnError::UnclosedTag { byte: 0 })
    ));
    assert_eq!(
        read_pdn("[Event]\n", Rules::default())
            .unwrap_err()
            .to_string(),
        "malformed tag \"Event\""
    );
    assert_eq!(read_pdn("", Rules::default()).unwrap().len(), 0);
}

#[test]
fn annotations_are_skipped_and_a_bad_game_does_not_hide_the_next() {
    let text = "[Event \"a\"]\n1. d3-d4?! {+0.10/9} (1. c3-c4 $1 {x} (1. a3-a4)) d6-d5!? $2 ; note\n2. d4xd6xd8 *\n\n\
                [Event \"b\"]\n1. d3-d4 d6-d5 2. a3-a5 *\n\n[Event]\n1. d3-d4 *\n\n\
                [Variant \"russian\"]\n*\n\n1. h3-h4 *\n";
    let games = read_pdn_each(text, Rules::default());
    assert_eq!(games.len(), 5, "{games:?}");
    let first = games[0].as_ref().unwrap();
    assert_eq!(
        movetext(&first.start, &first.moves, "*"),
        "1. d3-d4 d6-d5 2. d4xd6xd8 *"
    );
    assert!(!first.names_rules());
    let e = games[1].as_ref().unwrap_err().to_string();
    assert!(e.starts_with("game 2, move 2. (ply 3): a3-a5: "), "{e}");
    assert!(matches!(games[2], Err(PdnError::MalformedTag(_))));
    assert!(matches!(games[3], Err(PdnError::Rules { game: 4, .. })));
    assert_eq!(games[4].as_ref().unwrap().moves.len(), 1);
    assert_eq!(
        move_number(
            &Position::from_fen("B:Wd3:Bd5", Rules::default()).unwrap(),
            2
        ),
        "2..."
    );
}

/// A game's positions are its start and the position after each move, in
/// order, ending at `end`.
#[test]
fn a_game_lists_its_positions_in_order() {
    let games = read_pdn("1. c3-c4 f6-f5 2. c4-d4 1-1\n", Rules::default()).expect("pdn");
    let g = &games[0];
    let positions: Vec<Position> = g.positions().collect();
    assert_eq!(positions.len(), 4);
    assert_eq!(positions[0], g.start);
    let mut p = g.start;
    for (i, m) in g.moves.iter().enumerate() {
        p = p.play(m);
        assert_eq!(positions[i + 1], p, "after ply {}", i + 1);
    }
    assert_eq!(g.end(), p);
}

/// A file is read under one rule set: a game under other rules, an empty
/// file and a missing one are refused, each naming the file.
#[test]
fn a_file_of_games_is_read_under_one_rule_set() {
    let dir = std::env::temp_dir().join(format!("tama-pdn-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join("games.pdn");
    let armenian = "1. c3-c4 f6-f5 1-1\n\n";
    let turkish = "[Variant \"turkish\"]\n1. c3-c4 f6-f5 1-1\n\n";
    std::fs::write(&path, armenian).expect("written");
    let games = read_pdn_file(&path, Rules::ARMENIAN).expect("one Armenian game");
    assert_eq!((games.len(), games[0].moves.len()), (1, 2));
    std::fs::write(&path, format!("{armenian}{turkish}")).expect("written");
    let e = read_pdn_file(&path, Rules::ARMENIAN).expect_err("a Turkish game");
    assert!(matches!(e, PdnFileError::OtherRules { game: 2, .. }), "{e}");
    assert!(
        e.to_string().contains("games.pdn: game 2 is played under"),
        "{e}"
    );
    std::fs::write(&path, "").expect("written");
    let e = read_pdn_file(&path, Rules::ARMENIAN).expect_err("no game");
    assert_eq!(e.to_string(), format!("{}: no games", path.display()));
    std::fs::write(&path, "1. c3-c5 1-1\n").expect("written");
    let e = read_pdn_file(&path, Rules::ARMENIAN).expect_err("an illegal move");
    assert!(matches!(e, PdnFileError::Pdn { .. }), "{e}");
    let missing = dir.join("none.pdn");
    let e = read_pdn_file(&missing, Rules::ARMENIAN).expect_err("no file");
    assert!(e.to_string().starts_with("cannot read "), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
