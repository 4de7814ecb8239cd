//! The JSON API of `asalto serve`: a request's variant and position
//! parsed (bad ones answered with HTTP 400), valued from the tables or
//! solved on demand within the server's memory limit (refused with HTTP
//! 422 above it), and every error as `{"error": "..."}` on one line.

use super::{App, UNIT};
use crate::board::{self, Point};
use crate::ondemand::{self, OnDemandError};
use crate::probe::{self, Analysis, Bracket};
use crate::progress::Quiet;
use crate::solve::Floor;
use crate::table::TableSet;
use crate::{Position, Variant, json};
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value as JsonValue, json};
use std::sync::Arc;

/// The positions whose solving holds about as much memory as the plan
/// behind a refusal (its walk over every tier holds 64 MiB of bits).
const REFUSAL_POSITIONS: u64 = 32 * UNIT;

/// Why a request gets no answer; each has its HTTP status.
#[derive(Debug, thiserror::Error)]
pub(super) enum ApiError {
    /// A malformed position, an unknown variant, a missing parameter (400).
    #[error("{0}")]
    BadInput(String),
    /// The position needs more than the on-demand limit: the refusal's line,
    /// with what its tables would cost (422).
    #[error("{0}")]
    TooLarge(String),
    /// Reading the tables or solving failed (500).
    #[error("{0}")]
    Failed(String),
    /// No such route (404).
    #[error("no such page: {0}")]
    NotFound(String),
    /// A method other than GET on a route (405).
    #[error("method {0} not allowed: the API answers GET only")]
    MethodNotAllowed(String),
    /// No table files answer the request (404): the bounds of a position
    /// no floor folder covers.
    #[error("{0}")]
    NoTables(String),
    /// A request line over `limit::LIMIT` bytes (414).
    #[error(
        "request line over {} bytes: the API's inputs are a variant and a position of a few dozen characters",
        super::limit::LIMIT
    )]
    RequestLineTooLong,
}

impl ApiError {
    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadInput(_) => StatusCode::BAD_REQUEST,
            ApiError::TooLarge(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::NotFound(_) | ApiError::NoTables(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::RequestLineTooLong => StatusCode::URI_TOO_LONG,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // One line, whatever the message.
        let message = self.to_string().replace(['\n', '\r'], " ");
        (self.status(), Json(json!({ "error": message }))).into_response()
    }
}

/// The longest position notation the API parses (the longest real one,
/// with huff rights on two points, has 45 characters).
const MAX_POSITION_CHARS: usize = 80;

/// The longest variant the API parses (four switches spelled out have
/// about 60 characters).
const MAX_VARIANT_CHARS: usize = 100;

/// The first 32 characters of a bad input, for an error answer.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(32).collect();
    if text.chars().count() > 32 {
        out.push('…');
    }
    out
}

/// The query string of the position routes.
#[derive(Debug, Deserialize)]
pub(super) struct Params {
    /// A variant (a preset or switches); the server's when absent.
    variant: Option<String>,
    /// A position: notation, `start` or `start:c7,e5`.
    position: Option<String>,
}

/// The variant and position of a request, checked as the command line
/// checks them (and with its messages).
fn parse(
    app: &App,
    params: Result<Query<Params>, QueryRejection>,
) -> Result<(Variant, Position), ApiError> {
    let Query(params) = params.map_err(|e| ApiError::BadInput(e.body_text()))?;
    let variant = match params.variant.as_deref().map(str::trim) {
        None | Some("") => app.options.variant,
        Some(text) if text.chars().count() > MAX_VARIANT_CHARS => {
            return Err(ApiError::BadInput(format!(
                "unknown variant '{}': {} characters, a variant (a preset or four switches) has at most {MAX_VARIANT_CHARS}",
                clip(text),
                text.chars().count()
            )));
        }
        Some(text) => text
            .parse()
            .map_err(|e: crate::rules::VariantError| ApiError::BadInput(e.to_string()))?,
    };
    let text = params.position.ok_or_else(|| {
        ApiError::BadInput("no position: add ?position=<notation> (or start)".to_string())
    })?;
    // A position's notation is at most about 50 characters: a longer one
    // is refused before parsing, so that no answer echoes a long input.
    if text.chars().count() > MAX_POSITION_CHARS {
        return Err(ApiError::BadInput(format!(
            "bad position '{}': {} characters, a position's notation has at most {MAX_POSITION_CHARS}",
            clip(&text),
            text.chars().count()
        )));
    }
    let pos = Position::from_arg(&text)
        .map_err(|e| ApiError::BadInput(format!("bad position '{}': {e}", text.escape_debug())))?;
    probe::check_position(&pos, &variant).map_err(|e| ApiError::BadInput(e.to_string()))?;
    Ok((variant, pos))
}

/// Run `f` on tokio's blocking threads; a panic in it is an error of this
/// request only.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Failed(format!("the request failed: {e}")))
}

/// `units` permits of the memory semaphore, waiting for them.
async fn permits(app: &App, units: u32) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    app.memory
        .clone()
        .acquire_many_owned(units)
        .await
        .map_err(|e| ApiError::Failed(format!("the server is stopping: {e}")))
}

/// The refusal of `pos`: the command line's line, with the plan's figures.
async fn refuse(app: &App, pos: Position, variant: Variant) -> ApiError {
    let permit = match permits(app, app.units_for(REFUSAL_POSITIONS)).await {
        Ok(p) => p,
        Err(e) => return e,
    };
    let (tables, threads, limit) = (
        app.options.tables.clone(),
        app.options.threads,
        app.options.limit,
    );
    let line = blocking(move || {
        let _permit = permit;
        crate::plan::refusal(&pos, &variant, limit, Some(&tables), threads)
    })
    .await;
    match line {
        Ok(line) => ApiError::TooLarge(line),
        Err(e) => e,
    }
}

/// Value `pos` and its moves from the tables, solving what they lack in
/// memory once the semaphore grants that many positions (the permits go
/// with the solve, so a request given up by its client still holds them
/// until its solve ends).
async fn analyse(app: Arc<App>, variant: Variant, pos: Position) -> Result<Analysis, ApiError> {
    let set = app.set(&variant, None);
    analyse_in(app, set, variant, pos).await
}

/// [`analyse`] from the tables of `set` (exact tables or one floor's).
async fn analyse_in(
    app: Arc<App>,
    set: Arc<TableSet>,
    variant: Variant,
    pos: Position,
) -> Result<Analysis, ApiError> {
    let limit = app.options.limit;
    let floor = set.floor();
    // Above the limit: for exact tables the command line's refusal, with
    // the plan of the tables it needs; a floor's files are built whole,
    // so there the files are missing or still being built.
    let too_large = |app: Arc<App>| async move {
        match floor {
            None => refuse(&app, pos, variant).await,
            Some(f) => ApiError::TooLarge(format!(
                "valuing {pos} above the floor ({f}) needs more than {limit} positions solved in memory: the files of {}/ under {} are missing or not finished (asalto build --floor {} --assume {} builds them)",
                f.folder(),
                app.options.tables.display(),
                f.k(),
                f.assume()
            )),
        }
    };
    let counted = {
        let set = set.clone();
        blocking(move || ondemand::missing_tiers(&pos, &variant, &set, limit)).await?
    };
    let positions: u64 = match counted {
        Ok(tiers) => tiers.iter().map(|t| t.size()).sum(),
        Err(OnDemandError::TooLarge { .. }) => return Err(too_large(app).await),
        Err(e) => return Err(ApiError::Failed(e.to_string())),
    };
    let permit = match positions {
        0 => None,
        n => Some(permits(&app, app.units_for(n)).await?),
    };
    let options = ondemand::Options {
        threads: app.options.threads,
        limit,
    };
    let solved = blocking(move || {
        let _permit = permit;
        ondemand::query(&pos, &variant, &set, &options, &Quiet)
    })
    .await?;
    match solved {
        Ok(solved) => Ok(solved.analysis),
        // The tables changed between the count and the solve.
        Err(OnDemandError::TooLarge { .. }) => Err(too_large(app).await),
        Err(e) => Err(ApiError::Failed(e.to_string())),
    }
}

/// `GET /api/v1/query`: [`json::analysis`], the object of `asalto query
/// --json`.
pub(super) async fn query(
    State(app): State<Arc<App>>,
    params: Result<Query<Params>, QueryRejection>,
) -> Result<Json<JsonValue>, ApiError> {
    let (variant, pos) = parse(&app, params)?;
    let analysis = analyse(app, variant, pos).await?;
    Ok(Json(json::analysis(&analysis, &variant)))
}

/// `GET /api/v1/bounds`: [`json::floor_analysis`], the object of `asalto
/// query --floor K --json`, from every floor folder under the tables
/// folder that holds files of the variant at or below the position's
/// soldiers (`build --floor K --assume SIDE`): what each proves of the
/// real game and the bracket they give together. HTTP 404 when there is
/// none.
pub(super) async fn bounds(
    State(app): State<Arc<App>>,
    params: Result<Query<Params>, QueryRejection>,
) -> Result<Json<JsonValue>, ApiError> {
    let (variant, pos) = parse(&app, params)?;
    let soldiers = pos.soldiers().count_ones() as u8;
    let floors: Vec<Floor> = crate::table::floors_under(&app.options.tables, &variant)
        .into_iter()
        .filter(|f| f.k() <= soldiers)
        .collect();
    if floors.is_empty() {
        return Err(ApiError::NoTables(format!(
            "no floor files of {variant} under {} at or below {soldiers} soldiers: no bounds for this position (asalto build --floor K --assume officers|soldiers builds them)",
            app.options.tables.display()
        )));
    }
    let mut found = Vec::with_capacity(floors.len());
    for f in floors {
        let set = app.set(&variant, Some(f));
        found.push((f, analyse_in(app.clone(), set, variant, pos).await?));
    }
    Ok(Json(json::floor_analysis(&Bracket { found }, &variant)))
}

/// `GET /api/v1/moves`: [`json::moves`], the object of `asalto moves
/// --json` (no values: nothing is solved).
pub(super) async fn moves(
    State(app): State<Arc<App>>,
    params: Result<Query<Params>, QueryRejection>,
) -> Result<Json<JsonValue>, ApiError> {
    let (variant, pos) = parse(&app, params)?;
    Ok(Json(json::moves(&pos, &variant)))
}

/// `GET /api/v1/bestmove`: [`json::best_move`], the perfect opponent's
/// move.
pub(super) async fn best_move(
    State(app): State<Arc<App>>,
    params: Result<Query<Params>, QueryRejection>,
) -> Result<Json<JsonValue>, ApiError> {
    let (variant, pos) = parse(&app, params)?;
    let analysis = analyse(app, variant, pos).await?;
    Ok(Json(json::best_move(&analysis, &variant)))
}

/// `GET /api/v1/board`: the points (`name`, `file` 0..=6, `rank` 1..=7,
/// `fortress`), the lines between neighbouring points, the presets, the
/// server's variant and the position the page opens on (`opening`:
/// `position` and `note`, [`opening`]).
pub(super) async fn board(State(app): State<Arc<App>>) -> Json<JsonValue> {
    let points: Vec<JsonValue> = Point::all()
        .map(|p| {
            json!({"name": p.name(), "file": p.file(), "rank": p.rank(), "fortress": p.in_fortress()})
        })
        .collect();
    let lines: Vec<JsonValue> = Point::all()
        .flat_map(|p| {
            board::points(p.adjacent())
                .filter(move |q| q.index() > p.index())
                .map(move |q| json!([p.name(), q.name()]))
        })
        .collect();
    let presets: Vec<JsonValue> = Variant::PRESETS
        .iter()
        .map(|(n, v, src)| json!({"name": n, "switches": v.switches(), "source": src}))
        .collect();
    let variant = app.options.variant;
    let opening = {
        let app = app.clone();
        blocking(move || opening(&app, &variant))
            .await
            .unwrap_or_else(|_| json!({"position": "start", "note": null}))
    };
    Json(json!({
        "points": points,
        "lines": lines,
        "presets": presets,
        "variant": variant.to_string(),
        "opening": opening,
    }))
}

/// The most positions an opening position may need solved in memory
/// beyond the tables (about a second's work).
const QUICK: u64 = 1 << 22;

/// The position the page opens on for `variant`: `{"position": ...,
/// "note": ...}`. The start when the tables answer it (or floor files
/// bound it), else the largest formation (the soldiers nearest the
/// fortress, [`crate::analysis::formation_position`]) that the exact
/// tables answer, or failing that one floor's files bound, else a
/// position of the largest tier a table holds (a build's closure answers
/// every position of its tiers), with a note saying why the start is not
/// shown.
fn opening(app: &App, variant: &Variant) -> JsonValue {
    let tables = app.options.tables.display();
    let exact = app.set(variant, None);
    let floors: Vec<(Floor, Arc<TableSet>)> =
        crate::table::floors_under(&app.options.tables, variant)
            .into_iter()
            .map(|f| (f, app.set(variant, Some(f))))
            .collect();
    let quick =
        |set: &TableSet, p: &Position| ondemand::missing_tiers(p, variant, set, QUICK).is_ok();
    let start = Position::start();
    if quick(&exact, &start) {
        return json!({"position": "start", "note": null});
    }
    if let Some((f, _)) = floors.iter().find(|(_, set)| quick(set, &start)) {
        return json!({
            "position": "start",
            "note": format!("the exact tables under {tables} do not reach the start: what the floor files of {} prove of it is shown", f.folder()),
        });
    }
    // The largest formation of at least `least` soldiers `set` answers.
    let answered = |set: &TableSet, least: u8| {
        (least..24)
            .rev()
            .find(|&k| quick(set, &crate::analysis::formation_position(k)))
    };
    if let Some(k) = answered(&exact, 9) {
        return json!({
            "position": crate::analysis::formation_position(k).to_string(),
            "note": format!("the start needs the whole game's tables, which {tables} does not hold: opening on the formation of {k} soldiers, which its tables answer"),
        });
    }
    for (f, set) in &floors {
        if let Some(k) = answered(set, f.k()) {
            return json!({
                "position": crate::analysis::formation_position(k).to_string(),
                "note": format!("neither the exact tables nor the floor files under {tables} reach the start: opening on the formation of {k} soldiers, which the floor files of {} bound", f.folder()),
            });
        }
    }
    let sets = std::iter::once((None, exact.clone()))
        .chain(floors.iter().map(|(f, s)| (Some(*f), s.clone())));
    for (f, set) in sets {
        if let Some(p) = set.largest_tier().map(|key| natural_position(&key)) {
            let what = f.map_or("its exact tables hold".to_string(), |f| {
                format!("the floor files of {} bound", f.folder())
            });
            return json!({
                "position": p.to_string(),
                "note": format!("neither the exact tables nor the floor files under {tables} reach the start or a formation: opening on a position of the largest tier {what}"),
            });
        }
    }
    json!({
        "position": "start",
        "note": format!("no tables under {tables} for {variant}: a position is valued by solving it in memory where it needs at most {} positions", app.options.limit),
    })
}

/// A position of tier `key` to open on: soldiers to move, the officers in
/// the fortress where the tier has such a placement (the first in index
/// order), else its first soldiers-to-move position.
fn natural_position(key: &crate::index::TierKey) -> Position {
    let half = (key.size() / 2) as u32;
    (half..2 * half)
        .map(|i| crate::index::position_at(key, i))
        .find(|p| p.officers() & !board::FORTRESS == 0)
        .unwrap_or_else(|| crate::index::position_at(key, half))
}

/// Any other route: 404 with `{"error": ...}`.
pub(super) async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(uri.path().to_string())
}

/// A route asked with a method other than GET: 405 with `{"error": ...}`.
pub(super) async fn method_not_allowed(method: axum::http::Method) -> ApiError {
    ApiError::MethodNotAllowed(method.to_string())
}

/// A request line over the limit, as `limit::LineLimit` hands it on.
pub(super) async fn request_line_too_long() -> ApiError {
    ApiError::RequestLineTooLong
}
