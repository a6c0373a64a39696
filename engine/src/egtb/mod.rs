//! Endgame databases: every position with few pieces solved by retrograde
//! analysis (`build`), kept one file per material signature and rule set
//! (`file`; compressed in blocks by `compress`, read by `blocks`), numbered by a perfect index (`index`) and probed by the search
//! (`probe`). docs/endgames.md describes the method and the figures.

mod blocks;
mod build;
mod combin;
mod compress;
mod file;
mod index;
mod jobs;
mod placement;
mod probe;
mod sample;
mod signature;
mod unmove;
mod value;
mod write;

pub use blocks::{blocks_decompressed, CompressError};
pub use build::{build_bytes_per_entry, BuildOptions, Progress};
pub use compress::{compress_dir, CompressOptions, Compressed};
pub use file::{file_name, Encoding, FileError, Header, Layout, TableStats, HEADER_LEN};
pub use index::TableIndex;
pub use jobs::{build, build_job, file_bytes, find_job, jobs, Job, JobError};
pub use placement::Placement;
pub use probe::{EgtbError, Table, Tablebase};
pub use sample::PositionSampler;
pub use signature::{Signature, SignatureError, MAX_PIECES};
pub use value::{Value, Wdl};

#[cfg(test)]
pub(crate) mod tests;
