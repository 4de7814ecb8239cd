//! The explorer page's files (`assets/`: plain HTML, CSS and JavaScript,
//! no build step) and the plots of a committed balance report, embedded
//! in the binary: the page fetches nothing from outside.

use super::api::ApiError;
use axum::extract::Path;
use axum::http::header::CONTENT_TYPE;
use axum::response::{Html, IntoResponse, Response};

/// The page.
const INDEX: &str = include_str!("assets/index.html");
/// Its script.
const SCRIPT: &str = include_str!("assets/app.js");
/// Its style.
const STYLE: &str = include_str!("assets/style.css");

/// The plots of the newest committed balance curves, by name: the
/// results by soldier count and the critical mass of asalto, assault and
/// assaut-mdj to 20 soldiers (`three-sheets-…`, from
/// notebooks/data/three-sheets-formations-9-20) and of assaut to 18
/// (`assaut-…`, notebooks/data/assaut-formations-9-18): no report holds
/// the four presets beyond 17.
const REPORT: [(&str, &str); 8] = [
    (
        "three-sheets-wdl-natural.svg",
        include_str!("../../notebooks/data/three-sheets-formations-9-20/wdl-natural.svg"),
    ),
    (
        "three-sheets-wdl-2o-soldiers-to-move.svg",
        include_str!(
            "../../notebooks/data/three-sheets-formations-9-20/wdl-2o-soldiers-to-move.svg"
        ),
    ),
    (
        "three-sheets-wdl-2o-officers-to-move.svg",
        include_str!(
            "../../notebooks/data/three-sheets-formations-9-20/wdl-2o-officers-to-move.svg"
        ),
    ),
    (
        "three-sheets-critical-mass.svg",
        include_str!("../../notebooks/data/three-sheets-formations-9-20/critical-mass.svg"),
    ),
    (
        "assaut-wdl-natural.svg",
        include_str!("../../notebooks/data/assaut-formations-9-18/wdl-natural.svg"),
    ),
    (
        "assaut-wdl-2o-soldiers-to-move.svg",
        include_str!("../../notebooks/data/assaut-formations-9-18/wdl-2o-soldiers-to-move.svg"),
    ),
    (
        "assaut-wdl-2o-officers-to-move.svg",
        include_str!("../../notebooks/data/assaut-formations-9-18/wdl-2o-officers-to-move.svg"),
    ),
    (
        "assaut-critical-mass.svg",
        include_str!("../../notebooks/data/assaut-formations-9-18/critical-mass.svg"),
    ),
];

/// `GET /`.
pub(super) async fn index() -> Html<&'static str> {
    Html(INDEX)
}

/// `GET /app.js`.
pub(super) async fn script() -> Response {
    ([(CONTENT_TYPE, "text/javascript; charset=utf-8")], SCRIPT).into_response()
}

/// `GET /style.css`.
pub(super) async fn style() -> Response {
    ([(CONTENT_TYPE, "text/css; charset=utf-8")], STYLE).into_response()
}

/// `GET /report/NAME.svg`: one of [`REPORT`].
pub(super) async fn report(Path(name): Path<String>) -> Response {
    match REPORT.iter().find(|(n, _)| *n == name) {
        Some((_, svg)) => ([(CONTENT_TYPE, "image/svg+xml")], *svg).into_response(),
        None => ApiError::NotFound(format!("/report/{name}")).into_response(),
    }
}
