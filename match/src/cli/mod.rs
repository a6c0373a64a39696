//! The command line of `tama match`: what it asks for (`args`), the table
//! of flags and engine settings (`flags`), the values they read
//! (`values`), and the help made from the table (`help`).

pub mod args;
mod flags;
pub mod help;
mod values;
