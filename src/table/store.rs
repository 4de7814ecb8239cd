//! A folder of tables: [`TableSet`] opens the tables of one variant lazily
//! and serves them to the solver and the prober as a [`TierStore`];
//! [`list`] finds every table under a folder.

use super::format::Order;
use super::{Problem, Table, TableError, TableInfo, file_name, parse_file_name, table_path};
use crate::fields;
use crate::index::{FileKey, TierKey};
use crate::rules::Variant;
use crate::solve::{
    Floor, FloorTiers, SolveError, StoreError, TierCache, TierStore, TierValues, WdlFields,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

/// Open the table at `path`, checking that its header names `variant` (by
/// slug, when given), the material `file` (when given) and the floor
/// `floor` (`None`: an exact table).
pub(crate) fn open_checked(
    path: &Path,
    slug: Option<&str>,
    material: Option<FileKey>,
    floor: Option<Floor>,
) -> Result<Table, TableError> {
    let t = Table::open(path)?;
    let info = t.info();
    if info.floor != floor {
        return Err(TableError::new(
            path,
            Problem::FloorMismatch {
                found: info.floor,
                expected: floor,
            },
        ));
    }
    if let Some(slug) = slug {
        if info.variant.slug() != slug {
            return Err(TableError::new(
                path,
                Problem::WrongVariant {
                    found: info.variant,
                    expected: slug.to_string(),
                },
            ));
        }
    }
    if let Some(file) = material {
        if info.file() != file {
            return Err(TableError::new(
                path,
                Problem::WrongMaterial {
                    found: info.file(),
                    expected: file,
                },
            ));
        }
    }
    Ok(t)
}

/// The tables of one variant under a folder, opened on first use and kept
/// open. Thread-safe. A table that is absent is looked for again at each
/// use, so tables written while the set is in use are found.
pub struct TableSet {
    dir: PathBuf,
    variant: Variant,
    open: RwLock<HashMap<FileKey, Arc<Table>>>,
    /// Tiers of tables with distances decoded for [`TierStore::values`],
    /// at most [`HELD_BYTES`] (a WDL-only table's tiers are read in place
    /// in its blocks, which the block cache keeps).
    held: TierCache<TierValues>,
    /// Refuse WDL-only tables (a build with distances reads this set).
    require_distances: bool,
    /// A WDL-only table was opened.
    wdl_only_seen: std::sync::atomic::AtomicBool,
    /// The floor of the files read (`None`: exact tables), and the tiers
    /// below it it answers with.
    floor: Option<Floor>,
    floor_tiers: FloorTiers,
}

/// The most bytes of decoded tiers a [`TableSet`] keeps: 256 MiB (2^27
/// values).
const HELD_BYTES: u64 = 256 << 20;

impl TableSet {
    /// The tables of `variant` under `dir` (at `<dir>/<slug>/<n>o<k>s.atb`).
    /// Opens nothing yet.
    pub fn open(dir: &Path, variant: &Variant) -> TableSet {
        TableSet {
            dir: dir.to_path_buf(),
            variant: *variant,
            open: RwLock::new(HashMap::new()),
            held: TierCache::new(HELD_BYTES),
            require_distances: false,
            wdl_only_seen: Default::default(),
            floor: None,
            floor_tiers: FloorTiers::default(),
        }
    }

    /// The files of the game above `floor` (`None`: the exact tables),
    /// under `<root>/floor-<K>-<side>/<slug>/` ([`Floor::folder`]): every
    /// file opened must have that floor in its header, and the tiers below
    /// the floor read as it assumes.
    pub fn open_floored(root: &Path, variant: &Variant, floor: Option<Floor>) -> TableSet {
        TableSet::open(&Floor::dir_under(root, floor), variant).with_floor(floor)
    }

    /// The same set reading files of `floor` in its own folder (a build
    /// opens the floor's folder itself).
    pub(crate) fn with_floor(mut self, floor: Option<Floor>) -> TableSet {
        self.floor = floor;
        self
    }

    /// The floor of the files it reads (`None`: exact tables).
    pub fn floor(&self) -> Option<Floor> {
        self.floor
    }

    /// The folder its variant folder lies in (the tables folder, or a
    /// floor's folder inside it).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The same set, refusing WDL-only tables with
    /// [`Problem::NoDistances`] (for a build that writes distances: it
    /// cannot take them from tables that have none).
    pub(crate) fn requiring_distances(mut self) -> TableSet {
        self.require_distances = true;
        self
    }

    /// The variant.
    pub(crate) fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The path of table file `file`.
    pub(crate) fn path(&self, file: FileKey) -> PathBuf {
        table_path(&self.dir, &self.variant, file)
    }

    /// Whether table file `file` is open or exists (whether it is sound is
    /// only known on opening; the tests ask).
    #[cfg(test)]
    pub(crate) fn has(&self, file: FileKey) -> bool {
        self.cached(file).is_some() || self.path(file).is_file()
    }

    fn cached(&self, file: FileKey) -> Option<Arc<Table>> {
        let open = self.open.read().unwrap_or_else(|e| e.into_inner());
        open.get(&file).cloned()
    }

    /// The last tier (in solving order) of the file with the most
    /// soldiers the set holds (two officers before one), if any file opens:
    /// a tier whose positions the set answers without solving, when its
    /// files are a closure's or complete.
    pub(crate) fn largest_tier(&self) -> Option<crate::index::TierKey> {
        (9..=24u8)
            .rev()
            .flat_map(|k| [FileKey::new(2, k), FileKey::new(1, k)])
            .find_map(|f| {
                self.table(f)
                    .ok()
                    .flatten()?
                    .tier_keys()
                    .ok()?
                    .last()
                    .copied()
            })
    }

    /// Table file `file`, opened if need be; `None` if it does not exist,
    /// an error if it is unsound or holds another variant or material.
    pub fn table(&self, file: FileKey) -> Result<Option<Arc<Table>>, TableError> {
        if let Some(t) = self.cached(file) {
            return Ok(Some(t));
        }
        let mut open = self.open.write().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = open.get(&file) {
            return Ok(Some(t.clone()));
        }
        let path = self.path(file);
        let slug = self.variant.slug();
        match open_checked(&path, Some(&slug), Some(file), self.floor) {
            Ok(t) if t.info().wdl_only && self.require_distances => {
                Err(TableError::new(&path, Problem::NoDistances))
            }
            Ok(t) => {
                if t.info().wdl_only {
                    self.wdl_only_seen
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                }
                let t = Arc::new(t);
                open.insert(file, t.clone());
                Ok(Some(t))
            }
            Err(e) if e.is_not_found() => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A table file's error, where the solver reads through a [`TableSet`].
impl From<TableError> for SolveError {
    fn from(error: TableError) -> SolveError {
        SolveError::Store(StoreError::new(error))
    }
}

impl TierStore for TableSet {
    fn tier(&self, key: &TierKey) -> Result<Option<Arc<[u16]>>, SolveError> {
        Ok(self.values(key)?.map(|v| v.to_codes()))
    }

    fn values(&self, key: &TierKey) -> Result<Option<TierValues>, SolveError> {
        if let Some(f) = &self.floor
            && f.covers(key)
        {
            return Ok(Some(TierValues::Codes(self.floor_tiers.tier(f, key))));
        }
        let Some(table) = self.table(key.file())? else {
            return Ok(None);
        };
        let info = table.info();
        if info.wdl_only {
            // Its block, from the block cache: nothing to keep here.
            return Ok(table.tier_fields(key)?.map(|fields| {
                TierValues::Wdl(WdlFields::new(
                    fields,
                    key.size() as u32,
                    key,
                    info.order == Order::PlacementMajor,
                    fields::WDL_ONLY_FIELD_CODES,
                ))
            }));
        }
        if let Some(t) = self.held.get(key) {
            return Ok(Some(t));
        }
        let values = table.tier(key)?.map(TierValues::Codes);
        if let Some(t) = &values {
            self.held.insert(*key, t.clone());
        }
        Ok(values)
    }

    fn code(&self, key: &TierKey, index: u32) -> Result<Option<u16>, SolveError> {
        if let Some(f) = &self.floor
            && f.covers(key)
        {
            return Ok(FloorTiers::code(f, key, index));
        }
        match self.table(key.file())? {
            None => Ok(None),
            Some(t) => Ok(t.probe(key, index)?.map(|v| v.code())),
        }
    }

    fn has_distances(&self) -> bool {
        !self
            .wdl_only_seen
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Every table file (`*.atb`) in the variant folders under `dir`, sorted by
/// path, each with its info or what is wrong with it (including a header
/// naming another variant than its folder or other material than its
/// name, and a block failing its checksum: every block is checked, which
/// reads the files whole). Unreadable folders are skipped.
pub fn list(dir: &Path) -> Vec<(PathBuf, Result<TableInfo, TableError>)> {
    let mut out = list_floor(dir, None);
    // The floors' folders, each a tables folder of its own.
    for folder in sorted_entries(dir) {
        let name = folder.file_name().map(|s| s.to_string_lossy().into_owned());
        if let Some(f) = name.as_deref().and_then(Floor::from_folder)
            && folder.is_dir()
        {
            out.extend(list_floor(&folder, Some(f)));
        }
    }
    out
}

/// The floors whose folders under the tables folder `dir` hold a folder
/// for `variant` (`<dir>/floor-K-SIDE/<variant>/`, [`Floor::folder`]),
/// lowest floor first, the officers' floor before the soldiers' at each.
pub fn floors_under(dir: &Path, variant: &Variant) -> Vec<Floor> {
    let mut out: Vec<Floor> = sorted_entries(dir)
        .iter()
        .filter_map(|folder| {
            let name = folder.file_name()?.to_str()?;
            let f = Floor::from_folder(name)?;
            folder.join(variant.slug()).is_dir().then_some(f)
        })
        .collect();
    out.sort_by_key(|f| (f.k(), f.assume() != crate::solve::Assume::Officers));
    out
}

/// [`list`] of one folder whose files have the floor `floor`.
fn list_floor(dir: &Path, floor: Option<Floor>) -> Vec<(PathBuf, Result<TableInfo, TableError>)> {
    let mut out = Vec::new();
    for folder in sorted_entries(dir) {
        if !folder.is_dir() {
            continue;
        }
        let slug = folder
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if floor.is_none() && Floor::from_folder(&slug).is_some() {
            continue;
        }
        for path in sorted_entries(&folder) {
            let Some(name) = path.file_name().and_then(|s| s.to_str()) else {
                continue;
            };
            if !name.ends_with(".atb") || !path.is_file() {
                continue;
            }
            let r = match parse_file_name(name) {
                Some(file) if file_name(file) == name => {
                    open_checked(&path, Some(&slug), Some(file), floor)
                        .and_then(|t| t.verify_checksums().map(|()| t.info().clone()))
                }
                _ => Err(TableError::new(&path, Problem::BadName)),
            };
            out.push((path, r));
        }
    }
    out
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(_) => Vec::new(),
    };
    v.sort();
    v
}
