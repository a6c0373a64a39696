use super::*;
use crate::test_sink::SharedSink;
use crate::uci::UciReporter;

fn session() -> Session {
    Session::new(
        Arc::new(UciReporter),
        Out::new(Box::new(SharedSink::default())),
    )
}

/// The game a dialect builds is built under the rules the options set,
/// and one the builder refuses leaves the game as it was.
#[test]
fn the_game_follows_the_options_rules_and_survives_a_refusal() {
    let mut s = session();
    s.set_option("Variant", Some("turkish")).expect("a variant");
    s.set_game(|rules| Ok::<_, ()>(Game::new(Position::startpos(rules))))
        .expect("built");
    assert_eq!(s.game().position().rules(), Rules::TURKISH);
    let before = *s.game().position();
    assert_eq!(s.set_game(|_| Err("refused")), Err("refused"));
    assert_eq!(*s.game().position(), before);
    // A rule change carries the game over to the new rules.
    s.set_option("Variant", Some("armenian"))
        .expect("a variant");
    assert_eq!(s.game().position().rules(), s.settings().rules());
    assert_eq!(s.settings().rules().variant, Rules::ARMENIAN.variant);
}
