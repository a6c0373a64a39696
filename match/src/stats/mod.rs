//! The figures of a match: Elo with its error bar and LOS (`elo`), the
//! counts of opening pairs (`pentanomial`), the sequential probability
//! ratio test (`sprt`), and the counts the report and the results file read
//! (`tally`).

pub mod elo;
pub mod pentanomial;
pub mod sprt;
pub mod tally;
