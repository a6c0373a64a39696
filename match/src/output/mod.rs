//! What a match leaves: the text tables (`report`) and the JSON results
//! file with `--merge` (`results`).

pub mod report;
pub mod results;
