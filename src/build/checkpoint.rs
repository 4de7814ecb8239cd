//! Checkpoints of a table file being built: what lets a build killed at
//! any instant go on from its last checkpoint instead of from zero.
//!
//! A checkpoint lies beside the temporary file it refers to, as
//! `<n>o<k>s.atb.ckpt`. It holds the build's identity (variant, material,
//! a fingerprint of the exact list of tiers, write options), how many of
//! the tiers were done, and the writer's state at that point
//! ([`WriterState`]). It is written only after the temporary file's bytes
//! up to that point are durable, under a temporary name, synced and renamed
//! (so it is either the old or the new one, never half of one).
//!
//! # File layout (version 3)
//!
//! | bytes | field |
//! |------:|-------|
//! | 8 | magic: the ASCII bytes `ASALTOCK` |
//! | 4 | checkpoint version, `3` (little-endian) |
//! | .. | the [`Checkpoint`] fields, bincode 2, fixed-width little-endian integers |
//! | 4 | CRC-32 (as in the table format) of every byte before it |
//!
//! Version 2 added the file's [`History`] (the time and peak memory of the
//! runs up to the checkpoint), version 3 the stream order of the file
//! ([`crate::table::Order`]) to the writer's state. Checkpoints of
//! versions 1 and 2 are still taken up: mask-major (the only order then),
//! and with an unknown history (zeros) from version 1.
//!
//! A checkpoint that fails any of these checks, or that describes another
//! build, is discarded (the build says so in one line) and never trusted:
//! the build then starts the file again.

use crate::index::{FileKey, TierKey};
use crate::rules::Variant;
use crate::table::{WriterState, WriterStateV2};
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The magic bytes of a checkpoint file.
const MAGIC: [u8; 8] = *b"ASALTOCK";
/// The checkpoint format version this build writes (it reads 1 and 2 too).
const VERSION: u32 = 3;

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_fixed_int_encoding()
}

/// What a checkpoint says about the build it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, bincode::Encode, bincode::Decode)]
pub(crate) struct Identity {
    /// The variant, as its four switch names (`soldiers=..,capture=..`).
    pub(crate) variant: String,
    /// Officers.
    pub(crate) n: u8,
    /// Soldiers.
    pub(crate) k: u8,
    /// Tiers in the file and their positions.
    pub(crate) tiers: u64,
    /// Positions in the file.
    pub(crate) positions: u64,
    /// CRC-32 of the tiers' `outside` masks in solving order.
    pub(crate) fingerprint: u32,
    /// Whether the file holds win/draw/loss only.
    pub(crate) wdl_only: bool,
}

impl Identity {
    /// The identity of a build of `tiers` (in solving order).
    pub(crate) fn of(
        variant: &Variant,
        file: FileKey,
        tiers: &[TierKey],
        wdl_only: bool,
    ) -> Identity {
        let FileKey { n, k } = file;
        let mut h = crc32fast::Hasher::new();
        for t in tiers {
            h.update(&t.outside.to_le_bytes());
        }
        Identity {
            variant: variant.to_string(),
            n,
            k,
            tiers: tiers.len() as u64,
            positions: tiers.iter().map(|t| t.size()).sum(),
            fingerprint: h.finalize(),
            wdl_only,
        }
    }
}

/// A checkpoint: the build, how far it got, and the writer's state.
#[derive(Clone, Debug, PartialEq, bincode::Encode, bincode::Decode)]
pub(crate) struct Checkpoint {
    /// The build.
    pub(crate) identity: Identity,
    /// Tiers done, a prefix of the build's list.
    pub(crate) done: u64,
    /// The writer after the last of them.
    pub(crate) writer: WriterState,
    /// What building the file took up to this checkpoint, over every run.
    pub(crate) history: History,
}

/// What building a file took up to a checkpoint, summed (time) or maxed
/// (memory) over the runs that built it: a build resumed from the
/// checkpoint adds its own. The work a killed run did after its last
/// checkpoint is not counted (the resumed run does it again, and counts
/// it).
#[derive(Clone, Copy, Debug, Default, PartialEq, bincode::Encode, bincode::Decode)]
pub(crate) struct History {
    /// Wall seconds spent on the file.
    pub(crate) seconds: f64,
    /// Peak anonymous memory of a run while building the file (bytes).
    pub(crate) peak_anon_bytes: u64,
    /// Peak resident memory, mapped tables included (bytes).
    pub(crate) peak_rss_bytes: u64,
}

/// A version 1 checkpoint: one without a history, nor the stream order.
#[derive(bincode::Decode)]
struct CheckpointV1 {
    identity: Identity,
    done: u64,
    writer: WriterStateV2,
}

/// A version 2 checkpoint: one without the stream order.
#[derive(bincode::Decode)]
struct CheckpointV2 {
    identity: Identity,
    done: u64,
    writer: WriterStateV2,
    history: History,
}

/// Why a checkpoint was not used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing failed.
    #[error("{}: {op}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        op: &'static str,
        /// The system's error.
        error: std::io::Error,
    },
    /// The file is not a sound checkpoint of this version.
    #[error("{}: {why}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// `<table>.ckpt`: the checkpoint of the table at `table`.
pub fn path_for(table: &Path) -> PathBuf {
    let mut name = table.file_name().unwrap_or_default().to_os_string();
    name.push(".ckpt");
    table.with_file_name(name)
}

/// A table file being written under a tables folder: its temporary file
/// (`<n>o<k>s.atb.tmp`, of a build or a repack) or its checkpoint is
/// there. Whether the run writing it is alive is not known: a build stopped
/// or killed leaves both, and goes on from the checkpoint when run again.
#[derive(Debug)]
pub struct Unfinished {
    /// Where the table goes when complete.
    pub table: PathBuf,
    /// Whether its temporary file is there.
    pub temporary: bool,
    /// Its checkpoint, if one is there: what it holds, or why a build
    /// would discard it.
    pub checkpoint: Option<Result<Saved, CheckpointError>>,
}

/// What a checkpoint holds: the build it belongs to and how far it got.
#[derive(Debug, Clone)]
pub struct Saved {
    /// The variant, as its four switch names (`soldiers=..,capture=..`).
    pub variant: String,
    /// The file: officers and soldiers.
    pub file: FileKey,
    /// Tiers in the file.
    pub tiers: u64,
    /// Positions in the file.
    pub positions: u64,
    /// Whether the file holds win/draw/loss only.
    pub wdl_only: bool,
    /// Tiers written when the checkpoint was taken.
    pub tiers_done: u64,
    /// Positions written when the checkpoint was taken.
    pub positions_done: u64,
}

impl Saved {
    /// What the checkpoint of the table at `table` holds: `Ok(None)` when
    /// there is none, an error when it is unreadable or damaged.
    pub fn of_table(table: &Path) -> Result<Option<Saved>, CheckpointError> {
        Ok(Checkpoint::load(&path_for(table))?.map(|c| Saved::of(&c)))
    }

    fn of(c: &Checkpoint) -> Saved {
        let i = &c.identity;
        Saved {
            variant: i.variant.clone(),
            file: FileKey::new(i.n, i.k),
            tiers: i.tiers,
            positions: i.positions,
            wdl_only: i.wdl_only,
            tiers_done: c.done,
            positions_done: c.writer.positions(),
        }
    }
}

/// Every table file being written in the variant folders of `dir` (as
/// [`crate::table::list`] reads them), sorted by path.
pub fn unfinished(dir: &Path) -> Vec<Unfinished> {
    let mut found = std::collections::BTreeMap::<PathBuf, (bool, bool)>::new();
    let entries = |d: &Path| -> Vec<PathBuf> {
        fs::read_dir(d).map_or_else(
            |_| Vec::new(),
            |rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        )
    };
    // The variant folders, and those of the floors' folders
    // (`floor-<K>-<side>/<variant>/`).
    let mut folders: Vec<PathBuf> = entries(dir).into_iter().filter(|f| f.is_dir()).collect();
    let floors: Vec<PathBuf> = folders
        .iter()
        .filter(|f| {
            f.file_name()
                .and_then(|n| n.to_str())
                .and_then(crate::solve::Floor::from_folder)
                .is_some()
        })
        .flat_map(|f| entries(f))
        .filter(|f| f.is_dir())
        .collect();
    folders.extend(floors);
    for folder in folders {
        for path in entries(&folder) {
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let (table, temporary) = match (
                name.strip_suffix(".atb.tmp"),
                name.strip_suffix(".atb.ckpt"),
            ) {
                (Some(base), _) => (base, true),
                (_, Some(base)) => (base, false),
                _ => continue,
            };
            let entry = found
                .entry(folder.join(format!("{table}.atb")))
                .or_default();
            if temporary {
                entry.0 = true;
            } else {
                entry.1 = true;
            }
        }
    }
    found
        .into_iter()
        .map(|(table, (temporary, ckpt))| Unfinished {
            checkpoint: ckpt.then(|| {
                Checkpoint::load(&path_for(&table)).and_then(|c| {
                    c.map(|c| Saved::of(&c))
                        .ok_or_else(|| CheckpointError::Damaged {
                            path: path_for(&table),
                            why: "gone while read".to_string(),
                        })
                })
            }),
            table,
            temporary,
        })
        .collect()
}

impl Checkpoint {
    /// The checkpoint at `path`: `Ok(None)` when there is none, an error
    /// when it is unreadable or damaged.
    pub(crate) fn load(path: &Path) -> Result<Option<Checkpoint>, CheckpointError> {
        let bytes = match fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(CheckpointError::Io {
                    path: path.into(),
                    op: "cannot read",
                    error,
                });
            }
        };
        let damaged = |why: &str| CheckpointError::Damaged {
            path: path.into(),
            why: why.to_string(),
        };
        if bytes.len() < 16 || bytes[..8] != MAGIC {
            return Err(damaged("not a checkpoint file"));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(damaged("fails its checksum (damaged)"));
        }
        let version = u32::from_le_bytes([body[8], body[9], body[10], body[11]]);
        let undecodable =
            |e: bincode::error::DecodeError| damaged(&format!("does not decode ({e})"));
        let (c, used) = match version {
            VERSION => bincode::decode_from_slice(&body[12..], config()).map_err(undecodable)?,
            1 => {
                let (c, used): (CheckpointV1, usize) =
                    bincode::decode_from_slice(&body[12..], config()).map_err(undecodable)?;
                let c = Checkpoint {
                    identity: c.identity,
                    done: c.done,
                    writer: c.writer.into(),
                    history: History::default(),
                };
                (c, used)
            }
            2 => {
                let (c, used): (CheckpointV2, usize) =
                    bincode::decode_from_slice(&body[12..], config()).map_err(undecodable)?;
                let c = Checkpoint {
                    identity: c.identity,
                    done: c.done,
                    writer: c.writer.into(),
                    history: c.history,
                };
                (c, used)
            }
            _ => {
                return Err(damaged(&format!(
                    "checkpoint version {version}, this build reads 1 to {VERSION}"
                )));
            }
        };
        if used != body.len() - 12 {
            return Err(damaged("has trailing bytes"));
        }
        Ok(Some(c))
    }

    /// Write the checkpoint at `path` atomically: a temporary file, synced,
    /// renamed over the old one, the folder synced.
    pub(crate) fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let io = |op| {
            move |error| CheckpointError::Io {
                path: path.into(),
                op,
                error,
            }
        };
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bincode::encode_into_std_write(self, &mut bytes, config()).map_err(|e| {
            CheckpointError::Damaged {
                path: path.into(),
                why: format!("cannot encode ({e})"),
            }
        })?;
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
        tmp_name.push(".tmp");
        let tmp = path.with_file_name(tmp_name);
        let mut f = File::create(&tmp).map_err(io("cannot create"))?;
        f.write_all(&bytes).map_err(io("cannot write"))?;
        f.sync_all().map_err(io("cannot sync"))?;
        drop(f);
        fs::rename(&tmp, path).map_err(io("cannot rename"))?;
        if let Some(parent) = path.parent() {
            if let Ok(d) = File::open(parent) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{Order, TableWriter, WriteOptions};

    /// A checkpoint of a writer that has written nothing yet.
    fn sample(dir: &Path) -> Checkpoint {
        let v = Variant::ASSAUT;
        let mut w = TableWriter::create_with(dir, &v, FileKey::new(1, 9), &WriteOptions::default())
            .unwrap();
        Checkpoint {
            identity: Identity::of(&v, FileKey::new(1, 9), &[], false),
            done: 3,
            writer: w.checkpoint().unwrap(),
            history: History {
                seconds: 12.5,
                peak_anon_bytes: 1 << 30,
                peak_rss_bytes: 3 << 30,
            },
        }
    }

    #[test]
    fn a_checkpoint_reads_back_with_its_history() {
        let dir = tempfile::tempdir().unwrap();
        let c = sample(dir.path());
        let path = dir.path().join("x.ckpt");
        c.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap(), Some(c));
    }

    #[test]
    fn the_stream_order_reads_back() {
        let dir = tempfile::tempdir().unwrap();
        let v = Variant::ASSAUT;
        let opts = WriteOptions::wdl_only();
        let mut w = TableWriter::create_with(dir.path(), &v, FileKey::new(2, 9), &opts).unwrap();
        let c = Checkpoint {
            identity: Identity::of(&v, FileKey::new(2, 9), &[], true),
            done: 1,
            writer: w.checkpoint().unwrap(),
            history: History::default(),
        };
        let path = dir.path().join("x.ckpt");
        c.save(&path).unwrap();
        let read = Checkpoint::load(&path).unwrap().unwrap();
        assert_eq!(read.writer.options(), opts);
        assert_eq!(read.writer.options().order, Order::PlacementMajor);
    }

    /// The bytes of a checkpoint of `version` (1 or 2) holding `c`, as the
    /// builds of then wrote it.
    fn old_checkpoint(version: u32, c: &Checkpoint) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&version.to_le_bytes());
        let w = c.writer.as_v2();
        if version == 1 {
            let fields = (c.identity.clone(), c.done, w);
            bincode::encode_into_std_write(&fields, &mut bytes, config()).unwrap();
        } else {
            let fields = (c.identity.clone(), c.done, w, c.history);
            bincode::encode_into_std_write(&fields, &mut bytes, config()).unwrap();
        }
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    #[test]
    fn a_version_2_checkpoint_is_taken_up_mask_major() {
        let dir = tempfile::tempdir().unwrap();
        let c = sample(dir.path());
        let path = dir.path().join("v2.ckpt");
        std::fs::write(&path, old_checkpoint(2, &c)).unwrap();
        let read = Checkpoint::load(&path).unwrap().unwrap();
        assert_eq!(read, c);
        assert_eq!(read.writer.options().order, Order::MaskMajor);
    }

    #[test]
    fn a_version_1_checkpoint_is_taken_up_without_a_history() {
        // Version 1 is version 2 without the history at the end: the
        // same fields written one after the other.
        let dir = tempfile::tempdir().unwrap();
        let c = sample(dir.path());
        let mut bytes = old_checkpoint(1, &c);
        let path = dir.path().join("v1.ckpt");
        std::fs::write(&path, &bytes).unwrap();
        let read = Checkpoint::load(&path).unwrap().unwrap();
        assert_eq!(read.history, History::default());
        assert_eq!(
            (read.identity, read.done, read.writer),
            (c.identity, c.done, c.writer)
        );
        // Another version is refused, saying which.
        bytes[8] = 7;
        let n = bytes.len() - 4;
        let crc = crc32fast::hash(&bytes[..n]);
        bytes[n..].copy_from_slice(&crc.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let e = Checkpoint::load(&path).unwrap_err().to_string();
        assert!(e.contains("version 7"), "{e}");
    }
}
