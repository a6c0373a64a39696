use super::*;

#[test]
fn names_match_in_any_spelling() {
    let mut s = Settings::default();
    assert_eq!(s.set("move overhead", Some("100")), Ok(Effect::None));
    assert_eq!(s.move_overhead_ms, 100);
    assert_eq!(s.set("MOVE-OVERHEAD", Some("7")), Ok(Effect::None));
    assert_eq!(s.move_overhead_ms, 7);
    assert_eq!(s.set("variant", Some("Turkish")), Ok(Effect::RulesChanged));
    assert_eq!(s.variant, Variant::Turkish);
    assert_eq!(s.set("Clear Hash", None), Ok(Effect::ClearHash));
    assert_eq!(s.set("Threads", Some("256")), Ok(Effect::ThreadsChanged));
    assert_eq!(s.threads, 256);
}

#[cfg(not(feature = "lab"))]
#[test]
fn the_product_build_offers_no_lab_option() {
    for name in ["Baseline", "Style"] {
        assert!(find(name).is_none(), "{name}");
        let e = Settings::default().set(name, Some("true")).unwrap_err();
        assert!(e.to_string().starts_with("unknown option"), "{e}");
    }
}

/// Every option takes its own default back (so each is read as the
/// kind it is declared), and a changed value shows in `value_text`.
#[test]
fn every_option_takes_its_default_and_shows_a_change() {
    let defaults = Settings::default();
    for &opt in Opt::ALL {
        let def = opt.def();
        let mut s = Settings::default();
        let text = defaults.value_text(opt);
        let given = match def.kind {
            Kind::Button => None,
            Kind::Text if text.is_empty() => Some(UCI_EMPTY),
            _ => Some(text.as_str()),
        };
        assert_eq!(s.set(def.uci, given), Ok(def.effect), "{}", def.uci);
        assert_eq!(s, defaults, "{}", def.uci);
        let other = match def.kind {
            Kind::Spin { min, max } => {
                let n: i64 = text.parse().unwrap();
                Some(if n < max { n + 1 } else { min }.to_string())
            }
            Kind::Check => Some((text != "true").to_string()),
            Kind::Combo { values } => values.iter().find(|v| **v != text).map(|v| v.to_string()),
            Kind::Text => Some("elsewhere".to_string()),
            Kind::Button => None,
        };
        if let Some(other) = other {
            assert_eq!(s.set(def.uci, Some(&other)), Ok(def.effect), "{}", def.uci);
            assert_eq!(s.value_text(opt), other, "{}", def.uci);
        }
    }
}

#[test]
fn bad_values_change_nothing() {
    let mut s = Settings::default();
    let before = s.clone();
    for (name, value) in [
        ("Hash", Some("0")),
        ("Hash", Some("65537")),
        ("Hash", Some("lots")),
        ("Hash", None),
        ("Threads", Some("257")),
        ("Threads", Some("0")),
        ("Variant", Some("russian")),
        ("CaptureRemoval", Some("later")),
        ("MidCapturePromotion", Some("maybe")),
        ("Clear Hash", Some("now")),
        ("Style", Some("wild")),
        ("Nonsense", Some("1")),
    ] {
        assert!(s.set(name, value).is_err(), "{name} {value:?}");
        assert_eq!(s, before);
    }
}

#[test]
fn the_contempt_follows_the_variant_until_it_is_set() {
    // Turkish prices a draw at 10 by default, Armenian at 0; a value the
    // user chose stays through variant changes.
    let mut s = Settings::default();
    assert_eq!(s.contempt, 0);
    s.set("Variant", Some("turkish")).unwrap();
    assert_eq!(s.contempt, default_contempt(Variant::Turkish));
    assert_eq!(s.contempt, if cfg!(feature = "lab") { 0 } else { 10 });
    s.set("Variant", Some("armenian")).unwrap();
    assert_eq!(s.contempt, 0);
    s.set("Contempt", Some("5")).unwrap();
    s.set("Variant", Some("turkish")).unwrap();
    assert_eq!(s.contempt, 5);
    s.set("Variant", Some("armenian")).unwrap();
    assert_eq!(s.contempt, 5);
    // Setting the variant it already has changes nothing either.
    s.set("Contempt", Some("0")).unwrap();
    s.set("Variant", Some("armenian")).unwrap();
    assert_eq!(s.contempt, 0);
}
