//! The endgame databases for the board: `tama gui --egtb DIR` names the
//! default directory (`GET /config`), the page may name another. A
//! directory is opened once per rule set and kept; `POST /tables/probe`
//! answers a position's exact result and its best moves, and the reviews
//! (`review.rs`) judge by the same tables.

use anyhow::{anyhow, Context};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tama_engine::egtb::{Tablebase, Wdl};
use tama_engine::review::judge;
use tama_engine::{Color, Position, Rules};

/// The directories opened so far, by directory and rule set.
#[derive(Default)]
pub struct Tables {
    default_dir: Option<PathBuf>,
    opened: Mutex<HashMap<(PathBuf, Rules), Arc<Tablebase>>>,
}

impl Tables {
    pub fn new(default_dir: Option<PathBuf>) -> Tables {
        Tables {
            default_dir,
            opened: Mutex::default(),
        }
    }

    /// `GET /config`: what the page starts with (the `--egtb` directory).
    pub fn config(&self) -> String {
        let dir = self.default_dir.as_ref().map(|d| d.display().to_string());
        json!({ "egtb": dir.unwrap_or_default() }).to_string()
    }

    /// The tables of `rules` in `dir`, opened on first use. A missing
    /// directory, or one without tables for these rules, is an error that
    /// says so.
    pub fn open(&self, dir: &str, rules: Rules) -> anyhow::Result<Arc<Tablebase>> {
        let path = Path::new(dir);
        if !path.is_dir() {
            return Err(anyhow!("endgame databases: no such directory {dir:?}"));
        }
        let key = (path.to_path_buf(), rules);
        let mut opened = self.opened.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = opened.get(&key) {
            return Ok(Arc::clone(t));
        }
        let tables =
            Arc::new(Tablebase::open(path, rules).map_err(|e| anyhow!("endgame databases: {e}"))?);
        opened.insert(key, Arc::clone(&tables));
        Ok(tables)
    }

    /// The tables a request names (`egtb`: a directory, empty for none).
    pub fn named(&self, v: &Value, rules: Rules) -> anyhow::Result<Option<Arc<Tablebase>>> {
        match v.get("egtb").and_then(Value::as_str).map(str::trim) {
            None | Some("") => Ok(None),
            Some(dir) => self.open(dir, rules).map(Some),
        }
    }

    /// `POST /tables/probe` with `{egtb, rules, fen}`: `{"held": false}`, or
    /// the result in words ("White wins in 21") and the moves that keep it.
    pub fn probe(&self, body: &[u8]) -> anyhow::Result<String> {
        let v: Value = serde_json::from_slice(body).map_err(|e| anyhow!("bad JSON: {e}"))?;
        let rules = super::pdn::rules_from_json(v.get("rules").context("rules are missing")?)?;
        let fen = v
            .get("fen")
            .and_then(Value::as_str)
            .context("fen is missing")?;
        let pos = Position::from_fen(fen, rules)?;
        let Some(tables) = self.named(&v, rules)? else {
            return Err(anyhow!("no endgame databases named"));
        };
        let pieces = tables.complete_pieces();
        let Some((value, best)) = judge::tables_verdict(&tables, &pos) else {
            return Ok(json!({ "held": false, "pieces": pieces }).to_string());
        };
        let side = pos.side_to_move();
        let (winner, other) = match side {
            Color::White => ("White", "Black"),
            Color::Black => ("Black", "White"),
        };
        let moves = value
            .plies
            .map(|p| format!(" in {}", p.div_ceil(2)))
            .unwrap_or_default();
        let verdict = match value.wdl {
            Wdl::Win => format!("{winner} wins{moves}"),
            Wdl::Loss => format!("{other} wins{moves}"),
            Wdl::Draw => "Draw".to_string(),
        };
        let best: Vec<String> = best.iter().map(|m| pos.move_text(m)).collect();
        Ok(json!({ "held": true, "verdict": verdict, "best": best, "pieces": pieces }).to_string())
    }
}
