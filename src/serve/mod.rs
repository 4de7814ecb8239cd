//! `asalto serve`: a local HTTP server over the tables, with a position
//! explorer page and a JSON API (axum on tokio).
//!
//! This module owns the router, the server's shared state and its limit on
//! memory: values come from the table files under [`Options::tables`], and
//! the tiers no file holds are solved on demand
//! ([`crate::ondemand::query`]) under the same limit as `asalto query`,
//! refused above it with the same line ([`crate::plan::refusal`]). Solving
//! runs on tokio's blocking threads, and the solves running at once hold
//! together at most [`Options::limit`] positions: each takes its share of a
//! semaphore counted in units of `UNIT` positions before it starts.
//!
//! The routes (the JSON objects are those of [`crate::json`], the same as
//! the command line's `--json`):
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /` | the explorer page (HTML, CSS and JS embedded in the binary) |
//! | `GET /api/v1/query?variant=V&position=P` | [`crate::json::analysis`], what `asalto query --json` prints |
//! | `GET /api/v1/moves?variant=V&position=P` | [`crate::json::moves`], what `asalto moves --json` prints |
//! | `GET /api/v1/bestmove?variant=V&position=P` | `json::best_move` |
//! | `GET /api/v1/bounds?variant=V&position=P` | [`crate::json::floor_analysis`], what `asalto query --floor K --json` prints, from every floor folder under the tables that covers the position (404 without one) |
//! | `GET /api/v1/board` | the board's points and lines, the presets, the default variant |
//! | `GET /report/NAME.svg` | a plot of the committed balance report |
//!
//! Bad input gets HTTP 400, a position beyond the limit HTTP 422, an
//! unknown route 404, a method other than GET 405 and a request line over
//! 60 KiB 414 (hyper's parser would refuse it with no body: `limit`
//! hands it on as a route of its own), each with `{"error": "..."}` on
//! one line.

mod api;
mod assets;
mod limit;

use crate::Variant;
use crate::solve::Floor;
use crate::table::TableSet;
use axum::Router;
use axum::routing::get;
use std::collections::HashMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// Positions per permit of the server's memory semaphore: about 2 MiB
/// while solving.
pub(crate) const UNIT: u64 = 1 << 20;

/// What the server serves.
#[derive(Clone, Debug)]
pub struct Options {
    /// Folder of table files.
    pub tables: PathBuf,
    /// The variant of requests that name none, and the page's first.
    pub variant: Variant,
    /// Worker threads of each on-demand solve (0: one per core).
    pub threads: usize,
    /// The most positions solved in memory at once, over all requests
    /// (and for one request: above it, a query is refused).
    pub limit: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            tables: PathBuf::from("tables"),
            variant: Variant::ASSAUT,
            threads: 0,
            limit: crate::ondemand::MAX_IN_MEMORY,
        }
    }
}

/// What went wrong serving.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The server could not accept connections.
    #[error("serving on {addr}: {source}")]
    Io {
        /// The address served.
        addr: String,
        /// The error.
        source: std::io::Error,
    },
}

/// A table set's key in the server's state: its variant and floor (`None`:
/// the exact tables).
type SetKey = (Variant, Option<Floor>);

/// The server's shared state.
struct App {
    options: Options,
    /// One table set per variant and floor asked about (`None`: the
    /// exact tables), kept open.
    sets: Mutex<HashMap<SetKey, Arc<TableSet>>>,
    /// Units of [`UNIT`] positions that on-demand solves may hold.
    memory: Arc<Semaphore>,
    /// The permits of [`App::memory`] in all.
    units: u32,
}

impl App {
    fn new(options: Options) -> App {
        let units = options
            .limit
            .div_ceil(UNIT)
            .clamp(1, Semaphore::MAX_PERMITS.min(u32::MAX as usize) as u64)
            as u32;
        App {
            options,
            sets: Mutex::new(HashMap::new()),
            memory: Arc::new(Semaphore::new(units as usize)),
            units,
        }
    }

    /// The tables of `variant`: the exact ones (`floor` `None`) or those
    /// above `floor`, in its folder.
    fn set(&self, variant: &Variant, floor: Option<Floor>) -> Arc<TableSet> {
        // A poisoned lock only means a request panicked while inserting:
        // the map is still whole.
        let mut sets = self.sets.lock().unwrap_or_else(|e| e.into_inner());
        sets.entry((*variant, floor))
            .or_insert_with(|| {
                Arc::new(TableSet::open_floored(&self.options.tables, variant, floor))
            })
            .clone()
    }

    /// The permits of a solve of `positions` positions (at least one, at
    /// most all).
    fn units_for(&self, positions: u64) -> u32 {
        positions.div_ceil(UNIT).clamp(1, self.units as u64) as u32
    }
}

/// The server's routes over `options` (see the module's table).
pub(crate) fn router(options: Options) -> Router {
    let app = Arc::new(App::new(options));
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/report/{name}", get(assets::report))
        .route("/api/v1/query", get(api::query))
        .route("/api/v1/moves", get(api::moves))
        .route("/api/v1/bestmove", get(api::best_move))
        .route("/api/v1/bounds", get(api::bounds))
        .route("/api/v1/board", get(api::board))
        .route(limit::TOO_LONG_PATH, get(api::request_line_too_long))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .with_state(app)
}

/// Serve the routes (`router`) on `listener` until `shutdown` completes, then finish
/// the requests in flight and return.
pub async fn serve(
    listener: TcpListener,
    options: Options,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let addr = listener
        .local_addr()
        .map_or_else(|_| "?".to_string(), |a| a.to_string());
    axum::serve(limit::Limited(listener), router(options))
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|source| ServeError::Io { addr, source })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(limit: u64) -> App {
        App::new(Options {
            limit,
            ..Options::default()
        })
    }

    #[test]
    fn solves_take_their_share_of_the_limit() {
        // 3e9 positions: 2,862 units of 2^20; a solve of 5,400 positions
        // takes one, one of the whole limit takes them all.
        let a = app(crate::ondemand::MAX_IN_MEMORY);
        assert_eq!(a.units, 2_862);
        assert_eq!(a.memory.available_permits(), 2_862);
        assert_eq!(a.units_for(5_400), 1);
        assert_eq!(a.units_for(UNIT + 1), 2);
        assert_eq!(a.units_for(crate::ondemand::MAX_IN_MEMORY), 2_862);
        // A limit below one unit: one solve at a time.
        let a = app(5_400);
        assert_eq!((a.units, a.units_for(5_400)), (1, 1));
    }

    #[test]
    fn one_table_set_per_variant() {
        let a = app(1);
        let s1 = a.set(&Variant::ASSAUT, None);
        let s2 = a.set(&Variant::ASSAUT, None);
        let s3 = a.set(&Variant::ASSAULT, None);
        assert!(Arc::ptr_eq(&s1, &s2));
        assert!(!Arc::ptr_eq(&s1, &s3));
    }
}
