//! Compressing tables: a plain table's payload cut into blocks, each
//! compressed with zstd, written as format version 2 (`blocks.rs` gives
//! the layout and reads it). A directory at a time, in place or into
//! another.

use super::blocks::{
    decompress, entry_unit, CompressError, MAX_BLOCK_BYTES, METHOD_ZSTD, PREAMBLE,
};
use super::file::{Header, Layout, HEADER_LEN};
use super::probe::{io_error, table_files, EgtbError};
use super::write::write_atomically;
use crate::rules::Rules;
use memmap2::Mmap;
use std::fs::File;
use std::path::Path;

/// How `compress_dir` compresses.
#[derive(Clone, Copy, Debug)]
pub struct CompressOptions {
    /// Plain payload bytes a block holds.
    pub block_bytes: u32,
    /// The zstd level (1 to 22).
    pub level: i32,
    /// Threads compressing the blocks of a table.
    pub threads: usize,
}

impl CompressOptions {
    /// 4096 plain bytes a block: 16384 entries of a `wdl2` table, 4096 of a
    /// `dtm8` one (docs/endgames.md: the measurement behind it).
    pub const DEFAULT_BLOCK_BYTES: u32 = 4096;
    /// The level that gives the smallest files in a time a one-off
    /// conversion can afford (docs/endgames.md).
    pub const DEFAULT_LEVEL: i32 = 19;
}

impl Default for CompressOptions {
    fn default() -> Self {
        CompressOptions {
            block_bytes: Self::DEFAULT_BLOCK_BYTES,
            level: Self::DEFAULT_LEVEL,
            threads: 1,
        }
    }
}

/// A plain table's file compressed: the whole file's bytes (header and
/// payload). Every block is decompressed again and compared before it is
/// kept. `header` is the plain file's (a build's, or one read back).
pub(crate) fn compress_bytes(
    header: &Header,
    payload: &[u8],
    opts: &CompressOptions,
) -> Result<Vec<u8>, CompressError> {
    let unit = entry_unit(header.encoding);
    if opts.block_bytes == 0 || opts.block_bytes > MAX_BLOCK_BYTES || opts.block_bytes % unit != 0 {
        return Err(CompressError::BlockBytes {
            block_bytes: opts.block_bytes,
            unit,
        });
    }
    let chunks: Vec<&[u8]> = payload.chunks(opts.block_bytes as usize).collect();
    let threads = opts.threads.clamp(1, chunks.len().max(1));
    let per_thread = chunks.len().div_ceil(threads).max(1);
    let compressed: Vec<Result<Vec<Vec<u8>>, CompressError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .chunks(per_thread)
            .map(|part| {
                scope.spawn(move || {
                    let fail = CompressError::Zstd;
                    let mut cctx = zstd::bulk::Compressor::new(opts.level).map_err(fail)?;
                    let mut dctx = zstd::bulk::Decompressor::new().map_err(fail)?;
                    let mut check = Vec::new();
                    part.iter()
                        .map(|plain| {
                            let c = cctx.compress(plain).map_err(fail)?;
                            if !decompress(&mut dctx, &c, plain.len(), &mut check)
                                || check != *plain
                            {
                                return Err(CompressError::RoundTrip);
                            }
                            Ok(c)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(CompressError::ThreadPanicked)))
            .collect()
    });
    let mut blocks = Vec::with_capacity(chunks.len());
    for part in compressed {
        blocks.extend(part?);
    }
    let data_len: usize = blocks.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(HEADER_LEN + PREAMBLE + 8 * (blocks.len() + 1) + data_len);
    out.resize(HEADER_LEN, 0);
    out.extend_from_slice(&opts.block_bytes.to_le_bytes());
    out.extend_from_slice(&[METHOD_ZSTD, 0, 0, 0]);
    out.extend_from_slice(&(blocks.len() as u64).to_le_bytes());
    let mut offset = 0u64;
    out.extend_from_slice(&offset.to_le_bytes());
    for b in &blocks {
        offset += b.len() as u64;
        out.extend_from_slice(&offset.to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    let stored = Header {
        layout: Layout::Blocks,
        payload_len: (out.len() - HEADER_LEN) as u64,
        ..*header
    };
    let head = stored.encode(&out[HEADER_LEN..]);
    out[..HEADER_LEN].copy_from_slice(&head);
    Ok(out)
}

/// What `compress_dir` did with one table.
#[derive(Clone, Debug)]
pub struct Compressed {
    /// The table's file name.
    pub name: String,
    /// Its entries.
    pub entries: u64,
    /// Bytes of the file read.
    pub bytes_in: u64,
    /// Bytes of the file written (equal to `bytes_in` for a table that was
    /// compressed already).
    pub bytes_out: u64,
    /// Whether it was compressed already (then copied, or left alone when
    /// `out` is the same directory).
    pub already: bool,
}

/// Compresses every table of `rules` in `dir` into `out` (the same
/// directory: each file is replaced, through a temporary name, by its
/// compressed form), reporting each table as it is done. Each file is
/// checked whole before it is read, and the written file is opened and
/// checked again; a table compressed already is copied (or left alone).
pub fn compress_dir(
    dir: &Path,
    out: &Path,
    rules: Rules,
    opts: &CompressOptions,
    progress: &mut dyn FnMut(&Compressed),
) -> Result<Vec<Compressed>, EgtbError> {
    let files = table_files(dir, rules)?;
    if files.is_empty() {
        return Err(EgtbError::NoTables {
            dir: dir.to_path_buf(),
            rules,
        });
    }
    std::fs::create_dir_all(out).map_err(io_error(out))?;
    let same = same_dir(dir, out);
    let mut done = Vec::new();
    for (signature, path) in files {
        let file = File::open(&path).map_err(io_error(&path))?;
        // SAFETY: read-only; table files are written once under a temporary
        // name and renamed, never changed in place (as in `Table::open`).
        let map = unsafe { Mmap::map(&file) }.map_err(io_error(&path))?;
        let header = Header::decode(&map, rules, signature).map_err(|error| EgtbError::File {
            path: path.clone(),
            error,
        })?;
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let target = out.join(&name);
        let already = header.layout == Layout::Blocks;
        let bytes_out = if already {
            if !same {
                write_atomically(&target, &map, &[])?;
            }
            map.len() as u64
        } else {
            let bytes = compress_bytes(&header, &map[HEADER_LEN..], opts).map_err(|reason| {
                EgtbError::Compression {
                    path: path.clone(),
                    reason,
                }
            })?;
            write_atomically(&target, &bytes, &[])?;
            bytes.len() as u64
        };
        drop(map);
        // The written file must open as a table, with the same header.
        let written = super::probe::Table::open(&target, rules, signature)?;
        if written.header.stats != header.stats || written.header.encoding != header.encoding {
            return Err(EgtbError::Compression {
                path: target,
                reason: CompressError::HeaderDiffers,
            });
        }
        let c = Compressed {
            name,
            entries: header.entries,
            bytes_in: HEADER_LEN as u64 + header.payload_len,
            bytes_out,
            already,
        };
        progress(&c);
        done.push(c);
    }
    Ok(done)
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::tests::{build_quietly, TempDir};
    use crate::egtb::{Signature, TableIndex, Tablebase, MAX_PIECES};

    /// Every entry of every table in `plain` and `packed` agrees, and
    /// every probe of a position an entry stands for; returns the entries
    /// compared.
    fn assert_same_tables(plain: &Tablebase, packed: &Tablebase) -> u64 {
        let mut compared = 0;
        for s in Signature::build_order(MAX_PIECES) {
            let (Some(a), Some(b)) = (plain.table(s), packed.table(s)) else {
                assert!(plain.table(s).is_none() && packed.table(s).is_none(), "{s}");
                continue;
            };
            assert_eq!(a.header.layout, Layout::Plain, "{s}");
            assert_eq!(b.header.layout, Layout::Blocks, "{s}");
            let index = TableIndex::new(s);
            for i in 0..index.len() {
                assert_eq!(a.value_at(i), b.value_at(i), "{s} entry {i}");
                if index.positions_of(i) > 0 {
                    let p = index.placement(i);
                    assert_eq!(plain.probe_placement(&p), packed.probe_placement(&p));
                }
                compared += 1;
            }
        }
        compared
    }

    fn compress(dir: &Path, out: &Path, rules: Rules, block_bytes: u32) -> Vec<Compressed> {
        let opts = CompressOptions {
            block_bytes,
            level: 3,
            threads: 2,
        };
        compress_dir(dir, out, rules, &opts, &mut |_| {}).expect("compress")
    }

    /// The 3-piece tables of both variants, compressed with blocks of
    /// several sizes (down to a few entries, so that most entries sit at a
    /// block's edge), probe the same in every entry as the plain ones.
    #[test]
    fn compressed_tables_probe_as_the_plain_ones() {
        for rules in [Rules::ARMENIAN, Rules::TURKISH] {
            let dir = TempDir::new(&format!("zplain-{}", rules.variant));
            let plain = build_quietly(dir.path(), rules, 3, 4);
            for block_bytes in [2, 10, 4096] {
                let out = TempDir::new(&format!("zpacked-{}-{block_bytes}", rules.variant));
                let done = compress(dir.path(), out.path(), rules, block_bytes);
                assert_eq!(done.len(), 16);
                assert!(done.iter().all(|c| !c.already));
                let packed = Tablebase::open(out.path(), rules).expect("compressed tables open");
                assert_eq!(packed.complete_pieces(), 3);
                let entries: u64 = plain.headers().iter().map(|h| h.entries).sum();
                assert_eq!(assert_same_tables(&plain, &packed), entries);
            }
        }
    }

    /// Tables without distances (`wdl2`, four entries a byte) too.
    #[test]
    fn compressed_tables_without_distances_probe_as_the_plain_ones() {
        let dir = TempDir::new("zwdl-plain");
        let plain = build_quietly(dir.path(), Rules::ARMENIAN, 3, 2);
        let out = TempDir::new("zwdl-packed");
        compress(dir.path(), out.path(), Rules::ARMENIAN, 5);
        let packed = Tablebase::open(out.path(), Rules::ARMENIAN).expect("open");
        assert!(assert_same_tables(&plain, &packed) > 0);
    }

    /// Every entry of the 4-piece tables in `TAMA_EGTB_DIR` (plain, as
    /// `tama egtb build` writes them), compressed as `tama egtb compress`
    /// does by default, probes the same:
    /// `TAMA_EGTB_DIR=D TAMA_EGTB_RULES=turkish,immediate,false cargo test
    /// --release -p tama-engine --lib egtb::compress -- --ignored`.
    #[test]
    #[ignore = "needs the 4-piece tables in TAMA_EGTB_DIR"]
    fn four_piece_compressed_tables_probe_as_the_plain_ones() {
        let dir = std::env::var("TAMA_EGTB_DIR").expect("TAMA_EGTB_DIR: the plain tables");
        let rules = crate::egtb::tests::rules_from_env();
        let plain = Tablebase::open(Path::new(&dir), rules).expect("plain tables");
        assert!(plain.complete_pieces() >= 4);
        let out = TempDir::new("zfour");
        let opts = CompressOptions {
            threads: 2,
            ..CompressOptions::default()
        };
        compress_dir(Path::new(&dir), out.path(), rules, &opts, &mut |_| {}).expect("compress");
        let packed = Tablebase::open(out.path(), rules).expect("compressed tables");
        let entries: u64 = plain.headers().iter().map(|h| h.entries).sum();
        assert_eq!(assert_same_tables(&plain, &packed), entries);
    }

    /// A block size that is not a whole number of entries is refused with
    /// the size it needs, as a typed reason, before anything is written.
    #[test]
    fn a_block_size_of_part_entries_is_refused() {
        let dir = TempDir::new("zbadblock");
        build_quietly(dir.path(), Rules::ARMENIAN, 2, 4);
        let out = TempDir::new("zbadblock-out");
        for block_bytes in [0, MAX_BLOCK_BYTES + 1] {
            let opts = CompressOptions {
                block_bytes,
                ..CompressOptions::default()
            };
            let e = compress_dir(dir.path(), out.path(), Rules::ARMENIAN, &opts, &mut |_| {})
                .expect_err("refused");
            match &e {
                EgtbError::Compression {
                    reason:
                        CompressError::BlockBytes {
                            block_bytes: b,
                            unit,
                        },
                    ..
                } => assert!(*b == block_bytes && [1, 2].contains(unit), "{e}"),
                other => panic!("not a block-size refusal: {other}"),
            }
            assert!(e.to_string().contains("not compressed: block bytes"), "{e}");
        }
        assert_eq!(std::fs::read_dir(out.path()).expect("out").count(), 0);
    }

    /// In place: every file replaced by its compressed form; again: nothing
    /// to do; and a build finds its compressed tables there and keeps them.
    #[test]
    fn compressing_in_place_replaces_each_file_once() {
        let dir = TempDir::new("zinplace");
        let rules = Rules::TURKISH;
        build_quietly(dir.path(), rules, 3, 4);
        let first = compress(dir.path(), dir.path(), rules, 64);
        assert!(first.iter().all(|c| !c.already));
        let total = |f: fn(&Compressed) -> u64| first.iter().map(f).sum::<u64>();
        assert!(total(|c| c.bytes_out) < total(|c| c.bytes_in));
        let again = compress(dir.path(), dir.path(), rules, 64);
        assert!(again.iter().all(|c| c.already && c.bytes_out == c.bytes_in));
        let opts = crate::egtb::BuildOptions {
            rules,
            max_pieces: 3,
            distance_pieces: 4,
            threads: 1,
            compress: None,
        };
        let mut kept = 0;
        crate::egtb::build(dir.path(), &opts, &mut |p| {
            if let crate::egtb::Progress::Kept { signatures } = p {
                kept += signatures.len();
            }
        })
        .expect("build over compressed tables");
        assert_eq!(kept, 16);
    }

    /// A damaged block index is refused when the table is opened, each
    /// with its reason; a flipped bit in the data by the checksum.
    #[test]
    fn a_damaged_compressed_table_is_refused() {
        let dir = TempDir::new("zdamage");
        let rules = Rules::ARMENIAN;
        build_quietly(dir.path(), rules, 2, 4);
        compress(dir.path(), dir.path(), rules, 16);
        let s = Signature::new(0, 1, 0, 1);
        let path = dir.path().join(crate::egtb::file_name(rules, s));
        let good = std::fs::read(&path).unwrap();
        let refuse = |edit: &dyn Fn(&mut Vec<u8>), needle: &str| {
            let mut bytes = good.clone();
            edit(&mut bytes);
            // Re-sign the header so that only the damage under test shows.
            let header = Header::decode(&good, rules, s).unwrap();
            let header = Header {
                payload_len: (bytes.len() - HEADER_LEN) as u64,
                ..header
            };
            let head = header.encode(&bytes[HEADER_LEN..]);
            bytes[..HEADER_LEN].copy_from_slice(&head);
            std::fs::write(&path, &bytes).unwrap();
            let err = Tablebase::open(dir.path(), rules).err().expect("refused");
            let text = err.to_string();
            assert!(text.contains(needle), "{text:?} lacks {needle:?}");
        };
        let p = HEADER_LEN;
        refuse(&|b| b[p + 4] = 7, "compression method");
        refuse(
            &|b| b[p..p + 4].copy_from_slice(&0u32.to_le_bytes()),
            "block size",
        );
        refuse(&|b| b[p + 8] ^= 1, "block count");
        refuse(&|b| b[p + 16] = 1, "out of order");
        refuse(&|b| b.truncate(b.len() - 1), "do not end with the data");
        refuse(&|b| b.truncate(HEADER_LEN + 20), "longer than the payload");
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        let err = Tablebase::open(dir.path(), rules).err().expect("refused");
        assert!(err.to_string().contains("bad checksum"), "{err}");
    }
}
